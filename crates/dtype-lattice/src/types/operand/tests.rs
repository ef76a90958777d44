//! Unit tests of `operand.rs`.

use super::*;

#[test]
fn every_code_is_a_distinct_form_that_round_trips() {
    let kinds: Vec<OperandKind> = Operand::each_code().map(Operand::kind).collect();
    for (code, &kind) in kinds.iter().enumerate() {
        assert_eq!(usize::from(Operand::from(kind).code()), code, "{kind:?}");
        assert!(!kinds[..code].contains(&kind), "{kind:?} has two codes");
    }
}

#[test]
fn values_round_trip_whole() {
    for value in [0, -1, 2, i128::MIN, i128::MAX, 1 << 64] {
        assert_eq!(Operand::py_int(value).kind(), OperandKind::PyInt(value));
    }
    for value in [0.0, -0.0, 2.5, f64::MIN_POSITIVE, f64::INFINITY] {
        let OperandKind::PyFloat(back) = Operand::py_float(value).kind() else {
            panic!("{value} is not read back as a float");
        };
        assert_eq!(back.to_bits(), value.to_bits());
    }
    for value in [false, true] {
        assert_eq!(Operand::py_bool(value).kind(), OperandKind::PyBool(value));
    }
    let OperandKind::PyComplex { real, imag } = Operand::py_complex(-0.0, 1e300).kind() else {
        panic!("a complex is not read back as a complex");
    };
    assert_eq!(
        (real.to_bits(), imag.to_bits()),
        ((-0.0f64).to_bits(), 1e300f64.to_bits())
    );
}

#[test]
fn complex_literals_read_as_python_reads_them() {
    for (text, real, imag) in [
        ("1j", 0.0, 1.0),
        ("1J", 0.0, 1.0),
        ("-1.5j", 0.0, -1.5),
        ("2+3j", 2.0, 3.0),
        ("(2-3j)", 2.0, -3.0),
        ("1e-3+2e-4j", 1e-3, 2e-4),
        ("-2.5e+2-1e2j", -250.0, -100.0),
        (".5j", 0.0, 0.5),
    ] {
        assert_eq!(text.parse(), Ok(Operand::py_complex(real, imag)), "{text}");
    }
    for text in [
        "j", "2+j", "1e400j", "infj", "nanj", "(2+3j", "(2)", "2+3jj", "1+2+3j", "1jx",
    ] {
        assert!(text.parse::<Operand>().is_err(), "{text} was read");
    }
}

#[test]
fn complex_values_display_as_python_writes_them_and_read_back() {
    for (real, imag, shown) in [
        (0.0, 1.0, "1j"),
        (2.0, 3.0, "(2+3j)"),
        (2.0, -3.5, "(2-3.5j)"),
        (-0.0, 1.0, "(-0+1j)"),
        (0.0, 1e300, "1e300j"),
    ] {
        let operand = Operand::py_complex(real, imag);
        assert_eq!(operand.to_string(), shown);
        assert_eq!(shown.parse(), Ok(operand));
    }
}

#[test]
fn a_zero_dim_value_round_trips_through_the_notation() {
    for text in [
        "0d:int64=300",
        "0d:uint64=18446744073709551615",
        "0d:float64=1e300",
        "0d:complex128=(2+3j)",
        "0d:bool=True",
    ] {
        let operand: Operand = text.parse().unwrap();
        assert!(matches!(operand.kind(), OperandKind::ZeroDim(_)), "{text}");
        assert_eq!(
            operand.to_string().parse::<Operand>(),
            Ok(operand),
            "{text}"
        );
    }
    // Held as the dtype's kind: an int in a float array, a float's integer
    // part in an integer one; 0 is what a 0-d array given no value holds.
    let holding = |dtype, value| Operand::zero_dim_holding(dtype, value).held();
    assert_eq!(
        holding(DType::Float32, Operand::py_int(3)),
        Some(OperandKind::PyFloat(3.0))
    );
    assert_eq!(
        holding(DType::Int16, Operand::py_float(2.7)),
        Some(OperandKind::PyInt(2))
    );
    assert_eq!(
        holding(DType::Int16, Operand::py_float(f64::NAN)),
        Some(OperandKind::PyInt(0))
    );
    assert_eq!("0d:int8=0".parse(), Ok(Operand::zero_dim(DType::Int8)));
    assert_eq!(Operand::zero_dim(DType::Int8).to_string(), "0d:int8");
    assert_ne!(
        "0d:int8=1".parse::<Operand>(),
        Ok(Operand::zero_dim(DType::Int8))
    );
    let err = "0d:int8=abc".parse::<Operand>().unwrap_err();
    assert!(
        err.to_string()
            .starts_with("bad operand '0d:int8=abc': not an integer"),
        "{err}"
    );
}
