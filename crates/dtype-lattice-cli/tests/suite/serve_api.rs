//! The explorer's HTTP API, endpoint by endpoint, against the command line
//! (which the other tests check against the real libraries) and against
//! the golden data itself: the server must answer as `dtype-lattice` does.

use crate::support::golden::{judge, load, with_sorted_inputs, Verdict};
use crate::support::serve::{cli, root, Server};
use serde_json::{json, Value};

const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                   connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

fn cli_json(args: &[&str]) -> Value {
    let out = cli(args, b"");
    serde_json::from_slice(&out)
        .unwrap_or_else(|err| panic!("{args:?}: {err}: {}", String::from_utf8_lossy(&out)))
}

#[test]
fn the_page_its_files_and_the_security_headers() {
    let server = Server::start();
    for (path, kind, needle) in [
        (
            "/",
            "text/html; charset=utf-8",
            "<script type=\"module\" src=\"app.js\"></script>",
        ),
        (
            "/app.js",
            "text/javascript; charset=utf-8",
            "from './table.js';",
        ),
        (
            "/latest.js",
            "text/javascript; charset=utf-8",
            "export function latestOnly",
        ),
        (
            "/table.css",
            "text/css; charset=utf-8",
            "--differs: #ccf2cc;",
        ),
        ("/app.css", "text/css; charset=utf-8", ".table-layout"),
        ("/favicon.svg", "image/svg+xml", "<svg"),
    ] {
        let response = server.get(path);
        assert_eq!(response.status, 200, "{path}");
        assert_eq!(response.header("content-type"), Some(kind), "{path}");
        assert!(response.text().contains(needle), "{path}");
        assert_eq!(
            response.header("content-security-policy"),
            Some(CSP),
            "{path}"
        );
        assert_eq!(response.header("x-content-type-options"), Some("nosniff"));
        assert_eq!(
            response.header("cross-origin-resource-policy"),
            Some("same-origin")
        );
    }
    let page = server.get("/").text();
    assert!(!page.contains("<style") && !page.contains(" style=") && !page.contains("<script>"));
    // Every answer carries the policy too, errors included.
    let missing = server.get("/nothing-here");
    assert_eq!(missing.status, 404);
    assert_eq!(missing.header("content-security-policy"), Some(CSP));
}

