//! The Python `Policy`: one framework's promotion rules under one
//! configuration, the same thing as the library's `Box<dyn Policy>`, whose
//! methods it calls after reading Python arguments.

use dtype_lattice::design::diff::Comparison;
use dtype_lattice::design::table::{Labels, Table};
use dtype_lattice::registry::{self, Settings, SETTINGS};
use dtype_lattice::{Call, Op, OpForm, Operand, Operation, Outcome, PromotionError};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyString, PyTuple};

use crate::convert::{known, short_repr};
use crate::json::to_python;
use crate::{errors, jax_inputs, lattice};

/// One framework's promotion rules under one configuration.
#[pyclass(frozen, module = "dtype_lattice")]
pub(crate) struct Policy {
    policy: Box<dyn dtype_lattice::Policy>,
    settings: Settings,
    canonical_name: &'static str,
    /// Whether calls may warn (the policy says): only then are the
    /// warnings looked for, which the hot path would otherwise pay for.
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

fn operands(
    py: Python<'_>,
    args: &Bound<'_, PyTuple>,
    policy: &dyn dtype_lattice::Policy,
) -> PyResult<Operands> {
    let known = known(py)?;
    if args.len() <= 8 {
        let mut buffer = [Operand::NONE; 8];
        for (slot, arg) in buffer.iter_mut().zip(args.iter()) {
            *slot = known.operand(&arg, policy)?;
        }
        return Ok(Operands::Few(buffer, args.len()));
    }
    let operands = args.iter().map(|arg| known.operand(&arg, policy));
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

/// The keywords of an operation as Python passed them.
#[derive(Clone, Copy)]
struct Keywords<'a, 'py> {
    dtype: Option<&'a Bound<'py, PyAny>>,
    promote_integers: Option<bool>,
    initial: Option<&'a Bound<'py, PyAny>>,
}

impl Keywords<'_, '_> {
    fn given(self) -> bool {
        self.dtype.is_some() || self.promote_integers.is_some() || self.initial.is_some()
    }
}

impl Policy {
    /// The library's answer for the operation named `op` with its keywords
    /// ([`dyn Policy::ask`](dtype_lattice::Policy)), raised as the
    /// framework raises.
    fn outcome(
        &self,
        py: Python<'_>,
        op: &str,
        args: &Bound<'_, PyTuple>,
        keywords: Keywords<'_, '_>,
    ) -> PyResult<Outcome> {
        let operation: Operation =
            op.parse()
                .map_err(|err: dtype_lattice::ParseOperationError| {
                    PyValueError::new_err(err.to_string())
                })?;
        let known = known(py)?;
        let dtype = keywords.dtype.map(|d| known.dtype(d)).transpose()?;
        let initial = keywords
            .initial
            .map(|value| known.operand(value, self.policy.as_ref()))
            .transpose()?;
        let asked = operation
            .asked(dtype, keywords.promote_integers)
            .and_then(|asked| match initial {
                Some(value) => asked.with_initial(value),
                None => Ok(asked),
            })
            .map_err(|err| PyTypeError::new_err(err.to_string()))?;
        let operands = operands(py, args, self.policy.as_ref())?;
        self.policy
            .ask(asked, &operands)
            .ok_or_else(|| PyTypeError::new_err(self.policy.not_modelled(operation).to_string()))?
            .map_err(|err| raise(py, err))
    }

    /// Whether Python objects are read as JAX reads them (its messages for
    /// inputs it refuses, its non-numeric dtypes passed through): for the
    /// policy that has JAX's own functions, whatever its registry name.
    fn reads_as_jax(&self) -> bool {
        self.policy.jax().is_some()
    }
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
        let read = |object: &Bound<'_, PyAny>| {
            known
                .type_spec(object)
                .map_err(|err| match self.reads_as_jax() {
                    true => jax_inputs::promotion_input_error(known, object, err),
                    false => err,
                })
        };
        let (a, b) = (read(a)?, read(b)?);
        let dtype = self
            .policy
            .promote_types(a, b)
            .map_err(|err| raise(py, err))?;
        known.numpy(py, dtype)
    }

