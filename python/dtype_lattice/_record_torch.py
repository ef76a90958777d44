"""``dl.record()`` for PyTorch: the calls of a program that combine
operands or reduce, as PyTorch ran them.

Recording replaces, while the block runs, the PyTorch functions, ``Tensor``
methods and operators the library models (the table :func:`operations`):
the elementwise binary operations under every name (``torch.add``,
``x.add``, ``x.add_``, ``x + 1``, in-place ``x += 1``, reflected ``2 - x``,
whose ``Tensor.__rsub__`` is the name Python calls), the reductions
(``sum``, ``mean``, ``max`` ... with ``dtype=``), the contractions
(``matmul``, ``@``, ``mm``, ``bmm``, ``dot``, ``tensordot``, ``einsum``) and
``where``, ``clamp``/``clip``, ``cat`` and ``stack``. Each replacement calls
PyTorch's function with the same arguments and returns its answer (or
raises its error), so no result changes; everything else (``F.linear``,
indexing, casts, PyTorch's fused kernels) runs untouched, at full speed.

Why not a ``torch.overrides.TorchFunctionMode``, which sees every call
without replacing anything: while any mode is active PyTorch leaves its
fused fast paths (``nn.TransformerEncoderLayer`` in eval mode runs its
unfused modules), and every call, modelled or not, pays the mode, which
cost 1.7x on a transformer layer before recording did anything
(BENCHMARKS.md, "Recording a PyTorch program"). Replacing names costs only
the calls recorded, and PyTorch runs what it runs without recording.

Of the calls seen, the modelled ones become entries: the operation's name
(an operator's in-place form as the operation, since the line shows the
form; a reflected form with its operands in the order the user wrote
them), each operand as PyTorch distinguishes it (a tensor with dimensions,
a 0-d tensor, which promotes below those, its position noted, or a Python
scalar: weak, as the dtype PyTorch makes of it, ``int64``, ``float64``,
``complex128``, ``bool``), and the type of what PyTorch returned (a
reduction's values where it returns values and indices; for a comparison,
whose answer is always bool, the type it compares in, PyTorch's
``torch.result_type`` of its operands, as JAX's report gives the
promotion), or the exception it raised; the site is the user's line
(``_sites``), so the calls PyTorch's own Python code makes (a module's
``forward``) are recorded at the line that called into PyTorch, as JAX's
are. What a recorded call does inside (``__rtruediv__`` multiplies by a
reciprocal) is PyTorch's way of computing it, not the user's call, and is
not recorded.

Recording is process-wide, as JAX's is: every thread's calls go through
the replaced names and are recorded at their own lines. When it ends each
name gets back what it held (a ``Tensor`` operator inherited from
PyTorch's C base class is deleted again, so lookups reach the base class
as before); one that something else replaced meanwhile is left as it is and
named in a ``RuntimeWarning`` (``_bindings.restore``), and the recorder's
function, if still called from there, hands each call to PyTorch's.

Limits: a function bound to another name before recording started
(``from torch import add``) is called under that name without being seen;
code run by ``torch.compile`` is traced by Dynamo, whose graphs then run
without the user's lines (as generated code, ``<eval_with_key>``, or none
in Python), so its calls are counted (:attr:`Recorder.compiled`) and named
in the report rather than recorded as if eager; dtypes the library does
not know (quantized types) are skipped and counted.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Any

from ._bindings import ABSENT, Binding, inherited, mark, own, restore, swap, unwrap, warn_left
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

#: How each call is read: ``(kind, library name, reflected)`` by
#: ``(owner, name)``, the owner ``torch`` or ``torch.Tensor``, built when
#: recording first starts (:func:`operations`).
OPERATIONS: dict[tuple[Any, str], tuple[str, str, bool]] = {}

# Kinds of operand (Recorder._operand): a tensor; a type not yet seen.
_TENSOR = object()
_UNSEEN = object()

# Python's scalar types as PyTorch wraps them (a wrapped number's dtype).
_SCALARS = ((bool, "bool"), (int, "int64"), (float, "float64"), (complex, "complex128"))


def operations(torch: Any) -> dict[tuple[Any, str], tuple[str, str, bool]]:
    """The names recording replaces, ``(torch or torch.Tensor, name)``, each
    with how its calls are read: ``(kind, library name, reflected)``. A name
    this PyTorch does not have is left out."""
    if OPERATIONS:
        return OPERATIONS
    found: dict[tuple[Any, str], tuple[str, str, bool]] = {}

    def add(name: str, entry: tuple[str, str, bool], *, methods: bool = True,
            functions: bool = True) -> None:
        owners = ((torch,) if functions else ()) + ((torch.Tensor,) if methods else ())
        for owner in owners:
            if getattr(owner, name, None) is not None:
                found.setdefault((owner, name), entry)

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

# A call as noted while recording, cheap to build and hash: ((id of the
# code, instruction) of the user's frame or None, operation, operands, result,
# refusal, dtype=), each operand ``(torch dtype, zero_dim)`` for a tensor
# or ``(dtype name, None)`` for a Python scalar, or None where unreadable,
# the result a torch dtype or None. Named (``calls``) when the report reads
# it: each noted call costs a key and a dictionary update, not a frame's
# line table and a dtype's name.
Noted = tuple[Any, str, tuple, Any, Any, Any]


class Recorder:
    """PyTorch's recorder: ``calls`` maps ``(site, payload)`` to a count.
    Made and installed by :func:`start`, undone by :meth:`stop`."""

    #: The framework's registry name, which the report names.
    framework = "torch"

    def __init__(self, torch: Any, known: frozenset[str]) -> None:
        self._torch = torch
        self._tensor = torch.Tensor
        self._dtype_type = torch.dtype
        self._known = known
        self._sites = Sites(package_dirs(torch))
        # Each thread's noted calls, by its id: noting takes no lock.
        self._tables: dict[int, dict[Noted, int]] = {}
        # How an operand of each type is read (see _operand).
        self._kinds: dict[type, Any] = {}
        #: Calls of modelled operations seen while ``torch.compile``'s
        #: Dynamo traced (no frames to read there).
        self.traced = 0
        # The type each operand signature compares in (a comparison's).
        self._compares_in: dict[tuple, Any] = {}
        self._lock = threading.Lock()
        #: The threads inside a recorded call: what PyTorch's Python code
        #: calls there is its way of computing it, not the user's call.
        self.inside: set[int] = set()
        self.compiling: Callable[[], bool] = torch.compiler.is_compiling
        self._bindings: list[Binding] = []

    @staticmethod
    def settings_of(settings: tuple) -> dict[str, Any]:
        """PyTorch reads no settings of the registry's."""
        return {}

    # -- recording -------------------------------------------------------------

    def called(self, entry: tuple[str, str, bool], original: Callable[..., Any], args: tuple,
               kwargs: dict, thread: int) -> Any:
        """Runs PyTorch's ``original`` and notes the call where it is one
        the library models (in the table of ``thread``, the calling
        thread's id); returns what PyTorch returned."""
        read = self._operands(*entry, args, kwargs)
        if read is None or not read[1]:
            return original(*args, **kwargs)
        name, values = read
        operands = tuple([self._operand(value) for value in values])
        keyword = kwargs.get("dtype") if entry[0] == "reduction" else None
        if keyword is not None and not isinstance(keyword, self._dtype_type):
            keyword = "?"  # not a dtype: PyTorch refuses it, the call is skipped
        # Past the replacement, the frame that called the replaced name.
        where = self._sites.where(self._sites.user_frame(sys._getframe(2)))
        try:
            out = original(*args, **kwargs)
        except (RuntimeError, TypeError, ValueError) as err:
            self._count((where, name, operands, None, (type(err).__name__, str(err)),
                         keyword), thread)
            raise
        if name in _COMPARISONS:
            # Its answer is bool whatever it compares in: the type it
            # compares in is PyTorch's promotion of the operands.
            result = self._compares_in.get(operands, self)
            if result is self:
                result = self._compares_in[operands] = self._promotion(values)
            self._count((where, name, operands, result, None, None), thread)
        else:
            self._count((where, name, operands, self._result(out), None, keyword), thread)
        return out

    def _count(self, noted: Noted, thread: int) -> None:
        table = self._tables.get(thread)
        if table is None:
            with self._lock:
                table = self._tables.setdefault(thread, {})
        table[noted] = table.get(noted, 0) + 1

    def _operand(self, value: Any) -> tuple[Any, Any] | None:
        """An operand as noted: ``(torch dtype, zero_dim)`` for a tensor,
        ``(dtype name, None)`` for a Python scalar (as PyTorch wraps it),
        None for anything else (None, a list). How to read a value is
        decided once per type (``isinstance`` of a ``Parameter`` asks its
        metaclass)."""
        kind = self._kinds.get(type(value), _UNSEEN)
        if kind is _UNSEEN:
            kind = self._kinds[type(value)] = self._kind(value)
        if kind is _TENSOR:
            return value.dtype, value.dim() == 0
        return None if kind is None else (kind, None)

    def _kind(self, value: Any) -> Any:
        """How a value of ``value``'s type is read: ``_TENSOR``, a Python
        scalar's dtype name, or None."""
        if isinstance(value, self._tensor):
            return _TENSOR
        for scalar, name in _SCALARS:
            if isinstance(value, scalar):
                return name
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
            if len(args) > 1 and isinstance(args[1], self._tensor):
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

    def _result(self, out: Any) -> Any:
        """The dtype of what PyTorch returned (of a reduction's values where
        it returns values and indices), or None."""
        if isinstance(out, tuple) and out:
            out = out[0]
        return out.dtype if isinstance(out, self._tensor) else None

    def _promotion(self, values: list[Any]) -> Any:
        """``torch.result_type`` of two operands, as PyTorch answers it."""
        try:
            return self._torch.result_type(*values)
        except (RuntimeError, TypeError):
            return None

    # -- reading ---------------------------------------------------------------

    def _name(self, dtype: Any) -> str | None:
        """The library's name of a torch dtype, or None for one it does not
        know (quantized types) or anything else."""
        if not isinstance(dtype, self._dtype_type):
            return None
        name = str(dtype).removeprefix("torch.")
        return name if name in self._known else None

    def _read(self) -> tuple[dict[tuple[Site, Payload], int], int, int]:
        """The noted calls named: ``(calls, skipped, compiled)``."""
        with self._lock:
            noted = [item for table in list(self._tables.values()) for item in list(table.items())]
        calls: dict[tuple[Site, Payload], int] = {}
        skipped = 0
        compiled = self.traced
        for (where, name, operands, result, error, keyword), count in noted:
            read = []
            for operand in operands:
                if operand is None:
                    break
                dtype, zero = operand
                if zero is None:
                    read.append((dtype, True))
                elif (known := self._name(dtype)) is not None:
                    read.append((known, False))
                else:
                    break
            dtype = None if keyword is None else self._name(keyword)
            named = None if result is None else self._name(result)
            if len(read) < len(operands) or (keyword is not None and dtype is None) \
                    or (error is None and named is None):
                skipped += count
                continue
            site = self._sites.site_of(where)
            if site[0].startswith(_GENERATED):
                # A compiled graph run as generated Python (torch.compile's
                # eager backends): no line of the user's to show.
                compiled += count
                continue
            zero_dim = tuple(i for i, (_, zero) in enumerate(operands) if zero)
            payload = (name, tuple(read), None if named is None else (named, False), error, (),
                       (dtype, None), zero_dim)
            key = (site, payload)
            calls[key] = calls.get(key, 0) + count
        return calls, skipped, compiled

    @property
    def calls(self) -> dict[tuple[Site, Payload], int]:
        """``(site, payload)`` to a count, as the report reads every
        recorder's (``_promotions._calls``)."""
        return self._read()[0]

    @property
    def skipped(self) -> int:
        """Calls left out: an operand or result of a dtype the library does
        not know, or an operand it does not read."""
        return self._read()[1]

    @property
    def compiled(self) -> int:
        """Calls of modelled operations seen while ``torch.compile`` traced,
        or made by the code of its graphs."""
        return self._read()[2]

    def stop(self) -> None:
        """Puts PyTorch's objects back (module docstring); doing it again
        does nothing."""
        global _active
        with _LOCK:
            if _active is not self:
                return
            try:
                left = restore(self._bindings)
            finally:
                _active = None
        # Blames the with statement, past Recording.__exit__.
        warn_left(left, "dtype_lattice.record()", "PyTorch", 3)


