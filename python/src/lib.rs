//! `dtype_lattice._native`: the Python extension of dtype-lattice.
//!
//! A front end like the command line: it reads Python objects
//! (`convert`), calls the library and turns its answers into NumPy dtypes
//! and its errors into the frameworks' exceptions (`errors`). No rule of
//! promotion lives here; the public Python API (`dtype_lattice/__init__.py`)
//! wraps these functions with documentation and types.

mod convert;
mod errors;
mod jax_inputs;
mod json;
mod lattice;
mod policy;
mod promotions;

use dtype_lattice::hierarchy::{isdtype, issubdtype, AbstractType, ArrayApiKind, Scalar};
use dtype_lattice::registry::{self, SETTINGS};
use dtype_lattice::{DType, Operand};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};

use convert::known;

/// The operand the command line's notation names, as `(form, dtype or
/// value, weak)`: `("array", dtype, weak)` for `weak:int32`,
/// `array:bfloat16` and `0d:int8`; `("dtype", dtype, False)` for a
/// specifier; `("value", value, False)` for a Python type or value
/// (`int`, `2`, `2+3j`, `True`, `None`).
#[pyfunction]
fn parse_operand(py: Python<'_>, text: &str) -> PyResult<(&'static str, Py<PyAny>, bool)> {
    use dtype_lattice::{OperandKind as K, PyScalar};
    use pyo3::types::{PyBool, PyComplex, PyFloat, PyInt};
    let operand: Operand = text
        .parse()
        .map_err(|err: dtype_lattice::ParseOperandError| PyValueError::new_err(err.to_string()))?;
    let known = known(py)?;
    let value = |object: Bound<'_, PyAny>| ("value", object.unbind(), false);
    Ok(match operand.kind() {
        K::DType(dtype) => ("dtype", known.numpy(py, dtype)?, false),
        K::Array { dtype, weak } => ("array", known.numpy(py, dtype)?, weak),
        K::ZeroDim(dtype) => ("array", known.numpy(py, dtype)?, false),
        K::PyType(PyScalar::Int) => value(py.get_type::<PyInt>().into_any()),
        K::PyType(PyScalar::Float) => value(py.get_type::<PyFloat>().into_any()),
        K::PyType(PyScalar::Complex) => value(py.get_type::<PyComplex>().into_any()),
        K::PyType(PyScalar::Bool) => value(py.get_type::<PyBool>().into_any()),
        K::PyInt(v) => value(v.into_pyobject(py)?.into_any()),
        K::PyFloat(v) => value(PyFloat::new(py, v).into_any()),
        K::PyComplex { real, imag } => value(PyComplex::from_doubles(py, real, imag).into_any()),
        K::PyBool(v) => value(PyBool::new(py, v).to_owned().into_any()),
        _ => value(py.None().into_bound(py)),
    })
}

/// NumPy's `finfo` fields of a float or complex dtype, as a dict.
#[pyfunction]
fn finfo(py: Python<'_>, dtype: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let known = known(py)?;
    let info = known
        .dtype(dtype)?
        .finfo()
        .map_err(|err| PyValueError::new_err(err.to_string()))?;
    let out = PyDict::new(py);
    out.set_item("bits", info.bits)?;
    out.set_item("eps", info.eps)?;
    out.set_item("epsneg", info.epsneg)?;
    out.set_item("max", info.max)?;
    out.set_item("min", info.min)?;
    out.set_item("tiny", info.tiny)?;
    out.set_item("smallest_normal", info.smallest_normal)?;
    out.set_item("smallest_subnormal", info.smallest_subnormal)?;
    out.set_item("resolution", info.resolution)?;
    out.set_item("nmant", info.nmant)?;
    out.set_item("nexp", info.nexp)?;
    out.set_item("iexp", info.iexp)?;
    out.set_item("maxexp", info.maxexp)?;
    out.set_item("minexp", info.minexp)?;
    out.set_item("precision", info.precision)?;
    out.set_item("dtype", known.numpy(py, info.dtype)?)?;
    Ok(out.into_any().unbind())
}

/// NumPy's `iinfo` fields of an integer dtype, as a dict.
#[pyfunction]
fn iinfo(py: Python<'_>, dtype: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let known = known(py)?;
    let dtype = known.dtype(dtype)?;
    let info = dtype
        .iinfo()
        .map_err(|err| PyValueError::new_err(err.to_string()))?;
    let out = PyDict::new(py);
    out.set_item("bits", info.bits)?;
    out.set_item("min", info.min)?;
    out.set_item("max", info.max)?;
    out.set_item("dtype", known.numpy(py, dtype)?)?;
    Ok(out.into_any().unbind())
}

/// The Array API's `isdtype(dtype, kind)`; `kind` a kind name, a dtype or
/// a tuple of them.
#[pyfunction]
fn isdtype_(py: Python<'_>, dtype: &Bound<'_, PyAny>, kind: &Bound<'_, PyAny>) -> PyResult<bool> {
    let known = known(py)?;
    let dtype = known.dtype(dtype)?;
    let one = |kind: &Bound<'_, PyAny>| -> PyResult<ArrayApiKind> {
        if let Ok(text) = kind.cast::<PyString>() {
            return ArrayApiKind::from_name(text.to_str()?)
                .map_err(|err| PyValueError::new_err(err.to_string()));
        }
        known.dtype(kind).map(ArrayApiKind::DType)
    };
    let kinds = match kind.cast::<PyTuple>() {
        Ok(tuple) => tuple
            .iter()
            .map(|k| one(&k))
            .collect::<PyResult<Vec<_>>>()?,
        Err(_) => vec![one(kind)?],
    };
    Ok(isdtype(dtype, &kinds))
}

