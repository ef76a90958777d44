"""The types of the public API, as type checkers read them.

What the functions accept (``DTypeLike``, ``OperandLike``), the names and
settings :func:`dtype_lattice.policy` takes (``PolicyName``,
``PolicySettings``), and the call signatures of a policy's native methods.
``tests/test_types.py`` compares the ``Literal`` types with the registry, so
a policy or setting added to the library fails it until it is added here.
"""

from __future__ import annotations

from typing import Any, Literal, Protocol, TypedDict, Union, overload

import numpy as np


class SupportsDType(Protocol):
    """Anything with a ``dtype``: NumPy's and JAX's arrays and scalars,
    ``jax.ShapeDtypeStruct``, :class:`dtype_lattice.Operand`."""

    @property
    def dtype(self) -> Any: ...


# Aliases are `Union[...]` rather than `X | Y`: they are evaluated at run
# time, where Python 3.10 cannot `|` every one of these objects.

#: A type, as ``promote_types`` and the casting functions take it: a NumPy
#: dtype, a scalar type (``np.int8``, ``ml_dtypes.bfloat16``), a name in any
#: spelling the command line takes (``"int8"``, ``"bf16"``), one of Python's
#: types ``bool``, ``int``, ``float``, ``complex`` (weak), or an object with
#: a ``dtype`` (``jnp.int8``, a JAX array). Two differences from what is
#: read at run time: other frameworks' dtype objects (``torch.float16``) are
#: read but not in this type, and a NumPy array has a ``dtype`` but is
#: refused (NumPy deprecates reading an array as a dtype).
DTypeLike = Union[
    np.dtype[Any],
    type[np.generic],
    type[int],
    type[float],
    type[complex],
    str,
    SupportsDType,
]

#: An operand of ``result_type`` and the operations: a ``DTypeLike`` (an
#: array of that type), an array (anything with a ``dtype``; JAX's
#: ``weak_type`` is read), a Python scalar (weak), or ``None``.
OperandLike = Union[DTypeLike, bool, int, float, complex, None]

#: The policies whose ``Policy.lattice`` is a :class:`Lattice` (under
#: every setting), by name, alias and preset.
LatticePolicyName = Literal["jax", "array-api", "array_api", "torch", "pytorch",
                            "tensorflow-all", "keras", "keras3", "tinygrad", "tg"]
#: The policies defined by rules (``Policy.lattice`` is None), by name,
#: alias and preset.
RulesPolicyName = Literal["numpy", "np", "numpy2", "numpy1", "numpy-legacy",
                          "tensorflow-safe", "jax-lax", "mlx", "mlx.core", "paddle",
                          "paddlepaddle"]
#: The policies whose ``Policy.lattice`` depends on their settings
#: (``tensorflow_numpy_behavior="all"`` makes TensorFlow's a lattice), by
#: name and alias.
SettingsPolicyName = Literal["tensorflow", "tf", "tensorflow-numpy", "tnp"]
#: Every name, alias and preset :func:`dtype_lattice.policy` takes, as
#: ``dtype_lattice.policy_names()`` lists them.
PolicyName = Literal[LatticePolicyName, RulesPolicyName, SettingsPolicyName]

# Each choice setting's values, as `dtype_lattice.settings()` lists them.
ExplicitX64Dtypes = Literal["warn", "error", "allow"]
KerasBackend = Literal["tensorflow", "jax", "numpy"]
Floatx = Literal["float32", "float16", "bfloat16", "float64"]
TinygradDefaultFloat = Literal["float32", "float16", "bfloat16", "float64"]
TinygradDefaultInt = Literal["int32", "int64"]
TensorflowNumpyBehavior = Literal["off", "legacy", "safe", "all"]


class PolicySettings(TypedDict, total=False):
    """The settings a policy is made with, as keywords of
    :func:`dtype_lattice.policy` and in ``Policy.settings`` (which has
    them all): a flag is a bool, a choice one of its values' names."""

    x64: bool
    strict: bool
    explicit_x64_dtypes: ExplicitX64Dtypes
    keras_backend: KerasBackend
    floatx: Floatx
    tinygrad_default_float: TinygradDefaultFloat
    tinygrad_default_int: TinygradDefaultInt
    tensorflow_numpy_behavior: TensorflowNumpyBehavior
    tensorflow_prefer_float32: bool


