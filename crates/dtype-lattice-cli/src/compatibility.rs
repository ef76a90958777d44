//! `compatibility`: how far apart every two policies are
//! ([`dtype_lattice::design::compatibility`]), as the markdown of
//! docs/compatibility.md or as JSON.

use std::fmt::Write as _;

use dtype_lattice::design::compatibility::{
    Compatibility, Count, Example, Pair, ProbeAnswer, PYTHON_VALUES,
};
use dtype_lattice::{DType, Operand, OperandKind};

/// Output formats of the `compatibility` command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// The page docs/compatibility.md is.
    Markdown,
    /// The report as a JSON object.
    Json,
}

/// The themes named per pair of policies.
const THEMES_SHOWN: usize = 4;

/// Renders `report` in `format`.
pub fn render(report: &Compatibility, format: Format) -> String {
    match format {
        Format::Markdown => markdown(report),
        Format::Json => format!("{}\n", report.to_json()),
    }
}

fn markdown(report: &Compatibility) -> String {
    let mut out = String::new();
    let python: Vec<String> = PYTHON_VALUES.iter().map(|v| format!("`{v}`")).collect();
    let _ = write!(
        out,
        "# How far apart the frameworks are\n\n\
         Written by `dtype-lattice compatibility > docs/compatibility.md`; the\n\
         command-line tests fail when this page is not what the command prints.\n\
         Every answer is the library's, each policy checked against golden data\n\
         from its framework ([supported.md](supported.md) names the versions).\n\
         Each policy runs with its default settings: JAX's x64 is off, so its\n\
         64-bit arrays and results become 32-bit (`compatibility --x64`, or any\n\
         other setting's flag, compares under other settings).\n\n\
         A cell of the **promotion table** is `promote_types` of two dtypes; a\n\
         cell of **addition** is the framework's `+` (or `result_type` where it has\n\
         no operator of its own) on two operands, each an array of a dtype or one of\n\
         the Python scalars {}, at least one an array. Only the dtypes both\n\
         frameworks have natively are compared, and every failure counts as the\n\
         same answer. Below, a dtype name alone stands for an array of it.\n\n",
        python.join(", ")
    );
    probes(&mut out, report);
    for (title, pick) in [
        ("Promotion tables", (|p| p.table) as fn(&Pair) -> Count),
        ("Addition", |p| p.add),
    ] {
        matrix(&mut out, report, title, pick);
    }
    operations(&mut out, report);
    forms(&mut out, report);
    array_ops(&mut out, report);
    pairs(&mut out, report);
    out
}

/// The operations beyond addition: the telling cases in every policy,
/// then each operation's differing cells against the first policy.
fn operations(out: &mut String, report: &Compatibility) {
    let ops = &report.operations;
    let Some(reference) = report.names.first() else {
        return;
    };
    out.push_str(
        "## Operations\n\n\
         Promotion decides the type an operation computes in; the operation decides\n\
         its result. The cases where the operation decides, in every policy (· where\n\
         the policy does not model the operation yet):\n\n",
    );
    let rows = ops
        .probes
        .iter()
        .map(|row| (row.probe.label, &row.answers[..]));
    answer_table(out, report, rows);
    let intro = format!(
        "Each operation's differing cells against {reference}'s, of those compared\n\
         (arrays of the dtypes both have, and the Python scalars, as for addition);\n\
         · where either does not model it."
    );
    let rows = ops
        .rows
        .iter()
        .map(|row| (row.op.name(), &row.against_reference[..]));
    against_reference(out, report, &intro, rows);
}

