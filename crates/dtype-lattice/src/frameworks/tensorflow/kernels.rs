//! TensorFlow's kernels for the operations, as data: the types each op's
//! registration lists for its attribute `T` (what "Value for attr 'T' of
//! bool is not in the list of allowed values: ..." prints, in the
//! registration's order), the types that have a CPU kernel, and the checks
//! eager execution makes before and while it runs one.
//!
//! TensorFlow 2.21's `op_def_registry` and `kernels.get_registered_kernels_for_op`
//! give the lists. Most ops have a CPU kernel for every type their
//! registration allows; `Equal` and `NotEqual` allow every type but have no
//! kernel for the narrow ones, `FloorDiv` none for complex numbers,
//! `RealDiv` none for integers: those raise `NotFoundError` with the
//! registry's listing, kept here as TensorFlow prints it.

use super::Value;
use crate::prelude::*;
use crate::types::{DType, ErrorKind, Kind, PromotionError};

/// The types a kernel's inputs take.
#[derive(Clone, Copy, Debug)]
pub(super) enum Inputs {
    /// One type `T` for every input, among these (every type where
    /// `None`); the first input's type sets it.
    Attr(Option<&'static [DType]>),
    /// This type for every input (`LogicalAnd`'s `bool`).
    Fixed(DType),
}

/// The devices with a kernel for each allowed type.
#[derive(Clone, Copy, Debug)]
pub(super) enum Devices {
    /// A CPU kernel for every type the registration allows.
    Every,
    /// The registry's listing, line by line: a type has a CPU kernel where
    /// a line `device='CPU'; T in [DT_...]` names it.
    Listed(&'static [&'static str]),
}

/// The result's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Output {
    /// `T`.
    Same,
    /// `bool` (the comparisons, `LogicalAnd`).
    Bool,
}

/// A kernel's own check of the values it computes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Check {
    None,
    /// `Pow`: an integer base to a negative integer power.
    NegativePower,
    /// `FloorDiv`, `FloorMod`: an integer divisor of zero.
    DivisionByZero,
}

/// One TensorFlow op and its kernels.
#[derive(Clone, Copy, Debug)]
pub(super) struct Kernel {
    /// The op's name (`AddV2`), in every message.
    pub(super) name: &'static str,
    /// The signature `Op<...>` prints.
    pub(super) signature: &'static str,
    pub(super) inputs: Inputs,
    /// Quantized types the registration lists after the others
    /// (`Relu`'s `qint8`), which have no [`DType`] here.
    pub(super) quantized: &'static [&'static str],
    /// The flags `Op<...>` prints after the attribute.
    pub(super) traits: &'static str,
    /// The node's other attributes, as `NotFoundError` prints the node.
    pub(super) node_attrs: &'static str,
    pub(super) devices: Devices,
    pub(super) output: Output,
    pub(super) check: Check,
    /// Where the registration is not one list of `T` and flags (the
    /// reductions' `keep_dims` before it, quantized types among the
    /// others): the allowed values and the `Op<...>` text as TensorFlow
    /// prints them.
    pub(super) registration: Option<(&'static str, &'static str)>,
    /// The node's attributes `NotFoundError` prints before `T` (`N=2, `).
    pub(super) node_before: &'static str,
    /// The node's name the fast path prints after `name: ` (`tf.concat`'s
    /// `concat`); empty where the call passes none.
    pub(super) node_name: &'static str,
    /// The types whose node oneDNN rewrites to `_Mkl<name>`, which a
    /// mismatch of inputs names.
    pub(super) mkl: &'static [DType],
    /// The position of the first input of type `T` (`SelectV2`'s
    /// condition comes before).
    pub(super) first_input: usize,
}

use DType::{
    BFloat16 as BF16, Complex128 as C128, Complex64 as C64, Float16 as F16, Float32 as F32,
    Float64 as F64, Int16 as I16, Int32 as I32, Int64 as I64, Int8 as I8, UInt16 as U16,
    UInt32 as U32, UInt64 as U64, UInt8 as U8,
};

