"""Writes golden.jsonl beside it by running the toy "library" (toy.py).

The last step of DESIGN.md's add-a-framework checklist, taken by the toy
framework: a generator that asks the library and writes its answers with
the shared code of ``conformance/golden_io.py``. Standard library only::

    python3 crates/dtype-lattice/src/frameworks/toy/generate.py
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[4] / "conformance"))
sys.path.insert(0, str(HERE))

import golden_io as io  # noqa: E402
import toy  # noqa: E402

POLICY = "toy"
# Every dtype of dtype-lattice, so that the ones toy lacks are asked too,
# and a Python int, which toy refuses.
OPERANDS = [io.Operand(name, name) for name in ["bool", "int32", "float32", "int8"]]
OPERANDS.append(io.py_value(2))


def typed(name):
    return io.typed(name)


def calls():
    lines = []
    dtypes = [op for op in OPERANDS if isinstance(op.value, str)]
    for a in dtypes:
        for b in dtypes:
            lines += io.run("promote_types", POLICY, toy.promote_types, [[a, b]])
    lines += io.run("result_type", POLICY, lambda *xs: typed(toy.result_type(*xs)),
                    io.unary_and_binary(OPERANDS))
    for name in ["add", "multiply", "maximum", "equal", "less"]:
        function = getattr(toy, name)
        lines += io.run(name, POLICY, lambda a, b, f=function: typed(f(a, b)),
                        [[a, b] for a in OPERANDS for b in OPERANDS])
    return lines


def main():
    head = io.header("crates/dtype-lattice/src/frameworks/toy/generate.py",
                     {"toy": toy.__version__})
    io.write_jsonl(HERE / "golden.jsonl", head, calls())


if __name__ == "__main__":
    main()
