//! A promotion graph written as JAX's `dtypes.py` and the design notebook
//! write one: a dict from each node to the nodes it may promote to.
//!
//! The same meanings and the same limits as a [lattice
//! file](crate::design::lattice_file), for graphs that arrive as data (from
//! Python, from the explorer's editor) rather than as TOML text.
//!
//! ```
//! use dtype_lattice::design::{Definition, DictSpec};
//! use dtype_lattice::DType;
//!
//! let edges = [("bool", vec!["i*"]), ("i*", vec!["int8", "float32"]), ("int8", vec!["float32"])];
//! let definition = Definition::from_dict(&DictSpec {
//!     name: "tiny",
//!     edges: &edges,
//!     dtypes: &[],
//!     weak: &[],
//! })
//! .unwrap();
//! let labels: Vec<&str> = definition.nodes.iter().map(|n| n.label.as_str()).collect();
//! assert_eq!(labels, ["bool", "i*", "int8", "float32"]);
//! assert_eq!(definition.nodes[2].dtype, Some(DType::Int8));
//! assert!(definition.nodes[1].weak);
//!
//! let err = Definition::from_dict(&DictSpec {
//!     name: "bad",
//!     edges: &[("u8", vec!["u8"])],
//!     dtypes: &[],
//!     weak: &[],
//! })
//! .unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "'u8' promotes to itself: every type already does, remove 'u8' from its own list"
//! );
//! ```

use crate::design::builder::Builder;
use crate::design::limits::MAX_EDGES;
use crate::design::{Definition, DefinitionError, DefinitionErrorKind, Origin};

/// A graph as a dict of lists, with the meanings a lattice file can give.
#[derive(Clone, Copy, Debug)]
pub struct DictSpec<'a, S: AsRef<str>> {
    /// What the graph is called.
    pub name: &'a str,
    /// Each node and the nodes it may promote to, in the dict's order.
    pub edges: &'a [(S, Vec<S>)],
    /// Labels mapped to dtypes (any name [`DType::from_name`](crate::DType::from_name) reads).
    pub dtypes: &'a [(S, S)],
    /// Labels that are weak types, beyond `i*`, `f*` and `c*`.
    pub weak: &'a [S],
}

impl Definition {
    /// The graph a dict describes, with the meanings and limits of a
    /// lattice file ([`limits`](crate::design::limits)): nodes in order of
    /// first mention (keys and their lists, then `dtypes`, then `weak`).
    pub fn from_dict<S: AsRef<str>>(spec: &DictSpec<'_, S>) -> Result<Definition, DefinitionError> {
        let refused = |(kind, ())| DefinitionError::new(Origin::Dict, kind, None);
        let edge_count: usize = spec.edges.iter().map(|(_, to)| to.len()).sum();
        if edge_count > MAX_EDGES {
            return Err(refused((DefinitionErrorKind::TooManyEdges, ())));
        }
        let mut builder = Builder::new();
        let mentions = spec
            .edges
            .iter()
            .flat_map(|(from, to)| std::iter::once(from).chain(to))
            .chain(spec.dtypes.iter().map(|(label, _)| label))
            .chain(spec.weak);
        for label in mentions {
            builder.mention(label.as_ref(), &()).map_err(refused)?;
        }
        for label in spec.weak {
            let node = builder.mention(label.as_ref(), &()).map_err(refused)?;
            builder.weak(node);
        }
        for (label, name) in spec.dtypes {
            let node = builder.mention(label.as_ref(), &()).map_err(refused)?;
            builder.dtype(node, name.as_ref(), &()).map_err(refused)?;
        }
        for (from, targets) in spec.edges {
            let a = builder.mention(from.as_ref(), &()).map_err(refused)?;
            for to in targets {
                let b = builder.mention(to.as_ref(), &()).map_err(refused)?;
                builder.edge(a, b, &()).map_err(refused)?;
            }
        }
        builder.finish(spec.name.to_owned(), None).map_err(refused)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::limits::MAX_NODES;
    use crate::types::DType;

    fn spec<'a>(
        edges: &'a [(&'a str, Vec<&'a str>)],
        dtypes: &'a [(&'a str, &'a str)],
    ) -> DictSpec<'a, &'a str> {
        DictSpec {
            name: "t",
            edges,
            dtypes,
            weak: &[],
        }
    }

    #[test]
    fn refusals_name_the_label() {
        let err = Definition::from_dict(&spec(&[("a", vec!["b"])], &[("a", "unit8")])).unwrap_err();
        assert!(
            err.to_string().contains("'a'") && err.to_string().contains("uint8"),
            "{err}"
        );
        let err =
            Definition::from_dict(&spec(&[("a", vec!["b"])], &[("a", "int8"), ("b", "int8")]))
                .unwrap_err();
        assert_eq!(
            err.kind(),
            &DefinitionErrorKind::DuplicateDType {
                dtype: DType::Int8,
                first: "a".into(),
                second: "b".into(),
            }
        );
        let err = Definition::from_dict(&spec(&[("int8", vec![""])], &[])).unwrap_err();
        assert_eq!(err.kind(), &DefinitionErrorKind::EmptyLabel);
    }

    #[test]
    fn limits_are_those_of_lattice_files() {
        let labels: Vec<String> = (0..=MAX_NODES).map(|i| format!("n{i}")).collect();
        let edges: Vec<(&str, Vec<&str>)> = labels.iter().map(|l| (l.as_str(), vec![])).collect();
        let err = Definition::from_dict(&spec(&edges, &[])).unwrap_err();
        assert_eq!(err.kind(), &DefinitionErrorKind::TooManyNodes);
    }
}
