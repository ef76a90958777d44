//! Where the result type comes from: the library under a policy chosen at
//! run time ([`Library`]), NumPy's generated tables chosen at compile time
//! ([`Tables`]), or, for the benchmark's baseline, a hand-written `match`
//! ([`hand_add`]). The library's path maps the adopter's dtypes to the
//! library's and back; the tables' enum is the adopter's own (`array.rs`).
//! Both turn the source's errors into the adopter's.

use std::fmt;

use dtype_lattice::registry::{by_name, Settings};
use dtype_lattice::{Op, Policy};

use crate::array::{DType, Scalar};
use crate::numpy_tables as tables;

/// The operations the array has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `a + b`
    Add,
    /// `a / b` (true division)
    Divide,
    /// `a < b`
    Less,
}

/// The right operand, as the rules see it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Operand {
    /// An array of the dtype.
    Array(DType),
    /// A Python-style scalar.
    Scalar(Scalar),
}

/// What kind of error, in the adopter's terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The framework has no promotion for the pair.
    Promotion,
    /// The framework refuses the operand types (`TypeError`).
    Type,
    /// The framework refuses a value (`ValueError`, `OverflowError`).
    Value,
    /// Another exception of the framework's.
    Other,
    /// The result is a dtype this array has no storage for, or the policy
    /// does not model the operation.
    Unsupported,
    /// The operands' lengths differ.
    Shape,
}

/// The adopter's error: its kind, and the framework's message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// What kind.
    pub kind: ErrorKind,
    /// The message (the framework's exact one for a promotion error).
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

impl Error {
    /// A framework's error, by the Python exception's name (both sources
    /// name it the same way).
    fn framework(exception: &str, message: String) -> Error {
        let kind = match exception {
            "TypePromotionError" | "DTypePromotionError" => ErrorKind::Promotion,
            "TypeError" => ErrorKind::Type,
            "ValueError" | "OverflowError" => ErrorKind::Value,
            // The generated tables' cell for a result outside our dtypes.
            "NotGenerated" => ErrorKind::Unsupported,
            _ => ErrorKind::Other,
        };
        Error { kind, message }
    }

    fn unsupported(message: String) -> Error {
        Error {
            kind: ErrorKind::Unsupported,
            message,
        }
    }
}

/// A result the array cannot hold: out of the hot path.
#[cold]
#[inline(never)]
fn no_storage(dtype: &str) -> Error {
    Error::unsupported(format!("no storage for {dtype}"))
}

/// Promotion rules: the dtype of `a OP b` for an array of `a`.
pub trait Rules {
    /// The result's dtype, or why there is none.
    fn result(&self, op: BinOp, a: DType, b: Operand) -> Result<DType, Error>;
}

/// A policy of the library, chosen at run time.
pub struct Library {
    policy: Box<dyn Policy>,
}

impl Library {
    /// The policy called `name` (`jax`, `numpy`, `torch`, ...), default settings.
    pub fn new(name: &str) -> Result<Library, Error> {
        Library::with_settings(name, Settings::default())
    }

    /// The policy called `name` under `settings`.
    pub fn with_settings(name: &str, settings: Settings) -> Result<Library, Error> {
        let policy = by_name(name, settings).map_err(|e| Error::unsupported(e.to_string()))?;
        Ok(Library { policy })
    }
}

/// Ours to the library's: the same dtype by name.
fn to_library(dtype: DType) -> dtype_lattice::DType {
    use dtype_lattice::DType as L;
    match dtype {
        DType::Bool => L::Bool,
        DType::UInt8 => L::UInt8,
        DType::Int8 => L::Int8,
        DType::Int16 => L::Int16,
        DType::Int32 => L::Int32,
        DType::Int64 => L::Int64,
        DType::Float32 => L::Float32,
        DType::Float64 => L::Float64,
    }
}

/// The library's dtype as ours, where we have it.
fn from_library(dtype: dtype_lattice::DType) -> Result<DType, Error> {
    use dtype_lattice::DType as L;
    Ok(match dtype {
        L::Bool => DType::Bool,
        L::UInt8 => DType::UInt8,
        L::Int8 => DType::Int8,
        L::Int16 => DType::Int16,
        L::Int32 => DType::Int32,
        L::Int64 => DType::Int64,
        L::Float32 => DType::Float32,
        L::Float64 => DType::Float64,
        other => return Err(no_storage(other.name())),
    })
}