/// The reductions, contractions and combinations: the cases people file
/// issues about in every policy, with the type each computes in, then each
/// operation's differing cells against the first policy.
fn array_ops(out: &mut String, report: &Compatibility) {
    let ops = &report.array_ops;
    let Some(reference) = report.names.first() else {
        return;
    };
    out.push_str(
        "## Reductions, contractions and combinations\n\n\
         What `sum`, `mean`, `matmul`, `where` and `clip` return, in every policy: the\n\
         result's dtype, \"(in T)\" where the framework computes in another type (a\n\
         half float's mean accumulated in float32, PyTorch's opmath), · where the\n\
         policy does not model the operation yet, – where the framework lacks the\n\
         dtype. `where`'s condition is a bool array.\n\n",
    );
    let rows = ops
        .probes
        .iter()
        .map(|row| (row.probe.label, &row.answers[..]));
    answer_table(out, report, rows);
    let intro = format!(
        "Each operation's differing cells against {reference}'s (the result, and the\n\
         type it computes in), of those compared: an array of each dtype both have\n\
         (a reduction), each pair of them (the others), the Python scalars as the\n\
         second of `where`, `clip` and `full_like`; · where either does not model it."
    );
    let rows = ops
        .rows
        .iter()
        .map(|row| (row.op.name(), &row.against_reference[..]));
    against_reference(out, report, &intro, rows);
}

/// Each row's counts against the first policy, for the others.
fn against_reference<'a>(
    out: &mut String,
    report: &Compatibility,
    intro: &str,
    rows: impl Iterator<Item = (&'a str, &'a [Option<Count>])>,
) {
    let others: Vec<&str> = report.names[1..].iter().map(String::as_str).collect();
    let _ = write!(
        out,
        "\n{intro}\n\n| | {} |\n|---|{}\n",
        others.join(" | "),
        "---|".repeat(others.len())
    );
    for (name, counts) in rows {
        let cells: Vec<String> = counts[1..]
            .iter()
            .map(|count| match count {
                Some(c) => format!("{} / {}", c.differing, c.compared),
                None => "·".to_string(),
            })
            .collect();
        let _ = writeln!(out, "| `{name}` | {} |", cells.join(" | "));
    }
    out.push('\n');
}

/// Operations as programs write them: operator cases in every policy,
/// then each operator's differing cells against the function inside each
/// policy.
fn forms(out: &mut String, report: &Compatibility) {
    let forms = &report.forms;
    out.push_str(
        "## Operators\n\n\
         Programs write `x / 2`, `1 / x`, `x += 0.5` and `x[...] = v` more often\n\
         than `lib.divide(x, 2)`. The same cases in every policy, as Python runs the\n\
         operator (a Python number on the left falls back to the array's reflected\n\
         method; `+=` stores into the array, or rebinds it where arrays are\n\
         immutable; · where the policy does not model the form, or leaves it to\n\
         another: `jax-lax`'s operators are `jax`'s, Keras's its backend's):\n\n",
    );
    let rows = forms
        .probes
        .iter()
        .map(|row| (row.probe.label, &row.answers[..]));
    answer_table(out, report, rows);
    let _ = write!(
        out,
        "\nInside each framework, the cells where the operator (`a OP b`) answers\n\
         otherwise than the function it stands for (`lib.op(a, b)`), of those\n\
         compared (arrays of its dtypes and the Python scalars, at least one an\n\
         array); · where the policy does not model both.\n\n| | {} |\n|---|{}\n",
        report.names.join(" | "),
        "---|".repeat(report.names.len())
    );
    for row in &forms.rows {
        let cells: Vec<String> = row
            .operator_against_function
            .iter()
            .map(|count| match count {
                Some(c) => format!("{} / {}", c.differing, c.compared),
                None => "·".to_string(),
            })
            .collect();
        // A table cell's `|` is escaped even in code.
        let symbol = row
            .op
            .operator()
            .map_or("", |x| x.symbol)
            .replace('|', "\\|");
        let _ = writeln!(out, "| `{}` (`{symbol}`) | {} |", row.op, cells.join(" | "));
    }
    out.push('\n');
}

fn probes(out: &mut String, report: &Compatibility) {
    out.push_str(
        "## Telling pairs\n\n\
         Addition of pairs that trip ported code, in every policy: the result's\n\
         dtype, the error's Python class in italics where it fails, – where the\n\
         framework has no such dtype of its own.\n\n",
    );
    let rows = report
        .probes
        .iter()
        .map(|row| (row.probe.label, &row.answers[..]));
    answer_table(out, report, rows);
    out.push('\n');
}

