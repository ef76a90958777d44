//! JAX's design notebook (JEP 9407), graph by graph: `check` and `audit` on
//! the lattice files in examples/lattices/ must say what the notebook says.
//! Each test quotes the notebook's statement it checks.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use dtype_lattice::design::audit::Audit;
use dtype_lattice::design::check::{Check, RulesCheck};
use dtype_lattice::design::lattice_file;
use dtype_lattice::design::{Definition, Subject};
use dtype_lattice::engine::Lattice;
use dtype_lattice::frameworks::jax::{Config, Jax};
use dtype_lattice::frameworks::numpy::{Numpy, NumpyLegacy};
use dtype_lattice::TypedLattice;
use dtype_lattice::{DType, Policy, TypeSpec};
use serde_json::Value;

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/lattices")
        .join(format!("{name}.toml"))
}

/// The notebook's graph `name` (from `examples/lattices/`).
fn definition(name: &str) -> Definition {
    lattice_file::read(example(name)).unwrap()
}

/// The check of a graph as `check --format json` reports it, listing every
/// pair (the notebook's claims are about all of them), and whether it is
/// a lattice.
fn check_of(definition: &Definition) -> (Value, bool) {
    let report = Check::new(definition, 100_000).unwrap();
    let value = report.to_json(definition);
    assert_eq!(value["truncated"], false, "{}", definition.name);
    (value, report.is_lattice())
}

/// [`check_of`] the notebook's graph `name`, with the exit code the
/// command line gives it (0 for a lattice, 1 otherwise).
fn check(name: &str) -> (Value, i32) {
    let (value, lattice) = check_of(&definition(name));
    (value, if lattice { 0 } else { 1 })
}

/// The audit of a subject as `audit --format json` reports it.
fn audit_of(subject: &Subject) -> Value {
    Audit::new(subject).unwrap().to_json()
}

fn audit(name: &str) -> Value {
    audit_of(&Subject::of_definition(definition(name)))
}

fn pair(a: &str, b: &str) -> Value {
    serde_json::json!([a, b])
}

fn triple(a: &str, b: &str, c: &str) -> Value {
    serde_json::json!([a, b, c])
}

fn list<'a>(value: &'a Value, key: &str) -> &'a Vec<Value> {
    value[key].as_array().unwrap()
}

#[test]
fn python_scalars_are_a_lattice() {
    // "The lattice representation of Python's promotion table is much
    // simpler": int -> float -> complex, a full lattice.
    let (report, code) = check("python-scalars");
    assert_eq!(code, 0);
    assert_eq!(report["lattice"], true);
    assert_eq!(list(&report, "no_upper_bound").len(), 0);
}

#[test]
fn the_left_dag_has_no_upper_bound_for_b_and_c() {
    // "The left DAG is not a lattice because there exists no upper bound for
    // nodes B and C". In this tool's terms that is a partial lattice.
    let (report, code) = check("not-a-lattice-left");
    assert_eq!(report["no_upper_bound"], serde_json::json!([["B", "C"]]));
    assert_eq!(report["ambiguous"], serde_json::json!([]));
    assert_eq!((report["lattice"].clone(), code), (Value::Bool(true), 0));
}

#[test]
fn the_right_dag_fails_on_two_counts() {
    // "the right DAG fails on two counts: first, there exists no upper bound
    // for nodes C and D, and for nodes A and B the least upper bound cannot
    // be uniquely determined: both C and D are candidates".
    let (report, code) = check("not-a-lattice-right");
    assert_eq!((report["lattice"].clone(), code), (Value::Bool(false), 1));
    assert_eq!(report["no_upper_bound"], serde_json::json!([["C", "D"]]));
    assert_eq!(
        report["ambiguous"],
        serde_json::json!([{"pair": ["A", "B"], "candidates": ["C", "D"], "candidate_count": 2}])
    );
}

#[test]
fn within_categories_only_64_bit_inputs_give_64_bit_outputs() {
    // "the only way to produce a 64-bit output is to have a 64-bit input".
    let report = audit("within-category");
    assert_eq!(
        report["criteria"]["wider_than_inputs"],
        serde_json::json!([])
    );
    // ... and nothing mixes across categories.
    assert_eq!(list(&report, "undefined").len(), 62);
}