const BINARY: &str = "x:T, y:T -> z:T";
const COMPARE: &str = "x:T, y:T -> z:bool";
const UNARY: &str = "x:T -> y:T";
const COMMUTATIVE: &str = "; is_commutative=true";

pub(super) const fn kernel(
    name: &'static str,
    signature: &'static str,
    allowed: &'static [DType],
    traits: &'static str,
) -> Kernel {
    Kernel {
        name,
        signature,
        inputs: Inputs::Attr(Some(allowed)),
        quantized: &[],
        traits,
        node_attrs: "",
        devices: Devices::Every,
        output: Output::Same,
        check: Check::None,
        registration: None,
        node_before: "",
        node_name: "",
        mkl: &[],
        first_input: 0,
    }
}

const fn compare(name: &'static str) -> Kernel {
    Kernel {
        output: Output::Bool,
        ..kernel(name, COMPARE, ORDERED, "")
    }
}

/// The types `Mul`, `RealDiv` and `FloorDiv` register.
const ARITHMETIC: &[DType] = &[
    BF16, F16, F32, F64, U8, I8, U16, I16, I32, U32, U64, I64, C64, C128,
];
/// The types `Less` and the other ordering comparisons register.
const ORDERED: &[DType] = &[F32, F64, I32, U8, I16, I8, I64, BF16, U16, F16, U32, U64];
/// The types the bitwise ops register.
const INTEGERS: &[DType] = &[I8, I16, I32, I64, U8, U16, U32, U64];
/// The types `Neg` and `Sign` register.
const SIGNED: &[DType] = &[BF16, F16, F32, F64, I8, I16, I32, I64, C64, C128];
/// The types `Sqrt` and `Exp` register.
const INEXACT: &[DType] = &[BF16, F16, F32, F64, C64, C128];
/// The types `Floor` registers.
const FLOATS: &[DType] = &[BF16, F16, F32, F64];

/// The XLA line of the listings of `FloorDiv` and `RealDiv`.
const XLA_ARITHMETIC: &str = "device='XLA_CPU_JIT'; T in [DT_FLOAT, DT_DOUBLE, DT_INT32, \
     DT_UINT8, DT_INT16, DT_INT8, DT_COMPLEX64, DT_INT64, DT_BFLOAT16, DT_UINT16, DT_COMPLEX128, \
     DT_HALF, DT_UINT32, DT_UINT64]";
/// The XLA line of the listings of `Equal` and `NotEqual`.
const XLA_EQUALITY: &str = "device='XLA_CPU_JIT'; T in [DT_FLOAT, DT_DOUBLE, DT_INT32, \
     DT_UINT8, DT_INT16, DT_INT8, DT_COMPLEX64, DT_INT64, DT_BOOL, DT_QINT8, DT_QUINT8, \
     DT_QINT32, DT_BFLOAT16, DT_UINT16, DT_COMPLEX128, DT_HALF, DT_UINT32, DT_UINT64, \
     DT_FLOAT8_E5M2, DT_FLOAT8_E4M3FN, DT_FLOAT8_E4M3FNUZ, DT_FLOAT8_E4M3B11FNUZ, \
     DT_FLOAT8_E5M2FNUZ, DT_INT4, DT_UINT4]";
const DEFAULT_INT32: &str = "device='DEFAULT'; T in [DT_INT32]";

/// `Equal`'s and `NotEqual`'s CPU kernels, in the registry's order.
macro_rules! equality_cpu {
    () => {
        [
            "device='CPU'; T in [DT_BOOL]",
            "device='CPU'; T in [DT_STRING]",
            "device='CPU'; T in [DT_COMPLEX128]",
            "device='CPU'; T in [DT_COMPLEX64]",
            "device='CPU'; T in [DT_INT64]",
            "device='CPU'; T in [DT_INT32]",
            "device='CPU'; T in [DT_QINT32]",
            "device='CPU'; T in [DT_QUINT16]",
            "device='CPU'; T in [DT_QUINT8]",
            "device='CPU'; T in [DT_QINT16]",
            "device='CPU'; T in [DT_QINT8]",
            "device='CPU'; T in [DT_UINT64]",
            "device='CPU'; T in [DT_UINT32]",
            "device='CPU'; T in [DT_UINT16]",
            "device='CPU'; T in [DT_BFLOAT16]",
            "device='CPU'; T in [DT_INT16]",
            "device='CPU'; T in [DT_INT8]",
            "device='CPU'; T in [DT_UINT8]",
            "device='CPU'; T in [DT_DOUBLE]",
            "device='CPU'; T in [DT_HALF]",
            "device='CPU'; T in [DT_FLOAT]",
        ]
    };
}

