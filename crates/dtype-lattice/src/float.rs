//! The float functions core lacks: std's with std, `libm`'s without.
//!
//! `trunc`, `floor`, `fract` and `powi` of a power of two are exact, so both
//! give the same bits. The others may differ in the last place between the
//! platform's library and `libm`; they only decide whether Python's `**`
//! overflows, which an operand within a few ulps of the overflow edge could
//! tell apart, never which dtype an operation picks.

#[cfg(feature = "std")]
mod imp {
    pub(crate) fn trunc(x: f64) -> f64 {
        x.trunc()
    }
    pub(crate) fn floor(x: f64) -> f64 {
        x.floor()
    }
    pub(crate) fn fract(x: f64) -> f64 {
        x.fract()
    }
    pub(crate) fn powi(x: f64, n: i32) -> f64 {
        x.powi(n)
    }
    pub(crate) fn exp(x: f64) -> f64 {
        x.exp()
    }
    pub(crate) fn ln(x: f64) -> f64 {
        x.ln()
    }
    pub(crate) fn powf(x: f64, y: f64) -> f64 {
        x.powf(y)
    }
    pub(crate) fn hypot(x: f64, y: f64) -> f64 {
        x.hypot(y)
    }
    pub(crate) fn atan2(y: f64, x: f64) -> f64 {
        y.atan2(x)
    }
    pub(crate) fn cos(x: f64) -> f64 {
        x.cos()
    }
    pub(crate) fn sin(x: f64) -> f64 {
        x.sin()
    }
}

#[cfg(not(feature = "std"))]
mod imp {
    pub(crate) fn trunc(x: f64) -> f64 {
        libm::trunc(x)
    }
    pub(crate) fn floor(x: f64) -> f64 {
        libm::floor(x)
    }
    pub(crate) fn fract(x: f64) -> f64 {
        x - libm::trunc(x)
    }
    pub(crate) fn powi(x: f64, n: i32) -> f64 {
        libm::pow(x, f64::from(n))
    }
    pub(crate) fn exp(x: f64) -> f64 {
        libm::exp(x)
    }
    pub(crate) fn ln(x: f64) -> f64 {
        libm::log(x)
    }
    pub(crate) fn powf(x: f64, y: f64) -> f64 {
        libm::pow(x, y)
    }
    pub(crate) fn hypot(x: f64, y: f64) -> f64 {
        libm::hypot(x, y)
    }
    pub(crate) fn atan2(y: f64, x: f64) -> f64 {
        libm::atan2(y, x)
    }
    pub(crate) fn cos(x: f64) -> f64 {
        libm::cos(x)
    }
    pub(crate) fn sin(x: f64) -> f64 {
        libm::sin(x)
    }
}

pub(crate) use imp::{atan2, cos, exp, floor, fract, hypot, ln, powf, powi, sin, trunc};
