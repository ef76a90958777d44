//! tinygrad 0.14's type promotion: `least_upper_dtype` on its
//! `promo_lattice`, as its binary operators use it, and the result types
//! of its operations (`ops.rs`).
//!
//! tinygrad writes its rules as JAX does, a dict of the dtypes each dtype
//! promotes to (after JEP 9407), with two weak types: `weakint`, the dtype
//! of a Python int, and `weakfloat`, of a Python float. It has no complex
//! types. `least_upper_dtype(*dtypes)` takes the dtypes above all of its
//! arguments and answers the *smallest* of them in tinygrad's `DType`
//! order (priority, then bit size, then name), not the least in the graph.
//! The two agree wherever the graph has a least upper bound; the graph is
//! not a lattice, though: any two of the four float8 types meet at both
//! float16 and bfloat16, and the order picks float16. So promotion depends
//! on grouping:
//!
//! ```
//! use dtype_lattice::frameworks::tinygrad::Tinygrad;
//! use dtype_lattice::{DType, Policy};
//!
//! let promote = |a: DType, b: DType| Tinygrad::default().promote_types(a.into(), b.into()).unwrap();
//! let (e4m3, e5m2, bf16) = (DType::Float8E4M3Fn, DType::Float8E5M2, DType::BFloat16);
//! assert_eq!(promote(e4m3, e5m2), DType::Float16);
//! assert_eq!(promote(promote(e4m3, e5m2), bf16), DType::Float32);
//! assert_eq!(promote(e4m3, promote(e5m2, bf16)), DType::BFloat16);
//! ```
//!
//! tinygrad has neither `promote_types` nor `result_type`. Here
//! [`result_type`](Tinygrad::result_type) is `least_upper_dtype` of the
//! operands' dtypes, a tensor's being its dtype and a Python scalar's
//! `dtypes.from_py` of it, as `x + y` computes it; a result of a weak type
//! is weak, with the dtype tinygrad stores it as (`strong_dtype`: int32 and
//! float32, its `DEFAULT_INT` and `DEFAULT_FLOAT`).
//! [`promote_types`](Tinygrad::promote_types) is that stored dtype for two
//! dtypes, a Python type standing for its scalars. Two 64-bit integers of
//! either signedness meet at the weak float:
//!
//! ```
//! use dtype_lattice::frameworks::tinygrad::Tinygrad;
//! use dtype_lattice::{DType, Op, Operand, Policy, Typed};
//!
//! let (i64, u64) = (Operand::dtype(DType::Int64), Operand::dtype(DType::UInt64));
//! assert_eq!(Tinygrad::default().result_type(&[i64, u64]), Ok(Typed::weak(DType::Float32)));
//! let x = Operand::dtype(DType::Int8);
//! assert_eq!(Tinygrad::default().result_type(&[x, Operand::py_int(300)]), Ok(Typed::strong(DType::Int8)));
//! assert_eq!(Tinygrad::default().result_type(&[x, Operand::py_float(2.5)]), Ok(Typed::weak(DType::Float32)));
//! let bool_tensor = Operand::dtype(DType::Bool);
//! assert_eq!(Tinygrad::default().operation(Op::Add, &[bool_tensor, Operand::py_int(2)]), Some(Ok(Typed::weak(DType::Int32))));
//! ```
//!
//! [`operation(Op::Add)`](Tinygrad::operation) is the operator `x + y`, which promotes the same
//! way, and [`operation`](Tinygrad::operation) every other operation
//! tinygrad has, its operator or method: that promotion, then the
//! operation's rule (`x / y` of integers is `DEFAULT_FLOAT`, `x < y` is
//! `bool`). Two Python scalars Python computes itself. The errors are
//! tinygrad's and Python's: a dtype tinygrad lacks is an `AttributeError`
//! of its `dtypes` namespace, a complex number or `None` beside a tensor a
//! `RuntimeError` of `from_py`.
//!
//! tinygrad's `DEFAULT_FLOAT` and `DEFAULT_INT` (environment variables)
//! change the dtype a weak result is stored as (settings
//! `tinygrad_default_float` and `tinygrad_default_int`), and the float
//! that integers divide and take roots in:
//!
//! ```
//! use dtype_lattice::frameworks::tinygrad::{DefaultFloat, DefaultInt, Tinygrad};
//! use dtype_lattice::{DType, Op, Operand, Policy, Typed};
//!
//! let half = Tinygrad::new(DefaultFloat::Float16, DefaultInt::Int64);
//! let x = Operand::dtype(DType::Int8);
//! assert_eq!(half.result_type(&[x, Operand::py_float(2.5)]), Ok(Typed::weak(DType::Float16)));
//! assert_eq!(half.promote_types(DType::Bool.into(), DType::Bool.into()), Ok(DType::Bool));
//! assert_eq!(half.operation(Op::TrueDivide, &[x, x]), Some(Ok(Typed::strong(DType::Float16))));
//! ```
//!
//! The device changes no answer (measured on `PYTHON` and `CPU`: no kernel
//! runs, and tinygrad checks no dtype support when it builds a tensor).

