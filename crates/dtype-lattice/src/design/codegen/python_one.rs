//! The Python module's tables of one operand: `UnaryOp` and `unary`,
//! `Reduction`, `reduce` and `computes_in`, in the module `python.rs`
//! writes.

use std::fmt::Write as _;

use super::names::numbers;
use super::python::int_enum;
use super::Codegen;

/// How this language writes the reductions' nested tables.
const PYTHON_NESTING: super::one::Nesting = super::one::Nesting {
    comment: ("# ", ""),
    open: "(",
    close: ")",
    row_end: ",",
};

/// `UnaryOp`, its cells and `unary`.
pub(super) fn unary(out: &mut String, tables: &Codegen) {
    out.push_str("\n\n");
    int_enum(
        out,
        "UnaryOp",
        "The elementwise operations of one operand, as NumPy names them.",
        &tables.unary_names(),
        0,
    );
    out.push_str(
        "# Each operation's cells, [op][a]; _ABSENT where the framework gives none.\n_UNARY = (\n",
    );
    for table in &tables.unary {
        let _ = writeln!(
            out,
            "    # {}\n    ({},),",
            table.name,
            numbers(&table.codes())
        );
    }
    out.push_str(concat!(
        ")\n\n\n",
        "def unary(op, a):\n",
        "    \"\"\"The result of op (a UnaryOp member) on a (an array of the dtype, a Python\n",
        "    scalar of the type) as a Typed, or None where the framework gives none for\n",
        "    that operand; raises PromotionError.\"\"\"\n",
        "    code = _UNARY[UnaryOp(op)][_check(a)]\n",
        "    if code == _ABSENT:\n",
        "        return None\n",
        "    return _decode(code)\n",
    ));
}

/// `Reduction`, its cells and computation dtypes, `reduce` and
/// `computes_in`.
pub(super) fn reductions(out: &mut String, tables: &Codegen) {
    let n = tables.dtypes.len();
    out.push_str("\n\n");
    int_enum(
        out,
        "Reduction",
        "The reductions, as NumPy names them.",
        &tables.reduction_names(),
        0,
    );
    for (name, what, cells) in [
        ("_REDUCE", "cells", true),
        ("_COMPUTES", "computation dtypes (a DType value)", false),
    ] {
        let _ = writeln!(
            out,
            "# Each reduction's {what},\n\
             # [op][a][d]: d 0 without dtype=, else one more than the dtype's value;\n\
             # _ABSENT where there is none.\n{name} = ("
        );
        super::one::reduction_grids(out, tables, n, cells, &PYTHON_NESTING);
        out.push_str(")\n\n");
    }
    let _ = write!(
        out,
        "\n\
         def _dtype(dtype):\n    \
         if not 0 <= dtype < {n}:\n        \
         raise ValueError(f\"{{dtype!r}} is no dtype: pass a DType member\")\n    \
         return dtype\n\n\n\
         def _column(dtype):\n    \
         return 0 if dtype is None else _dtype(dtype) + 1\n\n\n\
         def reduce(op, a, dtype=None):\n    \
         \"\"\"The result of reducing an array of a (a DType member) by op (a Reduction\n    \
         member), with dtype= dtype where it is given, as a Typed; None where the\n    \
         reduction takes no such dtype=; raises PromotionError.\"\"\"\n    \
         code = _REDUCE[Reduction(op)][_dtype(a)][_column(dtype)]\n    \
         if code == _ABSENT:\n        return None\n    \
         return _decode(code)\n\n\n\
         def computes_in(op, a, dtype=None):\n    \
         \"\"\"The DType the framework computes that reduction in (its accumulator),\n    \
         where it says and it differs from the result's; else None.\"\"\"\n    \
         code = _COMPUTES[Reduction(op)][_dtype(a)][_column(dtype)]\n    \
         if code == _ABSENT:\n        return None\n    \
         return DType(code)\n"
    );
}
