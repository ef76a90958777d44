//! The explorer's HTTP API for operations: `/api/info` lists
//! them and which policy models which, `/api/table` and `/api/diff` take
//! `op`, and the batch endpoint answers an operation by name, each as the
//! command line answers (`table --op`, `diff --op`, `result-type --op`,
//! `batch`), refusals in its words.

use crate::support::serve::{cli, Server};
use crate::support::{run, stderr};
use serde_json::{json, Value};

fn cli_json(args: &[&str]) -> Value {
    let out = cli(args, b"");
    serde_json::from_slice(&out)
        .unwrap_or_else(|err| panic!("{args:?}: {err}: {}", String::from_utf8_lossy(&out)))
}

/// The message of the command line's refusal (exit 2), without `error: `.
fn refusal(args: &[&str]) -> String {
    let output = run(args);
    assert_eq!(output.status.code(), Some(2), "{args:?} is refused");
    stderr(&output)
        .trim()
        .strip_prefix("error: ")
        .unwrap_or_else(|| panic!("{args:?}: {}", stderr(&output)))
        .to_owned()
}

/// Each policy's (and preset's) name and the operations `/api/info` says
/// it models.
fn modelled(info: &Value) -> Vec<(String, Vec<String>)> {
    let listed = |key: &str| info[key].as_array().unwrap().clone();
    let mut all = listed("policies");
    all.extend(listed("presets"));
    all.iter()
        .map(|p| {
            let ops = p["operations"].as_array().unwrap();
            let ops = ops.iter().map(|o| o.as_str().unwrap().to_owned()).collect();
            (p["name"].as_str().unwrap().to_owned(), ops)
        })
        .collect()
}

#[test]
fn info_lists_the_operations_and_which_policy_models_which() {
    let server = Server::start();
    let info = server.get("/api/info").json();
    // The elementwise operations, then those on whole arrays with the
    // operands they usually take.
    let ops: Vec<(&str, usize)> = dtype_lattice::Op::ALL
        .iter()
        .map(|op| (op.name(), op.arity()))
        .chain(
            dtype_lattice::ArrayOp::ALL
                .iter()
                .map(|op| (op.name(), op.usual_operands())),
        )
        .collect();
    let listed: Vec<(&str, usize)> = info["operations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|op| {
            (
                op["name"].as_str().unwrap(),
                op["arity"].as_u64().unwrap() as usize,
            )
        })
        .collect();
    assert_eq!(listed, ops);
    // Each with the forms Python writes it in.
    let forms = |i: usize| info["operations"][i]["forms"].clone();
    assert_eq!(
        (&info["operations"][3]["name"], forms(3)),
        (
            &json!("true_divide"),
            json!(["function", "operator", "reflected", "inplace"])
        )
    );
    assert_eq!(forms(9), json!(["function", "operator", "reflected"])); // not_equal
    assert_eq!(
        (&info["operations"][21]["name"], forms(21)),
        (&json!("sqrt"), json!(["function"]))
    );
    // Each policy's forms, with the operations it answers in each: NumPy
    // every form, the assignment with no operation.
    let numpy = info["policies"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "numpy")
        .unwrap();
    let keys: Vec<&String> = numpy["forms"].as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 5, "{keys:?}");
    assert_eq!(numpy["forms"]["setitem"], json!([]));
    assert!(numpy["forms"]["reflected"]
        .as_array()
        .unwrap()
        .contains(&json!("true_divide")));
    let mut names: Vec<&str> = dtype_lattice::registry::POLICIES
        .iter()
        .map(|p| p.name)
        .collect();
    names.extend(dtype_lattice::registry::PRESETS.iter().map(|p| p.name));
    let modelled = modelled(&info);
    assert_eq!(
        modelled
            .iter()
            .map(|(name, _)| name.as_str())
            .collect::<Vec<_>>(),
        names
    );
    // A policy models an operation where `result-type --op` answers it
    // (exit 0, or 1 for the framework's error), not where it refuses (2).
    for (policy, ops) in &modelled {
        for op in dtype_lattice::Op::ALL {
            let mut args = vec!["result-type", "--policy", policy, "--op", op.name()];
            args.extend(std::iter::repeat_n("int8", op.arity()));
            let code = run(&args).status.code();
            assert_eq!(
                ops.iter().any(|o| o == op.name()),
                code != Some(2),
                "{policy} {op}: exit {code:?}"
            );
        }
    }
    // And those on whole arrays, asked of int8 arrays (`where`'s condition
    // a bool one), as `/api/info` probes them.
    for (policy, ops) in &modelled {
        for op in dtype_lattice::ArrayOp::ALL {
            let mut args = vec!["result-type", "--policy", policy, "--op", op.name()];
            if op == dtype_lattice::ArrayOp::Where {
                args.push("bool");
            }
            args.extend(std::iter::repeat_n("int8", op.usual_operands().min(2)));
            let code = run(&args).status.code();
            assert_eq!(
                ops.iter().any(|o| o == op.name()),
                code != Some(2),
                "{policy} {op}: exit {code:?}"
            );
        }
    }
    assert_eq!(
        modelled[0].1.len(),
        dtype_lattice::Op::COUNT + dtype_lattice::ArrayOp::COUNT,
        "jax models every operation"
    );
}