use crate::prelude::*;

mod array_ops;
mod forms;
mod ops;

use crate::once::Once;

use crate::engine::Poset;
use crate::frameworks::common::DTypeSet;
use crate::policy::{Policy, TypedLattice, WrittenGraph};
use crate::types::{ArrayCall, ArrayOp, Outcome};
use crate::types::{DType, ErrorKind, Op, OpForm, PromotionError, Typed};
use crate::types::{Operand, OperandKind, PyScalar, TypeSpec};

/// `promo_lattice` of tinygrad's `dtype.py`, "dtype -> dtypes it promotes
/// to", in our names; `weakint` and `weakfloat` are its weak types.
const PROMO_LATTICE: &[(&str, &[&str])] = &[
    ("bool", &["weakint"]),
    ("weakint", &["int8", "uint8"]),
    ("int8", &["int16"]),
    ("int16", &["int32"]),
    ("int32", &["int64"]),
    ("int64", &["weakfloat"]),
    ("uint8", &["int16", "uint16"]),
    ("uint16", &["int32", "uint32"]),
    ("uint32", &["int64", "uint64"]),
    ("uint64", &["weakfloat"]),
    (
        "weakfloat",
        &[
            "float8_e4m3fn",
            "float8_e5m2",
            "float8_e4m3fnuz",
            "float8_e5m2fnuz",
        ],
    ),
    ("float8_e4m3fn", &["float16", "bfloat16"]),
    ("float8_e5m2", &["float16", "bfloat16"]),
    ("float8_e4m3fnuz", &["float16", "bfloat16"]),
    ("float8_e5m2fnuz", &["float16", "bfloat16"]),
    ("float16", &["float32"]),
    ("bfloat16", &["float32"]),
    ("float32", &["float64"]),
    ("float64", &[]),
];

/// The nodes in tinygrad's `DType` order, `(priority, bitsize, name)`,
/// smallest first: `min()` of a set of dtypes is the first of them here.
/// Its `fp8e4m3` (name `float8_e4m3`) comes before `fp8e4m3fnuz` by name.
const ORDER: [&str; 19] = [
    "bool",
    "weakint",
    "int8",
    "uint8",
    "int16",
    "uint16",
    "int32",
    "uint32",
    "int64",
    "uint64",
    "weakfloat",
    "float8_e4m3fn",
    "float8_e4m3fnuz",
    "float8_e5m2",
    "float8_e5m2fnuz",
    "float16",
    "bfloat16",
    "float32",
    "float64",
];

/// tinygrad's weak types, the labels of their nodes.
const WEAK_INT: &str = "weakint";
const WEAK_FLOAT: &str = "weakfloat";

