//! `jax.lax`: JAX's primitives promote nothing.
//!
//! `lax.add` takes two arrays of one dtype, and so does every binary
//! primitive (`lax.sub`, `lax.lt`, ...; `lax.pow` takes an integer exponent
//! too); each takes some classes of dtype and refuses the rest
//! (`primitives.rs`, shared with `jax.numpy`). A Python scalar becomes a
//! weakly-typed array of JAX's default dtype of its kind (so `lax.add(x, 2)`
//! fails for an `int8` array `x`), and the result is weak only when both
//! operands are. Arrays exist under a configuration: with x64 off a 64-bit
//! dtype is its 32-bit counterpart, as `jnp.zeros(2, jnp.int64)` makes it.
//!
//! ```
//! use dtype_lattice::frameworks::jax::Config;
//! use dtype_lattice::frameworks::jax::lax::JaxLax;
//! use dtype_lattice::{DType, Op, Operand, Policy, Typed};
//!
//! let lax = JaxLax::new(Config::default());
//! let x = Operand::dtype(DType::Int8);
//! assert_eq!(lax.operation(Op::Add, &[x, x]).unwrap(), Ok(Typed::strong(DType::Int8)));
//! assert_eq!(lax.operation(Op::Add, &[Operand::py_int(2), Operand::py_int(3)]).unwrap(), Ok(Typed::weak(DType::Int32)));
//! let err = lax.operation(Op::Add, &[x, Operand::py_int(2)]).unwrap().unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "lax.add requires arguments to have the same dtypes, got int8, int32. (Tip: jnp.add is \
//!      a similar function that does automatic type promotion on inputs)."
//! );
//! ```

use crate::prelude::*;

mod array_ops;
mod primitives;

pub(crate) use primitives::*;

use crate::frameworks::common::Output;
use crate::frameworks::jax::{Config, Jax};
use crate::policy::Policy;
use crate::policy::TypedLattice;
use crate::types::DType;
use crate::types::ErrorKind;
use crate::types::PromotionError;
use crate::types::Typed;
use crate::types::{ArrayCall, ArrayOp, Outcome};
use crate::types::{Call, Elsewhere, Op, OpForm, Operand, OperandKind, TypeSpec};

/// `lax.add`, whose rules are this policy's promotion.
const ADD: Primitive = match primitives::primitive(Op::Add) {
    Some(primitive) => primitive,
    None => panic!("lax has add"),
};

/// `jax.lax.add` under JAX's x64 setting (the promotion setting does not
/// matter: lax promotes nothing).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct JaxLax {
    jax: Jax,
}

impl JaxLax {
    /// lax under `config`.
    pub fn new(config: Config) -> JaxLax {
        JaxLax {
            jax: Jax::new(config),
        }
    }

    /// The dtype and weak flag of `jax.lax.add(a, b)`.
    fn add_pair(&self, a: Operand, b: Operand) -> Result<Typed, PromotionError> {
        self.result_type(&[a, b])
    }

    /// The array JAX makes of an operand at `position`.
    /// An operand as the primitive `name` reads it: an array (of the
    /// dtype the configuration keeps), a Python scalar as a weak array of
    /// JAX's default dtype of its kind.
    fn array(
        &self,
        name: &str,
        operand: &Operand,
        position: usize,
    ) -> Result<Typed, PromotionError> {
        match operand.kind() {
            OperandKind::DType(dtype)
            | OperandKind::ZeroDim(dtype)
            | OperandKind::Array { dtype, .. }
                if !super::lattice::is_jax_dtype(dtype) =>
            {
                Err(super::promotion::lacks(dtype))
            }
            OperandKind::DType(dtype) | OperandKind::ZeroDim(dtype) => {
                Ok(Typed::strong(self.jax.canonicalize_dtype(dtype)))
            }
            OperandKind::Array { dtype, weak } => Ok(Typed {
                dtype: self.jax.canonicalize_dtype(dtype),
                weak,
            }),
            OperandKind::None => Err(PromotionError::framework(
                ErrorKind::Type,
                format!(
                "Error interpreting argument to {name} as a JAX value. The problematic value is \
                 of type <class 'NoneType'> and was passed to {name} at position {position}.\n"
            ),
            )),
            _ => self.jax.asarray(*operand),
        }
    }

