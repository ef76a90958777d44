//! The hot path against the floor, measured in the same run.
//!
//! Every group times one of the library's promotion functions over a fixed
//! batch of inputs beside a `floor`: the same number of plain indexed loads
//! from a precomputed `[[u8; N]; N]` table, the least work any promotion
//! could do. The table and the inputs go through `black_box` and are read
//! from memory on both sides, so nothing is folded away or hoisted out of
//! the loop. Each answer is used as a caller uses it (see [`consume`]): the
//! floor's byte, or the library's value or error, goes through `black_box`.
//! Each function's benchmark also runs the floor, alternating with it every
//! few microseconds, and records their ratio chunk by chunk (see
//! [`paired`]): a ratio the host's drifting speed does not move.
//! `bench/criterion_report.py` turns criterion's estimates into nanoseconds
//! per call and prints them with the paired ratios (see BENCHMARKS.md).
//!
//! Groups:
//! - `binary/{x32,x64,strict}`: `promote_types` and `Lattice::join` over
//!   the pairs of dtypes with a join (`dtypes`, with `promote_types` given
//!   two `DType`s, as a dispatcher does), over every pair of lattice nodes
//!   with a join (`defined`, Python's types among them, as `TypeSpec`s)
//!   and over all 35 x 35 pairs (`all`, where failures build an error).
//! - `nary/{config}/{strong,weak,mixed}`: `result_type`,
//!   `typed_result_type` (the same lists read as (dtype, weak) pairs first)
//!   and `lattice_result_type` for 1 to 8 operands, over inputs that
//!   succeed; `nary/x32/varied` draws each operand's form at random (see
//!   [`Mix`]).
//! - `ops/{x32,x64}/{binary,unary}`: `Jax::operation` of one operation of
//!   each rule (`add` and `less` by `promote_args`, `true_divide` and `sqrt`
//!   by `promote_args_inexact`, `remainder` by `promote_args_numeric`,
//!   `abs` and `power` by cases of their own) beside `result_type` of the
//!   same operands, on mixed lists of one or two operands.
//! - `forms/x32/binary`: `dyn Policy::call` of `add` and `true_divide` as
//!   the function, the operator (`a + b`, `a / b`), the reflected operator
//!   and in place, beside `Jax::operation` of the same operands: what
//!   asking for a form costs over the function.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use dtype_lattice::engine::Node;
use dtype_lattice::frameworks::jax::{Config, ExplicitX64, Jax, Promotion};
use dtype_lattice::Policy;
use dtype_lattice::{
    ArrayCall, ArrayOp, Call, DType, Op, OpForm, Operand, PyScalar, TypeSpec, Typed,
};

mod paired;
use dtype_lattice_testkit::{floor, rng};
use paired::Pairing;

use floor::consume;
use rng::Rng;

/// An item of `items`, at random.
fn pick<T: Copy>(rng: &mut Rng, items: &[T]) -> T {
    items[rng.below(items.len())]
}

/// Lists of operands per benchmark: enough that the inputs vary, few
/// enough to stay in L1 cache like a real dispatcher's working set.
const LISTS: usize = 256;

/// The most operands a list has.
const MAX_OPERANDS: usize = 8;

/// The configurations the issue names: x64 off and on, standard and strict.
const CONFIGS: [(&str, Config); 4] = [
    ("x32", config(false, Promotion::Standard)),
    ("x64", config(true, Promotion::Standard)),
    ("strict-x32", config(false, Promotion::Strict)),
    ("strict-x64", config(true, Promotion::Strict)),
];

const fn config(x64: bool, promotion: Promotion) -> Config {
    Config {
        x64,
        promotion,
        explicit_x64: ExplicitX64::Warn,
    }
}

/// The dtypes every framework has, which join with each other in the
/// standard lattice: all but the sub-byte integers and the small floats,
/// `bool` first.
fn common() -> Vec<DType> {
    DType::ALL
        .into_iter()
        .filter(|d| !d.is_sub_byte_integer() && !d.is_small_float())
        .collect()
}