/// The dtypes tinygrad has (`dtypes.all`), our names; it looks up its
/// float8 types as `fp8e4m3` and so on.
const DTYPES: DTypeSet = DTypeSet::of(&[
    DType::Bool,
    DType::Int8,
    DType::UInt8,
    DType::Int16,
    DType::UInt16,
    DType::Int32,
    DType::UInt32,
    DType::Int64,
    DType::UInt64,
    DType::Float8E4M3Fn,
    DType::Float8E5M2,
    DType::Float8E4M3Fnuz,
    DType::Float8E5M2Fnuz,
    DType::Float16,
    DType::BFloat16,
    DType::Float32,
    DType::Float64,
]);

/// tinygrad 0.14.0's promotion, with its `DEFAULT_FLOAT` and
/// `DEFAULT_INT` (float32 and int32 by default).
///
/// Operands: a dtype, a strong array or a zero-dimensional array is a
/// tensor of that dtype (tinygrad promotes zero-dimensional tensors alike);
/// a weak array of the default int or float dtype is `Tensor(2)` or
/// `Tensor(2.0)`, whose dtypes are the weak types; Python scalars and their
/// types are Python scalars (a type stands for `True`, `2`, `2.0`, `2j`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tinygrad {
    default_float: DefaultFloat,
    default_int: DefaultInt,
}

/// tinygrad's `DEFAULT_FLOAT`: the dtype a `weakfloat` result is stored as.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DefaultFloat {
    /// `float32`, tinygrad's default.
    #[default]
    Float32,
    /// `float16` (tinygrad's `half`).
    Float16,
    /// `bfloat16`.
    BFloat16,
    /// `float64` (tinygrad's `double`).
    Float64,
}

impl DefaultFloat {
    /// Every value, in the settings table's order (tinygrad's default first).
    pub const ALL: [DefaultFloat; 4] = [
        DefaultFloat::Float32,
        DefaultFloat::Float16,
        DefaultFloat::BFloat16,
        DefaultFloat::Float64,
    ];

    /// The dtype it names.
    pub const fn dtype(self) -> DType {
        match self {
            DefaultFloat::Float32 => DType::Float32,
            DefaultFloat::Float16 => DType::Float16,
            DefaultFloat::BFloat16 => DType::BFloat16,
            DefaultFloat::Float64 => DType::Float64,
        }
    }
}

/// tinygrad's `DEFAULT_INT`: the dtype a `weakint` result is stored as.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DefaultInt {
    /// `int32`, tinygrad's default.
    #[default]
    Int32,
    /// `int64` (tinygrad's `long`).
    Int64,
}

impl DefaultInt {
    /// Every value, in the settings table's order (tinygrad's default first).
    pub const ALL: [DefaultInt; 2] = [DefaultInt::Int32, DefaultInt::Int64];

    /// The dtype it names.
    pub const fn dtype(self) -> DType {
        match self {
            DefaultInt::Int32 => DType::Int32,
            DefaultInt::Int64 => DType::Int64,
        }
    }
}

/// The graph and, for each node, its set of upper bounds as a bit mask.
struct Graph {
    poset: Poset,
    /// `upper[node]`: bit `i` set when `ORDER[i]` is above `node` (or is it).
    upper: Vec<u32>,
    /// The node of `ORDER[i]`.
    by_order: Vec<usize>,
}

fn graph() -> &'static Graph {
    static GRAPH: Once<Graph> = Once::new();
    GRAPH.get_or_init(|| {
        let poset = Poset::from_dict(PROMO_LATTICE).expect("tinygrad's graph is acyclic (tested)");
        let by_order: Vec<usize> = ORDER
            .iter()
            .map(|label| poset.node(label).expect("every ordered label is a node"))
            .collect();
        let upper = (0..poset.len())
            .map(|node| {
                by_order
                    .iter()
                    .enumerate()
                    .filter(|&(_, &above)| poset.leq(node, above))
                    .fold(0, |mask, (i, _)| mask | 1 << i)
            })
            .collect();
        Graph {
            poset,
            upper,
            by_order,
        }
    })
}

