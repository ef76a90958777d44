//! NumPy 2's "common DType" machinery (NEP 42/50): each DType class answers
//! `__common_dtype__` for another class or declines, and `result_type`
//! reduces a list of classes with NumPy's `PyArray_PromoteDTypeSequence`.
//! The order in which classes are asked matters (NumPy's promotion is not
//! associative), so this follows NumPy's reduction step by step, including
//! which class an error message names.

use core::fmt;

use super::casts::{builtin_promote, can_cast_safely, is_builtin, search_common, type_num};
use crate::prelude::*;
use crate::types::ErrorKind;
use crate::types::PromotionError;
use crate::types::{DType, Kind};

/// A DType class: one of the 32 dtypes, or one of the abstract classes NEP 50
/// gives Python's int, float and complex (weak: they take the other
/// operand's type where they can).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Class {
    DType(DType),
    PyInt,
    PyFloat,
    PyComplex,
}

impl Class {
    /// Built from a dtype of its own, as opposed to a Python scalar type
    /// ("legacy" in NumPy's code).
    fn concrete(self) -> Option<DType> {
        match self {
            Class::DType(dtype) => Some(dtype),
            _ => None,
        }
    }

    /// The dtype NumPy gives an abstract class when nothing else decides.
    pub(super) fn default_dtype(self) -> DType {
        match self {
            Class::DType(dtype) => dtype,
            Class::PyInt => DType::Int64,
            Class::PyFloat => DType::Float64,
            Class::PyComplex => DType::Complex128,
        }
    }
}

impl fmt::Display for Class {
    /// The class's `repr`, as NumPy's messages print it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Class::DType(dtype) if is_builtin(*dtype) => {
                // Int8DType, UInt8DType, Float16DType, BoolDType...
                let name = dtype.name();
                write!(f, "<class 'numpy.dtypes.")?;
                match name.strip_prefix("uint") {
                    Some(bits) => write!(f, "UInt{bits}")?,
                    None => write!(f, "{}{}", name[..1].to_ascii_uppercase(), &name[1..])?,
                }
                write!(f, "DType'>")
            }
            Class::DType(dtype) => write!(f, "<class 'numpy.dtype[{dtype}]'>"),
            Class::PyInt => write!(f, "<class 'numpy.dtypes._PyLongDType'>"),
            Class::PyFloat => write!(f, "<class 'numpy.dtypes._PyFloatDType'>"),
            Class::PyComplex => write!(f, "<class 'numpy.dtypes._PyComplexDType'>"),
        }
    }
}

/// `cls.__common_dtype__(other)`; `None` is NumPy's `NotImplemented`.
fn common_dtype(cls: Class, other: Class) -> Option<Class> {
    match cls {
        Class::DType(dtype) if is_builtin(dtype) => builtin_common(dtype, other),
        Class::DType(dtype) => ml_dtypes_common(dtype, other),
        Class::PyInt => python_common(other, &[DType::UInt8, DType::Int8, DType::Int64], |d| {
            (d == DType::Bool).then_some(DType::Int64)
        }),
        Class::PyFloat if other == Class::PyInt => Some(cls),
        Class::PyFloat => python_common(other, &[DType::Float16, DType::Float64], |d| {
            (d == DType::Bool || d.is_integer()).then_some(DType::Float64)
        }),
        Class::PyComplex if matches!(other, Class::PyInt | Class::PyFloat) => Some(cls),
        Class::PyComplex => python_common(other, &[DType::Complex64, DType::Complex128], |d| {
            (d == DType::Bool || d.is_integer()).then_some(DType::Complex128)
        }),
    }
}

/// NumPy's own dtypes: Python scalars of a kind they hold take their type;
/// another dtype is answered from the promotion table by whichever of the
/// two has the larger type number.
fn builtin_common(cls: DType, other: Class) -> Option<Class> {
    let inexact = cls.is_inexact();
    let taken = match other {
        Class::PyComplex => match cls {
            DType::Float16 | DType::Float32 => return Some(Class::DType(DType::Complex64)),
            DType::Float64 => return Some(Class::DType(DType::Complex128)),
            _ => cls.kind() == Kind::Complex,
        },
        Class::PyFloat => inexact,
        Class::PyInt => inexact || cls.is_integer(),
        Class::DType(other) if type_num(other) > type_num(cls) => false,
        Class::DType(other) => return Some(Class::DType(builtin_promote(cls, other))),
    };
    taken.then_some(Class::DType(cls))
}

/// ml_dtypes' types use NumPy's rule for "legacy user dtypes": the type
/// with the larger number decides, by safe casts, then by NumPy's search
/// (which only `float8_e5m2` reaches, being the one with a scalar kind).
fn ml_dtypes_common(cls: DType, other: Class) -> Option<Class> {
    let other = other.concrete()?;
    if type_num(cls) < type_num(other) {
        return None;
    }
    if can_cast_safely(cls, other) {
        return Some(Class::DType(other));
    }
    if can_cast_safely(other, cls) {
        return Some(Class::DType(cls));
    }
    search_common(cls, other).map(Class::DType)
}

