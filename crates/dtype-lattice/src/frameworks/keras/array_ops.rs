//! `keras.ops`' operations on whole arrays (`keras.ops.sum`,
//! `keras.ops.matmul`, `keras.ops.where`, ...), called eagerly.
//!
//! As for the elementwise operations ([`ops`](super::ops)), each backend's
//! function (`keras/src/backend/<backend>/numpy.py`) is short Python: it
//! converts its operands (`convert_to_tensor`, the backend's [`Model`]),
//! may compute a dtype with `dtypes.result_type` (Keras's rules, cut to 32
//! bits but on TensorFlow), casts to it, and calls the framework's function,
//! which the library's model of that framework answers (`numpy`, `jax`
//! with x64 off, `tensorflow` with NumPy behaviour off). The dtype rules
//! are Keras's own where it writes them (`sum` of `int8` is `int32` on
//! every backend, following JAX) and the framework's where it only calls
//! through (`max` is `np.max`, `jnp.max` or `tf.reduce_max`).
//!
//! ```
//! use dtype_lattice::frameworks::keras::{Backend, Floatx, Keras};
//! use dtype_lattice::{ArrayCall, ArrayOp, DType, Operand, Policy};
//! let x = Operand::array(DType::Int8, false);
//! for backend in Backend::ALL {
//!     let keras = Keras::new(backend, Floatx::Float32);
//!     let sum = keras.array_op(&ArrayCall::new(ArrayOp::Sum), &[x]).unwrap().unwrap();
//!     assert_eq!(sum.result().dtype, DType::Int32);
//! }
//! ```

use super::ops::{Model, Value};
use super::promotion::{no_float8_promotion, python_tuple, FLOAT8};
use super::{Backend, Keras};
use crate::frameworks::common::array_ops::counted;
use crate::frameworks::jax::Jax;
use crate::frameworks::numpy::Numpy;
use crate::frameworks::tensorflow::{cast_kernel, Mode, TensorFlow};
use crate::policy::Policy;
use crate::prelude::*;
use crate::types::{
    ArrayCall, ArrayOp, DType, ErrorKind, Kind, Operand, OperandKind, Outcome, PromotionError,
    PyScalar, TypeSpec, Typed,
};

/// An argument of `dtypes.result_type` as a backend function writes it:
/// an array's `x.dtype` (or a Python scalar's type), or a dtype's name
/// (`"float32"`), which the float8 refusal prints otherwise.
#[derive(Clone, Copy)]
enum Given {
    Of(TypeSpec),
    Name(DType),
}

/// An array's `x.dtype`.
const fn of(dtype: DType) -> Given {
    Given::Of(TypeSpec::DType(dtype))
}

/// Python's `float`.
const PY_FLOAT: Given = Given::Of(TypeSpec::Python(PyScalar::Float));

impl Keras {
    /// `mean`'s and `var`'s dtypes for an input of `d`, as every backend
    /// writes them: computed in `result_type(x.dtype, "float32")`; the
    /// result that for `bool` and integers (`var`: `result_type(x.dtype,
    /// float)` for every input), else `d`.
    fn mean_dtypes(self, op: ArrayOp, d: DType) -> Result<(DType, DType), PromotionError> {
        let compute = self.result(&[of(d), Given::Name(DType::Float32)])?;
        let result = match op {
            ArrayOp::Var => self.result(&[of(d), PY_FLOAT])?,
            _ if integral(d) => compute,
            _ => d,
        };
        Ok((compute, result))
    }

    /// `keras.ops.<function>` of `call` on `operands`, eagerly.
    pub(super) fn keras_array_op(
        self,
        call: ArrayCall,
        operands: &[Operand],
    ) -> Option<Result<Outcome, PromotionError>> {
        Some(
            self.array_call(call, operands)
                .map(|d| Outcome::of(Typed::strong(d))),
        )
    }

