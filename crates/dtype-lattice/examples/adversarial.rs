//! Writes the adversarial lattice files (`crates/dtype-lattice-testkit/src/adversarial.rs`):
//! graphs inside the lattice-file limits that once made `check` take
//! minutes or gigabytes. `bench/bounds.sh` times the command on each.
//!
//! ```text
//! cargo run --release -p dtype-lattice --example adversarial -- DIR
//! ```
//!
//! writes `DIR/FAMILY.toml` for every family, at full size.

use dtype_lattice_testkit::adversarial;

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir] = args.as_slice() else {
        eprintln!("usage: adversarial DIR  (writes DIR/FAMILY.toml for each family)");
        return ExitCode::from(2);
    };
    let dir = PathBuf::from(dir);
    if let Err(err) = std::fs::create_dir_all(&dir) {
        eprintln!("error: cannot create {}: {err}", dir.display());
        return ExitCode::from(2);
    }
    for name in adversarial::FAMILIES {
        let graph = adversarial::family(name, false).expect("a known family");
        let path = dir.join(format!("{name}.toml"));
        let text = graph.to_toml(name);
        if let Err(err) = std::fs::write(&path, &text) {
            eprintln!("error: cannot write {}: {err}", path.display());
            return ExitCode::from(2);
        }
        println!(
            "{}: {} nodes, {} edges, {} bytes",
            path.display(),
            graph.nodes,
            graph.edges.len(),
            text.len()
        );
    }
    ExitCode::SUCCESS
}
