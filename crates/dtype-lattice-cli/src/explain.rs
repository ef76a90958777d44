//! `explain A B`: the reasoning behind one promotion
//! ([`dtype_lattice::design::explain`]), as text or JSON.

use dtype_lattice::design::explain::{Report, RulesReport};
use dtype_lattice::engine::Bound;
use dtype_lattice::PromotionError;

use crate::failure::escape_controls;
use crate::Failure;

/// Output format of `explain`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Lines for people.
    Text,
    /// One JSON object.
    Json,
}

/// How `explain` ends: `None` when the pair has a join (and the operation
/// of `--op`, if any, answers); else the promotion error or the
/// operation's (exit 1, as `promote` and `result-type` report them) or, for
/// a pair without one, the reason.
pub fn failure(report: &Report) -> Option<Failure> {
    match (&report.why.bound, &report.error) {
        (Bound::Least(_), _) => match &report.operation {
            Some(step) => step.answer.clone().err().map(Failure::Promotion),
            None => None,
        },
        (_, Some(err)) => Some(Failure::Promotion(err.clone())),
        (_, None) => Some(Failure::NotALattice(Some(report.outcome()))),
    }
}

/// The report in `format`.
pub fn render(report: &Report, format: Format) -> String {
    match format {
        Format::Text => text(report),
        Format::Json => {
            let mut text = serde_json::to_string_pretty(&report.to_json()).unwrap_or_default();
            text.push('\n');
            text
        }
    }
}

/// `explain --op` for a policy defined by rules, in `format`: the
/// operands' promotion, then the operation's rule and answer.
pub fn render_rules(report: &RulesReport, format: Format) -> String {
    match format {
        Format::Text => {
            // A message stays on its line, as result-type prints it.
            let answer = |answer: Result<String, &PromotionError>| match answer {
                Ok(text) => text,
                Err(err) => escape_controls(&format!("{}: {err}", err.python_type()), false),
            };
            let step = &report.operation;
            let rule = step.rule.as_deref().unwrap_or("the policy's rule");
            [
                format!(
                    "{} in {}: defined by rules, not by a lattice, so there is no graph to trace",
                    report.inputs.join(" with "),
                    report.name
                ),
                format!(
                    "result_type: {}",
                    answer(report.promotion.as_ref().map(ToString::to_string))
                ),
                format!("then {rule}"),
                format!(
                    "{} gives {}",
                    step.op,
                    answer(step.answer.as_ref().map(ToString::to_string))
                ),
            ]
            .join("\n")
                + "\n"
        }
        Format::Json => {
            let mut text = serde_json::to_string_pretty(&report.to_json()).unwrap_or_default();
            text.push('\n');
            text
        }
    }
}

fn text(report: &Report) -> String {
    let why = &report.why;
    let [a, b] = why.inputs.map(|n| report.label(n));
    let mut lines = vec![format!("{a} with {b} in {}", report.name)];
    for (input, bounds) in why.inputs.iter().zip(&why.upper_bounds) {
        lines.push(list(
            &format!("upper bounds of {}", report.label(*input)),
            &report.labels_of(bounds),
        ));
    }
    lines.push(list("common upper bounds", &report.labels_of(&why.common)));
    lines.push(report.outcome());
    if let Some(paths) = &why.paths {
        for path in paths {
            lines.push(format!("    {}", report.labels_of(path).join(" -> ")));
        }
    }
    if let Some(err) = &report.error {
        let family = err
            .no_path_reason()
            .map_or(String::new(), |reason| format!(" ({})", reason.summary()));
        lines.push(format!("error family: {}{family}", err.python_type()));
    }
    if let Some(answer) = &report.rules_answer {
        let answer = match answer {
            Ok(typed) => typed.to_string(),
            Err(err) => format!("{}: {err}", err.python_type()),
        };
        lines.push(format!(
            "but {} answers {answer}: its rules go on after the graph (docs/policies.md)",
            report.name
        ));
    }
    if let Some(step) = &report.operation {
        let answer = match &step.answer {
            Ok(outcome) => outcome.to_string(),
            Err(err) => format!("{}: {err}", err.python_type()),
        };
        let rule = step.rule.as_deref().unwrap_or("the policy's rule");
        lines.push(format!("then {rule}"));
        lines.push(format!("{} gives {answer}", step.op));
    }
    lines.join("\n") + "\n"
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
