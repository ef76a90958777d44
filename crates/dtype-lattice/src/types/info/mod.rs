//! Numeric facts about each dtype (documented on [`FInfo`]).

use core::fmt;

use crate::types::{DType, ErrorKind, Kind};

/// Floating-point facts, as `numpy.finfo` (with `ml_dtypes`) reports them.
///
/// Every float field holds the exact value of the format's number (each is
/// representable in an `f64`).
///
/// ```
/// use dtype_lattice::{DType, FInfo};
///
/// let info: FInfo = DType::BFloat16.finfo().unwrap();
/// assert_eq!(info.eps, 0.0078125);
/// assert_eq!(info.max, -info.min);
/// assert_eq!((info.nexp, info.nmant, info.precision), (8, 7, 2));
/// ```
///
/// [`DType::finfo`] and [`DType::iinfo`] report what `jax.numpy.finfo` and
/// `jax.numpy.iinfo` report (NumPy for the standard types, `ml_dtypes` for
/// `bfloat16` and the float4, float6 and float8 types). Nothing here is a
/// transcription of those libraries' numbers: every float format is described
/// by a handful of encoding parameters (sign bit, exponent bits, mantissa
/// bits, exponent bias, whether it has subnormals and infinities, how it
/// encodes NaN), and each fact is computed from them by one function that
/// decodes bit patterns exactly. Integer ranges follow from the width and
/// signedness alone.
///
/// ```
/// use dtype_lattice::DType;
///
/// let f8 = DType::Float8E4M3Fn.finfo().unwrap();
/// assert_eq!((f8.max, f8.eps, f8.tiny), (448.0, 0.125, 0.015625));
/// assert_eq!(DType::Int4.iinfo().map(|i| (i.min, i.max)), Ok((-8, 7)));
/// assert!(DType::Bool.iinfo().is_err());
/// ```
///
/// # How each fact is derived
///
/// A positive value is decoded from its bit pattern as usual: a pattern with
/// exponent field `e` and mantissa field `f` is `(2^m + f) * 2^(e - bias - m)`,
/// or `f * 2^(1 - bias - m)` for a subnormal (`e == 0` in a format that has
/// subnormals). Since positive patterns are ordered like the values they
/// encode, neighbours of a value are neighbouring patterns. NumPy's
/// definitions then read:
///
/// - `eps`: the gap between 1.0 and the next value, `epsneg`: the gap between
///   1.0 and the value before it.
/// - `max`: the largest finite pattern, decoded; `min` is `-max`, or the
///   smallest value for a format without a sign.
/// - `tiny` (= `smallest_normal`): the pattern with the smallest normal
///   exponent and a zero mantissa; `minexp` is its exponent.
/// - `smallest_subnormal`: the smallest positive pattern, decoded.
/// - `maxexp`: the first power of two that overflows, one more than the
///   exponent of `max`.
/// - `nexp`, `nmant`: the widths of the exponent and mantissa fields.
/// - `precision`: the number of decimal digits `eps` guarantees,
///   `floor(-log10(eps))`, computed with integers as the largest `p` with
///   `10^p <= 2^nmant` (but see float8 below).
/// - `resolution`: `10^-precision` rounded to nearest (ties to even) in the
///   format itself, computed exactly from the rational value.
///
/// All of these are exact in an `f64`, and are built from exact powers of two.
///
/// # The oddities of the small formats
///
/// **IEEE-like formats** (`float8_e3m4`, `float8_e4m3`, `float8_e5m2`,
/// `bfloat16`, `float16`, `float32`, `float64`) reserve the all-ones exponent
/// for infinities and NaNs, so `max` has exponent field `2^nexp - 2` and an
/// all-ones mantissa: 240 for `float8_e4m3`, 57344 for `float8_e5m2`.
///
/// **`fn` formats with a NaN** (`float8_e4m3fn`) have no infinities and
/// spend a single pattern, all ones, on NaN. The top exponent holds finite
/// values, and `max` is the pattern just below all ones: exponent field 15
/// with mantissa `110`, so `max` is 448 rather than 240, and `maxexp` is 9.
///
/// **`fnuz` formats** (`float8_e4m3fnuz`, `float8_e5m2fnuz`,
/// `float8_e4m3b11fnuz`) have no infinities and no negative zero: NaN is the
/// pattern that would be `-0`. Every positive pattern is finite, so `max` is
/// the all-ones pattern. Their bias is one more than the IEEE bias for the
/// same exponent width (8 and 16), which moves `tiny` down one binade
/// (`2^-7` and `2^-15`) while `max` stays 240 and 57344.
///
/// **`float8_e4m3b11fnuz`** is an `fnuz` format whose bias is 11, not 8:
/// `tiny` is `2^-10` and `max` is 30 (`1.875 * 2^4`), so `maxexp` is 5.
///
/// **float4 and float6** (`float4_e2m1fn`, `float6_e2m3fn`, `float6_e3m2fn`)
/// have neither infinities nor NaN; every pattern is a number, and `max` is
/// the all-ones pattern (6, 7.5 and 28). With an exponent bias of 1, 1.0 is
/// the smallest normal in `float4_e2m1fn` and `float6_e2m3fn` (`minexp` is
/// 0), so the value just below 1.0 is subnormal and `epsneg` equals `eps`
/// (0.5 and 0.125) instead of being half of it.
///
/// **`float8_e8m0fnu`** is a scale format: eight exponent bits, no mantissa,
/// no sign, no subnormals, no infinities, and NaN as all ones. Every value is
/// a power of two, from `2^-127` (pattern 0, there is no zero) to `2^127`
/// (pattern 254). So `eps` is 1 (the next value after 1.0 is 2.0), `epsneg`
/// is 0.5, `minexp` is -127, and, with neither sign nor subnormals, `min`
/// and `smallest_subnormal` are both the smallest value, `2^-127`, equal to
/// `tiny`.
///
/// **Precision of the float8 formats.** `ml_dtypes` gives every 8-bit float
/// `precision` 1 and `resolution` equal to 0.1 rounded into the format,
/// whatever its `eps`; NumPy's formula would give 0 for all of them but
/// `float8_e3m4`. The rule here follows `ml_dtypes`: `precision` is 1 for
/// 8-bit formats and `floor(-log10(eps))` otherwise (which gives 0 for the
/// float4 and float6 formats, 2 for `bfloat16`, 3, 6 and 15 for the IEEE
/// types). Because the resolution is rounded in the format, it is not a
/// power of ten: `0.1015625` in `float8_e4m3fn`, `0.09375` in `float8_e5m2`
/// and in `float8_e3m4` (where 0.1 is subnormal), `0.125` in
/// `float8_e8m0fnu`, and `bfloat16`'s `0.01` is `0.0100098...`.
///
/// **Complex types.** As in NumPy, `finfo` of `complex64` and `complex128`
/// describes their component type: its `dtype` is `float32` or `float64` and
/// its `bits` 32 or 64.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FInfo {
    /// Width of the (real) format in bits: 4, 6, 8, 16, 32 or 64.
    ///
    /// ```
    /// # use dtype_lattice::DType;
    /// assert_eq!(DType::Float6E3M2Fn.finfo().unwrap().bits, 6);
    /// assert_eq!(DType::Complex128.finfo().unwrap().bits, 64);
    /// ```
    pub bits: u32,
    /// The gap between 1.0 and the next larger value, `2^-nmant`.
    ///
    /// ```
    /// # use dtype_lattice::DType;
    /// assert_eq!(DType::Float32.finfo().unwrap().eps, f64::from(f32::EPSILON));
    /// ```
    pub eps: f64,
    /// The gap between 1.0 and the next smaller value.
    ///
    /// ```
    /// # use dtype_lattice::DType;
    /// assert_eq!(DType::Float16.finfo().unwrap().epsneg, 0.00048828125);
    /// assert_eq!(DType::Float4E2M1Fn.finfo().unwrap().epsneg, 0.5);
    /// ```
    pub epsneg: f64,
    /// The largest finite value.
    ///
    /// ```
    /// # use dtype_lattice::DType;
    /// assert_eq!(DType::Float8E4M3Fn.finfo().unwrap().max, 448.0);
    /// assert_eq!(DType::Float64.finfo().unwrap().max, f64::MAX);
    /// ```
    pub max: f64,
    /// The smallest finite value: `-max`, except for `float8_e8m0fnu`,
    /// which has no sign.
    ///
    /// ```
    /// # use dtype_lattice::DType;
    /// assert_eq!(DType::Float8E5M2.finfo().unwrap().min, -57344.0);
    /// let e8m0 = DType::Float8E8M0Fnu.finfo().unwrap();
    /// assert_eq!(e8m0.min, e8m0.tiny);
    /// ```
    pub min: f64,
    /// The smallest positive normal value.
    ///
    /// ```
    /// # use dtype_lattice::DType;
    /// assert_eq!(DType::Float32.finfo().unwrap().tiny, f64::from(f32::MIN_POSITIVE));
    /// ```
    pub tiny: f64,
    /// The same as [`tiny`](FInfo::tiny), under the Array API's name.
    ///
    /// ```
    /// # use dtype_lattice::DType;
    /// let info = DType::Float8E4M3Fnuz.finfo().unwrap();
    /// assert_eq!(info.smallest_normal, info.tiny);
    /// ```
    pub smallest_normal: f64,
    /// The smallest positive value: the smallest subnormal, or `tiny` for a
    /// format without subnormals.
    ///
    /// ```
    /// # use dtype_lattice::DType;
    /// assert_eq!(DType::Float8E5M2.finfo().unwrap().smallest_subnormal, 1.0 / 65536.0);
    /// ```
    pub smallest_subnormal: f64,
    /// `10^-precision`, rounded to the nearest value of the format.
    ///
    /// ```
    /// # use dtype_lattice::DType;
    /// assert_eq!(DType::Float64.finfo().unwrap().resolution, 1e-15);
    /// assert_eq!(DType::Float32.finfo().unwrap().resolution, f64::from(1e-6_f32));
    /// ```
    pub resolution: f64,
    /// Width of the mantissa field, in bits (without the implicit bit).
    ///
    /// ```
    /// # use dtype_lattice::DType;
    /// assert_eq!(DType::Float64.finfo().unwrap().nmant, 52);
    /// ```
    pub nmant: i32,
    /// Width of the exponent field, in bits.
    ///
    /// ```
    /// # use dtype_lattice::DType;
    /// assert_eq!(DType::Float8E8M0Fnu.finfo().unwrap().nexp, 8);
    /// ```
    pub nexp: i32,
    /// Width of the exponent field again, under the name NumPy's `finfo`
    /// inherited from its older `MachAr` (NumPy and `ml_dtypes` both report
    /// it, always equal to [`nexp`](FInfo::nexp)).
    ///
    /// ```
    /// # use dtype_lattice::DType;
    /// assert_eq!(DType::Float4E2M1Fn.finfo().unwrap().iexp, 2);
    /// ```
    pub iexp: i32,
    /// The smallest power of two that overflows: `max < 2^maxexp`.
    ///
    /// ```
    /// # use dtype_lattice::DType;
    /// assert_eq!(DType::Float16.finfo().unwrap().maxexp, 16);
    /// ```
    pub maxexp: i32,
    /// The exponent of [`tiny`](FInfo::tiny): `tiny == 2^minexp`.
    ///
    /// ```
    /// # use dtype_lattice::DType;
    /// assert_eq!(DType::Float8E4M3B11Fnuz.finfo().unwrap().minexp, -10);
    /// ```
    pub minexp: i32,
    /// Approximate number of decimal digits of precision.
    ///
    /// ```
    /// # use dtype_lattice::DType;
    /// assert_eq!(DType::Float32.finfo().unwrap().precision, 6);
    /// ```
    pub precision: i32,
    /// The real dtype described: the dtype itself, or the component type of
    /// a complex dtype.
    ///
    /// ```
    /// # use dtype_lattice::DType;
    /// assert_eq!(DType::Complex64.finfo().unwrap().dtype, DType::Float32);
    /// ```
    pub dtype: DType,
}

