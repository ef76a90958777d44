//! `dtype_lattice._native`: the Python extension of dtype-lattice.
//!
//! A front end like the command line: it reads Python objects
//! (`convert`), calls the library and turns its answers into NumPy dtypes
//! and its errors into the frameworks' exceptions (`errors`). No rule of
//! promotion lives here; the public Python API (`dtype_lattice/__init__.py`)
//! wraps these functions with documentation and types.

mod convert;
mod errors;
mod lattice;

use dtype_lattice::frameworks::jax::{ExplicitX64, Jax};
use dtype_lattice::registry::{self, Settings};
use dtype_lattice::types::hierarchy::{isdtype, issubdtype, AbstractType, ArrayApiKind, Scalar};
use dtype_lattice::{DType, Operand, PromotionError};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use convert::known;

/// One framework's promotion rules under one configuration.
#[pyclass(frozen, module = "dtype_lattice")]
struct Policy {
    policy: Box<dyn dtype_lattice::Policy>,
    /// JAX's own functions (`safe_to_cast`, `asarray`, ...), for JAX.
    jax: Option<Jax>,
    settings: Settings,
    canonical_name: &'static str,
    /// Whether calls may warn as JAX does (x64 off, explicit-x64 `warn`):
    /// only then are the warnings looked for.
    warns: bool,
}

/// Issues `warnings` as Python warnings of their category, pointing at the
/// caller's line.
fn warn(py: Python<'_>, warnings: Vec<dtype_lattice::Warning>) -> PyResult<()> {
    for warning in warnings {
        let category = match warning.kind {
            dtype_lattice::WarningKind::User => py.get_type::<pyo3::exceptions::PyUserWarning>(),
            _ => py.get_type::<pyo3::exceptions::PyUserWarning>(),
        };
        let message = std::ffi::CString::new(warning.message).unwrap_or_default();
        PyErr::warn(py, &category, &message, 1)?;
    }
    Ok(())
}

/// The policy's error as the framework's exception.
fn raise(py: Python<'_>, err: PromotionError) -> PyErr {
    errors::to_python(py, &err)
}

/// Operands read from a call's arguments: on the stack for up to eight
/// (an allocation would be a tenth of a short call's cost), else in a Vec.
enum Operands {
    Few([Operand; 8], usize),
    Many(Vec<Operand>),
}

impl std::ops::Deref for Operands {
    type Target = [Operand];
    fn deref(&self) -> &[Operand] {
        match self {
            Operands::Few(buffer, len) => &buffer[..*len],
            Operands::Many(operands) => operands,
        }
    }
}

fn operands(py: Python<'_>, args: &Bound<'_, PyTuple>, jax: Option<&Jax>) -> PyResult<Operands> {
    let known = known(py)?;
    if args.len() <= 8 {
        let mut buffer = [Operand::NONE; 8];
        for (slot, arg) in buffer.iter_mut().zip(args.iter()) {
            *slot = known.operand(&arg, jax)?;
        }
        return Ok(Operands::Few(buffer, args.len()));
    }
    let operands = args.iter().map(|arg| known.operand(&arg, jax));
    Ok(Operands::Many(operands.collect::<PyResult<_>>()?))
}

/// The framework's answer for the operands, or `None` where the policy
/// does not model the function.
fn modelled<T>(name: &str, policy: &str, answer: Option<T>) -> PyResult<T> {
    answer.ok_or_else(|| {
        PyTypeError::new_err(format!(
            "the {policy} policy does not model {name}; the policies that do are listed in \
             docs/policies.md"
        ))
    })
}

#[pymethods]
impl Policy {
    /// `promote_types(a, b)`: the dtype both types promote to.
    fn promote_types(
        &self,
        py: Python<'_>,
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
    ) -> PyResult<Py<PyAny>> {
        let known = known(py)?;
        let (a, b) = (known.type_spec(a)?, known.type_spec(b)?);
        let dtype = self
            .policy
            .promote_types(a, b)
            .map_err(|err| raise(py, err))?;
        known.numpy(py, dtype)
    }

