//! TensorFlow 2.21's type promotion: `tf.add` and the other operations as
//! TensorFlow starts ([`Mode::Off`]), and TensorFlow's "auto dtype
//! conversion" under NumPy behaviour ([`Mode::Safe`], [`Mode::All`]).
//!
//! This module holds the modes and the promotion table; `ops` says which
//! function each operation calls and how it reaches its kernel, `convert`
//! how a Python scalar becomes a tensor, and `kernels` what each kernel
//! takes ([`Policy::operation`]).
//!
//! Without NumPy behaviour TensorFlow promotes nothing: `tf.add` takes two
//! tensors of one dtype, and a Python scalar becomes a tensor of the other
//! operand's dtype when TensorFlow can convert it, of its own default dtype
//! otherwise.
//!
//! ```
//! use dtype_lattice::frameworks::tensorflow::{Mode, TensorFlow};
//! use dtype_lattice::{DType, Op, Operand, Policy, Typed};
//!
//! let tf = TensorFlow::new(Mode::Off);
//! let x = Operand::dtype(DType::Int8);
//! assert_eq!(tf.operation(Op::Add, &[x, Operand::py_int(2)]), Some(Ok(Typed::strong(DType::Int8))));
//! let err = tf.operation(Op::Add, &[x, Operand::dtype(DType::UInt8)]).unwrap().unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "cannot compute AddV2 as input #1(zero-based) was expected to be a int8 tensor but is \
//!      a uint8 tensor [Op:AddV2] name: "
//! );
//! ```
//!
//! Under NumPy behaviour TensorFlow promotes by a table over fifteen dtypes
//! and five weak types (Python's `int` is a weak int32, `float` a weak
//! float32, `complex` a weak complex128). In mode `all` that table is a
//! lattice, built here with the [lattice engine](crate::engine) from its
//! edges. Mode `safe` joins on the same lattice but refuses a join unless it
//! is one of the operands' own dtypes and every strongly-typed operand
//! converts to it exactly (so `int32` and `float32` promote in mode `all`
//! only):
//!
//! ```
//! use dtype_lattice::Policy;
//! use dtype_lattice::frameworks::tensorflow::{Mode, TensorFlow};
//! use dtype_lattice::{DType, Operand, Typed};
//!
//! let (i32, f32) = (Operand::dtype(DType::Int32), Operand::dtype(DType::Float32));
//! let all = TensorFlow::new(Mode::All);
//! assert_eq!(all.result_type(&[i32, f32]), Ok(Typed::strong(DType::Float32)));
//! assert_eq!(all.result_type(&[i32, Operand::py_float(2.5)]), Ok(Typed::weak(DType::Float64)));
//! let safe = TensorFlow::new(Mode::Safe);
//! assert_eq!(safe.result_type(&[i32, f32]).unwrap_err().python_type(), "TypeError");
//! ```

use crate::prelude::*;

mod array_ops;
mod auto;
mod convert;
mod forms;
mod kernels;
mod ops;
mod tnp;
mod tnp_array_ops;

use crate::frameworks::common::DTypeSet;
use crate::policy::Policy;
use crate::policy::TypedLattice;
use crate::types::ErrorKind;
use crate::types::PromotionError;
use crate::types::Typed;
use crate::types::{ArrayCall, ArrayOp, DType, Op, OpForm, Outcome};
use crate::types::{Operand, OperandKind, TypeSpec};

use auto::{auto_typed, lattice};
pub(crate) use convert::to_tensor;
pub(crate) use ops::{call_plain, function_name};
pub(crate) use tnp::cast as cast_kernel;

/// TensorFlow's NumPy behaviour (setting `tensorflow_numpy_behavior`):
/// off, as TensorFlow starts, or turned on by
/// `tnp.experimental_enable_numpy_behavior(dtype_conversion_mode=...)` in
/// one of its modes. A program switches it at run time, so it is a setting
/// of the policies `tensorflow` and `tensorflow-numpy`, not a policy of
/// its own (the presets `tensorflow-safe` and `tensorflow-all` name it
/// fixed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// NumPy behaviour not enabled: no implicit promotion.
    #[default]
    Off,
    /// `"legacy"`, the default of `experimental_enable_numpy_behavior`:
    /// TensorFlow's functions promote nothing, as with NumPy behaviour
    /// off, but the tensor operators and `tf.experimental.numpy` promote
    /// by NumPy's `result_type` (`np_dtypes._result_type`).
    Legacy,
    /// `"safe"`: promotions that lose no values.
    Safe,
    /// `"all"`: every promotion of the table.
    All,
}

