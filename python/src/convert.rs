//! Python objects in, NumPy dtypes out.
//!
//! Reading an operand is most of the cost of a call from Python, so the
//! common inputs are recognised by identity: NumPy's dtype objects and
//! scalar types are singletons, held here for the life of the process, so
//! comparing a pointer with theirs is safe and takes nanoseconds. Anything
//! else goes through NumPy's own `np.dtype(obj)`, then the library's name
//! parser, which knows every spelling the command line does.

use dtype_lattice::{DType, Operand, ParseDTypeError, PyScalar, TypeSpec};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyComplex, PyFloat, PyInt, PyString, PyType};

/// Objects looked up once: NumPy's dtype object and scalar type of each
/// of the 32 dtypes, and the types whose instances need a closer look.
pub(crate) struct Known {
    /// `np.dtype(name)` for each dtype, by `DType::index`; `None` where the
    /// installed ml_dtypes lacks the type.
    dtypes: Vec<Option<Py<PyAny>>>,
    /// The dtype objects and scalar types (`np.int8`, `ml_dtypes.bfloat16`)
    /// by address: the first thing every argument is looked up in.
    identities: Identities,
    /// Keeps the scalar types alive, so their addresses stay theirs.
    _scalar_types: Vec<Py<PyAny>>,
    ndarray: Py<PyType>,
    /// `ndarray`'s address, to recognise arrays by their type's address.
    ndarray_address: usize,
    generic: Py<PyType>,
    numpy_dtype: Py<PyAny>,
}

static KNOWN: PyOnceLock<Known> = PyOnceLock::new();

