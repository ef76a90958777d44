//! Hostile input to the dtype-name parser: arbitrary strings never panic,
//! every error quotes its input, and every accepted spelling round-trips.

use dtype_lattice::DType;
use proptest::prelude::*;

proptest! {
    #[test]
    fn arbitrary_strings_parse_or_fail_cleanly(input in any::<String>()) {
        match DType::from_name(&input) {
            Ok(dtype) => prop_assert_eq!(DType::from_name(dtype.name()), Ok(dtype)),
            Err(err) => {
                prop_assert_eq!(err.input(), input.as_str());
                let message = err.to_string();
                prop_assert!(message.contains(&input.escape_debug().to_string()), "{}", message);
            }
        }
    }

    #[test]
    fn near_misses_of_names_suggest_a_real_name(
        index in 0..DType::COUNT,
        position in 0usize..20,
        letter in proptest::char::range('a', 'z'),
    ) {
        let name = DType::ALL[index].name();
        let mut chars: Vec<char> = name.chars().collect();
        let at = position % chars.len();
        chars[at] = letter;
        let typo: String = chars.into_iter().collect();
        if let Err(err) = DType::from_name(&typo) {
            if let Some(suggestion) = err.suggestion() {
                prop_assert!(DType::from_name(suggestion).is_ok());
            }
        }
    }

    #[test]
    fn long_and_control_inputs_fail_fast(input in "[\\x00-\\x1f\\u{80}-\\u{10ffff}]{0,5000}") {
        prop_assert!(DType::from_name(&input).is_err() || input.is_empty());
    }
}

#[test]
fn every_spelling_round_trips() {
    for (name, dtype) in DType::names() {
        assert_eq!(DType::from_name(name), Ok(dtype), "{name}");
        assert_eq!(DType::from_name(dtype.name()), Ok(dtype));
        assert_eq!(
            dtype.name().parse::<DType>().map(|d| d.to_string()),
            Ok(dtype.name().to_owned())
        );
    }
}

#[test]
fn huge_input_is_refused_with_its_text() {
    let input = "float".repeat(200_000);
    let err = DType::from_name(&input).unwrap_err();
    assert_eq!(err.input(), input);
    assert_eq!(err.suggestion(), None);
}
