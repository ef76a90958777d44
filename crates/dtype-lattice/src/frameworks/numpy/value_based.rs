//! NumPy 1.26's promotion: value-based casting, as NumPy had it before
//! NEP 50 (NumPy 2) made Python scalars weak and 0-d arrays strong.
//!
//! NumPy 1 turned every Python scalar into a 0-d array (a Python int into
//! `int64`, or `uint64` where only that holds it), and then, where the 0-d
//! operands' kind (boolean < integer < inexact, float and complex counting
//! as one) was no higher than that of the other operands, promoted each
//! 0-d operand as the smallest type that holds its *value*
//! (`np.min_scalar_type`): `int8_array + 300` is `int16`, `uint8_array - 1`
//! is `int16`, `float32_array + 1e300` is `float64`, `float16_array + 2j`
//! is `complex64`. A non-negative value that the signed type of its size
//! holds too (`127`, but not `128`) promotes as that signed type beside a
//! signed or inexact type. Where the 0-d operands' kind is higher
//! (`int8_array + 2.5`), or every operand is 0-d, they promote as their
//! own types. The ufuncs then pick their loop from the promoted type as
//! NumPy 2's do (`ops.rs`), so no Python int overflows: it widens the type.

use super::array_ops::{self, Rules};
use super::casts::{builtin_promote, can_cast_safely};
use super::forms::{self, IntConversion, Ufuncs};
use super::promotion::{promote_sequence, Class};
use super::{array_dtype, ops, weak_array, Numpy};
use crate::frameworks::python;
use crate::policy::Policy;
use crate::policy::TypedLattice;
use crate::prelude::*;
use crate::types::{ArrayCall, ArrayOp, DType, ErrorKind, Kind, Outcome, PromotionError, Typed};
use crate::types::{Op, OpForm, Operand, OperandKind, TypeSpec};

/// NumPy 1.26.4's promotion, value-based: `np.promote_types`,
/// `np.result_type`, `np.can_cast(casting="safe")` and the ufuncs.
///
/// Python scalars are read by their value, and so are zero-dimensional
/// arrays ([`Operand::zero_dim_holding`], `0d:int64=300`); one given no
/// value (`0d:int8`) holds 0, the smallest type of its kind (`uint8`
/// usable as `int8`, `float16`, `complex64`, `bool`), so `0d:int64 +
/// uint8_array` is `uint8`. Only NumPy's own 14 numeric dtypes exist (no
/// ml_dtypes).
///
/// ```
/// use dtype_lattice::frameworks::numpy::Numpy1;
/// use dtype_lattice::{DType, Op, Operand, Policy, Typed};
///
/// let x = |dtype| Operand::array(dtype, false);
/// let result = |operands: &[Operand]| Numpy1.result_type(operands).map(|t| t.dtype);
/// assert_eq!(result(&[x(DType::Int8), Operand::py_int(300)]), Ok(DType::Int16));
/// assert_eq!(result(&[x(DType::UInt8), Operand::py_int(-1)]), Ok(DType::Int16));
/// assert_eq!(result(&[x(DType::Float32), Operand::py_float(1e300)]), Ok(DType::Float64));
/// assert_eq!(result(&[x(DType::Int8), Operand::py_float(2.5)]), Ok(DType::Float64));
/// assert_eq!(result(&[Operand::zero_dim(DType::Int64), x(DType::UInt8)]), Ok(DType::UInt8));
/// let holding = |value| Operand::zero_dim_holding(DType::Int64, Operand::py_int(value));
/// assert_eq!(result(&[holding(300), x(DType::UInt8)]), Ok(DType::UInt16));
/// // Where NumPy 2 raises OverflowError, NumPy 1 widens.
/// let add = Numpy1.operation(Op::Add, &[x(DType::Int8), Operand::py_int(300)]);
/// assert_eq!(add, Some(Ok(Typed::strong(DType::Int16))));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Numpy1;

/// An operand as NumPy 1's `np.result_type` sees it.
#[derive(Clone, Copy)]
struct Seen {
    /// Its own dtype: an array's, or the one NumPy 1 gives a Python scalar.
    dtype: DType,
    /// For a Python scalar or a 0-d array, the type its value needs
    /// (`np.min_scalar_type`) and whether that is an unsigned type holding
    /// a value its signed counterpart holds too ("small unsigned").
    by_value: Option<(DType, bool)>,
}

