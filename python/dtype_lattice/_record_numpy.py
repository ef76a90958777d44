"""Recording a NumPy program's operations: its operators and NumPy calls,
seen in the user's own code.

NumPy has no hook that sees ``x + 1``: its operators are C slots, its
functions C callables, and replacing them would slow NumPy's own Python
code, which calls them too. So, as pytest rewrites ``assert`` statements,
recording rewrites the user's code: the script run by ``python -m
dtype_lattice promotions`` and every module imported from under the
recorded roots (by default the script's directory; never the standard
library, site-packages or dtype-lattice) are compiled from a rewritten
syntax tree in which

- a binary operator ``a + b`` becomes ``_dl_operator("add", a, b)``,
  which applies ``+`` exactly as Python would (the right operand's
  reflected method when the left gives way: ``2 - x``) and notes the call
  when an operand or the result is a NumPy array or scalar;
- an augmented assignment ``x += b`` becomes ``x = _dl_inplace("add", x,
  b)`` (for ``a.b += c`` and ``a[i] += c`` the object and the index are
  evaluated once, as Python does);
- a single comparison ``a < b`` becomes ``_dl_operator("less", a, b)``
  (chained comparisons are left as they are: not recorded);
- a call ``f(...)`` becomes ``_dl_call(f, ...)``, which calls ``f`` and,
  when ``f`` is one of NumPy's operations (:data:`FUNCTIONS`: the ufuncs,
  the reductions, contractions and combinations, by identity) or an
  array's method of one (``x.sum()``), notes the call.

A note (:class:`Seen`) holds the user's line, the operation, its form, the
operands as NumPy received them (an array's dtype, a NumPy scalar's, a
Python scalar's value), the keywords that decide a type (``dtype=``,
``initial=``) and what NumPy returned: the result's dtype, or the
exception's class and message. Nothing NumPy computes changes: each helper
evaluates what the original code did, in the same order, and returns its
result; an exception propagates unchanged.

Limits, by construction: code outside the recorded roots (a library's own
NumPy calls, C extensions) is not seen; a module imported before recording
started keeps its original code; ``eval``/``exec`` of strings is not
rewritten; an operation reached through ``getattr``, ``functools.partial``
or a stored bound method is seen where it is called (``_dl_call`` checks
the callable, not the name). Modules rewritten stay rewritten after
recording ends (as pytest's do); their helpers then only evaluate.
"""

from __future__ import annotations

import ast
import functools
import importlib.abc
import importlib.machinery
import operator
import os
import sys
import sysconfig
import threading
from collections.abc import Callable, Sequence
from types import CodeType, ModuleType
from typing import Any

from ._sites import Sites

#: Python's binary operators, by syntax node, with NumPy's name for each
#: and the function applying it.
_BINARY: dict[type, tuple[str, Callable[[Any, Any], Any]]] = {
    ast.Add: ("add", operator.add),
    ast.Sub: ("subtract", operator.sub),
    ast.Mult: ("multiply", operator.mul),
    ast.Div: ("true_divide", operator.truediv),
    ast.FloorDiv: ("floor_divide", operator.floordiv),
    ast.Mod: ("remainder", operator.mod),
    ast.Pow: ("power", operator.pow),
    ast.MatMult: ("matmul", operator.matmul),
    ast.BitAnd: ("bitwise_and", operator.and_),
    ast.BitOr: ("bitwise_or", operator.or_),
    ast.BitXor: ("bitwise_xor", operator.xor),
    ast.LShift: ("left_shift", operator.lshift),
    ast.RShift: ("right_shift", operator.rshift),
}

_INPLACE: dict[str, Callable[[Any, Any], Any]] = {
    "add": operator.iadd, "subtract": operator.isub, "multiply": operator.imul,
    "true_divide": operator.itruediv, "floor_divide": operator.ifloordiv,
    "remainder": operator.imod, "power": operator.ipow, "matmul": operator.imatmul,
    "bitwise_and": operator.iand, "bitwise_or": operator.ior,
    "bitwise_xor": operator.ixor, "left_shift": operator.ilshift,
    "right_shift": operator.irshift,
}

