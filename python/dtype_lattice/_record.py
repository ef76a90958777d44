"""``dl.record()``: the promotions JAX makes while a block of code runs.

JAX's NumPy API promotes its operands in a few functions of
``jax._src.numpy.util``: ``promote_args(fun_name, *args)`` and its
``_inexact``, ``_numeric`` and ``_complex`` variants, which name the
function they serve (``"add"``, ``"true_divide"``), and the
``promote_dtypes`` family they call, which other JAX functions (``where``,
``concatenate``, ``clip``) call directly; ``x + y`` on arrays and tracers
reaches them through ``jnp.add``. The contractions (``matmul`` and ``@``,
``dot``, ``tensordot``, ``einsum``) ask ``dtypes.result_type(*operands,
return_weak_type_flag=True)`` instead, for the type they compute in.
Recording replaces them, under every name JAX binds them to (the table
:data:`CHECKED`; ``result_type`` only where the contractions look it up),
with the machinery ``patch_jax`` uses, by functions that call JAX's and
note, for each call, the user's line (the first frame outside JAX, jaxlib
and dtype-lattice), the function's name (a ``promote_dtypes`` caller's
own), the operands as JAX reads them (``dtypes._dtype_and_weaktype``),
JAX's own ``result_type`` of them (or its refusal) and JAX's configuration.
JAX's functions that call others (``floor_divide`` calls ``where``) are
recorded at the user's line too.

The reductions promote nothing but choose the type they accumulate in
(``jnp.sum`` of ``int8`` is ``int32`` with x64 off, a ``float16`` mean
sums in ``float32``): recording also replaces the functions JAX's
reductions call (the table :data:`REDUCTIONS`: ``_reduce_sum`` for
``jnp.sum`` and ``x.sum()``, ``_cumulative_reduction`` for ``cumsum``,
``_argmax`` ...), noting the array as JAX reads it, the ``dtype=`` and
``promote_integers=`` given (``True``, the default, as not given: JAX's
own functions pass it), and the type of what JAX returned. What JAX does
inside a reduction (``mean``'s ``sum`` in ``float32``, the promotions of
its arguments) is its way of computing it, not the user's call, and is not
recorded.

JAX traces its NumPy functions once per argument types and caches the trace
(``jnp.add`` is a ``jit`` inlined into its caller), so after the first call
the promotion functions are not called again. Recording therefore also
watches JAX's two tracing caches, ``pjit._infer_params`` (jit) and
``partial_eval.trace_to_jaxpr`` (control flow, custom derivatives): a trace
remembers the promotions made inside it, and a cached trace replays them at
the call that reuses it, so every call counts. To see eager calls, whose
jitted functions C++ would otherwise dispatch without Python, recording
declines JAX's C++ fast path (``pjit._get_fastpath_data`` answers None):
eager code runs slower while recording, with the same results. JAX's caches
are cleared when recording starts (a function traced before would replay
nothing) and when it ends (so the fast path comes back).

Nothing JAX computes changes: each replaced function calls JAX's with the
same arguments and returns its answer; the jaxprs are the same (tested).

Recording is process-wide: the replaced names are module attributes, so
every thread's calls go through them while a recording is active, and are
recorded at their own lines. When it ends, each name still holding the
recorder's function gets JAX's back; one that something else replaced
meanwhile is left as it is and named in a ``RuntimeWarning``
(``_bindings.restore``), and the recorder's functions, if still called from
there, hand each call to JAX's.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import sys
import threading
from collections.abc import Callable
from typing import Any

from . import _jax
from ._bindings import Binding, mark, restore, swap, warn_left
from ._sites import Site, Sites, package_dirs

_DTYPES = "jax._src.dtypes"
_UTIL = "jax._src.numpy.util"
_PJIT = "jax._src.pjit"
_PE = "jax._src.interpreters.partial_eval"


Names = dict[tuple[str, str], tuple[str, ...]]

# The functions JAX's reductions call, by module, with the operation each
# is: what recording replaces to see a reduction (the public functions and
# the array methods all reach them through their module's globals).
# ``_cumulative_reduction`` takes the operation's name first.
_REDUCTIONS_MODULE = "jax._src.numpy.reductions"
_LAX_NUMPY = "jax._src.numpy.lax_numpy"
REDUCTIONS: dict[tuple[str, str], str | None] = {
    (_REDUCTIONS_MODULE, "_reduce_sum"): "sum",
    (_REDUCTIONS_MODULE, "_reduce_prod"): "prod",
    (_REDUCTIONS_MODULE, "_reduce_max"): "max",
    (_REDUCTIONS_MODULE, "_reduce_min"): "min",
    (_REDUCTIONS_MODULE, "_reduce_any"): "any",
    (_REDUCTIONS_MODULE, "_reduce_all"): "all",
    (_REDUCTIONS_MODULE, "_mean"): "mean",
    (_REDUCTIONS_MODULE, "_var"): "var",
    (_REDUCTIONS_MODULE, "_std"): "std",
    (_REDUCTIONS_MODULE, "_cumulative_reduction"): None,
    (_LAX_NUMPY, "_argmax"): "argmax",
    (_LAX_NUMPY, "_argmin"): "argmin",
}


def _checked(changes: Names) -> Names:
    """The names of one release: those both releases share, then its own."""
    stats = "jax._src.scipy.stats."
    shared = {
        (_UTIL, "promote_args"): ("jax._src.numpy.ufuncs", _UTIL),
        (_UTIL, "promote_args_complex"): (_UTIL, "jax._src.scipy.special"),
        (_UTIL, "promote_args_inexact"): (
            "jax._src.numpy.ufuncs", _UTIL, "jax._src.ops.special", "jax._src.scipy.linalg",
            "jax._src.scipy.special", stats + "_core",
            *(stats + name for name in (
                "bernoulli", "beta", "betabinom", "binom", "cauchy", "chi2", "expon",
                "gamma", "gennorm", "geom", "gumbel_l", "gumbel_r", "laplace", "logistic",
                "nbinom", "norm", "pareto", "poisson", "t", "truncnorm", "uniform",
                "vonmises", "wrapcauchy")),
            "jax._src.third_party.scipy.betaln", "jax._src.third_party.scipy.special"),
        (_UTIL, "promote_args_numeric"): ("jax._src.numpy.ufuncs", _UTIL),
        (_UTIL, "promote_dtypes"): (
            "jax._src.numpy.index_tricks", "jax._src.numpy.polynomial",
            "jax._src.numpy.setops", _UTIL, "jax._src.ops.scatter", "jax._src.scipy.linalg",
            "jax.experimental.sparse.coo", "jax.experimental.sparse.csr"),
        (_UTIL, "promote_dtypes_complex"): (
            _UTIL, "jax._src.scipy.fft", "jax._src.scipy.linalg", "jax._src.scipy.signal"),
        (_UTIL, "promote_dtypes_inexact"): (
            "jax._src.image.scale", "jax._src.numpy.fft", "jax._src.numpy.linalg",
            "jax._src.numpy.polynomial", "jax._src.numpy.reductions", "jax._src.numpy.ufuncs",
            _UTIL, "jax._src.random.core", "jax._src.scipy.cluster.vq", "jax._src.scipy.fft",
            "jax._src.scipy.linalg", "jax._src.scipy.optimize.line_search",
            "jax._src.scipy.signal", "jax._src.scipy.special", stats + "dirichlet",
            stats + "kde", stats + "multivariate_normal", stats + "poisson",
            "jax._src.third_party.scipy.interpolate", "jax.experimental.ode"),
        (_UTIL, "promote_dtypes_numeric"): (
            "jax._src.numpy.reductions", "jax._src.numpy.ufuncs", _UTIL),
        # Only the name JAX's contractions call it by (`dtypes.result_type`).
        (_DTYPES, "result_type"): (_DTYPES,),
        (_PJIT, "_infer_params"): (_PJIT,),
        (_PJIT, "_get_fastpath_data"): (_PJIT,),
        (_PE, "trace_to_jaxpr"): (_PE,),
        # The reductions' own functions, each bound in its module only.
        **{key: (key[0],) for key in REDUCTIONS},
    }
    names = dict(shared)
    for key, more in changes.items():
        names[key] = (*shared[key], *more)
    return names


_MULTINOMIAL = ("jax._src.scipy.stats.multinomial",)

#: The modules whose functions (``matmul``, ``dot``, ``tensordot``,
#: ``einsum``) promote by asking ``dtypes.result_type(*operands,
#: return_weak_type_flag=True)`` for the type they compute in.
CONTRACTIONS = ("jax._src.numpy.tensor_contractions", "jax._src.numpy.einsum")

#: The JAX releases recording was checked against, and for each the names
#: it replaces: ``(module defining it, name)`` and the modules that bind it
#: (found by scanning every module of the release:
#: ``python/scripts/check_record.py --scan``).
CHECKED: dict[str, Names] = {
    "0.10.2": _checked({(_UTIL, "promote_args_inexact"): _MULTINOMIAL,
                        (_UTIL, "promote_args_numeric"): _MULTINOMIAL}),
    "0.12.0.1": _checked({(_UTIL, "promote_dtypes_inexact"): _MULTINOMIAL,
                          (_UTIL, "promote_dtypes_numeric"): _MULTINOMIAL}),
}

#: A recorded call's key: the site ``(file, line, function)`` (``Site``)
#: and what was called ``(operation, operands, result, refusal, settings)``.
# (name, operands as read, result, refusal, settings, keywords): keywords
# a reduction's (dtype= name, promote_integers=), each None where not given.
Payload = tuple[str, tuple, Any, Any, tuple[bool, bool, str], tuple[str | None, bool | None]]

#: In a trace's memory, a call made at the line that called the cached
#: function (which a replay reports at its own caller's line).
_AT_CALLER = None

_active: Recorder | None = None


class _Frame:
    """A call of a cached JAX tracing function: where it was called from,
    the calls recorded inside it (to remember with the trace), and whether
    anything ran inside (a cache miss)."""

    __slots__ = ("here", "_user", "items", "ran")

    def __init__(self, here: Any) -> None:
        self.here = here
        self._user: Any = False
        self.items: list[tuple[Payload, Site | None]] = []
        self.ran = False


class Recorder:
    """JAX's recorder: the calls seen while recording: ``calls`` maps ``(site, payload)``
    to a count. Made and installed by :func:`start`, undone by
    :meth:`stop`."""

    #: The framework's registry name, which the report names.
    framework = "jax"

    def __init__(self, internal_dirs: tuple[str, ...]) -> None:
        from jax._src import config, dtypes

        self._config, self._dtypes = config, dtypes
        self.calls: dict[tuple[Site, Payload], int] = {}
        self.skipped = 0
        self._sites = Sites(internal_dirs)
        self._local = threading.local()
        self._lock = threading.Lock()
        # id(trace) -> (trace, what was recorded inside it); the trace is kept
        # so that its id is not reused while recording.
        self._memo: dict[int, tuple[Any, list]] = {}
        self._results: dict[tuple, Any] = {}
        self._bindings: list[Binding] = []

    # -- where ----------------------------------------------------------------

    def _user_frame(self, frame: Any) -> Any:
        """The first frame outside JAX, jaxlib and dtype-lattice."""
        return self._sites.user_frame(frame)

    _site = staticmethod(Sites.site)

    def _user_of(self, frame: _Frame) -> Any:
        if frame._user is False:
            frame._user = self._user_frame(frame.here)
        return frame._user

    def _stack(self) -> list[_Frame]:
        stack = getattr(self._local, "stack", None)
        if stack is None:
            stack = self._local.stack = []
        return stack

    # -- what -----------------------------------------------------------------

    def _count(self, site: Site, payload: Payload) -> None:
        key = (site, payload)
        with self._lock:
            self.calls[key] = self.calls.get(key, 0) + 1

    @staticmethod
    def settings_of(settings: tuple[bool, bool, str]) -> dict[str, Any]:
        """A call's configuration as the library reads it, by registry
        names."""
        x64, strict, mode = settings
        return {"x64": x64, "strict": strict, "explicit_x64_dtypes": mode}

    def _settings(self) -> tuple[bool, bool, str]:
        config = self._config
        return (bool(config.enable_x64.value),
                config.numpy_dtype_promotion.value == "strict",
                config.explicit_x64_dtypes.value.name.lower())

    def promoted(self, name: str, args: tuple, refusal: BaseException | None,
                 caller: Any, result: Any = None) -> None:
        """Notes a call of a promotion function: JAX's reading of ``args``,
        its ``result_type`` of them (``result``, or asked here; none if it
        refused), its configuration; ``caller`` is the frame that called
        the promotion function."""
        if getattr(self._local, "reducing", False):
            return  # inside a reduction: how JAX computes it
        dtypes = self._dtypes
        read = tuple(dtypes._dtype_and_weaktype(arg) for arg in args)
        if not all(_native_dtype(dtype) for dtype, _ in read):
            self.skipped += 1  # JAX's extended dtypes: no promotion to judge
            return
        settings = self._settings()
        if refusal is not None:
            result, error = None, (type(refusal).__name__, str(refusal))
        else:
            if result is None:
                # JAX's result_type reads what lattice_result_type read, so
                # it is a function of the reading and the configuration:
                # asked once for each.
                known = (read, settings)
                result = self._results.get(known)
                if result is None:
                    result = self._results[known] = dtypes.result_type(
                        *args, return_weak_type_flag=True)
            error = None
        self._note((name, read, result, error, settings, (None, None)), caller)

    def reduced(self, name: str, array: Any, dtype: Any, promote_integers: Any,
                out: Any, refusal: BaseException | None, caller: Any) -> None:
        """Notes a reduction: the array as JAX read it, the keywords given
        (``dtype`` by name), the (dtype, weak) of what JAX returned or its
        refusal; ``caller`` is the frame that called JAX's function."""
        import numpy as np

        dtypes = self._dtypes
        read = (dtypes._dtype_and_weaktype(array),)
        try:
            keyword = None if dtype is None else np.dtype(dtype).name
        except TypeError:
            keyword = None
        if not _native_dtype(read[0][0]) or (keyword is not None
                                             and not _native_dtype(np.dtype(keyword))):
            self.skipped += 1
            return
        if refusal is not None:
            result, error = None, (type(refusal).__name__, str(refusal))
        else:
            result, error = dtypes._dtype_and_weaktype(out), None
        flag = None if promote_integers is None or bool(promote_integers) else False
        self._note((name, read, result, error, self._settings(), (keyword, flag)), caller)

    def _note(self, payload: Payload, caller: Any) -> None:
        """Counts ``payload`` at the user's line above ``caller``, and
        remembers it with the traces being made."""
        user = self._user_frame(caller)
        site = self._site(user)
        self._count(site, payload)
        stack = self._stack()
        if stack:
            top = stack[-1]
            top.ran = True
            top.items.append((payload, _AT_CALLER if user is self._user_of(top) else site))

    def _pass_up(self, child: _Frame, items: list) -> None:
        """Adds what a trace recorded to the trace around it, if any: a call
        at the child's caller is at the parent's caller too, or else at the
        child's caller's line, fixed."""
        stack = self._stack()
        if not stack:
            return
        parent = stack[-1]
        parent.ran = True
        child_user = None
        for payload, site in items:
            if site is _AT_CALLER:
                if child_user is None:
                    child_user = self._user_of(child)
                site = (_AT_CALLER if child_user is self._user_of(parent)
                        else self._site(child_user))
            parent.items.append((payload, site))

    def traced(self, original: Callable[..., Any], trace_of: Callable[[Any], Any]
               ) -> Callable[..., Any]:
        """``original``, a cached tracing function, watched: a call that
        traces remembers the calls recorded inside with the trace
        (``trace_of`` its answer); a call answered from the cache replays
        them, at its caller's line where they were at the caller's."""

        def watched(*args: Any, **kwargs: Any) -> Any:
            if _active is not self:  # stopped, still called from somewhere
                return original(*args, **kwargs)
            stack = self._stack()
            frame = _Frame(sys._getframe(1))
            if stack:
                stack[-1].ran = True
            stack.append(frame)
            try:
                out = original(*args, **kwargs)
            except BaseException:
                stack.pop()
                self._pass_up(frame, frame.items)
                raise
            stack.pop()
            trace = trace_of(out)
            known = self._memo.get(id(trace))
            if known is not None and not frame.ran:
                items = known[1]
                for payload, site in items:
                    self._count(self._site(self._user_of(frame)) if site is _AT_CALLER
                                else site, payload)
            else:
                items = frame.items
                if known is None:
                    self._memo[id(trace)] = (trace, items)
            self._pass_up(frame, items)
            return out

        return watched

    # -- install --------------------------------------------------------------

    def _replacements(self) -> dict[tuple[str, str], Any]:
        from jax._src import dtypes
        from jax._src.interpreters import partial_eval as pe
        from jax._src.numpy import util

        jax_error = dtypes.TypePromotionError
        local = self._local
        own = _jax.unwrap  # a name may still hold a stopped recorder's function

        def named(original: Callable[..., Any]) -> Callable[..., Any]:
            # promote_args*(fun_name, *args): passes the name to the
            # promote_dtypes* call it makes.
            @functools.wraps(original)
            def promote_args(fun_name: str, *args: Any) -> Any:
                if _active is not self:
                    return original(fun_name, *args)
                local.name = fun_name
                try:
                    return original(fun_name, *args)
                finally:
                    local.name = None
            return promote_args

        def recorded(original: Callable[..., Any]) -> Callable[..., Any]:
            @functools.wraps(original)
            def promote_dtypes(*args: Any) -> Any:
                if _active is not self:
                    return original(*args)
                caller = sys._getframe(1)
                name = getattr(local, "name", None)
                if name is None:  # called by a JAX function directly
                    name = caller.f_code.co_name.lstrip("_")
                local.name = None
                try:
                    out = original(*args)
                except jax_error as err:
                    self.promoted(name, args, err, caller)
                    raise
                self.promoted(name, args, None, caller)
                return out
            return promote_dtypes

        def reduction(original: Callable[..., Any], op: str | None) -> Callable[..., Any]:
            signature = inspect.signature(original)

            @functools.wraps(original)
            def reduce(*args: Any, **kwargs: Any) -> Any:
                if _active is not self or getattr(local, "reducing", False):
                    return original(*args, **kwargs)
                caller = sys._getframe(1)
                try:
                    bound = signature.bind(*args, **kwargs).arguments
                except TypeError:
                    return original(*args, **kwargs)
                name = op if op is not None else bound.get("name")
                keywords = (bound.get("a"), bound.get("dtype"), bound.get("promote_integers"))
                local.reducing = True
                try:
                    out = original(*args, **kwargs)
                except (TypeError, ValueError) as err:
                    local.reducing = False
                    if isinstance(name, str):
                        self.reduced(name, *keywords, None, err, caller)
                    raise
                finally:
                    local.reducing = False
                if isinstance(name, str):
                    self.reduced(name, *keywords, out, None, caller)
                return out
            return reduce

        contractions = frozenset(importlib.import_module(name).__file__
                                 for name in CONTRACTIONS)
        original_result_type = own(dtypes.result_type)

        @functools.wraps(original_result_type)
        def result_type(*args: Any, return_weak_type_flag: bool = False) -> Any:
            caller = sys._getframe(1)
            if _active is not self or not return_weak_type_flag \
                    or caller.f_code.co_filename not in contractions:
                return original_result_type(*args, return_weak_type_flag=return_weak_type_flag)
            name = caller.f_code.co_name.lstrip("_")
            try:
                answer = original_result_type(*args, return_weak_type_flag=True)
            except jax_error as err:
                self.promoted(name, args, err, caller)
                raise
            self.promoted(name, args, None, caller, answer)
            return answer

        ours: dict[tuple[str, str], Any] = {(_DTYPES, "result_type"): result_type}
        originals: dict[tuple[str, str], Any] = {(_DTYPES, "result_type"): original_result_type}
        for (module, function), op in REDUCTIONS.items():
            found = getattr(importlib.import_module(module), function)
            originals[(module, function)] = own(found)
            ours[(module, function)] = reduction(originals[(module, function)], op)
        for function in ("promote_args", "promote_args_inexact", "promote_args_numeric",
                         "promote_args_complex"):
            originals[(_UTIL, function)] = own(getattr(util, function))
            ours[(_UTIL, function)] = named(originals[(_UTIL, function)])
        for function in ("promote_dtypes", "promote_dtypes_inexact", "promote_dtypes_numeric",
                         "promote_dtypes_complex"):
            originals[(_UTIL, function)] = own(getattr(util, function))
            ours[(_UTIL, function)] = recorded(originals[(_UTIL, function)])
        from jax._src import pjit

        infer_params = originals[(_PJIT, "_infer_params")] = own(pjit._infer_params)
        ours[(_PJIT, "_infer_params")] = functools.wraps(infer_params)(
            self.traced(infer_params, lambda out: out[0].params["jaxpr"]))
        fastpath = originals[(_PJIT, "_get_fastpath_data")] = own(pjit._get_fastpath_data)

        @functools.wraps(fastpath)
        def no_fastpath(*args: Any, **kwargs: Any) -> Any:
            return None if _active is self else fastpath(*args, **kwargs)

        ours[(_PJIT, "_get_fastpath_data")] = no_fastpath
        trace_to_jaxpr = originals[(_PE, "trace_to_jaxpr")] = own(pe.trace_to_jaxpr)
        ours[(_PE, "trace_to_jaxpr")] = _Cached(
            trace_to_jaxpr, self.traced(trace_to_jaxpr, lambda out: out[0]))

        def live() -> bool:
            return _active is self

        return {key: mark(function, originals[key], live)
                for key, function in ours.items()}

    def stop(self) -> None:
        """Puts JAX's objects back and clears its caches (see the module
        docstring); doing it again does nothing. A name that something else
        replaced while recording is left as it is, every other name
        restored, and a ``RuntimeWarning`` names it (``_bindings.restore``)."""
        global _active
        with _jax.LOCK:
            if _active is not self:
                return
            try:
                left = restore(self._bindings)
            finally:
                _active = None
                self._memo.clear()
                _jax.clear_jax_caches()
        # Blames the with statement, past Recording.__exit__.
        warn_left(left, "dtype_lattice.record()", "JAX", 3)