impl Numpy1 {
    /// `np.result_type(*operands)`: one operand is its own dtype (a Python
    /// int `int64`, or `uint64`); more promote by value where the kinds
    /// allow it.
    ///
    /// ```
    /// use dtype_lattice::frameworks::numpy::Numpy1;
    /// use dtype_lattice::{DType, Operand, Policy};
    /// let result = |operands: &[Operand]| Numpy1.result_type(operands).map(|t| t.dtype);
    /// let i8 = Operand::array(DType::Int8, false);
    /// // 127 fits int8, 128 needs uint8: together with int8, int16.
    /// assert_eq!(result(&[i8, Operand::py_int(127)]), Ok(DType::Int8));
    /// assert_eq!(result(&[i8, Operand::py_int(128)]), Ok(DType::Int16));
    /// // Only 0-d operands: their own types.
    /// assert_eq!(result(&[Operand::zero_dim(DType::Int8), Operand::py_int(1)]), Ok(DType::Int64));
    /// assert!(result(&[]).is_err());
    /// ```
    pub(super) fn result_dtype(&self, operands: &[Operand]) -> Result<DType, PromotionError> {
        let seen = operands.iter().map(seen).collect::<Result<Vec<_>, _>>()?;
        if let [single] = seen[..] {
            return Ok(single.dtype);
        }
        // NumPy 1.26 computes NEP 50's answer first, and replaces it by the
        // value-based one where a 0-d operand takes part that is not a
        // Python int (of C long's range), float or complex.
        let nep50 = Numpy.result_dtype(operands)?;
        let python_scalar = |o: &Operand| match o.as_argument().kind() {
            OperandKind::PyInt(value) => i64::try_from(value).is_ok(),
            OperandKind::PyFloat(_) | OperandKind::PyComplex { .. } => true,
            _ => false,
        };
        if seen.iter().all(|s| s.by_value.is_none()) || operands.iter().all(python_scalar) {
            return Ok(nep50);
        }
        if !by_value(&seen) {
            // Every operand as its own type, by NumPy's sequence promotion.
            let classes: Vec<Class> = seen.iter().map(|s| Class::DType(s.dtype)).collect();
            return Ok(promote_sequence(&classes)?.default_dtype());
        }
        let needs = seen.iter().map(|s| s.by_value.unwrap_or((s.dtype, false)));
        let folded = needs.reduce(|(a, a_small), (b, b_small)| {
            (promote(a, a_small, b, b_small), a_small && b_small)
        });
        Ok(folded.map_or(nep50, |(dtype, _)| dtype))
    }
}

/// `np.<ufunc>(*operands)` in NumPy 1.26: the operands promoted by value
/// (or NumPy 1's loop search), then the ufunc's loop.
fn ufunc(op: Op, operands: &[Operand]) -> Result<Typed, PromotionError> {
    ufunc_loop(op, operands, true)
}

/// NumPy 1's operators: `ndarray.__pow__`'s fast path, and the loop of a
/// negative integer power before the loop refuses it.
const UFUNCS: Ufuncs = Ufuncs {
    call: array_power,
    power_loop: |op, operands| ufunc_loop(op, operands, false),
};

/// [`ufunc`], the loop's refusal of a negative integer power where
/// `refuse` says.
fn ufunc_loop(op: Op, operands: &[Operand], refuse: bool) -> Result<Typed, PromotionError> {
    let arguments = ops::arguments(op, operands)?;
    let operands = arguments.get();
    let promoted = if searches_loops(op) {
        search_loop(op, operands)?
    } else {
        Numpy1.result_dtype(operands)?
    };
    if op == Op::Floor {
        return floor(promoted).map(Typed::strong);
    }
    let exponent = ops::power_exponent(op, operands).filter(|_| refuse);
    ops::call_on(op, promoted, exponent).map(Typed::strong)
}

/// NumPy 1's `ndarray.__pow__` (its operator, reflected and in-place
/// forms): `np.power`, but for an exponent that NumPy 1's
/// `fast_scalar_power` takes, which computes `a ** e` as a unary ufunc of
/// `a` alone (a float or complex `a`: `e` of 0, 1, -1, 0.5 or 2; any
/// other `a`: 2, by `np.square`, which makes a boolean `int8`). It takes
/// a Python int (of a C long's range) or float, and a 0-d integer or float
/// array, so `float16_array ** 0d:int64` is `float16` where `np.power`
/// widens it.
fn array_power(op: Op, operands: &[Operand]) -> Result<Typed, PromotionError> {
    match *operands {
        [a, b] if op == Op::Power => match fast_power(a, b) {
            Some(dtype) => Ok(Typed::strong(dtype)),
            None => ufunc(op, operands),
        },
        _ => ufunc(op, operands),
    }
}

