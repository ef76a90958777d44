//! Hostile input to the operand notation (`weak:`, `array:`, `0d:`, `py:`,
//! number literals): arbitrary strings never panic, and every operand the
//! notation can express round-trips through `Display` and `FromStr`.

use dtype_lattice::{DType, Operand, PyScalar, TypeSpec};
use proptest::prelude::*;

fn operands() -> impl Strategy<Value = Operand> {
    let dtype = (0..DType::COUNT).prop_map(|i| DType::ALL[i]);
    let scalar = prop_oneof![
        Just(PyScalar::Bool),
        Just(PyScalar::Int),
        Just(PyScalar::Float),
        Just(PyScalar::Complex)
    ];
    prop_oneof![
        dtype.clone().prop_map(Operand::dtype),
        dtype.clone().prop_map(Operand::zero_dim),
        (dtype, any::<bool>()).prop_map(|(dtype, weak)| Operand::array(dtype, weak)),
        scalar.prop_map(Operand::py_type),
        any::<i128>().prop_map(Operand::py_int),
        any::<f64>()
            .prop_filter("finite", |v| v.is_finite())
            .prop_map(Operand::py_float),
        any::<bool>().prop_map(Operand::py_bool),
        Just(Operand::NONE),
    ]
}

proptest! {
    #[test]
    fn arbitrary_strings_parse_or_fail_cleanly(input in any::<String>()) {
        let _ = input.parse::<TypeSpec>();
        if let Err(err) = input.parse::<Operand>() {
            prop_assert!(!err.to_string().is_empty());
        }
    }

    #[test]
    fn prefixed_garbage_fails_cleanly(
        prefix in prop_oneof![Just("weak:"), Just("array:"), Just("0d:"), Just("py:"), Just("-"), Just("+")],
        rest in any::<String>(),
    ) {
        let input = format!("{prefix}{rest}");
        match input.parse::<Operand>() {
            Ok(operand) => prop_assert_eq!(operand.to_string().parse::<Operand>(), Ok(operand)),
            Err(err) => prop_assert!(err.to_string().contains("bad operand")),
        }
    }

    #[test]
    fn operands_round_trip(operand in operands()) {
        let text = operand.to_string();
        let back: Operand = text.parse().unwrap();
        // A float literal that reads as an integer stays a float.
        prop_assert_eq!(back, operand, "{}", text);
    }
}

#[test]
fn integers_beyond_128_bits_are_refused_not_wrapped() {
    let err = "1".repeat(60).parse::<Operand>().unwrap_err();
    assert!(err.to_string().contains("128 bits"), "{err}");
    assert_eq!(
        "-170141183460469231731687303715884105728".parse(),
        Ok(Operand::py_int(i128::MIN))
    );
}
