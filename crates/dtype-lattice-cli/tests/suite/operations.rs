//! `--op` on the command line: `result-type`, `table`, `diff`, `explain`
//! and `batch` give the recorded answers of real JAX
//! (`conformance/golden/ops_jax.jsonl`), each as the others do, and
//! refuse what they cannot answer with the reason.

use crate::support::golden::{judge, load, Verdict};
use crate::support::{run, run_with_input, stdout};
use serde_json::Value;

/// A golden operand as the command line writes it: `array:DTYPE` for an
/// array, the number as Python writes it, `py:bool` for `True`.
fn cli_operand(arg: &Value) -> String {
    match arg {
        Value::Object(array) if array.contains_key("dtype") => {
            format!("array:{}", array["dtype"].as_str().unwrap())
        }
        Value::Object(complex) => {
            let parts = complex["complex"].as_array().unwrap();
            format!("{}+{}j", parts[0], parts[1])
        }
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// The answer line `result-type` prints, as the batch protocol's JSON.
fn as_answer(output: &std::process::Output) -> Value {
    let text = stdout(output);
    let text = text.trim();
    if output.status.success() {
        let (dtype, weak) = match text.strip_suffix(" (weak)") {
            Some(dtype) => (dtype, true),
            None => (text, false),
        };
        return serde_json::json!({ "ok": { "dtype": dtype, "weak": weak } });
    }
    let message = String::from_utf8_lossy(&output.stderr).trim().to_owned();
    let (kind, message) = message.split_once(": ").expect("TYPE: message");
    serde_json::json!({ "error": { "type": kind, "message": message } })
}

#[test]
fn result_type_op_gives_what_jax_recorded() {
    let cases = load("ops_jax.jsonl");
    // Every 313th call: each operation, x64 on and off, strict and
    // standard, every kind of operand.
    let mut checked = 0;
    for case in cases.iter().step_by(313) {
        let request = &case.request;
        let mut args = vec!["result-type".to_owned(), "--op".to_owned()];
        args.push(request["fn"].as_str().unwrap().to_owned());
        if request["x64"] == true {
            args.push("--x64".to_owned());
        }
        if request["promotion"] == "strict" {
            args.push("--strict".to_owned());
        }
        args.push("--".to_owned());
        args.extend(request["args"].as_array().unwrap().iter().map(cli_operand));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let output = run(&args);
        assert!(
            matches!(output.status.code(), Some(0 | 1)),
            "{args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let ours = as_answer(&output);
        assert_eq!(
            judge(case, &ours),
            Verdict::Same,
            "{args:?}\n  jax:  {}\n  ours: {ours}",
            case.expected
        );
        checked += 1;
    }
    assert!(checked > 300, "only {checked} calls checked");
}

/// Every cell of `table ARGS --format json` is the batch protocol's answer
/// to `request` (a JSON object's fields, without the operands) of its
/// row's and column's types; for a reduction's table, of its row's type
/// with the column's `dtype=` (none for `None`).
fn table_is_the_batch_answers(args: &[&str], request: &str) -> Value {
    let mut command = vec!["table", "--all"];
    command.extend(args);
    command.extend(["--format", "json"]);
    let output = run(&command);
    assert!(output.status.success(), "{command:?}");
    let table: Value = serde_json::from_slice(&output.stdout).unwrap();
    let strings = |key: &str| -> Vec<String> {
        table[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap().to_owned())
            .collect()
    };
    let (types, columns) = (strings("types"), strings("columns"));
    let keyword = table["column_keyword"].as_str();
    let mut requests = String::new();
    for a in &types {
        for b in &columns {
            let line = match (keyword, b.as_str()) {
                (None, _) => format!("{{{request}, \"args\": [\"{a}\", \"{b}\"]}}"),
                (Some(_), "None") => format!("{{{request}, \"args\": [\"{a}\"]}}"),
                (Some(key), _) => format!("{{{request}, \"args\": [\"{a}\"], \"{key}\": \"{b}\"}}"),
            };
            requests.push_str(&line);
            requests.push('\n');
        }
    }
    let answers = run_with_input(&["batch"], requests);
    let answers: Vec<Value> = stdout(&answers)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let cells = table["cells"].as_array().unwrap();
    let mut errors = 0;
    for (r, row) in cells.iter().enumerate() {
        for (c, cell) in row.as_array().unwrap().iter().enumerate() {
            let answer = &answers[r * columns.len() + c];
            match cell.get("error") {
                Some(_) => {
                    assert!(
                        answer.get("error").is_some(),
                        "{command:?} {r},{c}: {answer}"
                    );
                    errors += 1;
                }
                None => {
                    assert_eq!(cell["dtype"], answer["ok"]["dtype"], "{command:?} {r},{c}");
                    assert_eq!(cell["weak"], answer["ok"]["weak"], "{command:?} {r},{c}");
                    assert_eq!(
                        cell.get("computes_in"),
                        answer["ok"].get("computes_in"),
                        "{command:?} {r},{c}"
                    );
                }
            }
        }
    }
    assert!(
        errors < types.len() * columns.len(),
        "{command:?}: every cell fails"
    );
    table
}

/// A reduction's table is a row per array dtype and a column per `dtype=`
/// (`None` first), each cell the batch protocol's answer; one that takes
/// no `dtype=` has the one column.
#[test]
fn a_reductions_table_is_the_batch_answers_per_dtype() {
    for policy in ["numpy", "torch", "jax"] {
        let table = table_is_the_batch_answers(
            &["--op", "sum", "--policy", policy],
            &format!(r#""fn": "sum", "policy": "{policy}""#),
        );
        assert_eq!(table["column_keyword"], "dtype");
        assert_eq!(table["columns"][0], "None");
        let rows = table["types"].as_array().unwrap().len();
        assert_eq!(table["columns"].as_array().unwrap().len(), rows + 1);
        assert!(table["rule"].as_str().is_some_and(|r| !r.is_empty()));
    }
    let mean = table_is_the_batch_answers(
        &["--op", "mean", "--policy", "torch"],
        r#""fn": "mean", "policy": "torch""#,
    );
    assert!(mean["caption"]
        .as_str()
        .unwrap()
        .contains("mean(a, dtype=...)"));
    let argmax = table_is_the_batch_answers(&["--op", "argmax"], r#""fn": "argmax""#);
    assert_eq!(argmax["columns"], serde_json::json!(["None"]));
}

/// `table`, `diff` and `explain` take a reduction's keywords as
/// `result-type` does (one set of flags): each cell of a table asked with
/// `--promote-integers`, `--initial` or `--dtype` is the batch protocol's
/// answer to the call with the same keywords.
#[test]
fn a_reductions_table_takes_the_keywords_result_type_takes() {
    let unpromoted = table_is_the_batch_answers(
        &[
            "--op",
            "sum",
            "--policy",
            "jax",
            "--promote-integers",
            "false",
        ],
        r#""fn": "sum", "policy": "jax", "promote_integers": false"#,
    );
    let caption = unpromoted["caption"].as_str().unwrap();
    assert!(
        caption.contains("sum(a, dtype=..., promote_integers=False)"),
        "{caption}"
    );
    let initial = table_is_the_batch_answers(
        &["--op", "max", "--policy", "numpy", "--initial", "300"],
        r#""fn": "max", "policy": "numpy", "initial": 300"#,
    );
    assert!(initial["caption"]
        .as_str()
        .unwrap()
        .contains("max(a, initial=300)"));
    let dtype = table_is_the_batch_answers(
        &["--op", "sum", "--policy", "numpy", "--dtype", "int16"],
        r#""fn": "sum", "policy": "numpy""#,
    );
    assert_eq!(dtype["columns"], serde_json::json!(["int16"]));
    // The keywords are refused where the operation has none, naming it.
    let refused = run(&["table", "--op", "add", "--initial", "1"]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("initial"));
    let explained = run(&[
        "explain",
        "int8",
        "--policy",
        "numpy",
        "--op",
        "max",
        "--initial",
        "300",
    ]);
    let said = String::from_utf8_lossy(&explained.stdout);
    let asked = run(&[
        "result-type",
        "--policy",
        "numpy",
        "--op",
        "max",
        "--initial",
        "300",
        "int8",
    ]);
    let refusal = String::from_utf8_lossy(&asked.stderr);
    assert!(
        !asked.status.success() && said.contains(refusal.trim()),
        "{said}\n{refusal}"
    );
}

#[test]
fn table_op_cells_are_the_batch_answers() {
    let table = table_is_the_batch_answers(&["--op", "true_divide"], r#""fn": "true_divide""#);
    assert_eq!(table["op"], "true_divide");
    assert_eq!(table["form"], Value::Null);
    assert!(table["caption"].as_str().unwrap().contains("true_divide"));
}

/// `table --form`: an operation as a program writes it, or with no
/// operation the assignment, cell by cell as the batch protocol's `"form"`
/// answers it (which the golden forms files check).
#[test]
fn table_form_cells_are_the_batch_answers() {
    let operator = table_is_the_batch_answers(
        &[
            "--policy",
            "numpy",
            "--op",
            "true_divide",
            "--form",
            "reflected",
        ],
        r#""policy": "numpy", "fn": "true_divide", "form": "reflected""#,
    );
    assert_eq!(
        (&operator["op"], &operator["form"]),
        (&"true_divide".into(), &"reflected".into())
    );
    let caption = operator["caption"].as_str().unwrap();
    assert!(caption.contains("b.__rtruediv__(a)"), "{caption}");
    let assignment = table_is_the_batch_answers(
        &["--policy", "numpy", "--form", "setitem"],
        r#""policy": "numpy", "form": "setitem""#,
    );
    assert_eq!(
        (&assignment["op"], &assignment["form"]),
        (&Value::Null, &"setitem".into())
    );
    let caption = assignment["caption"].as_str().unwrap();
    assert!(caption.contains("x[...] = v"), "{caption}");
}

/// `diff --form` compares the form asked of both policies, and says which.
#[test]
fn diff_form_compares_that_form() {
    let args = |left, right| {
        let out = run(&[
            "diff", left, right, "--op", "add", "--form", "inplace", "--format", "json",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    let same = args("numpy", "numpy");
    assert_eq!(
        (&same["count"], &same["form"]),
        (&0.into(), &"inplace".into())
    );
    // NumPy keeps the array's dtype (bool += int8 is refused), JAX rebinds.
    let apart = args("numpy", "jax");
    assert!(apart["count"].as_u64().unwrap() > 0, "{apart}");
    let text = run(&["diff", "numpy", "jax", "--op", "add", "--form", "inplace"]);
    assert!(
        stdout(&text).contains("add in place (a += b)"),
        "{}",
        stdout(&text)
    );
}

#[test]
fn diff_op_counts_the_cells_x64_changes() {
    // Within one policy the settings apply to both sides, so nothing
    // differs; against NumPy's `add`, the cells differ where promotion does.
    let same = run(&[
        "diff",
        "jax",
        "jax",
        "--op",
        "true_divide",
        "--format",
        "json",
    ]);
    assert!(same.status.success());
    let report: Value = serde_json::from_slice(&same.stdout).unwrap();
    assert_eq!(report["count"], 0);
    assert_eq!(report["op"], "true_divide");
    let add = run(&["diff", "jax", "numpy", "--op", "add", "--format", "json"]);
    assert!(
        add.status.success(),
        "{}",
        String::from_utf8_lossy(&add.stderr)
    );
    let report: Value = serde_json::from_slice(&add.stdout).unwrap();
    assert!(report["count"].as_u64().unwrap() > 0);
}

#[test]
fn explain_op_adds_the_rule_and_the_answer() {
    let output = run(&[
        "explain",
        "--op",
        "true_divide",
        "int32",
        "int32",
        "--format",
        "json",
    ]);
    assert!(output.status.success());
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["join"], "int32");
    let step = &report["operation"];
    assert_eq!(step["op"], "true_divide");
    assert_eq!(step["answer"]["dtype"], "float32");
    assert!(step["rule"]
        .as_str()
        .unwrap()
        .contains("promote_args_inexact"));
    // An operation's error ends explain with exit 1, as result-type does.
    let refused = run(&["explain", "--op", "bitwise_and", "float32", "int8"]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(stdout(&refused).contains("bitwise_and gives TypeError: and does not accept"));
}

/// A policy defined by rules has no graph: `explain --op` gives the
/// operands' `result-type` and the operation's rule and answer, each as
/// `result-type` (with and without `--op`) gives it, exit 1 where the
/// operation raises.
#[test]
fn explain_op_of_a_policy_defined_by_rules_is_result_type_then_the_rule() {
    // The command line writes a message's line feeds as `\n`.
    let answer = |value: &Value| match value.get("error") {
        Some(error) => serde_json::json!({ "error": {
            "type": error["type"],
            "message": error["message"].as_str().unwrap().replace('\n', "\\n"),
        }}),
        None => serde_json::json!({ "ok": value }),
    };
    for policy in ["numpy", "paddle"] {
        for (op, a, b) in [
            ("true_divide", "int8", "int8"),
            ("less", "uint8", "int16"),
            ("bitwise_and", "float32", "int8"),
            ("sqrt", "int16", "int16"),
        ] {
            let args = ["--policy", policy, "--op", op, a, b];
            let output = run(&[&["explain", "--format", "json"], &args[..]].concat());
            let report: Value = serde_json::from_slice(&output.stdout).unwrap();
            assert_eq!(report["outcome"], "rules", "{policy} {op}");
            // A unary operation takes the first type only.
            let operands = if op == "sqrt" { &[a][..] } else { &[a, b][..] };
            let with_op =
                run(&[&["result-type", "--policy", policy, "--op", op], operands].concat());
            assert_eq!(output.status.code(), with_op.status.code(), "{policy} {op}");
            assert_eq!(
                answer(&report["operation"]["answer"]),
                as_answer(&with_op),
                "{policy} {op}"
            );
            assert!(report["operation"]["rule"].is_string(), "{policy} {op}");
            let promotion = run(&[&["result-type", "--policy", policy], operands].concat());
            assert_eq!(
                answer(&report["result_type"]),
                as_answer(&promotion),
                "{policy} {op}"
            );
        }
    }
    let text = stdout(&run(&[
        "explain", "--policy", "numpy", "--op", "sqrt", "int16", "int16",
    ]));
    assert!(
        text.starts_with("int16 in numpy: defined by rules"),
        "{text}"
    );
    assert!(text.contains("\nthen np.sqrt: "), "{text}");
}

#[test]
fn what_cannot_be_answered_is_refused_with_the_reason() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/lattices/jax.toml"
    );
    let cases: [(&[&str], &str); 10] = [
        (
            &[
                "result-type",
                "--op",
                "add",
                "--initial",
                "1",
                "int8",
                "int8",
            ],
            "add takes no initial=",
        ),
        (
            &["result-type", "--op", "sum", "--initial", "int8", "int8"],
            "sum's initial= is a Python number",
        ),
        (
            &["result-type", "--op", "sqrtt", "int8"],
            "unknown operation 'sqrtt': did you mean 'sqrt'?",
        ),
        (
            &["result-type", "--op", "sqrt", "int8", "int8"],
            "sqrt takes 1 operand, not 2",
        ),
        (
            &["table", "--op", "sqrt"],
            "sqrt takes one operand, so it has no table",
        ),
        (
            &[
                "result-type",
                "--policy",
                "numpy-legacy",
                "--op",
                "sqrt",
                "float32",
            ],
            "does not model sqrt yet",
        ),
        (
            &["explain", "--op", "less", "int8", "int8", file],
            "--op explains an operation of a built-in policy",
        ),
        (
            &["table", "--form", "reflected"],
            "the form 'reflected' needs an operation",
        ),
        (
            &[
                "diff", "jax", "numpy", "--op", "maximum", "--form", "operator",
            ],
            "maximum has no Python operator: ask for its function (form 'function')",
        ),
        (
            &["table", "--op", "add", "--form", "setitem"],
            "setitem is the assignment x[...] = v, no operation's form",
        ),
    ];
    for (args, message) in cases {
        let output = run(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}

/// `--form` gives what NumPy recorded for each form
/// (`conformance/golden/forms_numpy.jsonl`), an assignment asked without
/// `--op`.
#[test]
fn result_type_form_gives_what_numpy_recorded() {
    let cases = load("forms_numpy.jsonl");
    let mut checked = 0;
    // Every 97th call: each form, arrays and Python scalars on either side.
    for case in cases.iter().step_by(97) {
        let request = &case.request;
        let mut args = vec!["result-type", "--policy", "numpy"];
        if let Some(op) = request["fn"].as_str() {
            args.extend(["--op", op]);
        }
        args.extend(["--form", request["form"].as_str().unwrap(), "--"]);
        let operands: Vec<String> = request["args"]
            .as_array()
            .unwrap()
            .iter()
            .map(cli_operand)
            .collect();
        args.extend(operands.iter().map(String::as_str));
        let output = run(&args);
        assert!(matches!(output.status.code(), Some(0 | 1)), "{args:?}");
        let ours = as_answer(&output);
        assert_eq!(
            judge(case, &ours),
            Verdict::Same,
            "{args:?}\n  numpy: {}\n  ours:  {ours}",
            case.expected
        );
        checked += 1;
    }
    assert!(checked > 150, "only {checked} calls checked");
}

/// A form Python does not have, or one the policy does not model yet, is
/// refused with the fix (exit 2).
#[test]
fn a_form_python_lacks_is_refused_with_the_fix() {
    let no_operator = run(&[
        "result-type",
        "--op",
        "maximum",
        "--form",
        "operator",
        "int8",
        "int8",
    ]);
    assert_eq!(no_operator.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&no_operator.stderr);
    assert!(
        stderr.contains("maximum has no Python operator: ask for its function"),
        "{stderr}"
    );
    // NumPy's legacy promotion answers no operation in any form.
    let not_modelled = run(&[
        "result-type",
        "--policy",
        "numpy-legacy",
        "--op",
        "add",
        "--form",
        "inplace",
        "int8",
        "int8",
    ]);
    assert_eq!(not_modelled.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&not_modelled.stderr);
    assert!(
        stderr.contains("does not model add in place (a += b) yet"),
        "{stderr}"
    );
    // jax.lax has only functions: `a + b` is the jax policy's.
    let lax = run(&[
        "result-type",
        "--policy",
        "jax-lax",
        "--op",
        "add",
        "--form",
        "operator",
        "int8",
        "int8",
    ]);
    assert_eq!(lax.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&lax.stderr);
    assert!(stderr.contains("ask policy 'jax' for it"), "{stderr}");
}
