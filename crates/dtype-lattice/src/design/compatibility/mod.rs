//! How far apart the frameworks are: for every two policies, how many cells
//! of the promotion table and of addition differ, what kind of pairs the
//! differences fall on, and a few telling pairs answered by every policy.
//! `docs/compatibility.md` is this report, written by `dtype-lattice
//! compatibility`.
//!
//! Two cells are compared only where both frameworks have the dtypes
//! natively ([`Policy::is_native`]): a framework without float8 types is not
//! counted as differing on every float8 cell. Every failure counts as the
//! same answer, as in [`diff`](crate::design::diff). Addition is the
//! framework's own ([`Policy::operation`] of [`Op::Add`](crate::Op::Add)),
//! or, for a policy that models no operations (`numpy-legacy`, a table
//! without functions), its `result_type`; on arrays of each dtype and the
//! Python scalars `True`, `2`, `2.0` and `2j`, at least one operand an
//! array.
//!
//! ```
//! use dtype_lattice::design::compatibility::{Compatibility, Theme};
//! use dtype_lattice::frameworks::jax::Jax;
//! use dtype_lattice::frameworks::numpy::Numpy;
//!
//! let (jax, numpy) = (Jax::default(), Numpy);
//! let report = Compatibility::new(&[("jax", &jax), ("numpy", &numpy)]);
//! let pair = &report.pairs[0];
//! assert!(pair.table.differing > 0 && pair.table.differing < pair.table.compared);
//! // JAX keeps int64 with float16 at float16; NumPy widens to float64.
//! assert!(pair.themes.iter().any(|t| t.theme == Theme::IntegersWithFloats));
//! ```

mod array_ops;
mod forms;
mod operations;

pub use array_ops::{ArrayOpRow, ArrayOps, ArrayProbe, ArrayProbeAnswers, ARRAY_PROBES};
pub use forms::{FormProbe, FormProbeAnswers, FormRow, Forms, FORM_PROBES};
pub use operations::{OpProbe, OpProbeAnswers, OpRow, Operations, OP_PROBES};

use crate::policy::Policy;
use crate::types::{DType, Kind, Operand, OperandKind, Outcome, PromotionError, PyScalar, Typed};

/// The report: every pair of the policies given, and the probes.
#[derive(Clone, Debug)]
pub struct Compatibility {
    /// The policies' names, in the order given.
    pub names: Vec<String>,
    /// One entry per unordered pair of policies, in the order given.
    pub pairs: Vec<Pair>,
    /// The answers of every policy to each of [`PROBES`].
    pub probes: Vec<ProbeAnswers>,
    /// The other operations, each policy against the first.
    pub operations: Operations,
    /// Operators against functions inside each policy, and operators
    /// across them.
    pub forms: Forms,
    /// The reductions, contractions and combinations, each policy against
    /// the first.
    pub array_ops: ArrayOps,
}

/// How two policies compare.
#[derive(Clone, Debug)]
pub struct Pair {
    /// The first policy's position in [`Compatibility::names`].
    pub left: usize,
    /// The second policy's position.
    pub right: usize,
    /// The promotion tables' cells (`promote_types` of two dtypes).
    pub table: Count,
    /// Addition's cells (arrays and Python scalars).
    pub add: Count,
    /// The kinds of pairs the differences fall on, most cells first.
    pub themes: Vec<ThemeCount>,
}

/// Cells compared, and how many of them differ.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Count {
    /// Cells where both policies have the operands' dtypes.
    pub compared: usize,
    /// Of those, the cells where the answers differ.
    pub differing: usize,
}

/// The differences of one [`Theme`] between two policies.
#[derive(Clone, Debug)]
pub struct ThemeCount {
    /// What the cells have in common.
    pub theme: Theme,
    /// Differing cells of the promotion table.
    pub table: usize,
    /// Differing cells of addition.
    pub add: usize,
    /// The differing cell that tells most (everyday dtypes before bool and
    /// the small types, two answers before an answer and an error, the
    /// promotion table's before addition's), with both answers.
    pub example: Example,
}

