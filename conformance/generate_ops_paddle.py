#!/usr/bin/env python3
"""Generate the op-table golden data of the `paddle` policy by
running real PaddlePaddle (the CPU wheel, dynamic mode, Paddle's default).

Usage:
    python generate_ops_paddle.py [--out DIR]

Writes ``DIR/ops_paddle.jsonl`` (DIR defaults to ``golden/`` next to this
script) in the op-table format that ``golden_ops.py`` describes, with
``"policy": "paddle"``, ``"x64": false`` and ``"promotion": "standard"`` on
every line (Paddle has no settings that change promotion). The pinned
versions are in ``requirements-paddle.txt``.

``generate_paddle.py`` records ``x + y``, the operator (``paddle.add``
takes tensors only), so every operation is the Tensor's operator where it
has one, and Paddle's function otherwise; the answer is the result's
``dtype``:

============== ===========================  ================================
op             call                         Paddle's function (checked)
============== ===========================  ================================
add            ``a + b``                    ``paddle.add``
subtract       ``a - b``                    ``paddle.subtract``
multiply       ``a * b``                    ``paddle.multiply``
true_divide    ``a / b``                    ``paddle.divide``
floor_divide   ``a // b``                   ``paddle.floor_divide``
remainder      ``a % b``                    ``paddle.remainder``
power          ``a ** b``                   ``paddle.pow``
maximum        ``paddle.maximum(a, b)``
equal          ``a == b``                   ``paddle.equal``
not_equal      ``a != b``                   ``paddle.not_equal``
less           ``a < b``                    ``paddle.less_than``
less_equal     ``a <= b``                   ``paddle.less_equal``
greater        ``a > b``                    ``paddle.greater_than``
greater_equal  ``a >= b``                   ``paddle.greater_equal``
bitwise_and    ``a & b``                    ``paddle.bitwise_and``
bitwise_or     ``a | b``                    ``paddle.bitwise_or``
bitwise_xor    ``a ^ b``                    ``paddle.bitwise_xor``
logical_and    ``paddle.logical_and(a, b)``
negative       ``-x``                       ``paddle.neg``
abs            ``abs(x)``                   ``paddle.abs``
sign           ``paddle.sign(x)``
sqrt           ``paddle.sqrt(x)``
exp            ``paddle.exp(x)``
floor          ``paddle.floor(x)``
============== ===========================  ================================

The script checks that each function of the last column answers as the
operator on every pair of tensors (every tensor for ``neg`` and ``abs``),
but where both fail with different errors: it prints those pairs' count.
Paddle's functions refuse Python scalars (``ValueError: (InvalidArgument)
maximum(): argument 'y' (position 1) must be Tensor, but got int``).

These are the real calls on the CPU: the answer is the NotFound error where
the CPU wheel has no kernel for the dtype the operation computes in
(``RuntimeError: (NotFound) The kernel with key (CPU,
Undefined(AnyLayout), int8) of kernel `subtract` is not registered ...``;
the dtype in the key is the one Paddle promoted to, and the message lists
the dtypes the kernel has, in an order that is the same on every run). Where
Python computes the result itself (two Python scalars; ``-True``), the
answer is ``NotOurs`` with the Python type's name (``int``, ``float``,
``complex``, ``bool``).

Some calls never return: ``x ** -1`` for a ``bool``, ``int32`` or
``int64`` tensor (with or without dimensions) runs the CPU's integer
``PowKernel`` (``int64``'s for ``bool``) with a negative exponent, which
loops for ever. So the calls run in a child process (``--child START``)
that prints each answer as it has it; where one has not come after
``HANG_SECONDS`` (20 s), the script kills the child, answers the error
``{"type": "Hang", "message": "no answer: the call did not return (killed
after 20 s)"}`` (not Paddle's: there is none) and starts a new child after
that call. The header's own key ``"hangs"`` lists those calls, each with
``"empty"``: the dtype the same call answers on a tensor of shape ``[0]``
of the same dtype (no element to loop on), ``"hang_seconds"`` the limit;
each row records its hangs as deviations (``golden_io.with_deviations``:
the library answers ``DoesNotReturnError``).
This takes about two minutes, 20 s a hang.

Operands (the header's ``"operands"``, the notation of
``generate_paddle.py``): a tensor of ones with shape ``[2]`` of each of
Paddle's 17 dtypes among the 32 (``"int8"``; made as ``paddle.ones([2],
dtype="float32").astype(dtype)``, since the CPU has no ``full`` kernel for
``uint32`` and ``uint64``), a zero-dimensional tensor of ones of each
(``"0d:int8"``; Paddle promotes these otherwise), and the Python scalars
of ``golden_ops.PY_SCALARS`` (``"py:bool"`` is ``True``, ``2``, ``-1``,
``300``, ``2.5``, ``{"complex": [0.0, 2.0]}`` is ``2j``). Paddle has no
weakly-typed tensors: no answer is weak.

After the table come the call lines of ``generate_paddle.py``'s ``x + y``
(``gen_add``: dtypes Paddle lacks, values, ``None``) that the table does
not make; on every pair of forms both make (there ``True`` is
``"py:bool"``, ``2`` ``"py:int"``, ``2j`` ``"py:complex"``; ``2.5`` is
compared with ``"py:float"``, which is ``2.0``: Paddle reads a float's
type, not its value) the answers must agree
(``golden_ops.write_op_table``).

Paddle logs a warning through glog the first time it promotes, and warns at
import that ccache is missing: the script sets ``GLOG_minloglevel=2`` and
filters that warning, which changes no answer.
"""

