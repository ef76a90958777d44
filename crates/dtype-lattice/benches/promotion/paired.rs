//! Paired measurement: each benchmark of a function also runs the floor,
//! in alternating chunks, and reports their ratio chunk by chunk.
//!
//! Criterion times benchmarks one after another, seconds apart, and on a
//! shared virtual machine the clock drifts over seconds: in one run the
//! floor itself, the same work everywhere, took from 0.59 to 0.95 ns per
//! load in different groups. A function and a floor timed seconds apart may
//! thus see different machines, and their ratio moves by tens of percent.
//! Here the two alternate every few microseconds (which goes first
//! alternates too), each adjacent pair of chunks gives one ratio, and the
//! median over the whole benchmark (warm-up included) is the paired ratio,
//! which neither drift nor an interrupted chunk moves much. Criterion's own
//! estimate is still of the function alone.

use std::fs;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId};

/// Batches per chunk: long enough (microseconds) that reading the clock
/// costs under 2% of a chunk, short enough that the machine cannot change
/// speed between two adjacent chunks.
const CHUNK: u64 = 32;

/// A benchmark group's functions for one parameter (a set of inputs),
/// each timed paired with the same floor.
pub struct Pairing<'a, 'g, F> {
    group: &'a mut BenchmarkGroup<'g, WallTime>,
    group_name: &'a str,
    parameter: String,
    floor: F,
}

impl<'a, 'g, F: FnMut()> Pairing<'a, 'g, F> {
    /// Functions of `group` (named `group_name`) on the inputs `parameter`
    /// names, each paired with `floor`, which runs one batch of the floor.
    /// Benchmarks the floor alone first, as `group/floor/parameter`, for
    /// its time in nanoseconds.
    pub fn new(
        group: &'a mut BenchmarkGroup<'g, WallTime>,
        group_name: &'a str,
        parameter: impl std::fmt::Display,
        mut floor: F,
    ) -> Self {
        group.bench_function(BenchmarkId::new("floor", &parameter), |bencher| {
            bencher.iter(&mut floor)
        });
        Pairing {
            group,
            group_name,
            parameter: parameter.to_string(),
            floor,
        }
    }

    /// Benchmarks `function` (one batch per call) as
    /// `group/function/parameter`, each of criterion's iterations one
    /// batch, and writes the paired ratio to the floor (see the module's
    /// documentation) to `target/paired/<group>~<function>~<parameter>.json`.
    pub fn bench(&mut self, function_name: &str, mut function: impl FnMut()) {
        let mut ratios = Vec::new();
        let floor = &mut self.floor;
        let id = BenchmarkId::new(function_name, &self.parameter);
        self.group.bench_function(id, |bencher| {
            bencher.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                let mut left = iters;
                while left > 0 {
                    let batches = left.min(CHUNK);
                    let (floor_time, function_time) = if ratios.len() % 2 == 0 {
                        let floor_time = time(batches, floor);
                        (floor_time, time(batches, &mut function))
                    } else {
                        let function_time = time(batches, &mut function);
                        (time(batches, floor), function_time)
                    };
                    ratios.push(function_time.as_secs_f64() / floor_time.as_secs_f64());
                    total += function_time;
                    left -= batches;
                }
                total
            })
        });
        // Criterion's `--test` mode, or a filter that skipped this
        // benchmark, leaves too few chunks to say anything.
        if ratios.len() >= 100 {
            let key = format!("{}/{function_name}/{}", self.group_name, self.parameter);
            write(&key, ratios);
        }
    }
}

fn time(batches: u64, routine: &mut impl FnMut()) -> Duration {
    let start = Instant::now();
    for _ in 0..batches {
        routine();
    }
    start.elapsed()
}

/// Writes the quartiles of `ratios` as one JSON object.
fn write(key: &str, mut ratios: Vec<f64>) {
    ratios.sort_by(f64::total_cmp);
    let quartile = |q: usize| ratios[(ratios.len() - 1) * q / 4];
    let json = format!(
        "{{\"id\": \"{key}\", \"chunks\": {}, \"q1\": {}, \"median\": {}, \"q3\": {}}}\n",
        ratios.len(),
        quartile(1),
        quartile(2),
        quartile(3)
    );
    let path = directory().join(format!("{}.json", key.replace('/', "~")));
    if let Err(error) = fs::create_dir_all(directory()).and_then(|()| fs::write(&path, json)) {
        eprintln!("could not write {}: {error}", path.display());
    }
}

/// `target/paired`: the benchmark runs as `target/release/deps/<name>`.
fn directory() -> PathBuf {
    let exe = std::env::current_exe().expect("the benchmark knows its own path");
    let target = exe
        .ancestors()
        .nth(3)
        .expect("run from target/<profile>/deps");
    target.join("paired")
}