impl Rules for Library {
    #[inline]
    fn result(&self, op: BinOp, a: DType, b: Operand) -> Result<DType, Error> {
        use dtype_lattice::Operand as L;
        let a = L::array(to_library(a), false);
        let b = match b {
            Operand::Array(d) => L::array(to_library(d), false),
            Operand::Scalar(Scalar::Bool(v)) => L::py_bool(v),
            Operand::Scalar(Scalar::Int(v)) => L::py_int(i128::from(v)),
            Operand::Scalar(Scalar::Float(v)) => L::py_float(v),
        };
        let op = match op {
            BinOp::Add => Op::Add,
            BinOp::Divide => Op::TrueDivide,
            BinOp::Less => Op::Less,
        };
        match self.policy.operation(op, &[a, b]) {
            Some(Ok(typed)) => from_library(typed.dtype),
            Some(Err(err)) => Err(Error::framework(err.python_type(), err.to_string())),
            None => Err(Error::unsupported(format!(
                "{} does not model {op}",
                self.policy.name()
            ))),
        }
    }
}

/// NumPy's generated tables (`numpy_tables.rs`), chosen at compile time.
/// A Python scalar stands for a value that fits (the tables are asked with
/// 2, 2.0, True): NumPy's refusal of `int8 + 300` needs the library.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tables;

impl Rules for Tables {
    // Inlined into the caller's crate, as the generated module's readers are
    // into this one: the step is a few loads.
    #[inline]
    fn result(&self, op: BinOp, a: DType, b: Operand) -> Result<DType, Error> {
        let a = tables::Operand::Array(a);
        let b = match b {
            Operand::Array(d) => tables::Operand::Array(d),
            Operand::Scalar(Scalar::Bool(_)) => tables::Operand::Scalar(tables::Scalar::Bool),
            Operand::Scalar(Scalar::Int(_)) => tables::Operand::Scalar(tables::Scalar::Int),
            Operand::Scalar(Scalar::Float(_)) => tables::Operand::Scalar(tables::Scalar::Float),
        };
        let op = match op {
            BinOp::Add => tables::Op::Add,
            BinOp::Divide => tables::Op::TrueDivide,
            BinOp::Less => tables::Op::Less,
        };
        match tables::operation(op, a, b) {
            Some(Ok(typed)) => Ok(typed.dtype),
            Some(Err(err)) => Err(tables_error(err)),
            None => Err(no_table(op)),
        }
    }
}

/// The tables' error as ours: out of line, so that the inlined step keeps
/// no registers for building a message it rarely builds.
#[cold]
#[inline(never)]
fn tables_error(err: tables::Error) -> Error {
    Error::framework(err.exception(), err.message().to_owned())
}

/// What the tables have no cell for, out of line as the error.
#[cold]
#[inline(never)]
fn no_table(op: tables::Op) -> Error {
    Error::unsupported(format!("no table of {} for these", op.name()))
}

/// NumPy's `a + b` for two arrays of the adopter's dtypes, written by hand
/// as a library without dtype-lattice would: the baseline of the
/// benchmark (a test checks it against the library on all 64 pairs).
#[inline]
pub fn hand_add(a: DType, b: DType) -> DType {
    use DType::*;
    match (a, b) {
        (x, y) if x == y => x,
        (Bool, x) | (x, Bool) => x,
        (Float64, _) | (_, Float64) => Float64,
        (Int32 | Int64, Float32) | (Float32, Int32 | Int64) => Float64,
        (Float32, _) | (_, Float32) => Float32,
        (UInt8, Int8) | (Int8, UInt8) => Int16,
        (UInt8, x) | (x, UInt8) => x,
        (Int8, x) | (x, Int8) => x,
        (Int16, x) | (x, Int16) => x,
        (Int32, Int64) | (Int64, Int32) => Int64,
        (x, _) => x,
    }
}
