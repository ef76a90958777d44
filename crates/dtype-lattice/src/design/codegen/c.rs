//! The tables as a C99 header: an enum of the operands (the dtypes, then
//! Python's scalar types) and of the operations, `static const` tables,
//! the errors as (exception, message) pairs, and `static inline` readers
//! that check their arguments, so that no input reads out of bounds
//! (those of one operand: `c_one.rs`).

use std::fmt::Write as _;

use super::names::{c_str, numbers};
use super::{Codegen, Options, ABSENT};

/// The header's source.
pub(super) fn render(tables: &Codegen, options: &Options) -> String {
    let lower = options.prefix.to_ascii_lowercase();
    let upper = options.prefix.to_ascii_uppercase();
    let (n, k) = (tables.dtypes.len(), tables.operands());
    let mut out = String::from("/*\n");
    for line in tables.header(options) {
        let _ = writeln!(out, " * {}", line.replace("*/", "* /"));
    }
    let _ = write!(
        out,
        " *\n * Operands are ints: the dtypes 0..{upper}_DTYPE_COUNT - 1, then Python's scalar\n \
         * types. A cell is a uint16_t: with the top bit set, the index of its error in\n \
         * {lower}_errors; else the result's dtype times two, plus one if it is weak.\n \
         * Read them with {lower}_promote(a, b, &t), {lower}_operation(op, a, b, &t),\n \
         * {lower}_unary(op, a, &t), {lower}_reduce(op, a, dtype, &t) (dtype -1 without\n \
         * dtype=) and {lower}_computes_in(op, a, dtype): each checks its arguments and\n \
         * returns -1 for one out of range or a cell its table has not.\n */\n\
         #ifndef {upper}_PROMOTION_H\n#define {upper}_PROMOTION_H\n\n\
         #include <stdbool.h>\n#include <stdint.h>\n\n\
         /* The operands: the dtypes as the framework names them, then Python's scalars. */\n\
         enum {lower}_operand {{\n"
    );
    for i in 0..k {
        let t = tables.operand(i);
        let kind = if i < n { "" } else { "PY_" };
        let _ = writeln!(
            out,
            "    {upper}_{kind}{} = {i}, /* {} */",
            t.snake.to_ascii_uppercase(),
            t.name.replace("*/", "* /")
        );
    }
    let _ = writeln!(
        out,
        "    {upper}_OPERAND_COUNT = {k}\n}};\n\n#define {upper}_DTYPE_COUNT {n}\n"
    );
    let ops = &tables.tables[1..];
    let _ = writeln!(
        out,
        "/* The operations, as NumPy names them. */\nenum {lower}_op {{"
    );
    for (i, table) in ops.iter().enumerate() {
        let _ = writeln!(
            out,
            "    {upper}_OP_{} = {i},",
            table.name.to_ascii_uppercase()
        );
    }
    let _ = writeln!(out, "    {upper}_OP_COUNT = {}\n}};\n", ops.len());
    // C has no empty arrays: without operations, one unused name.
    let mut names: Vec<String> = ops.iter().map(|t| c_str(&t.name)).collect();
    if names.is_empty() {
        names.push(c_str(""));
    }
    let _ = writeln!(
        out,
        "static const char *const {lower}_op_names[{}] = {{{}}};\n",
        names.len(),
        names.join(", ")
    );
    let _ = writeln!(
        out,
        "/* A result: its dtype (an operand below {upper}_DTYPE_COUNT) and whether it is weak. */\n\
         typedef struct {{\n    int dtype;\n    bool weak;\n}} {lower}_typed;\n\n\
         /* An error: the Python exception the framework raises and its exact message. */\n\
         typedef struct {{\n    const char *exception;\n    const char *message;\n}} {lower}_error;\n\n\
         #define {upper}_ERROR_COUNT {}\n",
        tables.errors.len()
    );
    let names: Vec<String> = (0..k).map(|i| c_str(&tables.operand(i).name)).collect();
    let _ = writeln!(
        out,
        "static const char *const {lower}_operand_names[{k}] = {{{}}};\n",
        names.join(", ")
    );
    // C has no empty arrays: a table without errors keeps one unused entry.
    let _ = writeln!(
        out,
        "static const {lower}_error {lower}_errors[{}] = {{",
        tables.errors.len().max(1)
    );
    for error in &tables.errors {
        let _ = writeln!(
            out,
            "    {{{}, {}}},",
            c_str(&error.exception),
            c_str(&error.message)
        );
    }
    if tables.errors.is_empty() {
        out.push_str("    {\"\", \"\"},\n");
    }
    let _ = writeln!(
        out,
        "}};\n\nstatic const uint16_t {lower}_promote_cells[{k}][{k}] = {{"
    );
    for row in &tables.tables[0].cells {
        let codes: Vec<u16> = row.iter().map(|&c| Codegen::code(c)).collect();
        let _ = writeln!(out, "    {{{}}},", numbers(&codes));
    }
    out.push_str("};\n\n");
    let _ = write!(
        out,
        "/* 0 with the result in *out; e > 0 for error e - 1 of {lower}_errors. */\n\
         static inline int {lower}_decode(uint16_t code, {lower}_typed *out) {{\n    \
         if (code & 0x8000u) {{\n        return (int)(code & 0x7fffu) + 1;\n    }}\n    \
         out->dtype = (int)(code >> 1);\n    out->weak = (code & 1u) != 0;\n    return 0;\n}}\n\n\
         /* The promotion of two operands, result_type(a, b) of the two types: 0 with the\n \
         * result in *out, e > 0 for error e - 1 of {lower}_errors, -1 for an operand\n \
         * out of range. */\n\
         static inline int {lower}_promote(int a, int b, {lower}_typed *out) {{\n    \
         if (a < 0 || a >= {k} || b < 0 || b >= {k}) {{\n        return -1;\n    }}\n    \
         return {lower}_decode({lower}_promote_cells[a][b], out);\n}}\n"
    );
    if ops.is_empty() {
        let _ = write!(
            out,
            "\n/* The result of op on a and b: no operation was generated, so -1. */\n\
             static inline int {lower}_operation(int op, int a, int b, {lower}_typed *out) {{\n    \
             (void)op;\n    (void)a;\n    (void)b;\n    (void)out;\n    return -1;\n}}\n"
        );
    } else {
        operations(&mut out, tables, &lower, &upper);
    }
    super::c_one::unary(&mut out, tables, &lower, &upper);
    super::c_one::reductions(&mut out, tables, &lower, &upper);
    let _ = writeln!(out, "\n#endif /* {upper}_PROMOTION_H */");
    out
}

