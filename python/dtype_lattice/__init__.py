"""JAX's dtype promotion, exact and fast, and lattices you can check and draw.

Every answer comes from the Rust library dtype-lattice, the same functions its
command-line tool calls; this package converts Python objects and renders
results. The module-level functions follow JAX under its defaults (x64 off,
standard promotion); :func:`policy` gives any other framework or setting.

>>> import numpy as np
>>> import dtype_lattice as dl
>>> dl.promote_types(np.int8, np.uint8)
dtype('int16')
>>> dl.result_type(np.float16, 2.5)
dtype('float16')
>>> dl.result_type("int8", 2, return_weak_type_flag=True)
(dtype('int8'), False)
>>> dl.policy("numpy").result_type(np.int8, 2.5)
dtype('float64')
>>> lat = dl.Lattice({"A": ["C", "D"], "B": ["C", "D"]})
>>> lat.check().is_lattice
False
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast, overload

import numpy as np

from . import _inputs, _native
from ._native import (DoesNotReturnError, InvalidArgumentError, NotFoundError,
                      ReturnedNotImplemented, TypePromotionError,
                      UFuncTypeError, UnimplementedError)
from ._report import AuditReport, CheckReport, Diff, Difference, Explanation, Table
from ._info import FInfo, IInfo
from ._promotions import Promotions, Recording, promotions, record
from ._types import (CanCast, ComputesIn, DTypeLike, FormName, LatticePolicyName, Operation,
                     OperandLike, PolicyName, PolicySettings, PresetInfo, PromoteTypes, ResultType,
                     RulesPolicyName, SafeToCast, SettingInfo, SettingsPolicyName, WeakResult)

if sys.version_info >= (3, 11):
    from typing import Unpack
elif TYPE_CHECKING:
    # Python 3.10 has no `Unpack`, and the package does not depend on
    # `typing_extensions`; checkers know it whether or not it is installed.
    from typing_extensions import Unpack

if TYPE_CHECKING:
    # Importing `_jax` at run time waits for patch_jax().
    from ._jax import JaxPatch

__all__ = [
    "AuditReport", "CheckReport", "DTypeLike", "Diff", "Difference", "DoesNotReturnError",
    "Explanation", "FInfo", "FormName", "IInfo", "InvalidArgumentError", "NotFoundError",
    "UFuncTypeError",
    "Lattice", "Operand", "OperandLike", "Policy", "PolicyName", "PolicySettings", "PresetInfo",
    "Promotions", "Recording", "ReturnedNotImplemented", "SettingInfo", "Table", "TypePromotionError",
    "canonicalize_dtype", "finfo", "iinfo", "isdtype", "issubdtype", "lattice_result_type",
    "operand", "patch_jax", "policy", "policy_names", "presets", "promote_types", "promotions",
    "record",
    "result_type", "settings", "UnimplementedError",
]
__version__ = _native.__version__

# What `Policy.lattice` is: a `Lattice` for the policies a lattice defines,
# None for those defined by rules, so that `policy("jax").lattice.explain`
# type-checks and `policy("numpy").lattice.explain` does not.
_LatticeT = TypeVar("_LatticeT", bound="Lattice | None", covariant=True)


class Policy(Generic[_LatticeT]):
    """One framework's promotion rules under one configuration: the same
    thing as the Rust library's ``Policy`` (a ``Box<dyn Policy>`` from its
    registry), whose methods these call.

    Made by :func:`policy`. ``promote_types`` and ``result_type`` are the
    library's functions themselves (no Python in between); the other
    methods exist where the framework has them and raise ``TypeError``
    otherwise. ``operation(op, *args)`` gives the dtype of an operation by
    NumPy's name, where the policy models it. To a type checker it is a
    ``Policy[Lattice]`` or ``Policy[None]`` (what :attr:`lattice` is), by
    the name given to :func:`policy`:

    >>> jax = policy("jax")
    >>> jax.operation("true_divide", "int32", "int32")
    dtype('float32')
    >>> jax.operation("less", "int8", 2.5, return_weak_type_flag=True)
    (dtype('bool'), True)
    """

    __slots__ = ("_native", "promote_types", "result_type",
                 "lattice_result_type", "add", "operation", "computes_in", "can_cast",
                 "safe_to_cast")

    # The native methods themselves, bound in __init__ (no Python call in
    # between), typed for checkers by their call signatures.
    promote_types: PromoteTypes
    result_type: ResultType
    lattice_result_type: WeakResult
    add: WeakResult
    operation: Operation
    computes_in: ComputesIn
    can_cast: CanCast
    safe_to_cast: SafeToCast

    def __init__(self, native: _native.Policy) -> None:
        self._native = native
        self.promote_types = native.promote_types
        self.result_type = native.result_type
        self.lattice_result_type = native.lattice_result_type
        self.add = native.add
        self.operation = native.operation
        self.computes_in = native.computes_in
        self.can_cast = native.can_cast
        self.safe_to_cast = native.safe_to_cast

    @property
    def name(self) -> str:
        """The policy and its settings, as the command line prints them."""
        return self._native.name

    @property
    def settings(self) -> PolicySettings:
        """The settings the policy was made with, by the names
        :func:`settings` lists: ``{"x64": False, "strict": False,
        "explicit_x64_dtypes": "warn"}``."""
        return self._native.settings

    @property
    def lattice(self) -> _LatticeT:
        """The policy's typed lattice, or None for a policy defined by rules."""
        native = self._native.lattice()
        # The name the policy was made by decides which (test_types.py).
        return cast(_LatticeT, None if native is None else Lattice._wrap(native))

    def canonicalize_dtype(self, dtype: DTypeLike) -> np.dtype[Any]:
        """JAX's ``canonicalize_dtype`` under this configuration."""
        return self._native.canonicalize_dtype(dtype)

    def table(self, types: list[DTypeLike] | tuple[DTypeLike, ...] | None = None) -> Table:
        """The promotion table over ``types`` (default: the 18 types of
        JAX's documentation), as data that renders as HTML in notebooks."""
        return Table(self.name, self._native.table(types))

    def diff(self, other: Policy[Lattice | None],
             types: list[DTypeLike] | tuple[DTypeLike, ...] | None = None) -> Diff:
        """The cells where ``promote_types`` differs from ``other``'s (as
        ``dtype-lattice diff`` reports them), over ``types``: a list of
        :class:`Difference` that renders as a table in notebooks."""
        if not isinstance(other, Policy):
            raise TypeError(f"Policy.diff: other is {other!r}, not a Policy: give one made by "
                            "dl.policy(), such as dl.policy('numpy')")
        report = self._native.diff(other._native, types)
        return Diff(self.name, other.name, [
            Difference(d["row"], d["column"], d["left"], d["right"],
                       [(n["dtype"], n["policy"]) for n in d["not_native"]])
            for d in report["differences"]])

    def __repr__(self) -> str:
        return f"<dtype_lattice.Policy {self.name}>"