#[test]
fn info_lists_what_the_page_offers() {
    let server = Server::start();
    let info = server.get("/api/info").json();
    let names: Vec<&str> = info["policies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    let entries: Vec<&str> = dtype_lattice::registry::POLICIES
        .iter()
        .map(|p| p.name)
        .collect();
    assert_eq!(names, entries);
    // The presets, each with its entry, the settings it fixes and those it
    // leaves free, and what it is under them.
    let presets = info["presets"].as_array().unwrap();
    let preset_names: Vec<&str> = presets
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(preset_names, ["tensorflow-safe", "tensorflow-all"]);
    assert_eq!(
        presets[1]["preset"],
        json!({"entry": "tensorflow", "settings": {"tensorflow_numpy_behavior": "all"}})
    );
    assert_eq!(presets[1]["settings"], json!(["tensorflow_prefer_float32"]));
    assert_eq!(
        (&presets[0]["lattice"], &presets[1]["lattice"]),
        (&json!(false), &json!(true))
    );
    let jax = &info["policies"][0];
    assert_eq!(
        jax["settings"],
        json!(["x64", "strict", "explicit_x64_dtypes"])
    );
    assert_eq!(
        (&jax["lattice"], &jax["graph"]),
        (&json!(true), &json!(true))
    );
    // Keras and tinygrad write their rules on a graph the page draws;
    // NumPy has rules only.
    let policy = |name: &str| {
        info["policies"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name)
            .unwrap()
            .clone()
    };
    for (name, lattice, graph) in [
        ("keras", false, true),
        ("tinygrad", false, true),
        ("numpy", false, false),
    ] {
        let listed = policy(name);
        assert_eq!(
            (listed["lattice"].clone(), listed["graph"].clone()),
            (json!(lattice), json!(graph)),
            "{name}"
        );
    }
    assert_eq!(
        policy("numpy")["settings"],
        json!([]),
        "numpy reads no setting"
    );
    assert_eq!(
        policy("jax-lax")["settings"],
        json!(["x64"]),
        "jax-lax reads x64"
    );
    assert_eq!(info["types"]["docs"].as_array().unwrap().len(), 18);
    assert_eq!(info["types"]["all"].as_array().unwrap().len(), 36);
    assert_eq!(
        info["types"]["docs"][1],
        json!({"name": "uint8", "label": "u1"})
    );
    assert_eq!(info["examples"].as_array().unwrap().len(), 15);
    assert_eq!(info["mode"], "serve");
}

/// The table endpoint's cells are `table --format json`'s, for every
/// policy, both sets of types, and every configuration of JAX.
#[test]
fn tables_are_the_command_lines() {
    let server = Server::start();
    let mut cases: Vec<(&str, &str, &[&str])> = Vec::new();
    for policy in dtype_lattice::registry::names() {
        cases.push((policy, "docs", &[]));
        cases.push((policy, "all", &[]));
    }
    for flags in [&["--x64"][..], &["--strict"], &["--x64", "--strict"]] {
        cases.push(("jax", "docs", flags));
        cases.push(("jax", "all", flags));
    }
    for (policy, types, flags) in cases {
        let query: String = flags
            .iter()
            .map(|f| format!("&{}=true", f.trim_start_matches("--")))
            .collect();
        let ours = server
            .get(&format!("/api/table?policy={policy}&types={types}{query}"))
            .json();
        let mut args = vec![
            "table", "--format", "json", "--labels", "short", "--policy", policy,
        ];
        if types == "all" {
            args.push("--all");
        }
        args.extend(flags);
        let theirs = cli_json(&args);
        let labels: Vec<Vec<Value>> = ours["cells"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| {
                row.as_array()
                    .unwrap()
                    .iter()
                    .map(|cell| match cell["label"].as_str().unwrap() {
                        "-" => Value::Null,
                        label => json!(label),
                    })
                    .collect()
            })
            .collect();
        assert_eq!(json!(labels), theirs["rows"], "{policy} {types} {flags:?}");
        assert_eq!(ours["labels"], theirs["labels"]);
        assert_eq!(ours["caption"], theirs["caption"]);
        assert_eq!(ours["legend"], theirs["legend"]);
        // Failed cells name their error, each message listed once.
        for cell in ours["cells"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| r.as_array().unwrap())
        {
            if let Some(index) = cell.get("error") {
                let error = &ours["errors"][index.as_u64().unwrap() as usize];
                assert!(error["type"].is_string() && error["message"].is_string());
            }
        }
    }
}

#[test]
fn diffs_are_the_command_lines() {
    let server = Server::start();
    for (left, right, extra) in [
        ("jax", "numpy", ""),
        ("jax", "numpy", "&types=all"),
        ("jax", "torch", "&x64=true"),
        ("numpy", "array-api", "&types=all&strict=1"),
    ] {
        let ours = server.get(&format!("/api/diff?left={left}&right={right}{extra}"));
        assert_eq!(ours.status, 200);
        let mut args = vec!["diff", left, right, "--format", "json", "--labels", "short"];
        if extra.contains("all") {
            args.push("--all");
        }
        if extra.contains("x64") {
            args.push("--x64");
        }
        if extra.contains("strict") {
            args.push("--strict");
        }
        assert_eq!(ours.body, cli(&args, b""), "{left} {right} {extra}");
    }
}

#[test]
fn explanations_are_the_command_lines() {
    let server = Server::start();
    let ours = server.get("/api/explain?a=int8&b=uint32").json();
    let mut theirs = cli_json(&["explain", "int8", "uint32", "--format", "json"]);
    theirs["explained"] = json!(true);
    theirs["join_type"] = json!({"dtype": "int32", "weak": false});
    theirs["types"] = json!(["int8", "uint32"]);
    assert_eq!(ours, theirs);
    // A pair without a join: the error and its family.
    let ours = server
        .get("/api/explain?a=float8_e4m3fn&b=float32&x64=true")
        .json();
    assert_eq!(ours["outcome"], "no_upper_bound");
    assert_eq!(ours["error"]["type"], "TypePromotionError");
    assert_eq!(ours["error"]["family"], "float8");
    assert_eq!(
        ours["error"]["summary"],
        "8-bit floats do not promote implicitly"
    );
    // A policy defined by rules has nothing to trace, and says so.
    let numpy = server
        .get("/api/explain?policy=numpy&a=int8&b=uint8")
        .json();
    assert_eq!(numpy["explained"], false);
    assert!(numpy["reason"]
        .as_str()
        .unwrap()
        .contains("defined by rules, not by a lattice"));
    // The Array API promotes Python scalars by rule, not at a node.
    let array_api = server
        .get("/api/explain?policy=array-api&a=uint8&b=int")
        .json();
    assert_eq!(array_api["explained"], false);
    assert!(array_api["reason"].as_str().unwrap().contains("by a rule"));
    // With the marks the static export uses.
    let marked = server.get("/api/explain?a=int8&b=uint8&marks=true").json();
    assert_eq!(marked["marks"]["targets"], json!(["int16"]));
    assert_eq!(marked["marks"]["role"], "join");
}

/// Every cell of the documentation's table, in all four configurations:
/// the explanation joins where real JAX's `lattice_result_type` answers,
/// and has no join where JAX raises.
#[test]
fn every_docs_cell_joins_at_jaxs_answer() {
    let server = Server::start();
    let cases = load("docs_table.jsonl");
    assert_eq!(cases.len(), 4 * 18 * 18);
    for case in &cases {
        let args = case.request["args"].as_array().unwrap();
        let (a, b) = (args[0].as_str().unwrap(), args[1].as_str().unwrap());
        let x64 = case.request["x64"] == true;
        let strict = case.request["promotion"] == "strict";
        let why = server
            .get(&format!(
                "/api/explain?a={a}&b={b}&x64={x64}&strict={strict}"
            ))
            .json();
        assert_eq!(why["explained"], true, "{a} {b}");
        match case.expected.get("ok") {
            Some(answer) => assert_eq!(
                &why["join_type"], answer,
                "{a} {b} x64={x64} strict={strict}"
            ),
            None => {
                assert_eq!(why["outcome"], "no_upper_bound", "{a} {b}");
                assert_eq!(why["error"]["type"], case.expected["error"]["type"]);
                // The explanation reports promote_types' error, the table
                // lattice_result_type's, which names the pair in set order.
                let message =
                    |v: &Value| with_sorted_inputs(v["error"]["message"].as_str().unwrap());
                assert_eq!(message(&why), message(&case.expected), "{a} {b}");
            }
        }
        // Paths run from each input's node to the join.
        if let Some(join) = why["join"].as_str() {
            for input in why["inputs"].as_array().unwrap() {
                let path = input["path"].as_array().unwrap();
                assert_eq!(path.first().unwrap(), &input["node"]);
                assert_eq!(path.last().unwrap().as_str(), Some(join));
            }
        }
    }
}

#[test]
fn drawings_are_the_command_lines() {
    let server = Server::start();
    let ours = server.get("/api/graph.svg?x64=true&highlight=int8,uint32");
    assert_eq!(ours.status, 200);
    assert_eq!(ours.header("content-type"), Some("image/svg+xml"));
    let theirs = cli(&["graph", "--x64", "--highlight", "int8,uint32"], b"");
    assert_eq!(ours.body, theirs);
    let torch = server.get("/api/graph.svg?policy=torch");
    assert_eq!(torch.body, cli(&["graph", "--policy", "torch"], b""));
    let numpy = server.get("/api/graph.svg?policy=numpy");
    assert_eq!(numpy.status, 422);
    assert!(numpy
        .message()
        .contains("defined by rules, not by a lattice"));
    // A web user is not told to run a command.
    assert!(
        !numpy.message().contains("dtype-lattice "),
        "{}",
        numpy.message()
    );
}

/// `POST /api/batch` answers the golden promote_types file as real JAX
/// did (by the golden tests' comparison), and byte for byte as
/// `dtype-lattice batch` does.
#[test]
fn batch_answers_the_golden_file() {
    let server = Server::start();
    let cases = load("promote_types.jsonl");
    let body: String = cases
        .iter()
        .map(|case| format!("{}\n", case.request))
        .collect();
    let response = server.post("/api/batch", body.as_bytes());
    assert_eq!(response.status, 200);
    assert_eq!(response.header("content-type"), Some("application/jsonl"));
    let text = response.text();
    let answers: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), cases.len());
    let mut differ = Vec::new();
    for (case, ours) in cases.iter().zip(&answers) {
        if judge(case, ours) == Verdict::Differs {
            differ.push(format!("line {}: {} gave {ours}", case.line, case.request));
        }
    }
    assert!(
        differ.is_empty(),
        "{} differ: {:?}",
        differ.len(),
        &differ[..differ.len().min(5)]
    );
    assert_eq!(response.body, cli(&["batch"], body.as_bytes()));
    // The query sets the defaults, as the command's flags do.
    let request = b"{\"fn\": \"result_type\", \"args\": [\"int8\", 2.5]}\n";
    let numpy = server.post("/api/batch?policy=numpy", request);
    assert_eq!(numpy.body, cli(&["batch", "--policy", "numpy"], request));
    let x64 = server.post(
        "/api/batch?x64=true",
        b"{\"fn\": \"promote_types\", \"args\": [\"uint32\", \"int32\"]}",
    );
    assert_eq!(x64.text(), "{\"ok\":\"int64\"}\n");
}

