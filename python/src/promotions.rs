//! The report of a program's promotions (`dtype_lattice.record`): the
//! calls the Python recorder saw, read into the library's
//! [`Promotions`], which judges, compares, sorts, filters and renders them.

use dtype_lattice::design::audit::Criterion;
use dtype_lattice::design::promotions::{Call, Filter, Promotions, Refusal, Site};
use dtype_lattice::registry::{policy_info, PolicySpec};
use dtype_lattice::Typed;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::convert::{known, python_value};
use crate::json::to_python;
use crate::policy::read_settings;

/// A recorded call as the recorder hands it over: `(file, line, function,
/// code, operation, operands, result, refusal, settings, count, keywords,
/// (framework, zero_dim, values))`, the values those of the operands that
/// were Python scalars (`None` elsewhere; empty where none were read),
/// the operands and the result as `(dtype, weak)`, the result `None` where
/// JAX refused (then `refusal` is `(class, message)`), the settings a dict
/// by registry names, the keywords a reduction's `(dtype, promote_integers)`
/// (each `None` where not given).
type RawCall<'py> = (
    String,
    u32,
    String,
    String,
    String,
    Vec<(Bound<'py, PyAny>, bool)>,
    Option<(Bound<'py, PyAny>, bool)>,
    Option<(String, String)>,
    Bound<'py, PyDict>,
    u64,
    (Option<Bound<'py, PyAny>>, Option<bool>),
    (String, Vec<usize>, Vec<Option<Bound<'py, PyAny>>>),
);

fn read_call(py: Python<'_>, raw: RawCall<'_>) -> PyResult<Call> {
    let (
        file,
        line,
        function,
        code,
        operation,
        operands,
        result,
        refusal,
        settings,
        count,
        keywords,
        (framework, zero_dim, values),
    ) = raw;
    let framework =
        policy_info(&framework).map_err(|err| PyValueError::new_err(err.to_string()))?;
    let known = known(py)?;
    let typed = |(dtype, weak): &(Bound<'_, PyAny>, bool)| -> PyResult<Typed> {
        Ok(Typed {
            dtype: known.dtype(dtype)?,
            weak: *weak,
        })
    };
    let result = match (result, refusal) {
        (Some(result), _) => Ok(typed(&result)?),
        (None, Some((error, message))) => Err(Refusal { error, message }),
        (None, None) => {
            return Err(PyValueError::new_err(format!(
                "the call of {operation} at {file}:{line} has neither a result nor a refusal"
            )))
        }
    };
    let site = Site {
        file,
        line,
        function,
        code,
    };
    let operands = operands.iter().map(typed).collect::<PyResult<_>>()?;
    let settings = read_settings(Some(&settings))?;
    let dtype = keywords.0.map(|d| known.dtype(&d)).transpose()?;
    let mut call = Call::new(site, &operation, operands, result, settings)
        .with_keywords(dtype, keywords.1)
        .recorded_by(framework, zero_dim)
        .with_values(
            values
                .iter()
                .map(|value| match value {
                    Some(value) => python_value(value),
                    None => Ok(None),
                })
                .collect::<PyResult<_>>()?,
        );
    call.count = count;
    Ok(call)
}

fn parse_spec(text: &str) -> PyResult<PolicySpec> {
    text.parse()
        .map_err(|err: dtype_lattice::registry::SpecError| PyValueError::new_err(err.to_string()))
}

/// The policies a comma-separated list names (`"numpy,torch,strict"`), in
/// full form: the library's one parser of them.
#[pyfunction]
pub(crate) fn parse_policy_list(text: &str) -> PyResult<Vec<String>> {
    let specs =
        PolicySpec::parse_list(text).map_err(|err| PyValueError::new_err(err.to_string()))?;
    Ok(specs.iter().map(ToString::to_string).collect())
}

/// One policy spec in full form (`"np"` is `"numpy"`, `"x64"` is
/// `"x64=true"`), or `ValueError` naming what is wrong.
#[pyfunction]
pub(crate) fn parse_policy_spec(text: &str) -> PyResult<String> {
    Ok(parse_spec(text)?.to_string())
}

/// A program's promotions, judged and sorted by the library.
#[pyclass(frozen, module = "dtype_lattice")]
pub(crate) struct PromotionReport {
    report: Promotions,
}

/// The report of `calls` compared with the policies `compare` names, with
/// `compiled` calls traced by `torch.compile` (counted, not recorded).
#[pyfunction]
pub(crate) fn promotions(
    py: Python<'_>,
    calls: Vec<Bound<'_, PyTuple>>,
    compare: Vec<String>,
    compiled: u64,
) -> PyResult<PromotionReport> {
    let specs = compare
        .iter()
        .map(|text| parse_spec(text))
        .collect::<PyResult<Vec<_>>>()?;
    let calls = calls
        .into_iter()
        .map(|raw| read_call(py, raw.extract()?))
        .collect::<PyResult<Vec<_>>>()?;
    let report = py.detach(|| Promotions::new(calls, &specs).with_compiled(compiled));
    Ok(PromotionReport { report })
}

#[pymethods]
impl PromotionReport {
    /// The entries the filter keeps (see `Filter` in the library): only
    /// those a compared policy answers otherwise (`differences`), only
    /// those violating `criterion` (its name), only sites under `under`
    /// (a path), only `implicit` promotions; `noops` keeps the entries that
    /// promote nothing and differ nowhere.
    #[pyo3(signature = (*, differences = false, criterion = None, under = None, implicit = false, noops = false))]
    fn filter(
        &self,
        differences: bool,
        criterion: Option<&str>,
        under: Option<String>,
        implicit: bool,
        noops: bool,
    ) -> PyResult<PromotionReport> {
        let criterion = criterion
            .map(|name| name.parse::<Criterion>().map_err(PyValueError::new_err))
            .transpose()?;
        let filter = Filter {
            differences,
            criterion,
            under,
            implicit,
            noops,
        };
        Ok(PromotionReport {
            report: self.report.filter(&filter),
        })
    }

    /// The report as the library's JSON, as Python objects.
    fn to_json(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_python(py, &self.report.to_json())
    }

    /// The report as text.
    fn text(&self) -> String {
        self.report.to_string()
    }

    fn __len__(&self) -> usize {
        self.report.entries.len()
    }
}
