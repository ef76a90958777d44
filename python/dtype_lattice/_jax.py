"""``dl.patch_jax()``: JAX asks dtype-lattice for its dtype promotions.

JAX promotes in two functions of ``jax._src.dtypes``: ``promote_types(a, b)``
(``jnp.promote_types``) and ``lattice_result_type(*args)``, through which
``result_type``, ``jnp.result_type`` and JAX's internal call sites
(``promote_dtypes``, ``jnp.array``, ...) go. The patch replaces both, under
every name JAX binds them to, with functions that

* read JAX's configuration at each call (``jax_enable_x64``,
  ``jax_numpy_dtype_promotion``, ``jax_explicit_x64_dtypes``, contexts
  included) and pick the matching :func:`dtype_lattice.policy`;
* read each operand's ``(dtype, weak)`` with JAX's own code (so specifiers,
  Python scalars, NumPy and JAX arrays and tracers are canonicalized, and
  warn, exactly as in JAX), then ask the policy: every answer and every
  promotion error comes from the library, errors raised as JAX's own
  ``jax.dtypes.TypePromotionError``;
* hand the call to JAX's original function where the library has no answer:
  an operand whose dtype is not one of the library's 32 (JAX's extended
  dtypes such as PRNG keys, ``float0``, non-native byte orders).

The rest of JAX, ``result_type``'s canonicalization of weak results included,
is left as it is. Patching clears JAX's compilation and tracing caches (and
so does undoing it), so no function traced before keeps promotions from the
other implementation.

Known differences from unpatched JAX, answers, errors and warnings aside
(those are the same, in every ``jax_explicit_x64_dtypes`` mode): warnings
from reading the operands are JAX's, but attributed to this module's line
rather than ``dtypes.py``'s. A call handed to JAX after its operands were
read reads them again, so such a warning can be given twice there.
"""

from __future__ import annotations

import functools
import importlib
import sys
import threading
from collections.abc import Callable
from types import ModuleType
from typing import Any, cast

import numpy as np

from . import Lattice, Operand, Policy, TypePromotionError, _native, policy
from ._bindings import Binding, mark, restore, swap, unwrap, warn_left
from ._types import ExplicitX64Dtypes

#: The JAX releases the patch was checked against, and for each the modules
#: that bind each replaced function (found by scanning every module of the
#: release for attributes that are the function).
CHECKED = {
    version: {
        "promote_types": ("jax._src.dtypes", "jax._src.numpy.lax_numpy",
                          "jax._src.numpy", "jax.numpy"),
        "lattice_result_type": ("jax._src.dtypes",),
    }
    for version in ("0.10.2", "0.12.0.1")
}

# The `jax_explicit_x64_dtypes` modes the native policy models: all three.
_MODELLED_MODES: tuple[ExplicitX64Dtypes, ...] = ("warn", "error", "allow")

#: Held while JAX's names are swapped, by patch_jax() and record().
LOCK = threading.Lock()
_active: JaxPatch | None = None


class JaxPatch:
    """The installed patch: :meth:`undo` it, or use it as a context manager
    (``with dl.patch_jax(): ...`` undoes it on leaving the block).

    ``answered`` and ``delegated`` count the calls dtype-lattice answered
    and the calls handed to JAX's own functions.
    """

    def __init__(self) -> None:
        # (module, name, JAX's object, ours), set once installed.
        self._bindings: list[Binding] = []
        self.answered = 0
        self.delegated = 0

    @property
    def active(self) -> bool:
        """Whether JAX still asks dtype-lattice (until :meth:`undo`)."""
        return _active is self

    @property
    def names(self) -> list[str]:
        """The replaced names, as ``module.name``."""
        return [f"{module.__name__}.{name}" for module, name, _, _ in self._bindings]

    def undo(self, *, _stacklevel: int = 2) -> None:
        """Puts JAX's original function objects back under every patched
        name and clears JAX's caches; doing it again does nothing.

        A name that something else replaced meanwhile is left as it is, and
        a ``RuntimeWarning`` names it once the rest are restored; the patch
        is undone all the same (our function, wherever it is still called
        from, hands every call to JAX's own).
        """
        global _active
        with LOCK:
            if _active is not self:
                return
            try:
                left = restore(self._bindings)
            finally:
                _active = None
                clear_jax_caches()
        warn_left(left, "dtype_lattice.patch_jax()", "JAX", _stacklevel)

    def __enter__(self) -> JaxPatch:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.undo(_stacklevel=3)

    def __repr__(self) -> str:
        state = "active" if self.active else "undone"
        return (f"<dtype_lattice JaxPatch ({state}): {self.answered} calls answered, "
                f"{self.delegated} delegated to JAX>")


def patch_jax() -> JaxPatch:
    """Makes JAX ask dtype-lattice for its dtype promotions (module
    docstring) and returns the :class:`JaxPatch`.

    Raises ``RuntimeError`` for a JAX release not in :data:`CHECKED`, when
    JAX is already patched (patching is not reentrant: undo the active
    patch first), or when a name to patch does not hold JAX's own function.
    """
    global _active
    from jax._src import config, dtypes

    names = checked_names(CHECKED, "dtype_lattice.patch_jax()")
    with LOCK:
        if _active is not None:
            raise RuntimeError(
                "JAX is already patched by dtype_lattice.patch_jax(); call .undo() "
                "on the active patch (dtype_lattice._jax.active()) first")
        handle = JaxPatch()
        ours = _replacements(handle, dtypes, config)
        bindings = [binding for function, modules in names.items()
                    for binding in find_bindings("jax._src.dtypes", function, modules,
                                                 ours[function])]
        swap(bindings)
        handle._bindings = bindings
        _active = handle
        clear_jax_caches()
    return handle


