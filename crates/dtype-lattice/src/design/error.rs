//! The one error type of the design tools.
//!
//! Each tool refuses for a reason of its own (a definition that is not a
//! graph, an input that names no node, a drawing too large to lay out),
//! and each reason keeps its own type with what a caller may want to read
//! from it; [`Error`] gathers them, so that code calling several tools
//! carries one error and `?` works across them.

use std::fmt;

use crate::design::explain::UnknownNode;
use crate::design::graph::{BadPair, TooLarge};
use crate::design::{DefinitionError, NoGraph};

/// Why a design tool refused.
///
/// ```
/// use dtype_lattice::design::{self, Subject};
/// use dtype_lattice::registry::{by_name, Settings};
///
/// fn first_label(subject: &Subject) -> Result<String, design::Error> {
///     let definition = subject.definition()?;
///     let node = definition.resolve("int8")?;
///     Ok(definition.nodes[node].label.clone())
/// }
/// let numpy = Subject::of_policy(by_name("numpy", Settings::default()).unwrap());
/// let err = first_label(&numpy).unwrap_err();
/// assert!(matches!(err, design::Error::NoGraph(_)));
/// assert!(err.to_string().starts_with("numpy is defined by rules"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A graph's definition (a lattice file, a dict) is refused.
    Definition(DefinitionError),
    /// An input names no node of the graph.
    UnknownNode(UnknownNode),
    /// A highlight that is not two types around one comma.
    BadPair(BadPair),
    /// A policy defined by rules has no graph to draw or explain.
    NoGraph(NoGraph),
    /// A drawing would take more vertices than are laid out.
    TooLarge(TooLarge),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Definition(err) => err.fmt(f),
            Error::UnknownNode(err) => err.fmt(f),
            Error::BadPair(err) => err.fmt(f),
            Error::NoGraph(err) => err.fmt(f),
            Error::TooLarge(err) => err.fmt(f),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Definition(err) => Some(err),
            Error::UnknownNode(err) => Some(err),
            Error::BadPair(err) => Some(err),
            Error::NoGraph(err) => Some(err),
            Error::TooLarge(err) => Some(err),
        }
    }
}

macro_rules! from {
    ($($variant:ident($reason:ty)),*) => {
        $(impl From<$reason> for Error {
            fn from(err: $reason) -> Error {
                Error::$variant(err)
            }
        })*
    };
}

from!(
    Definition(DefinitionError),
    UnknownNode(UnknownNode),
    BadPair(BadPair),
    NoGraph(NoGraph),
    TooLarge(TooLarge)
);