#[test]
fn scalars_and_arrays_form_a_partial_lattice() {
    // "Notice that this is not (yet) a true lattice: there are many pairs of
    // nodes for which a join does not exist."
    let (report, code) = check("scalars-and-arrays");
    assert_eq!((report["lattice"].clone(), code), (Value::Bool(true), 0));
    assert!(list(&report, "no_upper_bound").len() > 50);
    assert!(list(&report, "no_upper_bound").contains(&pair("u8", "i8")));
}

/// The join of two labelled nodes in a lattice file.
fn join(lattice: &Lattice, a: &str, b: &str) -> Option<String> {
    let (a, b) = (lattice.node(a)?, lattice.node(b)?);
    lattice.join(a, b).map(|c| lattice.label(c).to_owned())
}

/// A lattice file's dtype nodes and its lattice.
fn load(name: &str) -> (Definition, TypedLattice) {
    let definition = lattice_file::read(example(name)).unwrap();
    let lattice = definition.lattice().unwrap();
    (definition, lattice)
}

/// Every pair of the file's strong dtype nodes whose dtypes satisfy `pick`,
/// with NumPy's answer beside the file's join (as a dtype).
fn against_numpy(name: &str, pick: impl Fn(DType, DType) -> bool) -> Vec<(DType, DType)> {
    let (definition, lattice) = load(name);
    let dtypes: Vec<(usize, DType)> = definition.strong_dtypes().collect();
    let mut compared = Vec::new();
    for &(a, x) in &dtypes {
        for &(b, y) in &dtypes {
            if !pick(x, y) {
                continue;
            }
            let ours = lattice.join(a, b).and_then(|c| definition.nodes[c].dtype);
            let numpy = Numpy
                .promote_types(TypeSpec::DType(x), TypeSpec::DType(y))
                .ok();
            assert_eq!(ours, numpy, "{name}: {x} with {y}");
            compared.push((x, y));
        }
    }
    compared
}

fn is_inexact(dtype: DType) -> bool {
    dtype.finfo().is_ok()
}

fn is_integer(dtype: DType) -> bool {
    dtype.iinfo().is_ok()
}

#[test]
fn float_complex_mixing_is_numpys() {
    // "This turns out to represent exactly the semantics used by Numpy in
    // mixed float/complex type promotion." (NumPy from the numpy policy,
    // itself checked against NumPy 2.5.5.)
    let compared = against_numpy("float-complex", |x, y| is_inexact(x) && is_inexact(y));
    assert_eq!(compared.len(), 25);
}

#[test]
fn signed_unsigned_mixing_is_numpys() {
    // "Again, the connections added here are precisely the promotion
    // semantics implemented by Numpy for mixed-integer promotion" - leaving
    // uint64 with signed types aside: "For now, we will leave uint64
    // promotion undefined".
    let uint64_with_signed = |x: DType, y: DType| {
        [x, y].contains(&DType::UInt64) && [x, y].iter().any(|d| d.iinfo().is_ok_and(|i| i.min < 0))
    };
    let compared = against_numpy("signed-unsigned", |x, y| {
        is_integer(x) && is_integer(y) && !uint64_with_signed(x, y)
    });
    assert_eq!(compared.len(), 64 - 8);
    let (_, lattice) = load("signed-unsigned");
    assert_eq!(join(&lattice, "u64", "i8"), None);
}

#[test]
fn twice_width_breaks_the_lattice_at_i8_u8() {
    // "the pair {i8, u8} no longer has a unique least upper bound: the
    // possibilities are i16 and f16, which are unorderable on the graph."
    let (report, code) = check("twice-width");
    assert_eq!((report["lattice"].clone(), code), (Value::Bool(false), 1));
    let ambiguous = list(&report, "ambiguous");
    let i8_u8 = ambiguous
        .iter()
        .find(|a| {
            let pair: BTreeSet<&str> = a["pair"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| l.as_str().unwrap())
                .collect();
            pair == BTreeSet::from(["i8", "u8"])
        })
        .expect("{i8, u8} is ambiguous");
    assert_eq!(i8_u8["candidates"], serde_json::json!(["i16", "f16"]));
}

