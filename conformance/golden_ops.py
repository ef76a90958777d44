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
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path
from typing import Any, Callable, Iterable

from golden_io import row_calls, write_jsonl

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
            return self.error(type(e).__name__, str(e))

    def error(self, kind: str, message: str) -> int:
        key = (kind, message)
        if key not in self.errors:
            self.errors[key] = len(self.errors)
            self.lines.append({"error": self.errors[key], "type": kind,
                               "message": message})
        return self.errors[key]

    def row(self, op: str, policy: str, answers: list, a: Any = None,
            x64: bool = False, promotion: str = "standard",
            **settings: Any) -> None:
        entry: dict[str, Any] = {"fn": op, "policy": policy, "x64": x64,
                                 "promotion": promotion, **settings}
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
