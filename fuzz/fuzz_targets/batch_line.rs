//! Any bytes as batch input: one JSON answer per line, never a panic.
#![no_main]

use dtype_lattice::policy::Settings;
use dtype_lattice::protocol;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| {
    let mut output = Vec::new();
    protocol::run(input, &mut output, Settings::default()).expect("writing to a Vec cannot fail");
    let lines = input.split(|&b| b == b'\n').count() - usize::from(input.ends_with(b"\n"));
    let answers = output.split(|&b| b == b'\n').filter(|l| !l.is_empty()).count();
    assert_eq!(answers, if input.is_empty() { 0 } else { lines });
});
