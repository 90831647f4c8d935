//! The OpenAPI document against the service that serves it: every body a
//! set of real requests gets (each operation, each media type, problems)
//! validates against the schema the document gives for its path, status and
//! media type; bodies made wrong do not (the schemas are not vacuous); and
//! the examples the document embeds (`openapi-examples/`) are what the
//! service answers (but for the time a validation took, and the metrics'
//! values). `CARDKIT_BLESS=1` rewrites the examples.

use crate::service;

use std::path::Path;

use cardkit_serve::EXAMPLES;
use serde_json::{json, Value};

use service::Service;

/// The schema the document gives for a response, as a JSON Schema that
/// resolves the document's references.
fn response_schema(document: &Value, method: &str, path: &str, status: u16, media: &str) -> Value {
    let schema = document["paths"][path][method]["responses"][status.to_string()]["content"][media]
        ["schema"]
        .clone();
    assert!(
        schema.is_object(),
        "the document describes no {media} body for {method} {path} {status}"
    );
    let mut root = document.clone();
    let root_object = root.as_object_mut().unwrap();
    root_object.insert(
        "$schema".into(),
        json!("https://json-schema.org/draft/2020-12/schema"),
    );
    root_object.insert("allOf".into(), json!([schema]));
    root
}

/// The values a body holds: one, or one per line for JSON Lines, or the
/// text as a string.
fn values(media: &str, text: &str) -> Vec<Value> {
    match media {
        "application/x-ndjson" => text
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect(),
        "text/plain" | "image/svg+xml" | "image/png" => vec![Value::String(text.to_owned())],
        _ => vec![serde_json::from_str(text).unwrap()],
    }
}

/// Whether `value` is valid under `schema`, with the errors when it is not.
fn check(schema: &Value, value: &Value) -> Result<(), String> {
    let validator = jsonschema::validator_for(schema).expect("the schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(value)
        .map(|error| format!("{} at {}", error, error.instance_path()))
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("\n"))
    }
}

/// A request: method, path and query, body and its media type, `Accept`.
type Request = (
    &'static str,
    String,
    Option<(&'static str, &'static str)>,
    &'static str,
);

/// Requests beyond the examples'.
fn more_requests() -> Vec<Request> {
    let valid = include_str!("../../../../examples/valid/catalog.json");
    let card = include_str!("../../../../examples/invalid/card-layer-problems.json");
    let lines = include_str!("../../../../examples/valid/migrations.jsonl");
    let template = include_str!("../../../../examples/valid/template.json");
    let json = "application/json";
    vec![
        ("post", "/v1/render".into(), Some((template, json)), json),
        (
            "post",
            "/v1/render?year=2024".into(),
            Some((template, json)),
            "image/svg+xml",
        ),
        (
            "post",
            "/v1/render".into(),
            Some((template, json)),
            "image/png",
        ),
        ("post", "/v1/render".into(), Some((card, json)), json),
        (
            "post",
            "/v1/render?card=one".into(),
            Some((template, json)),
            json,
        ),
        (
            "post",
            "/v1/render".into(),
            Some((template, "text/plain")),
            json,
        ),
        ("post", "/v1/validate".into(), Some((valid, json)), json),
        (
            "post",
            "/v1/validate?warning_limit=0&deny_unknown_fields=true".into(),
            Some((card, json)),
            json,
        ),
        (
            "post",
            "/v1/validate?as_of=v4.0.0&strict_version=true".into(),
            Some((card, json)),
            "application/sarif+json",
        ),
        (
            "post",
            "/v1/validate".into(),
            Some((card, json)),
            "application/x-ndjson",
        ),
        (
            "post",
            "/v1/validate".into(),
            Some((lines, "application/x-ndjson")),
            "application/x-ndjson",
        ),
        (
            "post",
            "/v1/validate".into(),
            Some(("{\"object\": ", json)),
            json,
        ),
        ("post", "/v1/validate".into(), Some(("", json)), json),
        (
            "post",
            "/v1/validate".into(),
            Some(("<a/>", "text/xml")),
            json,
        ),
        (
            "post",
            "/v1/validate?warning_limit=-1".into(),
            Some((card, json)),
            json,
        ),
        ("get", "/v1/schema/set?names=upstream".into(), None, json),
        ("get", "/v1/schema/deck".into(), None, json),
        (
            "get",
            "/v1/fields/set?since=v5.0.0&names=upstream".into(),
            None,
            json,
        ),
        (
            "get",
            "/v1/explain/set?pointer=/cards/0/uuid".into(),
            None,
            json,
        ),
        ("get", "/v1/explain/set".into(), None, json),
        ("get", "/v1/explain/code/unknown_field".into(), None, json),
        ("get", "/v1/explain/code/no_such_code".into(), None, json),
    ]
}

