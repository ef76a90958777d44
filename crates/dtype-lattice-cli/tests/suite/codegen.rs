//! `codegen`: the command writes the library's file (its header naming the
//! command that writes it again), to standard output or `-o FILE`; a
//! lattice file's module, run in Python, joins every pair as the engine
//! does; what has no table is refused with exit 2; the generated C and
//! Python readers refuse what is out of range. (The generated code of
//! every policy is compiled and run in the library's tests/codegen.rs.)

use std::path::Path;
use std::process::Command;

use crate::support::{code, run, stderr, succeeds};
use dtype_lattice::design::codegen::{all_ops, Codegen, Dtypes, Options, Target};
use dtype_lattice::design::lattice_file;
use dtype_lattice::design::table::Question;
use dtype_lattice::engine::Bound;
use dtype_lattice::registry::{by_name, Settings};
use dtype_lattice::{ArrayCall, ArrayOp, Op};

fn lattice(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/lattices")
        .join(name)
        .display()
        .to_string()
}

#[test]
fn the_command_writes_the_librarys_file_with_the_command_in_its_header() {
    let printed = succeeds(&[
        "codegen", "--lang", "c", "--policy", "jax", "--x64", "--op", "add", "--op", "less",
        "--prefix", "jx",
    ]);
    let jax = by_name(
        "jax",
        Settings {
            x64: true,
            ..Settings::default()
        },
    )
    .unwrap();
    let questions = [Op::Add, Op::Less].map(Question::Op);
    let command =
        "dtype-lattice codegen --lang c --policy jax --x64 --op add --op less --prefix jx";
    let options = Options {
        command: command.to_owned(),
        prefix: "jx".to_owned(),
    };
    let want = Codegen::of_policy(jax.as_ref(), &questions, &Dtypes::Framework)
        .unwrap()
        .render(Target::C, &options);
    assert_eq!(printed, want);
    assert!(printed.contains(command));
    assert!(printed.contains("jax (x64 on, standard)"));
}

#[test]
fn all_ops_and_an_output_file() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("codegen-cli");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("torch.rs");
    let file_arg = file.display().to_string();
    let args = [
        "codegen",
        "--lang",
        "rust",
        "--policy",
        "torch",
        "--all-ops",
    ];
    let printed = succeeds(&args);
    let written = succeeds(&[&args[..], &["-o", &file_arg]].concat());
    assert_eq!(written, "");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), printed);
    let torch = by_name("torch", Settings::default()).unwrap();
    let questions = all_ops(torch.as_ref());
    // Of two operands, of one, and reductions.
    assert!(questions.contains(&Question::Op(Op::Sqrt)));
    assert!(questions.contains(&Question::Array(ArrayCall::new(ArrayOp::Mean))));
    for question in questions {
        let op = question.op().unwrap().to_string();
        assert!(printed.contains(&format!("    // {op}\n")), "{op} missing");
    }
}

/// The module of a lattice file, run: every pair's join by index, or `-`
/// (with an exception and a message).
const JOINS: &str = r#"
import importlib.util, sys
spec = importlib.util.spec_from_file_location("joins", sys.argv[1])
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
for a in m.DType:
    for b in m.DType:
        try:
            print(a.value, b.value, m.promote(a, b).dtype.value)
        except m.PromotionError as err:
            assert err.exception and str(err), (a, b)
            print(a.value, b.value, "-")
"#;

#[test]
fn a_lattice_files_module_joins_as_the_engine() {
    for name in ["float-complex.toml", "not-a-lattice-left.toml"] {
        let path = lattice(name);
        let printed = succeeds(&["codegen", "--lang", "python", "--lattice", &path]);
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("codegen-cli");
        std::fs::create_dir_all(&dir).unwrap();
        let module = dir.join(name.replace(['-', '.'], "_") + ".py");
        std::fs::write(&module, printed).unwrap();
        let output = Command::new("python3")
            .args(["-I", "-c", JOINS])
            .arg(&module)
            .output()
            .expect("python3 runs");
        assert!(output.status.success(), "{}", stderr(&output));
        let definition = lattice_file::read(Path::new(&path)).unwrap();
        let poset = definition.poset().unwrap();
        let mut want = String::new();
        for a in 0..poset.len() {
            for b in 0..poset.len() {
                let cell = match poset.least_upper_bound(a, b) {
                    Bound::Least(join) => join.to_string(),
                    _ => "-".to_owned(),
                };
                want += &format!("{a} {b} {cell}\n");
            }
        }
        assert_eq!(String::from_utf8_lossy(&output.stdout), want, "{name}");
    }
}

