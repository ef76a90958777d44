//! A `#![no_std]` library that promotes dtypes through dtype-lattice's core
//! (`default-features = false`): a policy chosen by name at run time, its
//! promotion of two dtypes and its division of two arrays.
//!
//! It is a static library with its own panic handler and allocator, as a
//! final artifact without std must be; if anything pulled std into the
//! build, std's panic handler would meet this one and the build would
//! fail. `cargo build --manifest-path examples/no-std-consumer/Cargo.toml`
//! is the test.

#![no_std]

extern crate alloc;

use core::alloc::{GlobalAlloc, Layout};
use core::fmt;

use dtype_lattice::registry::{by_name, PolicyError, Settings};
use dtype_lattice::{DType, Op, Operand, Policy, PromotionError, Typed};

/// Why a question went unanswered: the policy's name, or the framework's
/// own error.
#[derive(Debug)]
pub enum Error {
    /// No built-in policy has the name.
    Policy(PolicyError),
    /// The framework refuses the operands (its exception and message).
    Framework(PromotionError),
    /// The policy does not model the operation.
    NotModelled,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Policy(err) => write!(f, "{err}"),
            Error::Framework(err) => write!(f, "{}: {err}", err.python_type()),
            Error::NotModelled => f.write_str("the policy does not model the operation"),
        }
    }
}

fn policy(name: &str) -> Result<alloc::boxed::Box<dyn Policy>, Error> {
    by_name(name, Settings::default()).map_err(Error::Policy)
}

/// What `a` and `b` promote to under the policy `name` (`"jax"`,
/// `"numpy"`, `"torch"`, ...), with its default settings.
pub fn promote(name: &str, a: DType, b: DType) -> Result<DType, Error> {
    policy(name)?
        .promote_types(a.into(), b.into())
        .map_err(Error::Framework)
}

/// The type of the policy's `a / b` (true division) on arrays of `a` and
/// `b`.
pub fn divide(name: &str, a: DType, b: DType) -> Result<Typed, Error> {
    let operands = [Operand::array(a, false), Operand::array(b, false)];
    policy(name)?
        .operation(Op::TrueDivide, &operands)
        .ok_or(Error::NotModelled)?
        .map_err(Error::Framework)
}

/// The same for C callers, on dtypes by index in [`DType::ALL`]: the
/// promoted dtype's index, or -1 for an error.
#[no_mangle]
pub extern "C" fn dtype_lattice_jax_promote(a: u8, b: u8) -> i32 {
    let dtype = |i: u8| DType::ALL.get(usize::from(i)).copied();
    let (Some(a), Some(b)) = (dtype(a), dtype(b)) else {
        return -1;
    };
    match promote("jax", a, b) {
        Ok(promoted) => DType::ALL
            .iter()
            .position(|&d| d == promoted)
            .map_or(-1, |i| i as i32),
        Err(_) => -1,
    }
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    loop {}
}

/// The C library's allocator, which whatever links this library provides.
struct Malloc;

extern "C" {
    fn malloc(size: usize) -> *mut u8;
    fn free(pointer: *mut u8);
}

// SAFETY: malloc's blocks are aligned for every fundamental type (16 bytes
// on x86_64); a stricter alignment is refused with a null pointer, which
// the allocator's contract allows.
unsafe impl GlobalAlloc for Malloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.align() > 16 {
            return core::ptr::null_mut();
        }
        malloc(layout.size())
    }

    unsafe fn dealloc(&self, pointer: *mut u8, _: Layout) {
        free(pointer)
    }
}

#[global_allocator]
static ALLOCATOR: Malloc = Malloc;
