//! Keras 3.15's type promotion: `keras.backend.result_type` and
//! `keras.ops.add`, on the JAX, NumPy and TensorFlow backends, with
//! `keras.config.floatx()`.
//!
//! Keras writes its rules as a lattice "adapted from JAX"
//! (`_type_promotion_lattice` in `keras/src/backend/common/dtypes.py`):
//! JAX's, over Keras's 15 dtypes without float8, with weak nodes `int` and
//! `float` for Python's types and no weak complex. `result_type` joins its
//! inputs there, then changes the join twice, and that is why the policy
//! is defined by rules here, not by the lattice: a weak result takes the
//! precision of `floatx` (a weak int becomes `int16` under `float16` or
//! `bfloat16`), and a 64-bit result is cut to 32 bits (`int64` and
//! `float64` except on TensorFlow, `uint64` and `complex128` everywhere).
//! Cutting after joining breaks associativity:
//!
//! ```
//! use dtype_lattice::frameworks::keras::{Backend, Floatx, Keras};
//! use dtype_lattice::{DType, Policy};
//!
//! let keras = Keras::new(Backend::Jax, Floatx::Float32);
//! let promote = |a: DType, b: DType| keras.promote_types(a.into(), b.into()).unwrap();
//! assert_eq!(promote(DType::UInt64, DType::Int8), DType::Float32);
//! assert_eq!(promote(DType::UInt64, DType::UInt64), DType::UInt32);
//! assert_eq!(promote(promote(DType::UInt64, DType::UInt64), DType::Int8), DType::Int32);
//! ```
//!
//! Keras has no `promote_types`; here it is `result_type` of two dtypes.
//! `result_type` takes dtypes, Python's types (`int` and `float` weak) and
//! `None` (floatx), and answers a dtype name, so every answer is strongly
//! typed:
//!
//! ```
//! use dtype_lattice::frameworks::keras::{Backend, Floatx, Keras};
//! use dtype_lattice::{DType, Operand, Policy, PyScalar, Typed};
//!
//! let keras = Keras::new(Backend::Numpy, Floatx::Float16);
//! let x = Operand::dtype(DType::Bool);
//! assert_eq!(keras.result_type(&[x, PyScalar::Int.into()]), Ok(Typed::strong(DType::Int16)));
//! let tf = Keras::new(Backend::TensorFlow, Floatx::Float32);
//! let i64 = Operand::dtype(DType::Int64);
//! assert_eq!(tf.result_type(&[i64, i64]), Ok(Typed::strong(DType::Int64)));
//! assert_eq!(Keras::default().result_type(&[]), Ok(Typed::strong(DType::Float32)));
//! ```
//!
//! [`add`](Keras::add) is `keras.ops.add`, whose backends convert their
//! inputs to arrays before they add, each its own way: JAX's makes a Python
//! scalar a weak JAX array and lets `jnp.add` promote (JAX's rules, without
//! x64); NumPy's and TensorFlow's convert every input to Keras's
//! `result_type`, with their own range checks (and TensorFlow's kernel has
//! no `bool`). JAX's and NumPy's convert a Python scalar "as is" and cast
//! it to the default float when floatx is `bfloat16`, so `x + 2` is then a
//! float:
//!
//! ```
//! use dtype_lattice::frameworks::keras::{Backend, Floatx, Keras};
//! use dtype_lattice::{DType, Operand, Policy, Typed};
//!
//! let x = Operand::dtype(DType::Int8);
//! let jax = Keras::new(Backend::Jax, Floatx::BFloat16);
//! assert_eq!(jax.add(&[x, Operand::py_int(2)]), Some(Ok(Typed::strong(DType::Float32))));
//! let numpy = Keras::new(Backend::Numpy, Floatx::Float32);
//! let err = numpy.add(&[x, Operand::py_int(300)]).unwrap().unwrap_err();
//! assert_eq!(err.to_string(), "Python integer 300 out of bounds for int8");
//! ```
//!
//! The PyTorch backend is not measured.

use std::fmt;
use std::sync::OnceLock;

use crate::engine::Lattice;
use crate::frameworks::jax::Jax;
use crate::policy::{Policy, TypedLattice, WrittenGraph};
use crate::types::{DType, ErrorKind, PromotionError, Typed};
use crate::types::{Operand, OperandKind, PyScalar, TypeSpec};