/// One cell where two policies differ.
#[derive(Clone, Copy, Debug)]
pub struct Example {
    /// The two operands (dtypes for a table cell, arrays or Python
    /// scalars for addition).
    pub operands: [Operand; 2],
    /// Whether the cell is addition's (else the promotion table's).
    pub add: bool,
    /// The left policy's answer, `None` where it fails.
    pub left: Option<DType>,
    /// The right policy's answer.
    pub right: Option<DType>,
}

/// What kind of pair a cell is, for telling where two frameworks part.
/// The first that applies, in the order listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Theme {
    /// A Python `bool` with an array.
    PythonBool,
    /// A Python `int` with an array.
    PythonInt,
    /// A Python `float` with a bool or integer array.
    PythonFloatWithIntegers,
    /// A Python `float` with an inexact array.
    PythonFloat,
    /// A Python `complex` with an array.
    PythonComplex,
    /// A sub-byte integer or a float under 16 bits.
    SmallTypes,
    /// `bool` with any dtype.
    Bool,
    /// A complex dtype with any number.
    Complex,
    /// `bfloat16` with `float16`.
    HalfFloats,
    /// An integer with a floating-point dtype.
    IntegersWithFloats,
    /// `uint64` with a signed integer.
    Uint64WithSigned,
    /// Another unsigned integer with a signed one.
    UnsignedWithSigned,
    /// Integers of one signedness.
    IntegerWidths,
    /// Floating-point dtypes with each other.
    Floats,
}

impl Theme {
    /// The theme in words, as a heading or a list item says it.
    pub const fn describe(self) -> &'static str {
        match self {
            Theme::PythonBool => "Python bools with arrays",
            Theme::PythonInt => "Python ints with arrays",
            Theme::PythonFloatWithIntegers => "Python floats with bool and integer arrays",
            Theme::PythonFloat => "Python floats with float arrays",
            Theme::PythonComplex => "Python complex numbers with arrays",
            Theme::SmallTypes => "sub-byte integers and floats under 16 bits",
            Theme::Bool => "bool with numbers",
            Theme::Complex => "complex with real types",
            Theme::HalfFloats => "bfloat16 with float16",
            Theme::IntegersWithFloats => "integers with floats",
            Theme::Uint64WithSigned => "uint64 with signed integers",
            Theme::UnsignedWithSigned => "unsigned with signed integers",
            Theme::IntegerWidths => "integers of one signedness",
            Theme::Floats => "floats with floats",
        }
    }

    /// The theme of a cell of two operands, each an array, a dtype or a
    /// Python scalar.
    pub fn of(a: Operand, b: Operand) -> Theme {
        let (x, y) = match (python_scalar(a), python_scalar(b)) {
            (Some(scalar), _) => return Theme::with_python(scalar, b),
            (_, Some(scalar)) => return Theme::with_python(scalar, a),
            _ => (dtype_of(a), dtype_of(b)),
        };
        let kinds =
            |k: Kind, l: Kind| (x.kind(), y.kind()) == (k, l) || (y.kind(), x.kind()) == (k, l);
        let either = |test: fn(DType) -> bool| test(x) || test(y);
        if either(|d| d.is_sub_byte_integer() || d.is_small_float()) {
            Theme::SmallTypes
        } else if either(|d| d.kind() == Kind::Bool) {
            Theme::Bool
        } else if either(|d| d.kind() == Kind::Complex) {
            Theme::Complex
        } else if [x, y] == [DType::BFloat16, DType::Float16]
            || [y, x] == [DType::BFloat16, DType::Float16]
        {
            Theme::HalfFloats
        } else if x.is_integer() != y.is_integer() {
            Theme::IntegersWithFloats
        } else if kinds(Kind::Unsigned, Kind::Signed) && either(|d| d == DType::UInt64) {
            Theme::Uint64WithSigned
        } else if kinds(Kind::Unsigned, Kind::Signed) {
            Theme::UnsignedWithSigned
        } else if x.is_integer() {
            Theme::IntegerWidths
        } else {
            Theme::Floats
        }
    }

    fn with_python(scalar: PyScalar, other: Operand) -> Theme {
        match scalar {
            PyScalar::Bool => Theme::PythonBool,
            PyScalar::Int => Theme::PythonInt,
            PyScalar::Float if python_scalar(other).is_none() && !dtype_of(other).is_inexact() => {
                Theme::PythonFloatWithIntegers
            }
            PyScalar::Float => Theme::PythonFloat,
            PyScalar::Complex => Theme::PythonComplex,
        }
    }
}