/// The type of `a ** b` where `fast_scalar_power` computes it.
fn fast_power(a: Operand, b: Operand) -> Option<DType> {
    let dtype = match a.kind() {
        OperandKind::DType(dtype)
        | OperandKind::ZeroDim(dtype)
        | OperandKind::Array { dtype, weak: false } => numpy1_dtype(dtype).ok()?,
        _ => return None,
    };
    let fast = |exponent: f64| {
        if dtype.is_inexact() {
            [0.0, 1.0, -1.0, 0.5, 2.0].contains(&exponent)
        } else {
            exponent == 2.0
        }
    };
    // A Python scalar's value, or that of an integer or float 0-d array.
    let exponent = match b.as_argument().kind() {
        OperandKind::ZeroDim(dtype) if dtype.is_integer() || dtype.kind() == Kind::Float => {
            b.held()
        }
        kind => Some(kind),
    };
    let taken = match exponent {
        Some(OperandKind::PyBool(value)) => fast(f64::from(u8::from(value))),
        Some(OperandKind::PyInt(value)) => i64::try_from(value).is_ok_and(|v| fast(v as f64)),
        Some(OperandKind::PyFloat(value)) => fast(value),
        _ => false,
    };
    let square = |dtype| {
        if dtype == DType::Bool {
            DType::Int8
        } else {
            dtype
        }
    };
    taken.then(|| square(dtype))
}

/// Whether NumPy 1 reads the 0-d operands by their value: where some
/// operand is not 0-d, and the 0-d ones' kind (boolean < integer <
/// inexact) is no higher than the others'.
fn by_value(seen: &[Seen]) -> bool {
    let level = |seen: &Seen| match seen.dtype.kind() {
        Kind::Bool => 0,
        Kind::Unsigned | Kind::Signed => 1,
        Kind::Float | Kind::Complex => 2,
    };
    let arrays = seen
        .iter()
        .filter(|s| s.by_value.is_none())
        .map(level)
        .max();
    let scalars = seen
        .iter()
        .filter(|s| s.by_value.is_some())
        .map(level)
        .max();
    // Option's order puts None first: no 0-d operand allows it too.
    arrays.is_some() && arrays >= scalars
}

/// The ufuncs whose NumPy 1 type resolver searches their loops for the
/// first that takes every operand (`np.can_cast`, a 0-d one's by its
/// value), rather than promoting the operands first: they differ where a
/// small unsigned value meets an unsigned array (`uint8_array // 300` is
/// `int16`, not `uint16`: 300 fits the `int16` loop, not the `uint16` one).
fn searches_loops(op: Op) -> bool {
    matches!(
        op,
        Op::FloorDivide
            | Op::Remainder
            | Op::Power
            | Op::BitwiseAnd
            | Op::BitwiseOr
            | Op::BitwiseXor
    )
}

/// NumPy 1's loop search: the first loop of `op`'s ufunc that every
/// operand casts to safely, a 0-d one by its value where the kinds allow
/// (a small unsigned value as its signed type, for a loop that is not
/// unsigned).
fn search_loop(op: Op, operands: &[Operand]) -> Result<DType, PromotionError> {
    let seen = operands.iter().map(seen).collect::<Result<Vec<_>, _>>()?;
    let value_based = by_value(&seen);
    let takes = |s: &Seen, to: DType| match s.by_value {
        Some((needs, small)) if value_based => {
            let from = if small && to.kind() != Kind::Unsigned {
                signed(needs)
            } else {
                needs
            };
            can_cast_safely(from, to)
        }
        _ => can_cast_safely(s.dtype, to),
    };
    ops::loops(op)
        .find(|&to| seen.iter().all(|s| takes(s, to)))
        .ok_or_else(|| ops::not_supported(op))
}

/// `np.floor` in NumPy 1, which has only floating-point loops (NumPy 2
/// added integer and boolean ones, which keep the type).
fn floor(dtype: DType) -> Result<DType, PromotionError> {
    [DType::Float16, DType::Float32, DType::Float64]
        .into_iter()
        .find(|&to| can_cast_safely(dtype, to))
        .ok_or_else(|| ops::not_supported(Op::Floor))
}

