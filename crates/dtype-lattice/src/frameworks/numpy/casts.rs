//! What NumPy's promotion reads off each dtype: its type number, its scalar
//! kind, and which safe casts exist. For NumPy's own dtypes these follow
//! NumPy's rules; for the 18 dtypes of ml_dtypes they are what ml_dtypes
//! 0.6.0 registers with NumPy (checked pair by pair against
//! `np.can_cast(a, b, casting="safe")` in the golden data).

use crate::frameworks::common::DTypeSet;
use crate::types::{DType, Kind};

/// NumPy's type number. NumPy's own dtypes have fixed numbers (on a
/// platform whose C `long` is 64 bits, `int64` is `NPY_LONG`, and `float16`
/// comes after every other builtin); ml_dtypes' dtypes are numbered from 256
/// in the order ml_dtypes registers them.
pub(super) fn type_num(dtype: DType) -> u16 {
    use DType::*;
    match dtype {
        Bool => 0,
        Int8 => 1,
        UInt8 => 2,
        Int16 => 3,
        UInt16 => 4,
        Int32 => 5,
        UInt32 => 6,
        Int64 => 7,
        UInt64 => 8,
        Float32 => 11,
        Float64 => 12,
        Complex64 => 14,
        Complex128 => 15,
        Float16 => 23,
        BFloat16 => 256,
        Float8E3M4 => 257,
        Float8E4M3 => 258,
        Float8E4M3B11Fnuz => 259,
        Float8E4M3Fn => 260,
        Float8E4M3Fnuz => 261,
        Float8E5M2 => 262,
        Float8E5M2Fnuz => 263,
        Float6E2M3Fn => 264,
        Float6E3M2Fn => 265,
        Float4E2M1Fn => 266,
        Float8E8M0Fnu => 267,
        Int1 => 268,
        UInt1 => 269,
        Int2 => 270,
        UInt2 => 271,
        Int4 => 272,
        UInt4 => 273,
        // NumPy has none: the policy refuses it before asking (`known`).
        Complex32 => u16::MAX,
    }
}

/// A dtype NumPy defines itself (type numbers below 256), as opposed to one
/// ml_dtypes adds.
pub(super) fn is_builtin(dtype: DType) -> bool {
    !dtype.is_ml_dtypes()
}

/// NumPy's "scalar kinds", in NumPy's order: the order in which the search
/// for a common type tries kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum ScalarKind {
    Bool,
    Unsigned,
    Signed,
    Float,
    Complex,
}

impl ScalarKind {
    /// The builtin dtypes of this kind, narrowest first: where NumPy's
    /// search for a common type looks. (NumPy's chains also hold
    /// `longlong`, `longdouble` and `clongdouble`, which are none of the 32
    /// dtypes and which no pair of the 32 reaches: a search that would go
    /// past `float64` or `complex128` has found a type before.)
    fn candidates(self) -> &'static [DType] {
        use DType::*;
        match self {
            ScalarKind::Bool => &[Bool],
            ScalarKind::Unsigned => &[UInt8, UInt16, UInt32, UInt64],
            ScalarKind::Signed => &[Int8, Int16, Int32, Int64],
            ScalarKind::Float => &[Float16, Float32, Float64],
            ScalarKind::Complex => &[Complex64, Complex128],
        }
    }

    const ALL: [ScalarKind; 5] = [
        ScalarKind::Bool,
        ScalarKind::Unsigned,
        ScalarKind::Signed,
        ScalarKind::Float,
        ScalarKind::Complex,
    ];
}

/// The scalar kind NumPy derives from `dtype.kind` (ml_dtypes' types have
/// none, but for `float8_e5m2`, whose kind is `'f'`).
pub(super) fn scalar_kind(dtype: DType) -> Option<ScalarKind> {
    Some(match dtype.numpy_kind() {
        'b' => ScalarKind::Bool,
        'u' => ScalarKind::Unsigned,
        'i' => ScalarKind::Signed,
        'f' => ScalarKind::Float,
        'c' => ScalarKind::Complex,
        _ => return None,
    })
}

/// `np.can_cast(from, to, casting="safe")`.
pub(super) fn can_cast_safely(from: DType, to: DType) -> bool {
    if from == to || from == DType::Bool {
        return true;
    }
    if is_builtin(from) && is_builtin(to) {
        builtin_safe(from, to)
    } else {
        ml_dtypes_safe(from, to)
    }
}

/// NumPy's own safe casts: to a type that holds every value. Integers go to
/// floats with more bits, and any integer goes to `float64` (NumPy's one
/// lossy exception, so that int64 and uint64 have a float to go to).
fn builtin_safe(from: DType, to: DType) -> bool {
    let (f, t) = (from.bits(), to.bits());
    match (from.kind(), to.kind()) {
        (Kind::Unsigned, Kind::Unsigned) | (Kind::Signed, Kind::Signed) => t >= f,
        (Kind::Unsigned, Kind::Signed) => t > f,
        (Kind::Unsigned | Kind::Signed, Kind::Float) => t > f || to == DType::Float64,
        (Kind::Unsigned | Kind::Signed, Kind::Complex) => t / 2 > f || to == DType::Complex128,
        (Kind::Float, Kind::Float) | (Kind::Complex, Kind::Complex) => t >= f,
        (Kind::Float, Kind::Complex) => t / 2 >= f,
        _ => false,
    }
}

