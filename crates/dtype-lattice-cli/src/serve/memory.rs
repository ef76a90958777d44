//! Memory given back: the bound on bodies in memory ([`UPLOADS_AT_ONCE`]
//! of them) holds for the process's resident size, not only for what is
//! allocated.
//!
//! glibc's allocator maps a large block on its own and unmaps it when
//! freed, but after the first such free it raises that threshold to the
//! block's size: the next 8 MiB bodies then come from the per-thread
//! arenas, which keep up to twice the threshold of freed memory each
//! before trimming. With several worker threads the server held two or
//! three bodies' worth more than it was using after a burst of uploads.
//! Fixing the threshold turns that adjustment off, so each large body is
//! its own mapping, gone when its answer is computed.
//!
//! [`UPLOADS_AT_ONCE`]: super::UPLOADS_AT_ONCE

/// Blocks at least this large are mapped on their own: glibc's default
/// threshold, kept from moving.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MAPPED_FROM: libc::c_int = 128 << 10;

/// Fixes the allocator's threshold for mapping large blocks (glibc only;
/// other allocators return large blocks without being asked).
pub fn give_back_large_blocks() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt changes a tuning parameter of the allocator, called
    // before the runtime starts any thread; a refusal (0) leaves the
    // default, which only weakens the bound on resident memory.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MAPPED_FROM);
    }
}