pub(crate) fn known(py: Python<'_>) -> PyResult<&'static Known> {
    KNOWN.get_or_try_init(py, || {
        let numpy = py.import("numpy")?;
        // Registers the extended dtypes with NumPy.
        py.import("ml_dtypes")?;
        let numpy_dtype = numpy.getattr("dtype")?;
        let mut dtypes = Vec::with_capacity(DType::COUNT);
        let mut identities = Identities::default();
        let mut scalar_types = Vec::new();
        for dtype in DType::ALL {
            match numpy_dtype.call1((dtype.name(),)) {
                Ok(object) => {
                    identities.insert(object.as_ptr() as usize, dtype);
                    let scalar = object.getattr("type")?;
                    identities.insert(scalar.as_ptr() as usize, dtype);
                    scalar_types.push(scalar.unbind());
                    dtypes.push(Some(object.unbind()));
                }
                Err(_) => dtypes.push(None),
            }
        }
        let ndarray = numpy.getattr("ndarray")?.cast_into::<PyType>()?;
        Ok(Known {
            dtypes,
            identities,
            _scalar_types: scalar_types,
            ndarray_address: ndarray.as_ptr() as usize,
            ndarray: ndarray.unbind(),
            generic: numpy.getattr("generic")?.cast_into::<PyType>()?.unbind(),
            numpy_dtype: numpy_dtype.unbind(),
        })
    })
}

impl Known {
    /// NumPy's dtype object for `dtype`.
    pub(crate) fn numpy(&self, py: Python<'_>, dtype: DType) -> PyResult<Py<PyAny>> {
        match &self.dtypes[dtype.index()] {
            Some(object) => Ok(object.clone_ref(py)),
            None => Err(PyValueError::new_err(format!(
                "the installed ml_dtypes has no {dtype}; install ml_dtypes >= 0.6"
            ))),
        }
    }

    /// The dtype of a dtype object or scalar type recognised by identity.
    #[inline]
    fn by_identity(&self, object: &Bound<'_, PyAny>) -> Option<DType> {
        self.identities.get(object.as_ptr() as usize)
    }

    /// A dtype-like object as a dtype: a dtype object, a scalar type, a
    /// name in any spelling the library reads (`"int8"`, `"np.int8"`,
    /// `"torch.float16"`), or anything `np.dtype` takes.
    pub(crate) fn dtype(&self, object: &Bound<'_, PyAny>) -> PyResult<DType> {
        if let Some(dtype) = self.by_identity(object) {
            return Ok(dtype);
        }
        if let Ok(text) = object.cast::<PyString>() {
            return DType::from_name(text.to_str()?).map_err(name_error);
        }
        let py = object.py();
        // `np.dtype` reads scalar types, `.dtype` attributes (jnp.int8)
        // and NumPy's other spellings; its answer is then a known object,
        // or named by its `str`.
        if let Ok(converted) = self.numpy_dtype.bind(py).call1((object,)) {
            if let Some(dtype) = self.by_identity(&converted) {
                return Ok(dtype);
            }
            let name = converted.str()?;
            return DType::from_name(name.to_str()?).map_err(name_error);
        }
        // Paddle's dtypes print `paddle.uint16` as `paddle.bfloat16` (the
        // old name of bfloat16's storage); their repr, `<DataType.UINT16:
        // 4>`, names each apart.
        if let Some(dtype) = paddle_data_type(object)? {
            return Ok(dtype);
        }
        // Other frameworks' dtype objects print as `torch.float16`,
        // `<dtype: 'int32'>`, `mlx.core.int8`; the library reads such
        // spellings.
        let text = object.str()?;
        DType::from_name(text.to_str()?).map_err(|_| {
            PyTypeError::new_err(format!(
                "cannot read {} as a dtype: give a NumPy dtype, a scalar type such as \
                 np.int8, or a name such as 'int8'",
                short_repr(object)
            ))
        })
    }

    /// `np.dtype(object)` where NumPy reads the object as a dtype; `None`
    /// where it refuses it.
    pub(crate) fn numpy_dtype_of<'py>(
        &self,
        object: &Bound<'py, PyAny>,
    ) -> Option<Bound<'py, PyAny>> {
        self.numpy_dtype.bind(object.py()).call1((object,)).ok()
    }

    /// NumPy's `np.dtype` class.
    pub(crate) fn numpy_dtype_type<'py>(&self, py: Python<'py>) -> &Bound<'py, PyAny> {
        self.numpy_dtype.bind(py)
    }

    /// NumPy's `np.generic`, the base of its scalar types.
    pub(crate) fn numpy_generic<'py>(&self, py: Python<'py>) -> &Bound<'py, PyType> {
        self.generic.bind(py)
    }

    /// A type as `promote_types` takes it: a dtype, or Python's `int`,
    /// `float`, `complex` (`bool` is the bool dtype, as in JAX).
    pub(crate) fn type_spec(&self, object: &Bound<'_, PyAny>) -> PyResult<TypeSpec> {
        if let Some(dtype) = self.by_identity(object) {
            return Ok(TypeSpec::DType(dtype));
        }
        if let Some(scalar) = python_type(object) {
            return Ok(TypeSpec::from(scalar));
        }
        if let Ok(text) = object.cast::<PyString>() {
            return text.to_str()?.parse().map_err(operand_error);
        }
        self.dtype(object).map(TypeSpec::DType)
    }

    /// One operand of `result_type`: a dtype-like object (a specifier), a
    /// Python scalar type or value, `None`, a NumPy array (a
    /// strongly-typed array; with no dimensions, or a NumPy scalar, a 0-d
    /// array holding its value), any object with a `dtype` (an array: JAX's
    /// `weak_type` flag is read where it has one), or a string in the
    /// command line's notation (`"weak:int32"`, `"2+3j"`).
    ///
    /// An array that is not the framework's own - a NumPy array or scalar,
    /// anything else with a `dtype` but no `weak_type` - has its dtype
    /// canonicalized as the policy stores dtypes (JAX's `jax.dtypes.dtype`:
    /// only JAX's arrays keep a 64-bit dtype with x64 off).
    pub(crate) fn operand(
        &self,
        object: &Bound<'_, PyAny>,
        policy: &dyn dtype_lattice::Policy,
    ) -> PyResult<Operand> {
        let jax = policy.jax();
        let stored = |dtype: DType| jax.map_or(dtype, |jax| jax.canonicalize_dtype(dtype));
        let foreign = |dtype: DType| Operand::array(stored(dtype), false);
        if let Some(dtype) = self.by_identity(object) {
            return Ok(Operand::dtype(dtype));
        }
        let py = object.py();
        // Arrays first, by their type's address: the commonest operand
        // after dtypes, and `isinstance` costs more than the rest of a call.
        if object.get_type().as_ptr() as usize == self.ndarray_address {
            let dtype = self.dtype(&object.getattr(intern!(py, "dtype"))?)?;
            return numpy_array(object, stored(dtype));
        }
        if let Some(value) = python_value(object)? {
            return Ok(value);
        }
        if object.is_none() {
            return Ok(Operand::NONE);
        }
        if object.is_instance(self.ndarray.bind(py))?
            || object.is_instance(self.generic.bind(py))?
        {
            let dtype = self.dtype(&object.getattr("dtype")?)?;
            return numpy_array(object, stored(dtype));
        }
        if let Some(scalar) = python_type(object) {
            return Ok(Operand::py_type(scalar));
        }
        if let Ok(text) = object.cast::<PyString>() {
            return text.to_str()?.parse().map_err(operand_error);
        }
        if !object.is_instance_of::<PyType>() {
            if let Ok(dtype) = object.getattr("dtype") {
                let dtype = self.dtype(&dtype)?;
                return Ok(match weak_type(object)? {
                    Some(weak) => Operand::array(dtype, weak),
                    // PyTorch and Paddle promote a 0-d tensor below a
                    // tensor with dimensions.
                    None if zero_dimensional(object) => Operand::zero_dim(stored(dtype)),
                    None => foreign(dtype),
                });
            }
        }
        // Subclasses of Python's scalars (an IntEnum, a bool subclass)
        // are the values they hold.
        if object.is_instance_of::<PyBool>() {
            return Ok(Operand::py_bool(object.is_truthy()?));
        }
        if object.is_instance_of::<PyInt>() {
            return Ok(py_int(object));
        }
        if object.is_instance_of::<PyFloat>() {
            return Ok(Operand::py_float(object.extract()?));
        }
        self.dtype(object).map(Operand::dtype)
    }
}

