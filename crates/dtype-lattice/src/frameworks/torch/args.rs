//! PyTorch's Python argument parser, as far as it decides which call is
//! made and what a wrong one raises.
//!
//! Each Python function (`torch.add`, `torch.pow`, `torch.result_type`) has
//! one or more signatures, tried in order; the first whose parameters accept
//! the arguments is called. A `Tensor` parameter takes a tensor (and, for
//! the few functions that allow numbers as tensors, a Python number too); a
//! `Number` parameter takes a Python number. When none fits, the parser
//! raises a `TypeError` whose text depends on how many signatures there are
//! and how many of them could take that many arguments: [`parse`] reproduces
//! it (messages measured on PyTorch 2.15).

use crate::prelude::*;
use crate::types::{ErrorKind, Operand, OperandKind, PromotionError};

/// What a positional parameter takes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Type {
    Tensor,
    Number,
}

impl Type {
    fn name(self) -> &'static str {
        match self {
            Type::Tensor => "Tensor",
            Type::Number => "Number",
        }
    }
}

/// One signature: its positional parameters, the keyword-only ones as the
/// parser prints them (`Tensor out = None`), and whether it is hidden (a
/// deprecated overload, tried but never listed).
pub(super) struct Signature {
    pub(super) params: &'static [(Type, &'static str)],
    pub(super) keyword: &'static [&'static str],
    pub(super) hidden: bool,
}

/// A Python function's parser: its name in messages, its signatures in the
/// order they are tried, and whether its `Tensor` parameters take Python
/// numbers (PyTorch allows that for `add`, `sub`, `mul`, `true_divide`,
/// `floor_divide` and their aliases only).
pub(super) struct Parser {
    pub(super) name: &'static str,
    pub(super) signatures: &'static [Signature],
    pub(super) numbers_as_tensors: bool,
}

/// A signature listed, with `Tensor out = None` if `out`.
pub(super) const fn signature(params: &'static [(Type, &'static str)], out: bool) -> Signature {
    Signature {
        params,
        keyword: if out { &["Tensor out = None"] } else { &[] },
        hidden: false,
    }
}

impl Signature {
    /// The parameters as the parser prints them:
    /// `(Tensor input, Tensor other, *, Tensor out = None)`.
    fn text(&self) -> String {
        let mut parts: Vec<String> = self
            .params
            .iter()
            .map(|(ty, name)| format!("{} {name}", ty.name()))
            .collect();
        if !self.keyword.is_empty() {
            parts.push("*".to_owned());
            parts.extend(self.keyword.iter().map(|k| (*k).to_owned()));
        }
        format!("({})", parts.join(", "))
    }

    /// How many entries the printed signature has, `*` included: the
    /// parser explains a mismatch only for a signature with as many
    /// entries as there are arguments (measured).
    fn entries(&self) -> usize {
        let keyword = if self.keyword.is_empty() {
            0
        } else {
            1 + self.keyword.len()
        };
        self.params.len() + keyword
    }

    /// Whether it can take `n` arguments: all its positional parameters
    /// are required, its keyword-only ones optional.
    fn is_plausible(&self, n: usize) -> bool {
        !self.hidden && n >= self.params.len() && n <= self.params.len() + self.keyword.len()
    }
}

/// The Python class's name PyTorch's messages give an operand.
pub(super) fn python_class(operand: &Operand) -> &'static str {
    match operand.kind() {
        OperandKind::DType(_) | OperandKind::ZeroDim(_) | OperandKind::Array { .. } => "Tensor",
        OperandKind::PyType(scalar) => scalar.name(),
        OperandKind::PyInt(_) => "int",
        OperandKind::PyFloat(_) => "float",
        OperandKind::PyComplex { .. } => "complex",
        OperandKind::PyBool(_) => "bool",
        OperandKind::None => "NoneType",
    }
}

fn is_tensor(operand: &Operand) -> bool {
    python_class(operand) == "Tensor"
}

fn is_number(operand: &Operand) -> bool {
    !is_tensor(operand) && !operand.is_none()
}

impl Parser {
    fn accepts(&self, ty: Type, operand: &Operand) -> bool {
        match ty {
            Type::Tensor => is_tensor(operand) || (self.numbers_as_tensors && is_number(operand)),
            Type::Number => is_number(operand),
        }
    }