/// Integer facts, as `numpy.iinfo` (with `ml_dtypes`) reports them.
///
/// ```
/// use dtype_lattice::{DType, IInfo};
///
/// let info: IInfo = DType::UInt64.iinfo().unwrap();
/// assert_eq!((info.bits, info.min, info.max), (64, 0, i128::from(u64::MAX)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IInfo {
    /// Width in bits.
    ///
    /// ```
    /// # use dtype_lattice::DType;
    /// assert_eq!(DType::UInt2.iinfo().unwrap().bits, 2);
    /// ```
    pub bits: u32,
    /// The smallest value: 0, or `-2^(bits-1)` for a signed type.
    ///
    /// ```
    /// # use dtype_lattice::DType;
    /// assert_eq!(DType::Int8.iinfo().unwrap().min, -128);
    /// ```
    pub min: i128,
    /// The largest value: `2^bits - 1`, or `2^(bits-1) - 1` for a signed
    /// type.
    ///
    /// ```
    /// # use dtype_lattice::DType;
    /// assert_eq!(DType::Int1.iinfo().unwrap().max, 0);
    /// ```
    pub max: i128,
    /// The dtype described.
    ///
    /// ```
    /// # use dtype_lattice::DType;
    /// assert_eq!(DType::Int32.iinfo().unwrap().dtype, DType::Int32);
    /// ```
    pub dtype: DType,
}

