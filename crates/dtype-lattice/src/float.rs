//! The float functions core lacks: std's with std, `libm`'s without.
//!
//! `trunc`, `floor`, `fract` and `powi` of a power of two are exact, so both
//! give the same bits. The others may differ in the last place between the
//! platform's library and `libm`; they only decide whether Python's `**`
//! overflows, which an operand within a few ulps of the overflow edge could
//! tell apart, never which dtype an operation picks.

#[cfg(feature = "std")]
mod imp {
    #[inline]
    pub(crate) fn trunc(x: f64) -> f64 {
        x.trunc()
    }
    #[inline]
    pub(crate) fn floor(x: f64) -> f64 {
        x.floor()
    }
    #[inline]
    pub(crate) fn fract(x: f64) -> f64 {
        x.fract()
    }
    #[inline]
    pub(crate) fn powi(x: f64, n: i32) -> f64 {
        x.powi(n)
    }
    #[inline]
    pub(crate) fn exp(x: f64) -> f64 {
        x.exp()
    }
    #[inline]
    pub(crate) fn ln(x: f64) -> f64 {
        x.ln()
    }
    #[inline]
    pub(crate) fn powf(x: f64, y: f64) -> f64 {
        x.powf(y)
    }
    #[inline]
    pub(crate) fn hypot(x: f64, y: f64) -> f64 {
        x.hypot(y)
    }
    #[inline]
    pub(crate) fn atan2(y: f64, x: f64) -> f64 {
        y.atan2(x)
    }
    #[inline]
    pub(crate) fn cos(x: f64) -> f64 {
        x.cos()
    }
    #[inline]
    pub(crate) fn sin(x: f64) -> f64 {
        x.sin()
    }
}

#[cfg(not(feature = "std"))]
mod imp {
    #[inline]
    pub(crate) fn trunc(x: f64) -> f64 {
        libm::trunc(x)
    }
    #[inline]
    pub(crate) fn floor(x: f64) -> f64 {
        libm::floor(x)
    }
    #[inline]
    pub(crate) fn fract(x: f64) -> f64 {
        x - libm::trunc(x)
    }
    #[inline]
    pub(crate) fn powi(x: f64, n: i32) -> f64 {
        libm::pow(x, f64::from(n))
    }
    #[inline]
    pub(crate) fn exp(x: f64) -> f64 {
        libm::exp(x)
    }
    #[inline]
    pub(crate) fn ln(x: f64) -> f64 {
        libm::log(x)
    }
    #[inline]
    pub(crate) fn powf(x: f64, y: f64) -> f64 {
        libm::pow(x, y)
    }
    #[inline]
    pub(crate) fn hypot(x: f64, y: f64) -> f64 {
        libm::hypot(x, y)
    }
    #[inline]
    pub(crate) fn atan2(y: f64, x: f64) -> f64 {
        libm::atan2(y, x)
    }
    #[inline]
    pub(crate) fn cos(x: f64) -> f64 {
        libm::cos(x)
    }
    #[inline]
    pub(crate) fn sin(x: f64) -> f64 {
        libm::sin(x)
    }
}

pub(crate) use imp::{atan2, cos, exp, floor, fract, hypot, ln, powf, powi, sin, trunc};