    /// `result_type(*args)`: the dtype of an operation on the operands;
    /// `(dtype, weak)` with `return_weak_type_flag=True`.
    #[pyo3(signature = (*args, return_weak_type_flag = false))]
    fn result_type(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        return_weak_type_flag: bool,
    ) -> PyResult<Py<PyAny>> {
        let known = known(py)?;
        let operands = operands(py, args, self.jax.as_ref())?;
        if self.warns {
            warn(py, self.policy.result_type_warnings(&operands))?;
        }
        let typed = self
            .policy
            .result_type(&operands)
            .map_err(|err| raise(py, err))?;
        let dtype = known.numpy(py, typed.dtype)?;
        if return_weak_type_flag {
            Ok((dtype, typed.weak).into_pyobject(py)?.into_any().unbind())
        } else {
            Ok(dtype)
        }
    }

    /// JAX's internal `lattice_result_type(*args)`: `(dtype, weak)`.
    #[pyo3(signature = (*args))]
    fn lattice_result_type(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
    ) -> PyResult<(Py<PyAny>, bool)> {
        let operands = operands(py, args, self.jax.as_ref())?;
        if self.warns {
            warn(py, self.policy.lattice_result_type_warnings(&operands))?;
        }
        let answer = self.policy.lattice_result_type(&operands);
        let typed = modelled("lattice_result_type", self.canonical_name, answer)?
            .map_err(|err| raise(py, err))?;
        Ok((known(py)?.numpy(py, typed.dtype)?, typed.weak))
    }

    /// The framework's `add` of the operands, as a dtype and weak flag.
    #[pyo3(signature = (*args))]
    fn add(&self, py: Python<'_>, args: &Bound<'_, PyTuple>) -> PyResult<(Py<PyAny>, bool)> {
        let operands = operands(py, args, self.jax.as_ref())?;
        let typed = modelled("add", self.canonical_name, self.policy.add(&operands))?
            .map_err(|err| raise(py, err))?;
        Ok((known(py)?.numpy(py, typed.dtype)?, typed.weak))
    }

    /// `can_cast(from, to)` under the framework's safe casting.
    fn can_cast(
        &self,
        py: Python<'_>,
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        let known = known(py)?;
        let answer = self.policy.can_cast(known.dtype(a)?, known.dtype(b)?);
        modelled("can_cast", self.canonical_name, answer)
    }

    /// JAX's `safe_to_cast(x, dtype)`.
    fn safe_to_cast(
        &self,
        py: Python<'_>,
        x: &Bound<'_, PyAny>,
        dtype: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        let jax = modelled("safe_to_cast", self.canonical_name, self.jax.as_ref())?;
        let known = known(py)?;
        let (x, dtype) = (known.operand(x, Some(jax))?, known.dtype(dtype)?);
        if self.warns {
            warn(py, jax.safe_to_cast_warnings(x, dtype))?;
        }
        jax.safe_to_cast(x, dtype).map_err(|err| raise(py, err))
    }

    /// JAX's `canonicalize_dtype(dtype)` under this configuration.
    fn canonicalize_dtype(&self, py: Python<'_>, dtype: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let jax = modelled("canonicalize_dtype", self.canonical_name, self.jax.as_ref())?;
        let known = known(py)?;
        known.numpy(py, jax.canonicalize_dtype(known.dtype(dtype)?))
    }

    /// `jnp.asarray(value)`'s dtype and weak flag for a Python scalar.
    fn asarray_dtype(
        &self,
        py: Python<'_>,
        value: &Bound<'_, PyAny>,
    ) -> PyResult<(Py<PyAny>, bool)> {
        let jax = modelled("asarray", self.canonical_name, self.jax.as_ref())?;
        let known = known(py)?;
        let typed = jax
            .asarray(known.operand(value, Some(jax))?)
            .map_err(|err| raise(py, err))?;
        Ok((known.numpy(py, typed.dtype)?, typed.weak))
    }