/// A dtype asked for facts of the wrong kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InfoError {
    /// `finfo` of a dtype that is not a float or complex type.
    NotInexact(DType),
    /// `iinfo` of a dtype that is not an integer type.
    NotInteger(DType),
}

impl InfoError {
    /// The Python exception class NumPy and `ml_dtypes` raise: `ValueError`.
    pub const fn kind(&self) -> ErrorKind {
        ErrorKind::Value
    }

    /// The name of the Python exception class: `ValueError`.
    pub const fn python_type(&self) -> &'static str {
        self.kind().python_type()
    }
}

impl fmt::Display for InfoError {
    /// The message of `ml_dtypes.finfo` / `ml_dtypes.iinfo`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // NumPy >= 2.5 quotes the dtype's repr, which ml_dtypes writes
            // without quotes.
            InfoError::NotInexact(dtype) if dtype.is_ml_dtypes() => {
                write!(f, "data type dtype({dtype}) not compatible with finfo")
            }
            InfoError::NotInexact(dtype) => {
                write!(f, "data type dtype('{dtype}') not compatible with finfo")
            }
            InfoError::NotInteger(dtype) => {
                write!(f, "Invalid integer data type '{}'.", dtype.numpy_kind())
            }
        }
    }
}

impl core::error::Error for InfoError {}