/// Every mode with the setting's name for it, the default first: the one
/// list the setting's values come from, so that a new mode is one line
/// here (and its variant).
const MODES: [(Mode, &str); 4] = [
    (Mode::Off, "off"),
    (Mode::Legacy, "legacy"),
    (Mode::Safe, "safe"),
    (Mode::All, "all"),
];

impl Mode {
    /// Every mode, in the order of the setting's values.
    pub const ALL: [Mode; MODES.len()] = {
        let mut all = [Mode::Off; MODES.len()];
        let mut i = 0;
        while i < MODES.len() {
            all[i] = MODES[i].0;
            i += 1;
        }
        all
    };

    /// The setting's values: each mode's name, in [`ALL`](Mode::ALL)'s
    /// order.
    pub const NAMES: [&'static str; MODES.len()] = {
        let mut names = [""; MODES.len()];
        let mut i = 0;
        while i < MODES.len() {
            names[i] = MODES[i].1;
            i += 1;
        }
        names
    };

    /// The mode's name, as the setting spells it (`off`, `safe`, `all`).
    ///
    /// ```
    /// use dtype_lattice::frameworks::tensorflow::Mode;
    /// assert_eq!(Mode::Safe.name(), "safe");
    /// assert_eq!(Mode::NAMES, ["off", "legacy", "safe", "all"]);
    /// ```
    pub const fn name(self) -> &'static str {
        // `MODES` lists the variants in their order (tested).
        Mode::NAMES[self as usize]
    }

    /// Whether the mode is one of TensorFlow's "auto dtype conversion"
    /// (`safe`, `all`), under which `weak_tensor_ops` wraps the functions
    /// and Python scalars are weak.
    ///
    /// ```
    /// use dtype_lattice::frameworks::tensorflow::Mode;
    /// assert!(Mode::Safe.converts() && !Mode::Legacy.converts());
    /// ```
    pub const fn converts(self) -> bool {
        matches!(self, Mode::Safe | Mode::All)
    }
}

/// Whose functions the operations are: TensorFlow's own (policy
/// `tensorflow`) or `tf.experimental.numpy`'s (policy `tensorflow-numpy`).
/// A program imports one or the other, so each is a policy of its own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Api {
    /// TensorFlow's own (`tf.add`, `tf.math.truediv`, ...).
    #[default]
    Tf,
    /// `tf.experimental.numpy`'s (`tnp.add`, `tnp.true_divide`, ...),
    /// which promote as NumPy does before they call TensorFlow's.
    Tnp,
}

/// The dtypes TensorFlow has.
const DTYPES: DTypeSet = DTypeSet::of(&[
    DType::Bool,
    DType::UInt2,
    DType::UInt4,
    DType::UInt8,
    DType::UInt16,
    DType::UInt32,
    DType::UInt64,
    DType::Int2,
    DType::Int4,
    DType::Int8,
    DType::Int16,
    DType::Int32,
    DType::Int64,
    DType::Float4E2M1Fn,
    DType::Float8E4M3B11Fnuz,
    DType::Float8E4M3Fn,
    DType::Float8E4M3Fnuz,
    DType::Float8E5M2,
    DType::Float8E5M2Fnuz,
    DType::BFloat16,
    DType::Float16,
    DType::Float32,
    DType::Float64,
    DType::Complex64,
    DType::Complex128,
]);

/// The fifteen dtypes of the table, which auto dtype conversion promotes
/// and `tf.cast` casts among.
const LATTICE_DTYPES: DTypeSet = DTypeSet::of(&[
    DType::Bool,
    DType::UInt8,
    DType::UInt16,
    DType::UInt32,
    DType::UInt64,
    DType::Int8,
    DType::Int16,
    DType::Int32,
    DType::Int64,
    DType::BFloat16,
    DType::Float16,
    DType::Float32,
    DType::Float64,
    DType::Complex64,
    DType::Complex128,
]);

/// The dtypes a `WeakTensor` may have.
const WEAK_DTYPES: DTypeSet = DTypeSet::of(&[
    DType::Int32,
    DType::Int64,
    DType::Float32,
    DType::Float64,
    DType::Complex128,
]);