const fn equality(name: &'static str, listing: &'static [&'static str]) -> Kernel {
    Kernel {
        name,
        signature: COMPARE,
        inputs: Inputs::Attr(None),
        quantized: &[],
        traits: COMMUTATIVE,
        node_attrs: ", incompatible_shape_error=true",
        devices: Devices::Listed(listing),
        output: Output::Bool,
        check: Check::None,
        registration: None,
        node_before: "",
        node_name: "",
        mkl: &[],
        first_input: 0,
    }
}

/// The kernels of `==` and `!=` on tensors (`tensor_equals`), which
/// compare with `incompatible_shape_error=False`.
pub(super) const TENSOR_EQUAL: Kernel = Kernel {
    node_attrs: ", incompatible_shape_error=false",
    ..EQUAL
};
pub(super) const TENSOR_NOT_EQUAL: Kernel = Kernel {
    node_attrs: ", incompatible_shape_error=false",
    ..NOT_EQUAL
};

const EQUAL_LISTING: [&str; 23] = {
    let cpu = equality_cpu!();
    let mut lines = [XLA_EQUALITY; 23];
    let mut i = 0;
    while i < cpu.len() {
        lines[i + 1] = cpu[i];
        i += 1;
    }
    lines[22] = DEFAULT_INT32;
    lines
};
const NOT_EQUAL_LISTING: [&str; 23] = {
    let cpu = equality_cpu!();
    let mut lines = [XLA_EQUALITY; 23];
    lines[1] = DEFAULT_INT32;
    let mut i = 0;
    while i < cpu.len() {
        lines[i + 2] = cpu[i];
        i += 1;
    }
    lines
};

pub(super) const ADD_V2: Kernel = kernel(
    "AddV2",
    BINARY,
    &[
        BF16, F16, F32, F64, U8, U16, U32, U64, I8, I16, I32, I64, C64, C128,
    ],
    "; is_commutative=true; is_aggregate=true",
);
pub(super) const SUB: Kernel = kernel(
    "Sub",
    BINARY,
    &[
        BF16, F16, F32, F64, U8, I8, U16, I16, I32, I64, C64, C128, U32, U64,
    ],
    "",
);
pub(super) const MUL: Kernel = kernel("Mul", BINARY, ARITHMETIC, COMMUTATIVE);
pub(super) const REAL_DIV: Kernel = Kernel {
    devices: Devices::Listed(&[
        XLA_ARITHMETIC,
        "device='CPU'; T in [DT_COMPLEX128]",
        "device='CPU'; T in [DT_COMPLEX64]",
        "device='CPU'; T in [DT_BFLOAT16]",
        "device='CPU'; T in [DT_DOUBLE]",
        "device='CPU'; T in [DT_HALF]",
        "device='CPU'; T in [DT_FLOAT]",
    ]),
    ..kernel("RealDiv", BINARY, ARITHMETIC, "")
};
pub(super) const FLOOR_DIV: Kernel = Kernel {
    devices: Devices::Listed(&[
        XLA_ARITHMETIC,
        DEFAULT_INT32,
        "device='CPU'; T in [DT_DOUBLE]",
        "device='CPU'; T in [DT_BFLOAT16]",
        "device='CPU'; T in [DT_HALF]",
        "device='CPU'; T in [DT_FLOAT]",
        "device='CPU'; T in [DT_INT64]",
        "device='CPU'; T in [DT_INT32]",
        "device='CPU'; T in [DT_INT16]",
        "device='CPU'; T in [DT_INT8]",
        "device='CPU'; T in [DT_UINT64]",
        "device='CPU'; T in [DT_UINT32]",
        "device='CPU'; T in [DT_UINT16]",
        "device='CPU'; T in [DT_UINT8]",
    ]),
    check: Check::DivisionByZero,
    ..kernel("FloorDiv", BINARY, ARITHMETIC, "")
};
pub(super) const FLOOR_MOD: Kernel = Kernel {
    check: Check::DivisionByZero,
    ..kernel(
        "FloorMod",
        BINARY,
        &[I8, I16, I32, I64, U8, U16, U32, U64, BF16, F16, F32, F64],
        "",
    )
};
pub(super) const POW: Kernel = Kernel {
    check: Check::NegativePower,
    ..kernel(
        "Pow",
        BINARY,
        &[BF16, F32, F16, F64, I8, I16, I32, I64, C64, C128],
        "",
    )
};
pub(super) const MAXIMUM: Kernel = kernel(
    "Maximum",
    BINARY,
    &[BF16, F16, F32, F64, I8, U8, I16, U16, I32, U32, I64, U64],
    "",
);
/// `Minimum`, which `tf.clip_by_value` calls with the upper bound.
pub(super) const MINIMUM: Kernel = Kernel {
    name: "Minimum",
    ..MAXIMUM
};
pub(super) const EQUAL: Kernel = equality("Equal", &EQUAL_LISTING);
pub(super) const NOT_EQUAL: Kernel = equality("NotEqual", &NOT_EQUAL_LISTING);
pub(super) const LESS: Kernel = compare("Less");
pub(super) const LESS_EQUAL: Kernel = compare("LessEqual");
pub(super) const GREATER: Kernel = compare("Greater");
pub(super) const GREATER_EQUAL: Kernel = compare("GreaterEqual");
pub(super) const BITWISE_AND: Kernel = kernel("BitwiseAnd", BINARY, INTEGERS, COMMUTATIVE);
pub(super) const BITWISE_OR: Kernel = kernel("BitwiseOr", BINARY, INTEGERS, COMMUTATIVE);
pub(super) const BITWISE_XOR: Kernel = kernel("BitwiseXor", BINARY, INTEGERS, COMMUTATIVE);
pub(super) const LOGICAL_AND: Kernel = Kernel {
    inputs: Inputs::Fixed(DType::Bool),
    output: Output::Bool,
    ..kernel("LogicalAnd", "x:bool, y:bool -> z:bool", &[], COMMUTATIVE)
};
/// `LogicalOr`, which the operators `|` and `^` call on a bool tensor.
pub(super) const LOGICAL_OR: Kernel = Kernel {
    inputs: Inputs::Fixed(DType::Bool),
    output: Output::Bool,
    ..kernel("LogicalOr", "x:bool, y:bool -> z:bool", &[], COMMUTATIVE)
};
pub(super) const NEG: Kernel = kernel("Neg", UNARY, SIGNED, "");
pub(super) const ABS: Kernel = kernel("Abs", UNARY, &[BF16, F16, F32, F64, I8, I16, I32, I64], "");
pub(super) const SIGN: Kernel = kernel("Sign", UNARY, SIGNED, "");
pub(super) const SQRT: Kernel = kernel("Sqrt", UNARY, INEXACT, "");
pub(super) const EXP: Kernel = kernel("Exp", UNARY, INEXACT, "");
pub(super) const FLOOR: Kernel = kernel("Floor", UNARY, FLOATS, "");
/// `tf.nn.relu`'s op, which `tnp.maximum(x, 0)` calls.
pub(super) const RELU: Kernel = Kernel {
    quantized: &["qint8"],
    ..kernel(
        "Relu",
        "features:T -> activations:T",
        &[F32, F64, I32, U8, I16, I8, I64, BF16, U16, F16, U32, U64],
        "",
    )
};

/// TensorFlow's C++ name of a dtype (`DataTypeString`), as kernel and
/// conversion messages print it.
pub(super) fn cpp_name(dtype: DType) -> &'static str {
    match dtype {
        DType::Float16 => "half",
        DType::Float32 => "float",
        DType::Float64 => "double",
        other => other.name(),
    }
}

