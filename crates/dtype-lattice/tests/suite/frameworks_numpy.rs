//! The `numpy`, `numpy-legacy` and `array-api` policies against what the
//! real libraries and the seed documents say (the command line's tables
//! and diffs of them are the CLI crate's `frameworks_numpy` test).
//!
//! Expected values come from three places only:
//! - golden data written by `conformance/generate_numpy.py` from NumPy 2.5.5,
//!   ml_dtypes 0.6.0 and array-api-strict 2.6.1 (`golden.rs` checks every
//!   file through batch; `can_cast` and `add` are checked here through the
//!   library too);
//! - fixtures extracted by `conformance/extract_seed_tables.py` from the seed
//!   documents: the NumPy table of JAX's design notebook and the cells JAX's
//!   documentation highlights as differing from NumPy;
//! - the design notebook's printed output for its non-associativity example.

use std::path::{Path, PathBuf};

use dtype_lattice::design::associativity::non_associative;
use dtype_lattice::frameworks::numpy::{Numpy, NumpyLegacy};
use dtype_lattice::{DType, Op, Operand, Policy, TypeSpec, Typed};
use dtype_lattice_testkit::golden::load;
use serde_json::Value;

fn conformance() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../conformance")
}

/// The call lines of a golden file (its header is checked by `golden.rs`).
fn golden(name: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(conformance().join("golden").join(name)).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .skip(1)
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert!(!lines.is_empty(), "{name} has no cases");
    lines
}

fn dtype(value: &Value) -> DType {
    value.as_str().unwrap().parse().unwrap()
}

/// A batch-notation operand (`"uint8"`, `"0d:int8"`, `300`).
fn operand(value: &Value) -> Operand {
    match value {
        Value::String(text) => text.parse().unwrap(),
        Value::Number(n) => Operand::py_int(n.to_string().parse().unwrap()),
        other => panic!("unexpected operand {other}"),
    }
}

#[test]
fn can_cast_is_numpys_for_every_pair_of_dtypes() {
    let cases = golden("numpy_can_cast.jsonl");
    // Every pair of the dtypes NumPy has (not PyTorch's complex32).
    assert_eq!(cases.len(), (DType::COUNT - 1) * (DType::COUNT - 1));
    for case in &cases {
        let (from, to) = (dtype(&case["args"][0]), dtype(&case["args"][1]));
        assert_eq!(
            Value::Bool(Numpy.can_cast(from, to).expect("NumPy models casting")),
            case["answer"]["ok"],
            "np.can_cast({from}, {to})"
        );
    }
}

#[test]
fn add_raises_numpys_overflow_error_for_python_ints_out_of_range() {
    let cases: Vec<Value> = load("ops_numpy.jsonl")
        .into_iter()
        .filter(|case| case.request["fn"] == "add")
        .map(|case| serde_json::json!({ "args": case.request["args"], "answer": case.expected }))
        .collect();
    let mut overflows = 0;
    for case in &cases {
        let args = case["args"].as_array().unwrap();
        // Python floats and complex values (`{"complex": [re, im]}`) are
        // checked through batch by `golden.rs`; this test is about ints.
        if args.iter().any(|arg| arg.is_object() || arg.is_f64()) {
            continue;
        }
        let ours = match Numpy
            .operation(Op::Add, &[operand(&args[0]), operand(&args[1])])
            .unwrap()
        {
            Ok(typed) => {
                serde_json::json!({ "ok": { "dtype": typed.dtype.name(), "weak": typed.weak } })
            }
            Err(err) => {
                overflows += 1;
                serde_json::json!({
                    "error": { "type": err.python_type(), "message": err.to_string() }
                })
            }
        };
        assert_eq!(ours, case["answer"], "np.add{}", case["args"]);
    }
    // The example is among them, with NumPy's text.
    let example = cases
        .iter()
        .find(|c| c["args"] == serde_json::json!(["uint8", 300]))
        .unwrap();
    assert_eq!(
        example["answer"]["error"]["message"],
        "Python integer 300 out of bounds for uint8"
    );
    assert!(overflows > 0 && overflows < cases.len());
}

#[test]
fn ml_dtypes_arrays_run_the_loop_numpys_legacy_search_finds() {
    // Measured with NumPy 2.5.5 and ml_dtypes 0.6.0 (and in
    // ops_numpy_ml_dtypes.jsonl): ml_dtypes' own loop, NumPy's first loop
    // both cast to safely where it has none, even without a common dtype.
    let x = |dtype| Operand::array(dtype, false);
    let answer = |op, operands: &[Operand]| Numpy.operation(op, operands).unwrap();
    let bf16 = x(DType::BFloat16);
    assert_eq!(
        answer(Op::TrueDivide, &[bf16, Operand::py_int(3)]),
        Ok(Typed::strong(DType::BFloat16))
    );
    assert_eq!(
        answer(Op::TrueDivide, &[bf16, Operand::py_float(2.5)]),
        Ok(Typed::strong(DType::Float32))
    );
    assert_eq!(
        answer(Op::Less, &[bf16, x(DType::Int8)]),
        Ok(Typed::strong(DType::Bool))
    );
    let (i4, u4) = (x(DType::Int4), x(DType::UInt4));
    assert!(Numpy.result_type(&[i4, u4]).is_err());
    assert_eq!(answer(Op::Add, &[i4, u4]), Ok(Typed::strong(DType::Int8)));
    assert_eq!(answer(Op::Add, &[i4, i4]), Ok(Typed::strong(DType::Int4)));
    let err = answer(Op::Equal, &[i4, Operand::py_int(300)]).unwrap_err();
    assert_eq!(err.to_string(), "Python integer 300 out of bounds for int8");
}

#[test]
fn ml_dtypes_setitem_reads_python_ints_as_c_longs() {
    // Measured with NumPy 2.5.5 and ml_dtypes 0.6.0; the forms table leaves
    // 2**63 out.
    let big = Operand::py_int(1 << 63);
    let assign = |dtype| Numpy.assign(Operand::array(dtype, false), big).unwrap();
    assert_eq!(
        assign(DType::BFloat16).unwrap_err().to_string(),
        "expected number, got int"
    );
    assert_eq!(
        assign(DType::Int4).unwrap_err().to_string(),
        "Python int too large to convert to C long"
    );
    let wraps = Numpy.assign(Operand::array(DType::Int4, false), Operand::py_int(300));
    assert_eq!(wraps, Some(Ok(Typed::strong(DType::Int4))));
}

#[test]
fn the_notebooks_non_associative_example_is_found() {
    // The notebook prints float32 then float16 for
    // `(int8 + uint8) + float16` and `int8 + (uint8 + float16)`.
    let types: Vec<TypeSpec> = DType::ALL.into_iter().map(TypeSpec::DType).collect();
    let triple = [DType::Int8, DType::UInt8, DType::Float16].map(TypeSpec::DType);
    for policy in [&Numpy as &dyn Policy, &NumpyLegacy] {
        let found = non_associative(policy, &types)
            .find(|t| t.types == triple)
            .unwrap_or_else(|| panic!("{}", policy.name()));
        assert_eq!(found.left, Ok(DType::Float32));
        assert_eq!(found.right, Ok(DType::Float16));
    }
}
