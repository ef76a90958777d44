//! Each framework's promotion rules, one module each, every one behind the
//! [`Policy`](crate::Policy) trait. A framework defined by a lattice hands
//! the [engine](crate::engine) its edge list once and joins by node; one
//! defined by rules (NumPy) implements them directly. Every error carries the
//! framework's own exception class and text.
//!
//! Adding a framework: a folder here, one entry in
//! [`registry`](crate::registry), a generator under `conformance/` and its
//! golden data; DESIGN.md has the checklist, and `toy/` (compiled for the
//! tests only) follows it.
//!
//! # Files
//!
//! One folder per framework (`jax/`, `numpy/`, `torch/`, `tensorflow/`,
//! `array_api/`, `keras/`, `mlx/`, `paddle/`, `tinygrad/`), the same names
//! for the same jobs in each: `mod.rs` the policy (its public type and its
//! `Policy` impl, and its promotion where that is short), `promotion.rs` the
//! promotion where it is not, `ops.rs` its operations as an `OpTable` of
//! rules, `kernels.rs` the dtypes each kernel is registered for where the
//! framework dispatches by kernel. `jax/lax/` is `jax.lax`; `python.rs`,
//! what Python itself does with two scalars; `common/`, what they share:
//! `OpTable` (keyed by `Op`, checked in order at compile time), `Output`
//! (what an operation's result is made of) and `DTypeSet`.

pub mod array_api;
pub(crate) mod common;
pub mod jax;
pub mod keras;
pub mod mlx;
pub mod numpy;
pub mod paddle;
pub(crate) mod python;
pub mod tensorflow;
pub mod tinygrad;
// The add-a-framework checklist, followed by a framework of the tests.
pub mod torch;
#[cfg(test)]
pub(crate) mod toy;