    /// `lax.<primitive>(*operands)`: the operands read as arrays, each
    /// checked against the classes the primitive takes at its position,
    /// then (for two) the same dtype; weak only when every operand is.
    fn apply(&self, primitive: Primitive, operands: &[Operand]) -> Result<Typed, PromotionError> {
        let name = primitive.name;
        let unary = primitive.arity == 1;
        let expected = primitive.arity;
        if operands.len() != expected {
            return Err(arguments(name, operands.len(), expected));
        }
        let mut arrays = Vec::with_capacity(2);
        for (position, operand) in operands.iter().enumerate() {
            arrays.push(self.array(name, operand, position)?);
        }
        for (position, array) in arrays.iter().enumerate() {
            let classes = primitive.accepts[position];
            if !primitives::takes(classes, array.dtype) {
                let position = (!unary).then_some(position);
                return Err(primitives::refused(name, classes, array.dtype, position));
            }
        }
        let weak = arrays.iter().all(|a| a.weak);
        let first = arrays[0].dtype;
        if let [_, b] = arrays[..] {
            let same = first == b.dtype;
            // `lax.pow` takes an integer exponent of any width.
            let pow_integer = name == "pow" && b.dtype.is_integer();
            if name == "pow" && !same && !pow_integer {
                return Err(PromotionError::framework(
                    ErrorKind::Type,
                    format!(
                        "the first argument to pow must have an inexact dtype (float or complex), \
                     and the second argument must have an inexact or integer dtype, and two \
                     inexact dtypes must match, but got {first} and {} respectively.",
                        b.dtype
                    ),
                ));
            }
            if !same && !pow_integer {
                let tip = primitive.tip.map_or(String::new(), |f| {
                    format!(
                        " (Tip: jnp.{f} is a similar function that does automatic type \
                         promotion on inputs)."
                    )
                });
                return Err(PromotionError::framework(
                    ErrorKind::Type,
                    format!(
                    "lax.{name} requires arguments to have the same dtypes, got {first}, {}.{tip}",
                    b.dtype
                ),
                ));
            }
        }
        let dtype = match primitive.gives {
            Output::Same => first,
            Output::Bool => DType::Bool,
            // `lax.abs` takes `int1` as `int8` and refuses the other
            // narrow signed integers.
            Output::RealPart => match first {
                DType::Int1 => DType::Int8,
                DType::Int2 | DType::Int4 => return Err(primitives::narrow_abs(first)),
                other => other.real_part(),
            },
        };
        Ok(Typed { dtype, weak })
    }
}

/// Python's complaint about the number of arguments of `lax.<name>`
/// (`x`, or `x` and `y`).
fn arguments(name: &str, count: usize, expected: usize) -> PromotionError {
    PromotionError::framework(
        ErrorKind::Type,
        match (expected, count) {
            (2, 0) => format!("{name}() missing 2 required positional arguments: 'x' and 'y'"),
            (2, 1) => format!("{name}() missing 1 required positional argument: 'y'"),
            (1, 0) => format!("{name}() missing 1 required positional argument: 'x'"),
            (1, n) => format!("{name}() takes 1 positional argument but {n} were given"),
            (_, n) => format!("{name}() takes 2 positional arguments but {n} were given"),
        },
    )
}

impl Policy for JaxLax {
    fn name(&self) -> String {
        let x64 = if self.jax.config().x64 {
            "x64"
        } else {
            "x64 off"
        };
        format!("jax-lax ({x64})")
    }

    /// Two dtypes "promote" only to themselves: `lax.add` on arrays of
    /// them (Python's types as scalars of them).
    fn promote_types(&self, a: TypeSpec, b: TypeSpec) -> Result<DType, PromotionError> {
        self.add_pair(a.into(), b.into()).map(|typed| typed.dtype)
    }

    /// `lax.add(*operands)`: two operands of one dtype.
    ///
    /// ```
    /// use dtype_lattice::frameworks::jax::Config;
    /// use dtype_lattice::frameworks::jax::lax::JaxLax;
    /// use dtype_lattice::{DType, Operand, Policy, Typed};
    /// let lax = JaxLax::new(Config::default());
    /// let err = lax.result_type(&[Operand::dtype(DType::Bool); 2]).unwrap_err();
    /// assert!(err.to_string().starts_with("add does not accept dtype bool at position 0."));
    /// ```
    fn result_type(&self, operands: &[Operand]) -> Result<Typed, PromotionError> {
        self.apply(ADD, operands)
    }

