//! A global allocator that counts, for the current thread, allocations and
//! heap bytes in use (with their peak). A binary that counts installs it
//! itself (`#[global_allocator] static A: Counting = Counting;`): a
//! library cannot choose every test binary's allocator.
//!
//! The allocation-free tests read the count around a call; the scale
//! measurements (`examples/scale.rs`) read the peak around building a
//! lattice. Counting per thread keeps the test harness's own threads out of
//! the numbers.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The counters of one thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stats {
    /// Allocations and reallocations so far.
    pub allocations: u64,
    /// Bytes allocated minus bytes freed on this thread (memory freed here
    /// that another thread allocated makes it smaller).
    pub live: isize,
    /// The largest `live` since the last [`reset_peak`].
    pub peak: isize,
}

thread_local! {
    static STATS: Cell<Stats> = const {
        Cell::new(Stats { allocations: 0, live: 0, peak: 0 })
    };
}

/// This thread's counters now.
pub fn stats() -> Stats {
    STATS.with(Cell::get)
}

/// Starts a new peak from the bytes in use now.
pub fn reset_peak() {
    update(|s| s.peak = s.live);
}

fn update(change: impl FnOnce(&mut Stats)) {
    // `try_with`: the allocator also runs while thread-locals are torn down.
    let _ = STATS.try_with(|cell| {
        let mut stats = cell.get();
        change(&mut stats);
        stats.peak = stats.peak.max(stats.live);
        cell.set(stats);
    });
}

fn allocated(bytes: usize) {
    update(|s| {
        s.allocations += 1;
        s.live += bytes as isize;
    });
}

/// The system allocator, counted.
pub struct Counting;

// SAFETY: every method forwards to `System` with the caller's arguments and
// only updates plain per-thread counters besides, which allocate nothing.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let ptr = System.alloc(layout);
        if !ptr.is_null() {
            allocated(layout.size());
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let ptr = System.alloc_zeroed(layout);
        if !ptr.is_null() {
            allocated(layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        update(|s| s.live -= layout.size() as isize);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new = System.realloc(ptr, layout, new_size);
        if !new.is_null() {
            update(|s| s.live -= layout.size() as isize);
            allocated(new_size);
        }
        new
    }
}
