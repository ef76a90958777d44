"""``dl.record()`` for PyTorch: the calls of a program that combine
operands or reduce, as PyTorch ran them.

PyTorch hands every ``torch`` function, ``Tensor`` method and operator
(``x + 1``, reflected ``2 - x``, in-place ``x += 1``) to the
``__torch_function__`` of the torch function modes on the calling thread's
stack. Recording pushes one (``torch.overrides.TorchFunctionMode``) and
pops it when the block ends, errors included: nothing else is replaced.
Its handler calls PyTorch's function with the same arguments and returns
its answer, so no result changes; while it runs PyTorch disables the mode,
so what a function calls inside (``F.linear``'s matmul) is PyTorch's way
of computing it, not the user's call, and is not seen.

Of what the handler sees, the operations the library models become calls
(the table :data:`OPERATIONS`): the elementwise binary operations (an
operator's in-place form as the operation, since the line shows the form;
a reflected form with its operands in the order the user wrote them), the
reductions (``sum``, ``mean``, ``max`` ... with ``dtype=``), the
contractions (``matmul``, ``@``, ``mm``, ``bmm``, ``dot``, ``tensordot``,
``einsum``) and ``where``, ``clamp``/``clip``, ``cat`` and ``stack``;
everything else (``F.linear``, indexing, casts) is handed through unseen.
Each operand keeps what PyTorch distinguishes: a tensor with dimensions, a
0-d tensor (which promotes below those, its position noted) or a Python
scalar (weak, as the dtype PyTorch makes of it: ``int64``, ``float64``,
``complex128``, ``bool``). The result is the type of what PyTorch returned
(a reduction's values where it returns values and indices; for a
comparison, whose answer is always bool, the type it compares in, PyTorch's
``torch.result_type`` of its operands, as JAX's report gives the
promotion), or the exception it raised; the site is the user's line
(``_sites``).

Limits: torch function modes are per thread, so only the thread that
entered the block is recorded (JAX's recording is process-wide); code run
by ``torch.compile`` is traced by Dynamo, whose graphs then run without
the user's lines (as generated code, ``<eval_with_key>``, or none in
Python), so its calls are counted (:attr:`Recorder.compiled`) and named in
the report rather than recorded as if eager; dtypes the library
does not know (quantized types) are skipped and counted.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from ._sites import Site, Sites, package_dirs

# The library's names of the elementwise binary operations, by PyTorch's.
_BINARY = {
    "add": "add", "sub": "subtract", "subtract": "subtract", "mul": "multiply",
    "multiply": "multiply", "div": "true_divide", "divide": "true_divide",
    "true_divide": "true_divide", "floor_divide": "floor_divide", "remainder": "remainder",
    "pow": "power", "maximum": "maximum", "minimum": "minimum", "eq": "equal",
    "ne": "not_equal", "not_equal": "not_equal", "lt": "less", "less": "less",
    "le": "less_equal", "less_equal": "less_equal", "gt": "greater", "greater": "greater",
    "ge": "greater_equal", "greater_equal": "greater_equal", "bitwise_and": "bitwise_and",
    "bitwise_or": "bitwise_or", "bitwise_xor": "bitwise_xor", "logical_and": "logical_and",
}
# Python's operators by the method name's stem (`__radd__` is `radd`).
_OPERATORS = {
    "add": "add", "sub": "subtract", "mul": "multiply", "truediv": "true_divide",
    "div": "true_divide", "floordiv": "floor_divide", "mod": "remainder", "pow": "power",
    "and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor", "eq": "equal",
    "ne": "not_equal", "lt": "less", "le": "less_equal", "gt": "greater",
    "ge": "greater_equal", "matmul": "matmul",
}
_REDUCTIONS = {
    "sum": "sum", "prod": "prod", "mean": "mean", "var": "var", "std": "std", "amax": "max",
    "amin": "min", "argmax": "argmax", "argmin": "argmin", "any": "any", "all": "all",
    "cumsum": "cumsum", "cumprod": "cumprod",
}
_CONTRACTIONS = {"matmul": "matmul", "mm": "matmul", "bmm": "matmul", "dot": "dot",
                 "tensordot": "tensordot", "einsum": "einsum"}
_SEQUENCES = {"cat": "concatenate", "concat": "concatenate", "concatenate": "concatenate",
              "stack": "stack"}

# The file name of the Python code torch.fx generates for a graph.
_GENERATED = "<eval_with_key>"

# The operations whose answer is bool: recorded with the type they compare in.
_COMPARISONS = frozenset({"equal", "not_equal", "less", "less_equal", "greater",
                          "greater_equal", "logical_and"})

#: How each kind of call's operands are read: ``(kind, library name,
#: reflected)`` by PyTorch's function object, built when recording starts
#: (:func:`operations`).
OPERATIONS: dict[Any, tuple[str, str, bool]] = {}

# Python's scalar types as PyTorch wraps them (a wrapped number's dtype).
_SCALARS = ((bool, "bool"), (int, "int64"), (float, "float64"), (complex, "complex128"))


def operations(torch: Any) -> dict[Any, tuple[str, str, bool]]:
    """PyTorch's functions, methods and operators the recorder reads, each
    as ``(kind, library name, reflected)``."""
    if OPERATIONS:
        return OPERATIONS
    found: dict[Any, tuple[str, str, bool]] = {}

    def add(name: str, entry: tuple[str, str, bool], *, methods: bool = True,
            functions: bool = True) -> None:
        owners = ((torch,) if functions else ()) + ((torch.Tensor,) if methods else ())
        for owner in owners:
            function = getattr(owner, name, None)
            if function is not None:
                found.setdefault(function, entry)

    for name, op in _BINARY.items():
        add(name, ("binary", op, False))
        add(name + "_", ("binary", op, False), functions=False)
    add("rsub", ("binary", "subtract", True), methods=False)
    for stem, op in _OPERATORS.items():
        kind = "contraction" if op == "matmul" else "binary"
        add(f"__{stem}__", (kind, op, False), functions=False)
        add(f"__i{stem}__", (kind, op, False), functions=False)
        add(f"__r{stem}__", (kind, op, True), functions=False)
    for name, op in _REDUCTIONS.items():
        add(name, ("reduction", op, False))
    for name in ("max", "min"):  # a reduction, or with a tensor an elementwise one
        add(name, ("max_min", name, False))
    for name, op in _CONTRACTIONS.items():
        add(name, ("contraction", op, False))
    add("where", ("where", "where", False), methods=False)
    # `x.where(condition, y)`: the tensor first, the condition second.
    add("where", ("where_method", "where", False), functions=False)
    for name in ("clamp", "clip", "clamp_", "clip_"):
        add(name, ("clip", "clip", False))
    for name, op in _SEQUENCES.items():
        add(name, ("sequence", op, False), methods=False)
    OPERATIONS.update(found)
    return OPERATIONS


# (name, operands, result, refusal, settings, keywords, zero-dim positions)
Payload = tuple[str, tuple, Any, Any, tuple, tuple[str | None, None], tuple[int, ...]]


class Recorder:
    """PyTorch's recorder: ``calls`` maps ``(site, payload)`` to a count.
    Made and installed by :func:`start`, undone by :meth:`stop`."""

    #: The framework's registry name, which the report names.
    framework = "torch"

    def __init__(self, torch: Any, known: frozenset[str]) -> None:
        self._torch = torch
        self._known = known
        self._table = operations(torch)
        self._sites = Sites(package_dirs(torch))
        self.calls: dict[tuple[Site, Payload], int] = {}
        self.skipped = 0
        #: Calls of modelled operations seen while ``torch.compile`` traced,
        #: or made by the code of its graphs.
        self.compiled = 0
        self._mode: Any = None

    @staticmethod
    def settings_of(settings: tuple) -> dict[str, Any]:
        """PyTorch reads no settings of the registry's."""
        return {}

    # -- reading ---------------------------------------------------------------

    def _dtype(self, dtype: Any) -> str | None:
        name = str(dtype).removeprefix("torch.")
        return name if name in self._known else None

    def _operand(self, value: Any) -> tuple[tuple[str, bool], bool] | None:
        """``((dtype, weak), zero_dim)`` of an operand, or None where it is
        none the library reads (None, a list, an unknown dtype)."""
        if isinstance(value, self._torch.Tensor):
            name = self._dtype(value.dtype)
            return None if name is None else ((name, False), value.dim() == 0)
        for scalar, name in _SCALARS:
            if isinstance(value, scalar):
                return (name, True), False
        return None

    def _operands(self, kind: str, op: str, reflected: bool, args: tuple,
                  kwargs: dict) -> tuple[str, list[Any]] | None:
        """The operation's library name and its operands in the order the
        user wrote them, or None for a call that is not one of those
        modelled (``div`` with ``rounding_mode="trunc"``, ``max`` over a
        dimension without a second tensor is still a reduction)."""
        if kind == "binary":
            if len(args) < 2 and "other" not in kwargs and "exponent" not in kwargs:
                return None
            first = args[0] if args else kwargs.get("input")
            second = args[1] if len(args) > 1 else kwargs.get("other", kwargs.get("exponent"))
            if op == "true_divide":
                mode = kwargs.get("rounding_mode")
                if mode == "floor":
                    op = "floor_divide"
                elif mode is not None:
                    return None
            return op, [second, first] if reflected else [first, second]
        if kind == "max_min":
            if len(args) > 1 and isinstance(args[1], self._torch.Tensor):
                return ("maximum" if op == "max" else "minimum"), [args[0], args[1]]
            return op, [args[0]] if args else []
        if kind == "reduction":
            return op, [args[0] if args else kwargs.get("input")]
        if kind == "contraction":
            if op == "einsum":
                rest = args[1:]
                if len(rest) == 1 and isinstance(rest[0], (list, tuple)):
                    rest = tuple(rest[0])
                return op, list(rest)
            pair = list(args[:2])
            return op, pair[::-1] if reflected else pair
        if kind in ("where", "where_method"):
            # The condition chooses; the two values promote (as JAX records).
            values = list(args[1:3]) if kind == "where" else [args[0], *args[2:3]]
            return (op, values) if len(values) == 2 else None
        if kind == "clip":
            bounds = [*args[1:3], kwargs.get("min"), kwargs.get("max")]
            return op, [args[0], *(b for b in bounds if b is not None)]
        if kind == "sequence":
            tensors = args[0] if args else kwargs.get("tensors", ())
            return (op, list(tensors)) if isinstance(tensors, (list, tuple)) else None
        return None

    def _result(self, out: Any) -> tuple[str, bool] | None:
        if isinstance(out, tuple) and out:  # (values, indices)
            out = out[0]
        if isinstance(out, self._torch.Tensor):
            name = self._dtype(out.dtype)
            return None if name is None else (name, False)
        return None

    # -- recording -------------------------------------------------------------

    def called(self, func: Any, args: tuple, kwargs: dict, run: Callable[[], Any]) -> Any:
        """Runs ``run()`` (PyTorch's function) and notes the call if it is
        one of :data:`OPERATIONS`; returns what PyTorch returned."""
        entry = self._table.get(func)
        if entry is None:
            return run()
        read = self._operands(*entry, args, kwargs)
        if read is None or not read[1]:
            return run()
        name, values = read
        operands = [self._operand(value) for value in values]
        keyword = kwargs.get("dtype") if entry[0] == "reduction" else None
        dtype = None if keyword is None else self._dtype(keyword)
        caller = sys._getframe(1)
        try:
            out = run()
        except (RuntimeError, TypeError, ValueError) as err:
            self._note(name, operands, None, err, dtype, keyword, caller)
            raise
        if name in _COMPARISONS:
            # Its answer is bool whatever it compares in: the type it
            # compares in is PyTorch's promotion of the operands.
            self._note(name, operands, self._promotion(values), None, None, None, caller)
        else:
            self._note(name, operands, self._result(out), None, dtype, keyword, caller)
        return out

    def _promotion(self, values: list[Any]) -> tuple[str, bool] | None:
        """``torch.result_type`` of two operands, as PyTorch answers it."""
        try:
            promoted = self._torch.result_type(*values)
        except (RuntimeError, TypeError):
            return None
        name = self._dtype(promoted)
        return None if name is None else (name, False)

    def _note(self, name: str, operands: list, result: Any, refusal: BaseException | None,
              dtype: str | None, keyword: Any, caller: Any) -> None:
        if any(o is None for o in operands) or (keyword is not None and dtype is None) \
                or (refusal is None and result is None):
            self.skipped += 1
            return
        site = self._sites.site(self._sites.user_frame(caller))
        if site[0].startswith(_GENERATED):
            # A compiled graph run as generated Python (torch.compile's
            # eager backends): no line of the user's to show.
            self.compiled += 1
            return
        error = None if refusal is None else (type(refusal).__name__, str(refusal))
        read = tuple(typed for typed, _ in operands)
        zero_dim = tuple(i for i, (_, zero) in enumerate(operands) if zero)
        payload = (name, read, result, error, (), (dtype, None), zero_dim)
        key = (site, payload)
        self.calls[key] = self.calls.get(key, 0) + 1

    def stop(self) -> None:
        """Pops the mode (doing it again does nothing)."""
        global _active
        mode, self._mode = self._mode, None
        if mode is None:
            return
        try:
            mode.__exit__(None, None, None)
        finally:
            if _active is self:
                _active = None


