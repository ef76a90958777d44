//! Any bytes: `lattice_file::parse_bytes` gives a definition whose edges
//! point at its own nodes (then `check` answers), or an error with a place.
#![no_main]

use dtype_lattice::design::check::{Check, EXAMPLES};
use dtype_lattice::design::lattice_file::parse_bytes;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| {
    match parse_bytes(input) {
        Ok(definition) => {
            let n = definition.nodes.len();
            assert!(definition.edges.iter().all(|&(a, b)| a < n && b < n && a != b));
            assert!(Check::new(&definition, EXAMPLES).is_ok());
        }
        Err(err) => assert!(!err.to_string().is_empty()),
    }
});