/// `least_upper_dtype` of the nodes: the first in tinygrad's order of
/// those above them all. `None` for no node (tinygrad's `TypeError`).
fn least_upper(nodes: impl IntoIterator<Item = usize>) -> Option<usize> {
    let graph = graph();
    let mut common = None;
    for node in nodes {
        common = Some(common.unwrap_or(u32::MAX) & graph.upper[node]);
    }
    // float64 is above every node, so the intersection is never empty.
    let first = common?.trailing_zeros() as usize;
    Some(graph.by_order[first])
}

fn node_of_label(label: &str) -> usize {
    graph().poset.node(label).expect("a label of the graph")
}

/// The node of a dtype tinygrad has, or the `AttributeError` its
/// `dtypes` namespace raises for one it lacks.
fn dtype_node(dtype: DType) -> Result<usize, PromotionError> {
    if DTYPES.contains(dtype) {
        Ok(node_of_label(dtype.name()))
    } else {
        Err(PromotionError::framework(
            ErrorKind::Attribute,
            format!("'DTypes' object has no attribute '{}'", dtype.name()),
        ))
    }
}

/// What an operand is to tinygrad: a tensor (its dtype's node) or a
/// Python value.
enum Value {
    Tensor(usize),
    Python(Operand),
}

impl Tinygrad {
    /// tinygrad with these `DEFAULT_FLOAT` and `DEFAULT_INT`.
    pub const fn new(default_float: DefaultFloat, default_int: DefaultInt) -> Tinygrad {
        Tinygrad {
            default_float,
            default_int,
        }
    }

    /// The type a node stands for: its dtype, or a weak type's stored
    /// dtype (`strong_dtype`), weakly typed.
    fn node_type(self, node: usize) -> Typed {
        match graph().poset.label(node) {
            WEAK_INT => Typed::weak(self.default_int.dtype()),
            WEAK_FLOAT => Typed::weak(self.default_float.dtype()),
            label => Typed::strong(DType::from_name(label).expect("strong labels are dtype names")),
        }
    }

    /// An operand as tinygrad receives it: looking up a tensor's dtype is
    /// the first thing that can fail.
    fn value(self, operand: &Operand) -> Result<Value, PromotionError> {
        Ok(match operand.kind() {
            OperandKind::DType(dtype)
            | OperandKind::ZeroDim(dtype)
            | OperandKind::Array { dtype, weak: false } => Value::Tensor(dtype_node(dtype)?),
            OperandKind::Array { dtype, weak: true } => Value::Tensor(self.weak_tensor(dtype)?),
            _ => Value::Python(*operand),
        })
    }

    /// `Tensor(2)` and `Tensor(2.0)` are tinygrad's weak tensors, of the
    /// default dtypes; no other weakly-typed array exists there.
    fn weak_tensor(self, dtype: DType) -> Result<usize, PromotionError> {
        let (int, float) = (self.default_int.dtype(), self.default_float.dtype());
        if dtype == int {
            Ok(node_of_label(WEAK_INT))
        } else if dtype == float {
            Ok(node_of_label(WEAK_FLOAT))
        } else {
            Err(PromotionError::framework(
                ErrorKind::Value,
                format!(
                    "weak:{dtype} is no tinygrad tensor: its weak tensors are Tensor(2) \
                     (weak:{int}) and Tensor(2.0) (weak:{float})"
                ),
            ))
        }
    }
}

