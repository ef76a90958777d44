//! The tables as a Rust module: enums of the dtypes, Python's scalar types
//! and the operations, `const` tables of `u16` cells, the errors as a table
//! of (exception, message), and `promote`/`operation` to read them
//! (`unary`, `reduce`, `computes_in` for one operand: `rust_one.rs`). It
//! uses `core` only, so that a `#![no_std]` crate can include it.

use std::fmt::Write as _;

use super::names::{numbers, rust_str};
use super::{Codegen, Options, TypeName, ABSENT};

/// The module's source.
pub(super) fn render(tables: &Codegen, options: &Options) -> String {
    let mut out = String::new();
    for line in tables.header(options) {
        let _ = writeln!(out, "// {line}");
    }
    out.push_str(concat!(
        "//\n",
        "// A cell is a u16: with the top bit set, the index of its error in ERRORS;\n",
        "// else the result's index in DType::ALL times two, plus one if it is weak.\n",
        "// Read them with promote(a, b), operation(op, a, b), unary(op, a),\n",
        "// reduce(op, a, dtype) and computes_in(op, a, dtype) (a reduction's dtype=,\n",
        "// None without it); an operation's reader answers None where its table has\n",
        "// no such cell.\n",
        "// Nothing here depends on dtype-lattice, nor on std.\n\n",
    ));
    let n = tables.dtypes.len();
    type_enum(
        &mut out,
        "DType",
        "The dtypes, as the framework names them.",
        &tables.dtypes,
    );
    type_enum(
        &mut out,
        "Scalar",
        "Python's scalar types as operands (`x + 2`): weak where the framework makes them so.",
        &tables.scalars,
    );
    operand(&mut out, tables, n);
    out.push_str(TYPED_AND_ERROR);
    let _ = writeln!(
        out,
        "/// Each error's Python exception and exact message, by code.\n\
         pub static ERRORS: [(&str, &str); {}] = [",
        tables.errors.len()
    );
    for error in &tables.errors {
        let _ = writeln!(
            out,
            "    ({}, {}),",
            rust_str(&error.exception),
            rust_str(&error.message)
        );
    }
    out.push_str("];\n\n");
    let k = tables.operands();
    let _ = writeln!(
        out,
        "/// `promote`'s cells, `[a][b]` by operand index.\nstatic PROMOTE: [[u16; {k}]; {k}] = ["
    );
    for row in &tables.tables[0].cells {
        let codes: Vec<u16> = row.iter().map(|&c| Codegen::code(c)).collect();
        let _ = writeln!(out, "    [{}],", numbers(&codes));
    }
    out.push_str("];\n\n");
    from_index(&mut out, tables);
    out.push_str(
        "#[inline]\n\
         fn decode(code: u16) -> Result<Typed, Error> {\n    \
         // The dtype read before the error bit is looked at, so that the\n    \
         // compiler keeps the identity rather than a jump table of both.\n    \
         let typed = Typed { dtype: DType::from_index(code >> 1), weak: code & 1 == 1 };\n    \
         if code & 0x8000 != 0 {\n        \
         Err(Error { code: code & 0x7fff })\n    \
         } else {\n        \
         Ok(typed)\n    \
         }\n}\n\n",
    );
    out.push_str(PROMOTE_FN);
    operations(&mut out, tables, k);
    super::rust_one::unary(&mut out, tables);
    super::rust_one::reductions(&mut out, tables);
    out
}

/// `DType::from_index`: a `match` from each discriminant to its dtype,
/// which the compiler makes the identity (a table of the dtypes would be
/// one more load per answer). The last arm takes every index from the
/// last dtype's on, as no cell holds one past it.
fn from_index(out: &mut String, tables: &Codegen) {
    out.push_str(
        "impl DType {\n    \
         /// The dtype a cell's index names (its discriminant).\n    \
         #[inline]\n    \
         const fn from_index(index: u16) -> DType {\n        match index {\n",
    );
    let last = tables.dtypes.len().saturating_sub(1);
    for (i, t) in tables.dtypes.iter().enumerate() {
        let pattern = if i == last {
            "_".to_owned()
        } else {
            i.to_string()
        };
        let _ = writeln!(out, "            {pattern} => DType::{},", t.camel);
    }
    out.push_str("        }\n    }\n}\n\n");
}

/// A fieldless enum of `names` with `ALL` and `name()`; without names, an
/// empty enum (a lattice file has no scalars), so that every module has
/// the same items.
pub(super) fn type_enum(out: &mut String, name: &str, doc: &str, names: &[TypeName]) {
    let repr = if names.is_empty() {
        ""
    } else {
        "#[repr(u16)]\n"
    };
    let _ = writeln!(
        out,
        "/// {doc}\n#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]\n\
         {repr}pub enum {name} {{"
    );
    for t in names {
        let _ = writeln!(out, "    /// `{}`", t.name.replace('`', "'"));
        let _ = writeln!(out, "    {},", t.camel);
    }
    let all: Vec<String> = names
        .iter()
        .map(|t| format!("{name}::{}", t.camel))
        .collect();
    let labels: Vec<String> = names.iter().map(|t| rust_str(&t.name)).collect();
    let count = names.len();
    let body = if names.is_empty() {
        "match self {}".to_owned()
    } else {
        format!(
            "static NAMES: [&str; {count}] = [{}];\n        NAMES[self as usize]",
            labels.join(", ")
        )
    };
    let _ = writeln!(
        out,
        "}}\n\nimpl {name} {{\n    \
         /// Every one, in order (a value's index is its discriminant).\n    \
         pub const ALL: [{name}; {count}] = [{}];\n\n    \
         /// The name the framework gives it.\n    \
         pub fn name(self) -> &'static str {{\n        {body}\n    }}\n}}\n",
        all.join(", "),
    );
}

