//! The adopter run: its generated tables are what `codegen` writes today,
//! they and the hand-written `match` agree with the library on every pair
//! and scalar, and the arrays compute in the type the rules give, with the
//! framework's errors turned into the adopter's.

use dtype_lattice::design::codegen::{Codegen, Dtypes, Options, Target};
use dtype_lattice::design::table::Question;
use dtype_lattice::registry::{by_name, Settings};
use dtype_lattice::Op;
use dtype_lattice_adopter::{
    hand_add, Array, BinOp, DType, ErrorKind, Library, Operand, Rules, Scalar, Tables,
    TABLES_COMMAND, TABLES_SOURCE,
};

#[test]
fn the_generated_tables_are_fresh() {
    let numpy = by_name("numpy", Settings::default()).unwrap();
    let questions = [Op::Add, Op::TrueDivide, Op::Less].map(Question::Op);
    let options = Options {
        command: TABLES_COMMAND.to_owned(),
        prefix: "dl".to_owned(),
    };
    let (_, listed) = TABLES_COMMAND.split_once("--dtypes ").unwrap();
    let dtypes = listed
        .split(',')
        .map(|name| name.parse().unwrap())
        .collect();
    let fresh = Codegen::of_policy(numpy.as_ref(), &questions, &Dtypes::Only(dtypes))
        .unwrap()
        .render(Target::Rust, &options);
    assert!(
        fresh == TABLES_SOURCE,
        "examples/adopter/src/numpy_tables.rs is stale: run `cargo run -p dtype-lattice-cli -- \
         {} -o examples/adopter/src/numpy_tables.rs`",
        TABLES_COMMAND.trim_start_matches("dtype-lattice ")
    );
}

fn operands() -> Vec<Operand> {
    DType::ALL
        .into_iter()
        .map(Operand::Array)
        .chain([
            Operand::Scalar(Scalar::Bool(true)),
            Operand::Scalar(Scalar::Int(2)),
            Operand::Scalar(Scalar::Float(2.0)),
        ])
        .collect()
}

#[test]
fn tables_and_the_hand_written_match_agree_with_the_library() {
    let numpy = Library::new("numpy").unwrap();
    let mut compared = 0;
    for op in [BinOp::Add, BinOp::Divide, BinOp::Less] {
        for a in DType::ALL {
            for b in operands() {
                assert_eq!(
                    Tables.result(op, a, b),
                    numpy.result(op, a, b),
                    "{op:?} {a:?} {b:?}"
                );
                compared += 1;
            }
        }
    }
    assert_eq!(compared, 3 * 8 * 11);
    for a in DType::ALL {
        for b in DType::ALL {
            let library = numpy.result(BinOp::Add, a, Operand::Array(b)).unwrap();
            assert_eq!(hand_add(a, b), library, "{a:?} + {b:?}");
        }
    }
}

#[test]
fn arrays_compute_in_the_type_the_rules_give() {
    let x = Array::from(vec![100i8, -2, 3]);
    let y = Array::from(vec![200u8, 1, 255]);
    let numpy = Library::new("numpy").unwrap();
    let jax = Library::new("jax").unwrap();
    // int8 + uint8: int16 in both, so 100 + 200 does not wrap.
    let want = Array::from(vec![300i16, -1, 258]);
    assert_eq!((x.with(&numpy) + &y).unwrap(), want);
    assert_eq!((x.with(&Tables) + &y).unwrap(), want);
    assert_eq!((x.with(&jax) + &y).unwrap(), want);
    // A Python int keeps the array's int8, which wraps.
    assert_eq!(
        (x.with(&Tables) + Scalar::Int(100)).unwrap(),
        Array::from(vec![-56i8, 98, 103])
    );
    // A Python float makes NumPy's int8 a float64, JAX's a float32.
    assert_eq!(
        (x.with(&numpy) / Scalar::Float(2.0)).unwrap(),
        Array::from(vec![50f64, -1.0, 1.5])
    );
    assert_eq!(
        (x.with(&jax) / Scalar::Float(2.0)).unwrap(),
        Array::from(vec![50f32, -1.0, 1.5])
    );
    // Compared in int16: -2 < 1, and 100 < 200 (not 100 < -56).
    assert_eq!(
        x.with(&Tables).less(&y).unwrap(),
        Array::from(vec![true, true, true])
    );
    let f = Array::from(vec![0.5f32, 2.0, 3.0]);
    assert_eq!(
        f.with(&Tables).less(Scalar::Int(2)).unwrap(),
        Array::from(vec![true, false, false])
    );
}

#[test]
fn errors_become_the_adopters() {
    let strict = Settings {
        strict: true,
        ..Settings::default()
    };
    let strict = Library::with_settings("jax", strict).unwrap();
    let x = Array::from(vec![1i8]);
    let err = (x.with(&strict) + &Array::from(vec![1u8])).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Promotion);
    let jax = by_name(
        "jax",
        Settings {
            strict: true,
            ..Settings::default()
        },
    )
    .unwrap();
    let library = jax
        .operation(
            Op::Add,
            &[
                dtype_lattice::Operand::array(dtype_lattice::DType::Int8, false),
                dtype_lattice::Operand::array(dtype_lattice::DType::UInt8, false),
            ],
        )
        .unwrap()
        .unwrap_err();
    assert_eq!(err.message, library.to_string());
    // NumPy's int8 + 300 needs the value, which only the library reads.
    let numpy = Library::new("numpy").unwrap();
    let err = (x.with(&numpy) + Scalar::Int(300)).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Value); // OverflowError
    assert!(err.message.contains("300"), "{}", err.message);
    // Operands of two lengths; PyTorch divides uint8 by an int in float32.
    let err = (x.with(&numpy) + &Array::from(vec![1u8, 2])).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Shape);
    let err = (Array::from(vec![1u8]).with(&Library::new("torch").unwrap()) / Scalar::Int(2))
        .map(|a| a.dtype());
    assert_eq!(err, Ok(DType::Float32));
}