fn binary(c: &mut Criterion) {
    let types = floor::node_types();
    for (name, config) in &CONFIGS[..3] {
        let jax = black_box(Jax::new(*config));
        let table = floor::table(jax);
        let node = |spec| floor::node_of(&jax, spec);
        let all: Vec<(TypeSpec, TypeSpec)> = types
            .iter()
            .flat_map(|&a| types.iter().map(move |&b| (a, b)))
            .collect();
        let lattice = jax.lattice().expect("JAX is a lattice");
        let defined: Vec<(TypeSpec, TypeSpec)> = all
            .iter()
            .copied()
            .filter(|&(a, b)| lattice.join(node(a), node(b)).is_some())
            .collect();
        // The pairs of dtypes (what a dispatcher joins for two arrays)
        // among the defined pairs.
        let dtypes: Vec<(TypeSpec, TypeSpec)> = defined
            .iter()
            .copied()
            .filter(|&(a, b)| matches!((a, b), (TypeSpec::DType(_), TypeSpec::DType(_))))
            .collect();
        let group_name = format!("binary/{name}");
        let mut group = c.benchmark_group(&group_name);
        let table = black_box(&table);
        for (set, pairs) in [("dtypes", &dtypes), ("defined", &defined), ("all", &all)] {
            let bytes: Vec<(u8, u8)> = pairs
                .iter()
                .map(|&(a, b)| (node(a) as u8, node(b) as u8))
                .collect();
            let specs: Vec<(TypeSpec, TypeSpec)> = pairs.to_vec();
            group.throughput(Throughput::Elements(pairs.len() as u64));
            let floor_batch = || {
                for &(a, b) in black_box(&bytes[..]) {
                    black_box(table[a as usize][b as usize]);
                }
            };
            let mut pairing = Pairing::new(&mut group, &group_name, set, floor_batch);
            let nodes: Vec<(Node, Node)> = pairs.iter().map(|&(a, b)| (node(a), node(b))).collect();
            pairing.bench("lattice_join", || {
                for &(a, b) in black_box(&nodes[..]) {
                    consume(lattice.join(a, b).ok_or(()));
                }
            });
            // `promote_types` as a dispatcher calls it on two arrays' dtypes,
            // and on any two types (Python's among them).
            if set == "dtypes" {
                let dtypes: Vec<(DType, DType)> = pairs
                    .iter()
                    .filter_map(|&(a, b)| match (a, b) {
                        (TypeSpec::DType(a), TypeSpec::DType(b)) => Some((a, b)),
                        _ => None,
                    })
                    .collect();
                bench_promote_types(&mut pairing, jax, &dtypes);
            } else {
                bench_promote_types(&mut pairing, jax, &specs);
            }
        }
        group.finish();
    }
}

/// Times `promote_types` over `pairs` of any types it takes.
fn bench_promote_types<T: Into<TypeSpec> + Copy>(
    pairing: &mut Pairing<impl FnMut()>,
    jax: Jax,
    pairs: &[(T, T)],
) {
    pairing.bench("promote_types", || {
        for &(a, b) in black_box(pairs) {
            consume(jax.promote_types(a, b));
        }
    });
}

/// How the operands of a list are chosen. A call site of an array library
/// passes the same forms every time (`x + 2` is an array and a Python int)
/// with varying dtypes, so the first three mixes fix one sequence of
/// operand forms per benchmark and vary only the dtypes; `Varied` draws
/// every operand's form afresh, the worst case for the branch predictor.
#[derive(Clone, Copy, PartialEq)]
enum Mix {
    /// Strongly-typed arrays: what an array library dispatches most.
    Strong,
    /// Python scalars (`2`, `2.0`, `complex`) and weakly-typed arrays.
    Weak,
    /// A strongly-typed array first, then strong or weak operands.
    Mixed,
    /// Strong or weak, and which weak form, drawn for every operand.
    Varied,
}

