//! The design notebook's criteria for a promotion, checked on every pair.
//!
//! JAX's design notebook (JEP 9407) weighs each candidate edge of a
//! promotion lattice against five criteria. The first, that the graph stays
//! a lattice, is [`Check::new`](crate::design::check::Check::new)'s; the other
//! four are about the join `c` of two input types, and are decided here
//! from the types' numeric facts ([`finfo`](DType::finfo) and
//! [`iinfo`](DType::iinfo)):
//!
//! - [`Criterion::DroppedComponent`]: an input has a component `c` lacks:
//!   a complex input and a real `c` (the imaginary part), a floating input
//!   and an integer or bool `c` (the fraction), an integer input and a bool
//!   `c` (the magnitude).
//! - [`Criterion::Overflow`]: `c`'s finite range does not contain an
//!   input's (`uint32` and `int32` giving `int32`; `int64` and `float16`
//!   giving `float16`). A complex type's range is its components'.
//! - [`Criterion::PrecisionLoss`]: some value of an input inside `c`'s range
//!   is not exactly representable in `c`: rounding, not overflow (`int32`
//!   to `float32`; `bfloat16` to `float16`, whose smallest steps are
//!   coarser). Exactly: an integer type loses precision in a float with
//!   `p = nmant + 1` significant bits when the largest integer magnitude
//!   both ranges share exceeds 2^p (every integer up to 2^p is exact, and
//!   2^p + 1 is not); a float loses precision in another float when its
//!   significand is longer or its smallest subnormal is smaller; a float
//!   always loses it in an integer or bool (0.5 is in every float type and
//!   in every integer range's hull); integers and bool never lose it in an
//!   integer type, inside its range. Complex types compare their
//!   components.
//! - [`Criterion::WiderThanInputs`]: `c` has more bits than both inputs
//!   (`int8` and `uint8` giving `int16`).
//!
//! ```
//! use dtype_lattice::design::audit::{violations, Criterion};
//! use dtype_lattice::DType::*;
//!
//! assert_eq!(violations(UInt32, Int32, Int32), [Criterion::Overflow]);
//! assert_eq!(violations(Int8, UInt8, Int16), [Criterion::WiderThanInputs]);
//! assert_eq!(violations(Int64, Float64, Float64), [Criterion::PrecisionLoss]);
//! assert_eq!(
//!     violations(BFloat16, Float16, Float16),
//!     [Criterion::Overflow, Criterion::PrecisionLoss]
//! );
//! assert_eq!(violations(Int16, Float32, Float32), []);
//! assert_eq!(violations(Complex64, Float64, Float64), [Criterion::DroppedComponent]);
//! ```
//!
//! [`Audit`] applies them to every pair of distinct dtype nodes of a graph
//! (weak nodes stand for Python scalars of any width and are not inputs;
//! they may be results, as the dtype they are stored as), or to a policy's
//! `promote_types` over a list of dtypes.

use std::cmp::Ordering;
use std::fmt;

use crate::design::{Definition, Subject};
use crate::engine::{Bound, GraphError};
use crate::policy::Policy;
use crate::types::TypeSpec;
use crate::types::{DType, Kind};

/// One of the notebook's criteria a promotion can violate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Criterion {
    /// Criterion 2: never drop a whole component.
    DroppedComponent,
    /// Criterion 3: never overflow.
    Overflow,
    /// Criterion 4: avoid loss of precision.
    PrecisionLoss,
    /// Criterion 5: avoid results wider than the inputs.
    WiderThanInputs,
}

impl Criterion {
    /// All four, in the notebook's order.
    pub const ALL: [Criterion; 4] = [
        Criterion::DroppedComponent,
        Criterion::Overflow,
        Criterion::PrecisionLoss,
        Criterion::WiderThanInputs,
    ];

