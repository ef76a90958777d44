//! A value computed at first use and kept: the built-in policies' tables.
//!
//! With std it is std's `OnceLock` (one thread computes, the others wait).
//! Without std there is no way to wait, so `once_cell`'s `OnceBox` races:
//! threads that meet an empty cell may each compute the value, one is kept
//! and the others dropped. The tables are pure functions of constants, so
//! every racer computes the same value and the answers cannot differ; only
//! the first use may cost more than once.

#[cfg(feature = "std")]
pub(crate) use std::sync::OnceLock as Once;

/// `OnceLock`'s `new` and `get_or_init` over a racing `OnceBox`.
#[cfg(not(feature = "std"))]
#[derive(Debug, Default)]
pub(crate) struct Once<T>(once_cell::race::OnceBox<T>);

#[cfg(not(feature = "std"))]
impl<T> Once<T> {
    pub(crate) const fn new() -> Self {
        Once(once_cell::race::OnceBox::new())
    }

    pub(crate) fn get_or_init(&self, init: impl FnOnce() -> T) -> &T {
        self.0.get_or_init(|| alloc::boxed::Box::new(init()))
    }
}
