//! What the library's test binaries share: the golden data and how it is
//! judged, deterministic random inputs, adversarial lattice files, every
//! operand form, and the floor the hot path is measured against. Each test
//! uses some of it. (The counting allocator, `counting_alloc.rs`, is left
//! out: a global allocator is included only by the binaries that count.)
#![allow(dead_code)]

pub mod adversarial;
pub mod floor;
pub mod golden;
pub mod operand_forms;
pub mod rng;