/// The editor's analysis is `check --format json` and `audit --format
/// json`, for every lattice file of the notebook.
#[test]
fn posted_lattices_are_checked_and_audited_as_the_command_line_does() {
    let server = Server::start();
    let folder = root().join("examples/lattices");
    let mut files: Vec<_> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 15);
    for path in files {
        let text = std::fs::read(&path).unwrap();
        let file = path.to_str().unwrap();
        let ours = server.post("/api/lattice", &text).json();
        assert_eq!(ours["valid"], true, "{file}");
        assert_eq!(ours["syntax"], "toml");
        assert_eq!(
            ours["check"],
            cli_json(&["check", file, "--format", "json"]),
            "{file}"
        );
        assert_eq!(
            ours["audit"],
            cli_json(&["audit", file, "--format", "json"]),
            "{file}"
        );
        assert!(ours["svg"].as_str().unwrap().starts_with("<svg"), "{file}");
        let labels = ours["table"]["labels"].as_array().unwrap();
        assert_eq!(labels, ours["check"]["nodes"].as_array().unwrap());
        // The example served is the file.
        let name = path.file_stem().unwrap().to_str().unwrap();
        assert_eq!(server.get(&format!("/api/examples/{name}")).body, text);
    }
}

#[test]
fn a_python_dict_reads_as_the_notebook_writes_it() {
    let server = Server::start();
    let dict = b"# the right-hand DAG\nlattice = {\n    'A': ['C', 'D'],\n    \"B\": [\"C\", \"D\",],\n}\n";
    let ours = server.post("/api/lattice", dict).json();
    assert_eq!(ours["syntax"], "dict");
    assert_eq!(ours["name"], "lattice");
    let file = root().join("examples/lattices/not-a-lattice-right.toml");
    let mut theirs = cli_json(&["check", file.to_str().unwrap(), "--format", "json"]);
    theirs["name"] = json!("lattice");
    assert_eq!(ours["check"], theirs);
    // JSON is read the same way; the table marks the ambiguous pair.
    let json_text = br#"{"A": ["C", "D"], "B": ["C", "D"]}"#;
    let from_json = server.post("/api/lattice?syntax=json", json_text).json();
    assert_eq!(from_json["check"]["ambiguous"], ours["check"]["ambiguous"]);
    let table = &from_json["table"];
    assert_eq!(table["labels"], json!(["A", "C", "D", "B"]));
    assert_eq!(table["cells"][0][3], -2, "{{A, B}} is ambiguous");
    assert_eq!(table["cells"][1][2], -1, "{{C, D}} has no upper bound");
    assert_eq!(table["cells"][0][1], 1, "A with C joins at C");
    // A pair asked about is explained and marked on the drawing.
    let pair = server.post("/api/lattice?a=A&b=B", dict).json();
    assert_eq!(pair["explain"]["outcome"], "ambiguous");
    assert_eq!(pair["explain"]["candidates"], json!(["C", "D"]));
    assert!(pair["svg"]
        .as_str()
        .unwrap()
        .contains("class=\"node opaque candidate\""));
}