/// NumPy 1's promotion of two dtypes, where a "small unsigned" one (a
/// value its signed counterpart holds too) promotes as that signed type
/// beside anything but a boolean or unsigned type.
pub(super) fn promote(a: DType, a_small: bool, b: DType, b_small: bool) -> DType {
    let signed_if = |small: bool, dtype: DType, other: DType| {
        if small && !matches!(other.kind(), Kind::Bool | Kind::Unsigned) {
            signed(dtype)
        } else {
            dtype
        }
    };
    builtin_promote(signed_if(a_small, a, b), signed_if(b_small, b, a))
}

/// The signed integer type of an unsigned one's size.
fn signed(dtype: DType) -> DType {
    match dtype {
        DType::UInt8 => DType::Int8,
        DType::UInt16 => DType::Int16,
        DType::UInt32 => DType::Int32,
        DType::UInt64 => DType::Int64,
        other => other,
    }
}

/// A dtype NumPy 1 has: NumPy's own, not ml_dtypes' (nor PyTorch's
/// `complex32`), with NumPy's `TypeError` for the others.
/// NumPy 1's `np.promote_types(a, b)`: its table, values playing no part;
/// Python's types are `int64`, `float64` and `complex128` (`numpy1` and
/// `numpy-legacy` alike).
pub(super) fn promote_types(a: TypeSpec, b: TypeSpec) -> Result<DType, PromotionError> {
    let known = |spec: TypeSpec| match spec {
        TypeSpec::DType(dtype) => numpy1_dtype(dtype),
        TypeSpec::Python(scalar) => Ok(python::dtype_64(scalar)),
    };
    Ok(builtin_promote(known(a)?, known(b)?))
}

pub(super) fn numpy1_dtype(dtype: DType) -> Result<DType, PromotionError> {
    if dtype.is_ml_dtypes() || dtype == DType::Complex32 {
        return Err(PromotionError::framework(
            ErrorKind::Type,
            format!("data type '{dtype}' not understood"),
        ));
    }
    Ok(dtype)
}

fn seen(operand: &Operand) -> Result<Seen, PromotionError> {
    let array = |dtype| Seen {
        dtype,
        by_value: None,
    };
    let scalar = |dtype, needs| Seen {
        dtype,
        by_value: Some(needs),
    };
    Ok(match operand.kind() {
        OperandKind::DType(dtype) | OperandKind::Array { dtype, weak: false } => {
            array(numpy1_dtype(dtype)?)
        }
        OperandKind::Array { dtype, weak: true } => return Err(weak_array(dtype)),
        // `py:int` stands for a Python scalar of that type (`2`).
        OperandKind::PyType(_) => return seen(&operand.as_argument()),
        OperandKind::None => array(DType::Float64),
        // Its own dtype, promoted by the value it holds (0 where none
        // was given: the smallest type of its kind).
        OperandKind::ZeroDim(dtype) => scalar(
            numpy1_dtype(dtype)?,
            operand
                .held()
                .and_then(needs)
                .unwrap_or((DType::Bool, false)),
        ),
        OperandKind::PyBool(_) => scalar(DType::Bool, (DType::Bool, false)),
        OperandKind::PyInt(value) => scalar(int_dtype(value)?, int_needs(value)),
        OperandKind::PyFloat(value) => scalar(DType::Float64, (float_needs(value), false)),
        OperandKind::PyComplex { real, imag } => {
            scalar(DType::Complex128, (complex_needs(real, imag), false))
        }
    })
}

/// `np.min_scalar_type` of a value (a Python scalar's, or one a 0-d array
/// holds), with whether it is "small unsigned"; `None` for no value.
fn needs(value: OperandKind) -> Option<(DType, bool)> {
    Some(match value {
        OperandKind::PyBool(_) => (DType::Bool, false),
        OperandKind::PyInt(value) => int_needs(value),
        OperandKind::PyFloat(value) => (float_needs(value), false),
        OperandKind::PyComplex { real, imag } => (complex_needs(real, imag), false),
        _ => return None,
    })
}