    /// The policy's name and settings, as the command line prints them.
    #[getter]
    fn name(&self) -> String {
        self.policy.name()
    }

    /// The registry name (`"jax"`, `"numpy"`, ...).
    #[getter]
    fn policy_name(&self) -> &'static str {
        self.canonical_name
    }

    #[getter]
    fn x64(&self) -> bool {
        self.settings.x64
    }

    #[getter]
    fn strict(&self) -> bool {
        self.settings.strict
    }

    /// `jax_explicit_x64_dtypes`: `"warn"`, `"error"` or `"allow"`.
    #[getter]
    fn explicit_x64_dtypes(&self) -> &'static str {
        self.settings.explicit_x64.name()
    }

    /// The typed lattice as a `Lattice`, or `None` for a policy defined by
    /// rules.
    fn lattice(&self) -> Option<lattice::Lattice> {
        lattice::Lattice::of_policy(self.policy.as_ref())
    }

    /// The table of `lattice_result_type` (JAX) or `result_type` of two
    /// types over `types` (names; default: the 18 types of JAX's docs):
    /// `(labels, cells)`, a cell being `(dtype name, weak)` or the error's
    /// message.
    #[pyo3(signature = (types = None))]
    fn table(&self, py: Python<'_>, types: Option<Vec<Bound<'_, PyAny>>>) -> PyResult<Py<PyAny>> {
        let specs = table_types(py, types)?;
        let table = dtype_lattice::design::table::Table::compute(self.policy.as_ref(), &specs);
        table_to_python(py, &specs, &table)
    }

    /// The cells where this policy's `promote_types` and `other`'s differ,
    /// over `types`: `[(row, column, ours, theirs, not_native)]`, each
    /// answer a dtype name or None where the policy refuses the pair, and
    /// `not_native` the cell's dtypes one policy lacks, with the side
    /// (0: this one, 1: `other`) that lacks it.
    #[pyo3(signature = (other, types = None))]
    fn diff(
        &self,
        py: Python<'_>,
        other: &Policy,
        types: Option<Vec<Bound<'_, PyAny>>>,
    ) -> PyResult<Py<PyAny>> {
        let specs = table_types(py, types)?;
        let differences = dtype_lattice::design::diff::differences(
            self.policy.as_ref(),
            other.policy.as_ref(),
            &specs,
        );
        let list = PyList::empty(py);
        let name = |dtype: Option<DType>| dtype.map(DType::name);
        for difference in differences {
            let not_native: Vec<(&str, usize)> = difference
                .not_native
                .iter()
                .map(|&(dtype, side)| (dtype.name(), side))
                .collect();
            list.append((
                difference.row,
                difference.column,
                name(difference.left),
                name(difference.right),
                not_native,
            ))?;
        }
        Ok(list.into_any().unbind())
    }

    fn __repr__(&self) -> String {
        format!("<dtype_lattice policy {}>", self.policy.name())
    }
}

fn table_types(
    py: Python<'_>,
    types: Option<Vec<Bound<'_, PyAny>>>,
) -> PyResult<Vec<dtype_lattice::TypeSpec>> {
    match types {
        None => Ok(dtype_lattice::design::table::types(false)),
        Some(types) => {
            let known = known(py)?;
            types.iter().map(|t| known.type_spec(t)).collect()
        }
    }
}

fn cell(
    py: Python<'_>,
    answer: &Result<dtype_lattice::Typed, PromotionError>,
) -> PyResult<Py<PyAny>> {
    Ok(match answer {
        Ok(typed) => (typed.dtype.name(), typed.weak)
            .into_pyobject(py)?
            .into_any()
            .unbind(),
        Err(err) => PyString::new(py, &err.to_string()).into_any().unbind(),
    })
}