/// A table of every policy's answers, one row per labelled case: the
/// dtype, the error's class in italics, – for a dtype the framework lacks,
/// · where it does not model the operation.
fn answer_table<'a>(
    out: &mut String,
    report: &Compatibility,
    rows: impl Iterator<Item = (&'a str, &'a [ProbeAnswer])>,
) {
    let _ = writeln!(out, "| | {} |", report.names.join(" | "));
    let _ = writeln!(out, "|---|{}", "---|".repeat(report.names.len()));
    for (label, answers) in rows {
        let answers: Vec<String> = answers
            .iter()
            .map(|answer| match answer {
                ProbeAnswer::DType(dtype) => dtype.name().to_string(),
                ProbeAnswer::Error(class) => format!("*{class}*"),
                ProbeAnswer::Missing(_) => "–".to_string(),
                ProbeAnswer::NotModelled => "·".to_string(),
                ProbeAnswer::ComputesIn(dtype, computes) => format!("{dtype} (in {computes})"),
            })
            .collect();
        let _ = writeln!(out, "| `{label}` | {} |", answers.join(" | "));
    }
}

fn matrix(out: &mut String, report: &Compatibility, title: &str, pick: fn(&Pair) -> Count) {
    let _ = write!(
        out,
        "## {title}\n\nDiffering cells of those compared, for the policies of the row and the\ncolumn.\n\n"
    );
    let _ = writeln!(out, "| | {} |", report.names.join(" | "));
    let _ = writeln!(out, "|---|{}", "---|".repeat(report.names.len()));
    for (row, name) in report.names.iter().enumerate() {
        let cells: Vec<String> = (0..report.names.len())
            .map(|column| match report.pair(row, column) {
                None => "·".to_string(),
                Some(pair) => {
                    let count = pick(pair);
                    format!("{} / {}", count.differing, count.compared)
                }
            })
            .collect();
        let _ = writeln!(out, "| **{name}** | {} |", cells.join(" | "));
    }
    out.push('\n');
}

fn pairs(out: &mut String, report: &Compatibility) {
    let _ = write!(
        out,
        "## Pair by pair\n\nWhere each two policies part, the kinds of pair with the most differing\ncells first (at most {THEMES_SHOWN}), each with its first differing cell.\n\n"
    );
    for pair in &report.pairs {
        let (left, right) = (&report.names[pair.left], &report.names[pair.right]);
        let _ = writeln!(out, "### {left} and {right}\n");
        if pair.themes.is_empty() {
            out.push_str("They agree on every cell compared.\n\n");
            continue;
        }
        let _ = writeln!(
            out,
            "{} of {} table cells and {} of {} addition cells differ{}",
            pair.table.differing,
            pair.table.compared,
            pair.add.differing,
            pair.add.compared,
            if pair.themes.len() > THEMES_SHOWN {
                ", mostly:"
            } else {
                ":"
            },
        );
        out.push('\n');
        for theme in pair.themes.iter().take(THEMES_SHOWN) {
            let _ = writeln!(
                out,
                "- {}: {} table, {} addition cells (`{}`: {left} {}, {right} {})",
                theme.theme.describe(),
                theme.table,
                theme.add,
                cell(&theme.example),
                answer(theme.example.left),
                answer(theme.example.right),
            );
        }
        out.push('\n');
    }
}

/// A cell as people write it: `promote_types(a, b)` or `a + b`.
fn cell(example: &Example) -> String {
    let [a, b] = example.operands.map(operand);
    if example.add {
        format!("{a} + {b}")
    } else {
        format!("promote_types({a}, {b})")
    }
}

fn operand(operand: Operand) -> String {
    match operand.kind() {
        OperandKind::DType(dtype)
        | OperandKind::Array { dtype, .. }
        | OperandKind::ZeroDim(dtype) => dtype.name().to_string(),
        _ => operand.to_string(),
    }
}

fn answer(dtype: Option<DType>) -> String {
    dtype.map_or_else(|| "an error".to_string(), |d| d.name().to_string())
}