    fn lattice(&self) -> Option<&TypedLattice> {
        None
    }

    /// Every dtype but PyTorch's `complex32`.
    fn is_native(&self, dtype: DType) -> bool {
        super::lattice::is_jax_dtype(dtype)
    }

    /// `lax.<primitive>` of the operation, where `lax` has one (it has no
    /// `floor_divide` or `logical_and`): `lax.sub`, `lax.lt`, `lax.sqrt`...
    ///
    /// ```
    /// use dtype_lattice::frameworks::jax::Config;
    /// use dtype_lattice::frameworks::jax::lax::JaxLax;
    /// use dtype_lattice::{DType, Op, Operand, Policy, Typed};
    ///
    /// let lax = JaxLax::new(Config::default());
    /// let x = Operand::array(DType::Float32, false);
    /// let n = Operand::array(DType::Int8, false);
    /// assert_eq!(lax.operation(Op::Power, &[x, n]), Some(Ok(Typed::strong(DType::Float32))));
    /// let err = lax.operation(Op::Less, &[x, n]).unwrap().unwrap_err();
    /// assert_eq!(err.to_string(), "lax.lt requires arguments to have the same dtypes, got float32, int8.");
    /// assert_eq!(lax.operation(Op::FloorDivide, &[x, x]), None);
    /// ```
    fn operation(&self, op: Op, operands: &[Operand]) -> Option<Result<Typed, PromotionError>> {
        Some(self.apply(primitives::primitive(op)?, operands))
    }

    /// `lax.reduce_sum`, `lax.dot`, `lax.select`, ...: the operations
    /// `lax` has a function for (`array_ops.rs`), `None` for the rest.
    fn array_op(
        &self,
        call: &ArrayCall,
        operands: &[Operand],
    ) -> Option<Result<Outcome, PromotionError>> {
        array_ops::array_op(self, *call, operands)
    }

    fn describe_array_op(&self, op: ArrayOp) -> Option<String> {
        array_ops::describe(op)
    }

    /// Every form but the function is the `jax` policy's: `jax.lax` is a
    /// module of functions, and `a + b`, `a += b` and `a[...] = v` on the
    /// arrays they return are `jax.Array`'s, which call `jax.numpy`.
    ///
    /// ```
    /// use dtype_lattice::frameworks::jax::lax::JaxLax;
    /// use dtype_lattice::{Call, OpForm, Op, Policy};
    /// let lax = JaxLax::default();
    /// let minus = Call::new(Some(Op::Negative), OpForm::Operator).unwrap();
    /// assert_eq!(lax.answered_by(minus).unwrap().policy, "jax");
    /// assert!(lax.answered_by(Call::new(Some(Op::Add), OpForm::Function).unwrap()).is_none());
    /// ```
    fn answered_by(&self, call: Call) -> Option<Elsewhere> {
        (call.form() != OpForm::Function).then_some(Elsewhere {
            policy: "jax",
            why: "jax.lax is a module of functions, and operators, in-place operators and \
                  assignment on the arrays they return are jax.Array's, which call jax.numpy \
                  (with the same x64 setting)",
        })
    }

    /// `None` where `lax` has no primitive for `op`, as
    /// [`operation`](Policy::operation) answers.
    fn describe_operation(&self, op: Op) -> Option<String> {
        let primitive = primitives::primitive(op)?;
        let name = primitive.name;
        let classes = |position: usize| {
            let names: Vec<&str> = primitive.accepts[position]
                .iter()
                .map(|class| class.name())
                .collect();
            names.join(", ")
        };
        let takes = match (primitive.arity, name) {
            (1, _) => format!("an array of a subtype of {}", classes(0)),
            (_, "pow") => format!(
                "a base of a subtype of {} and an exponent of a subtype of {}: an integer \
                 exponent of any width, an inexact one of the base's dtype",
                classes(0),
                classes(1)
            ),
            _ => format!("two arrays of one dtype, a subtype of {}", classes(0)),
        };
        let gives = match primitive.gives {
            Output::Same => "the operands' dtype",
            Output::Bool => "bool",
            Output::RealPart => "the operand's dtype, a complex one's part type",
        };
        Some(format!(
            "lax.{name}: no promotion; a Python scalar is a weak array of JAX's default dtype \
             of its kind, and a 64-bit dtype is its 32-bit counterpart with x64 off; takes \
             {takes}; the result is {gives}, weak only when every operand is"
        ))
    }
}