/// Each operation's rows, columns and cells, and `PREFIX_operation`.
fn operations(out: &mut String, tables: &Codegen, lower: &str, upper: &str) {
    let ops = &tables.tables[1..];
    let k = tables.operands();
    let _ = writeln!(
        out,
        "\n/* Each operation's cells, [op][a][b]; {ABSENT} where its table has no such operand. */\n\
         static const uint16_t {lower}_op_cells[{}][{k}][{k}] = {{",
        ops.len()
    );
    for table in ops {
        let _ = writeln!(out, "    /* {} */\n    {{", table.name);
        for row in table.grid(k) {
            let _ = writeln!(out, "        {{{}}},", numbers(&row));
        }
        out.push_str("    },\n");
    }
    let _ = write!(
        out,
        "}};\n\n\
         /* The result of op on a and b: as {lower}_promote, and -1 also where the\n \
         * operation's table has no such operand (whole arrays take no Python scalar). */\n\
         static inline int {lower}_operation(int op, int a, int b, {lower}_typed *out) {{\n    \
         uint16_t code;\n    \
         if (op < 0 || op >= {upper}_OP_COUNT || a < 0 || a >= {k} || b < 0 || b >= {k}) {{\n        \
         return -1;\n    }}\n    \
         code = {lower}_op_cells[op][a][b];\n    \
         if (code == {ABSENT}u) {{\n        return -1;\n    }}\n    \
         return {lower}_decode(code, out);\n}}\n"
    );
}
