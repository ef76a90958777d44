//! What `check` finds in MLX's and Paddle's rules, which no lattice
//! defines: the answers themselves are checked against the real libraries
//! by the golden data (`mlx_*.jsonl`, `paddle_*.jsonl`); these pin down the
//! laws they break, as docs/policies.md states them.

use dtype_lattice::design::check::RulesCheck;
use dtype_lattice::frameworks::mlx::Mlx;
use dtype_lattice::frameworks::paddle::Paddle;
use dtype_lattice::{DType, Kind, Policy, TypeSpec};

fn dtype(spec: TypeSpec) -> DType {
    match spec {
        TypeSpec::DType(dtype) => dtype,
        TypeSpec::Python(scalar) => panic!("{scalar} is left out"),
    }
}

#[test]
fn mlx_is_commutative_and_breaks_associativity_only_at_uint64_with_a_signed_integer() {
    let check = RulesCheck::new(&Mlx);
    assert_eq!((check.types.len(), check.left_out.len()), (14, 22));
    assert!(check.no_upper_bound.is_empty());
    assert!(check.not_commutative.is_empty());
    assert_eq!(check.non_associative.len(), 32);
    for triple in &check.non_associative {
        let mut kinds: Vec<DType> = triple.types.map(dtype).to_vec();
        kinds.sort();
        // A uint64, a signed integer (which join at float32) and a 16-bit
        // float: one grouping gives float32, the other the 16-bit float.
        assert_eq!(kinds[0], DType::UInt64, "{triple}");
        assert_eq!(kinds[1].kind(), Kind::Signed, "{triple}");
        assert!(
            [DType::BFloat16, DType::Float16].contains(&kinds[2]),
            "{triple}"
        );
        let results = [&triple.left, &triple.right].map(|r| *r.as_ref().unwrap());
        assert!(results.contains(&DType::Float32) && results.contains(&kinds[2]));
    }
    // float64 with complex64 is complex64, which drops float64's precision
    // but breaks no law: complex64 is the table's top.
    let promote = |a: DType, b: DType| Mlx.promote_types(a.into(), b.into()).unwrap();
    assert_eq!(promote(DType::Float64, DType::Complex64), DType::Complex64);
    for &t in &check.types {
        assert_eq!(promote(dtype(t), DType::Complex64), DType::Complex64);
    }
}

#[test]
fn paddle_is_commutative_and_where_both_groupings_promote_they_agree() {
    let check = RulesCheck::new(&Paddle);
    assert_eq!((check.types.len(), check.left_out.len()), (20, 16));
    assert_eq!(check.no_upper_bound.len(), 140);
    assert!(check.not_commutative.is_empty());
    assert_eq!(check.non_associative.len(), 660);
    // Its table is a lattice (PyTorch's, over the same twelve dtypes): the
    // law breaks only where a rule refuses one grouping.
    for triple in &check.non_associative {
        assert_ne!(triple.left.is_ok(), triple.right.is_ok(), "{triple}");
    }
}
