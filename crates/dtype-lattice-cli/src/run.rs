//! What each command does: parse its operands, ask the library, render.

use std::io::{self, Write};

use dtype_lattice::design::compatibility::Compatibility;
use dtype_lattice::design::diff::{CellMarks, Comparison};
use dtype_lattice::design::graph::{pair, Drawing};
use dtype_lattice::design::table::{self as promotion_table, Question, Table};
use dtype_lattice::design::{explain as why, Definition, Subject};
use dtype_lattice::engine::{GraphError, Poset};
use dtype_lattice::registry;
use dtype_lattice::{Call, OpForm, Operand, Operation, Policy, TypeSpec};

use crate::args::{Cli, Command, Keywords};
use crate::failure::{escape_controls, warn, Failure};
use crate::table::{Format, Labels};
use crate::{
    audit, check, codegen, compatibility, diff, explain, graph, serve, site, subject, table,
};

pub(crate) fn run(cli: Cli, out: &mut dyn Write) -> Result<(), Failure> {
    match cli.command {
        Command::Serve { host, port, open } => {
            serve::run(&serve::Options { host, port, open }, out)?;
        }
        Command::Site { dir } => {
            let written = site::write(&dir)?;
            writeln!(
                out,
                "wrote {} files ({:.1} MB) to {}; serve the folder with any static file server",
                written.files,
                written.bytes as f64 / 1e6,
                dir.display()
            )?;
        }
        Command::Completions { shell } => {
            let mut command = <Cli as clap::CommandFactory>::command();
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut command, "dtype-lattice", &mut script);
            out.write_all(&script)?;
        }
        Command::Codegen(args) => codegen::run(&args, out)?,
        Command::Man => {
            let page = clap_mangen::Man::new(<Cli as clap::CommandFactory>::command());
            let mut roff = Vec::new();
            page.render(&mut roff)?;
            out.write_all(&roff)?;
        }
        Command::Table {
            rules,
            all,
            format,
            labels,
            diff,
            fragment,
            op,
            keywords,
            form,
        } => {
            let policy = rules.policy()?;
            let labels = labels.unwrap_or(if all { Labels::Names } else { Labels::Short });
            let question = question(op, &keywords, form)?;
            refuse_unanswered(policy.as_ref(), question)?;
            let table = Table::of(policy.as_ref(), &promotion_table::types(all), question)
                .ok_or_else(|| Failure::Usage(format!("{} gave no table", policy.name())))?;
            let marks = match diff {
                Some(_) if format == Format::Csv => {
                    return Err(Failure::Usage(
                        "--diff marks cells in text, markdown, html and json; for csv use the diff command".into(),
                    ))
                }
                Some(name) => {
                    let other = rules.settings.policy(&name)?;
                    Some(CellMarks::of(policy.as_ref(), other.as_ref(), &name, &table.types, question))
                }
                None => None,
            };
            let text = table::render(
                &table,
                policy.as_ref(),
                labels,
                marks.as_ref(),
                format,
                fragment,
            );
            out.write_all(text.as_bytes())?;
        }
        Command::Diff {
            left,
            right,
            settings,
            all,
            format,
            labels,
            op,
            keywords,
            form,
        } => {
            let (first, second) = (settings.policy(&left)?, settings.policy(&right)?);
            let question = question(op, &keywords, form)?;
            for policy in [&first, &second] {
                refuse_unanswered(policy.as_ref(), question)?;
            }
            let labels = labels.unwrap_or(if all { Labels::Names } else { Labels::Short });
            let report = Comparison::of(
                [&left, &right],
                [first.as_ref(), second.as_ref()],
                &promotion_table::types(all),
                labels.into(),
                question,
            );
            out.write_all(diff::render(&report, format).as_bytes())?;
        }
        Command::Compatibility { settings, format } => {
            // Every entry and preset as listed, under the settings given;
            // one that models nothing under them (tensorflow-numpy with
            // NumPy behaviour off refuses every call) has no rules to
            // compare, and is left out.
            let policies = registry::listing()
                .map(|named| Ok((named.name(), settings.policy(named.name())?)))
                .filter(
                    |built| !matches!(built, Ok((_, policy)) if models_nothing(policy.as_ref())),
                )
                .collect::<Result<Vec<_>, Failure>>()?;
            let named: Vec<(&str, &dyn Policy)> = policies
                .iter()
                .map(|(name, p)| (*name, p.as_ref()))
                .collect();
            let report = Compatibility::new(&named);
            out.write_all(compatibility::render(&report, format).as_bytes())?;
        }
        Command::Promote { rules, a, b } => {
            let parse = |s: &str| {
                s.parse::<TypeSpec>()
                    .map_err(|err| Failure::Usage(err.to_string()))
            };
            let result = rules
                .policy()?
                .promote_types(parse(&a)?, parse(&b)?)
                .map_err(Failure::Promotion)?;
            writeln!(out, "{result}")?;
        }
        Command::ResultType {
            rules,
            lattice,
            op,
            keywords,
            form,
            operands,
        } => {
            let operands = operands
                .iter()
                .map(|s| {
                    s.parse::<Operand>()
                        .map_err(|err| Failure::Usage(err.to_string()))
                })
                .collect::<Result<Vec<_>, _>>()?;
            let policy = rules.policy()?;
            if let Some(form) = form {
                let op = match op {
                    Some(Operation::Array(op)) => {
                        return Err(Failure::Usage(format!(
                            "--form is asked of an elementwise operation, not of {op}, whose \
                             function is the only form modelled"
                        )))
                    }
                    Some(Operation::Elementwise(op)) => Some(op),
                    None => None,
                };
                let call = Call::new(op, form).map_err(|err| Failure::Usage(err.to_string()))?;
                if operands.len() != call.arity() {
                    return Err(Failure::Usage(format!(
                        "{call} takes {} operand{}, not {}",
                        call.arity(),
                        if call.arity() == 1 { "" } else { "s" },
                        operands.len()
                    )));
                }
                let arguments: Vec<Operand> = operands.iter().map(|o| o.as_argument()).collect();
                let result = policy
                    .call(call, &arguments)
                    .ok_or_else(|| Failure::Usage(policy.unanswered(call).to_string()))?;
                writeln!(out, "{}", result.map_err(Failure::Promotion)?)?;
                return Ok(());
            }
            if let Some(operation) = op {
                let asked = keywords.asked(operation)?;
                if let Some(why) = operation.miscount(operands.len()) {
                    return Err(Failure::Usage(why));
                }
                let arguments: Vec<Operand> = operands.iter().map(|o| o.as_argument()).collect();
                let answer = policy
                    .ask(asked, &arguments)
                    .ok_or_else(|| Failure::Usage(policy.not_modelled(operation).to_string()))?;
                writeln!(out, "{}", answer.map_err(Failure::Promotion)?)?;
                return Ok(());
            }
            let jax = policy.jax();
            let result = if lattice {
                let jax = jax.ok_or_else(|| {
                    Failure::Usage(format!(
                        "--lattice shows JAX's lattice_result_type, which {} does not have; \
                         use it with --policy jax",
                        policy.name()
                    ))
                })?;
                for warning in jax.lattice_result_type_warnings(&operands) {
                    warn(&warning.message);
                }
                jax.lattice_result_type(&operands)
            } else {
                for warning in jax
                    .map(|jax| jax.result_type_warnings(&operands))
                    .unwrap_or_default()
                {
                    warn(&warning.message);
                }
                policy.result_type(&operands)
            };
            writeln!(out, "{}", result.map_err(Failure::Promotion)?)?;
        }
        Command::Batch { settings, policy } => {
            // An unknown default is a usage error now, not one per request.
            settings.policy(&policy)?;
            let defaults = dtype_lattice::protocol::Defaults {
                settings: settings.0,
                policy: Some(policy),
            };
            dtype_lattice::protocol::run(io::stdin().lock(), &mut *out, defaults)?
        }
        Command::Check {
            subject,
            format,
            max_examples,
        } => check::run(&subject.load()?, format, max_examples, out)?,
        Command::Audit { subjects, format } => audit::run(&subjects.load()?, format, out)?,
        Command::Explain {
            subject,
            a,
            b,
            format,
            op,
            keywords,
        } => {
            let subject = subject.load()?;
            let asked = op.map(|op| keywords.asked(op)).transpose()?;
            // A reduction of one array has no pair to trace (an
            // elementwise unary operation is explained after the pair's
            // join, as it always was).
            let on_one =
                op.is_some_and(|op| matches!(op, Operation::Array(_)) && op.operands() == (1..=1));
            let b = match (b, on_one) {
                (Some(b), false) => b,
                (None, true) => String::new(),
                (Some(_), true) => {
                    return Err(Failure::Usage(format!(
                        "--op {} takes one array: explain TYPE --op {0}",
                        op.map_or("", Operation::name)
                    )))
                }
                (None, false) => {
                    return Err(Failure::Usage(
                        "explain takes two types (one with an --op on one array, as --op sum)"
                            .into(),
                    ))
                }
            };
            // A policy defined by rules has no graph to trace, nor has one
            // array; an operation is then explained by its promotion and
            // its rule.
            let rules = match &subject {
                Subject::Rules(policy) => Some(policy.as_ref()),
                _ if on_one => subject.policy(),
                _ => None,
            };
            if let (Some(asked), Some(policy)) = (asked, rules) {
                let given = if on_one { vec![&a] } else { vec![&a, &b] };
                let types = given
                    .iter()
                    .map(|t| t.parse::<TypeSpec>())
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|err| Failure::Usage(err.to_string()))?;
                let report = why::RulesReport::new(policy, asked, &types).ok_or_else(|| {
                    Failure::Usage(policy.not_modelled(asked.operation()).to_string())
                })?;
                let text = explain::render_rules(&report, format);
                out.write_all(escape_controls(&text, true).as_bytes())?;
                out.flush()?;
                return match &report.operation.answer {
                    Ok(_) => Ok(()),
                    Err(err) => Err(Failure::Promotion(err.clone())),
                };
            }
            let definition = subject::definition(&subject)?;
            let poset = poset(definition)?;
            // Under a built-in policy, two types are explained as its
            // result_type takes them (a dtype as the policy keeps it alone, a
            // Python scalar where it stands, or refused where the policy
            // promotes it by a rule), so that explain agrees with
            // result-type; node labels are explained as written.
            let types = a
                .parse::<TypeSpec>()
                .and_then(|a| Ok([a, b.parse::<TypeSpec>()?]));
            let mut report = match (subject.policy(), types.clone()) {
                (Some(policy), Ok(types)) => {
                    why::Report::of_types(definition, &poset, policy, types)
                }
                (policy, _) => why::Report::new(definition, &poset, policy, [&a, &b]),
            }
            .map_err(|err| Failure::Usage(err.to_string()))?;
            if let Some(asked) = asked {
                let (Some(policy), Ok(types)) = (subject.policy(), &types) else {
                    return Err(Failure::Usage(
                        "--op explains an operation of a built-in policy (--policy NAME) on two \
                         types"
                            .into(),
                    ));
                };
                report = report
                    .with_operation(policy, asked, *types)
                    .ok_or_else(|| {
                        Failure::Usage(policy.not_modelled(asked.operation()).to_string())
                    })?;
            }
            // The inputs as the user wrote them, unless the policy took one
            // as another type (JAX without x64: uint64 as uint32).
            for (shown, given) in report.inputs.iter_mut().zip([&a, &b]) {
                if given
                    .parse::<TypeSpec>()
                    .is_ok_and(|t| t.to_string() == *shown)
                {
                    shown.clone_from(given);
                }
            }
            out.write_all(escape_controls(&explain::render(&report, format), true).as_bytes())?;
            out.flush()?;
            if let Some(failure) = explain::failure(&report) {
                return Err(failure);
            }
        }
        Command::Graph {
            subject,
            format,
            output,
            highlight,
        } => {
            let format = match (format, &output) {
                (Some(format), _) => format,
                (None, Some(path)) => graph::Format::from_path(path).map_err(Failure::Usage)?,
                (None, None) => graph::Format::Svg,
            };
            let pair = match &highlight {
                Some(text) => {
                    Some(pair(text).map_err(|err| Failure::Usage(format!("--highlight: {err}")))?)
                }
                None => None,
            };
            let subject = subject.load()?;
            let definition = subject::definition(&subject)?;
            let poset = poset(definition)?;
            let drawing = Drawing::new(definition, &poset, pair)
                .map_err(|err| Failure::Usage(err.to_string()))?;
            let text = match format {
                graph::Format::Dot => drawing.dot(),
                graph::Format::Svg => drawing
                    .svg()
                    .map_err(|too_large| Failure::Usage(format!("{too_large} (--format dot)")))?,
            };
            match output {
                Some(path) => std::fs::write(&path, text).map_err(|err| {
                    Failure::Usage(format!("cannot write {}: {err}", path.display()))
                })?,
                None => out.write_all(text.as_bytes())?,
            }
        }
    }
    out.flush()?;
    Ok(())
}