#[test]
fn option_0_leaves_integer_float_mixing_undefined() {
    // "leave as undefined any mixed integer/float promotion beyond Python
    // scalars".
    let (definition, lattice) = load("option-0");
    let strong = |kind: fn(DType) -> bool| -> Vec<String> {
        definition
            .strong_dtypes()
            .filter(|&(_, dtype)| kind(dtype))
            .map(|(node, _)| definition.nodes[node].label.clone())
            .collect()
    };
    let (integers, inexact) = (strong(is_integer), strong(is_inexact));
    assert_eq!((integers.len(), inexact.len()), (8, 5));
    for i in &integers {
        for f in &inexact {
            assert_eq!(join(&lattice, i, f), None, "{i} with {f}");
        }
    }
    let (report, code) = check("option-0");
    assert_eq!((report["lattice"].clone(), code), (Value::Bool(true), 0));
}

#[test]
fn option_1_loses_no_precision_but_leaves_64_bit_integers_and_widens() {
    // "A disadvantage of this approach is that it still leaves int64 and
    // uint64 promotion undefined"; "mixed operations between uint16 and
    // float16 would promote all the way to float64".
    let (report, code) = check("option-1");
    assert_eq!(code, 0);
    let unbounded = list(&report, "no_upper_bound");
    for wide in ["i64", "u64"] {
        for float in ["f16", "f32", "f64", "f*"] {
            assert!(
                unbounded.contains(&pair(wide, float)) || unbounded.contains(&pair(float, wide)),
                "{wide} with {float}"
            );
        }
    }
    let audit = audit("option-1");
    assert!(list(&audit["criteria"], "wider_than_inputs").contains(&triple("u16", "f16", "f64")));
    // "If our focus is on avoiding precision loss at all costs".
    assert_eq!(audit["criteria"]["precision_loss"], serde_json::json!([]));
}

#[test]
fn option_2_keeps_magnitudes_and_sends_float32_with_uint32_to_float64() {
    // "operations between float32 and uint32 result in float64"; "these
    // promotions will not mis-represent the magnitude of the result"; "uint64
    // remains unpromotable".
    let audit = audit("option-2");
    let criteria = &audit["criteria"];
    assert!(list(criteria, "wider_than_inputs").contains(&triple("u32", "f32", "f64")));
    assert_eq!(criteria["overflow"], serde_json::json!([]));
    assert!(list(criteria, "precision_loss").contains(&triple("i16", "f16", "f16")));
    let undefined = list(&audit, "undefined");
    assert!(undefined.iter().all(|p| p[0] == "u64" || p[1] == "u64"));
    assert_eq!(undefined.len(), 9);
}

#[test]
fn option_3_widens_floats_only_with_unsigned_integers() {
    // "outside unsigned ints, it avoids all wider-than-necessary promotions:
    // you can never get an f64 output without a 64-bit input, and you can
    // never get an f32 output without a 32-bit input".
    let (definition, _) = load("option-3");
    let dtype = |label: &Value| {
        let node = definition.node(label.as_str().unwrap()).unwrap();
        definition.nodes[node].dtype.unwrap()
    };
    let audit = audit("option-3");
    let wider = list(&audit["criteria"], "wider_than_inputs");
    let float_results: Vec<&Value> = wider
        .iter()
        .filter(|t| dtype(&t[2]).kind() == dtype_lattice::Kind::Float)
        .collect();
    assert!(float_results.iter().all(|t| [&t[0], &t[1]]
        .iter()
        .any(|l| dtype(l).kind() == dtype_lattice::Kind::Unsigned)));
    // "int64 (with a maximum value of 9.2 x 10^18) can be promoted to
    // float16 (with a maximum value of 6.5 x 10^4), meaning most
    // representable values will become inf".
    assert!(list(&audit["criteria"], "overflow").contains(&triple("i64", "f16", "f16")));
    // "this approach still leaves the uint64 promotion question unanswered".
    assert!(list(&audit, "undefined").contains(&pair("u64", "i64")));
}

#[test]
fn option_3_places_bfloat16_beside_float16() {
    // "a natural location to insert bfloat16, without the need to impose an
    // ordering between bf16 and f16".
    let (_, lattice) = load("option-3-bfloat16");
    assert_eq!(join(&lattice, "bf16", "f16").as_deref(), Some("f32"));
    let (report, code) = check("option-3-bfloat16");
    assert_eq!((report["lattice"].clone(), code), (Value::Bool(true), 0));
}

