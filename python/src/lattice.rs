//! `Lattice`: a promotion graph from Python, checked, joined, explained,
//! audited and drawn by the library's design tools.
//!
//! The graph is validated once, when the `Lattice` is made, and its
//! partial order kept: joins, explanations and drawings then start from it
//! instead of building it again. Reports are the library's JSON, as the
//! command line prints them; the analyses that take long on large graphs
//! (check, audit, drawing) run without holding the GIL.

use dtype_lattice::design::audit::Audit;
use dtype_lattice::design::check::{Check, EXAMPLES, MAX_EXAMPLES};
use dtype_lattice::design::explain::Report;
use dtype_lattice::design::graph::Drawing;
use dtype_lattice::design::{lattice_file, Definition, DictSpec, Subject};
use dtype_lattice::engine::{Bound as Join, Explanation, GraphError, Poset};
use pyo3::exceptions::{PyKeyError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt};

use crate::convert::short_repr;
use crate::json::to_python;

/// A promotion graph: nodes, edges and what each node stands for.
#[pyclass(frozen, module = "dtype_lattice")]
pub(crate) struct Lattice {
    /// The graph, as every report takes it.
    subject: Subject,
    /// Its partial order, or why it has none (a cycle).
    poset: Result<Poset, GraphError>,
}

fn value_error(err: impl ToString) -> PyErr {
    PyValueError::new_err(err.to_string())
}

impl Lattice {
    fn of_definition(definition: Definition) -> Lattice {
        let poset = definition.poset();
        Lattice {
            subject: Subject::of_definition(definition),
            poset,
        }
    }

    pub(crate) fn of_policy(policy: &dyn dtype_lattice::Policy) -> Option<Lattice> {
        Definition::from_policy(policy).map(Lattice::of_definition)
    }

    fn definition(&self) -> &Definition {
        self.subject
            .definition()
            .expect("a Lattice is made from a graph")
    }

    fn poset(&self) -> PyResult<&Poset> {
        self.poset.as_ref().map_err(value_error)
    }

    fn label(&self, node: usize) -> String {
        self.definition().nodes[node].label.clone()
    }

    /// Laid out without the GIL: the transitive reduction alone is cubic in
    /// the nodes in the worst case.
    fn drawing(&self, py: Python<'_>, highlight: Option<(String, String)>) -> PyResult<Drawing> {
        let (definition, poset) = (self.definition(), self.poset()?);
        py.detach(|| {
            let highlight = highlight.as_ref().map(|(a, b)| [a.as_str(), b.as_str()]);
            Drawing::new(definition, poset, highlight)
        })
        .map_err(|err| PyKeyError::new_err(err.to_string()))
    }
}

/// A count argument (`max_examples`) as a whole number from 0 to `most`,
/// or an error naming the argument, what it got and what to give.
fn count_argument(name: &str, value: &Bound<'_, PyAny>, most: usize) -> PyResult<usize> {
    let kind = value
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default();
    let too_large = || {
        PyValueError::new_err(format!(
            "{name}={} is more than {most}, the most a check lists of each finding (the counts \
             are always exact): give at most {most}",
            short_repr(value)
        ))
    };
    // `True` is an int to Python, and `2.0` would be truncated: neither is
    // read as a count. NumPy's integers read as ints through `__index__`.
    let number = match value.extract::<i128>() {
        _ if value.is_instance_of::<PyBool>() || value.is_instance_of::<PyFloat>() => None,
        Ok(number) => Some(number),
        Err(_) if value.is_instance_of::<PyInt>() && value.gt(0)? => return Err(too_large()),
        Err(_) if value.is_instance_of::<PyInt>() => Some(i128::MIN),
        Err(_) => None,
    };
    let Some(number) = number else {
        return Err(PyTypeError::new_err(format!(
            "{name} takes a whole number from 0 to {most}, not {} (of type {kind}): give an int \
             such as {name}=10",
            short_repr(value)
        )));
    };
    if number < 0 {
        return Err(PyValueError::new_err(format!(
            "{name}={} is negative: give a number from 0 (the counts alone) to {most}",
            short_repr(value)
        )));
    }
    match usize::try_from(number) {
        Ok(count) if count <= most => Ok(count),
        _ => Err(too_large()),
    }
}

#[pymethods]
impl Lattice {
    /// A graph from a dict of lists (node -> the nodes it promotes to).
    #[new]
    #[pyo3(signature = (edges, *, dtypes = None, weak = None, name = None))]
    fn new(
        py: Python<'_>,
        edges: Vec<(String, Vec<String>)>,
        dtypes: Option<Vec<(String, String)>>,
        weak: Option<Vec<String>>,
        name: Option<String>,
    ) -> PyResult<Lattice> {
        let dtypes = dtypes.unwrap_or_default();
        let weak = weak.unwrap_or_default();
        let name = name.unwrap_or_else(|| "lattice".to_owned());
        py.detach(|| {
            let definition = Definition::from_dict(&DictSpec {
                name: &name,
                edges: &edges,
                dtypes: &dtypes,
                weak: &weak,
            })
            .map_err(|err| err.to_string())?;
            Ok::<_, String>(Lattice::of_definition(definition))
        })
        .map_err(PyValueError::new_err)
    }

