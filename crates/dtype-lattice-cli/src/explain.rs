//! `explain A B`: the reasoning behind one promotion, as text or JSON.

use serde_json::{json, Value};

use dtype_lattice::definition::Definition;
use dtype_lattice::explain::{Explanation, UnknownNode};
use dtype_lattice::lattice::{Bound, Node, Poset};
use dtype_lattice::{NoPathReason, Policy, PromotionError, TypeList};

use crate::Failure;

/// Output format of `explain`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Lines for people.
    Text,
    /// One JSON object.
    Json,
}

/// An explanation with the labels to print it and, for a failed promotion,
/// the error the rules give.
pub struct Report {
    name: String,
    /// The inputs as given.
    inputs: [String; 2],
    labels: Vec<String>,
    why: Explanation,
    error: Option<PromotionError>,
}

impl Report {
    /// Explains `inputs` (node labels, dtype names or Python types) in
    /// `definition`, validated as `poset`. With the `policy` the definition
    /// came from, a failed promotion carries that policy's own error.
    pub fn new(
        definition: &Definition,
        poset: &Poset,
        policy: Option<&dyn Policy>,
        inputs: [&str; 2],
    ) -> Result<Report, UnknownNode> {
        let [a, b] = [
            definition.resolve(inputs[0])?,
            definition.resolve(inputs[1])?,
        ];
        let why = Explanation::new(poset, a, b);
        let error = match why.bound {
            Bound::None => no_path_error(definition, policy, a, b),
            Bound::Least(_) | Bound::Ambiguous(_) => None,
        };
        Ok(Report {
            name: definition.name.clone(),
            inputs: inputs.map(str::to_owned),
            labels: poset.labels().to_vec(),
            why,
            error,
        })
    }

    /// How the command ends: `None` when the pair has a join; else the
    /// promotion error (exit 1, as `promote` reports it) or, for a pair
    /// without one, the reason.
    pub fn failure(&self) -> Option<Failure> {
        match (&self.why.bound, &self.error) {
            (Bound::Least(_), _) => None,
            (_, Some(err)) => Some(Failure::Promotion(err.clone())),
            (_, None) => Some(Failure::NotALattice(Some(self.outcome_text()))),
        }
    }

    fn label(&self, node: Node) -> &str {
        &self.labels[node]
    }

    fn labels_of(&self, nodes: &[Node]) -> Vec<&str> {
        nodes.iter().map(|&n| self.label(n)).collect()
    }

    fn outcome_text(&self) -> String {
        let [a, b] = self.why.inputs.map(|n| self.label(n));
        match &self.why.bound {
            Bound::Least(join) => format!("join: {}", self.label(*join)),
            Bound::None => format!("no join: {a} and {b} have no common upper bound"),
            Bound::Ambiguous(candidates) => format!(
                "no join: {{{a}, {b}}} has {} minimal common upper bounds ({}) and no least one, so {} is not a lattice",
                candidates.len(),
                self.labels_of(candidates).join(", "),
                self.name
            ),
        }
    }

    /// The report in `format`.
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Text => self.text(),
            Format::Json => {
                let mut text = serde_json::to_string_pretty(&self.json()).unwrap_or_default();
                text.push('\n');
                text
            }
        }
    }

    fn text(&self) -> String {
        let [a, b] = self.why.inputs.map(|n| self.label(n));
        let mut lines = vec![format!("{a} with {b} in {}", self.name)];
        for (input, bounds) in self.why.inputs.iter().zip(&self.why.upper_bounds) {
            lines.push(list(
                &format!("upper bounds of {}", self.label(*input)),
                &self.labels_of(bounds),
            ));
        }
        lines.push(list(
            "common upper bounds",
            &self.labels_of(&self.why.common),
        ));
        lines.push(self.outcome_text());
        if let Some(paths) = &self.why.paths {
            for path in paths {
                lines.push(format!("    {}", self.labels_of(path).join(" -> ")));
            }
        }
        if let Some(err) = &self.error {
            let family = family(err).map_or(String::new(), |(_, text)| format!(" ({text})"));
            lines.push(format!("error family: {}{family}", err.python_type()));
        }
        lines.join("\n") + "\n"
    }

    fn json(&self) -> Value {
        let names = |nodes: &[Node]| json!(self.labels_of(nodes));
        let (outcome, join, candidates) = match &self.why.bound {
            Bound::Least(join) => ("join", json!(self.label(*join)), json!([])),
            Bound::None => ("no_upper_bound", Value::Null, json!([])),
            Bound::Ambiguous(candidates) => ("ambiguous", Value::Null, names(candidates)),
        };
        let inputs: Vec<Value> = (0..2)
            .map(|i| {
                json!({
                    "input": self.inputs[i],
                    "node": self.label(self.why.inputs[i]),
                    "upper_bounds": names(&self.why.upper_bounds[i]),
                    "path": self.why.paths.as_ref().map(|paths| names(&paths[i])),
                })
            })
            .collect();
        let error = self.error.as_ref().map(|err| {
            json!({
                "type": err.python_type(),
                "family": family(err).map(|(name, _)| name),
                "message": err.to_string(),
            })
        });
        json!({
            "name": self.name,
            "inputs": inputs,
            "common_upper_bounds": names(&self.why.common),
            "outcome": outcome,
            "join": join,
            "candidates": candidates,
            "error": error,
        })
    }
}

/// The error for a pair with no common upper bound: the policy's own, or
/// else the one JAX's rules give for those types (standard promotion);
/// none when a node has no type (an opaque node of a sketch).
fn no_path_error(
    definition: &Definition,
    policy: Option<&dyn Policy>,
    a: Node,
    b: Node,
) -> Option<PromotionError> {
    let (x, y) = (definition.type_spec(a)?, definition.type_spec(b)?);
    match policy {
        Some(policy) => policy.promote_types(x, y).err(),
        None => {
            let inputs: TypeList = [x, y].into_iter().collect();
            let reason = NoPathReason::for_inputs(false, &inputs);
            Some(PromotionError::NoPromotionPath { inputs, reason })
        }
    }
}

/// JAX's message family of an error: a short name and what it covers.
fn family(err: &PromotionError) -> Option<(&'static str, &'static str)> {
    let PromotionError::NoPromotionPath { reason, .. } = err else {
        return None;
    };
    Some(match reason {
        NoPathReason::Strict => (
            "strict",
            "strict promotion allows only weak types to promote",
        ),
        NoPathReason::Float8 => ("float8", "8-bit floats do not promote implicitly"),
        NoPathReason::Float6 => ("float6", "6-bit floats do not promote implicitly"),
        NoPathReason::Float4 => ("float4", "4-bit floats do not promote implicitly"),
        NoPathReason::SubByteInteger => (
            "sub_byte_integer",
            "1-, 2- and 4-bit integers do not promote implicitly",
        ),
        NoPathReason::General => ("general", "no implicit promotion path"),
    })
}

/// `title (count): a, b, c`, wrapped at 80 columns under an indent.
fn list(title: &str, items: &[&str]) -> String {
    if items.is_empty() {
        return format!("{title}: none");
    }
    let mut out = format!("{title} ({}):", items.len());
    let mut line = String::from("   ");
    for (i, item) in items.iter().enumerate() {
        let piece = if i + 1 < items.len() {
            format!(" {item},")
        } else {
            format!(" {item}")
        };
        if line.len() + piece.len() > 80 && line.len() > 3 {
            out.push('\n');
            out.push_str(&line);
            line = String::from("   ");
        }
        line.push_str(&piece);
    }
    out.push('\n');
    out.push_str(&line);
    out
}
