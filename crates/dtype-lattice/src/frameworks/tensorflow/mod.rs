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

mod convert;
mod kernels;
mod ops;
mod tnp;

use std::sync::OnceLock;

use crate::frameworks::common::DTypeSet;
use crate::policy::Policy;
use crate::policy::TypedLattice;
use crate::types::ErrorKind;
use crate::types::PromotionError;
use crate::types::Typed;
use crate::types::{DType, Kind, Op};
use crate::types::{Operand, OperandKind, TypeSpec};

pub(crate) use convert::to_tensor;
pub(crate) use ops::{call_plain, function_name};

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
    /// `"safe"`: promotions that lose no values.
    Safe,
    /// `"all"`: every promotion of the table.
    All,
}

/// Every mode with the setting's name for it, the default first: the one
/// list the setting's values come from, so that a new mode is one line
/// here (and its variant).
const MODES: [(Mode, &str); 3] = [(Mode::Off, "off"), (Mode::Safe, "safe"), (Mode::All, "all")];

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
    /// assert_eq!(Mode::NAMES, ["off", "safe", "all"]);
    /// ```
    pub const fn name(self) -> &'static str {
        // `MODES` lists the variants in their order (tested).
        Mode::NAMES[self as usize]
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

/// The auto dtype conversion lattice, as "type -> types it promotes to".
/// `weak:int32` and so on are the weak types of Python scalars and
/// `WeakTensor`s; a weak float64 sits below every float, which is why an
/// integer with a Python float gives a weak float64.
const LATTICE: &[(&str, &[&str])] = &[
    ("bool", &["weak:int32"]),
    ("weak:int32", &["weak:int64"]),
    ("weak:int64", &["uint8", "int8", "weak:float32"]),
    ("uint8", &["uint16", "int16"]),
    ("uint16", &["uint32", "int32"]),
    ("uint32", &["uint64", "int64"]),
    ("uint64", &["weak:float64"]),
    ("int8", &["int16"]),
    ("int16", &["int32"]),
    ("int32", &["int64"]),
    ("int64", &["weak:float64"]),
    ("weak:float32", &["weak:float64"]),
    ("weak:float64", &["bfloat16", "float16", "weak:complex128"]),
    ("bfloat16", &["float32"]),
    ("float16", &["float32"]),
    ("float32", &["float64", "complex64"]),
    ("float64", &["complex128"]),
    ("weak:complex128", &["complex64"]),
    ("complex64", &["complex128"]),
    ("complex128", &[]),
];

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
        TensorFlow { mode, api: Api::Tf }
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
    /// assert!(err.to_string().contains("set tensorflow_numpy_behavior=safe or tensorflow_numpy_behavior=all"));
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
        if self.mode == Mode::Off {
            return Err(PromotionError::framework(
                ErrorKind::Value,
                format!(
                    "weak:{dtype} is a WeakTensor, which TensorFlow has only under NumPy \
                     behaviour; set tensorflow_numpy_behavior=safe or \
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

    /// `flexible_dtypes.result_type`: every operand's (dtype, weak) first
    /// (a Python int must fit int32), then the fold.
    fn auto_result_type(&self, values: &[Value]) -> Result<Typed, PromotionError> {
        let typed = values
            .iter()
            .filter(|value| **value != Value::None)
            .map(|&value| auto_typed(value))
            .collect::<Result<Vec<_>, _>>()?;
        let Some((&first, rest)) = typed.split_first() else {
            return Ok(Typed::weak(DType::Float32));
        };
        rest.iter()
            .try_fold(first, |so_far, &next| self.join(so_far, next))
    }

    /// One step of the fold: the lattice's join, refused in mode safe
    /// unless it loses nothing.
    fn join(&self, a: Typed, b: Typed) -> Result<Typed, PromotionError> {
        let joined = lattice().join_types(a, b).ok_or_else(|| {
            PromotionError::framework(
                ErrorKind::NotImplemented,
                format!(
                    "Implicit Conversion between <dtype: '{}'> and <dtype: '{}'> is not \
                     allowed. Please convert the input manually if you need to.",
                    a.dtype, b.dtype
                ),
            )
        })?;
        if self.mode == Mode::Safe && !is_safe(a, b, joined.dtype) {
            return Err(PromotionError::framework(
                ErrorKind::Type,
                format!(
                    "In promotion mode PromoMode.SAFE, implicit dtype promotion between \
                     (<dtype: '{}'>, weak={}) and (<dtype: '{}'>, weak={}) is disallowed. You \
                     need to explicitly specify the dtype in your op, or relax your dtype \
                     promotion rules (such as from SAFE mode to ALL mode).",
                    a.dtype,
                    python_bool(a.weak),
                    b.dtype,
                    python_bool(b.weak)
                ),
            ));
        }
        Ok(joined)
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

/// The lattice label of a typed value: `weak:int32` for a weak one.
/// The auto dtype conversion lattice (both NumPy modes join on it), its
/// `weak:` nodes standing for weak values of their dtypes. Built once.
fn lattice() -> &'static TypedLattice {
    static LATTICE_ONCE: OnceLock<TypedLattice> = OnceLock::new();
    LATTICE_ONCE.get_or_init(|| {
        TypedLattice::from_dict(LATTICE, |label| {
            Some(match label.strip_prefix("weak:") {
                Some(name) => Typed::weak(DType::from_name(name).ok()?),
                None => Typed::strong(DType::from_name(label).ok()?),
            })
        })
        .expect("TensorFlow's table is a lattice (tested)")
    })
}

fn auto_typed(value: Value) -> Result<Typed, PromotionError> {
    Ok(match value {
        Value::Tensor { dtype, weak } => Typed { dtype, weak },
        Value::Int(value) => {
            if i32::try_from(value).is_err() {
                return Err(PromotionError::framework(
                    ErrorKind::Overflow,
                    format!("Python int {value} too large to convert to np.int32"),
                ));
            }
            Typed::weak(DType::Int32)
        }
        Value::Float(_) => Typed::weak(DType::Float32),
        Value::Complex { .. } => Typed::weak(DType::Complex128),
        Value::Bool(_) | Value::None => Typed::strong(DType::Bool),
    })
}

/// Mode safe allows a join that is one of the operands' own dtypes and
/// that every strongly-typed operand converts to exactly.
fn is_safe(a: Typed, b: Typed, joined: DType) -> bool {
    (a.dtype == joined || b.dtype == joined)
        && [a, b]
            .iter()
            .all(|t| t.weak || holds_exactly(joined, t.dtype))
}

/// Whether every value of `from` is a value of `to`.
fn holds_exactly(to: DType, from: DType) -> bool {
    if from == to || from == DType::Bool {
        return true;
    }
    match (from.iinfo(), to.iinfo(), to.finfo()) {
        (Ok(from), Ok(to), _) => to.min <= from.min && from.max <= to.max,
        // An integer converts exactly when the significand holds it.
        (Ok(from), Err(_), Ok(to)) => from.max <= 1_i128 << (to.nmant + 1),
        (Err(_), _, Ok(to_info)) => {
            let Ok(from_info) = from.finfo() else {
                return false;
            };
            (from.kind() != Kind::Complex || to.kind() == Kind::Complex)
                && from_info.nmant <= to_info.nmant
                && from_info.maxexp <= to_info.maxexp
        }
        _ => false,
    }
}

impl TensorFlow {
    /// `tf.experimental.numpy` with NumPy behaviour off is not modelled
    /// (its functions then promote by rules the golden data has not
    /// recorded): every question to it is refused, naming the setting to
    /// change, rather than answered by guess.
    fn refuse_tnp_off(&self) -> Result<(), PromotionError> {
        if self.api == Api::Tnp && self.mode == Mode::Off {
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
                       tensorflow_numpy_behavior=safe or tensorflow_numpy_behavior=all";

impl Policy for TensorFlow {
    /// The policy and its NumPy behaviour, as JAX's names state their
    /// settings: `tensorflow (numpy behavior off)`,
    /// `tensorflow-numpy (numpy behavior all)`.
    fn name(&self) -> String {
        let policy = match self.api {
            Api::Tf => "tensorflow",
            Api::Tnp => "tensorflow-numpy",
        };
        format!("{policy} (numpy behavior {})", self.mode.name())
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
        match self.mode {
            Mode::Off => self.call_op(Op::Add, &operands).map(|t| t.dtype),
            Mode::Safe | Mode::All => self.result_type(&operands).map(|t| t.dtype),
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
        if self.mode == Mode::Off {
            return self.call_op(Op::Add, operands);
        }
        self.auto_result_type(&self.values(operands)?)
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
            Api::Tf => self.call_op(op, operands),
            Api::Tnp => self
                .refuse_tnp_off()
                .and_then(|()| self.tnp_op(op, operands)),
        })
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
                 tensorflow_numpy_behavior=safe or tensorflow_numpy_behavior=all",
                op.name()
            ),
            (Api::Tnp, _) => tnp::describe(op),
            (Api::Tf, mode) => ops::describe(mode, op),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lattice_has_fifteen_dtypes_and_five_weak_types() {
        let lattice = lattice();
        assert_eq!(lattice.len(), 20);
        for dtype in WEAK_DTYPES.iter() {
            assert!(lattice.node_of(Typed::weak(dtype)).is_some(), "{dtype}");
        }
        assert_eq!(
            lattice
                .types()
                .iter()
                .filter(|t| t.is_some_and(|t| t.weak))
                .count(),
            5
        );
    }

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

    #[test]
    fn exact_conversions_follow_the_formats() {
        assert!(holds_exactly(DType::BFloat16, DType::UInt8));
        assert!(!holds_exactly(DType::BFloat16, DType::Int16));
        assert!(holds_exactly(DType::Float64, DType::UInt32));
        assert!(!holds_exactly(DType::Float64, DType::Int64));
        assert!(!holds_exactly(DType::Float16, DType::BFloat16));
        assert!(holds_exactly(DType::Complex64, DType::Float32));
        assert!(!holds_exactly(DType::Float64, DType::Complex64));
        assert!(!holds_exactly(DType::Int64, DType::UInt64));
    }
}