#[test]
fn texts_that_are_not_lattices_get_the_place() {
    let server = Server::start();
    let dict = server.post("/api/lattice", b"{\n  'u8': [u16],\n}").json();
    assert_eq!(dict["valid"], false);
    assert_eq!(dict["error"]["line"], 2);
    assert_eq!(dict["error"]["column"], 10);
    assert_eq!(
        dict["error"]["message"],
        "dict:2:10: a bare name 'u16': labels are strings, write 'u16' in quotes"
    );
    let toml = server
        .post("/api/lattice", b"name = \"x\"\n[dtypes]\nu8 = \"unit8\"\n")
        .json();
    assert_eq!(toml["valid"], false);
    assert_eq!(
        toml["error"]["message"],
        "lattice:3:6: [dtypes] maps 'u8' to an unknown dtype 'unit8': did you mean 'uint8'?"
    );
    assert_eq!(
        (
            toml["error"]["line"].as_u64(),
            toml["error"]["column"].as_u64()
        ),
        (Some(3), Some(6))
    );
    // A cycle is a finding, not a text error: checked, not drawn.
    let cycle = server
        .post("/api/lattice", b"{'a': ['b'], 'b': ['a']}")
        .json();
    assert_eq!(cycle["valid"], true);
    assert_eq!(cycle["check"]["cycle"], json!(["a", "b"]));
    assert_eq!(cycle["svg"], Value::Null);
    assert!(cycle["svg_note"].as_str().unwrap().contains("cycle"));
}

#[test]
fn a_posted_lattice_is_drawn() {
    let server = Server::start();
    let file = root().join("examples/lattices/option-3.toml");
    let text = std::fs::read(&file).unwrap();
    let ours = server.post("/api/lattice/graph.svg?highlight=i8,u8", &text);
    assert_eq!(ours.status, 200);
    let theirs = cli(
        &["graph", file.to_str().unwrap(), "--highlight", "i8,u8"],
        b"",
    );
    assert_eq!(ours.body, theirs);
    let examples = server.get("/api/examples").json();
    assert_eq!(examples["examples"].as_array().unwrap().len(), 15);
}