/// `_type_promotion_lattice()`, "dtype -> dtypes it promotes to"; `int` and
/// `float` are its weak types.
const LATTICE: &[(&str, &[&str])] = &[
    ("bool", &["int"]),
    ("uint8", &["int16", "uint16"]),
    ("uint16", &["int32", "uint32"]),
    ("uint32", &["int64", "uint64"]),
    ("uint64", &["float"]),
    ("int", &["uint8", "int8", "complex64"]),
    ("int8", &["int16"]),
    ("int16", &["int32"]),
    ("int32", &["int64"]),
    ("int64", &["float"]),
    ("float", &["bfloat16", "float16"]),
    ("bfloat16", &["float32"]),
    ("float16", &["float32"]),
    ("float32", &["float64", "complex64"]),
    ("float64", &["complex128"]),
    ("complex64", &["complex128"]),
    ("complex128", &[]),
];

/// The dtypes Keras has (`ALLOWED_DTYPES` but `string`): the lattice's and
/// the two float8 types, which promote with nothing.
const DTYPES: [DType; 17] = [
    DType::Bool,
    DType::UInt8,
    DType::UInt16,
    DType::UInt32,
    DType::UInt64,
    DType::Int8,
    DType::Int16,
    DType::Int32,
    DType::Int64,
    DType::Float8E4M3Fn,
    DType::Float8E5M2,
    DType::BFloat16,
    DType::Float16,
    DType::Float32,
    DType::Float64,
    DType::Complex64,
    DType::Complex128,
];

const FLOAT8: [DType; 2] = [DType::Float8E4M3Fn, DType::Float8E5M2];

/// Keras's backend (`KERAS_BACKEND`), as far as it changes promotion.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Backend {
    /// TensorFlow, Keras's default: `result_type` keeps `int64` and
    /// `float64`, and Python's `int` and `complex` are `int64` and
    /// `complex128`.
    #[default]
    TensorFlow,
    /// JAX: 64-bit results are cut to 32 bits, and `add` is `jnp.add`.
    Jax,
    /// NumPy: 64-bit results are cut to 32 bits, and `add` converts its
    /// inputs to `result_type` first.
    Numpy,
}

impl Backend {
    /// Every backend, in the settings table's order (Keras's default first).
    pub const ALL: [Backend; 3] = [Backend::TensorFlow, Backend::Jax, Backend::Numpy];

    /// The name `KERAS_BACKEND` takes.
    pub const fn name(self) -> &'static str {
        match self {
            Backend::TensorFlow => "tensorflow",
            Backend::Jax => "jax",
            Backend::Numpy => "numpy",
        }
    }
}

/// `keras.config.floatx()`: the precision weak results take, and the dtype
/// of `None` and of `result_type()`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Floatx {
    /// `float32`, Keras's default.
    #[default]
    Float32,
    /// `float16`: weak results take 16 bits.
    Float16,
    /// `bfloat16`: weak results take 16 bits, and `add` converts Python
    /// scalars as they are, then to the default float.
    BFloat16,
    /// `float64`: weak results take 64 bits, then cut to 32.
    Float64,
}

impl Floatx {
    /// Every value, in the settings table's order (Keras's default first).
    pub const ALL: [Floatx; 4] = [
        Floatx::Float32,
        Floatx::Float16,
        Floatx::BFloat16,
        Floatx::Float64,
    ];

    /// The dtype it names.
    pub const fn dtype(self) -> DType {
        match self {
            Floatx::Float32 => DType::Float32,
            Floatx::Float16 => DType::Float16,
            Floatx::BFloat16 => DType::BFloat16,
            Floatx::Float64 => DType::Float64,
        }
    }

    /// The weak int and weak float at this precision (`floatx()[-2:]`).
    const fn weak_dtypes(self) -> (DType, DType) {
        match self {
            Floatx::Float32 => (DType::Int32, DType::Float32),
            Floatx::Float16 | Floatx::BFloat16 => (DType::Int16, DType::Float16),
            Floatx::Float64 => (DType::Int64, DType::Float64),
        }
    }
}