    /// The name used in reports: `dropped_component`, `overflow`,
    /// `precision_loss`, `wider_than_inputs`.
    pub const fn name(self) -> &'static str {
        match self {
            Criterion::DroppedComponent => "dropped_component",
            Criterion::Overflow => "overflow",
            Criterion::PrecisionLoss => "precision_loss",
            Criterion::WiderThanInputs => "wider_than_inputs",
        }
    }

    /// Whether promoting `a` and `b` to `c` violates this criterion.
    pub fn violated(self, a: DType, b: DType, c: DType) -> bool {
        match self {
            Criterion::WiderThanInputs => {
                c.itemsize_bits() > a.itemsize_bits().max(b.itemsize_bits())
            }
            Criterion::DroppedComponent => [a, b].iter().any(|&x| rank(c) < rank(x)),
            Criterion::Overflow => [a, b].iter().any(|&x| !contains(range(c), range(x))),
            Criterion::PrecisionLoss => [a, b].iter().any(|&x| loses_precision(x, c)),
        }
    }
}

impl std::str::FromStr for Criterion {
    type Err = String;

    /// A criterion by its [name](Criterion::name), or an error listing them.
    ///
    /// ```
    /// use dtype_lattice::design::audit::Criterion;
    /// assert_eq!("overflow".parse(), Ok(Criterion::Overflow));
    /// assert_eq!(
    ///     "precision".parse::<Criterion>().unwrap_err(),
    ///     "unknown criterion 'precision' (known: dropped_component, overflow, precision_loss, \
    ///      wider_than_inputs)"
    /// );
    /// ```
    fn from_str(name: &str) -> Result<Criterion, String> {
        let names = || Criterion::ALL.into_iter().map(Criterion::name);
        Criterion::ALL
            .into_iter()
            .find(|criterion| criterion.name() == name)
            .ok_or_else(|| {
                let mut message = format!("unknown criterion {}", crate::text::quote(name, '\''));
                if let Some(near) = crate::text::nearest(name, names()) {
                    message.push_str(&format!(": did you mean '{near}'?"));
                }
                message + &format!(" (known: {})", names().collect::<Vec<_>>().join(", "))
            })
    }
}

impl fmt::Display for Criterion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The criteria that promoting `a` and `b` to `c` violates, in order.
pub fn violations(a: DType, b: DType, c: DType) -> Vec<Criterion> {
    Criterion::ALL
        .into_iter()
        .filter(|criterion| criterion.violated(a, b, c))
        .collect()
}

/// Components a kind carries: bool < integers < floats < complex.
fn rank(dtype: DType) -> u8 {
    match dtype.kind() {
        Kind::Bool => 0,
        Kind::Unsigned | Kind::Signed => 1,
        Kind::Float => 2,
        Kind::Complex => 3,
    }
}

/// A range endpoint: integers exactly, floats as the `f64` holding them.
#[derive(Clone, Copy)]
enum Value {
    Int(i128),
    Float(f64),
}

/// The finite range of a type (a complex type's is its components').
fn range(dtype: DType) -> (Value, Value) {
    if let Ok(info) = dtype.iinfo() {
        return (Value::Int(info.min), Value::Int(info.max));
    }
    match dtype.finfo() {
        Ok(info) => (Value::Float(info.min), Value::Float(info.max)),
        Err(_) => (Value::Int(0), Value::Int(1)), // bool
    }
}

fn contains(outer: (Value, Value), inner: (Value, Value)) -> bool {
    compare(outer.0, inner.0) != Ordering::Greater && compare(inner.1, outer.1) != Ordering::Greater
}

/// Compares exactly, across integers and floats.
fn compare(a: Value, b: Value) -> Ordering {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => x.cmp(&y),
        (Value::Float(x), Value::Float(y)) => x.total_cmp(&y),
        (Value::Int(x), Value::Float(y)) => compare_int_float(x, y),
        (Value::Float(x), Value::Int(y)) => compare_int_float(y, x).reverse(),
    }
}

fn compare_int_float(int: i128, float: f64) -> Ordering {
    // Beyond ±2^127 every i128 is on one side; within, truncation is exact.
    const LIMIT: f64 = 1.7014118346046923e38;
    if float >= LIMIT {
        return Ordering::Less;
    }
    if float < -LIMIT {
        return Ordering::Greater;
    }
    let whole = float.trunc();
    int.cmp(&(whole as i128))
        .then_with(|| whole.total_cmp(&float))
}

/// The real type of a complex type's components, or the type itself.
fn component(dtype: DType) -> DType {
    match dtype {
        DType::Complex64 => DType::Float32,
        DType::Complex128 => DType::Float64,
        other => other,
    }
}