_COMPARE: dict[type, tuple[str, Callable[[Any, Any], Any]]] = {
    ast.Lt: ("less", operator.lt), ast.LtE: ("less_equal", operator.le),
    ast.Gt: ("greater", operator.gt), ast.GtE: ("greater_equal", operator.ge),
    ast.Eq: ("equal", operator.eq), ast.NotEq: ("not_equal", operator.ne),
}

_APPLY: dict[str, Callable[[Any, Any], Any]] = {
    **{name: apply for name, apply in _BINARY.values()},
    **{name: apply for name, apply in _COMPARE.values()},
}

#: Builtins that read their caller's frame (``super()`` its class cell
#: and first argument): called through a helper they would read the
#: helper's, so their calls are left as written.
_FRAME_BOUND = frozenset({"super", "locals", "globals", "vars", "dir", "eval", "exec",
                          "breakpoint", "__import__"})

#: The names the rewritten code calls; bound in each rewritten module.
_HELPERS = ("_dl_operator", "_dl_inplace", "_dl_call")

#: NumPy's functions recorded by name: the operations the library models
#: (its ufuncs are found by type) and the methods of the same names.
_FUNCTION_NAMES = (
    "sum", "prod", "cumsum", "cumprod", "mean", "var", "std", "max", "min", "amax",
    "amin", "argmax", "argmin", "any", "all", "matmul", "dot", "tensordot", "einsum",
    "where", "clip", "concatenate", "stack", "full_like", "result_type",
)
#: NumPy's spellings of the library's names.
_ALIASES = {"amax": "max", "amin": "min"}


class Seen:
    """One call noted: where, what, on what, and what NumPy gave. Operands
    are ``(kind, dtype name, value)``: ``("array", "int8", None)``, ``("0d",
    "int8", None)`` for a 0-d array, ``("scalar", "float32", 1.5)`` for a
    NumPy scalar, ``("python", "int", 300)`` for a Python bool, int, float
    or complex."""

    __slots__ = ("site", "operation", "form", "operands", "keywords", "result", "error")

    def __init__(self, key: tuple, values: list[Any], objects: tuple) -> None:
        (_, instruction), operation, form, operands, keywords, _, error = key
        code, dtypes, result = objects
        self.site: tuple[str, int, str] = Sites.site_at(code, instruction)
        self.operation: str = operation
        self.form: str = form
        scalars = iter(values)
        self.operands: list[tuple[str, str, Any]] = [
            (kind, dtype if isinstance(dtype, str) else dtype.name,
             next(scalars) if kind in ("0d", "scalar", "python") else None)
            for (kind, _, _), dtype in zip(operands, dtypes)]
        self.keywords: dict[str, Any] = dict(keywords)
        self.result: str | None = None if result is None else result.name
        self.error: tuple[str, str] | None = error

    def __repr__(self) -> str:
        outcome = self.result if self.error is None else f"{self.error[0]}: {self.error[1]}"
        return (f"Seen({self.site[0]}:{self.site[1]} {self.operation}[{self.form}] "
                f"{self.operands} {self.keywords} -> {outcome})")


class _State:
    """The recording in progress, if any."""

    def __init__(self) -> None:
        self.active: NumpyRecorder | None = None
        self.lock = threading.Lock()


_state = _State()

_PYTHON_SCALARS = frozenset({bool, int, float, complex})
#: The dtype standing for a Python scalar of each type (a weak operand).
_PYTHON_DTYPES = {"bool": "bool", "int": "int64", "float": "float64", "complex": "complex128"}

#: The largest finite float16 and float32.
_FLOAT16_MAX, _FLOAT32_MAX = 65504.0, 3.4028234663852886e38


def _size(value: Any) -> Any:
    """What of a scalar's value a type can depend on (NumPy 1 chose the
    smallest type holding it): a bool itself, an int's sign and bits, a
    float's (or complex's larger part's) range: float16's, float32's,
    beyond, or not finite. Calls are counted by it, so that a loop's
    changing values make one entry, not one per value, and keep the
    first value seen as their example."""
    kind = type(value)
    if kind is bool or value is None:
        return value
    if kind is int:
        return (value < 0, value.bit_length())
    if kind is complex:
        value = max(abs(value.real), abs(value.imag))
    magnitude = abs(value)
    if magnitude != magnitude or magnitude == float("inf"):
        return "nonfinite"
    return 16 if magnitude <= _FLOAT16_MAX else 32 if magnitude <= _FLOAT32_MAX else 64