@overload
def policy(name: LatticePolicyName = "jax",
           **settings: Unpack[PolicySettings]) -> Policy[Lattice]: ...
@overload
def policy(name: RulesPolicyName, **settings: Unpack[PolicySettings]) -> Policy[None]: ...
@overload
def policy(name: SettingsPolicyName,
           **settings: Unpack[PolicySettings]) -> Policy[Lattice | None]: ...
# The settings stay `**settings` at run time, read by the library, whose
# errors name an unknown one and the closest known (a signature of keyword
# parameters would leave that to Python's own message).
def policy(name: str = "jax", **settings: bool | str) -> Policy[Lattice | None]:
    """The policy called ``name``: any name, alias or preset the command
    line's ``--policy`` takes (``policy_names()`` lists them; a preset, as
    :func:`presets` lists them, is its policy with settings fixed, and a
    keyword that contradicts it is a ``ValueError``), under the settings
    given as keywords by the names :func:`settings` lists, the same names
    the command line's flags, batch requests and the explorer use:
    ``x64=True`` (``jax_enable_x64``), ``strict=True``
    (``jax_numpy_dtype_promotion="strict"``) and ``explicit_x64_dtypes``
    (``"warn"``: a 64-bit dtype requested with x64 off is truncated with
    JAX's ``UserWarning``; ``"error"``: refused with its ``ValueError``;
    ``"allow"``: kept). A policy ignores the settings it does not read.

    >>> policy("jax", x64=True).promote_types("uint32", "int32")
    dtype('int64')
    >>> policy("jax", x46=True)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: policy() got an unexpected keyword argument: unknown setting 'x46': did you mean 'x64'? (known: x64, strict, explicit_x64_dtypes, ...)
    """
    return Policy(_native.policy(name, **settings))


