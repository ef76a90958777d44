//! The command line's integration tests, one binary with a module per
//! topic: each command's behaviour and exit codes, the explorer's server
//! and its limits, the generated pages. `support` runs the built binary and
//! the server.

mod support;

mod cli;
mod codegen;
mod compatibility_page;
mod conveniences;
mod design_cli;
mod docs_table;
mod explain;
mod explicit_x64;
mod frameworks_keras_tinygrad;
mod frameworks_numpy;
mod frameworks_torch_tf_lax;
mod graph;
mod hostile_cli;
mod operations;
mod outputs_and_exit_codes;
mod readme_commands;
mod serve_answers;
mod serve_api;
mod serve_hostile;
mod serve_operations;
mod serve_stalled;
mod site;
mod typed_lattices;
