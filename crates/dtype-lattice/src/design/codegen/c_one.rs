//! The C header's tables of one operand: `PREFIX_unary`, `PREFIX_reduce`
//! and `PREFIX_computes_in`, each checking its arguments as the header's
//! other readers do, in the header `c.rs` writes.

use std::fmt::Write as _;

use super::names::{c_str, numbers};
use super::{Codegen, TypeName, ABSENT};

/// How this language writes the reductions' nested tables.
const C_NESTING: super::one::Nesting = super::one::Nesting {
    comment: ("/* ", " */"),
    open: "{",
    close: "}",
    row_end: "",
};

/// The names one kind of operation has in the header, after its prefix.
struct Kind {
    doc: &'static str,
    /// `enum PREFIX_...`.
    enum_name: &'static str,
    /// Each member's `PREFIX_..._NAME`.
    constant: &'static str,
    /// The count's `PREFIX_...`.
    count: &'static str,
    /// The names' array, `PREFIX_..._names`.
    names: &'static str,
}

const UNARY: Kind = Kind {
    doc: "The elementwise operations of one operand, as NumPy names them.",
    enum_name: "unary_op",
    constant: "UNARY",
    count: "UNARY_COUNT",
    names: "unary",
};

const REDUCTION: Kind = Kind {
    doc: "The reductions, as NumPy names them.",
    enum_name: "reduction",
    constant: "REDUCE",
    count: "REDUCTION_COUNT",
    names: "reduction",
};

/// An enum of operations (`PREFIX_UNARY_SQRT`) ending in its count, and
/// their names.
fn op_enum(out: &mut String, kind: &Kind, lower: &str, upper: &str, names: &[TypeName]) {
    let Kind {
        doc,
        enum_name,
        constant,
        count,
        names: tag,
    } = kind;
    let _ = writeln!(out, "\n/* {doc} */\nenum {lower}_{enum_name} {{");
    for (i, t) in names.iter().enumerate() {
        let _ = writeln!(
            out,
            "    {upper}_{constant}_{} = {i},",
            t.snake.to_ascii_uppercase()
        );
    }
    let _ = writeln!(out, "    {upper}_{count} = {}\n}};\n", names.len());
    // C has no empty arrays: without operations, one unused name.
    let mut literals: Vec<String> = names.iter().map(|t| c_str(&t.name)).collect();
    if literals.is_empty() {
        literals.push(c_str(""));
    }
    let _ = writeln!(
        out,
        "static const char *const {lower}_{tag}_names[{}] = {{{}}};",
        literals.len(),
        literals.join(", ")
    );
}

/// The one-operand operations' enum, cells and `PREFIX_unary`.
pub(super) fn unary(out: &mut String, tables: &Codegen, lower: &str, upper: &str) {
    let k = tables.operands();
    op_enum(out, &UNARY, lower, upper, &tables.unary_names());
    if tables.unary.is_empty() {
        let _ = write!(
            out,
            "\n/* The result of op on a: no operation of one operand was generated, so -1. */\n\
             static inline int {lower}_unary(int op, int a, {lower}_typed *out) {{\n    \
             (void)op;\n    (void)a;\n    (void)out;\n    return -1;\n}}\n"
        );
        return;
    }
    let _ = writeln!(
        out,
        "\n/* Each operation's cells, [op][a]; {ABSENT} where the framework gives none. */\n\
         static const uint16_t {lower}_unary_cells[{}][{k}] = {{",
        tables.unary.len()
    );
    for table in &tables.unary {
        let _ = writeln!(
            out,
            "    /* {} */\n    {{{}}},",
            table.name,
            numbers(&table.codes())
        );
    }
    let _ = write!(
        out,
        "}};\n\n\
         /* The result of op on a (an array of the dtype, a Python scalar of the type): as\n \
         * {lower}_promote, and -1 also where the framework gives none for that operand. */\n\
         static inline int {lower}_unary(int op, int a, {lower}_typed *out) {{\n    \
         uint16_t code;\n    \
         if (op < 0 || op >= {upper}_UNARY_COUNT || a < 0 || a >= {k}) {{\n        return -1;\n    }}\n    \
         code = {lower}_unary_cells[op][a];\n    \
         if (code == {ABSENT}u) {{\n        return -1;\n    }}\n    \
         return {lower}_decode(code, out);\n}}\n"
    );
}

/// The reductions' enum, cells and computation dtypes, `PREFIX_reduce`
/// and `PREFIX_computes_in`.
pub(super) fn reductions(out: &mut String, tables: &Codegen, lower: &str, upper: &str) {
    let n = tables.dtypes.len();
    op_enum(out, &REDUCTION, lower, upper, &tables.reduction_names());
    if tables.reductions.is_empty() {
        let _ = write!(
            out,
            "\n/* The result of reducing an array of a by op: no reduction was generated, so -1. */\n\
             static inline int {lower}_reduce(int op, int a, int dtype, {lower}_typed *out) {{\n    \
             (void)op;\n    (void)a;\n    (void)dtype;\n    (void)out;\n    return -1;\n}}\n\n\
             /* The dtype op computes in: no reduction was generated, so -1. */\n\
             static inline int {lower}_computes_in(int op, int a, int dtype) {{\n    \
             (void)op;\n    (void)a;\n    (void)dtype;\n    return -1;\n}}\n"
        );
        return;
    }
    let r = tables.reductions.len();
    for (name, what, cells) in [
        ("reduce_cells", "cells", true),
        ("computes_cells", "computation dtypes", false),
    ] {
        let _ = writeln!(
            out,
            "\n/* Each reduction's {what},\n \
             * [op][a][d]: d 0 without dtype=, else one more than its dtype;\n \
             * {ABSENT} where there is none. */\n\
             static const uint16_t {lower}_{name}[{r}][{n}][{}] = {{",
            n + 1
        );
        super::one::reduction_grids(out, tables, n, cells, &C_NESTING);
        out.push_str("};\n");
    }
    let check = format!(
        "if (op < 0 || op >= {upper}_REDUCTION_COUNT || a < 0 || a >= {n} || dtype < -1 \
         || dtype >= {n}) {{\n        return -1;\n    }}"
    );
    let _ = write!(
        out,
        "\n/* The result of reducing an array of dtype a by op, with dtype= the dtype dtype\n \
         * (-1 without it): as {lower}_promote, and -1 also where the reduction takes no\n \
         * such dtype=. */\n\
         static inline int {lower}_reduce(int op, int a, int dtype, {lower}_typed *out) {{\n    \
         uint16_t code;\n    {check}\n    \
         code = {lower}_reduce_cells[op][a][dtype + 1];\n    \
         if (code == {ABSENT}u) {{\n        return -1;\n    }}\n    \
         return {lower}_decode(code, out);\n}}\n\n\
         /* The dtype the framework computes that reduction in (its accumulator), where it\n \
         * says and it differs from the result's; else (or for an argument out of range) -1. */\n\
         static inline int {lower}_computes_in(int op, int a, int dtype) {{\n    \
         uint16_t code;\n    {check}\n    \
         code = {lower}_computes_cells[op][a][dtype + 1];\n    \
         return code == {ABSENT}u ? -1 : (int)code;\n}}\n"
    );
}
