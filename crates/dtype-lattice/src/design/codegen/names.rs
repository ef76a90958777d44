//! Identifiers and string literals for the generated files: a dtype keeps
//! the name the framework gives it (and its Rust name is this crate's
//! variant, so that mapping one enum to the other is by name); a lattice
//! file's label is made an identifier, distinct from every other.

use std::collections::HashSet;

use super::TypeName;
use crate::types::{DType, PyScalar};

/// The dtypes' names: the framework's (`float8_e4m3fn`) and this crate's
/// variant (`Float8E4M3Fn`).
pub(super) fn dtype_names(dtypes: &[DType]) -> Vec<TypeName> {
    dtypes
        .iter()
        .map(|d| TypeName {
            name: d.name().to_owned(),
            camel: format!("{d:?}"),
            snake: d.name().to_owned(),
        })
        .collect()
}

/// Python's scalar types: `int`, Rust `Int`.
pub(super) fn scalar_names(scalars: &[PyScalar]) -> Vec<TypeName> {
    scalars
        .iter()
        .map(|s| TypeName {
            name: s.name().to_owned(),
            camel: camel(s.name()),
            snake: s.name().to_owned(),
        })
        .collect()
}

/// Python's keywords, which no member may be called.
const PYTHON_KEYWORDS: &[&str] = &[
    "false", "none", "true", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// The C header's own upper-case names after its prefix, which no
/// label's may be.
const C_NAMES: &[&str] = &[
    "dtype_count",
    "operand_count",
    "error_count",
    "promotion_h",
    "unary_count",
    "reduction_count",
];

/// A lattice file's labels as names: each made an identifier
/// (`[a-z][a-z0-9_]*`, `*` read as `star`: `i*` is `i_star`, Rust
/// `IStar`), kept apart from the C header's own names (`op_...`,
/// `py_...`, `unary_...`, `reduce_...`) and from each other (a second `a-b` and `a_b` is `a_b_2`).
pub(super) fn label_names<'a>(labels: impl IntoIterator<Item = &'a str>) -> Vec<TypeName> {
    let mut taken = HashSet::new();
    labels
        .into_iter()
        .map(|label| {
            let base = snake(label);
            let mut name = base.clone();
            let mut n = 1;
            while !taken.insert(name.clone()) {
                n += 1;
                name = format!("{base}_{n}");
            }
            TypeName {
                name: label.to_owned(),
                camel: camel(&name),
                snake: name,
            }
        })
        .collect()
}

/// `label` as a lower-case identifier, never a Python keyword nor one of
/// the C header's own names.
fn snake(label: &str) -> String {
    let mut out = String::new();
    for c in label.chars() {
        let word = match c {
            '*' => "_star_".to_owned(),
            c if c.is_ascii_alphanumeric() => c.to_ascii_lowercase().to_string(),
            _ => "_".to_owned(),
        };
        for c in word.chars() {
            if !(c == '_' && (out.is_empty() || out.ends_with('_'))) {
                out.push(c);
            }
        }
    }
    while out.ends_with('_') {
        out.pop();
    }
    if out.is_empty() {
        return "t".to_owned();
    }
    let reserved = ["op_", "py_", "unary_", "reduce_"]
        .iter()
        .any(|p| out.starts_with(p))
        || C_NAMES.contains(&out.as_str())
        || PYTHON_KEYWORDS.contains(&out.as_str());
    if out.starts_with(|c: char| c.is_ascii_digit()) || reserved {
        out.insert_str(0, "t_");
    }
    out
}

/// `true_divide` as a Rust type's name: `TrueDivide`. (`Self`, the one
/// reserved word of that form, never comes out of a lower-case name:
/// `self` is `Self_`.)
pub(super) fn camel(snake: &str) -> String {
    let out: String = snake
        .split('_')
        .filter(|part| !part.is_empty())
        .map(|part| {
            let mut chars = part.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect();
    if out == "Self" {
        return "Self_".to_owned();
    }
    out
}

/// Numbers as a comma-separated list, as every target writes an array.
pub(super) fn numbers<T: ToString>(values: &[T]) -> String {
    values
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// A Rust string literal (Rust's own escaping).
pub(super) fn rust_str(text: &str) -> String {
    format!("{text:?}")
}

/// A C string literal: printable ASCII as is (but `\`, `"` and `?`, which
/// could start a trigraph), every other byte of the UTF-8 as an octal
/// escape, which cannot run into the next character.
pub(super) fn c_str(text: &str) -> String {
    let mut out = String::from("\"");
    for &byte in text.as_bytes() {
        match byte {
            b'\\' => out.push_str("\\\\"),
            b'"' => out.push_str("\\\""),
            b'?' => out.push_str("\\?"),
            b'\n' => out.push_str("\\n"),
            0x20..=0x7e => out.push(char::from(byte)),
            _ => out.push_str(&format!("\\{byte:03o}")),
        }
    }
    out.push('"');
    out
}

/// A Python string literal: printable ASCII as is, the rest escaped.
pub(super) fn python_str(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            ' '..='~' => out.push(c),
            c if u32::from(c) <= 0xffff => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push_str(&format!("\\U{:08x}", u32::from(c))),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_become_distinct_identifiers() {
        let names = label_names([
            "i*",
            "a-b",
            "a_b",
            "2x",
            "class",
            "op_add",
            "",
            "error_count",
            "unary_count",
            "reduce_sum",
        ]);
        let snakes: Vec<&str> = names.iter().map(|n| n.snake.as_str()).collect();
        assert_eq!(
            snakes,
            [
                "i_star",
                "a_b",
                "a_b_2",
                "t_2x",
                "t_class",
                "t_op_add",
                "t",
                "t_error_count",
                "t_unary_count",
                "t_reduce_sum"
            ]
        );
        assert_eq!(names[0].camel, "IStar");
        assert_eq!(camel("self"), "Self_");
    }

    #[test]
    fn literals_escape_what_their_language_reads_specially() {
        assert_eq!(
            c_str("a\"b\\c??/é\n"),
            "\"a\\\"b\\\\c\\?\\?/\\303\\251\\n\""
        );
        assert_eq!(python_str("é\"\u{1F600}"), "\"\\u00e9\\\"\\U0001f600\"");
        assert_eq!(rust_str("a\"b"), "\"a\\\"b\"");
    }
}
