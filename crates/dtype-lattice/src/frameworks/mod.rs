//! Each framework's promotion rules, one module each, every one behind the
//! [`Policy`](crate::Policy) trait. A framework defined by a lattice hands
//! the [engine](crate::engine) its edge list once and joins by node; one
//! defined by rules (NumPy) implements them directly. Every error carries the
//! framework's own exception class and text.
//!
//! Adding a framework: a module here, one line in
//! [`registry`](crate::registry), a generator under `conformance/`
//! and its golden test (DESIGN.md says how).

pub mod array_api;
pub(crate) mod common;
pub mod jax;
pub mod jax_lax;
pub mod keras;
pub mod mlx;
pub mod numpy;
pub mod paddle;
pub(crate) mod python;
pub mod tensorflow;
pub mod tinygrad;
pub mod torch;