/// A pair every policy is asked about in [`Compatibility::probes`]: a
/// short label and the two operands of an addition.
#[derive(Clone, Copy, Debug)]
pub struct Probe {
    /// The pair as people write it, e.g. `int32 array + 2.0`.
    pub label: &'static str,
    /// The operands.
    pub operands: [Operand; 2],
}

const fn array(dtype: DType) -> Operand {
    Operand::array(dtype, false)
}

/// The pairs ported code most often trips on: the issue trackers' usual
/// suspects (mixed signedness at 64 bits, the two 16-bit floats, wide
/// integers with narrow floats, Python scalars with narrow arrays).
pub const PROBES: [Probe; 10] = [
    Probe {
        label: "uint64 + int64",
        operands: [array(DType::UInt64), array(DType::Int64)],
    },
    Probe {
        label: "uint8 + int8",
        operands: [array(DType::UInt8), array(DType::Int8)],
    },
    Probe {
        label: "bfloat16 + float16",
        operands: [array(DType::BFloat16), array(DType::Float16)],
    },
    Probe {
        label: "int64 + float16",
        operands: [array(DType::Int64), array(DType::Float16)],
    },
    Probe {
        label: "float64 + complex64",
        operands: [array(DType::Float64), array(DType::Complex64)],
    },
    Probe {
        label: "bool + bool",
        operands: [array(DType::Bool), array(DType::Bool)],
    },
    Probe {
        label: "int32 array + 2.0",
        operands: [array(DType::Int32), Operand::py_float(2.0)],
    },
    Probe {
        label: "float16 array + 2.0",
        operands: [array(DType::Float16), Operand::py_float(2.0)],
    },
    Probe {
        label: "uint8 array + 300",
        operands: [array(DType::UInt8), Operand::py_int(300)],
    },
    Probe {
        label: "float32 array + 1j",
        operands: [array(DType::Float32), Operand::py_complex(0.0, 1.0)],
    },
];

/// Every policy's answer to one probe.
#[derive(Clone, Debug)]
pub struct ProbeAnswers {
    /// The probe.
    pub probe: Probe,
    /// Per policy, in [`Compatibility::names`]' order.
    pub answers: Vec<ProbeAnswer>,
}

/// A policy's answer to a probe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProbeAnswer {
    /// The result's dtype.
    DType(DType),
    /// The Python class of the error the framework raises.
    Error(&'static str),
    /// The framework has no such dtype natively (its answer, an error or
    /// an extension's dtype, says nothing about its promotion).
    Missing(DType),
    /// The policy does not model the operation (yet): only an
    /// [`OpProbe`]'s.
    NotModelled,
    /// The result's dtype and the type the framework computes in, where
    /// it says and they differ: only an [`ArrayProbe`]'s.
    ComputesIn(DType, DType),
}

/// The Python scalars addition is compared on.
pub const PYTHON_VALUES: [Operand; 4] = [
    Operand::py_bool(true),
    Operand::py_int(2),
    Operand::py_float(2.0),
    Operand::py_complex(0.0, 2.0),
];

fn python_scalar(operand: Operand) -> Option<PyScalar> {
    match operand.kind() {
        OperandKind::PyBool(_) => Some(PyScalar::Bool),
        OperandKind::PyInt(_) => Some(PyScalar::Int),
        OperandKind::PyFloat(_) => Some(PyScalar::Float),
        OperandKind::PyComplex { .. } => Some(PyScalar::Complex),
        OperandKind::PyType(scalar) => Some(scalar),
        _ => None,
    }
}

/// The dtype of an operand that is not a Python scalar (`bool` for
/// `None`, which no cell here has).
fn dtype_of(operand: Operand) -> DType {
    match operand.kind() {
        OperandKind::DType(dtype)
        | OperandKind::ZeroDim(dtype)
        | OperandKind::Array { dtype, .. } => dtype,
        _ => DType::Bool,
    }
}