def _numpy() -> Any:
    return sys.modules.get("numpy")


def _is_numpy(value: Any, np: Any) -> bool:
    return isinstance(value, (np.ndarray, np.generic))


def _note(operation: str, form: str, args: Sequence[Any], keywords: dict[str, Any],
          result: Any, error: BaseException | None) -> None:
    """Counts the call, if a recording is active and it is NumPy's: an
    operand or the result a NumPy array or scalar, every operand one NumPy
    types (not a list or an object). Called by the helpers only: the
    user's line is two frames up. The hot path of a recording: names and
    lines are found when the recording is read."""
    recorder = _state.active
    np = sys.modules.get("numpy")
    if recorder is None or np is None:
        return
    ndarray, generic = np.ndarray, np.generic
    # The key holds the ids of the code and dtype objects, not the objects:
    # hashing a module's code object hashes its bytecode (microseconds), and
    # a dtype's hash is computed on each call. The first call's entry keeps
    # the objects, so no id is reused while the recording lasts.
    operands: list[tuple[str, Any, Any]] = []
    dtypes: list[Any] = []
    values: list[Any] = []
    numpy_seen = False
    for value in args:
        if isinstance(value, ndarray):
            dtype = value.dtype
            if value.ndim == 0:
                # Its value, which NumPy 1 promoted by, as a NumPy scalar's.
                item = value.item() if dtype.kind in "biufc" else None
                operands.append(("0d", id(dtype), _size(item)))
                values.append(item)
            else:
                operands.append(("array", id(dtype), None))
            numpy_seen = True
        elif isinstance(value, generic):
            dtype = value.dtype
            item = value.item() if dtype.kind in "biufc" else None
            operands.append(("scalar", id(dtype), _size(item)))
            values.append(item)
            numpy_seen = True
        elif type(value) in _PYTHON_SCALARS:
            dtype = type(value).__name__
            operands.append(("python", dtype, _size(value)))
            values.append(value)
        else:
            return
        dtypes.append(dtype)
    returned = result.dtype if isinstance(result, (ndarray, generic)) else None
    if not numpy_seen and returned is None:
        return
    kept: tuple = ()
    if keywords:
        chosen = []
        for name in ("dtype", "initial"):
            given = keywords.get(name)
            if given is None:
                continue
            if name == "dtype":
                try:
                    given = np.dtype(given).name
                except TypeError:
                    return
            chosen.append((name, given))
        kept = tuple(chosen)
    failed = None if error is None else (type(error).__name__, str(error))
    # The instruction, not the line: a frame's line number is decoded from
    # its code's line table on each read, the instruction's offset is a
    # field (the line is found once, when the recording is read).
    frame = sys._getframe(2)
    code = frame.f_code
    key = ((id(code), frame.f_lasti), operation, form, tuple(operands), kept, id(returned),
           failed)
    counts = recorder._counts()
    known = counts.get(key)
    if known is None:
        counts[key] = [1, values, (code, dtypes, returned)]
    else:
        known[0] += 1


def _dl_operator(name: str, a: Any, b: Any) -> Any:
    """``a OP b`` as Python evaluates it, noted."""
    try:
        result = _APPLY[name](a, b)
    except Exception as error:
        if _state.active is not None:
            np = _numpy()
            if np is not None and (_is_numpy(a, np) or _is_numpy(b, np)):
                _note(name, "operator", (a, b), {}, None, error)
        raise
    if _state.active is not None:
        _note(name, "operator", (a, b), {}, result, None)
    return result