/// The form of one operand.
#[derive(Clone, Copy)]
enum Form {
    StrongArray,
    PyInt,
    PyFloat,
    PyComplex,
    WeakArray,
}

const WEAK_FORMS: [Form; 4] = [Form::PyInt, Form::PyFloat, Form::PyComplex, Form::WeakArray];

fn draw_form(rng: &mut Rng, mix: Mix, position: usize) -> Form {
    match mix {
        Mix::Strong => Form::StrongArray,
        Mix::Mixed if position == 0 => Form::StrongArray,
        Mix::Weak => pick(rng, &WEAK_FORMS),
        Mix::Mixed | Mix::Varied => {
            if rng.below(2) == 0 {
                Form::StrongArray
            } else {
                pick(rng, &WEAK_FORMS)
            }
        }
    }
}

/// An operand of a form, its dtype drawn from `common` (see [`common`]).
/// Under strict promotion distinct strong dtypes never join, so there the
/// strong operands of a list share `shared`.
fn operand(rng: &mut Rng, common: &[DType], form: Form, strict: bool, shared: DType) -> Operand {
    match form {
        Form::StrongArray => Operand::array(if strict { shared } else { pick(rng, common) }, false),
        Form::PyInt => Operand::py_int(2),
        Form::PyFloat => Operand::py_float(2.0),
        Form::PyComplex => Operand::py_type(PyScalar::Complex),
        Form::WeakArray => Operand::array(pick(rng, &common[1..]), true),
    }
}

/// `LISTS` lists of `k` operands on which both functions succeed: dtypes
/// are drawn until the list promotes, and for all but `Varied` so is the
/// sequence of forms, once for all lists.
fn operand_lists(jax: Jax, mix: Mix, k: usize, rng: &mut Rng) -> Vec<Vec<Operand>> {
    let strict = jax.config().promotion == Promotion::Strict;
    let promotes =
        |list: &[Operand]| jax.result_type(list).is_ok() && jax.lattice_result_type(list).is_ok();
    let common = common();
    let draw_list = |rng: &mut Rng, forms: &[Form]| {
        let shared = pick(rng, &common);
        forms
            .iter()
            .map(|&form| operand(rng, &common, form, strict, shared))
            .collect::<Vec<Operand>>()
    };
    let forms = loop {
        let forms: Vec<Form> = (0..k).map(|i| draw_form(rng, mix, i)).collect();
        // A sequence of forms some dtypes make promote (under strict
        // promotion an int and a float weak operand never do).
        if (0..64).any(|_| promotes(&draw_list(rng, &forms))) {
            break forms;
        }
    };
    let mut lists = Vec::with_capacity(LISTS);
    while lists.len() < LISTS {
        let forms: Vec<Form> = if mix == Mix::Varied {
            (0..k).map(|i| draw_form(rng, mix, i)).collect()
        } else {
            forms.clone()
        };
        let list = draw_list(rng, &forms);
        if promotes(&list) {
            lists.push(list);
        }
    }
    lists
}

