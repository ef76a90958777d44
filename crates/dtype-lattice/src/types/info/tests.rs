//! Unit tests of `info.rs`.

use super::*;

fn floats() -> impl Iterator<Item = (DType, FInfo)> {
    DType::ALL
        .into_iter()
        .filter_map(|d| d.finfo().ok().map(|info| (d, info)))
}

#[test]
fn exactly_the_inexact_dtypes_have_finfo() {
    for dtype in DType::ALL {
        assert_eq!(dtype.finfo().is_ok(), dtype.is_inexact(), "{dtype}");
        assert_eq!(dtype.iinfo().is_ok(), dtype.is_integer(), "{dtype}");
    }
}

#[test]
fn encodings_fill_their_dtype() {
    for (dtype, info) in floats() {
        if dtype.kind() == Kind::Float {
            assert_eq!(info.dtype, dtype);
            assert_eq!(info.bits, dtype.bits(), "{dtype}");
        } else {
            assert_eq!(info.bits * 2, dtype.bits(), "{dtype}");
            assert_eq!(dtype.finfo(), info.dtype.finfo());
        }
    }
}

#[test]
fn float_facts_are_consistent() {
    for (dtype, f) in floats() {
        let all = [
            f.eps,
            f.epsneg,
            f.max,
            f.min,
            f.tiny,
            f.smallest_subnormal,
            f.resolution,
        ];
        assert!(all.iter().all(|v| v.is_finite()), "{dtype}: {f:?}");
        assert_eq!(f.smallest_normal, f.tiny);
        assert!(0.0 < f.smallest_subnormal && f.smallest_subnormal <= f.tiny);
        assert!(f.tiny <= 1.0 && 1.0 < f.max, "{dtype}");
        assert!(f.min < 0.0 || f.min == f.smallest_subnormal, "{dtype}");
        // Powers of two where NumPy's definitions say so.
        assert_eq!(f.eps, pow2(-f.nmant), "{dtype}");
        assert_eq!(f.tiny, pow2(f.minexp), "{dtype}");
        assert!(f.epsneg == f.eps || f.epsneg == f.eps / 2.0, "{dtype}");
        assert!(
            pow2(f.maxexp - 1) <= f.max && f.max < pow2(f.maxexp),
            "{dtype}"
        );
        // The resolution is the format's nearest value to 10^-precision.
        let target = 10_f64.powi(-f.precision);
        assert!(
            (f.resolution - target).abs() <= f.eps * target.max(f.tiny),
            "{dtype}"
        );
    }
}

#[test]
fn standard_floats_match_rust() {
    let f32_info = DType::Float32.finfo().unwrap();
    assert_eq!(f32_info.max, f64::from(f32::MAX));
    assert_eq!(f32_info.eps, f64::from(f32::EPSILON));
    assert_eq!(f32_info.tiny, f64::from(f32::MIN_POSITIVE));
    assert_eq!(f32_info.maxexp, f32::MAX_EXP);
    assert_eq!(f32_info.minexp, f32::MIN_EXP - 1);
    assert_eq!(f32_info.smallest_subnormal, f64::from(f32::from_bits(1)));
    let f64_info = DType::Float64.finfo().unwrap();
    assert_eq!(f64_info.max, f64::MAX);
    assert_eq!(f64_info.min, f64::MIN);
    assert_eq!(f64_info.eps, f64::EPSILON);
    assert_eq!(f64_info.tiny, f64::MIN_POSITIVE);
    assert_eq!(f64_info.smallest_subnormal, f64::from_bits(1));
    assert_eq!(f64_info.maxexp, f64::MAX_EXP);
    assert_eq!(f64_info.precision.unsigned_abs(), f64::DIGITS);
    assert_eq!(f32_info.precision.unsigned_abs(), f32::DIGITS);
}

#[test]
fn integer_ranges_follow_from_bits() {
    for dtype in DType::ALL {
        let Ok(info) = dtype.iinfo() else { continue };
        assert_eq!(info.bits, dtype.bits());
        assert_eq!(info.dtype, dtype);
        assert_eq!(info.max - info.min + 1, 1_i128 << info.bits, "{dtype}");
        let signed = dtype.kind() == Kind::Signed;
        assert_eq!(info.min == 0, !signed, "{dtype}");
    }
}

#[test]
fn pow2_is_exact_at_the_edges() {
    assert_eq!(pow2(0), 1.0);
    assert_eq!(pow2(-1074), f64::from_bits(1));
    assert_eq!(pow2(-1022), f64::MIN_POSITIVE);
    assert_eq!(pow2(1023) * (2.0 - f64::EPSILON), f64::MAX);
    assert_eq!(pow2(-1075), 0.0);
    assert_eq!(pow2(1024), f64::INFINITY);
}