def settings() -> list[SettingInfo]:
    """The settings every policy is made with: for each, its ``name`` (the
    keyword :func:`policy` takes), its ``values`` (the default first),
    whether it is a ``flag`` (a bool), the framework ``option`` it stands
    for, its ``help``, and the ``policies`` that read it.

    >>> [s["name"] for s in settings()][:3]
    ['x64', 'strict', 'explicit_x64_dtypes']
    """
    return _native.settings()


def policy_names() -> tuple[list[PolicyName], list[tuple[PolicyName, PolicyName]]]:
    """The policy names and their aliases, as ``(names, [(alias, name)])``;
    the names are the entries, each followed by its presets
    (:func:`presets`)."""
    return _native.policy_names()


def presets() -> list[PresetInfo]:
    """The presets: familiar names for a policy with some settings fixed,
    each with its ``name``, the ``entry`` it builds and the ``settings`` it
    fixes. :func:`policy` takes a preset's name as a policy's, and refuses
    a setting that contradicts it.

    >>> presets()[0]
    {'name': 'tensorflow-safe', 'entry': 'tensorflow', 'settings': {'tensorflow_numpy_behavior': 'safe'}}
    >>> policy("tensorflow-safe").name
    'tensorflow (numpy behavior safe)'
    """
    return _native.presets()


_JAX = _native.policy("jax")
#: ``jnp.promote_types(a, b)`` under JAX's defaults.
promote_types = _JAX.promote_types
#: ``jax.numpy.result_type(*args, return_weak_type_flag=False)`` under JAX's
#: defaults.
result_type = _JAX.result_type
#: JAX's internal ``lattice_result_type(*args)``: ``(dtype, weak)``.
lattice_result_type = _JAX.lattice_result_type


def canonicalize_dtype(dtype: DTypeLike) -> np.dtype[Any]:
    """JAX's ``canonicalize_dtype`` with x64 off (``policy("jax", x64=True)``
    for the other setting)."""
    return _JAX.canonicalize_dtype(dtype)


class Operand:
    """A stand-in for an array: a ``dtype`` and JAX's ``weak_type`` flag.

    Any function here reads it as an array of that dtype, so weak arrays can
    be described without JAX installed.
    """

    __slots__ = ("dtype", "weak_type")

    def __init__(self, dtype: DTypeLike, weak_type: bool = False) -> None:
        self.dtype = dtype
        self.weak_type = weak_type

    def __repr__(self) -> str:
        prefix = "weak" if self.weak_type else "array"
        return f"dl.operand('{prefix}:{self.dtype}')"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Operand) and self.dtype == other.dtype
                and self.weak_type == other.weak_type)

    def __hash__(self) -> int:
        return hash((self.dtype, self.weak_type))


def operand(text: str) -> OperandLike:
    """What the command line's operand notation names: ``"weak:int32"`` and
    ``"array:bfloat16"`` give an :class:`Operand`, a dtype name its
    ``numpy.dtype``, ``"2+3j"``, ``"int"``, ``"True"`` the Python value or
    type."""
    form, value, weak = _native.parse_operand(text)
    return Operand(value, weak) if form == "array" else value


def finfo(dtype: DTypeLike) -> FInfo:
    """NumPy's ``finfo`` facts of a float or complex dtype (``ml_dtypes``'
    for the small floats), computed from the format's encoding."""
    return FInfo(**_native.finfo(dtype))


def iinfo(dtype: DTypeLike) -> IInfo:
    """NumPy's ``iinfo`` facts of an integer dtype."""
    return IInfo(**_native.iinfo(dtype))


def isdtype(dtype: DTypeLike,
            kind: str | DTypeLike | tuple[str | DTypeLike, ...]) -> bool:
    """The Array API's ``isdtype``: ``kind`` a kind name (``"integral"``,
    ``"real floating"``, ...), a dtype, or a tuple of them."""
    return _native.isdtype_(dtype, kind)


def issubdtype(a: DTypeLike, b: DTypeLike) -> bool:
    """NumPy's ``issubdtype`` over the 32 dtypes and NumPy's abstract types
    (``np.integer`` or ``"integer"``, ``np.floating``, ...)."""
    return _native.issubdtype_(a, b)