/// `dtypes.from_py`: bool, `weakint` or `weakfloat`; anything else is a
/// `RuntimeError`.
fn from_py(operand: &Operand) -> Result<usize, PromotionError> {
    match scalar_type(operand) {
        Some(PyScalar::Bool) => Ok(node_of_label("bool")),
        Some(PyScalar::Int) => Ok(node_of_label(WEAK_INT)),
        Some(PyScalar::Float) => Ok(node_of_label(WEAK_FLOAT)),
        _ => Err(PromotionError::framework(
            ErrorKind::Runtime,
            format!(
                "Could not infer dtype of {} with type <class '{}'>",
                python_repr(operand),
                python_class(operand)
            ),
        )),
    }
}

/// Python's `repr` of a scalar operand; a type stands for the scalar the
/// golden data uses.
fn python_repr(operand: &Operand) -> String {
    match operand.kind() {
        OperandKind::PyType(PyScalar::Complex) => "2j".to_owned(),
        _ => operand.to_string(),
    }
}

/// The Python class of a scalar operand or `None`.
fn python_class(operand: &Operand) -> &'static str {
    scalar_type(operand).map_or("NoneType", PyScalar::name)
}

impl Tinygrad {
    /// The node an operand promotes as.
    fn operand_node(self, operand: &Operand) -> Result<usize, PromotionError> {
        match self.value(operand)? {
            Value::Tensor(node) => Ok(node),
            Value::Python(scalar) => from_py(&scalar),
        }
    }

    /// The node of `DEFAULT_FLOAT`.
    fn default_float_node(self) -> usize {
        node_of_label(self.default_float.dtype().name())
    }
}

/// The Python type of a scalar operand; `None` for `None`.
fn scalar_type(operand: &Operand) -> Option<PyScalar> {
    match operand.kind() {
        OperandKind::PyType(scalar) => Some(scalar),
        OperandKind::PyBool(_) => Some(PyScalar::Bool),
        OperandKind::PyInt(_) => Some(PyScalar::Int),
        OperandKind::PyFloat(_) => Some(PyScalar::Float),
        OperandKind::PyComplex { .. } => Some(PyScalar::Complex),
        _ => None,
    }
}

impl Policy for Tinygrad {
    fn name(&self) -> String {
        format!(
            "tinygrad (DEFAULT_FLOAT={}, DEFAULT_INT={})",
            self.default_float.dtype(),
            self.default_int.dtype()
        )
    }

    /// `strong_dtype(least_upper_dtype(a, b))`: the dtype a result of the
    /// two is stored as. A Python type stands for `dtypes.from_py` of its
    /// scalars (`bool`, `weakint`, `weakfloat`; a complex number is an
    /// error).
    ///
    /// ```
    /// use dtype_lattice::frameworks::tinygrad::Tinygrad;
    /// use dtype_lattice::{DType, Policy, PyScalar};
    /// assert_eq!(Tinygrad::default().promote_types(DType::Int8.into(), DType::UInt64.into()), Ok(DType::Float32));
    /// assert_eq!(Tinygrad::default().promote_types(DType::Int8.into(), PyScalar::Int.into()), Ok(DType::Int8));
    /// let err = Tinygrad::default().promote_types(DType::Int4.into(), DType::Int8.into()).unwrap_err();
    /// assert_eq!(err.to_string(), "'DTypes' object has no attribute 'int4'");
    /// ```
    fn promote_types(&self, a: TypeSpec, b: TypeSpec) -> Result<DType, PromotionError> {
        let node = |spec: TypeSpec| match spec {
            TypeSpec::DType(dtype) => dtype_node(dtype),
            TypeSpec::Python(scalar) => from_py(&Operand::from(scalar)),
        };
        let (a, b) = (node(a)?, node(b)?);
        Ok(self
            .node_type(least_upper([a, b]).expect("two nodes"))
            .dtype)
    }