/// The document's path of a request's path.
fn documented_path(request: &str) -> &'static str {
    let path = request.split('?').next().unwrap();
    [
        "/v1/validate",
        "/v1/render",
        "/v1/explain/code/{code}",
        "/v1/schema/{kind}",
        "/v1/fields/{kind}",
        "/v1/explain/{kind}",
        "/healthz",
        "/readyz",
        "/metrics",
    ]
    .into_iter()
    .find(|documented| {
        let prefix = documented.split('{').next().unwrap();
        if documented.contains('{') {
            path.starts_with(prefix) && !path[prefix.len()..].contains('/')
        } else {
            path == *documented
        }
    })
    .unwrap()
}

#[test]
fn every_body_is_as_documented() {
    let server = Service::start();
    let document = server.document();
    let mut requests: Vec<_> = EXAMPLES
        .iter()
        .map(|example| {
            (
                example.method,
                example.request.to_owned(),
                example.body,
                example.media,
            )
        })
        .collect();
    requests.extend(more_requests());
    let mut asked = std::collections::BTreeSet::new();
    for (method, request, body, accept) in requests {
        let (status, media, text) = server.ask(method, &request, body, accept);
        let path = documented_path(&request);
        asked.insert((method, path));
        let schema = response_schema(&document, method, path, status, &media);
        for value in values(&media, &text) {
            if let Err(errors) = check(&schema, &value) {
                panic!("{method} {request} ({status} {media}):\n{errors}\n{value:#}");
            }
        }
    }
    // Every operation of the document was asked.
    for (path, item) in document["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            assert!(
                asked.iter().any(|(m, p)| m == method && p == path),
                "{method} {path} was not asked"
            );
        }
    }
}

/// Sets `value` at `pointer` (which must exist).
fn set(body: &mut Value, pointer: &str, value: Value) {
    *body
        .pointer_mut(pointer)
        .unwrap_or_else(|| panic!("{pointer}")) = value;
}

/// Removes the member at `pointer`.
fn remove(body: &mut Value, pointer: &str) {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    body.pointer_mut(parent)
        .unwrap()
        .as_object_mut()
        .unwrap()
        .remove(key)
        .unwrap_or_else(|| panic!("{pointer}"));
}