    fn array_call(self, call: ArrayCall, operands: &[Operand]) -> Result<DType, PromotionError> {
        let operands = counted(call, operands)?;
        if let Some(dtype) = call.dtype() {
            if !matches!(
                call.op(),
                ArrayOp::Prod | ArrayOp::CumSum | ArrayOp::CumProd | ArrayOp::FullLike
            ) {
                return Err(PromotionError::framework(
                    ErrorKind::Type,
                    format!(
                        "{}() got an unexpected keyword argument 'dtype' (keras.ops.{} takes \
                         none; cast the result with keras.ops.cast(x, \"{dtype}\"))",
                        call.op().name(),
                        call.op().name()
                    ),
                ));
            }
            super::promotion::keras_dtype(dtype)?;
        }
        match self.backend {
            Backend::Numpy => {
                let model = super::numpy_backend::NumpyBackend(self);
                numpy_function(&model, call, &arguments(&model, call, operands)?)
            }
            Backend::Jax => {
                let model = super::jax_backend::JaxBackend(self);
                jax_function(&model, call, &arguments(&model, call, operands)?)
            }
            Backend::TensorFlow => {
                let model = super::tensorflow_backend::TensorFlowBackend(self);
                tf_function(&model, call, &arguments(&model, call, operands)?)
            }
        }
    }

    /// `dtypes.result_type(*given)`.
    fn result(self, given: &[Given]) -> Result<DType, PromotionError> {
        let float8 = given.iter().any(
            |g| matches!(g, Given::Of(TypeSpec::DType(d)) | Given::Name(d) if FLOAT8.contains(*d)),
        );
        if float8 {
            let items: Vec<String> = given
                .iter()
                .map(|g| match *g {
                    Given::Of(spec) => super::promotion::dtype_object(spec),
                    Given::Name(d) => format!("'{d}'"),
                })
                .collect();
            return Err(no_float8_promotion(&python_tuple(items)));
        }
        let specs: Vec<TypeSpec> = given
            .iter()
            .map(|g| match *g {
                Given::Of(spec) => spec,
                Given::Name(d) => TypeSpec::DType(d),
            })
            .collect();
        self.result_of(&specs)
    }
}

