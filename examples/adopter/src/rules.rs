//! Where the result type comes from: the library under a policy chosen at
//! run time ([`Library`]), NumPy's generated tables chosen at compile time
//! ([`Tables`]), or, for the benchmark's baseline, a hand-written `match`
//! ([`hand_add`]). Each maps the adopter's dtypes to its source's and its
//! source's errors to the adopter's.

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
        DType::U8 => L::UInt8,
        DType::I8 => L::Int8,
        DType::I16 => L::Int16,
        DType::I32 => L::Int32,
        DType::I64 => L::Int64,
        DType::F32 => L::Float32,
        DType::F64 => L::Float64,
    }
}

/// The library's dtype as ours, where we have it.
fn from_library(dtype: dtype_lattice::DType) -> Result<DType, Error> {
    use dtype_lattice::DType as L;
    Ok(match dtype {
        L::Bool => DType::Bool,
        L::UInt8 => DType::U8,
        L::Int8 => DType::I8,
        L::Int16 => DType::I16,
        L::Int32 => DType::I32,
        L::Int64 => DType::I64,
        L::Float32 => DType::F32,
        L::Float64 => DType::F64,
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

/// Ours to the tables': the same dtype by name. The tables were generated
/// for our dtypes in our order (`--dtypes`), so both conversions are the
/// identity to the compiler.
#[inline]
fn to_tables(dtype: DType) -> tables::DType {
    use tables::DType as T;
    match dtype {
        DType::Bool => T::Bool,
        DType::U8 => T::UInt8,
        DType::I8 => T::Int8,
        DType::I16 => T::Int16,
        DType::I32 => T::Int32,
        DType::I64 => T::Int64,
        DType::F32 => T::Float32,
        DType::F64 => T::Float64,
    }
}

/// The tables' dtype as ours: they have only ours (a result outside them
/// is an error cell, `NotGenerated`), in our order, so a table of ours by
/// theirs answers with one load; a `match` here became a jump table
/// shared with the error's arm.
#[inline]
fn from_tables(dtype: tables::DType) -> DType {
    // A static, not the const itself: a const indexed at run time may be
    // copied whole on every call.
    static OURS: [DType; DType::ALL.len()] = DType::ALL;
    OURS[dtype as usize]
}

impl Rules for Tables {
    // Inlined into the caller's crate, as the generated module's readers are
    // into this one: the step is a few loads.
    #[inline]
    fn result(&self, op: BinOp, a: DType, b: Operand) -> Result<DType, Error> {
        let a = tables::Operand::Array(to_tables(a));
        let b = match b {
            Operand::Array(d) => tables::Operand::Array(to_tables(d)),
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
            Some(Ok(typed)) => Ok(from_tables(typed.dtype)),
            Some(Err(err)) => Err(Error::framework(err.exception(), err.message().to_owned())),
            None => Err(Error::unsupported(format!(
                "no table of {} for these",
                op.name()
            ))),
        }
    }
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
        (F64, _) | (_, F64) => F64,
        (I32 | I64, F32) | (F32, I32 | I64) => F64,
        (F32, _) | (_, F32) => F32,
        (U8, I8) | (I8, U8) => I16,
        (U8, x) | (x, U8) => x,
        (I8, x) | (x, I8) => x,
        (I16, x) | (x, I16) => x,
        (I32, I64) | (I64, I32) => I64,
        (x, _) => x,
    }
}