#[test]
fn jax_closes_option_3_into_a_true_lattice() {
    // "JAX has adopted Option 3. Or rather, a slightly modified version of
    // Option 3 that draws the connection between u64 and f*, in order to
    // create a true lattice."
    let (report, code) = check("jax-notebook");
    assert_eq!((report["lattice"].clone(), code), (Value::Bool(true), 0));
    assert_eq!(report["no_upper_bound"], serde_json::json!([]));
    // "We were fine accepting potential loss of precision ... in mixed type
    // promotion"
    let audit = audit("jax-notebook");
    assert!(list(&audit["criteria"], "precision_loss").contains(&triple("u64", "i64", "f*")));
    assert_eq!(audit["undefined"], serde_json::json!([]));
}

fn jax_x64() -> Jax {
    Jax::new(Config {
        x64: true,
        ..Config::default()
    })
}

/// The built-in lattice's join of two nodes, as (dtype, weak).
fn builtin_join(a: &str, b: &str) -> Option<String> {
    join(jax_x64().lattice().unwrap(), a, b)
}

#[test]
fn the_notebooks_jax_lattice_is_the_builtin_one_on_its_types() {
    // The figure's 17 types join as JAX 0.10.2 with x64 joins them.
    let (definition, lattice) = load("jax-notebook");
    let builtin_label = |node: usize| -> String {
        let n = &definition.nodes[node];
        if n.weak {
            n.label.clone()
        } else {
            n.dtype.unwrap().name().to_owned()
        }
    };
    for a in 0..lattice.len() {
        for b in 0..lattice.len() {
            let ours = lattice.join(a, b).map(builtin_label);
            assert_eq!(ours, builtin_join(&builtin_label(a), &builtin_label(b)));
        }
    }
}

#[test]
fn the_jax_file_agrees_pair_for_pair_with_the_builtin_policy() {
    let (_, lattice) = load("jax");
    let builtin = jax_x64();
    let builtin = builtin.lattice().unwrap();
    assert_eq!(lattice.len(), builtin.len());
    let labels: Vec<&str> = (0..builtin.len()).map(|n| builtin.label(n)).collect();
    for a in &labels {
        for b in &labels {
            assert_eq!(join(&lattice, a, b), join(builtin, a, b), "{a} with {b}");
        }
    }
    // ... and the reports say so too: the same report for both.
    let (file, _) = check("jax");
    let (policy, _) = check_of(&Definition::from_policy(&jax_x64()).unwrap());
    let edges = |report: &Value| -> BTreeSet<String> {
        list(report, "edges").iter().map(Value::to_string).collect()
    };
    assert_eq!(edges(&file), edges(&policy));
    let no_upper_bound = |report: &Value| -> BTreeSet<BTreeSet<String>> {
        list(report, "no_upper_bound")
            .iter()
            .map(|p| p.as_array().unwrap().iter().map(Value::to_string).collect())
            .collect()
    };
    assert_eq!(no_upper_bound(&file), no_upper_bound(&policy));
    let from_file = audit("jax");
    let from_policy = audit_of(&Subject::of_policy(Box::new(jax_x64())));
    // Node order differs (the file's is its own), so compare as sets of
    // {a, b} -> c.
    let findings = |audit: &Value| -> BTreeSet<(String, BTreeSet<String>, String)> {
        audit["criteria"]
            .as_object()
            .unwrap()
            .iter()
            .flat_map(|(name, found)| {
                found.as_array().unwrap().iter().map(move |t| {
                    let inputs = [&t[0], &t[1]].map(Value::to_string);
                    (name.clone(), BTreeSet::from(inputs), t[2].to_string())
                })
            })
            .collect()
    };
    assert_eq!(findings(&from_file), findings(&from_policy));
    assert!(!findings(&from_file).is_empty());
}

#[test]
fn numpy_is_not_a_lattice_and_check_finds_the_notebooks_kind_of_counterexample() {
    // "here are three scalar types whose promotion behavior in NumPy is
    // non-associative": (int8 + uint8) + float16 is float32 but
    // int8 + (uint8 + float16) is float16, in the notebook's NumPy table.
    let report = RulesCheck::new(&NumpyLegacy).to_json("numpy-legacy", 10);
    assert_eq!(report["lattice"], false);
    let example = &report["non_associative"]["example"];
    assert_eq!(
        example["types"],
        serde_json::json!(["uint8", "int8", "float16"])
    );
    assert_eq!(
        example["text"],
        "(uint8 + int8) + float16 = float32 but uint8 + (int8 + float16) = float16"
    );
}
