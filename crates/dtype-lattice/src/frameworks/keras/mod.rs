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
//! [`operation`](Policy::operation) is `keras.ops.<op>` called eagerly
//! (`keras.ops.add`, `keras.ops.mod` for `remainder`, ...). Each backend's
//! function converts its operands its own way, then calls its framework:
//! JAX's makes a Python scalar a weak JAX array and lets `jnp` promote
//! (JAX's rules, without x64); TensorFlow's and NumPy's mostly convert
//! every operand to Keras's `result_type` first, then call the kernel or
//! ufunc of that dtype, which may refuse it (TensorFlow's `AddV2` has no
//! `bool`). `ops` holds the table of those steps per operation and
//! backend; the `jax`, `numpy` and `tensorflow` policies answer what the
//! framework's function then does. So the backends disagree where their
//! steps or frameworks do: `int32 / int32` is Keras's float on TensorFlow
//! and NumPy (floatx's precision) but `jnp`'s `float32` on JAX, and JAX's
//! and NumPy's functions convert a Python scalar "as is" and cast it to the
//! default float when floatx is `bfloat16`, so `x + 2` is then a float:
//!
//! ```
//! use dtype_lattice::frameworks::keras::{Backend, Floatx, Keras};
//! use dtype_lattice::{DType, Op, Operand, Policy, Typed};
//!
//! let x = Operand::dtype(DType::Int8);
//! let jax = Keras::new(Backend::Jax, Floatx::BFloat16);
//! assert_eq!(jax.operation(Op::Add, &[x, Operand::py_int(2)]), Some(Ok(Typed::strong(DType::Float32))));
//! let numpy = Keras::new(Backend::Numpy, Floatx::Float32);
//! let err = numpy.operation(Op::Add, &[x, Operand::py_int(300)]).unwrap().unwrap_err();
//! assert_eq!(err.to_string(), "Python integer 300 out of bounds for int8");
//! let i32 = Operand::dtype(DType::Int32);
//! let half = Floatx::Float16;
//! for (backend, dtype) in [(Backend::TensorFlow, DType::Float16), (Backend::Jax, DType::Float32)] {
//!     let divided = Keras::new(backend, half).operation(Op::TrueDivide, &[i32, i32]);
//!     assert_eq!(divided, Some(Ok(Typed::strong(dtype))));
//! }
//! ```
//!
//! The PyTorch backend is not measured.

use crate::prelude::*;

mod array_ops;
mod jax_backend;
mod numpy_backend;
mod ops;
mod promotion;
mod tensorflow_backend;

use core::fmt;

use crate::policy::{Policy, TypedLattice, WrittenGraph};
use crate::types::{
    ArrayCall, ArrayOp, Call, DType, Elsewhere, Op, OpForm, Operand, Outcome, PromotionError,
    PyScalar, TypeSpec, Typed,
};
use jax_backend::JaxBackend;
use numpy_backend::NumpyBackend;
use promotion::{DTYPES, LATTICE};
use tensorflow_backend::TensorFlowBackend;

/// Keras's backend (`KERAS_BACKEND`), as far as it changes promotion.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Backend {
    /// TensorFlow, Keras's default: `result_type` keeps `int64` and
    /// `float64`, and Python's `int` and `complex` are `int64` and
    /// `complex128`.
    #[default]
    TensorFlow,
    /// JAX: 64-bit results are cut to 32 bits, and the operations are
    /// `jnp`'s on JAX arrays.
    Jax,
    /// NumPy: 64-bit results are cut to 32 bits, and most operations
    /// convert their operands to `result_type` before NumPy's ufunc.
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
    /// `bfloat16`: weak results take 16 bits, and the JAX and NumPy
    /// backends convert Python scalars as they are, then to the default
    /// float.
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
/// `None` is floatx. Operands of [`operation`](Policy::operation) and
/// [`operation(Op::Add)`](Keras::operation): a dtype or an array is an array of the backend
/// holding ones (`keras.ops.ones((2,), dtype)`; arrays without dimensions
/// compute alike), a Python type stands for a scalar (`2`, `2.0`, `2j`,
/// `True`); Keras has no weakly-typed arrays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Keras {
    backend: Backend,
    floatx: Floatx,
}

impl Keras {
    /// Keras on `backend` with `floatx`.
    pub const fn new(backend: Backend, floatx: Floatx) -> Keras {
        Keras { backend, floatx }
    }

    /// `keras.ops.<op>(*operands)`'s dtype on the backend.
    fn run(self, op: Op, operands: &[Operand]) -> Result<DType, PromotionError> {
        match self.backend {
            Backend::TensorFlow => ops::run(&TensorFlowBackend(self), op, operands),
            Backend::Jax => ops::run(&JaxBackend(self), op, operands),
            Backend::Numpy => ops::run(&NumpyBackend(self), op, operands),
        }
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
        DTYPES.contains(dtype)
    }