/// `/api/table?op=OP` is `table --op OP --format json --labels short`, with
/// the drawing's file name beside it: every binary operation for JAX (its
/// settings too), a few for every policy that models them.
#[test]
fn operation_tables_are_the_command_lines() {
    let server = Server::start();
    let info = server.get("/api/info").json();
    let mut cases: Vec<(String, &str, &str)> = Vec::new();
    for op in dtype_lattice::Op::ALL.iter().filter(|op| op.arity() == 2) {
        cases.push(("jax".into(), op.name(), ""));
    }
    for flags in ["&x64=true", "&strict=true", "&types=all"] {
        cases.push(("jax".into(), "true_divide", flags));
    }
    for (policy, ops) in modelled(&info).into_iter().skip(1) {
        for op in ["add", "true_divide", "less", "bitwise_and"] {
            if ops.iter().any(|o| o == op) {
                cases.push((policy.clone(), op, ""));
            }
        }
    }
    assert!(cases.len() > 30, "{cases:?}");
    for (policy, op, flags) in &cases {
        let mut ours = server
            .get(&format!("/api/table?policy={policy}&op={op}{flags}"))
            .json();
        // A key to its graph where the page can explain and draw one: its
        // lattice, or the graph its rules are written on.
        let listed = ["policies", "presets"]
            .iter()
            .flat_map(|key| info[*key].as_array().unwrap())
            .find(|p| p["name"] == policy.as_str())
            .unwrap();
        assert_eq!(
            ours["graph"].is_string(),
            listed["graph"] == true,
            "{policy} {op}"
        );
        // What `diff --op` compares, beside the table: the browser tests
        // check the page's comparison of two of them against `diff`.
        for extra in ["graph", "compared", "native", "column_native"] {
            ours.as_object_mut().unwrap().remove(extra);
        }
        let mut args = vec![
            "table", "--format", "json", "--labels", "short", "--policy", policy, "--op", op,
        ];
        for (flag, arg) in [("x64", "--x64"), ("strict", "--strict"), ("all", "--all")] {
            if flags.contains(flag) {
                args.push(arg);
            }
        }
        assert_eq!(ours, cli_json(&args), "{policy} {op} {flags}");
        assert_eq!(ours["op"], *op);
    }
    // An alias is its operation; no `op` is promotion's table.
    let divide = server.get("/api/table?op=divide").json();
    assert_eq!(divide["op"], "true_divide");
    assert_eq!(divide["rows"][5][5], "f4", "int8 / int8 is float32");
    let promotion = server.get("/api/table").json();
    assert_eq!(promotion["op"], Value::Null);
    assert_eq!(promotion["rows"][5][5], "i1");
}

/// `/api/diff?op=OP` is `diff --op OP --format json --labels short`, byte
/// for byte.
#[test]
fn operation_diffs_are_the_command_lines() {
    let server = Server::start();
    for (left, right, op, extra) in [
        ("jax", "numpy", "true_divide", "&x64=true"),
        ("jax", "numpy", "less", ""),
        ("numpy", "array-api", "true_divide", "&types=all"),
        ("jax", "tensorflow", "power", "&strict=1"),
    ] {
        let ours = server.get(&format!(
            "/api/diff?left={left}&right={right}&op={op}{extra}"
        ));
        assert_eq!(ours.status, 200, "{left} {right} {op}: {}", ours.text());
        let mut args = vec![
            "diff", left, right, "--op", op, "--format", "json", "--labels", "short",
        ];
        for (flag, arg) in [("all", "--all"), ("x64", "--x64"), ("strict", "--strict")] {
            if extra.contains(flag) {
                args.push(arg);
            }
        }
        assert_eq!(ours.body, cli(&args, b""), "{left} {right} {op} {extra}");
        assert_eq!(ours.json()["op"], op);
    }
}

