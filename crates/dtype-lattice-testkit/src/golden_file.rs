//! One golden file checked whole: every case answered and judged
//! ([`golden::judge`](crate::golden::judge)), the first differences listed,
//! and the file's deviations exactly the cases it records one on. The
//! library's golden tests and the no-std core's
//! (`examples/no-std-consumer/golden`) check through it, each answering
//! through its own build of the library.

use serde_json::Value;

use crate::golden::{judge, load, Verdict};

/// Checks every case of the golden file `name` against `answer` (a
/// request in, the library's answer out) and returns how many there were.
///
/// Panics listing the first differing cases; or if a case deviates without
/// recording it (`conformance/golden_io.py`, `with_deviations`: JAX's
/// `KeyError`s, which we deliberately do not copy, PaddlePaddle's calls
/// that did not return), if a recorded deviation no longer deviates, or if
/// the file has no case that is not a deviation.
pub fn check(name: &str, answer: impl Fn(&Value) -> Value) -> usize {
    let cases = load(name);
    let mut failures = Vec::new();
    let mut deviations = 0;
    for case in &cases {
        let ours = answer(&case.request);
        match judge(case, &ours) {
            Verdict::Same => {}
            Verdict::Deviation => deviations += 1,
            Verdict::Differs => failures.push(format!(
                "{name}:{}: {}\n    golden: {}\n    ours:   {}",
                case.line, case.request, case.expected, ours
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from the golden answers; the first ones:\n{}",
        failures.len(),
        cases.len(),
        failures[..failures.len().min(20)].join("\n")
    );
    let recorded = cases.iter().filter(|case| case.deviation.is_some()).count();
    assert_eq!(
        deviations, recorded,
        "{name}: every recorded deviation, and only those, deviates"
    );
    assert!(cases.len() > deviations, "{name}: no case but deviations");
    cases.len()
}
