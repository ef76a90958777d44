use super::judge::as_read;
use super::*;
use crate::design::audit::violations;
use crate::policy::Policy;
use crate::registry;
use crate::types::{DType, Operand};
use DType::*;

fn strong(dtype: DType) -> Typed {
    Typed::strong(dtype)
}

fn weak(dtype: DType) -> Typed {
    Typed::weak(dtype)
}

/// A call of `operation` at `file:line`, answered as JAX's default policy
/// answers the operands (the recorder's result is JAX's `result_type`).
fn call(file: &str, line: u32, operation: &str, operands: &[Typed]) -> Call {
    call_with(file, line, operation, operands, Settings::default())
}

fn call_with(
    file: &str,
    line: u32,
    operation: &str,
    operands: &[Typed],
    settings: Settings,
) -> Call {
    let jax = registry::POLICIES[0].build(settings);
    let read: Vec<Operand> = operands.iter().map(|&t| as_read(t)).collect();
    let result = jax.result_type(&read).map_err(|err| Refusal {
        error: err.python_type().to_owned(),
        message: err.to_string(),
    });
    let site = Site::new(file, line, "f", "");
    Call::new(site, operation, operands.to_vec(), result, settings)
}

#[test]
fn identical_calls_aggregate_and_other_configurations_do_not() {
    let x64 = Settings {
        x64: true,
        ..Settings::default()
    };
    let add = [strong(Int8), strong(UInt8)];
    let mut three = call("a.py", 1, "add", &add);
    three.count = 3;
    let report = Promotions::new(
        [
            call("a.py", 1, "add", &add),
            three,
            call_with("a.py", 1, "add", &add, x64),
            call("a.py", 2, "add", &add),
            call("a.py", 1, "subtract", &add),
            call("a.py", 1, "add", &[strong(UInt8), strong(Int8)]),
        ],
        &[],
    );
    assert_eq!(report.entries.len(), 5);
    assert_eq!(report.calls(), 8);
    let counts: Vec<(u32, &str, bool, u64)> = report
        .entries
        .iter()
        .map(|e| {
            (
                e.call.site.line,
                e.call.operation.as_str(),
                e.call.settings.x64,
                e.call.count,
            )
        })
        .collect();
    assert!(counts.contains(&(1, "add", false, 4)), "{counts:?}");
    assert!(counts.contains(&(1, "add", true, 1)), "{counts:?}");
    assert_eq!(report.configurations().len(), 2);
}

fn entry(operation: &str, operands: &[Typed]) -> Entry {
    let report = Promotions::new([call("a.py", 1, operation, operands)], &[]);
    report.entries[0].clone()
}

/// Implicit is what strict JAX refuses: Python scalars may meet arrays of
/// their own kind, nothing else promotes (JAX's type promotion docs). A
/// promotion changes an array's dtype: a Python scalar taking the array's
/// type does not.
#[test]
fn implicit_is_what_strict_jax_refuses_and_promotes_what_changes_an_array() {
    // (operands, promotes, implicit)
    let cases = [
        (vec![strong(Float32), weak(Float32)], false, false),
        (vec![strong(Int8), weak(Int32)], false, false),
        (vec![strong(BFloat16), weak(Float32)], false, false),
        (vec![strong(Float32), strong(Float32)], false, false),
        (vec![strong(Int32)], false, false),
        (vec![weak(Int32), weak(Int32)], false, false),
        (vec![weak(Int32), weak(Float32)], true, false),
        (vec![strong(Int32), weak(Float32)], true, true),
        (vec![strong(BFloat16), strong(Float32)], true, true),
        (vec![strong(Int8), strong(UInt8)], true, true),
        (vec![strong(Bool), weak(Int32)], true, true),
    ];
    for (operands, promotes, implicit) in cases {
        let judged = entry("add", &operands);
        assert_eq!(
            (judged.promotes, judged.implicit),
            (promotes, implicit),
            "{operands:?}"
        );
    }
}