fn nary(c: &mut Criterion) {
    let mut rng = Rng(0x5EED);
    for (name, config) in CONFIGS {
        let jax = black_box(Jax::new(config));
        let table = floor::table(jax);
        let mixes = [
            ("strong", Mix::Strong),
            ("weak", Mix::Weak),
            ("mixed", Mix::Mixed),
            ("varied", Mix::Varied),
        ];
        // The worst case once, under JAX's default configuration.
        let mixes = if name == "x32" {
            &mixes[..]
        } else {
            &mixes[..3]
        };
        for &(mix_name, mix) in mixes {
            let group_name = format!("nary/{name}/{mix_name}");
            let mut group = c.benchmark_group(&group_name);
            let table = black_box(&table);
            for k in 1..=MAX_OPERANDS {
                let lists = operand_lists(jax, mix, k, &mut rng);
                let nodes: Vec<Vec<u8>> = lists
                    .iter()
                    .map(|list| list.iter().map(|o| floor::node(&jax, o)).collect())
                    .collect();
                group.throughput(Throughput::Elements(LISTS as u64));
                let floor_batch = || {
                    for list in black_box(&nodes[..]) {
                        black_box(floor::fold(table, list));
                    }
                };
                let typed: Vec<Vec<Typed>> = lists
                    .iter()
                    .map(|list| list.iter().map(|&op| jax.dtype_and_weak_type(op)).collect())
                    .collect();
                let mut pairing = Pairing::new(&mut group, &group_name, k, floor_batch);
                pairing.bench("result_type", || {
                    for list in black_box(&lists[..]) {
                        consume(jax.result_type(list));
                    }
                });
                pairing.bench("typed_result_type", || {
                    for list in black_box(&typed[..]) {
                        consume(jax.typed_result_type(list));
                    }
                });
                pairing.bench("lattice_result_type", || {
                    for list in black_box(&lists[..]) {
                        consume(jax.lattice_result_type(list));
                    }
                });
            }
            group.finish();
        }
    }
}

/// Mixed lists of `arity` operands that every one of `operations` answers,
/// and their nodes for the floor.
fn answered_lists(
    jax: Jax,
    operations: &[Op],
    arity: usize,
    rng: &mut Rng,
) -> (Vec<Vec<Operand>>, Vec<Vec<u8>>) {
    let lists: Vec<Vec<Operand>> = operand_lists(jax, Mix::Mixed, arity, rng)
        .into_iter()
        .filter(|list| operations.iter().all(|&op| jax.operation(op, list).is_ok()))
        .collect();
    let nodes = lists
        .iter()
        .map(|list| list.iter().map(|o| floor::node(&jax, o)).collect())
        .collect();
    (lists, nodes)
}

/// An operation's result type beside its promotion: the goal is at most
/// one table load more (BENCHMARKS.md).
fn ops(c: &mut Criterion) {
    let mut rng = Rng(0x0B5);
    for (name, config) in &CONFIGS[..2] {
        let jax = black_box(Jax::new(*config));
        let table = floor::table(jax);
        for (arity, shape, operations) in [
            (
                2,
                "binary",
                &[Op::Add, Op::Less, Op::TrueDivide, Op::Remainder, Op::Power][..],
            ),
            (1, "unary", &[Op::Sqrt, Op::Abs][..]),
        ] {
            let group_name = format!("ops/{name}/{shape}");
            let mut group = c.benchmark_group(&group_name);
            let table = black_box(&table);
            let (lists, nodes) = answered_lists(jax, operations, arity, &mut rng);
            group.throughput(Throughput::Elements(lists.len() as u64));
            let floor_batch = || {
                for list in black_box(&nodes[..]) {
                    black_box(floor::fold(table, list));
                }
            };
            let mut pairing = Pairing::new(&mut group, &group_name, lists.len(), floor_batch);
            pairing.bench("result_type", || {
                for list in black_box(&lists[..]) {
                    consume(jax.result_type(list));
                }
            });
            for &op in operations {
                pairing.bench(op.name(), || {
                    for list in black_box(&lists[..]) {
                        consume(jax.operation(op, list));
                    }
                });
            }
            group.finish();
        }
    }
}

