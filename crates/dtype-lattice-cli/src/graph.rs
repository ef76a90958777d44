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