impl DType {
    /// Floating-point facts for a real or complex float dtype; an error for
    /// `bool` and the integers, with the message NumPy gives.
    ///
    /// ```
    /// use dtype_lattice::DType;
    ///
    /// assert_eq!(DType::Float8E4M3Fn.finfo().unwrap().max, 448.0);
    /// assert_eq!(DType::Complex128.finfo(), DType::Float64.finfo());
    /// let err = DType::Int8.finfo().unwrap_err();
    /// assert_eq!(err.to_string(), "data type dtype('int8') not compatible with finfo");
    /// ```
    pub fn finfo(self) -> Result<FInfo, InfoError> {
        let real = self.real_part();
        Encoding::of(real)
            .map(|encoding| encoding.finfo(real))
            .ok_or(InfoError::NotInexact(self))
    }

    /// Integer facts for a signed or unsigned integer dtype; an error for
    /// `bool` and the floats, with the message NumPy gives.
    ///
    /// ```
    /// use dtype_lattice::DType;
    ///
    /// let info = DType::Int16.iinfo().unwrap();
    /// assert_eq!((info.min, info.max), (-32768, 32767));
    /// assert_eq!(DType::UInt4.iinfo().map(|i| i.max), Ok(15));
    /// let err = DType::Bool.iinfo().unwrap_err();
    /// assert_eq!(err.to_string(), "Invalid integer data type 'b'.");
    /// ```
    pub fn iinfo(self) -> Result<IInfo, InfoError> {
        let bits = self.bits();
        let (min, max) = match self.kind() {
            Kind::Unsigned => (0, (1_i128 << bits) - 1),
            Kind::Signed => (-(1_i128 << (bits - 1)), (1_i128 << (bits - 1)) - 1),
            Kind::Bool | Kind::Float | Kind::Complex => return Err(InfoError::NotInteger(self)),
        };
        Ok(IInfo {
            bits,
            min,
            max,
            dtype: self,
        })
    }
}

