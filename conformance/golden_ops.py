"""The operations every framework's generator records, and their file format.

Promotion decides the input type, the operation decides the
result. Each ``generate_ops_*.py`` runs in its framework's environment
(standard library only here) and writes ``golden/ops_<policy>.jsonl``
with :func:`write_op_table`, one file per framework.

Format (JSON Lines; one call per cell of a table, not per line, since
24 operations over every ordered pair of operand forms would be some
hundred thousand lines a framework)::

    line 1  {"header": {"generator", "python", "versions", ...,
                        "format": "op-table", "operands": [FORM, ...],
                        ["calls_from": HEADER]}}
    then    {"error": K, "type": T, "message": M}
            {"fn": OP, "policy": NAME, "x64": BOOL, "promotion": P,
             [SETTING: VALUE, ...,] ["a": FORM,] "answers": [ANS, ...],
             ["deviations": [{"at": I, "name", "ours", "why"}, ...]]}
    last    call lines, as ``golden_io.py`` documents them

The call lines (``add`` where a framework's ``generate_<framework>.py``
recorded it on more operand forms, values and arities than the table has)
were recorded by the generator whose header is ``"calls_from"``; a call
the table makes too is not repeated. ``"deviations"`` are the documented
deviations of the row's answers (``golden_io.with_deviations``), ``I``
the index of the answer.

``FORM`` is an operand in the batch notation that ``golden_io.py``
documents (``"int8"`` an array, ``"0d:int8"`` a zero-dimensional one,
``"py:int"`` or a JSON integer a Python scalar, ...). A binary operation
has one line for each first operand ``a``, its ``answers`` lined up with
the header's ``operands`` as the second; a unary operation has one line
without ``a``, an answer for each operand. ``ANS`` is the result's dtype
name (``"int8"``), the name and `` (weak)`` for a weakly-typed result
(``"float32 (weak)"``, as the library prints a ``Typed``), or the integer
``K`` of an error line written before it: ``type(e).__name__`` and
``str(e)`` of what the call raised, or ``NotOurs`` with the name of a
dtype that is not one of the 32 (PyTorch's ``complex32``; ``int``,
``float``, ``complex`` where Python computed the result itself).

Arrays hold ones (``x ** -1`` and ``x // y`` then raise only where the
framework refuses the types, never for a value), so an answer depends on
the operands' forms and, for Python scalars, their values.

Forms tables (``golden/forms_<framework>.jsonl``; written by
``generate_forms_*.py`` with :meth:`Table.record_forms`, the framework's
script saying only how to make its operands and read a result's dtype) record the same
operations as programs write them other than by their function. The
format is the same, each row led by ``"form": F``; the ``answers`` of a
row line up with the header's ``operands`` as the second operand (the
value, for ``setitem``), and ``"a"`` is the first operand (the target):

``"operator"``   ``a OP b`` as Python evaluates it: ``operator.add(a, b)``
                 (``OPERATORS``: ``sub``, ``mul``, ``truediv``,
                 ``floordiv``, ``mod``, ``pow``, ``eq`` ... ``ge``,
                 ``and_``, ``or_``, ``xor``), the right operand's reflected
                 method included where the left one returns
                 ``NotImplemented`` (so a Python scalar on the left is
                 here); unary ``operator.neg(x)`` (``negative``) and
                 ``abs(x)`` (``abs``), a line without ``"a"``. No rows for
                 ``maximum``, ``logical_and``, ``sign``, ``sqrt``, ``exp``,
                 ``floor``, which have no operator. Where both operands are
                 Python scalars Python computes the result itself: the
                 answer is ``NotOurs`` with its type, ``bool`` included
                 (``True & True``, ``2 < 2.5``).
``"reflected"``  the right operand's reflected method called directly,
                 ``type(b).__radd__(b, a)`` (``REFLECTED``; a comparison's
                 is the swapped comparison Python falls back to: ``a < b``
                 is ``type(b).__gt__(b, a)``, ``a == b`` ``type(b).__eq__(b,
                 a)``), looked up in ``type(b).__mro__`` as Python looks
                 up an operator's method. Binary operations only. Where it
                 returns ``NotImplemented`` the answer is an error of type
                 ``NotImplemented``, message ``int.__radd__ returned
                 NotImplemented`` (``golden_io.ReturnedNotImplemented``);
                 where ``type(b)`` has no such method, the
                 ``AttributeError`` ``getattr`` would raise (``type object
                 'float' has no attribute '__rand__'``).
``"inplace"``    ``x OP= b`` (``INPLACE``: ``operator.iadd`` ...) on a
                 fresh array ``x`` of the first operand's form, the answer
                 the dtype of the object the statement binds ``x`` to (for
                 JAX, which has no in-place operators, ``x + b``). The ten
                 binary operations with an augmented assignment (no
                 comparisons); first operands the framework's arrays (and
                 0-d arrays where its operands have them), never a Python
                 scalar, whose ``a += x`` is the operator.
``"setitem"``    ``x[...] = v`` on a fresh array ``x`` of the first
                 operand's form (``x[()] = v`` for a 0-d one: a generator
                 that has 0-d targets must give them values of a shape
                 they take, or the answer is a shape error), the answer
                 ``x``'s dtype afterwards.
                 No ``"fn"``: the operation is not part of the question;
                 one row per target, ``v`` every operand form.

Warnings are ignored, as everywhere in the op tables (NumPy's
``ComplexWarning`` when a complex array is assigned into a float one).
"""