/// NumPy's `issubdtype(a, b)`: dtypes, or the abstract types by name
/// (`"integer"`, `"floating"`, ...) or as NumPy's classes.
#[pyfunction]
fn issubdtype_(py: Python<'_>, a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<bool> {
    let known = known(py)?;
    let scalar = |object: &Bound<'_, PyAny>| -> PyResult<Scalar> {
        let name = if let Ok(text) = object.cast::<PyString>() {
            Some(text.to_str()?.to_owned())
        } else {
            object
                .getattr("__name__")
                .ok()
                .and_then(|n| n.extract::<String>().ok())
        };
        if let Some(abstract_type) = name.as_deref().and_then(AbstractType::from_name) {
            return Ok(Scalar::Abstract(abstract_type));
        }
        known.dtype(object).map(Scalar::DType)
    };
    Ok(issubdtype(scalar(a)?, scalar(b)?))
}

/// Reads nothing and returns None: a call through the same binding as
/// `result_type`, for benchmarks to measure the cost of calling at all.
/// Only in a build for benchmarks (`--features bench`).
#[cfg(feature = "bench")]
#[pyfunction]
#[pyo3(signature = (*_args, return_weak_type_flag = false))]
fn _call_floor(_args: &Bound<'_, PyTuple>, return_weak_type_flag: bool) -> bool {
    return_weak_type_flag
}

/// The 32 dtypes' names, in the library's order.
#[pyfunction]
fn dtype_names() -> Vec<&'static str> {
    DType::ALL.iter().map(|d| d.name()).collect()
}

/// Every policy name and alias the registry knows; the names are the
/// entries, each followed by its presets.
#[pyfunction]
fn policy_names() -> (Vec<&'static str>, Vec<(&'static str, &'static str)>) {
    let aliases = registry::POLICIES
        .iter()
        .flat_map(|info| info.aliases.iter().map(move |&alias| (alias, info.name)));
    (registry::names().collect(), aliases.collect())
}

/// The registry's presets: each one's name, the entry it builds and the
/// settings it fixes.
#[pyfunction]
fn presets(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    registry::PRESETS
        .iter()
        .map(|preset| {
            let out = PyDict::new(py);
            out.set_item("name", preset.name)?;
            out.set_item("entry", preset.entry)?;
            let fixed = PyDict::new(py);
            for (name, value) in preset.settings {
                fixed.set_item(name, value)?;
            }
            out.set_item("settings", fixed)?;
            Ok(out)
        })
        .collect()
}

/// The registry's settings table: each setting's name (the keyword
/// `policy()` takes), values (the default first), the framework option it
/// stands for, its help, and the policies that read it.
#[pyfunction]
fn settings(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    SETTINGS
        .iter()
        .map(|setting| {
            let out = PyDict::new(py);
            out.set_item("name", setting.name)?;
            out.set_item("values", setting.values.to_vec())?;
            out.set_item("flag", setting.is_flag())?;
            out.set_item("option", setting.option)?;
            out.set_item("help", setting.help)?;
            let readers: Vec<&str> = registry::POLICIES
                .iter()
                .filter(|info| info.settings.contains(&setting.name))
                .map(|info| info.name)
                .collect();
            out.set_item("policies", readers)?;
            Ok(out)
        })
        .collect()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<policy::Policy>()?;
    m.add_class::<lattice::Lattice>()?;
    m.add_class::<promotions::PromotionReport>()?;
    m.add_function(wrap_pyfunction!(promotions::promotions, m)?)?;
    m.add_function(wrap_pyfunction!(promotions::parse_policy_list, m)?)?;
    m.add_function(wrap_pyfunction!(promotions::parse_policy_spec, m)?)?;
    m.add_function(wrap_pyfunction!(policy::policy, m)?)?;
    m.add_function(wrap_pyfunction!(settings, m)?)?;
    m.add_function(wrap_pyfunction!(parse_operand, m)?)?;
    m.add_function(wrap_pyfunction!(finfo, m)?)?;
    m.add_function(wrap_pyfunction!(iinfo, m)?)?;
    m.add_function(wrap_pyfunction!(isdtype_, m)?)?;
    m.add_function(wrap_pyfunction!(issubdtype_, m)?)?;
    m.add_function(wrap_pyfunction!(dtype_names, m)?)?;
    #[cfg(feature = "bench")]
    m.add_function(wrap_pyfunction!(_call_floor, m)?)?;
    m.add_function(wrap_pyfunction!(policy_names, m)?)?;
    m.add_function(wrap_pyfunction!(presets, m)?)?;
    // The names `operation(..., form=)` takes, for the typing test.
    m.add(
        "FORMS",
        dtype_lattice::OpForm::ALL.map(dtype_lattice::OpForm::name),
    )?;
    m.add(
        "TypePromotionError",
        py.get_type::<errors::TypePromotionError>(),
    )?;
    m.add(
        "InvalidArgumentError",
        py.get_type::<errors::InvalidArgumentError>(),
    )?;
    m.add("UFuncTypeError", py.get_type::<errors::UFuncTypeError>())?;
    m.add("NotFoundError", py.get_type::<errors::NotFoundError>())?;
    m.add(
        "UnimplementedError",
        py.get_type::<errors::UnimplementedError>(),
    )?;
    m.add(
        "DoesNotReturnError",
        py.get_type::<errors::DoesNotReturnError>(),
    )?;
    m.add(
        "ReturnedNotImplemented",
        py.get_type::<errors::ReturnedNotImplemented>(),
    )?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