def _dl_inplace(name: str, a: Any, b: Any) -> Any:
    """``a OP= b`` as Python evaluates it (the new value of the target),
    noted."""
    try:
        result = _INPLACE[name](a, b)
    except Exception as error:
        if _state.active is not None:
            np = _numpy()
            if np is not None and _is_numpy(a, np):
                _note(name, "inplace", (a, b), {}, None, error)
        raise
    if _state.active is not None:
        _note(name, "inplace", (a, b), {}, result, None)
    return result


def _operation_of(f: Any, np: Any) -> tuple[str, str, tuple] | None:
    """The library's name of the operation ``f`` is, its form, and the
    operand it is bound to (a method's array); None if it is none."""
    if isinstance(f, np.ufunc):
        return (f.__name__, "function", ())
    name = getattr(f, "__name__", None)
    if name not in _FUNCTION_NAMES:
        return None
    owner = getattr(f, "__self__", None)
    if isinstance(owner, np.ndarray):
        return (_ALIASES.get(name, name), "method", (owner,))
    if getattr(np, name, None) is f:
        return (_ALIASES.get(name, name), "function", ())
    return None


def _dl_call(f: Any, *args: Any, **kwargs: Any) -> Any:
    """``f(*args, **kwargs)``, noted when ``f`` is one of NumPy's
    operations."""
    if _state.active is None:
        return f(*args, **kwargs)
    np = _numpy()
    known = None if np is None else _operation_of(f, np)
    if known is None:
        return f(*args, **kwargs)
    name, form, bound = known
    operands: tuple = bound + args
    if name in ("concatenate", "stack") and len(args) >= 1 \
            and isinstance(args[0], (list, tuple)):
        operands = tuple(args[0])
    elif name == "where" and len(operands) == 3:
        # The condition chooses; the two values promote (as JAX's and
        # PyTorch's recorders read it).
        operands = operands[1:]
    elif name == "clip":
        operands = tuple(o for o in (*operands, kwargs.get("min"), kwargs.get("max"))
                         if o is not None)
    try:
        result = f(*args, **kwargs)
    except Exception as error:
        _note(name, form, operands, kwargs, None, error)
        raise
    _note(name, form, operands, kwargs, result, None)
    return result


# -- the rewriting --------------------------------------------------------------


class _Rewriter(ast.NodeTransformer):
    """The syntax tree of a user's module, its operators and calls routed
    through the helpers (the module's docstring)."""

    def __init__(self) -> None:
        self._temporaries = 0

    def _temporary(self) -> str:
        self._temporaries += 1
        return f"_dl_t{self._temporaries}"

    @staticmethod
    def _helper(name: str, node: ast.AST, args: list[ast.expr]) -> ast.Call:
        call = ast.Call(func=ast.Name(id=name, ctx=ast.Load()), args=args, keywords=[])
        return ast.copy_location(call, node)

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        name = _BINARY[type(node.op)][0]
        return self._helper("_dl_operator", node,
                            [ast.Constant(name), node.left, node.right])

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        if len(node.ops) != 1 or type(node.ops[0]) not in _COMPARE:
            return node
        name = _COMPARE[type(node.ops[0])][0]
        return self._helper("_dl_operator", node,
                            [ast.Constant(name), node.left, node.comparators[0]])

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id in _FRAME_BOUND:
            return node
        call = ast.Call(func=ast.Name(id="_dl_call", ctx=ast.Load()),
                        args=[node.func, *node.args], keywords=node.keywords)
        return ast.copy_location(call, node)

    def visit_AugAssign(self, node: ast.AugAssign) -> Any:
        self.generic_visit(node)
        name = _BINARY[type(node.op)][0]
        target = node.target

        def inplace(current: ast.expr) -> ast.Call:
            return self._helper("_dl_inplace", node, [ast.Constant(name), current, node.value])

        if isinstance(target, ast.Name):
            load = ast.Name(id=target.id, ctx=ast.Load())
            return ast.copy_location(ast.Assign(targets=[target], value=inplace(load)), node)
        statements: list[ast.stmt] = []
        holder = self._temporary()
        obj = target.value
        statements.append(ast.Assign(targets=[ast.Name(id=holder, ctx=ast.Store())], value=obj))
        if isinstance(target, ast.Attribute):
            def place(ctx: ast.expr_context) -> ast.expr:
                return ast.Attribute(value=ast.Name(id=holder, ctx=ast.Load()),
                                     attr=target.attr, ctx=ctx)
        elif isinstance(target, ast.Subscript):
            index = self._temporary()
            statements.append(ast.Assign(targets=[ast.Name(id=index, ctx=ast.Store())],
                                         value=target.slice))

            def place(ctx: ast.expr_context) -> ast.expr:
                return ast.Subscript(value=ast.Name(id=holder, ctx=ast.Load()),
                                     slice=ast.Name(id=index, ctx=ast.Load()), ctx=ctx)
        else:
            return node
        statements.append(ast.Assign(targets=[place(ast.Store())],
                                     value=inplace(place(ast.Load()))))
        return [ast.copy_location(s, node) for s in statements]


