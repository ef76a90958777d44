//! `Lattice`: a promotion graph from Python, checked, joined, explained,
//! audited and drawn by the library's design tools.

use dtype_lattice::design::audit::{Audit, Criterion};
use dtype_lattice::design::check::check;
use dtype_lattice::design::explain::Report;
use dtype_lattice::design::graph::Drawing;
use dtype_lattice::design::{lattice_file, Definition, DictSpec};
use dtype_lattice::engine::Bound;
use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// A promotion graph: nodes, edges and what each node stands for.
#[pyclass(frozen, module = "dtype_lattice")]
pub(crate) struct Lattice {
    definition: Definition,
}

fn value_error(err: impl ToString) -> PyErr {
    PyValueError::new_err(err.to_string())
}

impl Lattice {
    pub(crate) fn of_policy(policy: &dyn dtype_lattice::Policy) -> Option<Lattice> {
        Definition::from_policy(policy).map(|definition| Lattice { definition })
    }

    fn node(&self, label: &str) -> PyResult<usize> {
        self.definition
            .resolve(label)
            .map_err(|err| PyKeyError::new_err(err.to_string()))
    }

    fn labels(&self, nodes: &[usize]) -> Vec<String> {
        nodes
            .iter()
            .map(|&n| self.definition.nodes[n].label.clone())
            .collect()
    }

    fn drawing(&self, highlight: Option<(String, String)>) -> PyResult<Drawing> {
        let poset = self.definition.poset().map_err(value_error)?;
        let highlight = highlight.as_ref().map(|(a, b)| [a.as_str(), b.as_str()]);
        Drawing::new(&self.definition, &poset, highlight)
            .map_err(|err| PyKeyError::new_err(err.to_string()))
    }
}

#[pymethods]
impl Lattice {
    /// A graph from a dict of lists (node -> the nodes it promotes to).
    #[new]
    #[pyo3(signature = (edges, *, dtypes = None, weak = None, name = None))]
    fn new(
        edges: Vec<(String, Vec<String>)>,
        dtypes: Option<Vec<(String, String)>>,
        weak: Option<Vec<String>>,
        name: Option<String>,
    ) -> PyResult<Lattice> {
        let dtypes = dtypes.unwrap_or_default();
        let weak = weak.unwrap_or_default();
        let definition = Definition::from_dict(&DictSpec {
            name: name.as_deref().unwrap_or("lattice"),
            edges: &edges,
            dtypes: &dtypes,
            weak: &weak,
        })
        .map_err(value_error)?;
        Ok(Lattice { definition })
    }

    /// A lattice file, as the command line reads it.
    #[staticmethod]
    fn from_toml(path: std::path::PathBuf) -> PyResult<Lattice> {
        let definition = lattice_file::read(&path).map_err(value_error)?;
        Ok(Lattice { definition })
    }

    #[getter]
    fn name(&self) -> &str {
        &self.definition.name
    }

    /// The node labels, in node order.
    #[getter]
    fn nodes(&self) -> Vec<String> {
        self.definition
            .nodes
            .iter()
            .map(|n| n.label.clone())
            .collect()
    }

    /// The edges as `(from, to)` labels.
    #[getter]
    fn edges(&self) -> Vec<(String, String)> {
        let label = |n: usize| self.definition.nodes[n].label.clone();
        self.definition
            .edges
            .iter()
            .map(|&(a, b)| (label(a), label(b)))
            .collect()
    }

    /// What each node stands for: `{label: (dtype name or None, weak)}`.
    #[getter]
    fn meanings(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let out = PyDict::new(py);
        for node in &self.definition.nodes {
            out.set_item(&node.label, (node.dtype.map(|d| d.name()), node.weak))?;
        }
        Ok(out.into_any().unbind())
    }

