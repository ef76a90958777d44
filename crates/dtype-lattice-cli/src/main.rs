//! The `dtype-lattice` command; everything lives in the library part of this
//! crate so tests can drive it in-process.

use std::io::{self, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    if stdout_probe::was_closed() {
        // Rust's runtime reopens a closed standard output on /dev/null
        // before `main`, where every write would vanish: fail the writes
        // instead, as any tool run with `>&-` does.
        return dtype_lattice_cli::main_to(std::env::args_os(), &mut ClosedStdout, false);
    }
    dtype_lattice_cli::main(std::env::args_os())
}

/// Standard output when it was closed at startup: every write fails with
/// EBADF ("Bad file descriptor").
struct ClosedStdout;

impl Write for ClosedStdout {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(closed())
    }

    fn flush(&mut self) -> io::Result<()> {
        Err(closed())
    }
}

fn closed() -> io::Error {
    // EBADF is 9 on Linux, the only system the probe runs on.
    io::Error::from_raw_os_error(9)
}

/// Whether descriptor 1 was closed when the process started, looked at
/// before Rust's runtime replaces a closed one with /dev/null (a function
/// in `.init_array` runs before `main`). Linux only; elsewhere it answers
/// no, and a closed standard output swallows the output as before.
/// DESIGN.md ("Why does `main` look at standard output before Rust
/// does?") says why no safe call after `main` can tell, and why no crate
/// does it here.
#[cfg(target_os = "linux")]
mod stdout_probe {
    use std::sync::atomic::{AtomicBool, Ordering};

    static CLOSED: AtomicBool = AtomicBool::new(false);

    extern "C" {
        fn fcntl(fd: i32, cmd: i32, ...) -> i32;
    }

    /// `F_GETFD` on Linux.
    const F_GETFD: i32 = 1;

    extern "C" fn probe() {
        // SAFETY: F_GETFD only reads descriptor 1's flags, and fails (-1,
        // EBADF) when it is closed; no memory is passed.
        let closed = unsafe { fcntl(1, F_GETFD) } == -1;
        CLOSED.store(closed, Ordering::Relaxed);
    }

    #[used]
    #[link_section = ".init_array"]
    static PROBE: extern "C" fn() = probe;

    pub fn was_closed() -> bool {
        CLOSED.load(Ordering::Relaxed)
    }
}

#[cfg(not(target_os = "linux"))]
mod stdout_probe {
    pub fn was_closed() -> bool {
        false
    }
}