    /// `least_upper_dtype` of the operands' dtypes, each looked up in
    /// order; with no operand, the `TypeError` of its empty intersection.
    ///
    /// ```
    /// use dtype_lattice::frameworks::tinygrad::Tinygrad;
    /// use dtype_lattice::{DType, Operand, Policy, PyScalar, Typed};
    /// let x = Operand::dtype(DType::UInt8);
    /// assert_eq!(Tinygrad::default().result_type(&[x, Operand::py_bool(true)]), Ok(Typed::strong(DType::UInt8)));
    /// let err = Tinygrad::default().result_type(&[x, PyScalar::Complex.into()]).unwrap_err();
    /// assert_eq!(err.to_string(), "Could not infer dtype of 2j with type <class 'complex'>");
    /// ```
    fn result_type(&self, operands: &[Operand]) -> Result<Typed, PromotionError> {
        let nodes = operands
            .iter()
            .map(|operand| self.operand_node(operand))
            .collect::<Result<Vec<_>, _>>()?;
        least_upper(nodes)
            .map(|node| self.node_type(node))
            .ok_or_else(|| {
                PromotionError::framework(
                    ErrorKind::Type,
                    "unbound method set.intersection() needs an argument",
                )
            })
    }

    /// Not a lattice: the float8 types have two minimal joins each.
    fn lattice(&self) -> Option<&TypedLattice> {
        None
    }

    fn written_graph(&self) -> Option<WrittenGraph> {
        Some(WrittenGraph {
            edges: PROMO_LATTICE,
            weak: &[("weakint", PyScalar::Int), ("weakfloat", PyScalar::Float)],
        })
    }

    fn is_native(&self, dtype: DType) -> bool {
        DTYPES.contains(dtype)
    }

    /// `op` as Python writes it on tinygrad's tensors (`ops.rs`): the
    /// operator (`a / b`, `-x`) or, where there is none, the method
    /// (`a.maximum(b)`, `x.sqrt()`); promotion, then the operation's rule
    /// on the promoted dtype. tinygrad 0.14 has no `logical_and`: asked for
    /// it, Python's `AttributeError`.
    ///
    /// ```
    /// use dtype_lattice::frameworks::tinygrad::Tinygrad;
    /// use dtype_lattice::{DType, Op, Operand, Policy, Typed};
    /// let call = |op, operands: &[Operand]| Tinygrad::default().operation(op, operands);
    /// let x = Operand::array(DType::UInt8, false);
    /// assert_eq!(call(Op::Sqrt, &[x]), Some(Ok(Typed::strong(DType::Float32))));
    /// assert_eq!(call(Op::Less, &[x, Operand::py_float(2.5)]), Some(Ok(Typed::strong(DType::Bool))));
    /// let err = call(Op::LogicalAnd, &[x, x]).unwrap().unwrap_err();
    /// assert_eq!(err.to_string(), "'Tensor' object has no attribute 'logical_and'");
    /// ```
    ///
    /// Addition:
    /// ```
    /// use dtype_lattice::frameworks::tinygrad::Tinygrad;
    /// use dtype_lattice::{DType, Op, Operand, Policy, Typed};
    /// let add = |a, b| Tinygrad::default().operation(Op::Add, &[a, b]).unwrap();
    /// let f8 = Operand::dtype(DType::Float8E5M2);
    /// assert_eq!(add(f8, Operand::py_float(2.5)), Ok(Typed::strong(DType::Float8E5M2)));
    /// let err = add(Operand::py_int(2), Operand::NONE).unwrap_err();
    /// assert_eq!(err.to_string(), "unsupported operand type(s) for +: 'int' and 'NoneType'");
    /// ```
    fn operation(&self, op: Op, operands: &[Operand]) -> Option<Result<Typed, PromotionError>> {
        Some(ops::operation(*self, op, operands))
    }

    /// The Tensor operators where Python has one (`x + y`, `-x`), as the
    /// golden data records them; the methods for the rest (`x.maximum(y)`,
    /// and `x.abs()`: a Tensor has no `__abs__`), tinygrad's functions being
    /// its methods.
    fn default_form(&self, op: Op) -> OpForm {
        match op.operator() {
            Some(_) if op != Op::Abs => OpForm::Operator,
            _ => OpForm::Function,
        }
    }

