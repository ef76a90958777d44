//! What a report is about: a promotion graph (a lattice file's, a dict's,
//! or a built-in policy's lattice), or a policy defined by rules, which has
//! no graph. Every front end loads one and hands it to the reports.

use crate::design::Error;
use std::fmt;

use crate::design::Definition;
use crate::policy::Policy;
use crate::registry;

/// A graph or a policy's rules.
///
/// ```
/// use dtype_lattice::design::Subject;
/// use dtype_lattice::registry::{by_name, Settings};
///
/// let jax = Subject::of_policy(by_name("jax", Settings::default()).unwrap());
/// assert_eq!(jax.definition().unwrap().nodes.len(), 35);
/// let numpy = Subject::of_policy(by_name("numpy", Settings::default()).unwrap());
/// assert_eq!(
///     numpy.definition().unwrap_err().to_string(),
///     "numpy is defined by rules, not by a lattice, so it has no graph \
///      (policies with a graph: jax, array-api, torch, tensorflow-all, keras, tinygrad)"
/// );
/// ```
pub enum Subject {
    /// A graph: a lattice file's or dict's, or the lattice of a policy.
    Graph {
        /// The graph.
        definition: Definition,
        /// The policy, when the graph is a built-in policy's.
        policy: Option<Box<dyn Policy>>,
    },
    /// A policy defined by rules, not a lattice.
    Rules(Box<dyn Policy>),
}

impl fmt::Debug for Subject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Subject::Graph { definition, .. } => write!(f, "Subject::Graph({})", definition.name),
            Subject::Rules(policy) => write!(f, "Subject::Rules({})", policy.name()),
        }
    }
}

impl Subject {
    /// A built-in policy as a subject: its lattice's graph, or its rules.
    pub fn of_policy(policy: Box<dyn Policy>) -> Subject {
        match Definition::from_policy(policy.as_ref()) {
            Some(definition) => Subject::Graph {
                definition,
                policy: Some(policy),
            },
            None => Subject::Rules(policy),
        }
    }

    /// A graph of no policy (a lattice file's or a dict's).
    pub fn of_definition(definition: Definition) -> Subject {
        Subject::Graph {
            definition,
            policy: None,
        }
    }

    /// Its name in reports: the graph's `name`, or the policy's name with
    /// its settings.
    pub fn name(&self) -> String {
        match self {
            Subject::Graph { definition, .. } => definition.name.clone(),
            Subject::Rules(policy) => policy.name(),
        }
    }

    /// The graph, or why there is none.
    pub fn definition(&self) -> Result<&Definition, Error> {
        match self {
            Subject::Graph { definition, .. } => Ok(definition),
            Subject::Rules(policy) => Err(Error::NoGraph(NoGraph {
                policy: policy.name(),
            })),
        }
    }

    /// The built-in policy, when the subject is one.
    pub fn policy(&self) -> Option<&dyn Policy> {
        match self {
            Subject::Graph { policy, .. } => policy.as_deref(),
            Subject::Rules(policy) => Some(policy.as_ref()),
        }
    }
}

/// A policy defined by rules has no graph to draw or explain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoGraph {
    policy: String,
}

impl NoGraph {
    /// The policy's name, with its settings.
    pub fn policy(&self) -> &str {
        &self.policy
    }
}

impl fmt::Display for NoGraph {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} is defined by rules, not by a lattice, so it has no graph (policies with a \
             graph: {})",
            self.policy,
            registry::with_graph().join(", ")
        )
    }
}

impl std::error::Error for NoGraph {}