/// The dtype's `DataType` enum name: `DT_HALF`, `DT_INT8`.
pub(super) fn enum_name(dtype: DType) -> String {
    format!("DT_{}", cpp_name(dtype).to_uppercase())
}

/// What the eager fast path (`TFE_Py_FastPathExecute`) appends to an op's
/// error: `name: ` and the op's name, which these calls leave `None`
/// (empty). The Python fallback's `execute` appends nothing without a
/// name.
pub(super) fn suffix(fast: bool) -> &'static str {
    if fast {
        " name: "
    } else {
        ""
    }
}

impl Kernel {
    /// Eager execution on tensors of `dtypes` that hold `values` (a
    /// tensor holds ones, a converted Python scalar its value), in
    /// TensorFlow's order: the first input's type against the attribute's
    /// list, then a CPU kernel for it, then every input's type against it,
    /// then the kernel's own check of the values. `fast` says whether the
    /// call went through the fast path, which names the node in errors.
    pub(super) fn run(
        &self,
        dtypes: &[DType],
        values: &[Value],
        fast: bool,
    ) -> Result<DType, PromotionError> {
        let t = match self.inputs {
            Inputs::Fixed(dtype) => dtype,
            Inputs::Attr(_) => {
                self.check_type(dtypes[0], fast)?;
                dtypes[0]
            }
        };
        if let Some(i) = dtypes.iter().position(|&dtype| dtype != t) {
            let node = if self.mkl.contains(&t) {
                format!("_Mkl{}", self.name)
            } else {
                self.name.to_owned()
            };
            return Err(PromotionError::framework(
                ErrorKind::InvalidArgument,
                format!(
                    "cannot compute {node} as input #{}(zero-based) was expected to be a {} tensor \
                     but is a {} tensor [Op:{}]{}",
                    i + self.first_input,
                    cpp_name(t),
                    cpp_name(dtypes[i]),
                    self.name,
                    self.suffix(fast)
                ),
            ));
        }
        self.check_values(t, values, fast)?;
        Ok(match self.output {
            Output::Same => t,
            Output::Bool => DType::Bool,
        })
    }