from __future__ import annotations

import json
import operator
import os
import select
import subprocess
import sys
import warnings

# Before Paddle loads: glog's warnings off (errors still raise as before).
os.environ["GLOG_minloglevel"] = "2"
warnings.filterwarnings("ignore", message="No ccache found")

from typing import Any, Callable  # noqa: E402

import paddle  # noqa: E402

import generate_paddle  # noqa: E402
import golden_io  # noqa: E402
from golden_io import DTYPE_NAMES, NotOurs, ours, parse_args  # noqa: E402
from golden_ops import (OPS, PY_SCALARS, UNARY, Table, typed,  # noqa: E402
                        write_op_table)

GENERATOR = "conformance/generate_ops_paddle.py"
POLICY = "paddle"
# A call that has not returned after this long never will (see HANGS).
HANG_SECONDS = 20
HANG_MESSAGE = ("no answer: the call did not return (killed after "
                f"{HANG_SECONDS} s)")
# Paddle's dtypes among the 32, in our order.
PADDLE_DTYPES = [n for n in DTYPE_NAMES if hasattr(paddle, n)]
CALLS: dict[str, Callable] = {
    "add": operator.add, "subtract": operator.sub, "multiply": operator.mul,
    "true_divide": operator.truediv, "floor_divide": operator.floordiv,
    "remainder": operator.mod, "power": operator.pow,
    "maximum": paddle.maximum,
    "equal": operator.eq, "not_equal": operator.ne, "less": operator.lt,
    "less_equal": operator.le, "greater": operator.gt,
    "greater_equal": operator.ge,
    "bitwise_and": operator.and_, "bitwise_or": operator.or_,
    "bitwise_xor": operator.xor,
    "logical_and": paddle.logical_and,
    "negative": operator.neg, "abs": abs, "sign": paddle.sign,
    "sqrt": paddle.sqrt, "exp": paddle.exp, "floor": paddle.floor,
}
# Paddle's function for each operation called as an operator.
FUNCTIONS: dict[str, Callable] = {
    "add": paddle.add, "subtract": paddle.subtract,
    "multiply": paddle.multiply, "true_divide": paddle.divide,
    "floor_divide": paddle.floor_divide, "remainder": paddle.remainder,
    "power": paddle.pow, "equal": paddle.equal,
    "not_equal": paddle.not_equal, "less": paddle.less_than,
    "less_equal": paddle.less_equal, "greater": paddle.greater_than,
    "greater_equal": paddle.greater_equal,
    "bitwise_and": paddle.bitwise_and, "bitwise_or": paddle.bitwise_or,
    "bitwise_xor": paddle.bitwise_xor, "negative": paddle.neg,
    "abs": paddle.abs,
}