from __future__ import annotations

import json
import operator
import subprocess
import sys
import warnings
from pathlib import Path
from functools import partial
from typing import Any, Callable, Iterable

from golden_io import (NotOurs, ReturnedNotImplemented, error_type,
                       row_calls, write_jsonl)

# The operations, as NumPy names them, with their arity.
BINARY = [
    "add", "subtract", "multiply", "true_divide", "floor_divide",
    "remainder", "power", "maximum",
    "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
    "bitwise_and", "bitwise_or", "bitwise_xor", "logical_and",
]
UNARY = ["negative", "abs", "sign", "sqrt", "exp", "floor"]
OPS = BINARY + UNARY

# Python scalars every generator passes, beside the framework's arrays:
# a bool, small positive and negative ints (the sign matters to `power`),
# an int past int8's and uint8's range, a float and a complex.
PY_SCALARS: list[tuple[Any, Any]] = [
    (True, "py:bool"), (2, 2), (-1, -1), (300, 300), (2.5, 2.5),
    (2j, {"complex": [0.0, 2.0]}),
]

# The forms of the ``add`` generators' Python scalars (``golden_io``'s
# notation, ``py:float`` being 2.0) and the form of ours of the same type,
# whose answer theirs must have.
ALIKE: dict[str, Any] = {json.dumps(old): form for old, form in [
    ("py:int", 2), ("py:float", 2.5), ("py:complex", {"complex": [0.0, 2.0]})]}