    /// `FunctionSignature::parse`: `Err` with the error it raises (too
    /// many arguments, then each parameter in order: missing, or of the
    /// wrong type).
    fn check(&self, signature: &Signature, args: &[Operand]) -> Result<(), String> {
        let name = self.name;
        let positional = signature.params.len();
        if args.len() > positional {
            let s = if positional == 1 { "" } else { "s" };
            return Err(format!(
                "{name}() takes {positional} positional argument{s} but {} were given",
                args.len()
            ));
        }
        for (i, &(ty, param)) in signature.params.iter().enumerate() {
            let Some(arg) = args.get(i) else {
                let missing: Vec<String> = signature.params[i..]
                    .iter()
                    .map(|(_, p)| format!("\"{p}\""))
                    .collect();
                // PyTorch's plural is backwards: "1 ... arguments".
                let s = if missing.len() == 1 { "s" } else { "" };
                return Err(format!(
                    "{name}() missing {} required positional argument{s}: {}",
                    missing.len(),
                    missing.join(", ")
                ));
            };
            if !self.accepts(ty, arg) {
                return Err(format!(
                    "{name}(): argument '{param}' (position {}) must be {}, not {}",
                    i + 1,
                    ty.name(),
                    python_class(arg)
                ));
            }
        }
        Ok(())
    }

    /// `format_invalid_args`: every listed signature, each explained where
    /// it has as many entries as there are arguments. Its matching is its
    /// own: only a tensor in a positional `Tensor` parameter matches, so
    /// every Python number is marked, even where the parameter is a
    /// `Number`.
    fn invalid_combination(&self, args: &[Operand]) -> String {
        let classes: Vec<&str> = args.iter().map(python_class).collect();
        let listed: Vec<&Signature> = self.signatures.iter().filter(|s| !s.hidden).collect();
        let mut message = format!(
            "{}() received an invalid combination of arguments - got ({}), but expected ",
            self.name,
            classes.join(", ")
        );
        if let [only] = listed[..] {
            message.push_str(&only.text());
            return message;
        }
        message.push_str("one of:\n");
        for signature in listed {
            message.push_str(&format!(" * {}\n", signature.text()));
            if signature.entries() == args.len() {
                let marked: Vec<String> = classes
                    .iter()
                    .enumerate()
                    .map(|(i, &class)| {
                        let tensor = signature.params.get(i).map(|p| p.0) == Some(Type::Tensor);
                        if tensor && class == "Tensor" {
                            class.to_owned()
                        } else {
                            format!("!{class}!")
                        }
                    })
                    .collect();
                message.push_str(&format!(
                    "      didn't match because some of the arguments have invalid types: ({})\n",
                    marked.join(", ")
                ));
            }
        }
        message
    }
}

/// The signature `args` call (its index in `parser.signatures`), or the
/// parser's `TypeError`: with one signature, that signature's own error;
/// with more, none fitting, the error of the one signature that could take
/// that many arguments, or else the list of them all.
pub(super) fn parse(parser: &Parser, args: &[Operand]) -> Result<usize, PromotionError> {
    if let [only] = parser.signatures {
        return parser
            .check(only, args)
            .map(|()| 0)
            .map_err(|message| PromotionError::framework(ErrorKind::Type, message));
    }
    if let Some(found) = parser
        .signatures
        .iter()
        .position(|s| parser.check(s, args).is_ok())
    {
        return Ok(found);
    }
    let plausible: Vec<&Signature> = parser
        .signatures
        .iter()
        .filter(|s| s.is_plausible(args.len()))
        .collect();
    Err(PromotionError::framework(
        ErrorKind::Type,
        match plausible[..] {
            [only] => parser
                .check(only, args)
                .expect_err("no signature accepts the arguments"),
            _ => parser.invalid_combination(args),
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::DType;

    const TENSORS: Signature = signature(&[(Type::Tensor, "input"), (Type::Tensor, "other")], true);
    const MUL: Parser = Parser {
        name: "mul",
        signatures: &[TENSORS],
        numbers_as_tensors: true,
    };

    #[test]
    fn one_signature_raises_its_own_errors() {
        let x = Operand::dtype(DType::Int8);
        let message = |args: &[Operand]| parse(&MUL, args).unwrap_err().to_string();
        assert_eq!(
            message(&[]),
            "mul() missing 2 required positional argument: \"input\", \"other\""
        );
        assert_eq!(
            message(&[x]),
            "mul() missing 1 required positional arguments: \"other\""
        );
        assert_eq!(
            message(&[x, x, x]),
            "mul() takes 2 positional arguments but 3 were given"
        );
        assert_eq!(
            message(&[x, Operand::NONE]),
            "mul(): argument 'other' (position 2) must be Tensor, not NoneType"
        );
        assert_eq!(parse(&MUL, &[Operand::py_int(2), x]), Ok(0));
    }

    #[test]
    fn the_one_plausible_signature_explains_itself() {
        // `torch.add`'s signatures, as the operations' table has them.
        let add = Parser {
            name: "add",
            signatures: super::super::ops::ADD_SUB,
            numbers_as_tensors: true,
        };
        let x = Operand::dtype(DType::Int8);
        let message = |args: &[Operand]| parse(&add, args).unwrap_err().to_string();
        assert_eq!(
            message(&[Operand::NONE, x]),
            "add(): argument 'input' (position 1) must be Tensor, not NoneType"
        );
        assert_eq!(
            message(&[x]),
            "add() received an invalid combination of arguments - got (Tensor), but expected \
             (Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None)"
        );
    }
}