/// TensorFlow 2.21.0's promotion in one dtype conversion mode.
///
/// Operands: a dtype or a strong array is a tensor (TensorFlow treats
/// zero-dimensional tensors alike), a weak array is a `WeakTensor` (modes
/// safe and all), and Python scalars and their types are Python scalars;
/// a Python type stands for the scalars the golden data uses (`2`, `2.0`,
/// `2j`, `True`). A tensor holds what the golden data's hold, ones (so
/// `x // y` fails for a divisor only where a Python scalar is zero), and
/// where TensorFlow prints a tensor, it prints that one: shape `(2,)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TensorFlow {
    mode: Mode,
    api: Api,
    prefer_float32: bool,
}

/// An operand as TensorFlow sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Value {
    Tensor { dtype: DType, weak: bool },
    Int(i128),
    Float(f64),
    Complex { real: f64, imag: f64 },
    Bool(bool),
    None,
}

impl Value {
    /// A Python scalar or `None` as TensorFlow sees it; `None` (Rust's)
    /// for anything else.
    pub(crate) fn python(operand: Operand) -> Option<Value> {
        Some(match operand.kind() {
            OperandKind::PyFloat(value) => Value::Float(value),
            OperandKind::PyComplex { real, imag } => Value::Complex { real, imag },
            OperandKind::PyBool(value) => Value::Bool(value),
            OperandKind::PyInt(value) => Value::Int(value),
            OperandKind::None => Value::None,
            _ => return None,
        })
    }

    /// The operand it is: a tensor as a strong dtype (a `WeakTensor` as a
    /// weak array), a Python scalar as itself.
    pub(crate) fn operand(self) -> Operand {
        match self {
            Value::Tensor { dtype, weak: false } => Operand::dtype(dtype),
            Value::Tensor { dtype, weak: true } => Operand::array(dtype, true),
            Value::Int(value) => Operand::py_int(value),
            Value::Float(value) => Operand::py_float(value),
            Value::Complex { real, imag } => Operand::py_complex(real, imag),
            Value::Bool(value) => Operand::py_bool(value),
            Value::None => Operand::NONE,
        }
    }

    /// Python's `repr` of a scalar, as conversion errors print it.
    fn repr(self) -> String {
        match self {
            Value::Int(value) => Operand::py_int(value).to_string(),
            Value::Float(value) => Operand::py_float(value).to_string(),
            Value::Complex { real, imag } => Operand::py_complex(real, imag).to_string(),
            Value::Bool(value) => python_bool(value).to_owned(),
            Value::None => "None".to_owned(),
            Value::Tensor { dtype, .. } => format!("<tf.Tensor: dtype={dtype}>"),
        }
    }
}

impl TensorFlow {
    /// TensorFlow in `mode`.
    pub const fn new(mode: Mode) -> TensorFlow {
        TensorFlow {
            mode,
            api: Api::Tf,
            prefer_float32: false,
        }
    }

    /// The same TensorFlow with NumPy behaviour enabled with
    /// `prefer_float32` (setting `tensorflow_prefer_float32`): a Python
    /// float or complex beside a tensor counts as NumPy's float32 or
    /// complex64 where `tf.experimental.numpy` and the operators under
    /// mode legacy take NumPy's `result_type`. TensorFlow has it only with
    /// NumPy behaviour on, since only
    /// `tnp.experimental_enable_numpy_behavior` sets it: with mode off
    /// every question is refused, naming the fix.
    ///
    /// ```
    /// use dtype_lattice::frameworks::tensorflow::{Api, Mode, TensorFlow};
    /// use dtype_lattice::{DType, Op, Operand, Policy, Typed};
    /// let x = Operand::dtype(DType::Int8);
    /// let tnp = TensorFlow::new(Mode::Legacy).with_api(Api::Tnp);
    /// let add = |tf: TensorFlow| tf.operation(Op::Add, &[x, Operand::py_float(2.5)]);
    /// assert_eq!(add(tnp), Some(Ok(Typed::strong(DType::Float64))));
    /// assert_eq!(add(tnp.with_prefer_float32(true)), Some(Ok(Typed::strong(DType::Float32))));
    /// let off = TensorFlow::new(Mode::Off).with_prefer_float32(true);
    /// assert_eq!(off.name(), "tensorflow (numpy behavior off, prefer_float32)");
    /// assert!(add(off).unwrap().is_err());
    /// ```
    pub const fn with_prefer_float32(self, prefer_float32: bool) -> TensorFlow {
        TensorFlow {
            prefer_float32,
            ..self
        }
    }