class SettingInfo(TypedDict):
    """One row of :func:`dtype_lattice.settings`."""

    name: str
    values: list[str]
    flag: bool
    option: str
    help: str
    policies: list[str]


class PresetInfo(TypedDict):
    """One row of :func:`dtype_lattice.presets`: a familiar name for a
    policy with some settings fixed."""

    name: PolicyName
    entry: PolicyName
    settings: PolicySettings


WeakTyped = tuple[np.dtype[Any], bool]


class PromoteTypes(Protocol):
    """``promote_types(a, b)``: the dtype both types promote to."""

    def __call__(self, a: DTypeLike, b: DTypeLike, /) -> np.dtype[Any]: ...


class ResultType(Protocol):
    """``result_type(*args)``: the dtype of an operation on the operands;
    ``(dtype, weak)`` with ``return_weak_type_flag=True``."""

    @overload
    def __call__(self, *args: OperandLike,
                 return_weak_type_flag: Literal[False] = False) -> np.dtype[Any]: ...
    @overload
    def __call__(self, *args: OperandLike,
                 return_weak_type_flag: Literal[True]) -> WeakTyped: ...
    @overload
    def __call__(self, *args: OperandLike,
                 return_weak_type_flag: bool) -> np.dtype[Any] | WeakTyped: ...


class WeakResult(Protocol):
    """``lattice_result_type(*args)``, ``add(*args)``: ``(dtype, weak)``."""

    def __call__(self, *args: OperandLike) -> WeakTyped: ...


#: How a program writes an operation (``dtype_lattice.OpForm`` in Rust):
#: ``lib.op(a, b)``, ``a OP b``, ``b.__rOP__(a)``, ``a OP= b``, ``a[...] = b``.
FormName = Literal["function", "operator", "reflected", "inplace", "setitem"]


class Operation(Protocol):
    """``operation(op, *args, form=None, dtype=None, promote_integers=None,
    initial=None)``: the dtype the framework's ``op`` (NumPy's name:
    ``"true_divide"``, ``"less"``, ``"sqrt"``; ``"sum"``, ``"mean"``,
    ``"matmul"``, ``"where"``, ...) gives on the operands, in ``form`` where
    given (``op`` ``None`` for ``"setitem"``), with ``dtype=``, JAX's
    ``promote_integers=`` and ``initial=`` (a Python number: ``sum``,
    ``prod``, ``max``, ``min``) for the reductions, contractions and
    combinations; ``(dtype, weak)`` with
    ``return_weak_type_flag=True``."""

    @overload
    def __call__(self, op: str | None, /, *args: OperandLike,
                 form: FormName | None = None, dtype: DTypeLike | None = None,
                 promote_integers: bool | None = None,
                 initial: bool | int | float | complex | None = None,
                 return_weak_type_flag: Literal[False] = False) -> np.dtype[Any]: ...
    @overload
    def __call__(self, op: str | None, /, *args: OperandLike,
                 form: FormName | None = None, dtype: DTypeLike | None = None,
                 promote_integers: bool | None = None,
                 initial: bool | int | float | complex | None = None,
                 return_weak_type_flag: Literal[True]) -> WeakTyped: ...
    @overload
    def __call__(self, op: str | None, /, *args: OperandLike,
                 form: FormName | None = None, dtype: DTypeLike | None = None,
                 promote_integers: bool | None = None,
                 initial: bool | int | float | complex | None = None,
                 return_weak_type_flag: bool) -> np.dtype[Any] | WeakTyped: ...


class ComputesIn(Protocol):
    """``computes_in(op, *args, dtype=None, promote_integers=None,
    initial=None)``: the
    dtype the framework computes ``op`` in where it says (JAX's ``float16``
    ``mean`` sums in ``float32``), else ``None``."""

    def __call__(self, op: str, /, *args: OperandLike,
                 dtype: DTypeLike | None = None,
                 promote_integers: bool | None = None,
                 initial: bool | int | float | complex | None = None
                 ) -> np.dtype[Any] | None: ...


class CanCast(Protocol):
    """``can_cast(from, to)`` under the framework's safe casting."""

    def __call__(self, a: DTypeLike, b: DTypeLike, /) -> bool: ...


class SafeToCast(Protocol):
    """JAX's ``safe_to_cast(x, dtype)``."""

    def __call__(self, x: OperandLike, dtype: DTypeLike, /) -> bool: ...