    /// A lattice file, as the command line reads it.
    #[staticmethod]
    fn from_toml(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Lattice> {
        py.detach(|| lattice_file::read(&path).map(Lattice::of_definition))
            .map_err(value_error)
    }

    #[getter]
    fn name(&self) -> &str {
        &self.definition().name
    }

    /// The node labels, in node order.
    #[getter]
    fn nodes(&self) -> Vec<String> {
        let nodes = &self.definition().nodes;
        nodes.iter().map(|n| n.label.clone()).collect()
    }

    /// The edges as `(from, to)` labels.
    #[getter]
    fn edges(&self) -> Vec<(String, String)> {
        let edges = &self.definition().edges;
        edges
            .iter()
            .map(|&(a, b)| (self.label(a), self.label(b)))
            .collect()
    }

    /// What each node stands for: `{label: (dtype name or None, weak)}`.
    #[getter]
    fn meanings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        for node in &self.definition().nodes {
            out.set_item(&node.label, (node.dtype.map(|d| d.name()), node.weak))?;
        }
        Ok(out)
    }

    /// Whether the graph is a lattice, and why not: `check --format json`
    /// with the first `max_examples` pairs of each kind listed (at most
    /// 1,000; more is a `ValueError`).
    #[pyo3(signature = (max_examples = None))]
    fn check(
        &self,
        py: Python<'_>,
        max_examples: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let max_examples = match max_examples {
            Some(value) => count_argument("max_examples", value, MAX_EXAMPLES)?,
            None => EXAMPLES,
        };
        let definition = self.definition();
        let report = py
            .detach(|| Check::new(definition, max_examples).map(|c| c.to_json(definition)))
            .map_err(value_error)?;
        to_python(py, &report)
    }

    /// The join of two nodes, or None where they have no upper bound; a
    /// `ValueError` naming the candidates where they have no least one.
    fn join(&self, py: Python<'_>, a: &str, b: &str) -> PyResult<Option<String>> {
        let definition = self.definition();
        let node = |label: &str| {
            definition
                .resolve(label)
                .map_err(|err| PyKeyError::new_err(err.to_string()))
        };
        let (poset, a_node, b_node) = (self.poset()?, node(a)?, node(b)?);
        let why = py.detach(|| Explanation::new(poset, a_node, b_node));
        match why.bound {
            Join::Least(join) => Ok(Some(self.label(join))),
            Join::None => Ok(None),
            Join::Ambiguous(candidates) => {
                let labels: Vec<String> = candidates.into_iter().map(|n| self.label(n)).collect();
                Err(PyValueError::new_err(format!(
                    "'{a}' and '{b}' have no least upper bound: {} are all minimal",
                    labels.join(", ")
                )))
            }
        }
    }

    /// Why `a` and `b` join where they do: `explain --format json`.
    fn explain(&self, py: Python<'_>, a: &str, b: &str) -> PyResult<Py<PyAny>> {
        let (definition, poset) = (self.definition(), self.poset()?);
        let report = py
            .detach(|| Report::new(definition, poset, None, [a, b]).map(|r| r.to_json()))
            .map_err(|err| PyKeyError::new_err(err.to_string()))?;
        to_python(py, &report)
    }

    /// The design notebook's criteria on every pair of the graph's dtypes:
    /// `audit --format json`.
    fn audit(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let subject = &self.subject;
        let report = py
            .detach(|| Audit::new(subject).map(|audit| audit.to_json()))
            .map_err(value_error)?;
        to_python(py, &report)
    }

    /// The Hasse diagram as SVG, laid out by the library; `highlight` a
    /// pair of labels to mark with their paths and join.
    #[pyo3(signature = (highlight = None))]
    fn to_svg(&self, py: Python<'_>, highlight: Option<(String, String)>) -> PyResult<String> {
        let drawing = self.drawing(py, highlight)?;
        py.detach(|| drawing.svg()).map_err(value_error)
    }

    /// The Hasse diagram as Graphviz DOT.
    #[pyo3(signature = (highlight = None))]
    fn to_dot(&self, py: Python<'_>, highlight: Option<(String, String)>) -> PyResult<String> {
        let drawing = self.drawing(py, highlight)?;
        Ok(py.detach(|| drawing.dot()))
    }

    fn __len__(&self) -> usize {
        self.definition().nodes.len()
    }

    fn __repr__(&self) -> String {
        let definition = self.definition();
        format!(
            "<dtype_lattice.Lattice {:?}: {} nodes, {} edges>",
            definition.name,
            definition.nodes.len(),
            definition.edges.len()
        )
    }
}
