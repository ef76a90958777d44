//! Any bytes as batch input: one JSON answer per non-blank line, never a
//! panic.
#![no_main]

use dtype_lattice::registry::Settings;
use dtype_lattice::protocol;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| {
    let mut output = Vec::new();
    protocol::run(input, &mut output, Settings::default()).expect("writing to a Vec cannot fail");
    // Blank lines (JSON whitespace only) get no answer; every other line
    // gets exactly one.
    // A byte-order mark at the start is skipped.
    let text = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
    let mut lines: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
    if text.ends_with(b"\n") || text.is_empty() {
        lines.pop();
    }
    let blank = |line: &&[u8]| line.iter().all(|b| b" \t\r".contains(b));
    let expected = lines.iter().filter(|line| !blank(line)).count();
    let answers = output.split(|&b| b == b'\n').filter(|l| !l.is_empty()).count();
    assert_eq!(answers, expected);
});
