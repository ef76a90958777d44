//! The generated tables compiled and run: one Rust program (rustc), one C
//! program (cc) and one Python program (python3), each looping over the
//! modules of every built-in policy (every entry and preset, and JAX's
//! settings that change its tables) and of every example lattice file,
//! prints every cell of promotion and of each operation the policy models
//! (of two operands, of one, each reduction with each `dtype=` and the
//! type it computes in), and every error of its table; the cells must be the
//! library's, computed here straight from the design tables (a lattice
//! file's from the engine's joins), the errors' exceptions and messages
//! exact.
//!
//! A cell's message is printed as a 64-bit FNV-1a hash (the programs
//! would otherwise print JAX's paragraph a hundred thousand times); the
//! error table is printed whole, so every message is compared as text
//! once and each cell is matched to its message by the hash.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use dtype_lattice::design::codegen::{all_ops, Codegen, Dtypes, Options, Target};
use dtype_lattice::design::explain::Report;
use dtype_lattice::design::lattice_file;
use dtype_lattice::design::table::{value, Column, Question, Table};
use dtype_lattice::design::Definition;
use dtype_lattice::engine::Bound;
use dtype_lattice::registry::{self, Settings};
use dtype_lattice::{DType, Policy, PromotionError, PyScalar, TypeSpec, Typed};

/// One generated module: its name, the policy and whether it has every
/// dtype, or a lattice file's graph.
struct Module {
    name: String,
    policy: Box<dyn Policy>,
    dtypes: Dtypes,
    lattice: Option<Definition>,
}

fn modules() -> Vec<Module> {
    let mut modules: Vec<Module> = registry::listing()
        .map(|named| Module {
            name: named.name().replace('-', "_"),
            policy: named.build(Settings::default()).unwrap(),
            dtypes: Dtypes::All,
            lattice: None,
        })
        .collect();
    let jax = |settings: Settings, name: &str| Module {
        name: name.to_owned(),
        policy: registry::by_name("jax", settings).unwrap(),
        dtypes: Dtypes::All,
        lattice: None,
    };
    modules.push(jax(
        Settings {
            x64: true,
            ..Settings::default()
        },
        "jax_x64",
    ));
    modules.push(jax(
        Settings {
            strict: true,
            ..Settings::default()
        },
        "jax_strict",
    ));
    // The framework's own dtypes only (MLX has no 8-bit floats).
    modules.push(Module {
        name: "mlx_native".to_owned(),
        policy: registry::by_name("mlx", Settings::default()).unwrap(),
        dtypes: Dtypes::Framework,
        lattice: None,
    });
    // An array library's own dtypes, in its order (results outside them
    // are error cells).
    modules.push(Module {
        name: "numpy_adopter".to_owned(),
        policy: registry::by_name("numpy", Settings::default()).unwrap(),
        dtypes: Dtypes::Only(
            ["float64", "bool", "int8", "uint8", "int16", "float32"]
                .map(|name| name.parse().unwrap())
                .to_vec(),
        ),
        lattice: None,
    });
    // Every example lattice file, lattices or not (their nodes the types).
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/lattices");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    assert!(files.len() > 10, "the example lattice files");
    for path in files {
        let stem = path.file_stem().unwrap().to_str().unwrap();
        modules.push(Module {
            name: format!("lattice_{}", stem.replace('-', "_")),
            policy: registry::by_name("jax", Settings::default()).unwrap(),
            dtypes: Dtypes::Framework,
            lattice: Some(lattice_file::read(&path).unwrap()),
        });
    }
    modules
}

/// The lines every program must print for a lattice file's module: each
/// pair's join (by label, weak where the node is), or the error `explain`
/// gives it.
fn expected_joins(name: &str, definition: &Definition, lines: &mut Vec<String>) {
    let poset = definition.poset().unwrap();
    let mut errors = BTreeSet::new();
    for a in 0..poset.len() {
        for b in 0..poset.len() {
            let shown = match poset.least_upper_bound(a, b) {
                Bound::Least(j) => {
                    let weak = if definition.nodes[j].weak {
                        " weak"
                    } else {
                        ""
                    };
                    format!("{}{weak}", poset.label(j))
                }
                _ => {
                    let labels = [poset.label(a), poset.label(b)];
                    let report = Report::new(definition, &poset, None, labels).unwrap();
                    let (exception, message) = match &report.error {
                        Some(err) => (err.python_type().to_owned(), err.to_string()),
                        None => ("LatticeError".to_owned(), report.outcome()),
                    };
                    let shown = format!("!{exception} #{:016x}", fnv(&message));
                    errors.insert((exception, message));
                    shown
                }
            };
            lines.push(format!(
                "{name}|promote|{}|{}|{shown}",
                poset.label(a),
                poset.label(b)
            ));
        }
    }
    for (exception, message) in errors {
        lines.push(format!("E|{name}|{exception}|{}", escape(&message)));
    }
}

fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('\n', "\\n")
}

fn label(spec: TypeSpec) -> String {
    match spec {
        TypeSpec::DType(d) => d.name().to_owned(),
        TypeSpec::Python(s) => format!("py:{}", s.name()),
    }
}

/// The lines every program must print for `module`, from the library.
fn expected(module: &Module, lines: &mut Vec<String>) {
    if let Some(definition) = &module.lattice {
        return expected_joins(&module.name, definition, lines);
    }
    let policy = module.policy.as_ref();
    let dtypes: Vec<DType> = match &module.dtypes {
        Dtypes::Only(listed) => listed.clone(),
        Dtypes::All => DType::ALL.to_vec(),
        Dtypes::Framework => DType::ALL
            .into_iter()
            .filter(|&d| {
                policy.promote_types(d.into(), d.into()).is_ok()
                    || policy
                        .result_type(&[dtype_lattice::Operand::dtype(d)])
                        .is_ok()
            })
            .collect(),
    };
    let types: Vec<TypeSpec> = dtypes
        .iter()
        .copied()
        .map(TypeSpec::DType)
        .chain(PyScalar::ALL.into_iter().map(TypeSpec::Python))
        .collect();
    let questions = std::iter::once(Question::ResultType).chain(all_ops(policy));
    let mut errors = BTreeSet::new();
    // A result outside the generated dtypes is the error cell the codegen
    // documents (`Dtypes::Only`).
    let fix = match module.dtypes {
        Dtypes::Only(_) => "add it to --dtypes",
        _ => "generate with --all-dtypes",
    };
    let mut shown = |cell: &Result<Typed, PromotionError>| {
        let error = match cell {
            Ok(t) if dtypes.contains(&t.dtype) => {
                return format!("{}{}", t.dtype.name(), if t.weak { " weak" } else { "" })
            }
            Ok(t) => (
                "NotGenerated".to_owned(),
                format!(
                    "the result {} is not one of the generated dtypes; {fix}",
                    t.dtype
                ),
            ),
            Err(err) => (err.python_type().to_owned(), err.to_string()),
        };
        let shown = format!("!{} #{:016x}", error.0, fnv(&error.1));
        errors.insert(error);
        shown
    };
    for question in questions {
        let name = question
            .op()
            .map_or("promote".to_owned(), |op| op.to_string());
        if let Question::Op(op) = question {
            if op.arity() == 1 {
                // Asked as `table --op` asks a pair: an array of each dtype,
                // a Python scalar of each type.
                for &a in &types {
                    if let Some(cell) = policy.operation(op, &[value(a)]) {
                        let cell = shown(&cell);
                        lines.push(format!("{}|{name}|{}|{cell}", module.name, label(a)));
                    }
                }
                continue;
            }
        }
        let table = Table::of(policy, &types, question).unwrap();
        for (i, (a, row)) in table.types.iter().zip(&table.cells).enumerate() {
            for (j, (column, cell)) in table.columns.iter().zip(row).enumerate() {
                let b = match column {
                    Column::Type(b) => label(*b),
                    Column::Dtype(d) => format!("dtype={}", d.map_or("None", DType::name)),
                };
                let cell = shown(cell);
                lines.push(format!("{}|{name}|{}|{b}|{cell}", module.name, label(*a)));
                // The generated computes_in is a reduction's only.
                let computes = table.computes.get(i).and_then(|r| r[j]);
                let reduction = matches!(column, Column::Dtype(_));
                if let Some(c) = computes.filter(|c| reduction && dtypes.contains(c)) {
                    lines.push(format!("{}|{name}|{}|{b}|in {c}", module.name, label(*a)));
                }
            }
        }
    }
    for (exception, message) in errors {
        lines.push(format!(
            "E|{}|{exception}|{}",
            module.name,
            escape(&message)
        ));
    }
}

/// Writes each module's file for `target` into `dir`.
fn generate(modules: &[Module], target: Target, dir: &Path, extension: &str) {
    for module in modules {
        let questions = all_ops(module.policy.as_ref());
        let tables = match &module.lattice {
            Some(definition) => Codegen::of_definition(definition),
            None => Codegen::of_policy(module.policy.as_ref(), &questions, &module.dtypes),
        }
        .unwrap_or_else(|err| panic!("{}: {err}", module.name));
        let options = Options {
            command: format!("tests/codegen.rs, module {}", module.name),
            prefix: module.name.clone(),
        };
        let path = dir.join(format!("{}.{extension}", module.name));
        std::fs::write(path, tables.render(target, &options)).unwrap();
    }
}

