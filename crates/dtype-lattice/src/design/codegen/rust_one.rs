//! The Rust module's tables of one operand: `UnaryOp` and `unary`,
//! `Reduction`, `reduce` and `computes_in`, in the module `rust.rs` writes.

use std::fmt::Write as _;

use super::names::numbers;
use super::rust::type_enum;
use super::{Codegen, ABSENT};

/// How this language writes the reductions' nested tables.
const RUST_NESTING: super::one::Nesting = super::one::Nesting {
    comment: ("// ", ""),
    open: "[",
    close: "]",
    row_end: "",
};

/// `UnaryOp`, its table and `unary`.
pub(super) fn unary(out: &mut String, tables: &Codegen) {
    let k = tables.operands();
    out.push('\n');
    type_enum(
        out,
        "UnaryOp",
        "The elementwise operations of one operand, as NumPy names them.",
        &tables.unary_names(),
    );
    if tables.unary.is_empty() {
        out.push_str(
            "/// The result of `op` on `a`: no operation of one operand was generated.\n\
             pub fn unary(op: UnaryOp, _a: Operand) -> Option<Result<Typed, Error>> {\n    \
             match op {}\n}\n",
        );
        return;
    }
    let _ = writeln!(
        out,
        "/// Each operation's cells, `[op][a]` by operand index; {ABSENT} where the\n\
         /// framework gives none.\nstatic UNARY: [[u16; {k}]; {}] = [",
        tables.unary.len()
    );
    for table in &tables.unary {
        let _ = writeln!(
            out,
            "    // {}\n    [{}],",
            table.name,
            numbers(&table.codes())
        );
    }
    let _ = writeln!(
        out,
        "];\n\n\
         /// The result of `op` on `a` (an array of the dtype, a Python scalar of the\n\
         /// type); `None` where the framework's rules give none for that operand.\n\
         #[inline]\n\
         pub fn unary(op: UnaryOp, a: Operand) -> Option<Result<Typed, Error>> {{\n    \
         let code = UNARY[op as usize][a.index()];\n    \
         if code == {ABSENT} {{\n        None\n    }} else {{\n        Some(decode(code))\n    }}\n}}"
    );
}

/// `Reduction`, its tables, `reduce` and `computes_in`.
pub(super) fn reductions(out: &mut String, tables: &Codegen) {
    let n = tables.dtypes.len();
    out.push('\n');
    type_enum(
        out,
        "Reduction",
        "The reductions, as NumPy names them.",
        &tables.reduction_names(),
    );
    if tables.reductions.is_empty() {
        out.push_str(
            "/// The result of reducing an array of `a` by `op`: no reduction was generated.\n\
             pub fn reduce(op: Reduction, _a: DType, _dtype: Option<DType>) -> Option<Result<Typed, Error>> {\n    \
             match op {}\n}\n\n\
             /// The dtype `op` computes in: no reduction was generated.\n\
             pub fn computes_in(op: Reduction, _a: DType, _dtype: Option<DType>) -> Option<DType> {\n    \
             match op {}\n}\n",
        );
        return;
    }
    let r = tables.reductions.len();
    for (name, what, grid) in [
        ("REDUCE", "cells", true),
        ("COMPUTES", "computation dtypes (a dtype's index)", false),
    ] {
        let _ = writeln!(
            out,
            "/// Each reduction's {what}, `[op][a][d]`:\n\
             /// `d` 0 without `dtype=`, else one more than its dtype's index;\n\
             /// {ABSENT} where there is none.\n\
             static {name}: [[[u16; {}]; {n}]; {r}] = [",
            n + 1
        );
        super::one::reduction_grids(out, tables, n, grid, &RUST_NESTING);
        out.push_str("];\n\n");
    }
    let _ = writeln!(
        out,
        "/// A reduction's column: 0 without `dtype=`, else one more than the dtype's index.\n\
         #[inline]\n\
         const fn dtype_column(dtype: Option<DType>) -> usize {{\n    \
         match dtype {{\n        None => 0,\n        Some(dtype) => dtype as usize + 1,\n    }}\n}}\n\n\
         /// The result of reducing an array of `a` by `op`, with `dtype=` where it is\n\
         /// given; `None` where the reduction takes no `dtype=` (or the framework gives\n\
         /// no answer).\n\
         #[inline]\n\
         pub fn reduce(op: Reduction, a: DType, dtype: Option<DType>) -> Option<Result<Typed, Error>> {{\n    \
         let code = REDUCE[op as usize][a as usize][dtype_column(dtype)];\n    \
         if code == {ABSENT} {{\n        None\n    }} else {{\n        Some(decode(code))\n    }}\n}}\n\n\
         /// The dtype the framework computes that reduction in (its accumulator),\n\
         /// where it says and it differs from the result's; else `None`.\n\
         #[inline]\n\
         pub fn computes_in(op: Reduction, a: DType, dtype: Option<DType>) -> Option<DType> {{\n    \
         let code = COMPUTES[op as usize][a as usize][dtype_column(dtype)];\n    \
         if code == {ABSENT} {{\n        None\n    }} else {{\n        Some(DType::from_index(code))\n    }}\n}}"
    );
}