    /// Whether the op takes `T = dtype`: in its registration's list, then
    /// with a CPU kernel.
    pub(super) fn check_type(&self, dtype: DType, fast: bool) -> Result<(), PromotionError> {
        let allowed = match (self.registration, self.inputs) {
            (Some((names, _)), _) => names.split(", ").any(|name| name == cpp_name(dtype)),
            (None, Inputs::Attr(Some(allowed))) => allowed.contains(&dtype),
            (None, _) => true,
        };
        if !allowed {
            return Err(self.not_allowed("T", dtype, fast));
        }
        if let Devices::Listed(lines) = self.devices {
            let cpu = format!("device='CPU'; T in [{}]", enum_name(dtype));
            // `Fill`'s lines name its `index_type` after `T`.
            let has = lines.iter().any(|line| {
                line.strip_prefix(cpu.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with(';'))
            });
            if !has {
                let listing: String = lines.iter().map(|line| format!("  {line}\n")).collect();
                return Err(PromotionError::framework(
                    ErrorKind::NotFound,
                    format!(
                        "Could not find device for node: {{{{node {name}}}}} = \
                         {name}[{}T={}{}]\n\
                         All kernels registered for op {name}:\n{listing} [Op:{name}]{}",
                        self.node_before,
                        enum_name(dtype),
                        self.node_attrs,
                        self.suffix(fast),
                        name = self.name,
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The registration's refusal of `dtype` for the type attribute
    /// `attr` (`T`; `SparseMatMul`'s `Ta` and `Tb`).
    pub(super) fn not_allowed(&self, attr: &str, dtype: DType, fast: bool) -> PromotionError {
        let (names, op) = match self.registration {
            Some((names, op)) => (names.to_owned(), op.to_owned()),
            None => {
                let allowed: &[DType] = match self.inputs {
                    Inputs::Attr(Some(allowed)) => allowed,
                    Inputs::Attr(None) | Inputs::Fixed(_) => &[],
                };
                let mut names: Vec<&str> = allowed.iter().map(|&d| cpp_name(d)).collect();
                let mut enums: Vec<String> = allowed.iter().map(|&d| enum_name(d)).collect();
                names.extend(self.quantized);
                enums.extend(
                    self.quantized
                        .iter()
                        .map(|q| format!("DT_{}", q.to_uppercase())),
                );
                let op = format!(
                    "Op<name={}; signature={}; attr=T:type,allowed=[{}]{}>",
                    self.name,
                    self.signature,
                    enums.join(", "),
                    self.traits
                );
                (names.join(", "), op)
            }
        };
        PromotionError::framework(
            ErrorKind::InvalidArgument,
            format!(
                "Value for attr '{attr}' of {} is not in the list of allowed values: {names}\n\t; \
                 NodeDef: {{{{node {name}}}}}; {op} [Op:{name}]{}",
                cpp_name(dtype),
                self.suffix(fast),
                name = self.name,
            ),
        )
    }

    /// What the call appends to an error: [`suffix`], and the node's name
    /// where the fast path was given one.
    fn suffix(&self, fast: bool) -> String {
        if fast {
            format!("{}{}", suffix(fast), self.node_name)
        } else {
            String::new()
        }
    }

    /// The kernel's own check of what it computes on: the second input
    /// (exponent, divisor) matters, and only a Python scalar can hold
    /// anything but ones.
    fn check_values(&self, t: DType, values: &[Value], fast: bool) -> Result<(), PromotionError> {
        let held = values.get(1).and_then(|&value| held_integer(value, t));
        let message = match (self.check, held) {
            (Check::NegativePower, Some(n)) if n < 0 && t.kind() == Kind::Signed => {
                "Integers to negative integer powers are not allowed"
            }
            (Check::DivisionByZero, Some(0)) => "Integer division by zero",
            _ => return Ok(()),
        };
        Err(PromotionError::framework(
            ErrorKind::InvalidArgument,
            format!(
                "{{{{function_node __wrapped__{name}_device_/job:localhost/replica:0/task:0/\
                 device:CPU:0}}}} {message} [Op:{name}]{}",
                suffix(fast),
                name = self.name,
            ),
        ))
    }
}

/// The integer a Python scalar holds once converted to the integer dtype
/// `dtype` (wrapped, as the conversion's cast wraps); `None` for a tensor,
/// which holds ones, and for a dtype that is no integer.
fn held_integer(value: Value, dtype: DType) -> Option<i128> {
    let value = match value {
        Value::Int(value) => value,
        Value::Bool(value) => i128::from(value),
        _ => return None,
    };
    if !dtype.is_integer() {
        return None;
    }
    let modulus = 1_i128 << dtype.bits();
    let wrapped = value.rem_euclid(modulus);
    Some(if dtype.kind() == Kind::Signed && wrapped >= modulus / 2 {
        wrapped - modulus
    } else {
        wrapped
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_listings_have_a_cpu_kernel_for_the_usual_types_only() {
        for kernel in [&EQUAL, &NOT_EQUAL] {
            assert!(kernel.check_type(DType::Int8, true).is_ok());
            assert!(kernel.check_type(DType::Bool, true).is_ok());
            let err = kernel.check_type(DType::Int4, true).unwrap_err();
            assert_eq!(err.python_type(), "NotFoundError");
        }
        assert!(FLOOR_DIV.check_type(DType::Complex64, false).is_err());
        assert!(REAL_DIV.check_type(DType::Int32, false).is_err());
        assert!(REAL_DIV.check_type(DType::Float16, false).is_ok());
    }

    #[test]
    fn converted_scalars_hold_their_wrapped_values() {
        assert_eq!(held_integer(Value::Int(255), DType::Int8), Some(-1));
        assert_eq!(held_integer(Value::Int(256), DType::UInt8), Some(0));
        assert_eq!(held_integer(Value::Int(-1), DType::UInt16), Some(65535));
        assert_eq!(held_integer(Value::Bool(false), DType::Int32), Some(0));
        assert_eq!(held_integer(Value::Int(2), DType::Float32), None);
    }
}