#[test]
fn what_has_no_table_is_refused() {
    let file = lattice("jax.toml");
    for (args, says) in [
        (
            vec!["--op", "sqrt", "--form", "function"],
            "in each policy's default form, without --form",
        ),
        (
            vec!["--policy", "jax-lax", "--op", "mean"],
            "jax-lax (x64 off) does not model mean",
        ),
        (vec!["--prefix", "9x"], "cannot begin a C name"),
        (
            vec!["--lattice", &file, "--op", "add"],
            "only its promotion table",
        ),
        (
            vec!["--lattice", &file, "--x64"],
            "a lattice file's edges are its own",
        ),
        (vec!["--dtypes", "int8,int8"], "names int8 twice"),
        (vec!["--dtypes", "int9"], "unknown dtype 'int9'"),
        (
            vec!["--dtypes", "int8", "--all-dtypes"],
            "cannot be used with",
        ),
    ] {
        let output = run(&[&["codegen", "--lang", "c"], &args[..]].concat());
        assert_eq!(code(&output), 2, "{args:?}");
        assert!(
            stderr(&output).contains(says),
            "{args:?}: {}",
            stderr(&output)
        );
    }
}

#[test]
fn dtypes_lists_an_adopters_dtypes_in_its_order() {
    let printed = succeeds(&[
        "codegen",
        "--lang",
        "python",
        "--policy",
        "numpy",
        "--op",
        "add",
        "--dtypes",
        "float64,int8,uint8",
    ]);
    let numpy = by_name("numpy", Settings::default()).unwrap();
    let questions = [Question::Op(Op::Add)];
    let dtypes = ["float64", "int8", "uint8"]
        .map(|d| d.parse().unwrap())
        .to_vec();
    let want = Codegen::of_policy(numpy.as_ref(), &questions, &Dtypes::Only(dtypes))
        .unwrap()
        .render(
            Target::Python,
            &Options {
                command: "dtype-lattice codegen --lang python --policy numpy --op add \
                          --dtypes float64,int8,uint8"
                    .to_owned(),
                prefix: "dl".to_owned(),
            },
        );
    assert_eq!(printed, want);
    // uint8 + int8 is int16 in NumPy, which the list leaves out: its cell
    // says so, and how to have it.
    assert!(
        printed.contains("the result int16 is not one of the generated dtypes; add it to --dtypes"),
        "{printed}"
    );
}

#[test]
fn one_operand_operations_and_reductions_are_the_librarys() {
    let printed = succeeds(&[
        "codegen", "--lang", "python", "--policy", "torch", "--op", "sqrt", "--op", "sum",
    ]);
    let torch = by_name("torch", Settings::default()).unwrap();
    let questions = [
        Question::Op(Op::Sqrt),
        Question::Array(ArrayCall::new(ArrayOp::Sum)),
    ];
    let options = Options {
        command: "dtype-lattice codegen --lang python --policy torch --op sqrt --op sum".to_owned(),
        prefix: "dl".to_owned(),
    };
    let want = Codegen::of_policy(torch.as_ref(), &questions, &Dtypes::Framework)
        .unwrap()
        .render(Target::Python, &options);
    assert_eq!(printed, want);
    assert!(
        printed.contains("class UnaryOp(enum.IntEnum):"),
        "{printed}"
    );
    assert!(printed.contains("    sqrt = 0\n"), "{printed}");
    assert!(
        printed.contains("def reduce(op, a, dtype=None):"),
        "{printed}"
    );
    assert!(
        printed.contains("def computes_in(op, a, dtype=None):"),
        "{printed}"
    );
    // The jax-lax refusal above is the library's own sentence.
    let lax = by_name("jax-lax", Settings::default()).unwrap();
    let mean = Question::Array(ArrayCall::new(ArrayOp::Mean));
    let why = mean.unanswered(lax.as_ref()).unwrap().to_string();
    let output = run(&[
        "codegen", "--lang", "rust", "--policy", "jax-lax", "--op", "mean",
    ]);
    assert_eq!(code(&output), 2);
    assert!(stderr(&output).contains(&why), "{}", stderr(&output));
}

/// `--all-ops` leaves out no operation of one operand nor reduction a
/// policy answers for an int8 array, and takes none it does not.
#[test]
fn all_ops_has_every_one_operand_operation_each_policy_answers() {
    use dtype_lattice::{DType, Operand};
    let int8 = [Operand::array(DType::Int8, false)];
    for named in dtype_lattice::registry::listing() {
        let policy = named.build(Settings::default()).unwrap();
        let ops = all_ops(policy.as_ref());
        for op in Op::ALL.into_iter().filter(|op| op.arity() == 1) {
            let answered = policy.operation(op, &int8).is_some();
            assert_eq!(ops.contains(&Question::Op(op)), answered, "{op}");
        }
        let reductions = ArrayOp::ALL
            .into_iter()
            .filter(|op| op.family() == dtype_lattice::Family::Reduction);
        for op in reductions {
            let call = ArrayCall::new(op);
            let answered = policy.array_op(&call, &int8).is_some();
            assert_eq!(ops.contains(&Question::Array(call)), answered, "{op}");
        }
    }
}