/// `np.min_scalar_type` of a Python complex: `complex64` where both parts
/// are within +-3.4e38.
fn complex_needs(real: f64, imag: f64) -> DType {
    let holds = |part: f64| part.abs() < FLOAT32_BOUND;
    if holds(real) && holds(imag) {
        DType::Complex64
    } else {
        DType::Complex128
    }
}

/// NumPy's `np.min_scalar_type` bounds for floats (`65000`, `3.4e38`: a
/// little inside float16's and float32's ranges), exclusive.
const FLOAT16_BOUND: f64 = 65000.0;
const FLOAT32_BOUND: f64 = 3.4e38;

/// The array NumPy 1 makes of a Python int: `int64`, `uint64` where only
/// that holds it, else an object array, which is not modelled.
fn int_dtype(value: i128) -> Result<DType, PromotionError> {
    if i64::try_from(value).is_ok() {
        Ok(DType::Int64)
    } else if u64::try_from(value).is_ok() {
        Ok(DType::UInt64)
    } else {
        Err(PromotionError::framework(
            ErrorKind::Value,
            format!(
                "NumPy 1 makes the Python int {value} an array of the object dtype, as it fits \
                 neither int64 nor uint64; dtype-lattice models numeric dtypes only"
            ),
        ))
    }
}

/// `np.min_scalar_type` of a Python int: the smallest unsigned type of a
/// non-negative one (small where its signed counterpart holds it too),
/// the smallest signed type of a negative one.
fn int_needs(value: i128) -> (DType, bool) {
    let fits = |dtype: &DType| {
        dtype
            .iinfo()
            .is_ok_and(|info| (info.min..=info.max).contains(&value))
    };
    let types = if value < 0 {
        [DType::Int8, DType::Int16, DType::Int32, DType::Int64]
    } else {
        [DType::UInt8, DType::UInt16, DType::UInt32, DType::UInt64]
    };
    let needs = types.into_iter().find(fits).unwrap_or(DType::UInt64);
    (needs, value >= 0 && fits(&signed(needs)))
}

/// `np.min_scalar_type` of a Python float: `float16` within +-65000 (and
/// for infinities and NaN), `float32` within +-3.4e38, else `float64`.
fn float_needs(value: f64) -> DType {
    if !value.is_finite() || value.abs() < FLOAT16_BOUND {
        DType::Float16
    } else if value.abs() < FLOAT32_BOUND {
        DType::Float32
    } else {
        DType::Float64
    }
}

impl Policy for Numpy1 {
    fn name(&self) -> String {
        "numpy1".to_owned()
    }

    /// `np.promote_types(a, b)`: NumPy's table, values playing no part;
    /// Python's types are `int64`, `float64` and `complex128`.
    ///
    /// ```
    /// use dtype_lattice::frameworks::numpy::Numpy1;
    /// use dtype_lattice::{DType, Policy, PyScalar};
    /// assert_eq!(Numpy1.promote_types(DType::UInt8.into(), PyScalar::Int.into()), Ok(DType::Int64));
    /// let err = Numpy1.promote_types(DType::BFloat16.into(), DType::Int8.into()).unwrap_err();
    /// assert_eq!(err.to_string(), "data type 'bfloat16' not understood");
    /// ```
    fn promote_types(&self, a: TypeSpec, b: TypeSpec) -> Result<DType, PromotionError> {
        promote_types(a, b)
    }

    fn result_type(&self, operands: &[Operand]) -> Result<Typed, PromotionError> {
        self.result_dtype(operands).map(Typed::strong)
    }

    fn lattice(&self) -> Option<&TypedLattice> {
        None
    }

    fn is_native(&self, dtype: DType) -> bool {
        numpy1_dtype(dtype).is_ok()
    }

    /// `np.can_cast(from, to, casting="safe")` between NumPy's own dtypes.
    fn can_cast(&self, from: DType, to: DType) -> Option<bool> {
        (self.is_native(from) && self.is_native(to)).then(|| can_cast_safely(from, to))
    }

