//! Any string: `DType::from_name` returns a dtype that round-trips, or an
//! error that quotes the input.
#![no_main]

use dtype_lattice::DType;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &str| {
    match DType::from_name(input) {
        Ok(dtype) => assert_eq!(DType::from_name(dtype.name()), Ok(dtype)),
        Err(err) => assert_eq!(err.input(), input),
    }
});