    /// tinygrad's function of an operation whose default is its operator,
    /// the Tensor's method (`a.add(b)`, `a.div(b)`; none for the
    /// orderings), `abs(x)` (a `TypeError`: a Tensor has no `__abs__`),
    /// the reflected operators, `x OP= b` (`x.assign(x OP b)`, which
    /// refuses a result of another dtype), as `forms.rs` says.
    ///
    /// ```
    /// use dtype_lattice::frameworks::tinygrad::Tinygrad;
    /// use dtype_lattice::{DType, Op, OpForm, Operand, Policy, Typed};
    /// let x = Operand::array(DType::Int8, false);
    /// let tinygrad = Tinygrad::default();
    /// let iadd = |b| tinygrad.operation_as(Op::Add, OpForm::InPlace, &[x, b]).unwrap();
    /// assert_eq!(iadd(Operand::py_int(2)), Ok(Typed::strong(DType::Int8)));
    /// let err = iadd(Operand::py_float(2.5)).unwrap_err();
    /// assert_eq!(err.to_string(), "assign dtype mismatch dtypes.char != dtypes.weakfloat");
    /// let method = tinygrad.operation_as(Op::Add, OpForm::Function, &[Operand::py_int(2), x]);
    /// assert_eq!(method.unwrap().unwrap_err().to_string(), "'int' object has no attribute 'add'");
    /// ```
    fn operation_as(
        &self,
        op: Op,
        form: OpForm,
        operands: &[Operand],
    ) -> Option<Result<Typed, PromotionError>> {
        forms::operation_as(*self, op, form, operands)
    }

    /// `x[...] = v`: a Python number is converted to `x`'s dtype; a tensor
    /// must have it (a weak one joined with it first); a weak tensor has no
    /// storage.
    ///
    /// ```
    /// use dtype_lattice::frameworks::tinygrad::Tinygrad;
    /// use dtype_lattice::{DType, Operand, Policy, Typed};
    /// let x = Operand::array(DType::Int8, false);
    /// assert_eq!(Tinygrad::default().assign(x, Operand::py_float(2.5)), Some(Ok(Typed::strong(DType::Int8))));
    /// let err = Tinygrad::default().assign(x, Operand::array(DType::Int16, false)).unwrap().unwrap_err();
    /// assert_eq!(err.to_string(), "setitem dtype mismatch: self.dtype=dtypes.char != v.dtype=dtypes.short");
    /// ```
    fn assign(&self, target: Operand, value: Operand) -> Option<Result<Typed, PromotionError>> {
        Some(forms::assign(*self, target, value))
    }

    /// `x.sum()`, `a.matmul(b)` and the others of `array_ops`, with the
    /// dtype tinygrad accumulates in (tinygrad has no `tensordot`).
    fn array_op(
        &self,
        call: &ArrayCall,
        operands: &[Operand],
    ) -> Option<Result<Outcome, PromotionError>> {
        self.tinygrad_array_op(*call, operands)
    }

    fn describe_array_op(&self, op: ArrayOp) -> Option<String> {
        array_ops::describe(op)
    }

    fn describe_operation(&self, op: Op) -> Option<String> {
        Some(ops::describe(op))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Kind;

    #[test]
    fn every_dtype_is_a_node_and_the_order_names_every_node() {
        let graph = graph();
        assert_eq!(graph.poset.len(), ORDER.len());
        for dtype in DTYPES.iter() {
            assert!(dtype_node(dtype).is_ok(), "{dtype}");
            assert_ne!(dtype.kind(), Kind::Complex);
        }
    }

    #[test]
    fn float64_is_above_everything() {
        for node in 0..graph().poset.len() {
            assert_eq!(
                least_upper([node, node_of_label("float64")]),
                Some(node_of_label("float64"))
            );
        }
    }
}