class Table:
    """The lines of one ``ops_<policy>.jsonl`` file, errors numbered as
    they first occur."""

    def __init__(self, lines: Iterable[dict] = ()) -> None:
        self.lines: list[dict] = []
        self.errors: dict[tuple[str, str], int] = {}
        for entry in lines:
            if "answers" in entry:
                self.lines.append(entry)
            elif "error" in entry:
                assert self.error(entry["type"], entry["message"]) == entry["error"]

    def answer(self, call: Callable[[], Any]) -> Any:
        """``call()``'s answer: a dtype string, or an error's number."""
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return call()
        except Exception as e:  # noqa: BLE001 - every exception is data
            return self.error(error_type(e), str(e))

    def error(self, kind: str, message: str) -> int:
        key = (kind, message)
        if key not in self.errors:
            self.errors[key] = len(self.errors)
            self.lines.append({"error": self.errors[key], "type": kind,
                               "message": message})
        return self.errors[key]

    def print_rows(self) -> None:
        """The rows on standard output, one JSON line each, errors written
        out as ``[type, message]``: what a child process (a configuration
        only a fresh process can set) hands :meth:`add_rows_of`."""
        messages = {e["error"]: [e["type"], e["message"]]
                    for e in self.lines if "error" in e}
        for entry in self.lines:
            if "answers" in entry:
                entry = dict(entry, answers=[messages[a] if isinstance(a, int) else a
                                             for a in entry["answers"]])
                print(json.dumps(entry, separators=(",", ":")))

    def add_rows_of(self, command: list[str]) -> None:
        """Runs ``command`` (a child that calls :meth:`print_rows`) and adds
        its rows, its errors numbered here; exits naming the command where
        it fails."""
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f"{' '.join(command[1:])} failed:\n{run.stderr[-3000:]}")
        for text in run.stdout.splitlines():
            entry = json.loads(text)
            entry["answers"] = [self.error(*a) if isinstance(a, list) else a
                                for a in entry["answers"]]
            self.lines.append(entry)

    def row(self, op: str | None, policy: str, answers: list, a: Any = None,
            x64: bool = False, promotion: str = "standard",
            form: str | None = None, **settings: Any) -> None:
        entry: dict[str, Any] = {} if form is None else {"form": form}
        if op is not None:
            entry["fn"] = op
        entry.update({"policy": policy, "x64": x64, "promotion": promotion,
                      **settings})
        if a is not None:
            entry["a"] = a
        entry["answers"] = answers
        self.lines.append(entry)

    def record(self, policy: str, operands: list[tuple[Any, Any]],
               call: Callable[[str, list], str], ops: Iterable[str] = OPS,
               **config: Any) -> None:
        """Every operation in ``ops`` on every operand (unary) or ordered
        pair (binary) of ``operands`` (``(make, form)``: ``make()`` builds
        the value when the call runs, so that a missing dtype raises inside
        it), ``call(op, values)`` answering the result's dtype string."""
        def one(op: str, makes: list) -> Any:
            return self.answer(lambda: call(op, [make() for make in makes]))

        for op in ops:
            if op in UNARY:
                self.row(op, policy, [one(op, [m]) for m, _ in operands],
                         **config)
                continue
            for make_a, form_a in operands:
                self.row(op, policy,
                         [one(op, [make_a, m]) for m, _ in operands],
                         a=form_a, **config)


    def record_forms(self, policy: str, operands: list[tuple[Any, Any]],
                     targets: list[tuple[Any, Any]],
                     call: Callable[[Callable[[list], Any], list], str],
                     forms: dict[str, tuple[Callable, list]] | None = None,
                     **config: Any) -> None:
        """The forms tables (``forms_<framework>.jsonl``): each form of
        ``FORMS`` on the operations it has, first operands ``operands``
        (``"operator"``, ``"reflected"``) or ``targets`` (``"inplace"``,
        ``"setitem"``: the framework's arrays and 0-d arrays, ``(make,
        form)`` as ``operands``), second operands ``operands``.
        ``call(run, values)`` answers the dtype string of ``run(values)``
        (one of ``operator_form`` ...), arrays among ``values`` as the
        framework makes them (JAX: traced). ``forms`` replaces ``FORMS``
        where a framework has more to record (tinygrad's and PaddlePaddle's
        functions, whose batch default is the operator)."""
        def one(run: Callable[[list], Any], makes: list) -> Any:
            return self.answer(lambda: call(run, [make() for make in makes]))

        for form, (run, ops) in (FORMS if forms is None else forms).items():
            firsts = targets if form in ("inplace", "setitem") else operands
            for op in ops:
                if op in UNARY:
                    self.row(op, policy, [one(partial(run, op), [m])
                                          for m, _ in operands],
                             form=form, **config)
                    continue
                for make_a, form_a in firsts:
                    answers = [one(run if op is None else partial(run, op),
                                   [make_a, m]) for m, _ in operands]
                    self.row(op, policy, answers, a=form_a, form=form,
                             **config)


