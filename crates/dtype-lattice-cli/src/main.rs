//! The `dtype-lattice` command; everything lives in the library part of this
//! crate so tests can drive it in-process.

use std::process::ExitCode;

fn main() -> ExitCode {
    dtype_lattice_cli::main(std::env::args_os())
}
