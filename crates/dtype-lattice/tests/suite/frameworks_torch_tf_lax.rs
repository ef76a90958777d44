//! The `torch`, `tensorflow`, `tensorflow-safe`, `tensorflow-all` and
//! `jax-lax` policies beyond the case-by-case check of `golden.rs`: their
//! lattices and batch routing (the command line over them: the CLI crate's
//! test of the same name).
//!
//! Expected values come only from the golden data written by
//! `conformance/generate_torch.py` (PyTorch 2.15.0),
//! `conformance/generate_tensorflow.py` and
//! `conformance/generate_ops_tensorflow.py` (TensorFlow 2.21.0) and
//! `conformance/generate_jax_lax.py` (JAX 0.10.2).

use dtype_lattice::registry::by_name;
use dtype_lattice::registry::Settings;
use dtype_lattice::DType;
use dtype_lattice_testkit::golden::{answer, answers as golden};
use serde_json::{json, Value};

#[test]
fn tensorflow_without_numpy_behaviour_promotes_as_tf_add() {
    let answers = golden(&["ops_tensorflow.jsonl"]);
    let mut checked = 0;
    for ((f, policy, args, _), expected) in &answers {
        if policy != "tensorflow" || f != "add" {
            continue;
        }
        let request = json!({"fn": "result_type", "policy": policy, "args": serde_json::from_str::<Value>(args).unwrap()});
        assert_eq!(&protocol_answer(&request), expected, "{request}");
        checked += 1;
    }
    // The call lines generate_tensorflow.py recorded (no operand, 43
    // single operands, their pairs), and the op table's pairs of its 31
    // forms with one of the three those lines do not spell alike (2, 2.5
    // and 2j).
    assert_eq!(checked, 1 + 43 + 43 * 43 + (31 * 31 - 28 * 28));
}

#[test]
fn tensorflow_safe_refuses_a_subset_of_what_all_allows() {
    let answers = golden(&[
        "tensorflow_safe_result_type.jsonl",
        "tensorflow_all_result_type.jsonl",
    ]);
    let mut refused = 0;
    for ((f, policy, args, x64), safe) in &answers {
        if policy != "tensorflow-safe" {
            continue;
        }
        let all = &answers[&(f.clone(), "tensorflow-all".to_owned(), args.clone(), *x64)];
        let message = safe["error"]["message"].as_str().unwrap_or("");
        if message.starts_with("In promotion mode PromoMode.SAFE") {
            refused += 1;
            assert!(all.get("ok").is_some(), "{args}: all mode {all}");
        } else {
            assert_eq!(safe, all, "{args}");
        }
    }
    assert_eq!(refused, 148, "pairs mode safe refuses");
}

#[test]
fn tensorflow_all_is_its_lattice_for_every_pair_of_nodes() {
    let answers = golden(&["tensorflow_all_result_type.jsonl"]);
    let policy = by_name("tensorflow-all", Settings::default()).unwrap();
    let lattice = policy.lattice().expect("mode all is a lattice");
    let mut pairs = 0;
    for ((_, _, args, _), expected) in &answers {
        let args: Value = serde_json::from_str(args).unwrap();
        let [a, b] = args.as_array().unwrap().as_slice() else {
            continue;
        };
        let (Some(a), Some(b)) = (tf_label(a), tf_label(b)) else {
            continue;
        };
        let (Some(a), Some(b)) = (lattice.node(&a), lattice.node(&b)) else {
            continue;
        };
        let joined = lattice.label(lattice.join(a, b).unwrap());
        let ok = &expected["ok"];
        let measured = if ok["weak"] == true {
            format!("weak:{}", ok["dtype"].as_str().unwrap())
        } else {
            ok["dtype"].as_str().unwrap().to_owned()
        };
        assert_eq!(joined, measured, "{args}");
        pairs += 1;
    }
    assert_eq!(pairs, 20 * 20, "every pair of the 20 nodes is measured");
}

