#!/usr/bin/env python3
"""Golden data for the operations of the `paddle` policy as programs write
them other than by its default, the Tensor operators: Paddle's functions,
the reflected methods, in-place operators and item assignment.

Usage:
    python generate_forms_paddle.py [--out DIR]

Runs in the environment of ``generate_ops_paddle.py``
(``requirements-paddle.txt``, Python 3.12) and writes
``forms_paddle.jsonl`` in the op-table format of ``golden_ops.py``, each
row with its ``"form"`` (read that docstring): ``function``,
``reflected``, ``inplace`` and ``setitem``. ``ops_paddle.jsonl`` already
records each operation's operator where it has one (``x + y``, ``-x``,
``abs(x)``: the policy's default form), so there are no ``operator`` rows
here.

``function`` is Paddle's function of each operation with an operator
(``generate_ops_paddle.FUNCTIONS``: ``paddle.add``, ``paddle.subtract``,
``paddle.multiply``, ``paddle.divide``, ``paddle.floor_divide``,
``paddle.remainder``, ``paddle.pow``, ``paddle.equal``,
``paddle.not_equal``, ``paddle.less_than``, ``paddle.less_equal``,
``paddle.greater_than``, ``paddle.greater_equal``, ``paddle.bitwise_and``,
``paddle.bitwise_or``, ``paddle.bitwise_xor``, ``paddle.neg``,
``paddle.abs``), on every operand and ordered pair of operands.
``reflected`` is ``type(b).__rOP__(b, a)`` (``golden_ops.reflected_form``).
A Paddle Tensor has no in-place operators (no ``__iadd__``), so
``inplace``, ``x OP= b``, is Python's ``x = x OP b``; its first operands
are the tensors with dimensions and the zero-dimensional ones. The target
of ``setitem`` (``x[...] = v``) is each tensor with dimensions (a
zero-dimensional one cannot take a value of shape ``[2]``).

Operands are those of ``generate_ops_paddle.py``: a tensor of ones with
shape ``[2]`` of each of Paddle's 17 dtypes, a zero-dimensional one of
each, and the Python scalars of ``golden_ops.PY_SCALARS``.

Some calls never return (``x **= -1`` of an integer tensor, as ``x ** -1``
in ``generate_ops_paddle.py``) and some abort the process (``x[...] = 2j``:
``terminate called after throwing an instance of 'pybind11::cast_error'``,
SIGABRT). So the calls run in child processes as in
``generate_ops_paddle.py`` (``run_cells``): a call with no answer after 20 s
is the error ``Hang``, one that ended the child the error ``Abort``, each
recorded with its deviation (``golden_io.with_deviations``: the library
answers ``DoesNotReturnError``), and listed in the header's ``"hangs"``
and ``"aborts"``. A few minutes, 20 s a hang.
"""

from __future__ import annotations

import json
import os
import sys
import warnings

# Before Paddle loads: glog's warnings off (errors still raise as before).
os.environ["GLOG_minloglevel"] = "2"
warnings.filterwarnings("ignore", message="No ccache found")

from typing import Any, Callable  # noqa: E402

import paddle  # noqa: E402

import golden_io  # noqa: E402
from generate_ops_paddle import (FUNCTIONS, HANG_MESSAGE,  # noqa: E402
                                 HANG_SECONDS, answer_of, operands,
                                 run_cells, serve)
from golden_io import parse_args  # noqa: E402
from golden_ops import (FORMS, PY_SCALARS, UNARY, Table,  # noqa: E402
                        write_op_table)

GENERATOR = "conformance/generate_forms_paddle.py"
POLICY = "paddle"
ABORT_MESSAGE = "no answer: the call ended the process (SIGABRT)"


def function_form(op: str, values: list) -> Any:
    """``paddle.<function>(*values)``: Paddle's function of ``op``."""
    return FUNCTIONS[op](*values)


def plan() -> list[tuple[str, str | None, int | None, int]]:
    """Every call, in the file's order: ``(form, op, a, b)``, indices into
    the operands (``a`` None for a unary operation, ``b`` its operand)."""
    forms = [form for _, form in operands()]
    tensors = [i for i, form in enumerate(forms)
               if isinstance(form, str) and not form.startswith("py:")]
    with_dims = [i for i in tensors if not forms[i].startswith("0d:")]
    n = len(forms)
    runs = {"function": list(FUNCTIONS),
            **{form: ops for form, (_, ops) in FORMS.items()
               if form != "operator"}}
    firsts = {"function": range(n), "reflected": range(n),
              "inplace": tensors, "setitem": with_dims}
    out: list[tuple[str, str | None, int | None, int]] = []
    for form, ops in runs.items():
        for op in ops:
            if op in UNARY:
                out += [(form, op, None, b) for b in range(n)]
            else:
                out += [(form, op, a, b) for a in firsts[form]
                        for b in range(n)]
    return out


def runner(form: str, op: str | None) -> Callable[[list], Any]:
    if form == "function":
        return lambda values: function_form(op, values)
    run = FORMS[form][0]
    return run if op is None else (lambda values: run(op, values))


def child(start: int) -> None:
    makes = [make for make, _ in operands()]

    def cell(form: str, op: str | None, a: int | None,
             b: int) -> Callable[[], str]:
        run = runner(form, op)
        picks = ([] if a is None else [a]) + [b]
        return lambda: answer_of(run([makes[i]() for i in picks]))

    serve(start, [cell(*c) for c in plan()])


def main(argv: list[str] | None = None) -> None:
    args = parse_args(__doc__, argv, lambda parser: parser.add_argument(
        "--child", type=int, metavar="START",
        help="print the answers from call START on (internal)"))
    if args.child is not None:
        child(args.child)
        return
    assert paddle.in_dynamic_mode()
    assert str(paddle.get_device()) == "cpu", paddle.get_device()
    forms = [form for _, form in operands()]
    calls = plan()
    results, hung, aborted = run_cells(len(calls), __file__)
    table = Table()
    hang = table.error("Hang", HANG_MESSAGE) if hung else None
    abort = table.error("Abort", ABORT_MESSAGE) if aborted else None
    answers = []
    for i, result in enumerate(results):
        if result is None:
            answers.append(hang if i in hung else abort)
        elif "ok" in result:
            answers.append(result["ok"])
        else:
            answers.append(table.error(*result["error"]))
    position = 0
    while position < len(calls):
        form, op, a, _ = calls[position]
        width = len(forms)
        assert all(c[:3] == (form, op, a) for c in
                   calls[position:position + width])
        table.row(op, POLICY, answers[position:position + width],
                  a=None if a is None else forms[a], form=form)
        position += width

    def listed(indices: list[int]) -> list[dict]:
        return [{"form": f, "fn": op, "a": None if a is None else forms[a],
                 "b": forms[b]} for f, op, a, b in (calls[i] for i in indices)]

    print(f"{len(hung)} calls hung, {len(aborted)} aborted", file=sys.stderr)
    head = golden_io.header(GENERATOR, {"paddlepaddle": paddle.__version__},
                            device="cpu", mode="dynamic",
                            hang_seconds=HANG_SECONDS, hangs=listed(hung),
                            aborts=listed(aborted))
    write_op_table(args.out / "forms_paddle.jsonl", head, forms, table)


if __name__ == "__main__":
    assert len(PY_SCALARS) == 6
    main()