/// The small floats ml_dtypes registers as casting safely to one another
/// and to the sub-byte integers (every small float but `float8_e5m2` and
/// `float8_e8m0fnu`).
const INTERCHANGEABLE_FLOATS: DTypeSet = DTypeSet::of(&[
    DType::Float4E2M1Fn,
    DType::Float6E2M3Fn,
    DType::Float6E3M2Fn,
    DType::Float8E3M4,
    DType::Float8E4M3,
    DType::Float8E4M3B11Fnuz,
    DType::Float8E4M3Fn,
    DType::Float8E4M3Fnuz,
    DType::Float8E5M2Fnuz,
]);

/// Safe casts where ml_dtypes is involved, as ml_dtypes registers them.
fn ml_dtypes_safe(from: DType, to: DType) -> bool {
    use DType::*;
    let interchangeable = |d| INTERCHANGEABLE_FLOATS.contains(d);
    // float6_e2m3fn and the 4-bit integers are the one exception to the
    // groups below, in both directions.
    let excluded = |a: DType, b: DType| a == Float6E2M3Fn && matches!(b, Int4 | UInt4);
    if excluded(from, to) || excluded(to, from) {
        return false;
    }
    match from {
        // bfloat16 and the small floats.
        f if f.kind() == Kind::Float && !is_builtin(f) => {
            matches!(to, Float32 | Float64 | Complex64 | Complex128)
                || interchangeable(f) && (interchangeable(to) || to.is_sub_byte_integer())
        }
        // 8-bit integers into any of ml_dtypes' floats.
        Int8 | UInt8 => to.kind() == Kind::Float && !is_builtin(to),
        // The sub-byte integers: up their own signedness, unsigned into the
        // builtin signed types, and into the interchangeable floats and
        // NumPy's floats and complexes.
        i if i.is_sub_byte_integer() => {
            let wider = to.bits() >= i.bits();
            let same_signedness = to.kind() == i.kind();
            let into_builtin_signed = is_builtin(to) && to.kind() == Kind::Signed;
            to.is_integer()
                && wider
                && (same_signedness || into_builtin_signed && i.kind() == Kind::Unsigned)
                || interchangeable(to)
                || is_builtin(to) && to.is_inexact()
        }
        _ => false,
    }
}

/// Whether NumPy has a cast from `from` to `to` at all (`casting="unsafe"`):
/// NumPy's own dtypes and ml_dtypes' have casts both ways, but among its
/// own types ml_dtypes registers only some: between its floats (but
/// `float8_e8m0fnu`, which casts only to and from `bfloat16`), between its
/// integers and its floats (but `int4` and `uint4` with `float6_e2m3fn`),
/// and from each sub-byte integer to the wider ones of its signedness.
pub(super) fn has_cast(from: DType, to: DType) -> bool {
    use DType::*;
    if from == to || is_builtin(from) || is_builtin(to) {
        return true;
    }
    if from == Float8E8M0Fnu || to == Float8E8M0Fnu {
        return from == BFloat16 || to == BFloat16;
    }
    let excluded = |a: DType, b: DType| a == Float6E2M3Fn && matches!(b, Int4 | UInt4);
    match (from.is_integer(), to.is_integer()) {
        (true, true) => from.kind() == to.kind() && to.bits() > from.bits(),
        (false, false) => true,
        _ => !excluded(from, to) && !excluded(to, from),
    }
}

/// The common type NumPy searches for when neither of two dtypes casts
/// safely to the other: the narrowest type of the larger scalar kind, or
/// of a later kind, that both cast to safely. `None` if either dtype has no
/// scalar kind or no type is found.
pub(super) fn search_common(a: DType, b: DType) -> Option<DType> {
    let start = scalar_kind(a)?.max(scalar_kind(b)?);
    ScalarKind::ALL
        .into_iter()
        .filter(|&kind| kind >= start)
        .flat_map(ScalarKind::candidates)
        .copied()
        .find(|&t| can_cast_safely(a, t) && can_cast_safely(b, t))
}

/// The promotion of two of NumPy's own dtypes (NumPy's promotion table,
/// which NumPy builds with exactly these safe-cast rules and search).
pub(super) fn builtin_promote(a: DType, b: DType) -> DType {
    if can_cast_safely(a, b) {
        b
    } else if can_cast_safely(b, a) {
        a
    } else {
        // Every pair of NumPy's numeric dtypes has a common type (float64
        // or complex128 at worst).
        search_common(a, b).unwrap_or(DType::Complex128)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_numbers_are_distinct_and_split_builtins_from_ml_dtypes() {
        let mut numbers: Vec<u16> = DType::ALL.iter().map(|&d| type_num(d)).collect();
        numbers.sort_unstable();
        numbers.dedup();
        assert_eq!(numbers.len(), DType::COUNT);
        // NumPy has no complex32 (the policy refuses it before asking).
        for dtype in DType::ALL.into_iter().filter(|&d| d != DType::Complex32) {
            assert_eq!(type_num(dtype) < 256, is_builtin(dtype), "{dtype}");
        }
    }

    #[test]
    fn builtin_pairs_always_have_a_common_type_by_search() {
        for a in DType::ALL.into_iter().filter(|&d| is_builtin(d)) {
            for b in DType::ALL.into_iter().filter(|&d| is_builtin(d)) {
                assert!(
                    can_cast_safely(a, b) || can_cast_safely(b, a) || search_common(a, b).is_some(),
                    "{a} {b}"
                );
            }
        }
    }
}
