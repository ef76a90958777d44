//! Times the library on the calls `bench/compare.py` also hands to JAX,
//! NumPy and `dtype-lattice batch`, beside the floor (a table load per
//! operand), and prints nanoseconds per call as JSON.
//!
//! ```text
//! cargo run --release -p dtype-lattice --example side_by_side -- CALLS
//! ```
//!
//! `CALLS` has one call per line, in the command-line notation:
//! `promote_types A B` or `result_type OPERAND...`, answered with x64 on and
//! standard promotion, as `compare.py` configures JAX.

use dtype_lattice_testkit::floor;

use std::hint::black_box;
use std::time::{Duration, Instant};

use dtype_lattice::frameworks::jax::{Config, Jax};
use dtype_lattice::{Operand, TypeSpec};

/// The calls of one function, parsed, with the floor's nodes for each.
struct Calls<T> {
    inputs: Vec<T>,
    nodes: Vec<Vec<u8>>,
}

/// Nanoseconds per call of `run_all` (which makes `calls` calls): the best
/// of several batches of about 0.2 s, so that a preempted batch does not
/// count.
fn ns_per_call(calls: usize, mut run_all: impl FnMut()) -> f64 {
    let mut reps = 1;
    loop {
        let start = Instant::now();
        (0..reps).for_each(|_| run_all());
        if start.elapsed() > Duration::from_millis(20) {
            break;
        }
        reps *= 2;
    }
    reps *= 10;
    (0..5)
        .map(|_| {
            let start = Instant::now();
            (0..reps).for_each(|_| run_all());
            start.elapsed().as_secs_f64() * 1e9 / (reps * calls) as f64
        })
        .fold(f64::INFINITY, f64::min)
}

fn parse_line(line: &str) -> Result<(String, Vec<&str>), String> {
    let mut words = line.split_whitespace();
    let function = words.next().ok_or("empty line")?;
    Ok((function.to_owned(), words.collect()))
}

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: side_by_side CALLS");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|err| {
        eprintln!("cannot read {path}: {err}");
        std::process::exit(2);
    });
    let jax = black_box(Jax::new(Config {
        x64: true,
        ..Config::default()
    }));
    let table = floor::table(jax);
    let mut pairs = Calls::<(TypeSpec, TypeSpec)> {
        inputs: Vec::new(),
        nodes: Vec::new(),
    };
    let mut lists = Calls::<Vec<Operand>> {
        inputs: Vec::new(),
        nodes: Vec::new(),
    };
    for (number, line) in text.lines().enumerate() {
        let bad = |why: String| -> ! {
            eprintln!("{path}:{}: {why}", number + 1);
            std::process::exit(2);
        };
        let (function, args) = parse_line(line).unwrap_or_else(|why| bad(why));
        let operands: Vec<Operand> = args
            .iter()
            .map(|arg| arg.parse().unwrap_or_else(|err| bad(format!("{err}"))))
            .collect();
        let nodes = operands.iter().map(|o| floor::node(&jax, o)).collect();
        match (function.as_str(), args.as_slice()) {
            ("promote_types", [a, b]) => {
                let spec = |s: &str| s.parse().unwrap_or_else(|err| bad(format!("{err}")));
                pairs.inputs.push((spec(a), spec(b)));
                pairs.nodes.push(nodes);
            }
            ("result_type", [_, ..]) => {
                lists.inputs.push(operands);
                lists.nodes.push(nodes);
            }
            _ => bad(format!("not a call: {line}")),
        }
    }
    let promote = ns_per_call(pairs.inputs.len(), || {
        for &(a, b) in black_box(&pairs.inputs[..]) {
            floor::consume(jax.promote_types(a, b));
        }
    });
    let result = ns_per_call(lists.inputs.len(), || {
        for list in black_box(&lists.inputs[..]) {
            floor::consume(jax.result_type(list));
        }
    });
    let table = black_box(&table);
    let floor_of = |calls: &[Vec<u8>]| {
        ns_per_call(calls.len(), || {
            for nodes in black_box(calls) {
                black_box(floor::fold(table, nodes));
            }
        })
    };
    println!(
        "{{\"promote_types\": {promote:.3}, \"promote_types_floor\": {:.3}, \
         \"result_type\": {result:.3}, \"result_type_floor\": {:.3}, \
         \"calls\": {{\"promote_types\": {}, \"result_type\": {}}}}}",
        floor_of(&pairs.nodes),
        floor_of(&lists.nodes),
        pairs.inputs.len(),
        lists.inputs.len(),
    );
}
