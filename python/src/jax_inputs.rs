//! Where JAX reads an argument its own way, the `jax` policy's methods read
//! it the same way, so a bad input raises JAX's exception.
//!
//! Measured with JAX 0.10.2 (Python 3.11, NumPy 2.4.6) and 0.12.0.1
//! (Python 3.12, NumPy 2.5.5), which agree; `python/tests/test_bad_inputs.py`
//! compares each case with the installed JAX.

use dtype_lattice::{DType, OperandKind};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyString, PyType};

use crate::convert::Known;

/// JAX's `dtypes.dtype(None)`, which `safe_to_cast` calls on both of its
/// arguments, refuses None (`result_type` instead reads it as the default
/// float, and so does the library).
pub(crate) fn refuse_none(object: &Bound<'_, PyAny>) -> PyResult<()> {
    if object.is_none() {
        return Err(PyValueError::new_err("Invalid argument to dtype: None."));
    }
    Ok(())
}

/// `safe_to_cast`'s target as JAX reads it (`dtypes.dtype(x)`): a dtype as
/// it is, a Python scalar value or an array as the dtype JAX gives it
/// (`1.5`: float32 with x64 off), which is then taken as strongly typed.
pub(crate) fn cast_target(
    known: &Known,
    policy: &dyn dtype_lattice::Policy,
    object: &Bound<'_, PyAny>,
) -> PyResult<DType> {
    refuse_none(object)?;
    let err = match known.dtype(object) {
        Ok(dtype) => return Ok(dtype),
        Err(err) => err,
    };
    let Ok(operand) = known.operand(object, policy) else {
        return Err(not_numeric(known, object).unwrap_or(err));
    };
    match operand.kind() {
        OperandKind::DType(_) | OperandKind::PyType(_) => Err(err),
        _ => match policy.result_type(&[operand]) {
            Ok(typed) => Ok(typed.dtype),
            Err(_) => Err(err),
        },
    }
}

/// `promote_types`' error for an argument the library cannot read: where
/// NumPy reads it as a dtype that is not numeric (`object`, `str`,
/// `datetime64`), JAX's `ValueError`, else the library's own error.
pub(crate) fn promotion_input_error(known: &Known, object: &Bound<'_, PyAny>, err: PyErr) -> PyErr {
    match known.numpy_dtype_of(object) {
        Some(dtype) => outside_lattice(&dtype),
        None => err,
    }
}

/// A NumPy scalar type whose dtype is not numeric (`np.str_`, `np.object_`):
/// JAX's `dtypes.dtype` takes it as that dtype without checking it.
fn non_numeric_scalar_type<'py>(
    known: &Known,
    object: &Bound<'py, PyAny>,
) -> Option<Bound<'py, PyAny>> {
    let class = object.cast::<PyType>().ok()?;
    if !class.is_subclass(known.numpy_generic(object.py())).ok()? {
        return None;
    }
    known.numpy_dtype_of(object)
}

/// Reads `operands` again after the library failed on one: the first
/// that fails otherwise than as a non-numeric NumPy scalar type gives its
/// error, else the first such type's dtype, if any.
fn first_outside<'py>(
    known: &Known,
    policy: &dyn dtype_lattice::Policy,
    operands: impl IntoIterator<Item = Bound<'py, PyAny>>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let mut outside = None;
    for object in operands {
        if let Err(err) = known.operand(&object, policy) {
            match non_numeric_scalar_type(known, &object) {
                Some(dtype) => outside = outside.or(Some(dtype)),
                None => return Err(not_numeric(known, &object).unwrap_or(err)),
            }
        }
    }
    Ok(outside)
}

/// JAX's `dtypes.dtype` error for a name, NumPy dtype or class of a dtype
/// that is not numeric (`'object'`, `np.dtype('U3')`, `str`), or `None`
/// for anything else. A NumPy scalar type (`np.str_`) gets there only as
/// the dtype it stands for, which JAX then reads and names.
fn not_numeric(known: &Known, object: &Bound<'_, PyAny>) -> Option<PyErr> {
    let py = object.py();
    if !object.is_instance_of::<PyString>()
        && !object.is_instance_of::<PyType>()
        && !object.is_instance(known.numpy_dtype_type(py)).ok()?
    {
        return None;
    }
    let dtype = known.numpy_dtype_of(object)?;
    let shown = match non_numeric_scalar_type(known, object) {
        Some(_) => dtype.str().ok()?,
        None => object.str().ok()?,
    };
    Some(PyTypeError::new_err(format!(
        "Value '{shown}' with dtype {} is not a valid JAX array type. Only arrays of numeric \
         types are supported by JAX.",
        dtype.str().ok()?
    )))
}

/// JAX's promotion error for a dtype outside its lattice.
fn outside_lattice(dtype: &Bound<'_, PyAny>) -> PyErr {
    match dtype.repr() {
        Ok(repr) => PyValueError::new_err(format!(
            "dtype={repr} is not a valid dtype for JAX type promotion."
        )),
        Err(err) => err,
    }
}

/// JAX's answer where the library could not read all of `operands` (`err`,
/// its error): a non-numeric NumPy scalar type (`np.str_`) is a dtype to
/// JAX, returned as it is when `alone`, else refused by its promotion;
/// any other failure is the library's error.
pub(crate) fn unread_operands<'py>(
    known: &Known,
    policy: &dyn dtype_lattice::Policy,
    operands: impl IntoIterator<Item = Bound<'py, PyAny>>,
    alone: bool,
    err: PyErr,
) -> PyResult<Bound<'py, PyAny>> {
    match first_outside(known, policy, operands)? {
        Some(dtype) if alone => Ok(dtype),
        Some(dtype) => Err(outside_lattice(&dtype)),
        None => Err(err),
    }
}

/// [`unread_operands`]' error for an operand that is promoted with another
/// (`safe_to_cast`'s input).
pub(crate) fn unread_operand_error(
    known: &Known,
    policy: &dyn dtype_lattice::Policy,
    object: &Bound<'_, PyAny>,
    err: PyErr,
) -> PyErr {
    match first_outside(known, policy, [object.clone()]) {
        Ok(Some(dtype)) => outside_lattice(&dtype),
        Ok(None) => err,
        Err(other) => other,
    }
}