/// An operation in each form a program writes it, beside the function
/// (`Jax::operation`): the goal is at most one table load more than it
/// (BENCHMARKS.md).
fn forms(c: &mut Criterion) {
    let mut rng = Rng(0xF0F);
    let (name, config) = &CONFIGS[0];
    let jax = black_box(Jax::new(*config));
    let policy: &dyn Policy = &jax;
    let table = floor::table(jax);
    let group_name = format!("forms/{name}/binary");
    let mut group = c.benchmark_group(&group_name);
    let table = black_box(&table);
    let operations = [Op::Add, Op::TrueDivide];
    let (lists, nodes) = answered_lists(jax, &operations, 2, &mut rng);
    group.throughput(Throughput::Elements(lists.len() as u64));
    let floor_batch = || {
        for list in black_box(&nodes[..]) {
            black_box(floor::fold(table, list));
        }
    };
    let mut pairing = Pairing::new(&mut group, &group_name, lists.len(), floor_batch);
    for op in operations {
        pairing.bench(op.name(), || {
            for list in black_box(&lists[..]) {
                consume(jax.operation(op, list));
            }
        });
        for form in [
            OpForm::Function,
            OpForm::Operator,
            OpForm::Reflected,
            OpForm::InPlace,
        ] {
            let call = Call::new(Some(op), form).expect("add and true_divide have every form");
            pairing.bench(&format!("{}:{form}", op.name()), || {
                for list in black_box(&lists[..]) {
                    consume(
                        policy
                            .call(black_box(call), list)
                            .expect("JAX answers each form"),
                    );
                }
            });
        }
    }
    group.finish();
}

/// A reduction's and a contraction's answer (result and computation type)
/// beside promotion of the same operands: the goal is at most one table
/// load more (BENCHMARKS.md).
fn array_ops(c: &mut Criterion) {
    let mut rng = Rng(0xA77);
    for (name, config) in &CONFIGS[..2] {
        let jax = black_box(Jax::new(*config));
        let table = floor::table(jax);
        for (arity, shape, operations) in [
            (
                1,
                "reduction",
                &[ArrayOp::Sum, ArrayOp::Mean, ArrayOp::ArgMax][..],
            ),
            (
                2,
                "contraction",
                &[ArrayOp::Matmul, ArrayOp::Concatenate][..],
            ),
        ] {
            let group_name = format!("array_ops/{name}/{shape}");
            let mut group = c.benchmark_group(&group_name);
            let table = black_box(&table);
            // Arrays only, each list one every operation answers.
            let lists: Vec<Vec<Operand>> = operand_lists(jax, Mix::Strong, arity, &mut rng)
                .into_iter()
                .filter(|list| {
                    operations
                        .iter()
                        .all(|&op| jax.array_op(&ArrayCall::new(op), list).is_ok())
                })
                .collect();
            if lists.is_empty() {
                continue;
            }
            let nodes: Vec<Vec<u8>> = lists
                .iter()
                .map(|list| list.iter().map(|o| floor::node(&jax, o)).collect())
                .collect();
            group.throughput(Throughput::Elements(lists.len() as u64));
            let floor_batch = || {
                for list in black_box(&nodes[..]) {
                    black_box(floor::fold(table, list));
                }
            };
            let mut pairing = Pairing::new(&mut group, &group_name, lists.len(), floor_batch);
            pairing.bench("result_type", || {
                for list in black_box(&lists[..]) {
                    consume(jax.result_type(list));
                }
            });
            for &op in operations {
                // Two callers: one holding an opaque call (keywords
                // unknown to the compiler) in memory, which the call's 48
                // bytes are copied from on every list for the rules' out
                // of line path (`ops` has no counterpart: its `op` is one
                // byte); and one building the call of an opaque operation
                // as it asks, as a caller that passes no keywords does.
                let call = black_box(ArrayCall::new(op));
                pairing.bench(op.name(), || {
                    for list in black_box(&lists[..]) {
                        consume(jax.array_op(&call, list));
                    }
                });
                let opaque = black_box(op);
                pairing.bench(&format!("{}:built", op.name()), || {
                    for list in black_box(&lists[..]) {
                        consume(jax.array_op(&ArrayCall::new(opaque), list));
                    }
                });
            }
            group.finish();
        }
    }
}

criterion_group!(benches, binary, nary, ops, forms, array_ops);
criterion_main!(benches);
