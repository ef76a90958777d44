//! Any string: operand and type notation parse or fail without panicking,
//! and a parsed operand prints back to an equal one.
#![no_main]

use dtype_lattice::{Operand, TypeSpec};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &str| {
    let _ = input.parse::<TypeSpec>();
    if let Ok(operand) = input.parse::<Operand>() {
        let printed = operand.to_string();
        assert_eq!(printed.parse::<Operand>(), Ok(operand), "{input:?} -> {printed:?}");
    }
});