/// An operation asked twice is one table (two would be two enum members
/// of one name, which no language takes).
#[test]
fn an_operation_asked_twice_is_one_table() {
    let printed = succeeds(&[
        "codegen", "--lang", "rust", "--policy", "numpy", "--op", "add", "--op", "add", "--op",
        "sqrt", "--op", "sqrt", "--op", "sum", "--op", "sum",
    ]);
    for member in ["    Add,\n", "    Sqrt,\n", "    Sum,\n"] {
        assert_eq!(printed.matches(member).count(), 1, "{member}");
    }
}

/// The readers of a C header and a Python module given what is out of
/// range: the C ones return -1, the Python ones raise ValueError; none
/// reads past a table.
#[test]
fn readers_refuse_what_is_out_of_range() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("codegen-range");
    std::fs::create_dir_all(&dir).unwrap();
    for (lang, file) in [("c", "oor.h"), ("python", "oor.py")] {
        let path = dir.join(file).display().to_string();
        let mut args: Vec<&str> = "codegen --policy numpy --op add --op sqrt --op sum \
                                   --dtypes int8,float32 --prefix oor"
            .split_whitespace()
            .collect();
        args.extend(["--lang", lang, "-o", &path]);
        succeeds(&args);
    }
    // Two dtypes and four scalars: operands 0..6, dtypes 0..2, one of each
    // kind of operation.
    std::fs::write(
        dir.join("main.c"),
        r#"#include <stdio.h>
#include "oor.h"
int main(void) {
    oor_typed t;
    int bad = 0, i;
    int operands[] = {-1, 6, 1000000};
    for (i = 0; i < 3; i++) {
        int x = operands[i];
        bad += oor_promote(x, 0, &t) != -1 || oor_promote(0, x, &t) != -1;
        bad += oor_operation(0, x, 0, &t) != -1 || oor_operation(0, 0, x, &t) != -1;
        bad += oor_unary(0, x, &t) != -1;
    }
    bad += oor_operation(-1, 0, 0, &t) != -1 || oor_operation(1, 0, 0, &t) != -1;
    bad += oor_unary(-1, 0, &t) != -1 || oor_unary(1, 0, &t) != -1;
    bad += oor_reduce(-1, 0, -1, &t) != -1 || oor_reduce(1, 0, -1, &t) != -1;
    bad += oor_reduce(0, -1, -1, &t) != -1 || oor_reduce(0, 2, -1, &t) != -1;
    bad += oor_reduce(0, 0, -2, &t) != -1 || oor_reduce(0, 0, 2, &t) != -1;
    bad += oor_computes_in(-1, 0, -1) != -1 || oor_computes_in(1, 0, -1) != -1;
    bad += oor_computes_in(0, 2, -1) != -1 || oor_computes_in(0, 0, 2) != -1;
    bad += oor_computes_in(0, 0, -2) != -1;
    /* In range, each reader answers. */
    bad += oor_unary(0, 0, &t) < 0 || oor_reduce(0, 1, -1, &t) < 0 || oor_reduce(0, 1, 1, &t) < 0;
    printf("%d\n", bad);
    return 0;
}
"#,
    )
    .unwrap();
    let compiled = dtype_lattice_testkit::c_compiler::compile(&dir, "main.c", "main");
    assert!(compiled.status.success(), "{}", stderr(&compiled));
    assert_eq!(stdout_of(&mut Command::new(dir.join("main"))), "0\n");
    let python = r#"
import sys
sys.path.insert(0, ".")
import oor
refused = 0
calls = [
    lambda: oor.promote(6, 0), lambda: oor.promote(0, -1),
    lambda: oor.operation(oor.Op.add, 0, 6), lambda: oor.operation(1, 0, 0),
    lambda: oor.unary(oor.UnaryOp.sqrt, 6), lambda: oor.unary(1, 0),
    lambda: oor.reduce(oor.Reduction.sum, oor.Scalar.int),
    lambda: oor.reduce(oor.Reduction.sum, 0, -1), lambda: oor.reduce(1, 0),
    lambda: oor.computes_in(oor.Reduction.sum, 2), lambda: oor.computes_in(0, 0, 2),
]
for call in calls:
    try:
        call()
    except ValueError:
        refused += 1
assert oor.reduce(oor.Reduction.sum, oor.DType.float32, None) is not None
print(refused, len(calls))
"#;
    let mut python3 = Command::new("python3");
    python3.current_dir(&dir).args(["-I", "-c", python]);
    assert_eq!(stdout_of(&mut python3), "11 11\n");
}

/// What a program printed, once it succeeded.
fn stdout_of(command: &mut Command) -> String {
    let output = command.output().expect("the program runs");
    assert!(output.status.success(), "{}", stderr(&output));
    String::from_utf8(output.stdout).unwrap()
}