fn run(command: &mut Command) -> String {
    let output = command
        .output()
        .unwrap_or_else(|err| panic!("cannot run {command:?}: {err}"));
    assert!(
        output.status.success(),
        "{command:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// The program's lines beside the library's, with the first differences.
fn compare(language: &str, printed: &str, modules: &[Module]) {
    // The library's lines, computed once for the three languages.
    static WANT: OnceLock<Vec<String>> = OnceLock::new();
    let want = WANT.get_or_init(|| {
        let mut want = Vec::new();
        for module in modules {
            expected(module, &mut want);
        }
        want.sort_unstable();
        want
    });
    let mut got: Vec<&str> = printed.lines().collect();
    got.sort_unstable();
    if got != *want {
        let want_set: BTreeSet<&str> = want.iter().map(String::as_str).collect();
        let got_set: BTreeSet<&str> = got.iter().copied().collect();
        let missing: Vec<&&str> = want_set.difference(&got_set).take(5).collect();
        let extra: Vec<&&str> = got_set.difference(&want_set).take(5).collect();
        panic!(
            "{language}: {} lines printed, {} expected; missing {missing:#?}, unexpected {extra:#?}",
            got.len(),
            want.len()
        );
    }
    // Every table of every module is there (not an empty run agreeing).
    assert!(
        want.len() > 100_000,
        "{language}: only {} cells",
        want.len()
    );
}

fn scratch(language: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("codegen-{language}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const RUST_MAIN: &str = r#"
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

macro_rules! dump {
    ($m:ident, $out:expr) => {{
        use $m::*;
        let out: &mut String = $out;
        let name = stringify!($m);
        let operands: Vec<Operand> = DType::ALL.iter().map(|&d| Operand::Array(d))
            .chain(Scalar::ALL.iter().map(|&s| Operand::Scalar(s))).collect();
        let label = |o: Operand| match o {
            Operand::Array(d) => d.name().to_string(),
            Operand::Scalar(s) => format!("py:{}", s.name()),
        };
        let shown = |cell: Result<Typed, Error>| match cell {
            Ok(t) => format!("{}{}", t.dtype.name(), if t.weak { " weak" } else { "" }),
            Err(e) => format!("!{} #{:016x}", e.exception(), fnv(&e.to_string())),
        };
        for &a in &operands {
            for &b in &operands {
                out.push_str(&format!("{name}|promote|{}|{}|{}\n", label(a), label(b), shown(promote(a, b))));
                for op in Op::ALL {
                    if let Some(cell) = operation(op, a, b) {
                        out.push_str(&format!("{name}|{}|{}|{}|{}\n", op.name(), label(a), label(b), shown(cell)));
                    }
                }
            }
        }
        for &a in &operands {
            for op in UnaryOp::ALL {
                if let Some(cell) = unary(op, a) {
                    out.push_str(&format!("{name}|{}|{}|{}\n", op.name(), label(a), shown(cell)));
                }
            }
        }
        let columns: Vec<Option<DType>> = std::iter::once(None).chain(DType::ALL.iter().map(|&d| Some(d))).collect();
        for a in DType::ALL {
            for &d in &columns {
                let b = format!("dtype={}", d.map_or("None", |d| d.name()));
                for op in Reduction::ALL {
                    if let Some(cell) = reduce(op, a, d) {
                        out.push_str(&format!("{name}|{}|{}|{b}|{}\n", op.name(), a.name(), shown(cell)));
                    }
                    if let Some(c) = computes_in(op, a, d) {
                        out.push_str(&format!("{name}|{}|{}|{b}|in {}\n", op.name(), a.name(), c.name()));
                    }
                }
            }
        }
        for code in 0..ERRORS.len() {
            let (exception, message) = ERRORS[code];
            let message = message.replace('\\', "\\\\").replace('\n', "\\n");
            out.push_str(&format!("E|{name}|{exception}|{message}\n"));
        }
    }};
}
"#;

#[test]
fn generated_rust_answers_every_cell_as_the_library() {
    let modules = modules();
    let dir = scratch("rust");
    generate(&modules, Target::Rust, &dir, "rs");
    let mut main = String::from(RUST_MAIN);
    for module in &modules {
        let _ = writeln!(
            main,
            "#[allow(dead_code)]\nmod {0} {{ include!(\"{0}.rs\"); }}",
            module.name
        );
    }
    main.push_str("fn main() {\n    let mut out = String::new();\n");
    for module in &modules {
        let _ = writeln!(main, "    dump!({}, &mut out);", module.name);
    }
    main.push_str("    print!(\"{out}\");\n}\n");
    std::fs::write(dir.join("main.rs"), main).unwrap();
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    run(Command::new(rustc)
        .current_dir(&dir)
        .args([
            "--edition",
            "2021",
            "-C",
            "opt-level=0",
            "-C",
            "debuginfo=0",
        ])
        .args(["-D", "warnings", "main.rs", "-o", "main"]));
    let printed = run(&mut Command::new(dir.join("main")));
    compare("rust", &printed, &modules);
}

/// One module's loop in C, `pfx`/`PFX` its prefix.
const C_DUMP: &str = r#"
static void dump_pfx(void) {
    int a, b, op, e, d, c;
    for (a = 0; a < PFX_OPERAND_COUNT; a++) {
        for (b = 0; b < PFX_OPERAND_COUNT; b++) {
            pfx_typed t;
            int rc = pfx_promote(a, b, &t);
            cell("pfx", "promote", pfx_operand_names[a], a >= PFX_DTYPE_COUNT,
                 pfx_operand_names[b], b >= PFX_DTYPE_COUNT, rc,
                 rc > 0 ? pfx_errors[rc - 1].exception : "", rc > 0 ? pfx_errors[rc - 1].message : "",
                 rc == 0 ? pfx_operand_names[t.dtype] : "", t.weak);
            for (op = 0; op < PFX_OP_COUNT; op++) {
                rc = pfx_operation(op, a, b, &t);
                if (rc < 0) continue;
                cell("pfx", pfx_op_names[op], pfx_operand_names[a], a >= PFX_DTYPE_COUNT,
                     pfx_operand_names[b], b >= PFX_DTYPE_COUNT, rc,
                     rc > 0 ? pfx_errors[rc - 1].exception : "", rc > 0 ? pfx_errors[rc - 1].message : "",
                     rc == 0 ? pfx_operand_names[t.dtype] : "", t.weak);
            }
        }
    }
    for (a = 0; a < PFX_OPERAND_COUNT; a++) {
        for (op = 0; op < PFX_UNARY_COUNT; op++) {
            pfx_typed t;
            int rc = pfx_unary(op, a, &t);
            if (rc < 0) continue;
            printf("pfx|%s|%s%s|", pfx_unary_names[op], a >= PFX_DTYPE_COUNT ? "py:" : "",
                   pfx_operand_names[a]);
            result(rc, rc > 0 ? pfx_errors[rc - 1].exception : "", rc > 0 ? pfx_errors[rc - 1].message : "",
                   rc == 0 ? pfx_operand_names[t.dtype] : "", t.weak);
        }
    }
    for (a = 0; a < PFX_DTYPE_COUNT; a++) {
        for (d = -1; d < PFX_DTYPE_COUNT; d++) {
            const char *dtype = d < 0 ? "None" : pfx_operand_names[d];
            for (op = 0; op < PFX_REDUCTION_COUNT; op++) {
                pfx_typed t;
                int rc = pfx_reduce(op, a, d, &t);
                if (rc >= 0) {
                    printf("pfx|%s|%s|dtype=%s|", pfx_reduction_names[op], pfx_operand_names[a], dtype);
                    result(rc, rc > 0 ? pfx_errors[rc - 1].exception : "",
                           rc > 0 ? pfx_errors[rc - 1].message : "",
                           rc == 0 ? pfx_operand_names[t.dtype] : "", t.weak);
                }
                c = pfx_computes_in(op, a, d);
                if (c >= 0) {
                    printf("pfx|%s|%s|dtype=%s|in %s\n", pfx_reduction_names[op], pfx_operand_names[a],
                           dtype, pfx_operand_names[c]);
                }
            }
        }
    }
    for (e = 0; e < PFX_ERROR_COUNT; e++) {
        printf("E|pfx|%s|", pfx_errors[e].exception);
        escaped(pfx_errors[e].message);
        printf("\n");
    }
}
"#;

const C_HELPERS: &str = r#"
#include <stdio.h>
#include <stdint.h>

static unsigned long long fnv(const char *s) {
    unsigned long long h = 0xcbf29ce484222325ULL;
    for (; *s; s++) { h ^= (unsigned char)*s; h *= 0x100000001b3ULL; }
    return h;
}

static void escaped(const char *s) {
    for (; *s; s++) {
        if (*s == '\\') printf("\\\\");
        else if (*s == '\n') printf("\\n");
        else putchar(*s);
    }
}

static void result(int rc, const char *exception, const char *message, const char *dtype, int weak) {
    if (rc == 0) printf("%s%s\n", dtype, weak ? " weak" : "");
    else printf("!%s #%016llx\n", exception, fnv(message));
}

static void cell(const char *module, const char *table, const char *a, int a_py, const char *b,
                 int b_py, int rc, const char *exception, const char *message, const char *dtype,
                 int weak) {
    printf("%s|%s|%s%s|%s%s|", module, table, a_py ? "py:" : "", a, b_py ? "py:" : "", b);
    result(rc, exception, message, dtype, weak);
}
"#;

#[test]
fn generated_c_answers_every_cell_as_the_library() {
    let modules = modules();
    let dir = scratch("c");
    generate(&modules, Target::C, &dir, "h");
    let mut main = String::new();
    for module in &modules {
        let _ = writeln!(main, "#include \"{}.h\"", module.name);
    }
    main.push_str(C_HELPERS);
    for module in &modules {
        main.push_str(
            &C_DUMP
                .replace("pfx", &module.name)
                .replace("PFX", &module.name.to_ascii_uppercase()),
        );
    }
    main.push_str("int main(void) {\n");
    for module in &modules {
        let _ = writeln!(main, "    dump_{}();", module.name);
    }
    main.push_str("    return 0;\n}\n");
    std::fs::write(dir.join("main.c"), main).unwrap();
    let compiled = dtype_lattice_testkit::c_compiler::compile(&dir, "main.c", "main");
    assert!(
        compiled.status.success(),
        "{}",
        String::from_utf8_lossy(&compiled.stderr)
    );
    let printed = run(&mut Command::new(dir.join("main")));
    compare("c", &printed, &modules);
}

const PYTHON_MAIN: &str = r#"
import functools
import importlib.util
import sys


# A message is hashed once: hashing JAX's paragraph per cell was most of
# the run.
@functools.cache
def fnv(text):
    h = 0xCBF29CE484222325
    for byte in text.encode():
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def shown(m, ask):
    try:
        t = ask()
    except m.PromotionError as err:
        return f"!{err.exception} #{fnv(str(err)):016x}"
    if t is None:
        return None
    return m.NAMES[t.dtype] + (" weak" if t.weak else "")


out = []
for name in sys.argv[1:]:
    spec = importlib.util.spec_from_file_location(name, f"{name}.py")
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    operands = list(m.DType) + list(m.Scalar)
    label = lambda o: ("py:" if isinstance(o, m.Scalar) else "") + m.NAMES[o]
    for a in operands:
        for b in operands:
            out.append(f"{name}|promote|{label(a)}|{label(b)}|{shown(m, lambda: m.promote(a, b))}")
            for op in m.Op:
                cell = shown(m, lambda: m.operation(op, a, b))
                if cell is not None:
                    out.append(f"{name}|{op.name}|{label(a)}|{label(b)}|{cell}")
    for a in operands:
        for op in m.UnaryOp:
            cell = shown(m, lambda: m.unary(op, a))
            if cell is not None:
                out.append(f"{name}|{op.name}|{label(a)}|{cell}")
    for a in m.DType:
        for d in [None] + list(m.DType):
            b = "dtype=" + ("None" if d is None else m.NAMES[d])
            for op in m.Reduction:
                cell = shown(m, lambda: m.reduce(op, a, d))
                if cell is not None:
                    out.append(f"{name}|{op.name}|{m.NAMES[a]}|{b}|{cell}")
                c = m.computes_in(op, a, d)
                if c is not None:
                    out.append(f"{name}|{op.name}|{m.NAMES[a]}|{b}|in {m.NAMES[c]}")
    for exception, message in m.ERRORS:
        message = message.replace("\\", "\\\\").replace("\n", "\\n")
        out.append(f"E|{name}|{exception}|{message}")
sys.stdout.write("\n".join(out) + "\n")
"#;

#[test]
fn generated_python_answers_every_cell_as_the_library() {
    let modules = modules();
    let dir = scratch("python");
    generate(&modules, Target::Python, &dir, "py");
    std::fs::write(dir.join("main.py"), PYTHON_MAIN).unwrap();
    let names: Vec<&str> = modules.iter().map(|m| m.name.as_str()).collect();
    let printed = run(Command::new("python3")
        .current_dir(&dir)
        .arg("-I")
        .arg("main.py")
        .args(&names));
    compare("python", &printed, &modules);
}