def name_of(dtype: Any) -> str:
    """Our name, by comparing dtypes (Paddle prints uint16 as bfloat16)."""
    for name in PADDLE_DTYPES:
        if getattr(paddle, name) == dtype:
            return ours(name)
    raise NotOurs(str(dtype))


def operands() -> list[tuple[Any, Any]]:
    """``(make, form)`` for every operand form."""
    def tensor(name: str, shape: list) -> Any:
        return lambda: paddle.ones(shape, dtype="float32").astype(
            getattr(paddle, name))

    return ([(tensor(n, [2]), n) for n in PADDLE_DTYPES]
            + [(tensor(n, []), f"0d:{n}") for n in PADDLE_DTYPES]
            + [((lambda v=v: v), form) for v, form in PY_SCALARS])


def answer_of(result: Any) -> str:
    if not isinstance(result, paddle.Tensor):
        raise NotOurs(type(result).__name__)
    return typed(name_of(result.dtype))


def call(op: str, values: list) -> str:
    return answer_of(CALLS[op](*values))


def check_functions(ops: list[tuple[Any, Any]]) -> None:
    """Paddle's function answers as the operator on every tensor pair."""
    tensors = [make for make, form in ops if isinstance(form, str)
               and not form.startswith("py:")]
    scratch = Table()
    checked = both_failed = 0
    for op, function in FUNCTIONS.items():
        lists = ([[x] for x in tensors] if op in UNARY
                 else [[x, y] for x in tensors for y in tensors])
        for makes in lists:
            via_op = scratch.answer(lambda: call(op, [m() for m in makes]))
            via_fn = scratch.answer(lambda: answer_of(
                function(*[m() for m in makes])))
            if via_op != via_fn:
                assert isinstance(via_op, int) and isinstance(via_fn, int), \
                    (op, via_op, via_fn, scratch.lines[-3:])
                both_failed += 1
            checked += 1
    print(f"paddle functions: {checked} calls on tensors answer as the "
          f"operators ({both_failed} with another error)", file=sys.stderr)


def cells(n_forms: int) -> list[tuple[str, int, int | None]]:
    """Every call of the table, in its order: ``(op, a, b)``, indices into
    the operands (``b`` None for a unary operation, ``a`` its operand)."""
    out: list[tuple[str, int, int | None]] = []
    for op in OPS:
        if op in UNARY:
            out += [(op, a, None) for a in range(n_forms)]
        else:
            out += [(op, a, b) for a in range(n_forms) for b in range(n_forms)]
    return out


def child(start: int) -> None:
    """Prints the answer of every cell from ``start`` on, one JSON line a
    cell, as soon as it has it."""
    makes = [make for make, _ in operands()]

    def cell(op: str, a: int, b: int | None) -> Callable[[], str]:
        return lambda: call(op, [makes[a]()] + (
            [] if b is None else [makes[b]()]))

    serve(start, [cell(*c) for c in cells(len(makes))])


def serve(start: int, calls: list[Callable[[], str]]) -> None:
    """Prints the answer of every call from ``start`` on, one JSON line a
    call, as soon as it has it (the child's side of ``run_cells``)."""
    print(json.dumps({"ready": start}), flush=True)
    for i, run in enumerate(calls[start:], start):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out = {"i": i, "ok": run()}
        except Exception as e:  # noqa: BLE001 - every exception is data
            out = {"i": i, "error": [golden_io.error_type(e), str(e)]}
        print(json.dumps(out), flush=True)