/// How little a cell tells a reader, lower first: cells of everyday
/// dtypes before those with bool or the small types, two different answers
/// before an answer and an error, the table's cells before addition's,
/// then the first found.
fn telling(example: &Example) -> usize {
    let rarity = |operand: Operand| match python_scalar(operand) {
        Some(_) => 0,
        None => match dtype_of(operand) {
            d if d.is_sub_byte_integer() || d.is_small_float() => 2,
            DType::Bool => 1,
            _ => 0,
        },
    };
    let operands: usize = example.operands.into_iter().map(rarity).sum();
    let failure = usize::from(example.left.is_none() || example.right.is_none());
    operands * 4 + failure * 2 + usize::from(example.add)
}

/// A probe's answer in a table of every policy: `Missing` where an array
/// among `operands` is of a dtype the policy lacks, else what `ask` of them
/// answers (`NotModelled` for `None`).
fn probe_answer(
    policy: &dyn Policy,
    operands: &[Operand],
    ask: impl FnOnce(&[Operand]) -> Option<Result<Outcome, PromotionError>>,
) -> ProbeAnswer {
    let missing = operands
        .iter()
        .filter(|&&o| python_scalar(o).is_none())
        .map(|&o| dtype_of(o))
        .find(|&d| !policy.is_native(d));
    if let Some(dtype) = missing {
        return ProbeAnswer::Missing(dtype);
    }
    match ask(operands) {
        None => ProbeAnswer::NotModelled,
        Some(Ok(outcome)) => array_ops::outcome_answer(outcome),
        Some(Err(error)) => ProbeAnswer::Error(error.python_type()),
    }
}

/// `policy`'s addition of two operands: its own, or the promotion of a
/// policy that models no operations (module docs).
pub fn add(policy: &dyn Policy, operands: &[Operand]) -> Result<Typed, PromotionError> {
    match policy.add(operands) {
        Some(answer) => answer,
        None => policy.result_type(operands),
    }
}

impl Compatibility {
    /// The comparison of the policies at positions `a` and `b`, in either
    /// order; `None` for a policy with itself.
    pub fn pair(&self, a: usize, b: usize) -> Option<&Pair> {
        let (left, right) = (a.min(b), a.max(b));
        self.pairs
            .iter()
            .find(|p| (p.left, p.right) == (left, right))
    }

    /// Compares every two of `policies` (name, policy), in the order
    /// given, and asks each the [`PROBES`].
    pub fn new(policies: &[(&str, &dyn Policy)]) -> Compatibility {
        let mut pairs = Vec::new();
        for (left, &(_, a)) in policies.iter().enumerate() {
            for (right, &(_, b)) in policies.iter().enumerate().skip(left + 1) {
                pairs.push(compare(left, a, right, b));
            }
        }
        let probes = PROBES
            .iter()
            .map(|&probe| ProbeAnswers {
                probe,
                answers: policies
                    .iter()
                    .map(|&(_, policy)| {
                        probe_answer(policy, &probe.operands, |operands| {
                            Some(add(policy, operands).map(Outcome::of))
                        })
                    })
                    .collect(),
            })
            .collect();
        Compatibility {
            names: policies.iter().map(|&(name, _)| name.to_string()).collect(),
            pairs,
            probes,
            operations: Operations::new(policies),
            forms: Forms::new(policies),
            array_ops: ArrayOps::new(policies),
        }
    }
}

