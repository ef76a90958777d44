//! The tables as a Python module: `IntEnum`s of the dtypes, Python's
//! scalar types and the operations, tuples of cells, the errors as
//! (exception, message) pairs raised as `PromotionError`; the standard
//! library only (the tables of one operand: `python_one.rs`).

use std::fmt::Write as _;

use super::names::{numbers, python_str};
use super::{Codegen, Options, TypeName, ABSENT};

/// The module's source.
pub(super) fn render(tables: &Codegen, options: &Options) -> String {
    let k = tables.operands();
    let mut out = String::from("\"\"\"");
    for line in tables.header(options) {
        let _ = writeln!(out, "{}", line.replace('\\', "/").replace("\"\"\"", "'''"));
    }
    out.push_str(
        "\nOperands are DType or Scalar members (an operand's value is its row and column).\n\
         A cell is an int: with bit 15 set, the index of its error in ERRORS; else the\n\
         result's DType value times two, plus one if it is weak. Read them with\n\
         promote(a, b), operation(op, a, b), unary(op, a), reduce(op, a, dtype=None) and\n\
         computes_in(op, a, dtype=None); an operation's reader returns None where its\n\
         table has no such cell, and raises ValueError for what is no operand.\n\"\"\"\n\n\
         import enum\nimport typing\n\n",
    );
    int_enum(
        &mut out,
        "DType",
        "The dtypes, as the framework names them.",
        &tables.dtypes,
        0,
    );
    int_enum(
        &mut out,
        "Scalar",
        "Python's scalar types as operands (x + 2): weak where the framework makes them so.",
        &tables.scalars,
        tables.dtypes.len(),
    );
    let ops = tables.op_names();
    int_enum(
        &mut out,
        "Op",
        "The operations, as NumPy names them.",
        &ops,
        0,
    );
    let names: Vec<String> = (0..k)
        .map(|i| python_str(&tables.operand(i).name))
        .collect();
    let _ = writeln!(
        out,
        "# Each operand's name as the framework (or the lattice file) writes it, by value.\n\
         NAMES = ({},)\n\n",
        names.join(", ")
    );
    out.push_str(concat!(
        "class Typed(typing.NamedTuple):\n",
        "    \"\"\"A result: its dtype, and whether it is weakly typed.\"\"\"\n\n",
        "    dtype: DType\n",
        "    weak: bool\n\n\n",
        "# Each error's Python exception and exact message, by code.\n",
        "ERRORS = (\n",
    ));
    for error in &tables.errors {
        let _ = writeln!(
            out,
            "    ({}, {}),",
            python_str(&error.exception),
            python_str(&error.message)
        );
    }
    out.push_str(concat!(
        ")\n\n\n",
        "class PromotionError(Exception):\n",
        "    \"\"\"The framework's error: its code, the name of the Python exception the\n",
        "    framework raises (exception) and its exact message (str(error)).\"\"\"\n\n",
        "    def __init__(self, code):\n",
        "        self.code = code\n",
        "        self.exception, message = ERRORS[code]\n",
        "        super().__init__(message)\n\n\n",
        "_PROMOTE = (\n",
    ));
    for row in &tables.tables[0].cells {
        let codes: Vec<u16> = row.iter().map(|&c| Codegen::code(c)).collect();
        let _ = writeln!(out, "    ({},),", numbers(&codes));
    }
    let _ = write!(
        out,
        ")\n\n\n\
         def _decode(code):\n    \
         if code & 0x8000:\n        raise PromotionError(code & 0x7FFF)\n    \
         return Typed(DType(code >> 1), (code & 1) == 1)\n\n\n\
         def _check(operand):\n    \
         if not 0 <= operand < {k}:\n        \
         raise ValueError(f\"{{operand!r}} is no operand: pass a DType or Scalar member\")\n    \
         return operand\n\n\n\
         def promote(a, b):\n    \
         \"\"\"The promotion of two operands: result_type(a, b) of the two types (a dtype\n    \
         specifier, a Python scalar type) as a Typed; raises PromotionError.\"\"\"\n    \
         return _decode(_PROMOTE[_check(a)][_check(b)])\n"
    );
    operations(&mut out, tables, k);
    super::python_one::unary(&mut out, tables);
    super::python_one::reductions(&mut out, tables);
    out
}

/// An `IntEnum` of `names`, numbered from `start`.
pub(super) fn int_enum(out: &mut String, name: &str, doc: &str, names: &[TypeName], start: usize) {
    let _ = writeln!(out, "class {name}(enum.IntEnum):\n    \"\"\"{doc}\"\"\"\n");
    for (i, t) in names.iter().enumerate() {
        let _ = writeln!(out, "    {} = {}", t.snake, start + i);
    }
    if names.is_empty() {
        out.push_str("    pass\n");
    }
    out.push_str("\n\n");
}

/// Each operation's table, and `operation`.
fn operations(out: &mut String, tables: &Codegen, k: usize) {
    let _ = writeln!(
        out,
        "\n\n# Each operation's cells, [op][a][b]; {ABSENT} where its table has no such operand.\n\
         _ABSENT = {ABSENT}\n_OPS = ("
    );
    for table in &tables.tables[1..] {
        let _ = writeln!(out, "    # {}\n    (", table.name);
        for row in table.grid(k) {
            let _ = writeln!(out, "        ({},),", numbers(&row));
        }
        out.push_str("    ),\n");
    }
    out.push_str(concat!(
        ")\n\n\n",
        "def operation(op, a, b):\n",
        "    \"\"\"The result of op (an Op member) on a and b as a Typed, or None where the\n",
        "    operation's table has no such operand (whole arrays take no Python scalar);\n",
        "    raises PromotionError.\"\"\"\n",
        "    code = _OPS[Op(op)][_check(a)][_check(b)]\n",
        "    if code == _ABSENT:\n",
        "        return None\n",
        "    return _decode(code)\n",
    ));
}