/// How a format spends its all-ones patterns on NaN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NanEncoding {
    /// IEEE 754: an all-ones exponent means infinity (zero mantissa) or NaN.
    Ieee,
    /// `fn`: no infinities; the single all-ones pattern is NaN.
    AllOnes,
    /// `fnuz`: no infinities, no negative zero; NaN is the pattern of `-0`.
    NegativeZero,
    /// No NaN and no infinities: every pattern is a number.
    Absent,
}

/// The encoding parameters of a binary floating-point format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Encoding {
    /// Whether there is a sign bit.
    signed: bool,
    /// Width of the exponent field.
    exponent_bits: u32,
    /// Width of the mantissa (trailing significand) field.
    mantissa_bits: u32,
    /// The exponent field of 1.0.
    bias: i32,
    /// Whether exponent field 0 encodes subnormals (and zero).
    subnormals: bool,
    /// How NaN (and infinity, for [`NanEncoding::Ieee`]) is encoded.
    nan: NanEncoding,
}

/// An unsigned magnitude pattern: exponent field above mantissa field.
type Pattern = u64;

impl Encoding {
    /// The usual case: a sign bit and subnormals.
    const fn signed(exponent_bits: u32, mantissa_bits: u32, bias: i32, nan: NanEncoding) -> Self {
        Encoding {
            signed: true,
            exponent_bits,
            mantissa_bits,
            bias,
            subnormals: true,
            nan,
        }
    }

    /// The encoding of a real float dtype; `None` for other dtypes.
    fn of(dtype: DType) -> Option<Encoding> {
        use NanEncoding::{AllOnes, Ieee, NegativeZero};
        let encoding = match dtype {
            DType::Float4E2M1Fn => Encoding::signed(2, 1, 1, NanEncoding::Absent),
            DType::Float6E2M3Fn => Encoding::signed(2, 3, 1, NanEncoding::Absent),
            DType::Float6E3M2Fn => Encoding::signed(3, 2, 3, NanEncoding::Absent),
            DType::Float8E3M4 => Encoding::signed(3, 4, 3, Ieee),
            DType::Float8E4M3 => Encoding::signed(4, 3, 7, Ieee),
            DType::Float8E8M0Fnu => Encoding {
                signed: false,
                exponent_bits: 8,
                mantissa_bits: 0,
                bias: 127,
                subnormals: false,
                nan: AllOnes,
            },
            DType::Float8E4M3B11Fnuz => Encoding::signed(4, 3, 11, NegativeZero),
            DType::Float8E4M3Fn => Encoding::signed(4, 3, 7, AllOnes),
            DType::Float8E4M3Fnuz => Encoding::signed(4, 3, 8, NegativeZero),
            DType::Float8E5M2 => Encoding::signed(5, 2, 15, Ieee),
            DType::Float8E5M2Fnuz => Encoding::signed(5, 2, 16, NegativeZero),
            DType::BFloat16 => Encoding::signed(8, 7, 127, Ieee),
            DType::Float16 => Encoding::signed(5, 10, 15, Ieee),
            DType::Float32 => Encoding::signed(8, 23, 127, Ieee),
            DType::Float64 => Encoding::signed(11, 52, 1023, Ieee),
            _ => return None,
        };
        Some(encoding)
    }