def _imports_at(tree: ast.Module) -> int:
    """Where the helpers' import goes: after the docstring and any
    ``from __future__`` imports."""
    position = 0
    body = tree.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        position = 1
    while position < len(body) and isinstance(body[position], ast.ImportFrom) \
            and body[position].module == "__future__":  # type: ignore[attr-defined]
        position += 1
    return position


def rewrite(source: str | bytes, filename: str) -> CodeType:
    """``source`` compiled as recording runs it (the module's docstring)."""
    tree = ast.parse(source, filename)
    tree = _Rewriter().visit(tree)
    helpers = ast.ImportFrom(module=__name__, names=[ast.alias(name=h) for h in _HELPERS],
                             level=0)
    tree.body.insert(_imports_at(tree), helpers)
    ast.fix_missing_locations(tree)
    return compile(tree, filename, "exec", dont_inherit=True)


@functools.cache
def _excluded() -> tuple[str, ...]:
    """The directories never rewritten: the standard library, the
    installed packages, dtype-lattice itself (asked once: reading them
    costs half a millisecond, each recording's start)."""
    paths = sysconfig.get_paths()
    places = {paths.get(key) for key in ("stdlib", "platstdlib", "purelib", "platlib")}
    places.add(os.path.dirname(os.path.abspath(__file__)))
    return tuple(os.path.join(os.path.abspath(p), "") for p in places if p)


class _Loader(importlib.machinery.SourceFileLoader):
    """A user's module, compiled rewritten (never from a cached ``.pyc``:
    the rewritten code is not written back)."""

    def source_to_code(self, data: Any, path: Any, *, _optimize: int = -1) -> CodeType:  # type: ignore[override]
        return rewrite(data, path)

    def get_code(self, fullname: str) -> CodeType:
        path = self.get_filename(fullname)
        return rewrite(self.get_data(path), path)


class _Finder(importlib.abc.MetaPathFinder):
    """Finds the modules under the recorded roots and gives them
    :class:`_Loader`."""

    def __init__(self, roots: Sequence[str]) -> None:
        self.roots = tuple(os.path.join(os.path.abspath(r), "") for r in roots)
        self.excluded = _excluded()

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        origin = getattr(spec, "origin", None)
        if spec is None or not origin or not origin.endswith(".py"):
            return None
        origin = os.path.abspath(origin)
        if not origin.startswith(self.roots) or origin.startswith(self.excluded):
            return None
        spec.loader = _Loader(fullname, origin)
        return spec