/// The criteria are the audit's, on the array operands and the result.
#[test]
fn criteria_judge_array_operands_against_the_result() {
    let criteria = |operands: &[Typed]| entry("add", operands).criteria;
    assert_eq!(
        criteria(&[strong(Int32), weak(Float32)]),
        violations(Int32, Int32, Float32)
    );
    assert_eq!(
        criteria(&[strong(Int8), strong(UInt8)]),
        violations(Int8, UInt8, Int16)
    );
    // Three arrays: wider than the widest only, each input's range and
    // precision against the result.
    assert!(criteria(&[strong(Int8), strong(UInt8), strong(Int16)]).is_empty());
    assert!(criteria(&[weak(Int32), weak(Float32)]).is_empty());
}

#[test]
fn the_riskiest_come_first() {
    let calls = [
        call("a.py", 1, "add", &[strong(Float32), strong(Float32)]),
        call("a.py", 2, "add", &[strong(Int8), strong(UInt8)]),
        call("a.py", 3, "add", &[strong(Int32), strong(Float32)]),
        call("a.py", 4, "add", &[strong(Float16), strong(Int32)]),
        call("a.py", 5, "add", &[strong(Float8E4M3Fn), strong(Float32)]),
        call("a.py", 6, "add", &[strong(BFloat16), strong(Float32)]),
    ];
    let report = Promotions::new(calls, &[]);
    let lines: Vec<u32> = report.entries.iter().map(|e| e.call.site.line).collect();
    // JAX refuses float8 with float32; then each entry's most serious
    // criterion in the notebook's order, the implicit one without criteria
    // before the no-op.
    assert_eq!(lines[0], 5);
    let severity = |e: &Entry| e.criteria.first().map_or(4, |&c| c as usize);
    for pair in report.entries[1..].windows(2) {
        assert!(severity(&pair[0]) <= severity(&pair[1]), "{lines:?}");
    }
    assert_eq!(lines[lines.len() - 2..], [6, 1]);
}

#[test]
fn compared_answers_ask_the_operation_where_both_model_it() {
    let specs = PolicySpec::parse_list("numpy,strict").unwrap();
    let report = Promotions::new(
        [
            call("a.py", 1, "true_divide", &[strong(Int32), strong(Int32)]),
            call("a.py", 2, "matmul", &[strong(Int8), strong(Float32)]),
            call("a.py", 3, "multiply", &[strong(Int32), weak(Float32)]),
        ],
        &specs,
    );
    let entry = |line| {
        report
            .entries
            .iter()
            .find(|e| e.call.site.line == line)
            .unwrap()
    };
    let numpy = by_name("numpy");
    let jax = by_name("jax");
    let ints = [Operand::array(Int32, false); 2];
    let divide = &entry(1).compared[0];
    assert_eq!(divide.question, Question::Operation(Op::TrueDivide));
    assert_eq!(
        Some(divide.answer.clone()),
        numpy.operation(Op::TrueDivide, &ints)
    );
    assert_eq!(
        Some(divide.reference.clone()),
        jax.operation(Op::TrueDivide, &ints)
    );
    assert!(divide.differs);
    let matmul = &entry(2).compared[0];
    assert_eq!(matmul.question, Question::Promotion);
    let mixed = [Operand::array(Int8, false), Operand::array(Float32, false)];
    assert_eq!(matmul.answer, numpy.result_type(&mixed));
    // The weak float is the Python float 2.0 for every policy.
    let scalar = [Operand::array(Int32, false), Operand::py_float(2.0)];
    let strict = &entry(3).compared[1];
    assert_eq!(strict.spec, "strict=true");
    assert!(strict.fails() && strict.differs);
    assert_eq!(
        entry(3).compared[0].answer,
        numpy.operation(Op::Multiply, &scalar).unwrap()
    );
}

fn by_name(name: &str) -> Box<dyn Policy> {
    registry::by_name(name, Settings::default()).unwrap()
}