class _Cached:
    """JAX's cached ``trace_to_jaxpr`` watched: calls go through the
    watcher, the cache's own methods (``evict_weakref``, ``cache_clear``)
    to JAX's object."""

    def __init__(self, original: Any, watched: Callable[..., Any]) -> None:
        self.__wrapped__ = original
        self._watched = watched

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._watched(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.__wrapped__, name)


def _native_dtype(dtype: Any) -> bool:
    """Whether the library knows the dtype (not one of JAX's extended ones)."""
    try:
        return dtype in _jax._known_dtypes()
    except TypeError:
        return False


def _internal_dirs() -> tuple[str, ...]:
    import jax
    import jaxlib

    return package_dirs(jax, jaxlib)


@functools.cache
def _hide_from_jax_tracebacks() -> None:
    """JAX leaves its own frames out of the tracebacks of its errors; the
    recorder's wrappers are left out with them."""
    from jax._src import traceback_util

    traceback_util.register_exclusion(__file__)


def start() -> Recorder:
    """Installs a recorder (module docstring) and returns it. Raises
    ``RuntimeError`` for a JAX release not in :data:`CHECKED`, while another
    recording is active (recordings do not nest), or when a name to replace
    does not hold JAX's own object."""
    global _active
    names = _jax.checked_names(CHECKED, "dtype_lattice.record()")
    _hide_from_jax_tracebacks()
    with _jax.LOCK:
        if _active is not None:
            raise RuntimeError(
                "dtype_lattice.record() is already recording; recordings do not nest: "
                "end the active one (leave its with block) before starting another")
        recorder = Recorder(_internal_dirs())
        ours = recorder._replacements()
        bindings = [binding for (home, function), modules in names.items()
                    for binding in _jax.find_bindings(home, function, modules,
                                                      ours[(home, function)])]
        _jax.clear_jax_caches()
        swap(bindings)
        recorder._bindings = bindings
        _active = recorder
    return recorder


def active() -> Recorder | None:
    """The active recorder, or None."""
    return _active
