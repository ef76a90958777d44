//! Any graph within a lattice file's limits: `check` answers with exact
//! counts and a bounded list, consistent with the engine's own join table.
//! The bytes are read as a node count (two bytes, at most 64, so that a
//! million inputs run in minutes; `bench/bounds.sh` covers the largest
//! graphs) and edges (two bytes per end); run with `-timeout=2` so that an
//! input `check` cannot finish within the documented two seconds is
//! reported as a hang.
#![no_main]

use dtype_lattice::design::check::Check;
use dtype_lattice::design::{Definition, NodeDef};
use libfuzzer_sys::fuzz_target;

const EXAMPLES: usize = 4;

fuzz_target!(|input: &[u8]| {
    let Some((head, rest)) = input.split_first_chunk::<2>() else {
        return;
    };
    let nodes = usize::from(u16::from_le_bytes(*head)) % 64 + 1;
    let edges: Vec<(usize, usize)> = rest
        .chunks_exact(4)
        .map(|c| {
            let a = usize::from(u16::from_le_bytes([c[0], c[1]])) % nodes;
            let b = usize::from(u16::from_le_bytes([c[2], c[3]])) % nodes;
            (a, b)
        })
        .filter(|(a, b)| a != b)
        .collect();
    let definition = Definition {
        name: "fuzzed".into(),
        description: None,
        nodes: (0..nodes).map(|i| NodeDef::from_label(&format!("n{i}"))).collect(),
        edges,
    };
    let report = Check::new(&definition, EXAMPLES).expect("a well-formed graph");
    assert!(report.ambiguous.len() <= EXAMPLES.min(report.ambiguous_count));
    assert!(report.no_upper_bound.len() <= EXAMPLES.min(report.no_upper_bound_count));
    assert!(report.no_upper_bound_count <= nodes * (nodes - 1) / 2);
    if report.cycle.is_none() {
        assert!(report.ambiguous.len() == EXAMPLES.min(report.ambiguous_count));
        for ambiguity in &report.ambiguous {
            assert!(ambiguity.candidates.len() >= 2);
        }
        assert_eq!(report.is_lattice(), report.ambiguous_count == 0);
    }
});