/// The cells of `a` and `b`: the table's, then addition's.
fn compare(left: usize, a: &dyn Policy, right: usize, b: &dyn Policy) -> Pair {
    let shared: Vec<DType> = DType::ALL
        .into_iter()
        .filter(|&d| a.is_native(d) && b.is_native(d))
        .collect();
    let mut pair = Pair {
        left,
        right,
        table: Count::default(),
        add: Count::default(),
        themes: Vec::new(),
    };
    for &x in &shared {
        for &y in &shared {
            let answer = |p: &dyn Policy| p.promote_types(x.into(), y.into()).ok();
            pair.record(
                false,
                [Operand::dtype(x), Operand::dtype(y)],
                answer(a),
                answer(b),
            );
        }
    }
    let operands: Vec<Operand> = shared
        .iter()
        .map(|&d| array(d))
        .chain(PYTHON_VALUES)
        .collect();
    for &x in &operands {
        for &y in &operands {
            if python_scalar(x).is_some() && python_scalar(y).is_some() {
                continue;
            }
            let answer = |p: &dyn Policy| add(p, &[x, y]).ok().map(|typed| typed.dtype);
            pair.record(true, [x, y], answer(a), answer(b));
        }
    }
    pair.themes
        .sort_by_key(|t| (std::cmp::Reverse(t.table + t.add), t.theme));
    pair
}

impl Pair {
    fn record(
        &mut self,
        add: bool,
        operands: [Operand; 2],
        left: Option<DType>,
        right: Option<DType>,
    ) {
        let count = if add { &mut self.add } else { &mut self.table };
        count.compared += 1;
        if left == right {
            return;
        }
        count.differing += 1;
        let theme = Theme::of(operands[0], operands[1]);
        let index = match self.themes.iter().position(|t| t.theme == theme) {
            Some(index) => index,
            None => {
                self.themes.push(ThemeCount {
                    theme,
                    table: 0,
                    add: 0,
                    example: Example {
                        operands,
                        add,
                        left,
                        right,
                    },
                });
                self.themes.len() - 1
            }
        };
        let entry = &mut self.themes[index];
        let example = Example {
            operands,
            add,
            left,
            right,
        };
        if telling(&example) < telling(&entry.example) {
            entry.example = example;
        }
        if add {
            entry.add += 1;
        } else {
            entry.table += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frameworks::jax::Jax;
    use crate::frameworks::numpy::Numpy;

    #[test]
    fn a_policy_agrees_with_itself() {
        let jax = Jax::default();
        let report = Compatibility::new(&[("a", &jax), ("b", &jax)]);
        let pair = &report.pairs[0];
        assert_eq!(pair.table.differing, 0);
        assert_eq!(pair.add.differing, 0);
        // Every dtype JAX has (not PyTorch's complex32).
        let n = DType::ALL.iter().filter(|&&d| jax.is_native(d)).count();
        assert_eq!(n, DType::COUNT - 1);
        assert_eq!(pair.table.compared, n * n);
        // Arrays with arrays and with the four Python scalars, both ways.
        assert_eq!(pair.add.compared, n * n + 2 * 4 * n);
        assert!(pair.themes.is_empty());
    }

    #[test]
    fn counts_add_up_over_themes() {
        let jax = Jax::default();
        let report = Compatibility::new(&[("jax", &jax), ("numpy", &Numpy)]);
        let pair = &report.pairs[0];
        let table: usize = pair.themes.iter().map(|t| t.table).sum();
        let add: usize = pair.themes.iter().map(|t| t.add).sum();
        assert_eq!((table, add), (pair.table.differing, pair.add.differing));
        // NumPy lacks bfloat16 and the small floats natively: not compared.
        assert!(pair.table.compared < DType::COUNT * DType::COUNT);
        for theme in &pair.themes {
            let example = theme.example;
            assert_eq!(
                Theme::of(example.operands[0], example.operands[1]),
                theme.theme
            );
            assert_ne!(example.left, example.right);
        }
    }

    #[test]
    fn themes_of_cells() {
        let py = Operand::py_float(2.0);
        assert_eq!(
            Theme::of(array(DType::Int8), py),
            Theme::PythonFloatWithIntegers
        );
        assert_eq!(Theme::of(py, array(DType::Float16)), Theme::PythonFloat);
        assert_eq!(
            Theme::of(array(DType::Int64), array(DType::UInt64)),
            Theme::Uint64WithSigned
        );
        assert_eq!(
            Theme::of(array(DType::Float16), array(DType::BFloat16)),
            Theme::HalfFloats
        );
        assert_eq!(
            Theme::of(array(DType::Int4), array(DType::Bool)),
            Theme::SmallTypes
        );
    }
}