    /// `result_type(*args)`: the dtype of an operation on the operands;
    /// `(dtype, weak)` with `return_weak_type_flag=True`.
    #[pyo3(signature = (*args, return_weak_type_flag = None))]
    fn result_type(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        return_weak_type_flag: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let known = known(py)?;
        let policy = self.policy.as_ref();
        let operands = match operands(py, args, policy) {
            Ok(operands) => operands,
            Err(err) if self.reads_as_jax() => {
                let dtype = jax_inputs::unread_operands(known, policy, args, args.len() == 1, err)?;
                return match truthy(return_weak_type_flag)? {
                    true => Ok((dtype, false).into_pyobject(py)?.into_any().unbind()),
                    false => Ok(dtype.unbind()),
                };
            }
            Err(err) => return Err(err),
        };
        if let Some(jax) = self.policy.jax().filter(|_| self.warns) {
            warn(py, jax.result_type_warnings(&operands))?;
        }
        let typed = self
            .policy
            .result_type(&operands)
            .map_err(|err| raise(py, err))?;
        let dtype = known.numpy(py, typed.dtype)?;
        if truthy(return_weak_type_flag)? {
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
        let policy = self.policy.as_ref();
        let operands = match operands(py, args, policy) {
            Ok(operands) => operands,
            Err(err) if self.reads_as_jax() => {
                let known = known(py)?;
                let dtype = jax_inputs::unread_operands(known, policy, args, args.len() == 1, err)?;
                return Ok((dtype.unbind(), false));
            }
            Err(err) => return Err(err),
        };
        let jax = modelled(
            "lattice_result_type",
            self.canonical_name,
            self.policy.jax(),
        )?;
        if self.warns {
            warn(py, jax.lattice_result_type_warnings(&operands))?;
        }
        let typed = jax
            .lattice_result_type(&operands)
            .map_err(|err| raise(py, err))?;
        Ok((known(py)?.numpy(py, typed.dtype)?, typed.weak))
    }

    /// The framework's `add` of the operands, as a dtype and weak flag.
    #[pyo3(signature = (*args))]
    fn add(&self, py: Python<'_>, args: &Bound<'_, PyTuple>) -> PyResult<(Py<PyAny>, bool)> {
        let operands = operands(py, args, self.policy.as_ref())?;
        let typed = modelled("add", self.canonical_name, self.policy.add(&operands))?
            .map_err(|err| raise(py, err))?;
        Ok((known(py)?.numpy(py, typed.dtype)?, typed.weak))
    }

    /// `operation(op, *args, form=None, dtype=None, promote_integers=None,
    /// initial=None)`:
    /// the dtype the framework's `op` (NumPy's name: `"true_divide"`,
    /// `"less"`, `"sqrt"`; `"sum"`, `"mean"`, `"matmul"`, `"where"`, ...)
    /// gives on the operands; `(dtype, weak)` with
    /// `return_weak_type_flag=True`. A dtype stands for an array of it, a
    /// Python type for a scalar of it. `form` asks for an elementwise
    /// operation as a program writes it: `"function"`, `"operator"` (`a /
    /// b`), `"reflected"` (`b.__rtruediv__(a)`), `"inplace"` (`a /= b`), or
    /// `"setitem"` (`a[...] = b`, with `op` `None`); without it, the form
    /// the policy has always answered. `dtype`, `promote_integers` and
    /// `initial` (a Python number) are the keywords of the reductions,
    /// contractions and combinations.
    #[pyo3(signature = (op, *args, form = None, dtype = None, promote_integers = None, initial = None, return_weak_type_flag = None))]
    #[allow(clippy::too_many_arguments)] // Python's keywords, each its own
    fn operation(
        &self,
        py: Python<'_>,
        op: Option<&str>,
        args: &Bound<'_, PyTuple>,
        form: Option<&str>,
        dtype: Option<&Bound<'_, PyAny>>,
        promote_integers: Option<bool>,
        initial: Option<&Bound<'_, PyAny>>,
        return_weak_type_flag: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let keywords = Keywords {
            dtype,
            promote_integers,
            initial,
        };
        let typed = match form {
            None => {
                let op = op.ok_or_else(|| {
                    PyValueError::new_err("op None asks for the assignment: pass form=\"setitem\"")
                })?;
                self.outcome(py, op, args, keywords)?.result()
            }
            Some(form) => {
                let value_error =
                    |err: &dyn std::fmt::Display| PyValueError::new_err(err.to_string());
                if keywords.given() {
                    return Err(PyTypeError::new_err(
                        "form= is asked of an elementwise operation, which takes no dtype=, \
                         promote_integers= or initial=",
                    ));
                }
                let op: Option<Op> = op
                    .map(str::parse)
                    .transpose()
                    .map_err(|err: dtype_lattice::ParseOpError| value_error(&err))?;
                let form: OpForm = form
                    .parse()
                    .map_err(|err: dtype_lattice::ParseOpFormError| value_error(&err))?;
                let call = Call::new(op, form).map_err(|err| value_error(&err))?;
                let operands = operands(py, args, self.policy.as_ref())?;
                self.policy
                    .call(call, &operands)
                    .ok_or_else(|| PyTypeError::new_err(self.policy.unanswered(call).to_string()))?
                    .map_err(|err| raise(py, err))?
            }
        };
        let dtype = known(py)?.numpy(py, typed.dtype)?;
        if truthy(return_weak_type_flag)? {
            Ok((dtype, typed.weak).into_pyobject(py)?.into_any().unbind())
        } else {
            Ok(dtype)
        }
    }

    /// `computes_in(op, *args, dtype=None, promote_integers=None,
    /// initial=None)`: the
    /// dtype the framework computes `op` in, where it says (JAX's
    /// `float16` `mean` sums in `float32`; PyTorch computes a `bfloat16`
    /// addition in `float32`), else `None`. Raises as `operation` does.
    #[pyo3(signature = (op, *args, dtype = None, promote_integers = None, initial = None))]
    fn computes_in(
        &self,
        py: Python<'_>,
        op: &str,
        args: &Bound<'_, PyTuple>,
        dtype: Option<&Bound<'_, PyAny>>,
        promote_integers: Option<bool>,
        initial: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<Py<PyAny>>> {
        let keywords = Keywords {
            dtype,
            promote_integers,
            initial,
        };
        let outcome = self.outcome(py, op, args, keywords)?;
        outcome
            .computes_in()
            .map(|dtype| known(py)?.numpy(py, dtype))
            .transpose()
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
        let known = known(py)?;
        let policy = self.policy.as_ref();
        let (x, dtype) = match self.reads_as_jax() {
            true => {
                jax_inputs::refuse_none(x)?;
                let target = jax_inputs::cast_target(known, policy, dtype)?;
                let x = known
                    .operand(x, policy)
                    .map_err(|err| jax_inputs::unread_operand_error(known, policy, x, err))?;
                (x, target)
            }
            false => (known.operand(x, policy)?, known.dtype(dtype)?),
        };
        let jax = modelled("safe_to_cast", self.canonical_name, policy.jax())?;
        if self.warns {
            warn(py, jax.safe_to_cast_warnings(x, dtype))?;
        }
        jax.safe_to_cast(x, dtype).map_err(|err| raise(py, err))
    }

    /// JAX's `canonicalize_dtype(dtype)` under this configuration.
    fn canonicalize_dtype(&self, py: Python<'_>, dtype: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let known = known(py)?;
        let read = match known.dtype(dtype) {
            Ok(read) => read,
            // JAX's canonicalize_dtype returns a dtype it does not narrow,
            // a non-numeric one included, as it is.
            Err(err) => match known.numpy_dtype_of(dtype) {
                Some(outside) if self.reads_as_jax() => return Ok(outside.unbind()),
                _ => return Err(err),
            },
        };
        let jax = modelled("canonicalize_dtype", self.canonical_name, self.policy.jax())?;
        known.numpy(py, jax.canonicalize_dtype(read))
    }

    /// `jnp.asarray(value)`'s dtype and weak flag for a Python scalar.
    fn asarray_dtype(
        &self,
        py: Python<'_>,
        value: &Bound<'_, PyAny>,
    ) -> PyResult<(Py<PyAny>, bool)> {
        let known = known(py)?;
        let value = known.operand(value, self.policy.as_ref())?;
        let jax = modelled("asarray", self.canonical_name, self.policy.jax())?;
        let typed = jax.asarray(value).map_err(|err| raise(py, err))?;
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

    /// The settings the policy was made with, by their registry names:
    /// a flag as a bool, a choice as its name.
    #[getter]
    fn settings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        for setting in SETTINGS {
            let value = setting.get(&self.settings);
            if setting.is_flag() {
                out.set_item(setting.name, value == "true")?;
            } else {
                out.set_item(setting.name, value)?;
            }
        }
        Ok(out)
    }

    /// The policy's graph as a `Lattice`: its typed lattice, or the
    /// written graph its rules start from (Keras, tinygrad; what
    /// `registry::with_graph` lists), or `None` for a policy defined by
    /// rules alone (NumPy, MLX, PaddlePaddle, ...).
    fn lattice(&self) -> Option<lattice::Lattice> {
        lattice::Lattice::of_policy(self.policy.as_ref())
    }

    /// The table of `lattice_result_type` (JAX) or `result_type` of two
    /// types over `types` (names; default: the 18 types of JAX's docs), as
    /// `table --format json` prints it.
    #[pyo3(signature = (types = None))]
    fn table(&self, py: Python<'_>, types: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
        let specs = table_types(py, types)?;
        let policy = self.policy.as_ref();
        let table = py.detach(|| Table::new(policy, &specs).to_json(policy, Labels::Short, None));
        to_python(py, &table)
    }

    /// The cells where this policy's `promote_types` and `other`'s differ,
    /// over `types`, as `diff ours theirs --format json --labels names`
    /// prints it: the two policies are called `ours` and `theirs`.
    #[pyo3(signature = (other, types = None))]
    fn diff(
        &self,
        py: Python<'_>,
        other: &Policy,
        types: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let specs = table_types(py, types)?;
        let policies = [self.policy.as_ref(), other.policy.as_ref()];
        let report = py.detach(|| {
            Comparison::new(["ours", "theirs"], policies, &specs, Labels::Names).to_json()
        });
        to_python(py, &report)
    }

    fn __repr__(&self) -> String {
        format!("<dtype_lattice policy {}>", self.policy.name())
    }
}

fn table_types(
    py: Python<'_>,
    types: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<dtype_lattice::TypeSpec>> {
    let Some(types) = types.filter(|t| !t.is_none()) else {
        return Ok(dtype_lattice::design::table::types(false));
    };
    // A string is a sequence of one-letter names: refused, where it would be
    // read as the dtypes 'i', 'n', 't', '8'.
    if types.is_instance_of::<PyString>() || types.is_instance_of::<PyDict>() {
        return Err(PyTypeError::new_err(format!(
            "types takes a list of dtypes, not {}: write [{}] for one",
            short_repr(types),
            short_repr(types)
        )));
    }
    let items = types.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "types takes a list of dtypes (names, NumPy dtypes, scalar types), not {}",
            short_repr(types)
        ))
    })?;
    let known = known(py)?;
    items.map(|t| known.type_spec(&t?)).collect()
}