    /// All facts about the format, for `dtype`.
    fn finfo(self, dtype: DType) -> FInfo {
        let tiny = self.tiny();
        FInfo {
            bits: self.bits(),
            eps: self.eps(),
            epsneg: self.epsneg(),
            max: self.max(),
            min: self.min(),
            tiny,
            smallest_normal: tiny,
            smallest_subnormal: self.smallest_subnormal(),
            resolution: self.resolution(),
            nmant: self.nmant(),
            nexp: self.nexp(),
            iexp: self.nexp(),
            maxexp: self.maxexp(),
            minexp: self.minexp(),
            precision: self.precision(),
            dtype,
        }
    }

    /// Total width: sign, exponent and mantissa fields.
    fn bits(self) -> u32 {
        u32::from(self.signed) + self.exponent_bits + self.mantissa_bits
    }

    /// `nmant`: the mantissa field's width.
    fn nmant(self) -> i32 {
        to_i32(self.mantissa_bits)
    }

    /// `nexp`: the exponent field's width.
    fn nexp(self) -> i32 {
        to_i32(self.exponent_bits)
    }

    /// The smallest exponent field of a normal number: 1 when field 0 is
    /// reserved for subnormals, else 0.
    fn min_normal_field(self) -> Pattern {
        Pattern::from(self.subnormals)
    }

    /// The exponent field of `pattern`.
    fn exponent_field(self, pattern: Pattern) -> Pattern {
        pattern >> self.mantissa_bits
    }

    /// The largest positive pattern that encodes a finite number.
    fn max_finite_pattern(self) -> Pattern {
        let all_ones: Pattern = (1 << (self.exponent_bits + self.mantissa_bits)) - 1;
        match self.nan {
            // The whole top exponent is infinity or NaN.
            NanEncoding::Ieee => all_ones - (1 << self.mantissa_bits),
            // Only the all-ones pattern is NaN.
            NanEncoding::AllOnes => all_ones - 1,
            // NaN lives at -0 (or nowhere): every positive pattern is finite.
            NanEncoding::NegativeZero | NanEncoding::Absent => all_ones,
        }
    }

    /// The pattern of 1.0: exponent field `bias`, mantissa zero.
    fn one_pattern(self) -> Pattern {
        Pattern::from(self.bias.unsigned_abs()) << self.mantissa_bits
    }

    /// The exact value of a positive pattern.
    fn decode(self, pattern: Pattern) -> f64 {
        let field = self.exponent_field(pattern);
        let mantissa = pattern & ((1 << self.mantissa_bits) - 1);
        let m = to_i32(self.mantissa_bits);
        if field < self.min_normal_field() {
            // Subnormal: no implicit bit, the exponent of the smallest normal.
            exact(mantissa, 1 - self.bias - m)
        } else {
            let implicit = 1 << self.mantissa_bits;
            exact(implicit + mantissa, to_i32(field) - self.bias - m)
        }
    }

    /// `eps`: 1.0's successor minus 1.0.
    fn eps(self) -> f64 {
        self.decode(self.one_pattern() + 1) - 1.0
    }

    /// `epsneg`: 1.0 minus 1.0's predecessor.
    fn epsneg(self) -> f64 {
        1.0 - self.decode(self.one_pattern() - 1)
    }

    /// `max`: the largest finite pattern, decoded.
    fn max(self) -> f64 {
        self.decode(self.max_finite_pattern())
    }

    /// `min`: `-max`, or the smallest value (pattern 0) without a sign bit.
    fn min(self) -> f64 {
        if self.signed {
            -self.max()
        } else {
            self.decode(0)
        }
    }