#[test]
fn filters_keep_what_they_name() {
    let calls = [
        call(
            "src/model.py",
            1,
            "add",
            &[strong(Float32), strong(Float32)],
        ),
        call("src/model.py", 2, "add", &[strong(Int8), strong(UInt8)]),
        call("src/model.py", 3, "add", &[strong(Int32), weak(Float32)]),
        call("tests/t.py", 4, "add", &[strong(Float32), weak(Float32)]),
        call(
            "srcx/t.py",
            5,
            "true_divide",
            &[strong(Int32), strong(Int32)],
        ),
    ];
    let report = Promotions::new(calls, &PolicySpec::parse_list("numpy").unwrap());
    let lines = |filter: Filter| -> Vec<u32> {
        let mut lines: Vec<u32> = report
            .filter(&filter)
            .entries
            .iter()
            .map(|e| e.call.site.line)
            .collect();
        lines.sort();
        lines
    };
    // Line 1 promotes nothing, line 4 neither (the Python float is a
    // float32 already) and both match NumPy 2: hidden by default.
    assert_eq!(lines(Filter::default()), [2, 3, 5]);
    assert_eq!(report.filter(&Filter::default()).hidden, 2);
    let noops = Filter {
        noops: true,
        ..Filter::default()
    };
    assert_eq!(lines(noops), [1, 2, 3, 4, 5]);
    let under = Filter {
        under: Some("src".into()),
        ..Filter::default()
    };
    assert_eq!(lines(under), [2, 3]);
    let implicit = Filter {
        implicit: true,
        ..Filter::default()
    };
    assert_eq!(lines(implicit), [2, 3]);
    let loss = Filter {
        criterion: Some(Criterion::PrecisionLoss),
        ..Filter::default()
    };
    assert_eq!(lines(loss.clone()), [3]);
    // int32 * 2.0 is float32 in JAX and float64 in NumPy, as is int32 / int32.
    let differences = Filter {
        differences: true,
        ..Filter::default()
    };
    assert_eq!(lines(differences), [3, 5]);
    let filtered_twice = report.filter(&Filter::default()).filter(&loss);
    assert_eq!(filtered_twice.hidden, 4);
}