/// A keyword flag read as Python reads a condition, as JAX reads
/// `return_weak_type_flag`.
fn truthy(flag: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
    flag.map_or(Ok(false), |flag| flag.is_truthy())
}

/// The policy named `name` (any command-line name or alias) under the
/// settings given as keywords by their registry names (`x64=True`,
/// `explicit_x64_dtypes="allow"`): a flag takes a bool, a choice one of its
/// values' names.
#[pyfunction]
#[pyo3(signature = (name = "jax", **settings))]
pub(crate) fn policy(name: &str, settings: Option<&Bound<'_, PyDict>>) -> PyResult<Policy> {
    let named = registry::resolve(name).map_err(|err| PyValueError::new_err(err.to_string()))?;
    // A preset's settings are fixed into those the policy reports, so that
    // `Policy.settings` says what it was built with.
    let chosen = named
        .apply(read_settings(settings)?)
        .map_err(|err| PyValueError::new_err(err.to_string()))?;
    let policy = named.info().build(chosen);
    Ok(Policy {
        warns: policy.jax().is_some_and(|jax| jax.may_warn()),
        policy,
        settings: chosen,
        canonical_name: named.name(),
    })
}

/// Settings given by their registry names (`{"x64": True,
/// "explicit_x64_dtypes": "allow"}`), the rest at their defaults: a flag
/// takes a bool, a choice one of its values' names.
pub(crate) fn read_settings(settings: Option<&Bound<'_, PyDict>>) -> PyResult<Settings> {
    let mut chosen = Settings::default();
    for (key, value) in settings.into_iter().flatten() {
        let key: String = key.extract()?;
        let setting = registry::setting(&key).map_err(|err| {
            PyTypeError::new_err(format!(
                "policy() got an unexpected keyword argument: {err}"
            ))
        })?;
        let text = if setting.is_flag() {
            let flag = value.cast::<PyBool>().map_err(|_| {
                PyTypeError::new_err(format!(
                    "{key} takes True or False, not {}",
                    value.repr().map(|r| r.to_string()).unwrap_or_default()
                ))
            })?;
            if flag.is_true() { "true" } else { "false" }.to_owned()
        } else {
            value.extract::<String>().map_err(|_| {
                PyTypeError::new_err(format!("{key} takes one of {}", setting.values.join(", ")))
            })?
        };
        setting
            .set(&mut chosen, &text)
            .map_err(|err| PyValueError::new_err(err.to_string()))?;
    }
    Ok(chosen)
}