    /// `np.<ufunc>(*operands).dtype`: the operands promoted by value, then
    /// the ufunc's loop as NumPy 2 picks it from the promoted type.
    ///
    /// ```
    /// use dtype_lattice::frameworks::numpy::Numpy1;
    /// use dtype_lattice::{DType, Op, Operand, Policy, Typed};
    /// let x = |dtype| Operand::array(dtype, false);
    /// let dtype = |op, operands: &[Operand]| Numpy1.operation(op, operands).unwrap().map(|t| t.dtype);
    /// // 300 needs uint16, usable as int16: float16 with int16 is float32.
    /// assert_eq!(dtype(Op::Power, &[x(DType::Float16), Operand::py_int(300)]), Ok(DType::Float32));
    /// assert_eq!(dtype(Op::Less, &[x(DType::UInt64), Operand::py_int(-1)]), Ok(DType::Bool));
    /// let err = dtype(Op::Power, &[x(DType::UInt8), Operand::py_int(-1)]).unwrap_err();
    /// assert_eq!(err.to_string(), "Integers to negative integer powers are not allowed.");
    /// ```
    fn operation(&self, op: Op, operands: &[Operand]) -> Option<Result<Typed, PromotionError>> {
        Some(ufunc(op, operands))
    }

    /// `a + b`, `b.__radd__(a)`, `a += b`: NumPy 2's operator forms
    /// around NumPy 1's ufuncs (`int8_array + 300` is `int16`; `int8_array
    /// += 300` computes in `int16` and casts back under `same_kind`).
    ///
    /// ```
    /// use dtype_lattice::frameworks::numpy::Numpy1;
    /// use dtype_lattice::{DType, Op, OpForm, Operand, Policy, Typed};
    /// let x = Operand::array(DType::Int8, false);
    /// let add = |form| Numpy1.operation_as(Op::Add, form, &[x, Operand::py_int(300)]).unwrap();
    /// assert_eq!(add(OpForm::Operator), Ok(Typed::strong(DType::Int16)));
    /// assert_eq!(add(OpForm::InPlace), Ok(Typed::strong(DType::Int8)));
    /// ```
    fn operation_as(
        &self,
        op: Op,
        form: OpForm,
        operands: &[Operand],
    ) -> Option<Result<Typed, PromotionError>> {
        forms::operation_as(op, form, operands, UFUNCS)
    }

    /// `a[...] = v`: the array keeps its dtype; a Python number is read as
    /// a C `long` and wraps into an integer array (`int8_array[...] = 300`
    /// stores 44).
    ///
    /// ```
    /// use dtype_lattice::frameworks::numpy::Numpy1;
    /// use dtype_lattice::{DType, Operand, Policy, Typed};
    /// let x = Operand::array(DType::Int8, false);
    /// assert_eq!(Numpy1.assign(x, Operand::py_int(300)), Some(Ok(Typed::strong(DType::Int8))));
    /// let err = Numpy1.assign(x, Operand::py_float(1e300)).unwrap().unwrap_err();
    /// assert_eq!(err.to_string(), "Python int too large to convert to C long");
    /// ```
    fn assign(&self, target: Operand, value: Operand) -> Option<Result<Typed, PromotionError>> {
        let known = [target, value]
            .iter()
            .filter_map(array_dtype)
            .try_for_each(|dtype| numpy1_dtype(dtype).map(drop));
        Some(known.and_then(|()| forms::assign(target, value, IntConversion::Wrapping)))
    }

    /// `np.sum(x)`, `np.where(c, x, 300)`, `np.clip(x, -1, 3)` ...: NumPy
    /// 2's rules (`array_ops.rs`) but where NumPy 1 promotes a Python
    /// scalar by its value or wraps a Python int.
    ///
    /// ```
    /// use dtype_lattice::frameworks::numpy::Numpy1;
    /// use dtype_lattice::{ArrayCall, ArrayOp, DType, Operand, Policy};
    /// let x = |dtype| Operand::array(dtype, false);
    /// let answer = |op, operands: &[Operand]| {
    ///     Numpy1.array_op(&ArrayCall::new(op), operands).unwrap().map(|o| o.result().dtype)
    /// };
    /// let (c, int8) = (x(DType::Bool), x(DType::Int8));
    /// assert_eq!(answer(ArrayOp::Where, &[c, int8, Operand::py_int(300)]), Ok(DType::Int16));
    /// assert_eq!(answer(ArrayOp::Sum, &[int8]), Ok(DType::Int64));
    /// ```
    fn array_op(
        &self,
        call: &ArrayCall,
        operands: &[Operand],
    ) -> Option<Result<Outcome, PromotionError>> {
        Some(array_ops::array_op(*call, operands, Rules::Numpy1))
    }

    fn describe_array_op(&self, op: ArrayOp) -> Option<String> {
        Some(array_ops::describe(op, Rules::Numpy1))
    }