#[test]
fn a_body_made_wrong_is_not_as_documented() {
    let server = Service::start();
    let document = server.document();
    let migration = include_str!("../../../../examples/invalid/migration-problems.json");
    let lines = include_str!("../../../../examples/invalid/migrations-one-bad-line.jsonl");
    type Mutation = fn(&mut Value);
    type Case<'a> = (
        &'a str,
        Option<(&'a str, &'a str)>,
        &'a str,
        &'a str,
        Mutation,
    );
    let cases: [Case; 11] = [
        (
            "/v1/validate",
            Some((migration, "application/json")),
            "application/json",
            "a verdict as a string",
            |body| set(body, "/files/0/valid", json!("no")),
        ),
        (
            "/v1/validate",
            Some((migration, "application/json")),
            "application/json",
            "a diagnostic without its code",
            |body| remove(body, "/files/0/documents/0/diagnostics/0/code"),
        ),
        (
            "/v1/validate",
            Some((migration, "application/json")),
            "application/json",
            "a code no diagnostic has",
            |body| {
                set(
                    body,
                    "/files/0/documents/0/diagnostics/0/code",
                    json!("bad_vibes"),
                )
            },
        ),
        (
            "/v1/validate",
            Some((migration, "application/json")),
            "application/json",
            "a line number below zero",
            |body| set(body, "/files/0/documents/0/diagnostics/0/line", json!(-1)),
        ),
        (
            "/v1/validate",
            Some((migration, "application/json")),
            "application/json",
            "a summary without its count of documents",
            |body| remove(body, "/summary/documents"),
        ),
        (
            "/v1/validate",
            Some((lines, "application/x-ndjson")),
            "application/x-ndjson",
            "a line of no known type",
            |body| set(body, "/type", json!("chapter")),
        ),
        (
            "/v1/validate",
            Some((migration, "application/json")),
            "application/sarif+json",
            "a rule without its full description",
            |body| remove(body, "/runs/0/tool/driver/rules/0/fullDescription"),
        ),
        (
            "/v1/validate",
            Some((migration, "application/json")),
            "application/sarif+json",
            "a result without its location's URI",
            |body| {
                remove(
                    body,
                    "/runs/0/results/0/locations/0/physicalLocation/artifactLocation/uri",
                )
            },
        ),
        (
            "/v1/validate?kind=deck",
            Some((migration, "application/json")),
            "application/problem+json",
            "a problem without its code",
            |body| remove(body, "/code"),
        ),
        (
            "/v1/validate?kind=deck",
            Some((migration, "application/json")),
            "application/problem+json",
            "a problem code no problem has",
            |body| set(body, "/code", json!("bad_vibes")),
        ),
        (
            "/v1/explain/code/missing_field",
            None,
            "application/json",
            "a code explained without its meaning",
            |body| remove(body, "/meaning"),
        ),
    ];
    for (request, body, accept, what, mutate) in cases {
        let method = if body.is_some() { "post" } else { "get" };
        let (status, media, text) = server.ask(method, request, body, accept);
        let schema = response_schema(&document, method, documented_path(request), status, &media);
        let mut value = values(&media, &text).remove(0);
        check(&schema, &value).unwrap_or_else(|errors| panic!("{what}: before: {errors}"));
        mutate(&mut value);
        assert!(
            check(&schema, &value).is_err(),
            "{what}: still valid under the schema of {request} {status} {media}"
        );
    }
}

/// A body as compared with its example: JSON without the time a
/// validation took; the metrics' names and types (their values change).
fn comparable(media: &str, text: &str) -> Vec<Value> {
    if media == "text/plain" && text.starts_with('#') {
        return text
            .lines()
            .filter(|line| line.starts_with("# "))
            .map(|line| Value::String(line.to_owned()))
            .collect();
    }
    let mut values = values(media, text);
    for value in &mut values {
        untimed(value);
    }
    values
}

/// Without `seconds`, the time a validation took.
fn untimed(value: &mut Value) {
    if let Some(object) = value.as_object_mut() {
        object.remove("seconds");
        object.values_mut().for_each(untimed);
    } else if let Some(items) = value.as_array_mut() {
        items.iter_mut().for_each(untimed);
    }
}

#[test]
fn the_examples_are_what_the_service_answers() {
    let server = Service::start();
    let bless = std::env::var_os("CARDKIT_BLESS").is_some();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("openapi-examples");
    let mut stale = Vec::new();
    for example in EXAMPLES {
        let (status, media, text) =
            server.ask(example.method, example.request, example.body, example.media);
        assert_eq!(
            (status, media.as_str()),
            (example.status, example.media),
            "{}",
            example.request
        );
        if comparable(&media, &text) != comparable(&media, example.text) {
            if bless {
                std::fs::write(dir.join(example.file), &text).unwrap();
            }
            stale.push(example.file);
        }
    }
    assert!(
        bless || stale.is_empty(),
        "the service no longer answers the examples {stale:?}; CARDKIT_BLESS=1 rewrites them"
    );
    // The document shows each of them.
    let document = server.document();
    for example in EXAMPLES {
        let examples = &document["paths"][example.path][example.method]["responses"]
            [example.status.to_string()]["content"][example.media]["examples"];
        assert!(
            examples
                .as_object()
                .is_some_and(|examples| examples.keys().any(|name| name.starts_with(example.file))),
            "{} is not in the document",
            example.file
        );
    }
}