/// The definition as a partial order; a cycle means it is not a lattice
/// (exit 1), any other defect is bad input (exit 2).
fn poset(definition: &Definition) -> Result<Poset, Failure> {
    definition.poset().map_err(|err| match err {
        GraphError::Cycle { .. } => {
            Failure::NotALattice(Some(format!("{} is not a lattice: {err}", definition.name)))
        }
        other => Failure::Usage(other.to_string()),
    })
}

/// What `table` and `diff` ask: `--op` and `--form` as one question, or
/// why Python has no such call.
pub(crate) fn question(
    op: Option<Operation>,
    keywords: &Keywords,
    form: Option<OpForm>,
) -> Result<Question, Failure> {
    let asked = op.map(|op| keywords.asked(op)).transpose()?;
    Question::asked(asked, form).map_err(|err| Failure::Usage(err.to_string()))
}

/// The library's refusal of a table of `question` by `policy`, if any.
fn refuse_unanswered(policy: &dyn Policy, question: Question) -> Result<(), Failure> {
    match question.unanswered(policy) {
        Some(why) => Err(Failure::Usage(why.to_string())),
        None => Ok(()),
    }
}

/// Whether `policy` refuses even `promote_types(bool, bool)` as a question
/// it does not model (`NotImplementedError`): no framework's promotion
/// refuses that pair so, only a namespace the settings leave unmodelled.
fn models_nothing(policy: &dyn Policy) -> bool {
    use dtype_lattice::{DType, ErrorKind};
    policy
        .promote_types(DType::Bool.into(), DType::Bool.into())
        .is_err_and(|err| err.kind() == ErrorKind::NotImplemented)
}

#[cfg(test)]
mod tests {
    use super::*;
    use dtype_lattice::design::NodeDef;

    fn definition(edges: Vec<(usize, usize)>) -> Definition {
        Definition {
            name: "sketch".into(),
            description: None,
            nodes: ["a", "b"].map(NodeDef::from_label).to_vec(),
            edges,
        }
    }

    #[test]
    fn a_cycle_is_not_a_lattice_and_other_defects_are_bad_input() {
        match poset(&definition(vec![(0, 1), (1, 0)])) {
            Err(Failure::NotALattice(Some(message))) => assert_eq!(
                message,
                "sketch is not a lattice: the edges form a cycle: a -> b -> a; \
                 promotion must only go one way, remove one of these edges"
            ),
            _ => panic!("a cycle must be refused (exit 1)"),
        }
        assert!(matches!(
            poset(&definition(vec![(1, 1)])),
            Err(Failure::Usage(_))
        ));
        assert!(poset(&definition(vec![(0, 1)])).is_ok());
    }
}
