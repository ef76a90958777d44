//! The names std's prelude gives every module and core's does not: a module
//! that allocates says `use crate::prelude::*;` and builds with or without
//! std (with std these are the very items std's prelude names).

pub(crate) use alloc::borrow::ToOwned;
pub(crate) use alloc::boxed::Box;
pub(crate) use alloc::string::{String, ToString};
pub(crate) use alloc::vec::Vec;