    /// `tiny`: the smallest normal exponent with a zero mantissa.
    fn tiny(self) -> f64 {
        self.decode(self.min_normal_field() << self.mantissa_bits)
    }

    /// `smallest_subnormal`: the smallest positive pattern, decoded (pattern
    /// 1 after zero, or pattern 0 when there are no subnormals and so no zero).
    fn smallest_subnormal(self) -> f64 {
        self.decode(Pattern::from(self.subnormals))
    }

    /// `maxexp`: one more than the exponent of `max`.
    fn maxexp(self) -> i32 {
        to_i32(self.exponent_field(self.max_finite_pattern())) - self.bias + 1
    }

    /// `minexp`: the exponent of `tiny`.
    fn minexp(self) -> i32 {
        to_i32(self.min_normal_field()) - self.bias
    }

    /// `precision`: `floor(-log10(eps))`, the largest `p` with
    /// `10^p <= 2^nmant`; `ml_dtypes` fixes it at 1 for 8-bit formats.
    fn precision(self) -> i32 {
        if self.bits() == 8 {
            return 1;
        }
        let scale = 1_u128 << self.mantissa_bits;
        let mut digits = 0;
        let mut power = 10_u128;
        while power <= scale {
            digits += 1;
            power *= 10;
        }
        digits
    }

    /// `resolution`: `10^-precision` rounded to nearest, ties to even, in
    /// this format (subnormals included), computed from the exact rational.
    fn resolution(self) -> f64 {
        let denominator = 10_u128.pow(self.precision().unsigned_abs());
        // The binade of 1 / 10^p: 2^exponent <= 1/10^p < 2^(exponent + 1),
        // i.e. -exponent is the smallest k with 2^k >= 10^p.
        let mut k = 0_i32;
        while (1_u128 << k) < denominator {
            k += 1;
        }
        // Below `tiny` the spacing is that of the smallest normal binade.
        let exponent = (-k).max(self.minexp());
        let quantum = exponent - to_i32(self.mantissa_bits);
        // 1/10^p = 2^quantum * (2^-quantum / 10^p); round that quotient.
        let scaled = 1_u128 << (-quantum);
        let (quotient, remainder) = (scaled / denominator, scaled % denominator);
        let round_up = match (2 * remainder).cmp(&denominator) {
            core::cmp::Ordering::Greater => true,
            core::cmp::Ordering::Equal => quotient % 2 == 1,
            core::cmp::Ordering::Less => false,
        };
        let significand = quotient + u128::from(round_up);
        exact(u64::try_from(significand).unwrap_or(u64::MAX), quantum)
    }
}

/// `significand * 2^exponent`, exact when `2^exponent` and the result are
/// both representable in an `f64` (true of every value computed here).
fn exact(significand: u64, exponent: i32) -> f64 {
    // Significands here have at most 53 bits, so the conversion is exact;
    // multiplying by a power of two is exact when the product is in range.
    significand as f64 * pow2(exponent)
}

/// `2^exponent`, built from its bits (exact; subnormal powers included,
/// saturating to 0 or infinity outside `f64`'s range).
fn pow2(exponent: i32) -> f64 {
    const MANTISSA_BITS: i32 = 52;
    const BIAS: i32 = 1023;
    if exponent > BIAS {
        f64::INFINITY
    } else if exponent >= 1 - BIAS {
        f64::from_bits(u64::from((exponent + BIAS).unsigned_abs()) << MANTISSA_BITS)
    } else if exponent >= 1 - BIAS - MANTISSA_BITS {
        f64::from_bits(1_u64 << (exponent - (1 - BIAS - MANTISSA_BITS)).unsigned_abs())
    } else {
        0.0
    }
}

/// Field widths and field values here are small; convert without a panic.
fn to_i32<T: TryInto<i32>>(value: T) -> i32 {
    value.try_into().unwrap_or(i32::MAX)
}

#[cfg(test)]
mod tests;
