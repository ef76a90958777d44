//! Places in text a user wrote: where a lattice file or a pasted dict goes
//! wrong.

/// A line and column in a text, both counted from 1 (columns in
/// characters, so a label with accents or a tab does not shift the place
/// an editor shows).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Location {
    /// The line.
    pub line: usize,
    /// The column.
    pub column: usize,
}

impl Location {
    /// The location of a byte offset in `text` (rounded down to a character
    /// boundary).
    pub(crate) fn at(text: &str, offset: usize) -> Location {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &text[..offset];
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        Location {
            line: before.matches('\n').count() + 1,
            column: before[line_start..].chars().count() + 1,
        }
    }
}