/// The call's operands as the golden data makes them (an array is
/// `keras.ops.ones(shape, dtype)`, a Python scalar itself), which Python
/// evaluates before it binds them: `clip` wants both bounds.
fn arguments(
    model: &dyn Model,
    call: ArrayCall,
    operands: &[Operand],
) -> Result<Vec<Value>, PromotionError> {
    let values = operands
        .iter()
        .map(|operand| {
            let argument = operand.as_argument();
            match argument.kind() {
                OperandKind::DType(d)
                | OperandKind::ZeroDim(d)
                | OperandKind::Array { dtype: d, .. } => {
                    model.ones(super::promotion::keras_dtype(d)?)
                }
                _ => Ok(Value::Python(argument)),
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    if call.op() == ArrayOp::Clip && values.len() < 3 {
        return Err(PromotionError::framework(
            ErrorKind::Type,
            "clip() missing 1 required positional argument: 'x_max'",
        ));
    }
    Ok(values)
}

fn dtype_of(value: Value) -> Result<DType, PromotionError> {
    value.dtype().ok_or_else(|| {
        PromotionError::framework(
            ErrorKind::Attribute,
            "a Python scalar has no attribute 'dtype' (pass an array)",
        )
    })
}

/// `"int" in dtype or dtype == "bool"`.
fn integral(dtype: DType) -> bool {
    dtype == DType::Bool || dtype.is_integer()
}

/// The widening Keras writes for `sum` and `prod` ("follow jax's rule").
fn widened(dtype: DType) -> DType {
    match dtype {
        DType::Bool | DType::Int8 | DType::Int16 => DType::Int32,
        DType::UInt8 | DType::UInt16 => DType::UInt32,
        other => other,
    }
}

fn operand(value: Value) -> Operand {
    match value {
        Value::Python(scalar) => scalar,
        Value::Array { dtype, weak, .. } => Operand::array(dtype, weak),
    }
}

fn arrays(dtypes: &[DType]) -> Vec<Operand> {
    dtypes.iter().map(|&d| Operand::array(d, false)).collect()
}

fn with_dtype(op: ArrayOp, dtype: Option<DType>) -> Result<ArrayCall, PromotionError> {
    let call = ArrayCall::new(op);
    match dtype {
        Some(d) => call
            .with_dtype(d)
            .map_err(|e| PromotionError::framework(ErrorKind::Type, e.to_string())),
        None => Ok(call),
    }
}

/// The framework's function `op` on arrays of `dtypes` (and `extra`
/// operands after them), as the framework's policy answers.
fn framework(
    policy: &dyn Policy,
    op: ArrayOp,
    dtype: Option<DType>,
    operands: &[Operand],
) -> Result<DType, PromotionError> {
    match policy.array_op(&with_dtype(op, dtype)?, operands) {
        Some(answer) => answer.map(|outcome| outcome.result().dtype),
        None => Err(PromotionError::framework(
            ErrorKind::NotImplemented,
            format!("{} of the backend's framework is not modelled", op.name()),
        )),
    }
}

/// The NumPy backend's function.
fn numpy_function(m: &dyn Model, call: ArrayCall, v: &[Value]) -> Result<DType, PromotionError> {
    let k = m.keras();
    let np = &Numpy;
    let op = call.op();
    let on = |op, dtype, values: &[Value]| {
        framework(
            np,
            op,
            dtype,
            &values.iter().map(|&v| operand(v)).collect::<Vec<_>>(),
        )
    };
    let converted = |value| m.convert(value, None);
    Ok(match op {
        ArrayOp::Sum => {
            let d = widened(dtype_of(v[0])?);
            on(op, None, v)?;
            d
        }
        ArrayOp::Prod => {
            let x = converted(v[0])?;
            let d = match call.dtype() {
                Some(d) => d,
                None => widened(k.result(&[of(dtype_of(x)?)])?),
            };
            on(op, Some(d), &[x])?
        }
        ArrayOp::CumSum | ArrayOp::CumProd => {
            // `result_type(dtype or x.dtype)`: a given dtype is its name.
            let given = match call.dtype() {
                Some(d) => Given::Name(d),
                None => of(dtype_of(v[0])?),
            };
            let d = match k.result(&[given])? {
                DType::Bool => DType::Int32,
                d => d,
            };
            on(op, Some(d), v)?
        }
        ArrayOp::Mean | ArrayOp::Var => {
            let x = converted(v[0])?;
            let (compute, result) = k.mean_dtypes(op, dtype_of(x)?)?;
            // `np.mean(x)` (`np.var(x, dtype=compute)`), then `astype`.
            let dtype = (op == ArrayOp::Var).then_some(compute);
            on(op, dtype, &[x])?;
            result
        }
        ArrayOp::Std => {
            let mut x = converted(v[0])?;
            if integral(dtype_of(x)?) {
                x = m.cast(x, k.floatx.dtype())?;
            }
            on(op, None, &[x])?
        }
        ArrayOp::ArgMax | ArrayOp::ArgMin => {
            let x = converted(v[0])?;
            let d = dtype_of(x)?;
            if d.kind() == Kind::Float {
                let d = k.result(&[Given::Name(d), Given::Name(DType::Float32)])?;
                on(op, None, &[m.cast(x, d)?])?;
            } else {
                on(op, None, &[x])?;
            }
            DType::Int32
        }
        ArrayOp::Matmul | ArrayOp::Dot | ArrayOp::Tensordot => {
            let (a, b) = (converted(v[0])?, converted(v[1])?);
            let (da, db) = (dtype_of(a)?, dtype_of(b)?);
            let d = if op == ArrayOp::Matmul && da == DType::Int8 && db == DType::Int8 {
                DType::Int32
            } else {
                k.result(&[of(da), of(db)])?
            };
            // `np.matmul(...).astype(dtype)`; `np.dot`, `np.tensordot` as
            // NumPy answers.
            let found = framework(np, op, None, &arrays(&[d, d]))?;
            if op == ArrayOp::Matmul {
                d
            } else {
                found
            }
        }
        ArrayOp::Einsum => {
            let (a, b) = (converted(v[0])?, converted(v[1])?);
            let (da, db) = (dtype_of(a)?, dtype_of(b)?);
            let (compute, result) = if da == DType::Int8 && db == DType::Int8 {
                (DType::Int32, DType::Int32)
            } else {
                let given: Vec<Given> = distinct(&[da, db]).into_iter().map(Given::Name).collect();
                let r = k.result(&given)?;
                (
                    if r == DType::BFloat16 {
                        DType::Float32
                    } else {
                        r
                    },
                    r,
                )
            };
            framework(np, op, None, &arrays(&[compute, compute]))?;
            result
        }
        ArrayOp::Where => {
            let (x1, x2) = (keep_numbers(m, v[1])?, keep_numbers(m, v[2])?);
            let d = k.result(&[Given::Of(x1.given()?), Given::Of(x2.given()?)])?;
            let (x1, x2) = (m.convert(x1, Some(d))?, m.convert(x2, Some(d))?);
            on(op, None, &[v[0], x1, x2])?
        }
        ArrayOp::Clip => {
            let x = converted(v[0])?;
            let d = match dtype_of(x)? {
                DType::Bool => DType::Int32,
                d => d,
            };
            on(op, None, &[x, v[1], v[2]])?;
            d
        }
        ArrayOp::Concatenate | ArrayOp::Stack => {
            let given: Vec<TypeSpec> = v.iter().map(|x| x.given()).collect::<Result<_, _>>()?;
            if distinct(&given).len() > 1 {
                let d = k.result(&in_set_order(&given))?;
                let cast: Vec<Value> = v
                    .iter()
                    .map(|&x| m.cast(converted(x)?, d))
                    .collect::<Result<_, _>>()?;
                on(op, None, &cast)?
            } else {
                on(op, None, v)?
            }
        }
        ArrayOp::FullLike => on(op, call.dtype(), v)?,
        // max, min, any, all: NumPy's functions on the array as it is.
        _ => on(op, None, v)?,
    })
}

/// `x` if it is a Python int or float (`isinstance(x, (int, float))`,
/// a bool too), else `convert_to_tensor(x)`.
fn keep_numbers(m: &dyn Model, x: Value) -> Result<Value, PromotionError> {
    match x {
        Value::Python(s)
            if matches!(
                s.kind(),
                OperandKind::PyBool(_) | OperandKind::PyInt(_) | OperandKind::PyFloat(_)
            ) =>
        {
            Ok(x)
        }
        _ => m.convert(x, None),
    }
}

/// `set(dtypes)` of two NumPy dtypes as CPython iterates it, which only
/// the float8 refusal shows: a float8 dtype first, but beside a dtype
/// whose hash (under the generator's `PYTHONHASHSEED=0`) takes the same
/// slot of the set's table, where insertion order stands (measured:
/// `int8`, `int64`, `float16`, `float32` and the other float8 type).
fn in_set_order(given: &[TypeSpec]) -> Vec<Given> {
    const SAME_SLOT: &[DType] = &[
        DType::Int8,
        DType::Int64,
        DType::Float16,
        DType::Float32,
        DType::Float8E4M3Fn,
        DType::Float8E5M2,
    ];
    let mut order: Vec<TypeSpec> = given.to_vec();
    if let [TypeSpec::DType(a), TypeSpec::DType(b)] = order[..] {
        if !FLOAT8.contains(a) && FLOAT8.contains(b) && !SAME_SLOT.contains(&a) {
            order.swap(0, 1);
        }
    }
    order.into_iter().map(Given::Of).collect()
}

/// The distinct items, in order (what a backend's `set(...)` holds).
fn distinct<T: Copy + PartialEq>(items: &[T]) -> Vec<T> {
    let mut out: Vec<T> = Vec::new();
    for &item in items {
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}

/// The JAX backend's function: `jnp`'s, after Keras's conversions.
fn jax_function(m: &dyn Model, call: ArrayCall, v: &[Value]) -> Result<DType, PromotionError> {
    let k = m.keras();
    let jax = Jax::default();
    let op = call.op();
    let on = |op, dtype, values: &[Value]| {
        framework(
            &jax,
            op,
            dtype,
            &values.iter().map(|&v| operand(v)).collect::<Vec<_>>(),
        )
    };
    let converted = |value| m.convert(value, None);
    Ok(match op {
        ArrayOp::Sum
        | ArrayOp::Prod
        | ArrayOp::CumSum
        | ArrayOp::CumProd
        | ArrayOp::Max
        | ArrayOp::Min => on(op, call.dtype(), &[converted(v[0])?])?,
        ArrayOp::Mean | ArrayOp::Var => {
            let x = converted(v[0])?;
            let (compute, result) = k.mean_dtypes(op, dtype_of(x)?)?;
            on(op, Some(compute), &[x])?;
            result
        }
        ArrayOp::Std => {
            let mut x = converted(v[0])?;
            if dtype_of(x)? == DType::Int64 {
                x = m.cast(x, k.floatx.dtype())?;
            }
            on(op, None, &[x])?
        }
        ArrayOp::ArgMax | ArrayOp::ArgMin => {
            let x = converted(v[0])?;
            let d = dtype_of(x)?;
            if d.kind() == Kind::Complex {
                // Run eagerly, XLA's argmax lowers a `gt` (`lt`) comparison,
                // which refuses complex; the jax policy answers abstract
                // evaluation (`jax.eval_shape`), which lowers nothing.
                let compare = if op == ArrayOp::ArgMax { "gt" } else { "lt" };
                return Err(PromotionError::framework(
                    ErrorKind::Type,
                    format!(
                        "{compare} does not accept dtype {d} at position 0. Accepted dtypes at \
                         position 0 are subtypes of integer, floating, bool."
                    ),
                ));
            }
            if d.kind() == Kind::Float {
                let d = k.result(&[Given::Name(d), Given::Name(DType::Float32)])?;
                on(op, None, &[m.cast(x, d)?])?
            } else {
                on(op, None, &[x])?
            }
        }
        ArrayOp::Matmul | ArrayOp::Einsum => {
            let (a, b) = (converted(v[0])?, converted(v[1])?);
            let int8 = dtype_of(a)? == DType::Int8 && dtype_of(b)? == DType::Int8;
            on(op, int8.then_some(DType::Int32), &[a, b])?
        }
        ArrayOp::Dot | ArrayOp::Tensordot | ArrayOp::Concatenate | ArrayOp::Stack => {
            let values: Vec<Value> = v.iter().map(|&x| converted(x)).collect::<Result<_, _>>()?;
            on(op, None, &values)?
        }
        ArrayOp::Clip => {
            let mut x = converted(v[0])?;
            if dtype_of(x)? == DType::Bool {
                x = m.cast(x, DType::Int32)?;
            }
            on(op, None, &[x, v[1], v[2]])?
        }
        ArrayOp::FullLike => on(op, call.dtype(), v)?,
        // where, any, all: jnp's on the arguments as they are.
        _ => on(op, None, v)?,
    })
}

/// The TensorFlow backend's function: TensorFlow's (NumPy behaviour off),
/// after Keras's conversions and casts.
fn tf_function(m: &dyn Model, call: ArrayCall, v: &[Value]) -> Result<DType, PromotionError> {
    let k = m.keras();
    let tf = TensorFlow::new(Mode::Off);
    let op = call.op();
    let on = |op, values: &[Value]| {
        framework(
            &tf,
            op,
            None,
            &values.iter().map(|&v| operand(v)).collect::<Vec<_>>(),
        )
    };
    let converted = |value| m.convert(value, None);
    // `tf.cast` of a tensor runs the Cast kernel, which lacks some pairs.
    let cast = |value: Value, d| {
        if let Some(from) = value.dtype() {
            cast_kernel(from, d)?;
        }
        m.cast(value, d)
    };
    Ok(match op {
        ArrayOp::Sum => {
            let x = converted(v[0])?;
            on(op, &[cast(x, widened(dtype_of(x)?))?])?
        }
        ArrayOp::Prod => {
            let x = converted(v[0])?;
            let x = match call.dtype() {
                // `tf.reduce_prod` of the array as it is: the dtype= is
                // read by nothing.
                Some(_) => x,
                None => {
                    let d = k.result(&[of(dtype_of(x)?)])?;
                    cast(x, widened(d))?
                }
            };
            on(op, &[x])?
        }
        ArrayOp::CumSum | ArrayOp::CumProd => {
            let mut x = match call.dtype() {
                Some(d) => cast(v[0], d)?,
                None => v[0],
            };
            if dtype_of(x)? == DType::Bool {
                x = cast(x, DType::Int32)?;
            }
            on(op, &[x])?
        }
        ArrayOp::Mean | ArrayOp::Var => {
            let x = converted(v[0])?;
            let (compute, result) = k.mean_dtypes(op, dtype_of(x)?)?;
            on(op, &[cast(x, compute)?])?;
            result
        }
        ArrayOp::Std => {
            let mut x = converted(v[0])?;
            if integral(dtype_of(x)?) {
                x = cast(x, k.floatx.dtype())?;
            }
            on(op, &[x])?
        }
        ArrayOp::Max | ArrayOp::Min => {
            let x = converted(v[0])?;
            if dtype_of(x)? == DType::Bool {
                DType::Bool
            } else {
                on(op, &[x])?
            }
        }
        ArrayOp::ArgMax | ArrayOp::ArgMin => {
            let mut x = converted(v[0])?;
            let d = dtype_of(x)?;
            if d.kind() == Kind::Float {
                x = cast(x, k.result(&[Given::Name(d), Given::Name(DType::Float32)])?)?;
            }
            // `output_type="int32"`, a string, takes the op's Python
            // fallback, whose errors end without the fast path's " name: ".
            on(op, &[x]).map_err(|err| match err {
                PromotionError::Framework { kind, message } => PromotionError::framework(
                    kind,
                    message
                        .strip_suffix(" name: ")
                        .unwrap_or(&message)
                        .to_owned(),
                ),
                other => other,
            })?;
            DType::Int32
        }
        ArrayOp::Any | ArrayOp::All => {
            cast(v[0], DType::Bool)?;
            DType::Bool
        }
        ArrayOp::Matmul => {
            let (a, b) = (converted(v[0])?, converted(v[1])?);
            let (da, db) = (dtype_of(a)?, dtype_of(b)?);
            if da == DType::Int8 && db == DType::Int8 {
                return Ok(DType::Int32);
            }
            let (ga, gb) = (of(da), of(db));
            let float = PY_FLOAT;
            let compute = k.result(&[ga, gb, float])?;
            let result = k.result(&[ga, gb])?;
            on(op, &[cast(a, compute)?, cast(b, compute)?])?;
            result
        }
        ArrayOp::Dot | ArrayOp::Tensordot => {
            let (a, b) = (converted(v[0])?, converted(v[1])?);
            let (da, db) = (dtype_of(a)?, dtype_of(b)?);
            let result = k.result(&[of(da), of(db)])?;
            let kept = op == ArrayOp::Tensordot
                && matches!(
                    result,
                    DType::Int32
                        | DType::Int64
                        | DType::Float16
                        | DType::Float32
                        | DType::Float64
                        | DType::BFloat16
                        | DType::Complex64
                        | DType::Complex128
                );
            let compute = if kept {
                result
            } else {
                k.result(&[of(result), PY_FLOAT])?
            };
            on(ArrayOp::Tensordot, &[cast(a, compute)?, cast(b, compute)?])?;
            result
        }
        ArrayOp::Einsum => {
            let (a, b) = (converted(v[0])?, converted(v[1])?);
            let (da, db) = (dtype_of(a)?, dtype_of(b)?);
            if da == DType::Int8 && db == DType::Int8 {
                return Ok(DType::Int32);
            }
            let given: Vec<Given> = distinct(&[da, db]).into_iter().map(Given::Name).collect();
            let result = k.result(&given)?;
            // "ij,jk->ik" is one of the subscripts Keras runs as tf.matmul.
            let compute = if result.is_integer() {
                k.floatx.dtype()
            } else {
                result
            };
            on(ArrayOp::Matmul, &[cast(a, compute)?, cast(b, compute)?])?;
            result
        }
        ArrayOp::Where => {
            cast(v[0], DType::Bool)?;
            let (x1, x2) = (keep_numbers(m, v[1])?, keep_numbers(m, v[2])?);
            let d = k.result(&[Given::Of(x1.given()?), Given::Of(x2.given()?)])?;
            let (x1, x2) = (m.convert(x1, Some(d))?, m.convert(x2, Some(d))?);
            on(op, &[Value::ones(DType::Bool), x1, x2])?
        }
        ArrayOp::Clip => {
            let mut x = v[0];
            if dtype_of(x)? == DType::Bool {
                x = cast(x, DType::Int32)?;
            }
            on(op, &[x, v[1], v[2]])?
        }
        ArrayOp::Concatenate => {
            let xs: Vec<Value> = v.iter().map(|&x| converted(x)).collect::<Result<_, _>>()?;
            let dtypes: Vec<DType> = xs.iter().map(|&x| dtype_of(x)).collect::<Result<_, _>>()?;
            let set = distinct(&dtypes);
            if set.len() > 1 {
                let d = k.result(&set.iter().map(|&d| of(d)).collect::<Vec<_>>())?;
                let cast: Vec<Value> = xs.iter().map(|&x| cast(x, d)).collect::<Result<_, _>>()?;
                on(op, &cast)?
            } else {
                on(op, &xs)?
            }
        }
        ArrayOp::Stack => {
            let given: Vec<TypeSpec> = v.iter().map(|x| x.given()).collect::<Result<_, _>>()?;
            if distinct(&given).len() > 1 {
                let d = k.result(&given.iter().map(|&g| Given::Of(g)).collect::<Vec<_>>())?;
                let xs: Vec<Value> = v
                    .iter()
                    .map(|&x| m.convert(x, Some(d)))
                    .collect::<Result<_, _>>()?;
                on(op, &xs)?
            } else {
                on(op, v)?
            }
        }
        // full_like: `tf.broadcast_to` of the fill value converted to
        // `result_type(dtype or x.dtype)`.
        _ => {
            let x = converted(v[0])?;
            let given = match call.dtype() {
                Some(d) => Given::Name(d),
                None => of(dtype_of(x)?),
            };
            let d = k.result(&[given])?;
            m.convert(v[1], Some(d))?;
            d
        }
    })
}

/// How `keras.ops.<function>` answers `op` on the backend, in words.
pub(super) fn describe(backend: Backend, op: ArrayOp) -> String {
    let framework = match backend {
        Backend::Numpy => "NumPy's function (the numpy policy)",
        Backend::Jax => "jnp's function (the jax policy, x64 off)",
        Backend::TensorFlow => "TensorFlow's function (the tensorflow policy, NumPy behaviour off)",
    };
    let keras = match op {
        ArrayOp::Sum | ArrayOp::Prod => {
            "bool, int8, int16 widened to int32 and uint8, uint16 to uint32 (Keras follows JAX; \
             on JAX jnp does it)"
        }
        ArrayOp::Mean | ArrayOp::Var => {
            "computed in result_type(x, \"float32\"); the result is that for bool and integers \
             (var: result_type(x, float)), else the input's dtype"
        }
        ArrayOp::Std => "integers cast to floatx first (on JAX int64 only)",
        ArrayOp::ArgMax | ArrayOp::ArgMin => "int32 (JAX: jnp's default integer)",
        ArrayOp::Matmul | ArrayOp::Einsum => {
            "int8 with int8 is int32; otherwise the two promoted (Keras's result_type on NumPy \
             and TensorFlow, jnp's promotion on JAX)"
        }
        _ => {
            "Keras's result_type of the operands where the backend's function converts them \
             (NumPy, TensorFlow), jnp's promotion on JAX"
        }
    };
    format!("keras.ops.{}: {keras}, then {framework}", op.name())
}
