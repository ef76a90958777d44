//! What the explorer serves besides answers, compiled into the binary so
//! that no request touches the server's files: the page, its script and
//! style sheet (separate files, as the Content-Security-Policy allows no
//! inline ones), its icon, and the design notebook's lattice files.

use axum::http::header::{self, HeaderValue};
use axum::response::{IntoResponse, Response};

/// The page. `data-mode="serve"` on its body tells the script to ask the
/// API; the static export writes `static` there.
pub const INDEX_HTML: &str = include_str!("../../web/index.html");
/// The page's script: vanilla JavaScript, no build step.
pub const APP_JS: &str = include_str!("../../web/app.js");
/// The page's style sheet.
pub const APP_CSS: &str = include_str!("../../web/app.css");
/// The page's icon.
pub const FAVICON_SVG: &str = include_str!("../../web/favicon.svg");

/// Lists the notebook's lattice files as `(name, text)` pairs.
macro_rules! examples {
    ($($name:literal),* $(,)?) => {
        &[$(($name, include_str!(concat!("../../../../examples/lattices/", $name, ".toml")))),*]
    };
}

/// The lattice files of `examples/lattices/`, each as its file name
/// (without `.toml`) and its text, in the order the editor's menu lists
/// them: the notebook's argument first, JAX's own lattice last.
pub const EXAMPLES: &[(&str, &str)] = examples![
    "not-a-lattice-left",
    "not-a-lattice-right",
    "within-category",
    "signed-unsigned",
    "float-complex",
    "python-scalars",
    "scalars-and-arrays",
    "twice-width",
    "option-0",
    "option-1",
    "option-2",
    "option-3",
    "option-3-bfloat16",
    "jax-notebook",
    "jax",
];

/// The text of the example called `name`.
pub fn example(name: &str) -> Option<&'static str> {
    EXAMPLES
        .iter()
        .find(|(known, _)| *known == name)
        .map(|(_, text)| *text)
}

/// A compiled-in file with its type. The page revalidates each load
/// (`no-cache`) so that a new binary's page is never mixed with an old
/// script.
fn asset(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        body,
    )
        .into_response()
}

/// `GET /`.
pub async fn index() -> Response {
    asset("text/html; charset=utf-8", INDEX_HTML)
}

/// `GET /app.js`.
pub async fn script() -> Response {
    asset("text/javascript; charset=utf-8", APP_JS)
}

/// `GET /app.css`.
pub async fn style() -> Response {
    asset("text/css; charset=utf-8", APP_CSS)
}

/// `GET /favicon.svg`.
pub async fn icon() -> Response {
    asset("image/svg+xml", FAVICON_SVG)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A lattice file added to examples/lattices/ must be added to the
    /// menu too.
    #[test]
    fn every_example_file_is_embedded() {
        let folder =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/lattices");
        let mut files: Vec<String> = std::fs::read_dir(folder)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|e| e == "toml"))
            .map(|path| path.file_stem().unwrap().to_string_lossy().into_owned())
            .collect();
        files.sort();
        let mut embedded: Vec<String> = EXAMPLES.iter().map(|(n, _)| (*n).to_owned()).collect();
        embedded.sort();
        assert_eq!(files, embedded);
    }

    #[test]
    fn the_page_loads_its_script_and_style_from_files() {
        assert!(INDEX_HTML.contains(r#"<script src="app.js" defer></script>"#));
        assert!(INDEX_HTML.contains(r#"<link rel="stylesheet" href="app.css">"#));
        assert!(!INDEX_HTML.contains("<style") && !INDEX_HTML.contains(" style="));
        assert!(!INDEX_HTML.contains("<script>"));
    }
}