/// A NumPy array or scalar of `dtype`: a strongly-typed array, or, with no
/// dimensions (a NumPy scalar, `np.array(300)`), a 0-d array holding its
/// value, which NumPy 1 promoted by (every other policy reads it as its
/// framework's own 0-d array of the dtype: NumPy 2 and JAX as any array,
/// PyTorch below the tensors with dimensions).
fn numpy_array(object: &Bound<'_, PyAny>, dtype: DType) -> PyResult<Operand> {
    let py = object.py();
    // `len()` is one slot call, where `ndim` is an attribute lookup that
    // cost a tenth of `result_type` on arrays; only an array without
    // dimensions refuses it (and `ndim` then says so).
    if object.len().is_ok() || object.getattr(intern!(py, "ndim"))?.extract::<usize>()? != 0 {
        return Ok(Operand::array(dtype, false));
    }
    let value = object
        .call_method0(intern!(py, "item"))
        .ok()
        .and_then(|item| python_value(&item).ok().flatten());
    Ok(match value {
        Some(value) => Operand::zero_dim_holding(dtype, value),
        None => Operand::zero_dim(dtype),
    })
}

/// Whether `object` says it has no dimensions (`ndim` 0), as the tensors
/// of PyTorch, Paddle, TensorFlow, MLX and tinygrad do.
fn zero_dimensional(object: &Bound<'_, PyAny>) -> bool {
    object
        .getattr("ndim")
        .and_then(|ndim| ndim.extract::<usize>())
        .is_ok_and(|ndim| ndim == 0)
}

/// The dtype a Paddle dtype object stands for, read from its repr
/// (`<DataType.FLOAT8_E4M3FN: 17>`); `None` for any other object.
fn paddle_data_type(object: &Bound<'_, PyAny>) -> PyResult<Option<DType>> {
    let repr = object.repr()?;
    let Some(name) = repr
        .to_str()?
        .strip_prefix("<DataType.")
        .and_then(|rest| rest.split_once(':'))
        .map(|(name, _)| name.to_ascii_lowercase())
    else {
        return Ok(None);
    };
    DType::from_name(&name).map(Some).map_err(name_error)
}

/// Python's `int`, `float`, `complex` and `bool` types.
#[inline]
fn python_type(object: &Bound<'_, PyAny>) -> Option<PyScalar> {
    let py = object.py();
    let is = |t: Bound<'_, PyType>| object.is(&t);
    if is(py.get_type::<PyInt>()) {
        Some(PyScalar::Int)
    } else if is(py.get_type::<PyFloat>()) {
        Some(PyScalar::Float)
    } else if is(py.get_type::<PyComplex>()) {
        Some(PyScalar::Complex)
    } else if is(py.get_type::<PyBool>()) {
        Some(PyScalar::Bool)
    } else {
        None
    }
}