    /// Whether NumPy behaviour prefers float32 (`prefer_float32`).
    pub const fn prefer_float32(&self) -> bool {
        self.prefer_float32
    }

    /// The same TensorFlow whose operations are `api`'s functions. With
    /// NumPy behaviour off, `tf.experimental.numpy` is not modelled: every
    /// question to it is refused with an error naming the setting that
    /// turns NumPy behaviour on.
    ///
    /// ```
    /// use dtype_lattice::frameworks::tensorflow::{Api, Mode, TensorFlow};
    /// use dtype_lattice::{DType, Op, Operand, Policy, Typed};
    /// let tnp = TensorFlow::new(Mode::Safe).with_api(Api::Tnp);
    /// assert_eq!(tnp.name(), "tensorflow-numpy (numpy behavior safe)");
    /// let bools = [Operand::dtype(DType::Bool); 2];
    /// assert_eq!(tnp.operation(Op::FloorDivide, &bools), Some(Ok(Typed::strong(DType::Int8))));
    /// let off = TensorFlow::new(Mode::Off).with_api(Api::Tnp);
    /// let err = off.operation(Op::FloorDivide, &bools).unwrap().unwrap_err();
    /// assert!(err.to_string().contains("set tensorflow_numpy_behavior=legacy"));
    /// ```
    pub const fn with_api(self, api: Api) -> TensorFlow {
        TensorFlow { api, ..self }
    }

    /// Whose functions the operations are.
    pub const fn api(&self) -> Api {
        self.api
    }

    /// The mode.
    pub const fn mode(&self) -> Mode {
        self.mode
    }

    /// The operands as TensorFlow builds them, in order: a dtype it lacks
    /// fails `tf.as_dtype`, a weak tensor of a dtype `WeakTensor` refuses
    /// fails to be made.
    fn values(&self, operands: &[Operand]) -> Result<Vec<Value>, PromotionError> {
        operands
            .iter()
            .map(|operand| {
                let argument = operand.as_argument();
                Ok(match argument.kind() {
                    OperandKind::DType(dtype) | OperandKind::ZeroDim(dtype) => Value::Tensor {
                        dtype: known(dtype)?,
                        weak: false,
                    },
                    OperandKind::Array { dtype, weak } => {
                        let dtype = known(dtype)?;
                        if weak {
                            self.weak_tensor(dtype)?;
                        }
                        Value::Tensor { dtype, weak }
                    }
                    _ => Value::python(argument).expect("as_argument makes a type a scalar"),
                })
            })
            .collect()
    }

    fn weak_tensor(&self, dtype: DType) -> Result<(), PromotionError> {
        if !self.mode.converts() {
            return Err(PromotionError::framework(
                ErrorKind::Value,
                format!(
                    "weak:{dtype} is a WeakTensor, which TensorFlow has only under NumPy \
                     behaviour's auto dtype conversion; set tensorflow_numpy_behavior=safe or \
                     tensorflow_numpy_behavior=all"
                ),
            ));
        }
        if WEAK_DTYPES.contains(dtype) {
            return Ok(());
        }
        Err(PromotionError::framework(
            ErrorKind::Type,
            format!(
                "<dtype: '{dtype}'> not allowed as a weak type. The allowed types are (tf.int32, \
                 tf.int64, tf.float32, tf.float64, tf.complex128)."
            ),
        ))
    }
}

fn python_bool(value: bool) -> &'static str {
    if value {
        "True"
    } else {
        "False"
    }
}

/// A dtype TensorFlow has, or the error `tf.as_dtype(name)` gives.
fn known(dtype: DType) -> Result<DType, PromotionError> {
    if DTYPES.contains(dtype) {
        return Ok(dtype);
    }
    Err(PromotionError::framework(
        ErrorKind::Type,
        format!("Cannot convert the argument `type_value`: '{dtype}' to a TensorFlow DType."),
    ))
}