#: Held while PyTorch's names are swapped.
_LOCK = threading.Lock()
_active: Recorder | None = None
# The replacement of each name, by (owner, name): made once for what the
# name holds (building 180 wrappers cost more than a short block's calls).
_REPLACEMENTS: dict[tuple[Any, str], Callable[..., Any]] = {}


def _replacement(owner: Any, name: str, original: Callable[..., Any],
                 entry: tuple[str, str, bool]) -> Callable[..., Any]:
    """What recording puts under ``owner.name``, holding ``original``: a
    function that hands each call to the active recorder (:meth:`Recorder.called`),
    or only calls ``original`` with no recording active, inside a recorded
    call, or while Dynamo traces (counted, no frames touched)."""
    made = _REPLACEMENTS.get((owner, name))
    if made is not None and getattr(made, "__wrapped__", None) is original:
        return made
    get_ident = threading.get_ident

    def recorded(*args: Any, **kwargs: Any) -> Any:
        recorder = _active
        if recorder is None:
            return original(*args, **kwargs)
        if recorder.compiling():
            recorder.traced += 1
            return original(*args, **kwargs)
        ident = get_ident()
        inside = recorder.inside
        if ident in inside:
            return original(*args, **kwargs)
        inside.add(ident)
        try:
            return recorder.called(entry, original, args, kwargs, ident)
        finally:
            inside.discard(ident)

    recorded.__name__ = name
    recorded.__qualname__ = f"{getattr(owner, '__name__', '')}.{name}"
    recorded.__doc__ = original.__doc__
    recorded.__wrapped__ = original  # type: ignore[attr-defined]
    _script_as(original, recorded)
    _REPLACEMENTS[(owner, name)] = recorded
    return recorded