# The machinery shared with dtype_lattice.record(): a table of the names to
# replace per checked JAX release and the check that each still holds JAX's
# own object (the swap and the restore are ``_bindings``').


def checked_names(table: dict[str, Any], what: str) -> Any:
    """The installed JAX release's entry of ``table``, or ``RuntimeError``
    naming the releases ``what`` was checked against."""
    import jax

    names = table.get(jax.__version__)
    if names is None:
        raise RuntimeError(
            f"{what} was checked against JAX {' and '.join(table)}, not JAX "
            f"{jax.__version__}: install one of those, or check the patched names for "
            "this release first")
    return names


def _is_jax_own(obj: Any, home: ModuleType) -> bool:
    """Whether ``obj`` is the object JAX defines in ``home``: a Python
    function written there, or an object of a type of JAX's own (the C++
    caches JAX wraps its tracing functions in)."""
    code = getattr(obj, "__code__", None)
    if code is not None:
        return code.co_filename == home.__file__
    return type(obj).__module__.split(".")[0] in ("jax", "jaxlib")


def find_bindings(home: str, function: str, modules: tuple[str, ...],
                  replacement: Any) -> list[Binding]:
    """The names to replace ``home.function`` under (each of ``modules``),
    checked: ``RuntimeError`` if the object is not JAX's own or a module's
    name does not hold it."""
    defining = importlib.import_module(home)
    original = unwrap(getattr(defining, function))
    if not _is_jax_own(original, defining):
        raise RuntimeError(
            f"{home}.{function} is not JAX's own function ({original!r}); something "
            "else has replaced it: undo that replacement (or restart Python) first")
    bindings = []
    for name in modules:
        module = importlib.import_module(name)
        if unwrap(getattr(module, function)) is not original:
            raise RuntimeError(
                f"{name}.{function} is not {home}.{function}; something else has "
                "replaced it: undo that replacement (or restart Python) first")
        bindings.append((module, function, original, replacement))
    return bindings


def active() -> JaxPatch | None:
    """The installed patch, or None."""
    return _active


def clear_jax_caches() -> None:
    # Jitted functions (jnp's own included) keep the jaxprs traced with the
    # promotions of the time; `jax.clear_caches` drops them. JAX's own
    # `_least_upper_bound` cache is kept: its key holds the configuration and
    # only JAX's functions read it.
    jax = sys.modules["jax"]
    jax.clear_caches()


# The library's dtypes, as NumPy's objects (those the installed ml_dtypes has).
@functools.cache
def _known_dtypes() -> frozenset[np.dtype]:
    known = set()
    for name in _native.dtype_names():
        try:
            known.add(np.dtype(name))
        except TypeError:
            pass
    return frozenset(known)


@functools.cache
def _policy(x64: bool, strict: bool, mode: str) -> Policy[Lattice] | None:
    """The policy for JAX's configuration, or None where JAX's own functions
    answer."""
    if mode not in _MODELLED_MODES:
        return None
    # `in` does not narrow a str to the Literal of the modes it is one of.
    return policy("jax", x64=x64, strict=strict,
                  explicit_x64_dtypes=cast(ExplicitX64Dtypes, mode))


def _replacements(handle: JaxPatch, dtypes: ModuleType,
                  config: ModuleType) -> dict[str, Callable[..., Any]]:
    """The two functions JAX gets, bound to its modules as imported now."""
    original_promote_types = unwrap(dtypes.promote_types)
    original_lattice_result_type = unwrap(dtypes.lattice_result_type)
    jax_error = dtypes.TypePromotionError
    dtype_and_weaktype = dtypes._dtype_and_weaktype
    weak_types = tuple(dtypes._weak_types)  # Python's int, float, complex
    known = _known_dtypes()

    def configured() -> Policy | None:
        # As `_least_upper_bound`'s callers read it, at each call.
        promotion = config.numpy_dtype_promotion.value
        if promotion not in ("standard", "strict"):
            return None  # JAX's own function reports the value
        return _policy(bool(config.enable_x64.value), promotion == "strict",
                       config.explicit_x64_dtypes.value.name.lower())

    def jax_node(x: Any) -> Any:
        # `promote_types`' reading of an argument: the weak Python types by
        # identity (np.dtype(int) would be int64), all else through np.dtype.
        return x if any(x is t for t in weak_types) else np.dtype(x)

    def is_known(node: Any) -> bool:
        return isinstance(node, type) or (isinstance(node, np.dtype) and node in known)

    def answer(function: Callable[..., Any], args: Any) -> Any:
        handle.answered += 1
        try:
            return function(*args)
        except TypePromotionError as err:
            raise jax_error(*err.args) from None

    def live() -> bool:
        return _active is handle

    @functools.wraps(original_promote_types)
    def promote_types(a: Any, b: Any) -> np.dtype:
        if _active is not handle:  # undone, still called from somewhere
            return original_promote_types(a, b)
        p = configured()
        if p is not None:
            nodes = (jax_node(a), jax_node(b))
            if is_known(nodes[0]) and is_known(nodes[1]):
                return answer(p.promote_types, nodes)
        handle.delegated += 1
        return original_promote_types(a, b)

    @functools.wraps(original_lattice_result_type)
    def lattice_result_type(*args: Any) -> tuple[np.dtype, bool]:
        if _active is not handle:
            return original_lattice_result_type(*args)
        p = configured()
        if p is not None:
            read = [dtype_and_weaktype(arg) for arg in args]
            if all(is_known(d) for d, _ in read):
                return answer(p.lattice_result_type,
                              [Operand(d, weak) for d, weak in read])
        handle.delegated += 1
        return original_lattice_result_type(*args)

    return {"promote_types": mark(promote_types, original_promote_types, live),
            "lattice_result_type": mark(lattice_result_type, original_lattice_result_type,
                                        live)}