    fn describe_operation(&self, op: Op) -> Option<String> {
        let by_value = "Python scalars and 0-d arrays by their value (np.min_scalar_type) where \
                        their kind is no higher than the arrays'";
        Some(if op == Op::Floor {
            "np.floor: the operand's type, then the first of NumPy 1's loops (float16, float32, \
             float64) it casts to safely; complex refused"
                .to_owned()
        } else if searches_loops(op) {
            format!(
                "{}; NumPy 1 takes the first loop every operand casts to safely, {by_value}",
                ops::describe(op)
            )
        } else {
            format!(
                "{}; np.result_type is NumPy 1.26's, {by_value}",
                ops::describe(op)
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Each checked against NumPy 1.26.4 (and in numpy1_result_type.jsonl).

    #[test]
    fn min_scalar_type_of_python_numbers() {
        assert_eq!(int_needs(127), (DType::UInt8, true));
        assert_eq!(int_needs(128), (DType::UInt8, false));
        assert_eq!(int_needs(-129), (DType::Int16, false));
        assert_eq!(int_needs(1 << 31), (DType::UInt32, false));
        assert_eq!(int_needs(1 << 63), (DType::UInt64, false));
        assert_eq!(float_needs(65000.0), DType::Float32);
        assert_eq!(float_needs(f64::NAN), DType::Float16);
        assert_eq!(float_needs(1e-300), DType::Float16);
        assert_eq!(float_needs(3.5e38), DType::Float64);
    }

    #[test]
    fn small_unsigned_values_fold_in_order() {
        let result = |operands: &[Operand]| Numpy1.result_dtype(operands);
        let i8 = Operand::array(DType::Int8, false);
        let both = [i8, Operand::py_int(127), Operand::py_int(128)];
        assert_eq!(result(&both), Ok(DType::Int16));
        assert_eq!(result(&[Operand::py_int(200), i8]), Ok(DType::Int16));
        let object = result(&[i8, Operand::py_int(1 << 64)]).unwrap_err();
        assert!(object.to_string().contains(" object "));
    }

    // Measured on NumPy 1.26.4: `x[...] = v` for values past the golden
    // forms table's (whose Python ints stop at 65536).
    #[test]
    fn assignment_reads_a_c_long_and_wraps() {
        let into = |dtype, value| Numpy1.assign(Operand::array(dtype, false), value).unwrap();
        let too_large = "Python int too large to convert to C long";
        let big = Operand::py_int(1 << 63);
        assert_eq!(
            into(DType::Int8, Operand::py_int((1 << 63) - 1)),
            Ok(Typed::strong(DType::Int8))
        );
        assert_eq!(into(DType::Int64, big).unwrap_err().to_string(), too_large);
        assert_eq!(into(DType::UInt32, big), Ok(Typed::strong(DType::UInt32)));
        let past = Operand::py_float(9.3e18);
        assert_eq!(into(DType::UInt8, past).unwrap_err().to_string(), too_large);
        assert_eq!(into(DType::UInt64, past), Ok(Typed::strong(DType::UInt64)));
        let nan = into(DType::Int8, Operand::py_float(f64::NAN)).unwrap_err();
        assert_eq!(nan.to_string(), "cannot convert float NaN to integer");
        assert_eq!(into(DType::Bool, big), Ok(Typed::strong(DType::Bool)));
    }

    // Measured on NumPy 1.26.4, as `forms_numpy1.jsonl` records.
    #[test]
    fn the_power_operator_takes_numpy_1s_fast_path() {
        let pow = |a, b| array_power(Op::Power, &[a, b]).map(|t| t.dtype);
        let f16 = Operand::array(DType::Float16, false);
        assert_eq!(pow(f16, Operand::py_int(2)), Ok(DType::Float16));
        assert_eq!(
            pow(f16, Operand::zero_dim(DType::Int64)),
            Ok(DType::Float16)
        );
        assert_eq!(pow(f16, Operand::py_int(3)), Ok(DType::Float16));
        assert_eq!(pow(f16, Operand::py_float(1e300)), Ok(DType::Float64));
        let u8 = Operand::array(DType::UInt8, false);
        assert_eq!(pow(u8, Operand::zero_dim(DType::Int64)), Ok(DType::UInt8));
        assert_eq!(
            pow(Operand::array(DType::Bool, false), Operand::py_int(2)),
            Ok(DType::Int8)
        );
    }
}