/// Keras 3.15.1's promotion on one backend, with one floatx.
///
/// Operands of `result_type`: a dtype or a strong array is that dtype's
/// name; Python's types are Python's types (`int` and `float` weak); a
/// Python value is refused as Keras refuses it (`Invalid dtype: 2`);
/// `None` is floatx. Operands of [`add`](Keras::add): a dtype or an array
/// is an array of the backend (`keras.ops.zeros((2,), dtype)`; arrays
/// without dimensions add alike), a Python type stands for the scalar the
/// golden data uses (`2`, `2.0`, `2j`, `True`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Keras {
    backend: Backend,
    floatx: Floatx,
}

/// A node of Keras's lattice or where `result_type` stops before it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Input {
    DType(DType),
    WeakInt,
    WeakFloat,
}

impl Keras {
    /// Keras on `backend` with `floatx`.
    pub const fn new(backend: Backend, floatx: Floatx) -> Keras {
        Keras { backend, floatx }
    }

    /// The dtype `result_type` gives Python's `complex`.
    fn python_complex(self) -> DType {
        match self.backend {
            Backend::TensorFlow => DType::Complex128,
            _ => DType::Complex64,
        }
    }

    /// `BIT64_TO_BIT32_DTYPE`: how `result_type` cuts a 64-bit result.
    fn cut(self, dtype: DType) -> DType {
        let tensorflow = self.backend == Backend::TensorFlow;
        match dtype {
            DType::Int64 if !tensorflow => DType::Int32,
            DType::Float64 if !tensorflow => DType::Float32,
            DType::UInt64 => DType::UInt32,
            DType::Complex128 => DType::Complex64,
            other => other,
        }
    }

    /// `standardize_dtype` and the weak flag of one input.
    fn input(self, operand: &Operand) -> Result<Input, PromotionError> {
        Ok(match operand.kind() {
            OperandKind::DType(dtype)
            | OperandKind::ZeroDim(dtype)
            | OperandKind::Array { dtype, .. } => Input::DType(keras_dtype(dtype)?),
            OperandKind::PyType(PyScalar::Int) => Input::WeakInt,
            OperandKind::PyType(PyScalar::Float) => Input::WeakFloat,
            OperandKind::PyType(PyScalar::Complex) => Input::DType(self.python_complex()),
            OperandKind::PyType(PyScalar::Bool) => Input::DType(DType::Bool),
            OperandKind::None => Input::DType(self.floatx.dtype()),
            _ => return Err(invalid_dtype(&operand.to_string())),
        })
    }

    /// `keras.backend.result_type(*operands)`.
    fn result_dtype(self, operands: &[Operand]) -> Result<DType, PromotionError> {
        if operands.is_empty() {
            return Ok(self.floatx.dtype());
        }
        for operand in operands {
            if let OperandKind::Array { dtype, weak: true } = operand.kind() {
                return Err(crate::frameworks::numpy::weak_array(dtype));
            }
        }
        if operands
            .iter()
            .any(|o| spec_dtype(o).is_some_and(|d| FLOAT8.contains(&d)))
        {
            return Err(no_float8_promotion(&args_tuple(operands, quoted_name)));
        }
        let inputs = operands
            .iter()
            .map(|operand| self.input(operand))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(self.join(&inputs))
    }

    /// The join of standardized inputs, its weak type resolved by floatx
    /// and cut to 32 bits.
    fn join(self, inputs: &[Input]) -> DType {
        let lattice = lattice();
        let node = |input: Input| {
            let label = match input {
                Input::DType(dtype) => dtype.name(),
                Input::WeakInt => "int",
                Input::WeakFloat => "float",
            };
            lattice.node(label)
        };
        // Only the float8 types, refused before, have no node; the rest
        // join below complex128.
        let joined = inputs
            .iter()
            .map(|&i| node(i))
            .collect::<Option<Vec<_>>>()
            .and_then(|nodes| lattice.join_all(nodes))
            .expect("every Keras dtype but float8 joins");
        let (weak_int, weak_float) = self.floatx.weak_dtypes();
        let dtype = match lattice.label(joined) {
            "int" => weak_int,
            "float" => weak_float,
            label => DType::from_name(label).expect("strong labels are dtype names"),
        };
        self.cut(dtype)
    }

