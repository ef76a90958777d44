//! What the tests, benchmarks and examples of the workspace share, in one
//! place: the golden data from the real libraries and the one judge of
//! it (`golden`), a whole file checked (`golden_file`), deterministic random inputs (`rng`), adversarial lattice
//! files (`adversarial`), every operand form (`operand_forms`), the C
//! compiler generated tables are built with (`c_compiler`), the floor
//! the hot path is measured against (`floor`), and a counting allocator
//! that a binary installs itself (`counting_alloc`).
//!
//! Not published: a dev-dependency of the crates only.

pub mod adversarial;
pub mod c_compiler;
pub mod counting_alloc;
pub mod floor;
pub mod golden;
pub mod golden_file;
pub mod operand_forms;
pub mod rng;