/// `Operand`: an array of a dtype or a Python scalar, and its index.
fn operand(out: &mut String, tables: &Codegen, n: usize) {
    out.push_str(
        "/// An operand: an array of a dtype, or a Python scalar.\n\
         #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]\npub enum Operand {\n    \
         /// An array of the dtype (a dtype specifier, for `promote`).\n    Array(DType),\n    \
         /// A Python scalar of the type.\n    Scalar(Scalar),\n",
    );
    out.push_str(
        "}\n\nimpl Operand {\n    \
         /// Its row and column in the tables: the dtypes, then the scalars.\n    \
         #[inline]\n    \
         const fn index(self) -> usize {\n        match self {\n            \
         Operand::Array(dtype) => dtype as usize,\n",
    );
    if tables.scalars.is_empty() {
        out.push_str("            Operand::Scalar(scalar) => match scalar {},\n");
    } else {
        let _ = writeln!(
            out,
            "            Operand::Scalar(scalar) => {n} + scalar as usize,"
        );
    }
    out.push_str(
        "        }\n    }\n}\n\nimpl From<DType> for Operand {\n    \
         fn from(dtype: DType) -> Operand {\n        Operand::Array(dtype)\n    }\n}\n\n",
    );
    out.push_str(
        "impl From<Scalar> for Operand {\n    fn from(scalar: Scalar) -> Operand {\n        \
         Operand::Scalar(scalar)\n    }\n}\n\n",
    );
}

const TYPED_AND_ERROR: &str = "\
/// A result: its dtype, and whether it is weakly typed (as a Python scalar is).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Typed {
    /// The dtype.
    pub dtype: DType,
    /// Whether the result is weak.
    pub weak: bool,
}

/// The framework's error: its code, its Python exception and its message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Error {
    code: u16,
}

impl Error {
    /// Its index in the error table.
    pub const fn code(self) -> u16 {
        self.code
    }

    /// The Python exception the framework raises (`TypeError`, ...).
    pub fn exception(self) -> &'static str {
        ERRORS[self.code as usize].0
    }

    /// The framework's message.
    pub fn message(self) -> &'static str {
        ERRORS[self.code as usize].1
    }
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.message())
    }
}

impl core::error::Error for Error {}

";

const PROMOTE_FN: &str = "\
/// The promotion of two operands: `result_type(a, b)` of the two types
/// (a dtype specifier, a Python scalar type).
#[inline]
pub fn promote(a: Operand, b: Operand) -> Result<Typed, Error> {
    decode(PROMOTE[a.index()][b.index()])
}

/// The promotion of two dtypes, its dtype only.
#[inline]
pub fn promote_dtypes(a: DType, b: DType) -> Result<DType, Error> {
    match promote(Operand::Array(a), Operand::Array(b)) {
        Ok(typed) => Ok(typed.dtype),
        Err(err) => Err(err),
    }
}
";

/// `Op`, each operation's table, and `operation`.
fn operations(out: &mut String, tables: &Codegen, k: usize) {
    let ops = &tables.tables[1..];
    let names = tables.op_names();
    out.push('\n');
    type_enum(out, "Op", "The operations, as NumPy names them.", &names);
    if ops.is_empty() {
        out.push_str(
            "/// The result of `op` on `a` and `b`: no operation was generated.\n\
             pub fn operation(op: Op, _a: Operand, _b: Operand) -> Option<Result<Typed, Error>> {\n    \
             match op {}\n}\n",
        );
        return;
    }
    let _ = writeln!(
        out,
        "/// Where an operand is absent from an operation's table.\nconst ABSENT: u16 = {ABSENT};\n\n\
         /// Each operation's cells, `[op][a][b]` by operand index.\n\
         static OPS: [[[u16; {k}]; {k}]; {}] = [",
        ops.len()
    );
    for table in ops {
        let _ = writeln!(out, "    // {}\n    [", table.name);
        for row in table.grid(k) {
            let _ = writeln!(out, "        [{}],", numbers(&row));
        }
        out.push_str("    ],\n");
    }
    out.push_str(
        "];\n\n\
         /// The result of `op` on `a` and `b`; `None` where its table has no such\n\
         /// operand (an operation on whole arrays takes no Python scalar).\n\
         #[inline]\n\
         pub fn operation(op: Op, a: Operand, b: Operand) -> Option<Result<Typed, Error>> {\n    \
         let code = OPS[op as usize][a.index()][b.index()];\n    \
         if code == ABSENT {\n        None\n    } else {\n        Some(decode(code))\n    }\n}\n",
    );
}
