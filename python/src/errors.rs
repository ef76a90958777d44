//! The library's errors as the Python exceptions the frameworks raise.

use dtype_lattice::{ErrorKind, PromotionError};
use pyo3::create_exception;
use pyo3::exceptions::{
    PyAttributeError, PyException, PyNotImplementedError, PyOSError, PyOverflowError,
    PyRuntimeError, PySystemError, PyTypeError, PyValueError, PyZeroDivisionError,
};
use pyo3::prelude::*;

// JAX's `jax.errors.TypePromotionError` derives from `ValueError`; this one
// does too, so code catching either keeps working (`patch_jax` raises JAX's
// own class instead).
create_exception!(
    dtype_lattice,
    TypePromotionError,
    PyValueError,
    "No implicit promotion path between the inputs (JAX's TypePromotionError)."
);
// NumPy's own class takes the ufunc and dtypes, not a message; this one
// has its name and base, so `except TypeError` catches it as NumPy's.
create_exception!(
    dtype_lattice,
    UFuncTypeError,
    PyTypeError,
    "A ufunc with no loop for the input types (NumPy's UFuncTypeError)."
);
create_exception!(
    dtype_lattice,
    InvalidArgumentError,
    PyException,
    "TensorFlow's InvalidArgumentError."
);
create_exception!(
    dtype_lattice,
    NotFoundError,
    PyException,
    "TensorFlow's NotFoundError: no kernel for a dtype on the device."
);
create_exception!(
    dtype_lattice,
    UnimplementedError,
    PyException,
    "TensorFlow's UnimplementedError: a kernel without the case (Cast between some narrow dtypes)."
);

// No framework raises this: the framework's call never returns (see
// `ErrorKind::DoesNotReturn`). A `RuntimeError`, so generic handlers catch it.
create_exception!(
    dtype_lattice,
    DoesNotReturnError,
    PyRuntimeError,
    "The framework's call does not return (it loops for ever); no exception of its own."
);

// No exception either: a special method asked directly returned
// `NotImplemented` (see `ErrorKind::ReturnedNotImplemented`).
create_exception!(
    dtype_lattice,
    ReturnedNotImplemented,
    PyTypeError,
    "A special method asked directly (int.__radd__ of an array) returned NotImplemented."
);

/// The exception a framework raises for `err`, with its message.
pub(crate) fn to_python(py: Python<'_>, err: &PromotionError) -> PyErr {
    let message = err.to_string();
    match err.kind() {
        ErrorKind::TypePromotion => TypePromotionError::new_err(message),
        // NumPy's own class, so `except np.exceptions.DTypePromotionError`
        // works.
        ErrorKind::DTypePromotion => match numpy_promotion_error(py) {
            Some(class) => PyErr::from_type(class, message),
            None => PyTypeError::new_err(message),
        },
        ErrorKind::Value => PyValueError::new_err(message),
        ErrorKind::Type => PyTypeError::new_err(message),
        ErrorKind::Overflow => PyOverflowError::new_err(message),
        ErrorKind::NotImplemented => PyNotImplementedError::new_err(message),
        ErrorKind::Attribute => PyAttributeError::new_err(message),
        ErrorKind::Runtime => PyRuntimeError::new_err(message),
        ErrorKind::InvalidArgument => InvalidArgumentError::new_err(message),
        ErrorKind::System => PySystemError::new_err(message),
        ErrorKind::UFuncType => UFuncTypeError::new_err(message),
        ErrorKind::NotFound => NotFoundError::new_err(message),
        ErrorKind::Unimplemented => UnimplementedError::new_err(message),
        ErrorKind::ZeroDivision => PyZeroDivisionError::new_err(message),
        ErrorKind::OS => PyOSError::new_err(message),
        ErrorKind::DoesNotReturn => DoesNotReturnError::new_err(message),
        ErrorKind::ReturnedNotImplemented => ReturnedNotImplemented::new_err(message),
        _ => PyValueError::new_err(message),
    }
}

fn numpy_promotion_error(py: Python<'_>) -> Option<Bound<'_, pyo3::types::PyType>> {
    py.import("numpy.exceptions")
        .and_then(|module| module.getattr("DTypePromotionError"))
        .and_then(|class| class.cast_into().map_err(Into::into))
        .ok()
}