    /// Whether the graph is a lattice, and why not: a dict with
    /// `is_lattice`, `cycle` (labels or None), `ambiguous` (the first
    /// `max_examples` pairs with their candidate joins), `ambiguous_count`,
    /// `no_upper_bound` (pairs), `no_upper_bound_count`, `commutative`,
    /// `associative`.
    #[pyo3(signature = (max_examples = 10))]
    fn check(&self, py: Python<'_>, max_examples: usize) -> PyResult<Py<PyAny>> {
        let report = check(&self.definition, max_examples).map_err(value_error)?;
        let out = PyDict::new(py);
        out.set_item("is_lattice", report.is_lattice())?;
        out.set_item("cycle", report.cycle.clone())?;
        let ambiguous = PyList::empty(py);
        for ambiguity in &report.ambiguous {
            let (a, b) = ambiguity.pair;
            ambiguous.append((self.labels(&[a, b]), self.labels(&ambiguity.candidates)))?;
        }
        out.set_item("ambiguous", ambiguous)?;
        out.set_item("ambiguous_count", report.ambiguous_count)?;
        let unbounded: Vec<Vec<String>> = report
            .no_upper_bound
            .iter()
            .map(|&(a, b)| self.labels(&[a, b]))
            .collect();
        out.set_item("no_upper_bound", unbounded)?;
        out.set_item("no_upper_bound_count", report.no_upper_bound_count)?;
        let laws = report.laws.as_ref();
        out.set_item("commutative", laws.map(|l| l.not_commutative.is_none()))?;
        out.set_item("associative", laws.map(|l| l.not_associative.is_none()))?;
        Ok(out.into_any().unbind())
    }

    /// The join of two nodes, or None where they have no upper bound; a
    /// `ValueError` naming the candidates where they have no least one.
    fn join(&self, a: &str, b: &str) -> PyResult<Option<String>> {
        let poset = self.definition.poset().map_err(value_error)?;
        let why = dtype_lattice::engine::Explanation::new(&poset, self.node(a)?, self.node(b)?);
        match why.bound {
            Bound::Least(node) => Ok(Some(self.labels(&[node]).remove(0))),
            Bound::None => Ok(None),
            Bound::Ambiguous(candidates) => Err(PyValueError::new_err(format!(
                "'{a}' and '{b}' have no least upper bound: {} are all minimal",
                self.labels(&candidates).join(", ")
            ))),
        }
    }

    /// Why `a` and `b` join where they do: a dict with each input's
    /// `upper_bounds`, the `common` ones, the `join` (None if none), the
    /// shortest `paths` to it and the `outcome` in a sentence.
    fn explain(&self, py: Python<'_>, a: &str, b: &str) -> PyResult<Py<PyAny>> {
        let poset = self.definition.poset().map_err(value_error)?;
        let report = Report::new(&self.definition, &poset, None, [a, b])
            .map_err(|err| PyKeyError::new_err(err.to_string()))?;
        let why = &report.why;
        let out = PyDict::new(py);
        out.set_item(
            "upper_bounds",
            why.upper_bounds.clone().map(|nodes| self.labels(&nodes)),
        )?;
        out.set_item("common", self.labels(&why.common))?;
        let join = match &why.bound {
            Bound::Least(node) => Some(self.labels(&[*node]).remove(0)),
            _ => None,
        };
        out.set_item("join", join)?;
        out.set_item(
            "paths",
            why.paths
                .clone()
                .map(|paths| paths.map(|path| self.labels(&path))),
        )?;
        out.set_item("outcome", report.outcome())?;
        out.set_item("error", report.error.as_ref().map(ToString::to_string))?;
        Ok(out.into_any().unbind())
    }

    /// The design notebook's criteria on every pair of the graph's dtypes:
    /// `{criterion: [(a, b, join)]}` plus `pairs`, `undefined`, `opaque`.
    fn audit(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let audit = Audit::of_definition(&self.definition).map_err(value_error)?;
        let out = PyDict::new(py);
        out.set_item("name", &audit.name)?;
        out.set_item("pairs", audit.pairs)?;
        out.set_item("undefined", audit.undefined.clone())?;
        out.set_item("opaque", audit.opaque.clone())?;
        for criterion in Criterion::ALL {
            out.set_item(criterion.name(), audit.findings(criterion).to_vec())?;
        }
        Ok(out.into_any().unbind())
    }

    /// The Hasse diagram as SVG, laid out by the library; `highlight` a
    /// pair of labels to mark with their paths and join.
    #[pyo3(signature = (highlight = None))]
    fn to_svg(&self, highlight: Option<(String, String)>) -> PyResult<String> {
        self.drawing(highlight)?.svg().map_err(value_error)
    }

    /// The Hasse diagram as Graphviz DOT.
    #[pyo3(signature = (highlight = None))]
    fn to_dot(&self, highlight: Option<(String, String)>) -> PyResult<String> {
        Ok(self.drawing(highlight)?.dot())
    }

    fn __len__(&self) -> usize {
        self.definition.nodes.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "<dtype_lattice.Lattice {:?}: {} nodes, {} edges>",
            self.definition.name,
            self.definition.nodes.len(),
            self.definition.edges.len()
        )
    }
}
