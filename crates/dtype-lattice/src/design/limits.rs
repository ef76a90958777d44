//! The bounds on a promotion graph read from input the library does not
//! trust: a lattice file, a dict of lists as Python or JSON text, or a dict
//! handed over as data. Declared once, for every way in, because checking a
//! graph of n nodes costs O(n³/64) word operations and an n × n table: within
//! them any analysis finishes in about two seconds (BENCHMARKS.md, "What
//! do the hardest lattice files cost?").

/// The longest text read, in bytes (8 MiB).
pub const MAX_BYTES: usize = 8 << 20;

/// The most nodes. Checking 4,096 nodes builds a 32 MiB join table in about
/// a second; JAX's lattice has 35.
pub const MAX_NODES: usize = 4096;

/// The most edges (as listed, before removing repeats).
pub const MAX_EDGES: usize = 250_000;

/// The most keys and `[table]` headers a lattice file may have: one
/// `[dtypes]` and one `[edges]` entry per node, and a few more.
pub const MAX_KEYS: usize = 2 * MAX_NODES + 16;