# The forms a program writes an operation in, beside its function
# (``forms_<framework>.jsonl``). The ``operator`` module's function of each
# operation that has a Python operator, ``abs`` for ``abs``:
OPERATORS: dict[str, Callable] = {
    "add": operator.add, "subtract": operator.sub, "multiply": operator.mul,
    "true_divide": operator.truediv, "floor_divide": operator.floordiv,
    "remainder": operator.mod, "power": operator.pow,
    "equal": operator.eq, "not_equal": operator.ne, "less": operator.lt,
    "less_equal": operator.le, "greater": operator.gt,
    "greater_equal": operator.ge,
    "bitwise_and": operator.and_, "bitwise_or": operator.or_,
    "bitwise_xor": operator.xor,
    "negative": operator.neg, "abs": abs,
}
# The method of the right operand that Python calls when the left one's
# returns NotImplemented: the reflected method, or for a comparison the
# swapped comparison (``a < b`` falls back to ``b.__gt__(a)``).
REFLECTED: dict[str, str] = {
    "add": "__radd__", "subtract": "__rsub__", "multiply": "__rmul__",
    "true_divide": "__rtruediv__", "floor_divide": "__rfloordiv__",
    "remainder": "__rmod__", "power": "__rpow__",
    "equal": "__eq__", "not_equal": "__ne__", "less": "__gt__",
    "less_equal": "__ge__", "greater": "__lt__", "greater_equal": "__le__",
    "bitwise_and": "__rand__", "bitwise_or": "__ror__",
    "bitwise_xor": "__rxor__",
}
# The augmented assignment of each operation that has one (``x += b``).
INPLACE: dict[str, Callable] = {
    "add": operator.iadd, "subtract": operator.isub,
    "multiply": operator.imul, "true_divide": operator.itruediv,
    "floor_divide": operator.ifloordiv, "remainder": operator.imod,
    "power": operator.ipow, "bitwise_and": operator.iand,
    "bitwise_or": operator.ior, "bitwise_xor": operator.ixor,
}


def array_result(out: Any) -> Any:
    """``out``, unless Python computed it itself (two Python scalars):
    then ``NotOurs`` with its type's name (``int``, ``bool`` ...). The
    type itself, not a subclass: NumPy's ``float64`` and ``complex128``
    scalars (what NumPy 1 answers for two 0-d arrays) are Python floats
    and complex numbers too."""
    if type(out) in (bool, int, float, complex):
        raise NotOurs(type(out).__name__)
    return out


def operator_form(op: str, values: list) -> Any:
    """``a OP b`` (``-x``, ``abs(x)``) as Python evaluates it, the
    reflected method included where the left operand declines."""
    return array_result(OPERATORS[op](*values))


def reflected_form(op: str, values: list) -> Any:
    """``type(b).__rOP__(b, a)``: the right operand's reflected method
    called directly; ``NotImplemented`` is an error of that type. The
    method is looked up as Python looks up an operator's, in the classes
    of ``type(b).__mro__`` (not on ``type(b)``'s metaclass, whose
    ``type.__ror__`` makes ``int | str``); a type without it is the
    ``AttributeError`` ``getattr`` raises (``float`` has no ``__rand__``)."""
    a, b = values
    name = REFLECTED[op]
    cls = type(b)
    method = next((vars(c)[name] for c in cls.__mro__ if name in vars(c)),
                  None)
    if method is None:
        raise AttributeError(
            f"type object {cls.__name__!r} has no attribute {name!r}")
    out = method.__get__(b, cls)(a)
    if out is NotImplemented:
        raise ReturnedNotImplemented(
            f"{type(b).__name__}.{name} returned NotImplemented")
    return array_result(out)