fn table_to_python(
    py: Python<'_>,
    specs: &[dtype_lattice::TypeSpec],
    table: &dtype_lattice::design::table::Table,
) -> PyResult<Py<PyAny>> {
    let out = PyDict::new(py);
    let labels: Vec<String> = specs.iter().map(ToString::to_string).collect();
    let short = table.labels(dtype_lattice::design::table::Labels::Short);
    let rows = PyList::empty(py);
    let shown = PyList::empty(py);
    for (r, row) in table.cells.iter().enumerate() {
        let cells = PyList::empty(py);
        for answer in row {
            cells.append(cell(py, answer)?)?;
        }
        rows.append(cells)?;
        let short_row: Vec<String> = (0..row.len())
            .map(|c| table.cell_label(r, c, dtype_lattice::design::table::Labels::Short))
            .collect();
        shown.append(short_row)?;
    }
    out.set_item("types", labels)?;
    out.set_item("labels", short)?;
    out.set_item("cells", rows)?;
    out.set_item("short", shown)?;
    out.set_item("legend", dtype_lattice::design::table::legend(specs))?;
    Ok(out.into_any().unbind())
}

/// The policy named `name` (any command-line name or alias) under the
/// settings.
#[pyfunction]
#[pyo3(signature = (name = "jax", *, x64 = false, strict = false, explicit_x64_dtypes = "warn"))]
fn policy(name: &str, x64: bool, strict: bool, explicit_x64_dtypes: &str) -> PyResult<Policy> {
    let explicit_x64: ExplicitX64 = explicit_x64_dtypes.parse().map_err(
        |err: dtype_lattice::frameworks::jax::ParseExplicitX64Error| {
            PyValueError::new_err(err.to_string())
        },
    )?;
    let settings = Settings {
        x64,
        strict,
        explicit_x64,
    };
    let policy =
        registry::by_name(name, settings).map_err(|err| PyValueError::new_err(err.to_string()))?;
    let canonical_name = registry::POLICY_NAMES
        .iter()
        .copied()
        .find(|&n| n == name)
        .or_else(|| {
            registry::ALIASES
                .iter()
                .find(|(alias, _)| *alias == name)
                .map(|&(_, n)| n)
        })
        .unwrap_or("jax");
    let jax = (canonical_name == "jax").then(|| Jax::new(settings.jax()));
    Ok(Policy {
        policy,
        warns: jax.is_some() && !x64 && explicit_x64 == ExplicitX64::Warn,
        jax,
        settings,
        canonical_name,
    })
}

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

/// Every policy name and alias the registry knows.
#[pyfunction]
fn policy_names() -> (Vec<&'static str>, Vec<(&'static str, &'static str)>) {
    (registry::POLICY_NAMES.to_vec(), registry::ALIASES.to_vec())
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<Policy>()?;
    m.add_class::<lattice::Lattice>()?;
    m.add_function(wrap_pyfunction!(policy, m)?)?;
    m.add_function(wrap_pyfunction!(parse_operand, m)?)?;
    m.add_function(wrap_pyfunction!(finfo, m)?)?;
    m.add_function(wrap_pyfunction!(iinfo, m)?)?;
    m.add_function(wrap_pyfunction!(isdtype_, m)?)?;
    m.add_function(wrap_pyfunction!(issubdtype_, m)?)?;
    m.add_function(wrap_pyfunction!(dtype_names, m)?)?;
    m.add_function(wrap_pyfunction!(_call_floor, m)?)?;
    m.add_function(wrap_pyfunction!(policy_names, m)?)?;
    m.add(
        "TypePromotionError",
        py.get_type::<errors::TypePromotionError>(),
    )?;
    m.add(
        "InvalidArgumentError",
        py.get_type::<errors::InvalidArgumentError>(),
    )?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
