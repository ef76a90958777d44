//! What the explorer serves besides answers, compiled into the binary so
//! that no request touches the server's files: the page, its script (ES
//! modules, no build step) and style sheets (separate files, as the
//! Content-Security-Policy allows no inline ones), its icon, and the
//! design notebook's lattice files.

use axum::http::header::{self, HeaderValue};
use axum::response::{IntoResponse, Response};

/// The page. `data-mode="serve"` on its body tells the script to ask the
/// API; the static export writes `static` there.
pub const INDEX_HTML: &str = include_str!("../../web/index.html");

/// A file the page loads, served at `/{path}` and exported as `path`.
pub struct Asset {
    /// Its name in `web/`, which is also its URL path and exported name.
    pub path: &'static str,
    /// Its `Content-Type`.
    pub content_type: &'static str,
    /// Its text.
    pub text: &'static str,
}

impl Asset {
    /// The file as an answer. The page revalidates each load (`no-cache`)
    /// so that a new binary's page is never mixed with an old script.
    pub fn response(&self) -> Response {
        page_file(self.content_type, self.text)
    }
}

const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";
const SVG: &str = "image/svg+xml";

/// Lists the page's files as [`Asset`]s, each with its type.
macro_rules! assets {
    ($($kind:ident $path:literal),* $(,)?) => {
        &[$(Asset {
            path: $path,
            content_type: $kind,
            text: include_str!(concat!("../../web/", $path)),
        }),*]
    };
}

/// Every file the page loads: `app.js` starts the page and imports the
/// other modules; `table.css` is the table's look, which the command
/// line's HTML page embeds too.
pub const FILES: &[Asset] = assets![
    JS "app.js",
    JS "compare.js",
    JS "dom.js",
    JS "drawing.js",
    JS "editor.js",
    JS "explain.js",
    JS "grid.js",
    JS "latest.js",
    JS "playground.js",
    JS "sources.js",
    JS "state.js",
    JS "table.js",
    CSS "table.css",
    CSS "app.css",
    SVG "favicon.svg",
];

/// Lists the notebook's lattice files as `(name, text)` pairs. They live
/// in this crate's `lattices/` (the repository's `examples/lattices` is a
/// link to it) so that the published crate carries what it compiles in.
macro_rules! examples {
    ($($name:literal),* $(,)?) => {
        &[$(($name, include_str!(concat!("../../lattices/", $name, ".toml")))),*]
    };
}

/// The lattice files of `lattices/`, each as its file name
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

fn page_file(content_type: &'static str, body: &'static str) -> Response {
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
    page_file("text/html; charset=utf-8", INDEX_HTML)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A lattice file added to lattices/ must be added to the menu too.
    #[test]
    fn every_example_file_is_embedded() {
        let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("lattices");
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

    /// A file added to web/ (a new module, say) must be served and
    /// exported too.
    #[test]
    fn every_file_of_the_page_is_embedded() {
        let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("web");
        let mut files: Vec<String> = std::fs::read_dir(folder)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name != "index.html")
            .collect();
        files.sort();
        let mut embedded: Vec<&str> = FILES.iter().map(|file| file.path).collect();
        embedded.sort_unstable();
        assert_eq!(files, embedded);
    }

    /// Each module imports embedded modules only, by relative path (what
    /// the static export's folder and the server both resolve).
    #[test]
    fn modules_import_embedded_modules() {
        for file in FILES.iter().filter(|file| file.content_type == JS) {
            for line in file.text.lines().filter(|l| l.starts_with("import ")) {
                let (_, from) = line.split_once(" from './").expect(line);
                let name = from.trim_end_matches("';");
                assert!(
                    FILES.iter().any(|f| f.path == name && f.content_type == JS),
                    "{}: {line}",
                    file.path
                );
            }
        }
    }

    /// The modules `app.js` imports are fetched with it, not one import
    /// level at a time.
    #[test]
    fn the_page_preloads_every_module() {
        for file in FILES
            .iter()
            .filter(|f| f.content_type == JS && f.path != "app.js")
        {
            let link = format!(r#"<link rel="modulepreload" href="{}">"#, file.path);
            assert!(INDEX_HTML.contains(&link), "{link}");
        }
    }

    #[test]
    fn the_page_loads_its_script_and_style_from_files() {
        assert!(INDEX_HTML.contains(r#"<script type="module" src="app.js"></script>"#));
        assert!(INDEX_HTML.contains(r#"<link rel="stylesheet" href="table.css">"#));
        assert!(INDEX_HTML.contains(r#"<link rel="stylesheet" href="app.css">"#));
        assert!(!INDEX_HTML.contains("<style") && !INDEX_HTML.contains(" style="));
        assert!(!INDEX_HTML.contains("<script>"));
    }
}