/// What the API refuses, in the command line's words: an unknown operation
/// (400, the library's "did you mean"), a unary one's table or diff (400),
/// one a policy does not model (422).
#[test]
fn operations_are_refused_in_the_command_lines_words() {
    let server = Server::start();
    let unknown = server.get("/api/table?op=sqrtt");
    assert_eq!(unknown.status, 400);
    assert_eq!(
        unknown.message(),
        "sqrtt"
            .parse::<dtype_lattice::Op>()
            .unwrap_err()
            .to_string()
    );
    assert_eq!(
        unknown.message(),
        "unknown operation 'sqrtt': did you mean 'sqrt'?"
    );
    assert_eq!(server.get("/api/diff?left=jax&right=numpy&op=").status, 400);
    let unary = server.get("/api/table?op=sqrt");
    assert_eq!(unary.status, 400);
    assert_eq!(unary.message(), refusal(&["table", "--op", "sqrt"]));
    let unary_diff = server.get("/api/diff?left=jax&right=numpy&op=negative");
    assert_eq!(unary_diff.status, 400);
    assert_eq!(
        unary_diff.message(),
        refusal(&["diff", "jax", "numpy", "--op", "negative"])
    );
    // A binary operation some policy does not model (numpy-legacy models
    // none today; the test follows /api/info as policies gain operations).
    let info = server.get("/api/info").json();
    let unmodelled = modelled(&info).into_iter().find_map(|(policy, ops)| {
        dtype_lattice::Op::ALL
            .iter()
            .find(|op| op.arity() == 2 && !ops.iter().any(|o| o == op.name()))
            .map(|op| (policy, op.name()))
    });
    if let Some((policy, op)) = unmodelled {
        let table = server.get(&format!("/api/table?policy={policy}&op={op}"));
        assert_eq!(table.status, 422, "{policy} {op}");
        let words = refusal(&["table", "--policy", &policy, "--op", op]);
        assert_eq!(table.message(), words);
        assert!(words.contains("does not model"), "{words}");
        // Either side of a diff.
        for (left, right) in [("jax", policy.as_str()), (policy.as_str(), "jax")] {
            let diff = server.get(&format!("/api/diff?left={left}&right={right}&op={op}"));
            assert_eq!(diff.status, 422, "{left} {right} {op}");
            assert_eq!(
                diff.message(),
                refusal(&["diff", left, right, "--op", op]),
                "{left} {right} {op}"
            );
        }
    }
    // Only the table and the diff take an operation.
    let explain = server.get("/api/explain?a=int8&b=int8&op=less");
    assert_eq!(explain.status, 400);
    assert!(explain.message().contains("unknown parameter 'op'"));
}

/// The playground's request: one batch line per policy naming the
/// operation, answered as `dtype-lattice batch` answers it (a policy that
/// does not model it says so in the protocol's words).
#[test]
fn the_batch_answers_operations_as_the_command_line() {
    let server = Server::start();
    let mut lines = String::new();
    for policy in dtype_lattice::registry::names() {
        for (op, args) in [("less", json!(["int8", "2.5"])), ("sqrt", json!(["int8"]))] {
            lines.push_str(&json!({"fn": op, "args": args, "policy": policy}).to_string());
            lines.push('\n');
        }
    }
    let ours = server.post("/api/batch?x64=true", lines.as_bytes());
    assert_eq!(ours.status, 200);
    assert_eq!(ours.header("content-type"), Some("application/jsonl"));
    assert_eq!(ours.body, cli(&["batch", "--x64"], lines.as_bytes()));
    let answers: Vec<Value> = ours
        .text()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(answers[0], json!({"ok": {"dtype": "bool", "weak": true}}));
    assert!(answers.iter().any(|a| a["error"]["message"]
        .as_str()
        .is_some_and(|m| m.contains("does not model"))));
}
