//! Finding where a policy's promotion depends on grouping.
//!
//! A lattice's join is associative, so a policy built on one never groups
//! differently; a policy given by a table or by rules may. This checks any
//! [`Policy`] through its `promote_types`, triple by triple, and reports
//! each triple `(a, b, c)` whose `(a ∨ b) ∨ c` differs from `a ∨ (b ∨ c)`:
//!
//! ```
//! use dtype_lattice::design::associativity::non_associative;
//! use dtype_lattice::frameworks::numpy::Numpy;
//! use dtype_lattice::{DType, TypeSpec};
//!
//! let types: Vec<TypeSpec> = DType::ALL.into_iter().map(TypeSpec::DType).collect();
//! let first = non_associative(&Numpy, &types).next().unwrap();
//! assert!(first.to_string().contains(" but "));
//! let example = non_associative(&Numpy, &types)
//!     .find(|t| t.types == [DType::Int8, DType::UInt8, DType::Float16].map(TypeSpec::DType))
//!     .unwrap();
//! assert_eq!(
//!     example.to_string(),
//!     "(int8 + uint8) + float16 = float32 but int8 + (uint8 + float16) = float16"
//! );
//! ```
//!
//! A promotion that fails is an outcome like any other: a triple where one
//! grouping fails and the other does not is reported too (written as the
//! exception type); two failures count as the same outcome.
//!
//! The inner promotion's result is a dtype, so a weak result comes out of it
//! strong: JAX's `promote_types(uint64, int8)` is the weak float `f*`,
//! reported as `float64`, which then promotes like a `float64`. That is how
//! JAX's `promote_types` behaves, but not its lattice: check a policy that
//! has a [lattice](Policy::lattice) through the lattice.

use std::fmt;

use crate::policy::Policy;
use crate::types::DType;
use crate::types::PromotionError;
use crate::types::TypeSpec;

/// Three types whose promotion depends on how they are grouped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NonAssociative {
    /// `a`, `b` and `c`, in order.
    pub types: [TypeSpec; 3],
    /// `(a ∨ b) ∨ c`.
    pub left: Result<DType, PromotionError>,
    /// `a ∨ (b ∨ c)`.
    pub right: Result<DType, PromotionError>,
}

impl fmt::Display for NonAssociative {
    /// `(a + b) + c = X but a + (b + c) = Y`, a failure written as its
    /// exception type.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let outcome = |result: &Result<DType, PromotionError>| match result {
            Ok(dtype) => dtype.to_string(),
            Err(err) => err.python_type().to_owned(),
        };
        let [a, b, c] = self.types;
        write!(
            f,
            "({a} + {b}) + {c} = {} but {a} + ({b} + {c}) = {}",
            outcome(&self.left),
            outcome(&self.right)
        )
    }
}

/// Every triple of `types` (ordered, repetitions included) on which
/// `policy`'s promotion is not associative, in the order of `types`. Lazy:
/// take the first for a counterexample, or count them all (n³ triples, four
/// promotions each).
pub fn non_associative<'a>(
    policy: &'a dyn Policy,
    types: &'a [TypeSpec],
) -> impl Iterator<Item = NonAssociative> + 'a {
    let promote = move |a: TypeSpec, b: Result<DType, PromotionError>| {
        b.and_then(|b| policy.promote_types(a, TypeSpec::DType(b)))
    };
    types.iter().flat_map(move |&a| {
        types.iter().flat_map(move |&b| {
            types.iter().filter_map(move |&c| {
                let left = policy
                    .promote_types(a, b)
                    .and_then(|ab| policy.promote_types(TypeSpec::DType(ab), c));
                let right = promote(a, policy.promote_types(b, c));
                let same = match (&left, &right) {
                    (Ok(l), Ok(r)) => l == r,
                    (Err(_), Err(_)) => true,
                    _ => false,
                };
                (!same).then_some(NonAssociative {
                    types: [a, b, c],
                    left,
                    right,
                })
            })
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frameworks::array_api::ArrayApi;

    #[test]
    fn a_policy_built_on_a_lattice_has_no_counterexample() {
        let types: Vec<TypeSpec> = DType::ALL.into_iter().map(TypeSpec::DType).collect();
        assert_eq!(non_associative(&ArrayApi, &types).count(), 0);
    }
}
