//! `audit`: the design notebook's criteria over every pair of dtypes, side
//! by side for several subjects ([`dtype_lattice::design::audit`] has the rules).

use std::io::Write;

use dtype_lattice::design::audit::{Audit, Criterion};
use dtype_lattice::design::Subject;

use crate::subject::{wrap, Format};
use crate::Failure;

/// Audits every subject and prints the reports. A graph with a cycle has
/// no joins to audit: `Failure::NotALattice` with the cycle.
pub fn run(subjects: &[Subject], format: Format, out: &mut dyn Write) -> Result<(), Failure> {
    let audits = subjects
        .iter()
        .map(|subject| {
            Audit::new(subject)
                .map_err(|err| Failure::NotALattice(Some(format!("{}: {err}", subject.name()))))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let report = match format {
        Format::Json => audits
            .iter()
            .map(|audit| format!("{}\n", audit.to_json()))
            .collect(),
        Format::Text => text(&audits),
    };
    // Labels are the user's: no raw control character reaches a terminal
    // (JSON has none; text keeps its line breaks).
    out.write_all(crate::escape_controls(&report, true).as_bytes())?;
    Ok(())
}

/// The counts side by side, then each subject's pairs per criterion.
fn text(audits: &[Audit]) -> String {
    let mut rows: Vec<(&str, Vec<usize>)> = vec![
        ("pairs", audits.iter().map(|a| a.pairs).collect()),
        (
            "undefined",
            audits.iter().map(|a| a.undefined.len()).collect(),
        ),
        ("opaque", audits.iter().map(|a| a.opaque.len()).collect()),
    ];
    rows.extend(Criterion::ALL.into_iter().map(|criterion| {
        let counts = audits.iter().map(|a| a.findings(criterion).len()).collect();
        (criterion.name(), counts)
    }));
    let first = rows.iter().map(|(name, _)| name.len()).max().unwrap_or(0);
    let widths: Vec<usize> = audits
        .iter()
        .map(|a| a.name.chars().count().max(5))
        .collect();
    let mut text = format!("{:first$}", "");
    for (audit, width) in audits.iter().zip(&widths) {
        text += &format!("  {:>width$}", audit.name);
    }
    text.push('\n');
    for (name, counts) in &rows {
        text += &format!("{name:first$}");
        for (count, width) in counts.iter().zip(&widths) {
            text += &format!("  {count:>width$}");
        }
        text.push('\n');
    }
    for audit in audits {
        text += &format!("\n{}\n", audit.name);
        let pairs = |list: Vec<String>| wrap(&list, 4, 100);
        if !audit.undefined.is_empty() {
            let list = audit
                .undefined
                .iter()
                .map(|[a, b]| format!("{{{a}, {b}}}"))
                .collect();
            text += &format!("  undefined ({}):\n{}", audit.undefined.len(), pairs(list));
        }
        let sections = std::iter::once(("opaque", &audit.opaque[..])).chain(
            Criterion::ALL
                .into_iter()
                .map(|criterion| (criterion.name(), audit.findings(criterion))),
        );
        for (name, found) in sections.filter(|(_, found)| !found.is_empty()) {
            let list = found
                .iter()
                .map(|[a, b, c]| format!("{{{a}, {b}}} -> {c}"))
                .collect();
            text += &format!("  {name} ({}):\n{}", found.len(), pairs(list));
        }
    }
    text
}