/// A value of exactly Python's `bool`, `int`, `float` or `complex`.
#[inline]
pub(crate) fn python_value(object: &Bound<'_, PyAny>) -> PyResult<Option<Operand>> {
    Ok(Some(if object.is_exact_instance_of::<PyBool>() {
        Operand::py_bool(object.is_truthy()?)
    } else if object.is_exact_instance_of::<PyInt>() {
        py_int(object)
    } else if object.is_exact_instance_of::<PyFloat>() {
        Operand::py_float(object.extract()?)
    } else if let Ok(complex) = object.cast_exact::<PyComplex>() {
        Operand::py_complex(complex.real(), complex.imag())
    } else {
        return Ok(None);
    }))
}

/// A Python int; one beyond 128 bits is out of every dtype's range as the
/// 128-bit bound of its sign is, so it is read as that bound.
fn py_int(object: &Bound<'_, PyAny>) -> Operand {
    // 64 bits first: one C call, where 128 bits take a slower route
    // under the stable ABI.
    if let Ok(value) = object.extract::<i64>() {
        return Operand::py_int(i128::from(value));
    }
    match object.extract::<i128>() {
        Ok(value) => Operand::py_int(value),
        Err(_) if object.gt(0).unwrap_or(false) => Operand::py_int(i128::MAX),
        Err(_) => Operand::py_int(i128::MIN),
    }
}

/// JAX's weak flag of an array-like: `x.weak_type`, or a tracer's
/// `x.aval.weak_type`; `None` for an array that is not JAX's.
fn weak_type(object: &Bound<'_, PyAny>) -> PyResult<Option<bool>> {
    if let Ok(flag) = object.getattr("weak_type") {
        return flag.is_truthy().map(Some);
    }
    match object
        .getattr("aval")
        .and_then(|aval| aval.getattr("weak_type"))
    {
        Ok(flag) => flag.is_truthy().map(Some),
        Err(_) => Ok(None),
    }
}

fn name_error(err: ParseDTypeError) -> PyErr {
    PyTypeError::new_err(err.to_string())
}

fn operand_error(err: dtype_lattice::ParseOperandError) -> PyErr {
    match err {
        dtype_lattice::ParseOperandError::Number { .. } => PyValueError::new_err(err.to_string()),
        _ => PyTypeError::new_err(err.to_string()),
    }
}

/// `repr(object)`, cut to a readable length.
pub(crate) fn short_repr(object: &Bound<'_, PyAny>) -> String {
    let text = object
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "<object>".to_owned());
    if text.chars().count() > 80 {
        format!("{}...", text.chars().take(77).collect::<String>())
    } else {
        text
    }
}

/// A table from object addresses to dtypes, open addressing: 64 entries in
/// 128 slots, so a lookup is a hash and one or two compares.
struct Identities {
    slots: [(usize, u8); Identities::SLOTS],
}

impl Default for Identities {
    fn default() -> Identities {
        Identities {
            slots: [(0, 0); Identities::SLOTS],
        }
    }
}

impl Identities {
    const SLOTS: usize = 128;

    /// Objects are 16-byte aligned: the low bits say nothing.
    #[inline]
    fn slot(address: usize) -> usize {
        ((address >> 4) ^ (address >> 11)) % Identities::SLOTS
    }

    fn insert(&mut self, address: usize, dtype: DType) {
        let mut slot = Identities::slot(address);
        while self.slots[slot].0 != 0 && self.slots[slot].0 != address {
            slot = (slot + 1) % Identities::SLOTS;
        }
        self.slots[slot] = (address, dtype.index() as u8);
    }

    #[inline]
    fn get(&self, address: usize) -> Option<DType> {
        let mut slot = Identities::slot(address);
        loop {
            match self.slots[slot] {
                (0, _) => return None,
                (a, index) if a == address => return Some(DType::ALL[usize::from(index)]),
                _ => slot = (slot + 1) % Identities::SLOTS,
            }
        }
    }
}