_active: Recorder | None = None


def _mode_class(torch: Any) -> type:
    """The torch function mode recording installs, made once PyTorch is
    imported (its base class is PyTorch's)."""
    compiling = torch.compiler.is_compiling

    class Mode(torch.overrides.TorchFunctionMode):
        def __init__(self, recorder: Recorder) -> None:
            super().__init__()
            self.recorder = recorder

        def __torch_function__(self, func: Any, types: Any, args: tuple = (),
                               kwargs: dict | None = None) -> Any:
            kwargs = kwargs or {}
            if compiling():
                # Dynamo traces this handler: count, touch no frames.
                if func in OPERATIONS:
                    self.recorder.compiled += 1
                return func(*args, **kwargs)
            return self.recorder.called(func, args, kwargs, lambda: func(*args, **kwargs))

    return Mode


def start() -> Recorder:
    """Pushes a recording mode on this thread's torch function mode stack
    and returns its recorder. Raises ``RuntimeError`` while another
    PyTorch recording is active (recordings do not nest)."""
    global _active
    import torch

    from . import _native

    if _active is not None:
        raise RuntimeError(
            "dtype_lattice.record() is already recording; recordings do not nest: "
            "end the active one (leave its with block) before starting another")
    recorder = Recorder(torch, frozenset(_native.dtype_names()))
    mode = _mode_class(torch)(recorder)
    mode.__enter__()
    recorder._mode = mode
    _active = recorder
    return recorder


def active() -> Recorder | None:
    """The active PyTorch recorder, or None."""
    return _active