/// Whether some value of `input` inside `result`'s range is not exactly
/// representable in `result` (the rules in the module docs).
fn loses_precision(input: DType, result: DType) -> bool {
    let (input, result) = (component(input), component(result));
    match (input.finfo(), result.finfo()) {
        (Ok(x), Ok(c)) => x.nmant > c.nmant || x.smallest_subnormal < c.smallest_subnormal,
        (Ok(_), Err(_)) => true,
        (Err(_), Ok(c)) => {
            let (Value::Int(low), Value::Int(high)) = range(input) else {
                return false;
            };
            // `as` saturates: a float range wider than i128 clamps.
            let low = low.max(c.min.ceil() as i128);
            let high = high.min(c.max.floor() as i128);
            let largest = low.unsigned_abs().max(high.unsigned_abs());
            low <= high && largest > 1_u128 << (c.nmant + 1)
        }
        (Err(_), Err(_)) => false,
    }
}

/// The audit of one graph or policy: for every unordered pair of distinct
/// input types, whether it has a join and which criteria the join violates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Audit {
    /// The graph's or policy's name.
    pub name: String,
    /// How many pairs of input types there are.
    pub pairs: usize,
    /// Pairs with no join (no upper bound, or no least one), as labels.
    pub undefined: Vec<[String; 2]>,
    /// Pairs whose join is a node that stands for no dtype: `[a, b, join]`.
    pub opaque: Vec<[String; 3]>,
    /// For each criterion (in [`Criterion::ALL`] order), the pairs that
    /// violate it: `[a, b, join]`.
    pub findings: [Vec<[String; 3]>; 4],
}

impl Audit {
    /// Audits a subject: a graph's joins (its inputs are its non-weak nodes
    /// that stand for a dtype, a pair without a least upper bound is
    /// undefined), or a policy's `promote_types` over every dtype (a failed
    /// promotion is undefined). Fails only if a graph is not a DAG.
    ///
    /// ```
    /// use dtype_lattice::design::audit::{Audit, Criterion};
    /// use dtype_lattice::design::Subject;
    /// use dtype_lattice::frameworks::numpy::Numpy;
    ///
    /// let audit = Audit::new(&Subject::Rules(Box::new(Numpy))).unwrap();
    /// assert_eq!(audit.pairs, 33 * 32 / 2); // complex32 among them, refused
    /// // NumPy's uint64 + int64 = float64 (the notebook's "How to handle uint64?").
    /// let loss = audit.findings(Criterion::PrecisionLoss);
    /// assert!(loss.contains(&["uint64".into(), "int64".into(), "float64".into()]));
    /// ```
    pub fn new(subject: &Subject) -> Result<Audit, GraphError> {
        match subject {
            Subject::Graph { definition, .. } => Audit::of_definition(definition),
            Subject::Rules(policy) => Ok(Audit::of_policy(policy.as_ref(), &DType::ALL)),
        }
    }

    /// Audits a graph: its inputs are its non-weak nodes that stand for a
    /// dtype, in node order; joins are least upper bounds, so a graph that
    /// is not a lattice is audited where it has them. Fails only if the
    /// graph is not a DAG.
    fn of_definition(definition: &Definition) -> Result<Audit, GraphError> {
        let poset = definition.poset()?;
        let inputs: Vec<(usize, DType)> = definition.strong_dtypes().collect();
        let label = |node: usize| definition.nodes[node].label.clone();
        Ok(Audit::compute(
            &definition.name,
            &inputs,
            label,
            |a, b| match poset.least_upper_bound(a, b) {
                Bound::Least(c) => Some((label(c), definition.nodes[c].dtype)),
                Bound::None | Bound::Ambiguous(_) => None,
            },
        ))
    }

    /// Audits a policy's `promote_types` over `dtypes` (a failed promotion
    /// is an undefined pair).
    fn of_policy(policy: &dyn Policy, dtypes: &[DType]) -> Audit {
        let inputs: Vec<(DType, DType)> = dtypes.iter().map(|&d| (d, d)).collect();
        Audit::compute(
            &policy.name(),
            &inputs,
            |dtype: DType| dtype.name().to_owned(),
            |a, b| {
                let c = policy
                    .promote_types(TypeSpec::DType(a), TypeSpec::DType(b))
                    .ok()?;
                Some((c.name().to_owned(), Some(c)))
            },
        )
    }