    /// `keras.ops.<op>(*operands)`'s dtype on the backend (`keras.ops.mod`
    /// for `remainder`, `keras.ops.absolute` for `abs`): the backend
    /// function's own conversions and promotion, then its framework's
    /// function. Keras has no weak arrays: every answer is strong.
    ///
    /// ```
    /// use dtype_lattice::frameworks::keras::{Backend, Floatx, Keras};
    /// use dtype_lattice::{DType, Op, Operand, Policy, Typed};
    /// let (i32, u8) = (Operand::dtype(DType::Int32), Operand::dtype(DType::UInt8));
    /// let jax = Keras::new(Backend::Jax, Floatx::Float32);
    /// assert_eq!(jax.operation(Op::TrueDivide, &[i32, i32]), Some(Ok(Typed::strong(DType::Float32))));
    /// // TensorFlow computes `int32 / int32` in Keras's float: floatx's.
    /// let tf = Keras::new(Backend::TensorFlow, Floatx::Float16);
    /// assert_eq!(tf.operation(Op::TrueDivide, &[i32, i32]), Some(Ok(Typed::strong(DType::Float16))));
    /// // `uint8 ** -1`: TensorFlow's backend computes unsigned powers in int32.
    /// let err = tf.operation(Op::Power, &[u8, Operand::py_int(-1)]).unwrap().unwrap_err();
    /// assert_eq!(err.python_type(), "InvalidArgumentError");
    /// let numpy = Keras::new(Backend::Numpy, Floatx::Float32);
    /// let err = numpy.operation(Op::Power, &[u8, Operand::py_int(-1)]).unwrap().unwrap_err();
    /// assert_eq!(err.to_string(), "Python integer -1 out of bounds for uint8");
    /// ```
    ///
    /// Addition:
    /// ```
    /// use dtype_lattice::frameworks::keras::{Backend, Floatx, Keras};
    /// use dtype_lattice::{DType, Op, Operand, Policy, Typed};
    /// let jax = Keras::new(Backend::Jax, Floatx::Float32);
    /// let (x, u64) = (Operand::dtype(DType::Int8), Operand::dtype(DType::UInt64));
    /// assert_eq!(jax.operation(Op::Add, &[x, u64]), Some(Ok(Typed::strong(DType::Int32))));
    /// let tf = Keras::new(Backend::TensorFlow, Floatx::Float32);
    /// let b = Operand::dtype(DType::Bool);
    /// assert_eq!(tf.operation(Op::Add, &[b, b]).unwrap().unwrap_err().python_type(), "InvalidArgumentError");
    /// ```
    fn operation(&self, op: Op, operands: &[Operand]) -> Option<Result<Typed, PromotionError>> {
        Some(self.run(op, operands).map(Typed::strong))
    }

    /// Every form but the function is the backend's: `keras.ops` are
    /// functions, and in eager mode they return the backend's arrays
    /// (`tf.Tensor`, `jax.Array`, `np.ndarray`), whose operators are the
    /// backend's own (measured with Keras 3.15.1, `requirements-keras.txt`:
    /// `keras.ops.add(x, 2.5)` of an `int8` tensor is `float32` on every
    /// backend, `x + 2.5` TensorFlow's `InvalidArgumentError`, JAX's
    /// `float32`, NumPy's `float64`).
    ///
    /// ```
    /// use dtype_lattice::frameworks::keras::Keras;
    /// use dtype_lattice::{Call, OpForm, Op, Policy};
    /// let div = Call::new(Some(Op::TrueDivide), OpForm::Reflected).unwrap();
    /// assert_eq!(Keras::default().answered_by(div).unwrap().policy, "tensorflow");
    /// ```
    /// `keras.ops.sum` and the others, eagerly on the backend
    /// (`array_ops`).
    fn array_op(
        &self,
        call: &ArrayCall,
        operands: &[Operand],
    ) -> Option<Result<Outcome, PromotionError>> {
        self.keras_array_op(*call, operands)
    }

    fn describe_array_op(&self, op: ArrayOp) -> Option<String> {
        Some(array_ops::describe(self.backend, op))
    }

    fn answered_by(&self, call: Call) -> Option<Elsewhere> {
        if call.form() == OpForm::Function {
            return None;
        }
        let (policy, why) = match self.backend {
            Backend::TensorFlow => (
                "tensorflow",
                "keras.ops are functions, and in eager mode they return tf.Tensor under the \
                 TensorFlow backend, whose operators, in-place operators and assignment are \
                 TensorFlow's",
            ),
            Backend::Jax => (
                "jax",
                "keras.ops are functions, and in eager mode they return jax.Array under the JAX \
                 backend, whose operators, in-place operators and assignment are JAX's",
            ),
            Backend::Numpy => (
                "numpy",
                "keras.ops are functions, and in eager mode they return np.ndarray under the \
                 NumPy backend, whose operators, in-place operators and assignment are NumPy's",
            ),
        };
        Some(Elsewhere { policy, why })
    }

    fn describe_operation(&self, op: Op) -> Option<String> {
        Some(match self.backend {
            Backend::TensorFlow => ops::describe(&TensorFlowBackend(*self), op),
            Backend::Jax => ops::describe(&JaxBackend(*self), op),
            Backend::Numpy => ops::describe(&NumpyBackend(*self), op),
        })
    }
}
