//! `check`: is the subject a (partial) lattice, and if not, why not.
//!
//! For a graph: nodes and edges, a cycle if there is one, every pair with
//! several minimal common upper bounds, the pairs with no upper bound (a
//! partial lattice allows them), and the laws of the join verified on its
//! table ([`dtype_lattice::design::check`]). For a policy defined by rules:
//! that it is not a lattice, with the triples where grouping matters.

use std::io::Write;

use dtype_lattice::design::check::{Check, RulesCheck};
use dtype_lattice::design::Definition;
use dtype_lattice::Policy;

use dtype_lattice::design::Subject;

use crate::subject::{wrap, Format};
use crate::Failure;

/// Prints the check; a subject that is not a lattice is `Failure::NotALattice`
/// (exit 1) after the report.
pub fn run(
    subject: &Subject,
    format: Format,
    examples: usize,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let (report, lattice) = match subject {
        Subject::Graph { definition, .. } => {
            let check =
                Check::new(definition, examples).map_err(|err| Failure::Usage(err.to_string()))?;
            (graph_report(definition, &check, format), check.is_lattice())
        }
        Subject::Rules(policy) => (rules_report(policy.as_ref(), format, examples), false),
    };
    // Labels are the user's: no raw control character reaches a terminal
    // (JSON has none; text keeps its line breaks).
    out.write_all(crate::escape_controls(&report, true).as_bytes())?;
    out.flush()?;
    if lattice {
        Ok(())
    } else {
        Err(Failure::NotALattice(None))
    }
}

fn graph_report(definition: &Definition, check: &Check, format: Format) -> String {
    let label = |node: usize| definition.nodes[node].label.as_str();
    match format {
        Format::Json => format!("{}\n", check.to_json(definition)),
        Format::Text => {
            let mut text = format!(
                "{}: {} nodes, {} edges\n",
                definition.name,
                check.nodes,
                check.edges.len()
            );
            let braces = |p: &(usize, usize)| format!("{{{}, {}}}", label(p.0), label(p.1));
            if let Some(cycle) = &check.cycle {
                // Written closed: back to the first node.
                let closed: Vec<&str> = cycle
                    .iter()
                    .chain(cycle.first())
                    .map(String::as_str)
                    .collect();
                text += &format!(
                    "cycle: {}\nnot a lattice: promotion must go one way; remove an edge of the cycle\n",
                    closed.join(" -> ")
                );
                return text;
            }
            text += "cycle: none\n";
            text += &format!("ambiguous pairs: {}\n", check.ambiguous_count);
            for ambiguity in &check.ambiguous {
                let candidates: Vec<&str> =
                    ambiguity.candidates.iter().map(|&c| label(c)).collect();
                text += &format!(
                    "  {}: minimal common upper bounds {}{}, none least\n",
                    braces(&ambiguity.pair),
                    candidates.join(", "),
                    ambiguity.more()
                );
            }
            text += &more(check.ambiguous.len(), check.ambiguous_count);
            text += &format!(
                "pairs with no upper bound: {}\n",
                check.no_upper_bound_count
            );
            let pairs: Vec<String> = check.no_upper_bound.iter().map(braces).collect();
            text += &wrap(&pairs, 2, 100);
            text += &more(check.no_upper_bound.len(), check.no_upper_bound_count);
            if let Some(laws) = &check.laws {
                text += &format!(
                    "laws: checked on {} ordered pairs and {} unordered triples{}: ",
                    laws.pairs,
                    laws.triples,
                    if laws.exhaustive {
                        " (all)"
                    } else {
                        " (a sample: the graph is large)"
                    }
                );
                text += &match (laws.not_commutative, laws.not_associative) {
                    (None, None) => {
                        "join is commutative and associative where defined\n".to_owned()
                    }
                    (Some((a, b)), _) => format!(
                        "join is not commutative: {} ∨ {} ≠ {} ∨ {}\n",
                        label(a),
                        label(b),
                        label(b),
                        label(a)
                    ),
                    (None, Some([a, b, c])) => format!(
                        "join is not associative: ({0} ∨ {1}) ∨ {2} ≠ {0} ∨ ({1} ∨ {2})\n",
                        label(a),
                        label(b),
                        label(c)
                    ),
                };
            }
            text += match (check.is_lattice(), check.no_upper_bound_count == 0) {
                (true, true) => "a lattice\n",
                (true, false) => {
                    "a partial lattice: every pair with an upper bound has a least one\n"
                }
                (false, _) => "not a lattice\n",
            };
            text
        }
    }
}

/// The line that says how many listed findings were left out, if any.
fn more(listed: usize, count: usize) -> String {
    if listed < count {
        format!(
            "  ... and {} more (--max-examples N lists more)\n",
            count - listed
        )
    } else {
        String::new()
    }
}

fn rules_report(policy: &dyn Policy, format: Format, examples: usize) -> String {
    let name = policy.name();
    let found = RulesCheck::new(policy);
    let (count, triples, example) = (
        found.non_associative.len(),
        found.triples(),
        found.example(),
    );
    match format {
        Format::Json => format!("{}\n", found.to_json(&name, examples)),
        Format::Text => {
            let mut text = if found.left_out.is_empty() {
                format!(
                    "{name}: defined by rules, not by a lattice ({} types: the dtypes and Python's int, float, complex)\n",
                    found.types.len()
                )
            } else {
                let names: Vec<String> = found.left_out.iter().map(ToString::to_string).collect();
                format!(
                    "{name}: defined by rules, not by a lattice ({} types: those of the dtypes and Python's int, float, complex that promote at all)\n\
                     left out, promoting with nothing, not even themselves ({}): {}\n",
                    found.types.len(),
                    names.len(),
                    names.join(", ")
                )
            };
            text += &format!("pairs with no promotion: {}\n", found.no_upper_bound.len());
            match found.not_commutative.first() {
                Some(&pair) => {
                    text += &format!(
                        "not commutative on {} of {} ordered pairs, e.g. {}\n",
                        2 * found.not_commutative.len(),
                        found.pairs(),
                        found.describe_pair(policy, pair)
                    );
                }
                None => text += &format!("commutative on all {} ordered pairs\n", found.pairs()),
            }
            match example {
                Some(example) => {
                    text += &format!(
                        "not associative on {count} of {triples} ordered triples, e.g. {example}\n"
                    );
                }
                None => text += &format!("associative on all {triples} ordered triples\n"),
            }
            text += "not a lattice\n";
            text
        }
    }
}