    /// The pairs violating one criterion.
    pub fn findings(&self, criterion: Criterion) -> &[[String; 3]] {
        &self.findings[criterion as usize]
    }

    /// The shared loop: `inputs` are (key, dtype) in order; `join` answers
    /// for two keys with the join's label and dtype.
    fn compute<K: Copy>(
        name: &str,
        inputs: &[(K, DType)],
        label: impl Fn(K) -> String,
        join: impl Fn(K, K) -> Option<(String, Option<DType>)>,
    ) -> Audit {
        let mut audit = Audit {
            name: name.to_owned(),
            pairs: inputs.len() * inputs.len().saturating_sub(1) / 2,
            undefined: Vec::new(),
            opaque: Vec::new(),
            findings: Default::default(),
        };
        for (i, &(a, a_dtype)) in inputs.iter().enumerate() {
            for &(b, b_dtype) in &inputs[i + 1..] {
                let Some((c, c_dtype)) = join(a, b) else {
                    audit.undefined.push([label(a), label(b)]);
                    continue;
                };
                let triple = [label(a), label(b), c];
                let Some(c_dtype) = c_dtype else {
                    audit.opaque.push(triple);
                    continue;
                };
                for criterion in Criterion::ALL {
                    if criterion.violated(a_dtype, b_dtype, c_dtype) {
                        audit.findings[criterion as usize].push(triple.clone());
                    }
                }
            }
        }
        audit
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use DType::*;

    #[test]
    fn exact_comparison_across_integers_and_floats() {
        assert_eq!(
            compare_int_float(i128::from(u64::MAX), 18446744073709551616.0),
            Ordering::Less
        );
        assert_eq!(compare_int_float(-1, -1.5), Ordering::Greater);
        assert_eq!(compare_int_float(1, 1.5), Ordering::Less);
        assert_eq!(compare_int_float(65504, 65504.0), Ordering::Equal);
        assert_eq!(compare_int_float(i128::MAX, f64::MAX), Ordering::Less);
        assert_eq!(compare_int_float(i128::MIN, -f64::MAX), Ordering::Greater);
    }

    #[test]
    fn integers_fit_floats_up_to_two_to_the_precision() {
        // float16 has 11 significant bits: every int8 and uint8 is exact,
        // int16 is not (2049 rounds).
        assert!(!loses_precision(Int8, Float16));
        assert!(!loses_precision(UInt8, Float16));
        assert!(loses_precision(Int16, Float16));
        assert!(!loses_precision(Int16, Float32));
        assert!(!loses_precision(Int32, Float64));
        assert!(loses_precision(Int32, Float32));
        // float4_e2m1fn holds 0..4 and 6: 5 is missing.
        assert!(!loses_precision(UInt2, Float4E2M1Fn));
        assert!(loses_precision(Int4, Float4E2M1Fn));
        assert!(!loses_precision(Bool, Float8E8M0Fnu));
    }

    #[test]
    fn floats_fit_floats_with_longer_significands_and_finer_steps() {
        assert!(!loses_precision(Float16, Float32));
        assert!(!loses_precision(BFloat16, Float32));
        assert!(loses_precision(Float16, BFloat16));
        assert!(loses_precision(Float32, Float16));
        assert!(!loses_precision(Float8E4M3Fn, Float16));
        assert!(loses_precision(Float8E8M0Fnu, Float16)); // 2^-30 underflows
        assert!(!loses_precision(Float8E8M0Fnu, Float32));
        assert!(!loses_precision(Complex64, Float32));
        assert!(loses_precision(Float32, Int64));
    }

    #[test]
    fn ranges_and_components() {
        assert!(Criterion::Overflow.violated(Int8, UInt8, UInt8));
        assert!(!Criterion::Overflow.violated(Int8, UInt8, Int16));
        assert!(Criterion::Overflow.violated(Int8, Int8, Float8E8M0Fnu)); // no negatives
        assert!(!Criterion::Overflow.violated(UInt64, Int64, Float64));
        assert!(Criterion::DroppedComponent.violated(Float16, Int32, Int32));
        assert!(!Criterion::DroppedComponent.violated(Int32, Float16, Float16));
        assert!(Criterion::WiderThanInputs.violated(BFloat16, Float16, Float32));
        assert!(!Criterion::WiderThanInputs.violated(Int64, UInt64, Float64));
    }
}