def _script_as(original: Callable[..., Any], recorded: Callable[..., Any]) -> None:
    """Tells TorchScript that ``recorded`` is ``original``'s operator
    (``aten::add`` for ``torch.add``), so that ``torch.jit.script`` of code
    calling ``torch.add`` while recording compiles it as PyTorch's, not as
    Python source it cannot read. Its table is by id: the replacement,
    kept in ``_REPLACEMENTS``, keeps its id. Where PyTorch lacks the table
    (a release without TorchScript), nothing is told."""
    try:
        from torch.jit import _builtins
    except ImportError:
        return
    find = getattr(_builtins, "_find_builtin", None)
    register = getattr(_builtins, "_register_builtin", None)
    if find is None or register is None:
        return
    op = find(original)
    if op is not None:
        register(recorded, op)


def start() -> Recorder:
    """Replaces PyTorch's modelled functions, methods and operators (module
    docstring) and returns the recorder. Raises ``RuntimeError`` while
    another PyTorch recording is active (recordings do not nest)."""
    global _active
    import torch

    from . import _native

    with _LOCK:
        if _active is not None:
            raise RuntimeError(
                "dtype_lattice.record() is already recording; recordings do not nest: "
                "end the active one (leave its with block) before starting another")
        recorder = Recorder(torch, frozenset(_native.dtype_names()))

        for (owner, name), entry in operations(torch).items():
            # What the name holds, past a replacement of an earlier
            # recording that something put back there.
            held = unwrap(own(owner, name))
            original = inherited(owner, name) if held is ABSENT else held
            ours = mark(_replacement(owner, name, original, entry), held, _recording)
            recorder._bindings.append((owner, name, held, ours))
        swap(recorder._bindings)
        _active = recorder
    return recorder


def active() -> Recorder | None:
    """The active PyTorch recorder, or None."""
    return _active


def _recording() -> bool:
    """Whether the replacements are in force (one recording at a time)."""
    return _active is not None
