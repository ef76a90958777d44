//! The library's integration tests, one binary with a module per topic:
//! the conformance suite (golden data from the real libraries), the batch
//! protocol, the design tools, the limits on hostile input. What they
//! share is the `dtype-lattice-testkit` crate. (`no_alloc.rs` is a binary
//! of its own: it installs a counting global allocator.)

mod batch_protocol;
mod bounded_analysis;
mod complex32;
mod docs_lists;
mod explain_and_hasse;
mod explain_golden;
mod frameworks_mlx_paddle;
mod frameworks_numpy;
mod frameworks_torch_tf_lax;
mod golden;
mod hostile_batch;
mod hostile_lattice_files;
mod hostile_names;
mod hostile_operands;
mod lattice_file_memory;
mod lattice_properties;
mod layering;
mod notebook;
mod result_type_paths;