    /// `keras.ops.add(a, b)` on the JAX backend: each input made a JAX
    /// array (without x64), then `jnp.add`.
    fn add_jax(self, a: &Operand, b: &Operand) -> Result<DType, PromotionError> {
        let jax = Jax::default();
        let array = |operand: &Operand| -> Result<Typed, PromotionError> {
            if let Some(dtype) = spec_dtype(operand) {
                let dtype = keras_dtype(dtype)?;
                return Ok(Typed::strong(jax.canonicalize_dtype(dtype)));
            }
            if operand.is_none() {
                return Err(PromotionError::Framework {
                    kind: ErrorKind::Value,
                    message: "None is not a valid value for jnp.array".to_owned(),
                });
            }
            let value = jax.asarray(*operand)?;
            // floatx bfloat16: `jnp.asarray(x).astype(None)`, the default
            // float.
            Ok(if self.floatx == Floatx::BFloat16 {
                Typed::strong(DType::Float32)
            } else {
                value
            })
        };
        let (a, b) = (array(a)?, array(b)?);
        jax.typed_result_type(&[a, b]).map(|typed| typed.dtype)
    }

    /// `keras.ops.add(a, b)` on the NumPy backend: arrays, complex numbers
    /// and `None` converted to arrays, the dtype `result_type` of the
    /// inputs, each input converted to it.
    fn add_numpy(self, a: &Operand, b: &Operand) -> Result<DType, PromotionError> {
        let (a, b) = (self.numpy_input(a)?, self.numpy_input(b)?);
        let inputs = [a, b].map(|input| match input {
            NumpyInput::Array(dtype) => Input::DType(dtype),
            NumpyInput::Int(_) => Input::WeakInt,
            NumpyInput::Float => Input::WeakFloat,
            NumpyInput::Bool => Input::DType(DType::Bool),
        });
        let dtype = self.join(&inputs);
        for input in [a, b] {
            if let NumpyInput::Int(value) = input {
                numpy_int(value, dtype)?;
            }
        }
        Ok(dtype)
    }

    /// The NumPy backend's first conversion: `convert_to_tensor(x)` of
    /// anything but a Python int or float (a bool is an int).
    fn numpy_input(self, operand: &Operand) -> Result<NumpyInput, PromotionError> {
        if let Some(dtype) = spec_dtype(operand) {
            let dtype = keras_dtype(dtype)?;
            if FLOAT8.contains(&dtype) {
                return Err(no_float8_promotion(&format!("(dtype({dtype}),)")));
            }
            return Ok(NumpyInput::Array(self.cut(dtype)));
        }
        Ok(match operand.kind() {
            OperandKind::PyInt(value) => NumpyInput::Int(value),
            OperandKind::PyType(PyScalar::Int) => NumpyInput::Int(2),
            OperandKind::PyFloat(_) | OperandKind::PyType(PyScalar::Float) => NumpyInput::Float,
            OperandKind::PyBool(_) | OperandKind::PyType(PyScalar::Bool) => NumpyInput::Bool,
            // floatx bfloat16: `np.asarray(x).astype(None)`, float64.
            _ if self.floatx == Floatx::BFloat16 => NumpyInput::Array(DType::Float64),
            OperandKind::None => return Err(invalid_dtype("NoneType")),
            _ => NumpyInput::Array(self.cut(self.python_complex())),
        })
    }
}

