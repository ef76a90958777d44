//! `graph`: the output formats of the library's drawings
//! ([`dtype_lattice::design::graph`]).

/// Output format of `graph`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Graphviz DOT, for `dot -Tsvg` or other tools.
    Dot,
    /// A standalone SVG drawing, laid out by this tool.
    Svg,
}

impl Format {
    /// The format a file name asks for: `.svg`, or `.dot` / `.gv` (case
    /// aside); a usage message for anything else.
    pub fn from_path(path: &std::path::Path) -> Result<Format, String> {
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match extension.as_deref() {
            Some("svg") => Ok(Format::Svg),
            Some("dot" | "gv") => Ok(Format::Dot),
            _ => Err(format!(
                "cannot tell the format from '{}': name the file .svg, .dot or .gv, or give --format",
                path.display().to_string().escape_debug()
            )),
        }
    }
}