/// A Python scalar class with a dtype: NumPy's own dtypes by `builtin`
/// (which declines by answering `None`); ml_dtypes' types by asking them for
/// their common type with each of `fallbacks` in turn ("a back-compat
/// fallback to usually do the right thing", NumPy calls it).
fn python_common(
    other: Class,
    fallbacks: &[DType],
    builtin: impl Fn(DType) -> Option<DType>,
) -> Option<Class> {
    let dtype = other.concrete()?;
    if is_builtin(dtype) {
        return builtin(dtype).map(Class::DType);
    }
    fallbacks
        .iter()
        .find_map(|&fallback| common_dtype(other, Class::DType(fallback)))
}

/// Why no common DType exists.
#[derive(Clone, Debug)]
pub(super) enum NoCommon {
    /// `PyArray_CommonDType` of two classes.
    Pair(Class, Class),
    /// The reduction's main class declined one of the inputs.
    Sequence {
        declined: Class,
        main: Class,
        all: Vec<Class>,
    },
}

impl From<NoCommon> for PromotionError {
    fn from(reason: NoCommon) -> PromotionError {
        const OBJECT: &str =
            "For example they cannot be stored in a single array unless the dtype is `object`.";
        let message = match reason {
            NoCommon::Pair(a, b) => {
                format!("The DTypes {a} and {b} do not have a common DType. {OBJECT}")
            }
            NoCommon::Sequence {
                declined,
                main,
                all,
            } => {
                let list: Vec<String> = all.iter().map(Class::to_string).collect();
                format!(
                    "The DType {declined} could not be promoted by {main}. This means that no \
                     common DType exists for the given inputs. {OBJECT} The full list of DTypes \
                     is: ({})",
                    list.join(", ")
                )
            }
        };
        PromotionError::Framework {
            kind: ErrorKind::DTypePromotion,
            message,
        }
    }
}

/// `PyArray_CommonDType`: each class is asked in turn.
pub(super) fn common_pair(a: Class, b: Class) -> Result<Class, NoCommon> {
    if a == b {
        return Ok(a);
    }
    common_dtype(a, b)
        .or_else(|| common_dtype(b, a))
        .ok_or(NoCommon::Pair(a, b))
}

/// `PyArray_PromoteDTypeSequence` for two or more classes.
pub(super) fn promote_sequence(all: &[Class]) -> Result<Class, NoCommon> {
    let mut slots: Vec<Option<Class>> = all.iter().copied().map(Some).collect();
    let reduced = most_knowledgeable(&mut slots);
    // The reduction leaves the class that knows most in front.
    let main = slots[0].unwrap_or(all[0]);
    let (mut result, start) = match reduced {
        Some(result) => (Some(result), 2),
        None => (None, 1),
    };
    for slot in &slots[start..] {
        let Some(class) = *slot else { continue };
        let promotion = common_dtype(main, class).ok_or_else(|| NoCommon::Sequence {
            declined: class,
            main,
            all: all.to_vec(),
        })?;
        result = Some(match result {
            None => promotion,
            Some(so_far) => common_pair(so_far, promotion)?,
        });
    }
    Ok(result.unwrap_or(main))
}

/// NumPy's `reduce_dtypes_to_most_knowledgeable`: pairs the first half with
/// the last half (first with last, and so on), moving the class that
/// answered to the front and clearing those that cannot change the result,
/// then recurses on the front half. Returns the last pair's answer when two
/// classes remain (`None` if it declined).
fn most_knowledgeable(slots: &mut [Option<Class>]) -> Option<Class> {
    let length = slots.len();
    let half = length / 2;
    let mut answer = None;
    for low in 0..half {
        let high = length - 1 - low;
        let (Some(a), Some(b)) = (slots[low], slots[high]) else {
            continue;
        };
        answer = if a == b { Some(a) } else { common_dtype(a, b) };
        match answer {
            None => slots.swap(low, high),
            Some(found) if found == a => slots[high] = None,
            Some(_) => {}
        }
    }
    if length == 2 {
        return answer;
    }
    most_knowledgeable(&mut slots[..length - half])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn class_names_are_numpys() {
        assert_eq!(
            Class::DType(DType::UInt16).to_string(),
            "<class 'numpy.dtypes.UInt16DType'>"
        );
        assert_eq!(
            Class::DType(DType::Complex128).to_string(),
            "<class 'numpy.dtypes.Complex128DType'>"
        );
        assert_eq!(
            Class::DType(DType::Int4).to_string(),
            "<class 'numpy.dtype[int4]'>"
        );
    }
}
