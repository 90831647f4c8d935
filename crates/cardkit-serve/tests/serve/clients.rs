//! Clients and linters that read the service's OpenAPI document, run on the
//! document the service serves:
//!
//! - openapi-typescript makes types of it, and the book's TypeScript
//!   client (openapi-fetch) compiles against them with `tsc --strict`, then
//!   runs against the service;
//! - Redocly's linter, with its recommended rules, finds no error;
//! - openapi-python-client generates typed models of the report;
//! - openapi-core validates every response of real requests to every
//!   operation against the document, and rejects responses made wrong.
//!
//! The tools are found as `tests/clients/tools.rs` says; `.ci/run`
//! installs them.

use crate::service;
#[path = "../clients/tools.rs"]
mod tools;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use cardkit_serve::EXAMPLES;
use serde_json::{json, Value};

use service::Service;

/// The document the service serves, written as `openapi.json` in `dir`.
fn document_in(service: &Service, dir: &Path) -> PathBuf {
    let (status, _, text) = service.ask("get", "/openapi.json", None, "*/*");
    assert_eq!(status, 200);
    let path = dir.join("openapi.json");
    std::fs::write(&path, text).expect("write the document");
    path
}

/// Runs `command`; its output, which must be a success.
fn succeeds(command: &mut Command) -> Output {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{command:?}: {e}"));
    assert!(
        output.status.success(),
        "{command:?}: {}\n{}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// The book's TypeScript client (`docs/service.md`): the `ts` block that
/// makes an openapi-fetch client of the document's types.
fn book_client() -> String {
    let chapter = std::fs::read_to_string(tools::clients_dir().join("../../../../docs/service.md"))
        .expect("the book's chapter on the service");
    let mut blocks = chapter.split("```ts\n").skip(1);
    let block = blocks
        .find(|block| block.contains("createClient<paths"))
        .expect(
            "docs/service.md has a ```ts block with an openapi-fetch client (createClient<paths…>)",
        );
    block.split("\n```").next().expect("a block").to_owned() + "\n"
}

#[test]
fn the_books_typescript_client_compiles_against_the_document_and_runs() {
    let Some(npm) = tools::npm() else { return };
    let service = Service::start();
    let dir = tempfile::tempdir().expect("a temporary folder");
    let document = document_in(&service, dir.path());
    // Where the book runs it: its own package, its modules installed.
    std::fs::write(dir.path().join("package.json"), r#"{"type": "module"}"#).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&npm.modules, dir.path().join("node_modules")).unwrap();
    succeeds(
        npm.tool("openapi-typescript/bin/cli.js")
            .arg(&document)
            .arg("-o")
            .arg(dir.path().join("cardkit.d.ts")),
    );
    let types = std::fs::read_to_string(dir.path().join("cardkit.d.ts")).unwrap();
    // The report is typed, not `Record<string, never>`.
    assert!(
        types.contains(r#"files: components["schemas"]["File"][];"#),
        "{types}"
    );
    let client = book_client().replace("http://127.0.0.1:8080", &service.base);
    std::fs::write(dir.path().join("client.ts"), &client).unwrap();
    let tsc = |extra: &[&str]| {
        let mut command = npm.tool("typescript/bin/tsc");
        command.current_dir(dir.path()).args([
            "--strict",
            "--target",
            "es2022",
            "--module",
            "nodenext",
            "--moduleResolution",
            "nodenext",
            "--lib",
            "es2022,dom",
            "--skipLibCheck",
        ]);
        command.args(extra).arg("client.ts");
        command
    };
    succeeds(&mut tsc(&["--noEmit"]));
    // A client that reads a member the report does not have is refused: the
    // types are the report's, not `any`.
    std::fs::write(
        dir.path().join("client.ts"),
        client.replace(".diagnostics[0]", ".diagnostic[0]"),
    )
    .unwrap();
    let wrong = tsc(&["--noEmit"]).output().unwrap();
    assert!(!wrong.status.success(), "a wrong member compiles");
    assert!(
        String::from_utf8_lossy(&wrong.stdout).contains("TS2551")
            || String::from_utf8_lossy(&wrong.stdout).contains("TS2339"),
        "{}",
        String::from_utf8_lossy(&wrong.stdout)
    );
    // Run, it finds the problem cardkit reports.
    std::fs::write(dir.path().join("client.ts"), &client).unwrap();
    succeeds(&mut tsc(&["--outDir", "out"]));
    let invalid = include_str!("../../../../examples/invalid/migration-problems.json");
    let output = succeeds(
        Command::new(&npm.node)
            .current_dir(dir.path())
            .args([
                "--input-type=module",
                "-e",
                "import { firstProblem } from './out/client.js';\
                 console.log(await firstProblem(process.argv[1]));",
            ])
            .arg(invalid),
    );
    let (_, _, report) = service.ask(
        "post",
        "/v1/validate?name=card.json",
        Some((invalid, "application/json")),
        "application/json",
    );
    let report: Value = serde_json::from_str(&report).unwrap();
    let first = &report["files"][0]["documents"][0]["diagnostics"][0];
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).trim(),
        format!(
            "{}: {}",
            first["pointer"].as_str().unwrap(),
            first["message"].as_str().unwrap()
        )
    );
}

#[test]
fn redocly_finds_no_error_in_the_document() {
    let Some(npm) = tools::npm() else { return };
    let service = Service::start();
    let dir = tempfile::tempdir().expect("a temporary folder");
    let document = document_in(&service, dir.path());
    let output = npm
        .tool("@redocly/cli/bin/cli.js")
        .current_dir(dir.path())
        .args(["lint", "--format", "json"])
        .arg(&document)
        .output()
        .expect("redocly runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let report: Value = serde_json::from_str(&stdout[stdout.find('{').unwrap_or(0)..])
        .unwrap_or_else(|e| panic!("{e}: {stdout}"));
    let errors: Vec<&Value> = report["problems"]
        .as_array()
        .expect("problems")
        .iter()
        .filter(|problem| problem["severity"] == "error")
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    assert!(output.status.success(), "{stdout}");
    assert_eq!(report["totals"]["errors"], 0, "{stdout}");
}

#[test]
fn openapi_python_client_generates_typed_models() {
    let Some(python) = tools::python(&["openapi_python_client"]) else {
        return;
    };
    let service = Service::start();
    let dir = tempfile::tempdir().expect("a temporary folder");
    let document = document_in(&service, dir.path());
    let generator = python.with_file_name("openapi-python-client");
    succeeds(
        Command::new(&generator)
            .current_dir(dir.path())
            .args([
                "generate",
                "--meta",
                "none",
                "--output-path",
                "client",
                "--path",
            ])
            .arg(&document),
    );
    let models = dir.path().join("client/models");
    let model = |name: &str| {
        std::fs::read_to_string(models.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    let report = model("report.py");
    assert!(report.contains("class Report"), "{report}");
    assert!(report.contains("files: list[File]"), "{report}");
    assert!(report.contains("summary: Summary"), "{report}");
    let file = model("file.py");
    assert!(file.contains("documents: list[Document]"), "{file}");
    let diagnostic = model("diagnostic.py");
    for member in [
        "code: Code",
        "severity: Severity",
        "pointer: str",
        "line: int",
    ] {
        assert!(diagnostic.contains(member), "{member}: {diagnostic}");
    }
    // Each line of JSON Lines, a model of its own.
    let line = model("document_line.py");
    assert!(line.contains("class DocumentLine"), "{line}");
    assert!(line.contains("type_: DocumentLineType"), "{line}");
    let sarif = model("sarif.py");
    assert!(sarif.contains("runs: list[SarifRun]"), "{sarif}");
}

/// A request: method, path and query, body and its media type, `Accept`.
type Request<'a> = (&'a str, &'a str, Option<(&'a str, &'a str)>, &'a str);

/// One response, as the validation script takes it.
fn exchange(method: &str, request: &str, status: u16, media: &str, body: &str) -> Value {
    let (path, query) = request.split_once('?').unwrap_or((request, ""));
    let query: serde_json::Map<String, Value> = query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            (key.to_owned(), json!(value))
        })
        .collect();
    json!({"method": method, "path": path, "query": query, "status": status,
           "content_type": media, "body": body})
}

#[test]
fn openapi_core_validates_every_response_and_rejects_wrong_ones() {
    let Some(python) = tools::python(&["openapi_core"]) else {
        return;
    };
    let service = Service::start();
    let dir = tempfile::tempdir().expect("a temporary folder");
    let document = document_in(&service, dir.path());
    let json = "application/json";
    let card = include_str!("../../../../examples/invalid/card-layer-problems.json");
    let valid = include_str!("../../../../examples/valid/catalog.json");
    let mut requests: Vec<Request> = EXAMPLES
        .iter()
        .map(|example| (example.method, example.request, example.body, example.media))
        .collect();
    requests.extend([
        ("post", "/v1/validate", Some((valid, json)), json),
        (
            "post",
            "/v1/validate?warning_limit=0",
            Some((card, json)),
            json,
        ),
        (
            "post",
            "/v1/validate",
            Some((card, json)),
            "application/x-ndjson",
        ),
        ("post", "/v1/validate", Some(("{\"object\": ", json)), json),
        ("post", "/v1/validate", Some(("<a/>", "text/xml")), json),
        ("get", "/v1/schema/deck", None, json),
        ("get", "/v1/fields/set?since=v5.0.0", None, json),
        ("get", "/v1/explain/set", None, json),
        ("get", "/v1/explain/code/no_such_code", None, json),
    ]);
    let mut exchanges = Vec::new();
    let mut statuses = std::collections::BTreeSet::new();
    for (method, request, body, accept) in &requests {
        let (status, media, text) = service.ask(method, request, *body, accept);
        statuses.insert((status, media.clone()));
        exchanges.push(exchange(method, request, status, &media, &text));
    }
    // The same, made wrong.
    let wrong = |pointer: &str, change: &dyn Fn(&mut Value)| {
        let (request, media, text) = match pointer {
            "sarif" => (
                "/v1/validate?name=card.json",
                "application/sarif+json",
                "sarif",
            ),
            "problem" => (
                "/v1/validate?kind=deck",
                "application/problem+json",
                "problem",
            ),
            _ => ("/v1/validate?name=card.json", json, "json"),
        };
        let (status, got, body) = service.ask("post", request, Some((card, json)), media);
        assert_eq!(got, media, "{text}");
        let mut body: Value = serde_json::from_str(&body).unwrap();
        change(&mut body);
        exchange("post", request, status, media, &body.to_string())
    };
    let made_wrong = [
        wrong("json", &|body| body["files"][0]["valid"] = json!("yes")),
        wrong("json", &|body| {
            body["files"][0]["documents"][0]["diagnostics"][0]
                .as_object_mut()
                .unwrap()
                .remove("code");
        }),
        wrong("json", &|body| body["summary"]["documents"] = json!(-2)),
        wrong("sarif", &|body| {
            body["runs"][0]["tool"]["driver"]["rules"][0]
                .as_object_mut()
                .unwrap()
                .remove("fullDescription");
        }),
        wrong("problem", &|body| body["status"] = json!("400")),
    ];
    let right = exchanges.len();
    exchanges.extend(made_wrong);
    let exchanges_path = dir.path().join("exchanges.json");
    std::fs::write(&exchanges_path, Value::Array(exchanges.clone()).to_string()).unwrap();
    let output = succeeds(
        Command::new(&python)
            .arg(tools::clients_dir().join("validate_responses.py"))
            .arg(&document)
            .arg(&exchanges_path),
    );
    let verdicts: Vec<Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("a verdict"))
        .collect();
    assert_eq!(verdicts.len(), exchanges.len());
    for (exchange, verdict) in exchanges.iter().zip(&verdicts).take(right) {
        assert_eq!(
            verdict["ok"], true,
            "{} {} {}: {}",
            exchange["method"], exchange["path"], exchange["status"], verdict["error"]
        );
    }
    for (exchange, verdict) in exchanges.iter().zip(&verdicts).skip(right) {
        assert_eq!(
            verdict["ok"], false,
            "made wrong, yet valid: {}",
            exchange["body"]
        );
    }
    // Every kind of answer was among them.
    for (status, media) in [
        (200, "application/json"),
        (200, "application/x-ndjson"),
        (200, "application/sarif+json"),
        (200, "text/plain"),
        (400, "application/problem+json"),
        (404, "application/problem+json"),
        (415, "application/problem+json"),
    ] {
        assert!(
            statuses.contains(&(status, media.to_owned())),
            "no {status} {media} among {statuses:?}"
        );
    }
}