#[cfg(feature = "json")]
#[test]
fn the_json_has_every_field_of_every_entry() {
    let mut refused = call("a.py", 9, "add", &[strong(Float8E4M3Fn), strong(Float32)]);
    refused.count = 2;
    let report = Promotions::new(
        [
            refused,
            call("a.py", 3, "multiply", &[strong(Int32), weak(Float32)]),
        ],
        &PolicySpec::parse_list("numpy,torch").unwrap(),
    );
    let json = report.to_json();
    assert_eq!(json["calls"], 3);
    assert_eq!(json["hidden"], 0);
    assert_eq!(json["compared"], serde_json::json!(["numpy", "torch"]));
    assert_eq!(
        json["configurations"],
        serde_json::json!(["jax (x64 off, standard)"])
    );
    let entries = json["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 2);
    for (entry, ours) in entries.iter().zip(&report.entries) {
        assert_eq!(entry["site"]["line"], ours.call.site.line);
        assert_eq!(entry["count"], ours.call.count);
        assert_eq!(entry["implicit"], ours.implicit);
        assert_eq!(entry["promotes"], ours.promotes);
        assert_eq!(
            entry["operands"].as_array().unwrap().len(),
            ours.call.operands.len()
        );
        assert_eq!(entry["compared"].as_array().unwrap().len(), 2);
        for answer in entry["compared"].as_array().unwrap() {
            for field in [
                "spec",
                "policy",
                "question",
                "answer",
                "reference",
                "differs",
                "fails",
            ] {
                assert!(answer.get(field).is_some(), "{field}");
            }
        }
    }
    assert_eq!(entries[0]["result"]["error"]["type"], "TypePromotionError");
    assert_eq!(entries[1]["result"]["dtype"], "float32");
    assert_eq!(
        entries[1]["operands"][1],
        serde_json::json!({"dtype": "float32", "weak": true})
    );
    assert_eq!(
        entries[1]["criteria"],
        serde_json::json!(["precision_loss"])
    );
}

#[test]
fn the_text_names_every_entry_and_its_judgement() {
    let report = Promotions::new(
        [call("a.py", 3, "multiply", &[strong(Int32), weak(Float32)])],
        &PolicySpec::parse_list("numpy").unwrap(),
    );
    let text = report.to_string();
    assert!(text.contains("a.py:3 in f"), "{text}");
    // JAX's int32 array times a Python float is a weak float32.
    assert!(
        text.contains("multiply(int32, weak:float32) -> weak:float32: implicit"),
        "{text}"
    );
    assert!(text.contains("precision_loss"), "{text}");
    assert!(
        text.contains("numpy: float64, differs (jax: weak:float32)"),
        "{text}"
    );
    // What an operation gives beside what it promotes to, where they differ.
    let divide = Promotions::new(
        [call(
            "a.py",
            4,
            "true_divide",
            &[strong(Int8), strong(Int8)],
        )],
        &[],
    );
    let jax = by_name("jax");
    let gives = jax
        .operation(Op::TrueDivide, &[Operand::array(Int8, false); 2])
        .unwrap()
        .unwrap();
    assert!(divide.to_string().contains(&format!(
        "true_divide(int8, int8) -> int8 (true_divide gives {})",
        gives.dtype
    )));
}

/// A call PyTorch made, with what PyTorch 2.15.0 returned (run on CPU).
fn torch_call(
    line: u32,
    operation: &str,
    operands: &[Typed],
    zero_dim: Vec<usize>,
    result: DType,
) -> Call {
    let site = Site::new("model.py", line, "forward", "");
    let torch = registry::policy_info("torch").unwrap();
    Call::new(
        site,
        operation,
        operands.to_vec(),
        Ok(strong(result)),
        Settings::default(),
    )
    .recorded_by(torch, zero_dim)
}

#[test]
fn a_pytorch_call_is_judged_against_pytorch_and_ported_operand_by_operand() {
    let x64: Vec<PolicySpec> = PolicySpec::parse_list("jax:x64,numpy").unwrap();
    // torch.ones(3, dtype=torch.int8) * torch.tensor(1000) -> int8;
    // torch.ones(3, dtype=torch.float16) + torch.tensor(1.0, dtype=torch.float64) -> float16;
    // torch.ones(3, dtype=torch.int8) + 2.5 -> float32.
    let calls = [
        torch_call(3, "multiply", &[strong(Int8), strong(Int64)], vec![1], Int8),
        torch_call(
            4,
            "add",
            &[strong(Float16), strong(Float64)],
            vec![1],
            Float16,
        ),
        torch_call(5, "add", &[strong(Int8), weak(Float64)], vec![], Float32),
    ];
    let report = Promotions::new(calls, &x64);
    assert_eq!(report.frameworks(), ["torch"]);
    assert_eq!(report.configurations(), ["torch"]);
    let at = |line: u32| {
        report
            .entries
            .iter()
            .find(|e| e.call.site.line == line)
            .unwrap()
    };
    for line in [3, 4, 5] {
        let entry = at(line);
        // PyTorch has no strict mode: nothing is judged implicit.
        assert!(!entry.implicit, "line {line}");
        // The reference is PyTorch's own answer, what PyTorch returned.
        for answer in &entry.compared {
            assert_eq!(
                answer.reference.as_ref().map(|t| t.dtype),
                entry
                    .call
                    .result
                    .as_ref()
                    .map(|t| t.dtype)
                    .map_err(|_| unreachable!()),
                "line {line}"
            );
        }
    }
    // What JAX (x64) and NumPy 2.5.5 compute on the same values, ported: a
    // 0-d tensor as a 0-d array, a Python float as a Python float.
    // jnp.ones(3, jnp.int8) * jnp.asarray(1000, jnp.int64) -> int64;
    // np.ones(3, np.int8) * np.asarray(1000, np.int64) -> int64.
    let dtypes = |line: u32| -> Vec<DType> {
        at(line)
            .compared
            .iter()
            .map(|a| a.answer.as_ref().unwrap().dtype)
            .collect()
    };
    assert_eq!(dtypes(3), [Int64, Int64]);
    // jnp float16 array + jnp.asarray(1.0, jnp.float64) -> float64 (x64);
    // np.ones(3, np.float16) + np.asarray(1.0, np.float64) -> float64.
    assert_eq!(dtypes(4), [Float64, Float64]);
    // jnp.ones(3, jnp.int8) + 2.5 -> float64 with x64 (float32 without);
    // np.ones(3, np.int8) + 2.5 -> float64.
    assert_eq!(dtypes(5), [Float64, Float64]);
    assert!(at(3).compared.iter().all(|a| a.differs));
}

#[cfg(feature = "json")]
#[test]
fn a_pytorch_report_names_its_framework_in_text_and_json() {
    let call = torch_call(3, "multiply", &[strong(Int8), strong(Int64)], vec![1], Int8);
    let scalar = torch_call(5, "add", &[strong(Int8), weak(Float64)], vec![], Float32);
    let report = Promotions::new([call, scalar], &PolicySpec::parse_list("jax").unwrap());
    let text = report.to_string();
    assert!(
        text.starts_with("2 entries, 2 calls, under torch, compared with jax"),
        "{text}"
    );
    assert!(text.contains("multiply(int8, 0d:int64) -> int8"), "{text}");
    assert!(text.contains("add(int8, py:float) -> float32"), "{text}");
    // jnp.ones(3, jnp.int8) * jnp.asarray(1000, jnp.int64) -> int32 (x64 off).
    assert!(text.contains("jax: int32, differs (torch: int8)"), "{text}");
    assert!(!text.contains("implicit"), "{text}");
    let json = report.to_json();
    assert_eq!(json["frameworks"], serde_json::json!(["torch"]));
    let entry = json["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["site"]["line"] == 3)
        .unwrap();
    assert_eq!(entry["framework"], "torch");
    assert_eq!(entry["zero_dim"], serde_json::json!([1]));
    assert_eq!(entry["compared"][0]["reference"]["dtype"], "int8");
}

#[test]
fn calls_of_two_frameworks_at_one_line_stay_apart() {
    let torch = torch_call(3, "add", &[strong(Int8), strong(UInt8)], vec![], Int16);
    let mut jax = call("model.py", 3, "add", &[strong(Int8), strong(UInt8)]);
    jax.site.function = "forward".into();
    let report = Promotions::new([torch, jax], &[]);
    assert_eq!(report.entries.len(), 2);
    assert_eq!(report.frameworks().len(), 2);
    // JAX's call is judged implicit (strict JAX refuses int8 + uint8), PyTorch's is not.
    let implicit: Vec<(&str, bool)> = report
        .entries
        .iter()
        .map(|e| (e.call.framework.name, e.implicit))
        .collect();
    assert!(implicit.contains(&("jax", true)) && implicit.contains(&("torch", false)));
}

#[test]
fn a_dtype_the_ported_to_framework_lacks_is_its_refusal() {
    // torch.ones(2, dtype=torch.complex128) + torch.ones(2, dtype=torch.complex128) -> complex128;
    // MLX has no complex128 (`mlx.core` has no attribute `complex128`).
    let c128 = strong(Complex128);
    let call = torch_call(7, "add", &[c128, c128], vec![], Complex128);
    let report = Promotions::new([call], &PolicySpec::parse_list("mlx").unwrap());
    let answer = &report.entries[0].compared[0];
    assert!(answer.fails() && answer.differs);
    assert_eq!(answer.reference, Ok(c128));
    assert!(report.entries[0].differs());
}

#[test]
fn a_numpy_scalar_keeps_its_value_for_numpy_1() {
    // np.ones(2, np.int8) + np.int64(300): NumPy 2.4.6 answers int64 (a
    // NumPy scalar promotes as an array); NumPy 1.26.4 answered int16, by
    // the value (golden: numpy1_result_type.jsonl, ["int8","0d:int64=300"]).
    let site = Site::new("old.py", 7, "<module>", "y = x + np.int64(300)");
    let numpy = registry::policy_info("numpy").unwrap();
    let call = Call::new(
        site,
        "add",
        vec![strong(Int8), strong(Int64)],
        Ok(strong(Int64)),
        Settings::default(),
    )
    .recorded_by(numpy, vec![1])
    .with_values(vec![None, Some(Operand::py_int(300))]);
    let report = Promotions::new([call], &PolicySpec::parse_list("numpy1").unwrap());
    let answer = &report.entries[0].compared[0];
    assert_eq!(answer.answer, Ok(strong(Int16)));
    assert!(answer.differs);
    assert!(
        report.to_string().contains("add(int8, 0d:int64=300)"),
        "{report}"
    );
}