def inplace_form(op: str, values: list) -> Any:
    """``x OP= b`` on a fresh array ``x``: the object ``x`` is bound to
    afterwards (itself, or for JAX, which rebinds, a new array)."""
    x, b = values
    return array_result(INPLACE[op](x, b))


def setitem_form(values: list) -> Any:
    """``x[...] = v`` (``x[()] = v`` for a 0-d ``x``): ``x`` afterwards."""
    x, v = values
    x[() if x.ndim == 0 else ...] = v
    return x


FORMS: dict[str, tuple[Callable, list]] = {
    "operator": (operator_form, [op for op in OPS if op in OPERATORS]),
    "reflected": (reflected_form, [op for op in BINARY if op in REFLECTED]),
    "inplace": (inplace_form, [op for op in BINARY if op in INPLACE]),
    "setitem": (setitem_form, [None]),
}


def resolved(lines: list[dict]) -> list[dict]:
    """A child's rows, each answer an error's [type, message] instead of
    its number (numbers differ from one child to another)."""
    errors = {e["error"]: [e["type"], e["message"]] for e in lines
              if "error" in e}
    return [{**row, "answers": [errors[a] if isinstance(a, int) else a
                                for a in row["answers"]]}
            for row in lines if "answers" in row]


def typed(name: str, weak: bool = False) -> str:
    """An answer: a dtype name, with `` (weak)`` for a weak result."""
    return f"{name} (weak)" if weak else name


def write_op_table(path: Path, head: dict, operands: list[Any],
                   table: Table, calls: tuple[dict, list[dict]] | None = None,
                   alike: dict[str, Any] = ALIKE) -> int:
    """Writes the file: ``head`` (from ``golden_io.header``) with the
    format and the operands' forms, then the table's lines, then the call
    lines of ``calls`` (``(header, lines)`` another generator's code
    recorded: ``add`` on more forms, values and arities than the table's)
    that the table does not make itself. Each call the table also makes,
    with its forms or with those ``alike`` maps them to (the JSON of a
    form of ``calls``: one of ours of the same type), must answer alike;
    returns how many did. The header's ``"calls_from"`` is that of
    ``calls``, since its lines were recorded there."""
    head = {"header": {**head["header"], "format": "op-table",
                       "operands": operands}}
    lines, compared = list(table.lines), 0
    if calls is not None:
        calls_head, call_lines = calls
        compared, kept = fold(head, lines, call_lines, alike)
        head["header"]["calls_from"] = calls_head["header"]
        lines += kept
        print(f"{path.name}: {compared} calls answer as the table's, "
              f"{len(kept)} call lines kept", file=sys.stderr)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_jsonl(path, head, lines)
    cells = sum(len(line["answers"]) for line in lines if "answers" in line)
    print(f"{path.name}: {cells} calls, {len(table.errors)} distinct errors",
          file=sys.stderr)
    return compared


def call_key(entry: dict, args: list) -> str:
    settings = {k: v for k, v in entry.items()
                if k not in ("a", "args", "answer", "answers", "deviation",
                             "deviations")}
    return json.dumps([settings, args], sort_keys=True)


def fold(head: dict, lines: list[dict], calls: list[dict],
         alike: dict[str, Any]) -> tuple[int, list[dict]]:
    """How many of ``calls`` the table's ``lines`` answer too (asserting
    they answer alike), and the calls the table does not make, verbatim."""
    table: dict[str, dict] = {}
    errors: list[dict] = []
    for row in lines:
        if "answers" in row:
            for args, recorded in row_calls(head, row, errors):
                table[call_key(row, args)] = recorded
        elif "error" in row:
            errors.append({"type": row["type"], "message": row["message"]})
    compared, kept = 0, []
    for call in calls:
        key = call_key(call, call["args"])
        same = call_key(call, [alike.get(json.dumps(a), a)
                               for a in call["args"]])
        found = table.get(key, table.get(same))
        if found is not None:
            assert found == call["answer"], (call, found)
            compared += 1
        if key not in table:
            kept.append(call)
    return compared, kept