class Lattice:
    """A promotion graph: each node and the nodes it may promote to.

    ``edges`` is a dict of lists, as JAX's ``dtypes.py`` and the design
    notebook write lattices; a node that is a dtype name stands for that
    dtype, ``i*``, ``f*``, ``c*`` are weak; ``dtypes`` maps other labels to
    dtypes, ``weak`` lists more weak nodes. Renders as SVG in notebooks.
    """

    __slots__ = ("_native",)

    def __init__(self, edges: Mapping[str, list[str] | tuple[str, ...]], *,
                 dtypes: Mapping[str, str | np.dtype[Any] | type[np.generic]] | None = None,
                 weak: list[str] | tuple[str, ...] | set[str] | frozenset[str] | None = None,
                 name: str | None = None) -> None:
        args = _inputs.lattice_arguments(edges, dtypes, weak, name)
        self._native = _native.Lattice(args.pop("edges"), **args)

    @classmethod
    def _wrap(cls, native: _native.Lattice) -> Lattice:
        lattice = cls.__new__(cls)
        lattice._native = native
        return lattice

    @classmethod
    def from_toml(cls, path: str | os.PathLike[str]) -> Lattice:
        """A lattice file, as ``dtype-lattice check FILE`` reads it."""
        return cls._wrap(_native.Lattice.from_toml(os.fsdecode(os.fspath(path))))

    @property
    def name(self) -> str:
        return self._native.name

    @property
    def nodes(self) -> list[str]:
        return self._native.nodes

    @property
    def edges(self) -> list[tuple[str, str]]:
        return self._native.edges

    def check(self, max_examples: int = 10) -> CheckReport:
        """Whether the graph is a lattice, and why not."""
        return CheckReport(self.name, self._native.check(max_examples))

    def join(self, a: str, b: str) -> str | None:
        """The least upper bound of two nodes (None if they have no upper
        bound; ``ValueError`` naming the candidates if no least one)."""
        return self._native.join(_inputs.label_argument(a, "join", "a"),
                                 _inputs.label_argument(b, "join", "b"))

    def explain(self, a: str, b: str) -> Explanation:
        """Each input's upper bounds, the common ones, the join and a
        shortest path to it from each."""
        a = _inputs.label_argument(a, "explain", "a")
        b = _inputs.label_argument(b, "explain", "b")
        return Explanation(self.name, a, b, self._native.explain(a, b))

    def audit(self) -> AuditReport:
        """The design notebook's criteria on every pair of dtypes."""
        return AuditReport(self._native.audit())

    def to_svg(self, highlight: tuple[str, str] | None = None) -> str:
        """The Hasse diagram as SVG; ``highlight`` a pair to mark."""
        return self._native.to_svg(_inputs.pair(highlight, "to_svg"))

    def to_dot(self, highlight: tuple[str, str] | None = None) -> str:
        """The Hasse diagram as Graphviz DOT."""
        return self._native.to_dot(_inputs.pair(highlight, "to_dot"))

    def _repr_svg_(self) -> str:
        return self.to_svg()

    def __len__(self) -> int:
        return len(self._native)

    def __repr__(self) -> str:
        return repr(self._native)


def patch_jax() -> JaxPatch:
    """Makes JAX itself ask dtype-lattice for its dtype promotions.

    Replaces ``jax._src.dtypes.promote_types`` (``jnp.promote_types``) and
    ``lattice_result_type`` (behind ``result_type`` and JAX's internal
    promotions) under every name JAX binds them to; JAX's configuration is
    read at each call, errors are JAX's own classes, and JAX's functions
    answer where the library cannot (extended dtypes; an unmodelled
    ``jax_explicit_x64_dtypes`` mode). Checked against JAX 0.10.2 and
    0.12.0.1; another release is refused. Returns the patch: ``.undo()``
    restores JAX's original objects, and ``with dl.patch_jax(): ...`` undoes
    it on leaving the block. Patching while patched is an error. See
    ``dtype_lattice._jax``.

    >>> with dl.patch_jax():  # doctest: +SKIP
    ...     jnp.promote_types("int8", "uint8")
    dtype('int16')
    """
    from ._jax import patch_jax as patch
    return patch()