#[test]
fn torchs_lattice_is_its_promote_types_table() {
    let answers = golden(&["torch_promote_types.jsonl"]);
    let policy = by_name("torch", Settings::default()).unwrap();
    let lattice = policy.lattice().unwrap();
    let nodes: Vec<&str> = lattice
        .poset()
        .labels()
        .iter()
        .map(String::as_str)
        .collect();
    assert_eq!(nodes.len(), 13);
    for a in &nodes {
        for b in &nodes {
            let joined = lattice.join(lattice.node(a).unwrap(), lattice.node(b).unwrap());
            let expected = &answer(&answers, "promote_types", "torch", &json!([a, b]))["ok"];
            assert_eq!(json!(lattice.label(joined.unwrap())), *expected, "{a} {b}");
        }
    }
}

#[test]
fn only_lattice_policies_expose_a_lattice() {
    for (name, lattice) in [
        ("torch", true),
        ("tensorflow", false),
        ("tensorflow-safe", false),
        ("tensorflow-all", true),
        ("jax-lax", false),
    ] {
        let policy = by_name(name, Settings::default()).unwrap();
        assert_eq!(policy.lattice().is_some(), lattice, "{name}");
    }
}

#[test]
fn batch_answers_add_and_can_cast_alike_for_every_policy() {
    let ask = |request: Value| protocol_answer(&request);
    // JAX answers `add` as `jnp.add` (an operation); NumPy 1's table has
    // no operations.
    let reply = ask(json!({"fn": "add", "policy": "jax", "args": ["int8", "int8"]}));
    assert_eq!(reply["ok"]["dtype"], "int8");
    {
        let policy = "numpy-legacy";
        let reply = ask(json!({"fn": "add", "policy": policy, "args": ["int8", "int8"]}));
        let message = reply["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("does not model add"),
            "{policy}: {message}"
        );
        assert!(!message.contains("is JAX's"), "{policy}: {message}");
    }
    for policy in ["jax", "torch", "tensorflow-all", "jax-lax"] {
        let reply = ask(json!({"fn": "can_cast", "policy": policy, "args": ["int8", "int16"]}));
        let message = reply["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("does not model fn \"can_cast\""),
            "{policy}"
        );
    }
    // The dtype facts are NumPy's (and JAX's), whatever the policy.
    let reply = ask(json!({"fn": "finfo", "policy": "torch", "args": ["float32"]}));
    assert_eq!(reply, ask(json!({"fn": "finfo", "args": ["float32"]})));
    assert!(reply["ok"].is_object(), "{reply}");
    let reply = ask(json!({"fn": "frobnicate", "policy": "torch", "args": []}));
    assert!(reply["error"]["message"]
        .as_str()
        .unwrap()
        .starts_with("unknown fn \"frobnicate\""));
}

#[test]
fn dtypes_a_framework_lacks_are_refused_by_name() {
    for (policy, dtype) in [
        ("torch", "float8_e3m4"),
        ("tensorflow", "float8_e8m0fnu"),
        ("tensorflow-all", "uint1"),
    ] {
        let policy = by_name(policy, Settings::default()).unwrap();
        let dtype: DType = dtype.parse().unwrap();
        assert!(!policy.is_native(dtype));
        let err = policy
            .promote_types(dtype.into(), DType::Int8.into())
            .unwrap_err();
        assert!(err.to_string().contains(&format!("'{dtype}'")), "{err}");
    }
}

/// The lattice label of a golden operand of the NumPy modes.
fn tf_label(operand: &Value) -> Option<String> {
    match operand {
        Value::String(name) if !name.starts_with("py:") => Some(name.clone()),
        Value::Object(array) => Some(format!("weak:{}", array.get("dtype")?.as_str()?)),
        _ => None,
    }
}

/// The batch protocol's answer to one request, as the CLI's `batch` gives it.
fn protocol_answer(request: &Value) -> Value {
    let line = dtype_lattice::protocol::answer_line(&request.to_string(), Settings::default());
    serde_json::from_str(&line).expect("an answer is JSON")
}