impl TensorFlow {
    /// `tf.experimental.numpy` with NumPy behaviour off is not modelled
    /// (its functions then promote by rules the golden data has not
    /// recorded): every question to it is refused, naming the setting to
    /// change, rather than answered by guess.
    ///
    /// `prefer_float32` with NumPy behaviour off is no configuration
    /// TensorFlow has: refused alike.
    fn refuse_tnp_off(&self) -> Result<(), PromotionError> {
        if self.mode != Mode::Off {
            return Ok(());
        }
        if self.prefer_float32 {
            return Err(PromotionError::framework(
                ErrorKind::Value,
                PREFER_FLOAT32_OFF.to_owned(),
            ));
        }
        if self.api == Api::Tnp {
            return Err(PromotionError::framework(
                ErrorKind::NotImplemented,
                TNP_OFF.to_owned(),
            ));
        }
        Ok(())
    }
}

/// Why `tensorflow-numpy` refuses with NumPy behaviour off, and the fix.
const TNP_OFF: &str = "dtype-lattice models tf.experimental.numpy only under NumPy behaviour \
                       (tensorflow_numpy_behavior is off): set \
                       tensorflow_numpy_behavior=legacy, tensorflow_numpy_behavior=safe or \
                       tensorflow_numpy_behavior=all";

/// Why `prefer_float32` without NumPy behaviour is refused, and the fix.
const PREFER_FLOAT32_OFF: &str = "tensorflow_prefer_float32 is the prefer_float32 argument of \
     tnp.experimental_enable_numpy_behavior, which turns NumPy behaviour on: set \
     tensorflow_numpy_behavior=legacy (its default mode), safe or all, or drop \
     tensorflow_prefer_float32";

impl Policy for TensorFlow {
    /// The policy and its NumPy behaviour, as JAX's names state their
    /// settings: `tensorflow (numpy behavior off)`,
    /// `tensorflow-numpy (numpy behavior all)`.
    fn name(&self) -> String {
        let policy = match self.api {
            Api::Tf => "tensorflow",
            Api::Tnp => "tensorflow-numpy",
        };
        let prefer = if self.prefer_float32 {
            ", prefer_float32"
        } else {
            ""
        };
        format!("{policy} (numpy behavior {}{prefer})", self.mode.name())
    }

    /// `tf.experimental.numpy.result_type(a, b)` on dtypes, in modes safe
    /// and all: the join of the two (Python's types as weak types). With
    /// NumPy behaviour off, [`operation(Op::Add)`](TensorFlow::operation) on tensors of the two
    /// dtypes, Python's types as scalars of them.
    ///
    /// ```
    /// use dtype_lattice::Policy;
    /// use dtype_lattice::frameworks::tensorflow::{Mode, TensorFlow};
    /// use dtype_lattice::{DType, PyScalar};
    /// let all = TensorFlow::new(Mode::All);
    /// assert_eq!(all.promote_types(DType::UInt8.into(), DType::Int8.into()), Ok(DType::Int16));
    /// assert_eq!(all.promote_types(DType::Int8.into(), PyScalar::Float.into()), Ok(DType::Float64));
    /// let off = TensorFlow::new(Mode::Off);
    /// assert!(off.promote_types(DType::UInt8.into(), DType::Int8.into()).is_err());
    /// ```
    fn promote_types(&self, a: TypeSpec, b: TypeSpec) -> Result<DType, PromotionError> {
        self.refuse_tnp_off()?;
        let operands = [a, b].map(Operand::from);
        match (self.mode, self.api) {
            (Mode::Legacy, Api::Tnp) => self.legacy_promote_types(a, b),
            (Mode::Off | Mode::Legacy, _) => self.call_op(Op::Add, &operands).map(|t| t.dtype),
            (Mode::Safe | Mode::All, _) => self.result_type(&operands).map(|t| t.dtype),
        }
    }

    /// In modes safe and all, TensorFlow's auto dtype conversion
    /// (`flexible_dtypes.result_type`, what `tf.add` and
    /// `tf.experimental.numpy.result_type` call): the operands joined from
    /// left to right, `None` skipped, no operand a weak float32. With NumPy
    /// behaviour off TensorFlow has no such function; this is then
    /// [`operation(Op::Add)`](Policy::operation) of two operands.
    fn result_type(&self, operands: &[Operand]) -> Result<Typed, PromotionError> {
        self.refuse_tnp_off()?;
        match (self.mode, self.api) {
            (Mode::Legacy, Api::Tnp) => self.legacy_result_type(operands),
            (Mode::Off | Mode::Legacy, _) => self.call_op(Op::Add, operands),
            (Mode::Safe | Mode::All, _) => self.auto_result_type(&self.values(operands)?),
        }
    }

