//! How user text is quoted in error messages, the same in every message
//! of the library and its front ends: escaped (no control character of a
//! request reaches a terminal) and cut (a megabyte of input does not come
//! back as a megabyte of message); and the one guess at what a misspelt
//! name meant, for every "did you mean".

use crate::prelude::*;

/// At most this many characters of user text go into an error message.
pub const QUOTE_CHARS: usize = 64;

/// `text` cut to its first [`QUOTE_CHARS`] characters, with its length in
/// characters if it was longer.
pub fn cut(text: &str) -> (&str, Option<usize>) {
    match text.char_indices().nth(QUOTE_CHARS) {
        None => (text, None),
        Some((end, _)) => (&text[..end], Some(text.chars().count())),
    }
}

/// `text` between `mark`s, escaped and cut: `'int9'`, or `'xxxx...'
/// (1048000 characters)`.
///
/// ```
/// use dtype_lattice::text::quote;
/// assert_eq!(quote("int9", '\''), "'int9'");
/// assert_eq!(quote("a\u{1b}[31m", '"'), "\"a\\u{1b}[31m\"");
/// assert_eq!(quote(&"x".repeat(100), '\''), format!("'{}...' (100 characters)", "x".repeat(64)));
/// ```
pub fn quote(text: &str, mark: char) -> String {
    let (start, length) = cut(text);
    let mut quoted = String::with_capacity(start.len() + 2);
    quoted.push(mark);
    for c in start.chars() {
        match c {
            '\'' | '"' if c != mark => quoted.push(c),
            _ => quoted.extend(c.escape_debug()),
        }
    }
    if let Some(length) = length {
        quoted.push_str("...");
        quoted.push(mark);
        quoted.push_str(&format!(" ({length} characters)"));
    } else {
        quoted.push(mark);
    }
    quoted
}

/// The candidate `input` most plausibly misspells, if any: one equal to it
/// but for case first (`Int8` is `int8`), else the closest by edit distance
/// within a third of the input's length (one edit for short inputs), and
/// never one that shares nothing with it (`8` suggests nothing). Inputs far
/// longer than any name suggest nothing. Every "did you mean" in the crate
/// and its front ends (dtype names, policies, flags, lattice-file keys,
/// node labels) asks this.
///
/// ```
/// use dtype_lattice::text::nearest;
/// let names = ["int8", "uint8", "bfloat16", "float16"];
/// assert_eq!(nearest("Int8", names.into_iter()), Some("int8"));
/// assert_eq!(nearest("Float16", names.into_iter()), Some("float16"));
/// assert_eq!(nearest("unit8", names.into_iter()), Some("uint8"));
/// assert_eq!(nearest("8", names.into_iter()), None);
/// ```
pub fn nearest<'a>(input: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    const LONGEST_PLAUSIBLE: usize = 64;
    let length = input.chars().count();
    if length > LONGEST_PLAUSIBLE {
        return None;
    }
    let plausible = (length / 3).max(1).min(length.saturating_sub(1));
    let lower = input.to_lowercase();
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        // A length difference is at least that many edits: far longer
        // candidates (a label may be thousands of characters) are skipped
        // before the quadratic distance.
        if candidate.len() > 4 * (length + plausible)
            || candidate.chars().count().abs_diff(length) > plausible
        {
            continue;
        }
        if candidate.to_lowercase() == lower {
            return Some(candidate);
        }
        let distance = edit_distance(&lower, &candidate.to_lowercase());
        if best.is_none_or(|(shortest, _)| distance < shortest) {
            best = Some((distance, candidate));
        }
    }
    let (distance, name) = best?;
    (distance <= plausible).then_some(name)
}

/// Edit distance over chars counting insertions, deletions, substitutions
/// and swaps of neighbours (optimal string alignment), so `unit8` is one
/// edit from `uint8`. O(len(a) * len(b)); callers keep both short.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let width = b.len() + 1;
    // Rows i-2, i-1 and i of the distance matrix.
    let mut rows = vec![0usize; 3 * width];
    // Row 0 starts where each step writes its row, so that the first step
    // finds it as the previous one.
    for (j, cell) in rows[2 * width..].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        rows.copy_within(width.., 0);
        let (done, current) = rows.split_at_mut(2 * width);
        let (before, previous) = done.split_at(width);
        current[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (previous[j - 1] + cost)
                .min(previous[j] + 1)
                .min(current[j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(before[j - 2] + 1);
            }
            current[j] = best;
        }
    }
    rows[2 * width + b.len()]
}