impl Keras {
    /// `keras.ops.add(a, b)` on the TensorFlow backend: the arrays made
    /// (TensorFlow has no cast to float8, so `keras.ops.zeros` cannot make
    /// one), complex numbers and `None` converted, the dtype `result_type`
    /// of the inputs, each input converted to it, then `tf.add`, whose
    /// kernel has no `bool`.
    fn add_tensorflow(self, a: &Operand, b: &Operand) -> Result<DType, PromotionError> {
        use crate::frameworks::tensorflow::{kernel, out_of_range, unconvertible_none};
        for operand in [a, b] {
            if let Some(dtype) = spec_dtype(operand) {
                let dtype = keras_dtype(dtype)?;
                if FLOAT8.contains(&dtype) {
                    return Err(PromotionError::Framework {
                        kind: ErrorKind::Type,
                        message: format!(
                            "Error while casting from dtype int64 to {dtype}. {{{{function_node \
                             __wrapped__Cast_device_/job:localhost/replica:0/task:0/device:CPU:0}}}} \
                             Cast int64 to {dtype} is not supported"
                        ),
                    });
                }
            }
        }
        for operand in [a, b] {
            if operand.is_none() {
                return Err(unconvertible_none());
            }
        }
        let input = |operand: &Operand| match operand.kind() {
            OperandKind::PyInt(_) | OperandKind::PyType(PyScalar::Int) => Input::WeakInt,
            OperandKind::PyFloat(_) | OperandKind::PyType(PyScalar::Float) => Input::WeakFloat,
            OperandKind::PyBool(_) | OperandKind::PyType(PyScalar::Bool) => {
                Input::DType(DType::Bool)
            }
            // `tf.convert_to_tensor` of a Python complex: complex128.
            _ => Input::DType(spec_dtype(operand).unwrap_or(DType::Complex128)),
        };
        let dtype = self.join(&[input(a), input(b)]);
        for operand in [a, b] {
            match operand.kind() {
                // Into an integer or bool dtype a Python int is converted
                // as TensorFlow reads it (an int64 at most), then cast;
                // into a float or complex one directly, where only the
                // IEEE floats take one beyond int64.
                OperandKind::PyInt(value)
                    if i64::try_from(value).is_err()
                        && !matches!(dtype, DType::Float16 | DType::Float32 | DType::Float64) =>
                {
                    return Err(out_of_range());
                }
                OperandKind::PyBool(_) | OperandKind::PyType(PyScalar::Bool)
                    if matches!(dtype, DType::BFloat16 | DType::Complex64) =>
                {
                    let truth = match operand.kind() {
                        OperandKind::PyBool(false) => "False",
                        _ => "True",
                    };
                    return Err(PromotionError::Framework {
                        kind: ErrorKind::Type,
                        message: format!("Cannot convert {truth} to EagerTensor of dtype {dtype}"),
                    });
                }
                _ => {}
            }
        }
        kernel(dtype)?;
        Ok(dtype)
    }
}

/// An input of the NumPy backend's `add` after its first conversion.
#[derive(Clone, Copy)]
enum NumpyInput {
    Array(DType),
    Int(i128),
    Float,
    Bool,
}

/// `np.array(value, dtype)` of a Python int, or the bfloat16 path
/// (`np.asarray(value).astype("bfloat16")`), where a value NumPy reads
/// into no 64-bit integer stays a Python object that ml_dtypes refuses.
fn numpy_int(value: i128, dtype: DType) -> Result<(), PromotionError> {
    if dtype == DType::BFloat16 {
        let readable = i64::try_from(value).is_ok() || u64::try_from(value).is_ok();
        return if readable {
            Ok(())
        } else {
            Err(PromotionError::Framework {
                kind: ErrorKind::Type,
                message: "expected number, got int".to_owned(),
            })
        };
    }
    crate::frameworks::numpy::check_python_int(value, dtype)
}

/// The dtype an operand names, if it is a dtype or an array.
fn spec_dtype(operand: &Operand) -> Option<DType> {
    match operand.kind() {
        OperandKind::DType(dtype)
        | OperandKind::ZeroDim(dtype)
        | OperandKind::Array { dtype, .. } => Some(dtype),
        _ => None,
    }
}

/// A dtype Keras has, or `standardize_dtype`'s error.
fn keras_dtype(dtype: DType) -> Result<DType, PromotionError> {
    if DTYPES.contains(&dtype) {
        Ok(dtype)
    } else {
        Err(invalid_dtype(dtype.name()))
    }
}

fn invalid_dtype(what: &str) -> PromotionError {
    PromotionError::Framework {
        kind: ErrorKind::Value,
        message: format!("Invalid dtype: {what}"),
    }
}

fn no_float8_promotion(received: &str) -> PromotionError {
    PromotionError::Framework {
        kind: ErrorKind::Value,
        message: format!(
            "There is no implicit conversions from float8 dtypes to others. You must cast it \
             internally. Received: {received}"
        ),
    }
}