    /// In mode `all`, the table's lattice; mode `safe` joins on it too but
    /// refuses some joins, so its rules are not that lattice.
    fn lattice(&self) -> Option<&TypedLattice> {
        (self.mode == Mode::All).then(lattice)
    }

    fn is_native(&self, dtype: DType) -> bool {
        DTYPES.contains(dtype)
    }

    /// The dtype of `tf.<function>(*operands)` for `op` (`tf.math.truediv`
    /// for `true_divide`, `tf.math.floormod` for `remainder`, `tf.pow`,
    /// `tf.bitwise.bitwise_and`, ...), and whether it is a `WeakTensor`:
    /// the function's own conversions and its kernel's checks without NumPy
    /// behaviour; under it, the promotion of the functions
    /// `weak_tensor_ops` wraps.
    ///
    /// ```
    /// use dtype_lattice::frameworks::tensorflow::{Mode, TensorFlow};
    /// use dtype_lattice::{DType, Op, Operand, Policy, Typed};
    /// let (i8, i16) = (Operand::dtype(DType::Int8), Operand::dtype(DType::Int16));
    /// let off = TensorFlow::new(Mode::Off);
    /// let err = off.operation(Op::TrueDivide, &[i8, i16]).unwrap().unwrap_err();
    /// assert_eq!(err.to_string(), "`x` and `y` must have the same dtype, got tf.int8 != tf.int16.");
    /// assert_eq!(off.operation(Op::TrueDivide, &[i8, i8]), Some(Ok(Typed::strong(DType::Float32))));
    /// let all = TensorFlow::new(Mode::All);
    /// assert_eq!(all.operation(Op::TrueDivide, &[i8, i16]), Some(Ok(Typed::strong(DType::Float32))));
    /// // `tf.less` is not wrapped: no promotion, in any mode.
    /// let err = all.operation(Op::Less, &[i8, i16]).unwrap().unwrap_err();
    /// assert_eq!(err.python_type(), "InvalidArgumentError");
    /// let two = Operand::py_int(2);
    /// assert_eq!(all.operation(Op::Negative, &[two]), Some(Ok(Typed::weak(DType::Int32))));
    /// ```
    ///
    /// Addition:
    /// ```
    /// use dtype_lattice::frameworks::tensorflow::{Mode, TensorFlow};
    /// use dtype_lattice::{DType, Op, Operand, Policy};
    /// let x = Operand::dtype(DType::Int8);
    /// let err = TensorFlow::new(Mode::All).operation(Op::Add, &[x, Operand::py_bool(true)]).unwrap().unwrap_err();
    /// assert_eq!(err.to_string(), "Cannot convert True to EagerTensor of dtype int8");
    /// let bools = [Operand::dtype(DType::Bool); 2];
    /// let err = TensorFlow::new(Mode::Off).operation(Op::Add, &bools).unwrap().unwrap_err();
    /// assert!(err.to_string().starts_with("Value for attr 'T' of bool"));
    /// ```
    fn operation(&self, op: Op, operands: &[Operand]) -> Option<Result<Typed, PromotionError>> {
        Some(match self.api {
            Api::Tf => self
                .refuse_tnp_off()
                .and_then(|()| self.call_op(op, operands)),
            Api::Tnp => self
                .refuse_tnp_off()
                .and_then(|()| self.tnp_op(op, operands)),
        })
    }

    /// `a OP b`, `b.__rOP__(a)` and `a OP= b` as TensorFlow's tensor
    /// operators compute them, for both namespaces (a `tf.experimental.numpy`
    /// array is a tensor): not the functions (`forms` says how they
    /// differ), and `a OP= b` rebinds `a` to `a OP b`, since a tensor is
    /// immutable.
    ///
    /// ```
    /// use dtype_lattice::frameworks::tensorflow::{Mode, TensorFlow};
    /// use dtype_lattice::{DType, Op, OpForm, Operand, Policy, Typed};
    /// let tf = TensorFlow::new(Mode::Off);
    /// let (x, one) = (Operand::dtype(DType::Int8), Operand::py_int(1));
    /// // `1 / x`: the scalar converted to int8 first; tf.math.truediv refuses.
    /// let div = tf.operation_as(Op::TrueDivide, OpForm::Operator, &[one, x]);
    /// assert_eq!(div, Some(Ok(Typed::strong(DType::Float32))));
    /// assert!(tf.operation(Op::TrueDivide, &[one, x]).unwrap().is_err());
    /// let b = Operand::dtype(DType::Bool);
    /// let mul = tf.operation_as(Op::Multiply, OpForm::Operator, &[b, b]);
    /// assert_eq!(mul, Some(Ok(Typed::strong(DType::Bool))));
    /// ```
    fn operation_as(
        &self,
        op: Op,
        form: OpForm,
        operands: &[Operand],
    ) -> Option<Result<Typed, PromotionError>> {
        self.operation_in(op, form, operands)
    }

