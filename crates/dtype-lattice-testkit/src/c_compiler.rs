//! The C compiler the codegen tests build generated tables with: `$CC` (or
//! `cc`), strict C99 with every warning an error, so that generated C that
//! a careful adopter's build would reject fails the tests.

use std::path::Path;
use std::process::{Command, Output};

/// The flags every generated C file must compile under.
pub const FLAGS: [&str; 6] = [
    "-std=c99",
    "-Wall",
    "-Wextra",
    "-pedantic",
    "-Werror",
    "-O0",
];

/// Compiles `source` (a file in `dir`) into the executable `output` there;
/// what the compiler printed, and whether it succeeded, is in the
/// [`Output`]. Panics only if no compiler can be started.
pub fn compile(dir: &Path, source: &str, output: &str) -> Output {
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_owned());
    Command::new(&cc)
        .current_dir(dir)
        .args(FLAGS)
        .args([source, "-o", output])
        .output()
        .unwrap_or_else(|err| panic!("the C compiler `{cc}` does not start: {err}"))
}