/// An argument as Python's `repr` writes it in a tuple: a dtype name
/// quoted, a type as its class.
fn quoted_name(operand: &Operand) -> String {
    match operand.kind() {
        OperandKind::DType(dtype)
        | OperandKind::ZeroDim(dtype)
        | OperandKind::Array { dtype, .. } => format!("'{dtype}'"),
        OperandKind::PyType(scalar) => format!("<class '{}'>", scalar.name()),
        _ => operand.to_string(),
    }
}

/// Python's `repr` of a tuple of arguments.
fn args_tuple(operands: &[Operand], repr: fn(&Operand) -> String) -> String {
    let items: Vec<String> = operands.iter().map(repr).collect();
    match items.as_slice() {
        [one] => format!("({one},)"),
        _ => format!("({})", items.join(", ")),
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Policy for Keras {
    fn name(&self) -> String {
        format!("keras ({}, floatx {})", self.backend, self.floatx.dtype())
    }

    /// `keras.backend.result_type(a, b)` of two dtypes or Python types.
    ///
    /// ```
    /// use dtype_lattice::frameworks::keras::Keras;
    /// use dtype_lattice::{DType, Policy, PyScalar};
    /// let keras = Keras::default();
    /// assert_eq!(keras.promote_types(DType::Int8.into(), PyScalar::Float.into()), Ok(DType::Float32));
    /// let err = keras.promote_types(DType::Int4.into(), DType::Int8.into()).unwrap_err();
    /// assert_eq!(err.to_string(), "Invalid dtype: int4");
    /// ```
    fn promote_types(&self, a: TypeSpec, b: TypeSpec) -> Result<DType, PromotionError> {
        self.result_dtype(&[Operand::from(a), Operand::from(b)])
    }

    fn result_type(&self, operands: &[Operand]) -> Result<Typed, PromotionError> {
        self.result_dtype(operands).map(Typed::strong)
    }

    /// Keras writes a lattice, but `result_type` changes its joins
    /// (floatx, 64 to 32 bits), so no lattice defines it.
    fn lattice(&self) -> Option<&TypedLattice> {
        None
    }

    fn written_graph(&self) -> Option<WrittenGraph> {
        Some(WrittenGraph {
            edges: LATTICE,
            weak: &[("int", PyScalar::Int), ("float", PyScalar::Float)],
        })
    }

    fn is_native(&self, dtype: DType) -> bool {
        DTYPES.contains(&dtype)
    }

    /// `keras.ops.add(a, b)`'s dtype on the backend.
    ///
    /// ```
    /// use dtype_lattice::frameworks::keras::{Backend, Floatx, Keras};
    /// use dtype_lattice::{DType, Operand, Policy, Typed};
    /// let jax = Keras::new(Backend::Jax, Floatx::Float32);
    /// let (x, u64) = (Operand::dtype(DType::Int8), Operand::dtype(DType::UInt64));
    /// assert_eq!(jax.add(&[x, u64]), Some(Ok(Typed::strong(DType::Int32))));
    /// let tf = Keras::new(Backend::TensorFlow, Floatx::Float32);
    /// let b = Operand::dtype(DType::Bool);
    /// assert_eq!(tf.add(&[b, b]).unwrap().unwrap_err().python_type(), "InvalidArgumentError");
    /// ```
    fn add(&self, operands: &[Operand]) -> Option<Result<Typed, PromotionError>> {
        let [a, b] = operands else {
            return Some(Err(PromotionError::Framework {
                kind: ErrorKind::Type,
                message: format!(
                    "add() takes 2 positional arguments but {} were given",
                    operands.len()
                ),
            }));
        };
        let dtype = match self.backend {
            Backend::Jax => self.add_jax(a, b),
            Backend::Numpy => self.add_numpy(a, b),
            Backend::TensorFlow => self.add_tensorflow(a, b),
        };
        Some(dtype.map(Typed::strong))
    }
}

/// Keras's lattice. Built once.
fn lattice() -> &'static Lattice {
    static LATTICE_ONCE: OnceLock<Lattice> = OnceLock::new();
    LATTICE_ONCE.get_or_init(|| Lattice::from_dict(LATTICE).expect("Keras's graph is a lattice"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_dtype_but_float8_is_a_node() {
        for dtype in DTYPES {
            assert_eq!(
                lattice().node(dtype.name()).is_some(),
                !FLOAT8.contains(&dtype)
            );
        }
        assert_eq!(lattice().len(), DTYPES.len());
    }
}