    /// `tf.reduce_sum(x)`, `tf.linalg.matmul(a, b)` and the others of
    /// `array_ops` (TensorFlow has no `dot`: `None`); for
    /// `tensorflow-numpy`, `tf.experimental.numpy`'s.
    fn array_op(
        &self,
        call: &ArrayCall,
        operands: &[Operand],
    ) -> Option<Result<Outcome, PromotionError>> {
        match self.api {
            Api::Tf => self.tf_array_op(*call, operands),
            Api::Tnp => self.tnp_array_op(*call, operands),
        }
    }

    fn describe_array_op(&self, op: ArrayOp) -> Option<String> {
        match self.api {
            Api::Tf => array_ops::describe(op),
            Api::Tnp => Some(tnp_array_ops::describe(op)),
        }
    }

    /// `x[...] = v`: TensorFlow's `TypeError`, a tensor does not support
    /// item assignment.
    fn assign(&self, target: Operand, _value: Operand) -> Option<Result<Typed, PromotionError>> {
        Some(self.assign_to(target))
    }

    /// The function's rule: `tf.experimental.numpy`'s for
    /// `tensorflow-numpy` (with NumPy behaviour off, why it is refused),
    /// TensorFlow's own for `tensorflow`.
    ///
    /// ```
    /// use dtype_lattice::frameworks::tensorflow::{Api, Mode, TensorFlow};
    /// use dtype_lattice::{Op, Policy};
    /// let tnp = TensorFlow::new(Mode::All).with_api(Api::Tnp);
    /// assert!(tnp.describe_operation(Op::Sqrt).unwrap().starts_with("tnp.sqrt: "));
    /// let off = TensorFlow::new(Mode::Off).with_api(Api::Tnp).describe_operation(Op::Sqrt).unwrap();
    /// assert!(off.starts_with("tnp.sqrt: not modelled with NumPy behaviour off"), "{off}");
    /// let tf = TensorFlow::new(Mode::All).describe_operation(Op::Sqrt).unwrap();
    /// assert!(tf.starts_with("tf.sqrt ("), "{tf}");
    /// ```
    fn describe_operation(&self, op: Op) -> Option<String> {
        Some(match (self.api, self.mode) {
            (Api::Tnp, Mode::Off) => format!(
                "tnp.{}: not modelled with NumPy behaviour off; set \
                 tensorflow_numpy_behavior=legacy, safe or all",
                op.name()
            ),
            (Api::Tnp, mode) => tnp::describe(mode, op),
            (Api::Tf, mode) => ops::describe(mode, op),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`Mode::name`] indexes the names by the discriminant, so the table
    /// must list the variants in their order.
    #[test]
    fn modes_are_listed_in_variant_order() {
        for (i, mode) in Mode::ALL.into_iter().enumerate() {
            assert_eq!(mode as usize, i);
            assert_eq!(mode.name(), Mode::NAMES[i]);
        }
    }

    #[test]
    fn tnp_refuses_everything_with_numpy_behaviour_off() {
        use crate::types::PyScalar;
        let off = TensorFlow::new(Mode::Off).with_api(Api::Tnp);
        let x = Operand::dtype(DType::Int8);
        let refusals = [
            off.promote_types(DType::Int8.into(), PyScalar::Int.into()),
            off.result_type(&[x, x]).map(|t| t.dtype),
            off.operation(Op::Add, &[x, x]).unwrap().map(|t| t.dtype),
            off.operation(Op::Sqrt, &[x]).unwrap().map(|t| t.dtype),
        ];
        for refusal in refusals {
            let err = refusal.unwrap_err();
            assert_eq!(err.python_type(), "NotImplementedError");
            assert_eq!(err.to_string(), TNP_OFF);
        }
        assert!(off.lattice().is_none());
    }
}