def run_cells(count: int, script: str = __file__) -> tuple[list, list[int],
                                                           list[int]]:
    """Every call's answer (``{"ok": ...}`` or ``{"error": [T, M]}``, None
    for a call that did not return), ``count`` calls that ``script
    --child START`` answers from START on (``serve``), each child killed
    and a new one started after the call it hung on; and the calls that
    hung and those that ended the child (Paddle aborts the process on some
    calls), a new child started after each."""
    results: list = [None] * count
    hung: list[int] = []
    aborted: list[int] = []
    start = 0
    while start < count:
        proc = subprocess.Popen(
            [sys.executable, script, "--child", str(start)],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        buffer = b""

        def next_line(timeout: float | None) -> bytes | None:
            """The child's next line; None if none came within timeout,
            b"" if the child ended."""
            nonlocal buffer
            while b"\n" not in buffer:
                ready, _, _ = select.select([fd], [], [], timeout)
                if not ready:
                    return None
                data = os.read(fd, 1 << 16)
                if not data:
                    return b""
                buffer += data
            text, buffer = buffer.split(b"\n", 1)
            return text

        assert json.loads(next_line(None)) == {"ready": start}
        while start < count:
            text = next_line(HANG_SECONDS)
            if not text:
                if text is None:
                    proc.kill()
                    hung.append(start)
                else:
                    aborted.append(start)
                start += 1
                break
            entry = json.loads(text)
            assert entry.pop("i") == start, entry
            results[start] = entry
            start += 1
        proc.wait()
        proc.stdout.close()
        assert proc.returncode in (0, -9) or start - 1 in aborted, \
            proc.returncode
    return results, hung, aborted


def empty_dtype(op: str, form_a, form_b, makes: dict) -> str:
    """The dtype of a hung call, on a tensor of shape [0] of the same
    dtype: the kernel then has no element to loop on."""
    def same_dtype_empty(form):
        if isinstance(form, str) and not form.startswith("py:"):
            return paddle.ones([0], dtype="float32").astype(
                getattr(paddle, form.removeprefix("0d:")))
        return makes[json.dumps(form)]()
    values = [same_dtype_empty(form_a)] + (
        [] if form_b is None else [same_dtype_empty(form_b)])
    return call(op, values)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(__doc__, argv, lambda parser: parser.add_argument(
        "--child", type=int, metavar="START",
        help="print the answers from cell START on (internal)"))
    if args.child is not None:
        child(args.child)
        return
    out_dir = args.out
    assert paddle.in_dynamic_mode()
    assert str(paddle.get_device()) == "cpu", paddle.get_device()
    assert paddle.get_flags(["FLAGS_call_stack_level"]) == \
        {"FLAGS_call_stack_level": 1}
    assert list(CALLS) == OPS
    ops = operands()
    forms = [form for _, form in ops]
    makes = {json.dumps(form): make for make, form in ops}
    check_functions(ops)
    results, hung, aborted = run_cells(len(cells(len(forms))))
    assert not aborted, aborted
    table = Table()
    hangs = []
    for i in hung:
        op, a, b = cells(len(forms))[i]
        form_b = None if b is None else forms[b]
        hangs.append({"fn": op, "a": forms[a], "b": form_b,
                      "empty": empty_dtype(op, forms[a], form_b, makes)})
    hang_error = table.error("Hang", HANG_MESSAGE) if hung else None
    answers = []
    for result in results:
        if result is None:
            answers.append(hang_error)
        elif "ok" in result:
            answers.append(result["ok"])
        else:
            answers.append(table.error(*result["error"]))
    position = 0
    for op in OPS:
        if op in UNARY:
            table.row(op, POLICY, answers[position:position + len(forms)])
            position += len(forms)
            continue
        for form_a in forms:
            table.row(op, POLICY, answers[position:position + len(forms)],
                      a=form_a)
            position += len(forms)
    print(f"{len(hung)} calls hung: " + ", ".join(
        f"{h['fn']}({json.dumps(h['a'])}, {json.dumps(h['b'])})"
        for h in hangs), file=sys.stderr)
    head = golden_io.header(GENERATOR, {"paddlepaddle": paddle.__version__},
                            device="cpu", mode="dynamic",
                            hang_seconds=HANG_SECONDS, hangs=hangs)
    adds = (generate_paddle.header(), generate_paddle.gen_add())
    compared = write_op_table(out_dir / "ops_paddle.jsonl", head, forms,
                              table, adds)
    assert compared == len(forms) ** 2, compared


if __name__ == "__main__":
    main()