class NumpyRecorder:
    """A recording: the calls seen while it is active, counted. Made by
    :func:`start`, ended by :meth:`stop`."""

    #: The framework's registry name, which the report names.
    framework = "numpy"
    #: No compiled code to pass over (the report's count of it).
    compiled = 0

    @staticmethod
    def settings_of(settings: tuple) -> dict[str, Any]:
        """NumPy reads no settings of the registry's."""
        return {}

    def __init__(self, roots: Sequence[str]) -> None:
        # Per thread, each call's key: its count and its scalars' first
        # values. Each thread counts in its own dictionary, so that noting
        # a call takes no lock; each dictionary is listed here once, so
        # that a thread's calls outlive it.
        self._local = threading.local()
        self._tables: list[dict[tuple, list]] = []
        self._finder = _Finder(roots)
        #: Calls left out (none: every operand NumPy takes is read).
        self.skipped = 0

    def _counts(self) -> dict[tuple, list]:
        """The calling thread's counts."""
        try:
            return self._local.counts
        except AttributeError:
            counts: dict[tuple, list] = {}
            self._local.counts = counts
            with _state.lock:
                self._tables.append(counts)
            return counts

    @property
    def calls(self) -> dict[tuple, int]:
        """The calls as the report reads every recorder's: ``(site,
        payload)`` to a count, the payload ``(operation, operands, result,
        refusal, settings, keywords, zero_dim, values)``
        (``_promotions._calls``), the values those of the Python scalar,
        NumPy scalar and 0-d array operands (the first seen of its size:
        :func:`_size`). A Python scalar is a weak operand of its kind, with
        its value; a NumPy scalar or 0-d array is a 0-d operand holding its
        value: NumPy 2 promotes it as any array, NumPy 1 by its value
        (``numpy1``), PyTorch as a 0-d tensor, as a port would hand it."""
        calls: dict[tuple, int] = {}
        for seen, count in self.seen().values():
            operands = tuple(
                (_PYTHON_DTYPES[dtype], True) if kind == "python" else (dtype, False)
                for kind, dtype, _ in seen.operands)
            result = None if seen.result is None else (seen.result, False)
            keywords = (seen.keywords.get("dtype"), None)
            values = tuple(value for _, _, value in seen.operands)
            zero_dim = tuple(i for i, (kind, _, _) in enumerate(seen.operands)
                             if kind in ("0d", "scalar"))
            payload = (seen.operation, operands, result, seen.error, (), keywords, zero_dim,
                       values)
            key = (seen.site, payload)
            calls[key] = calls.get(key, 0) + count
        return calls

    def seen(self) -> dict[tuple, tuple[Seen, int]]:
        """Each distinct call seen (:class:`Seen`) with how many times."""
        with _state.lock:
            counted = [item for table in self._tables for item in list(table.items())]
        calls: dict[tuple, tuple[Seen, int]] = {}
        for key, (count, values, objects) in counted:
            seen = Seen(key, values, objects)
            # Keys whose dtypes are named alike (two dtype objects of one
            # name) count as one call.
            named = (seen.site, seen.operation, seen.form,
                     tuple((kind, dtype, size) for (kind, dtype, _), (_, _, size)
                           in zip(seen.operands, key[3])),
                     tuple(seen.keywords.items()), seen.result, seen.error)
            known = calls.get(named)
            calls[named] = (known[0], known[1] + count) if known else (seen, count)
        return calls

    def stop(self) -> None:
        """Ends recording: the import hook leaves ``sys.meta_path`` and the
        helpers stop noting. Idempotent."""
        try:
            sys.meta_path.remove(self._finder)
        except ValueError:
            pass
        if _state.active is self:
            _state.active = None


def start(roots: Sequence[str] | None = None) -> NumpyRecorder:
    """Starts recording the modules under ``roots`` (the current directory
    when None) imported from now on, and code compiled with
    :func:`rewrite`. One recording at a time."""
    if _state.active is not None:
        raise RuntimeError("NumPy calls are already being recorded: end that recording first")
    recorder = NumpyRecorder([os.getcwd()] if roots is None else roots)
    sys.meta_path.insert(0, recorder._finder)
    _state.active = recorder
    return recorder


def run_script(path: str, module: ModuleType | None = None) -> dict[str, Any]:
    """Runs the script at ``path`` rewritten, as ``__main__`` (as runpy
    would: the caller sets ``sys.argv`` and ``sys.path``)."""
    with open(path, "rb") as source:
        code = rewrite(source.read(), path)
    namespace: dict[str, Any] = {"__name__": "__main__", "__file__": path,
                                 "__builtins__": __builtins__, "__package__": None,
                                 "__spec__": None, "__loader__": None}
    main = module if module is not None else ModuleType("__main__")
    main.__dict__.update(namespace)
    saved = sys.modules.get("__main__")
    sys.modules["__main__"] = main
    try:
        exec(code, main.__dict__)
    finally:
        if saved is not None:
            sys.modules["__main__"] = saved
    return main.__dict__
