//! `cardkit serve` as it is run: the binary started on a free port, asked
//! over HTTP, and stopped by a signal.

use crate::support;

#[path = "../../crates/cardkit/tests/support/cases.rs"]
#[allow(dead_code)]
mod cases;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use cardkit::Options;
use serde_json::Value;

use support::service::Service;
use support::{shared_dir, workspace_dir};

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into()
}

/// The query that asks the service what `options` ask the command line.
fn query(options: &Options, name: &str) -> String {
    let mut query = vec![format!("name={}", encode(name))];
    if let Some(kind) = options.kind {
        query.push(format!("kind={kind}"));
    }
    if options.deny_unknown_fields {
        query.push("deny_unknown_fields=true".into());
    }
    // As of the latest unless asked: the service reads a body once, so a
    // file's `meta` past its first MiB is seen by the command line only.
    match options.as_of {
        Some(version) => query.push(format!("as_of={version}")),
        None => query.push("as_of=latest".into()),
    }
    if options.strict_version {
        query.push("strict_version=true".into());
    }
    if options.warn_deprecated {
        query.push("warn=deprecated".into());
    }
    format!("?{}", query.join("&"))
}

fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'/' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The same options as `cardkit validate` arguments.
fn arguments(options: &Options) -> Vec<String> {
    let mut args = vec!["validate".to_owned(), "--format".into(), "json".into()];
    if let Some(kind) = options.kind {
        args.extend(["--kind".into(), kind.to_string()]);
    }
    if options.deny_unknown_fields {
        args.push("--deny-unknown-fields".into());
    }
    match options.as_of {
        Some(version) => args.extend(["--as-of".into(), version.to_string()]),
        None => args.extend(["--as-of".into(), "latest".into()]),
    }
    if options.strict_version {
        args.push("--strict-version".into());
    }
    if options.warn_deprecated {
        args.extend(["--warn".into(), "deprecated".into()]);
    }
    args
}

fn without_time(mut report: Value) -> Value {
    if let Some(summary) = report["summary"].as_object_mut() {
        summary.remove("seconds");
    }
    // The command line's hint that a file is older than the version it is
    // checked as of needs its first MiB before validation; the service
    // validates a body as it arrives, without it.
    for file in report["files"].as_array_mut().into_iter().flatten() {
        if let Some(file) = file.as_object_mut() {
            file.remove("note");
            if let Some(reading) = file.get_mut("reading").and_then(Value::as_object_mut) {
                // Nor what the file declares, when a version is asked.
                reading.remove("way_out");
                reading.remove("declared");
            }
        }
    }
    if let Some(summary) = report["summary"].as_object_mut() {
        summary.remove("ways_out");
    }
    report
}

/// The command line's report of `path` and the service's of its bytes agree.
fn check_agree(service: &Service, agent: &ureq::Agent, path: &Path, options: &Options) {
    let name = path
        .strip_prefix(workspace_dir())
        .unwrap_or(path)
        .display()
        .to_string();
    let output = support::cardkit()
        .current_dir(workspace_dir())
        .args(arguments(options))
        .arg(&name)
        .output()
        .expect("cardkit validate runs");
    let cli: Value = serde_json::from_slice(&output.stdout).expect("the CLI's JSON");
    let media = if options.json_lines {
        "application/x-ndjson"
    } else {
        "application/json"
    };
    let body = std::fs::read(path).expect("the input");
    let mut response = agent
        .post(service.url(&format!("/v1/validate{}", query(options, &name))))
        .header("content-type", media)
        .send(&body[..])
        .expect("the service answers");
    assert_eq!(response.status(), 200, "{name}");
    let served: Value = serde_json::from_reader(response.body_mut().as_reader())
        .unwrap_or_else(|e| panic!("{name}: the service's JSON: {e}"));
    assert_eq!(without_time(served), without_time(cli), "{name}");
}

#[test]
fn the_service_reports_as_the_command_line_on_every_case_and_corpus_file() {
    let service = Service::start();
    let agent = agent();
    let conformance = workspace_dir().join("crates/cardkit/tests/conformance");
    let mut checked = 0;
    for path in json_files(&conformance) {
        let case = cases::Case::load(&path);
        check_agree(&service, &agent, &path, &case.options);
        checked += 1;
    }
    assert!(checked >= 200, "{checked} cases");
    let Some(shared) = shared_dir() else { return };
    let corpus = json_files(&shared.join("corpus/neutral"));
    assert!(corpus.len() >= 30, "{} corpus files", corpus.len());
    for path in corpus {
        check_agree(&service, &agent, &path, &Options::default());
    }
}

/// Every JSON file below `dir`, as `validate` finds them.
fn json_files(dir: &Path) -> Vec<PathBuf> {
    cardkit_run::discover(&[dir])
        .inputs
        .into_iter()
        .map(|input| match input {
            cardkit_run::Input::Found(path) => path,
            other => panic!("{other:?} below {}", dir.display()),
        })
        .collect()
}

/// The case support finds the conformance cases here.
fn conformance_dir() -> PathBuf {
    workspace_dir().join("crates/cardkit/tests/conformance")
}

#[test]
fn sigterm_lets_the_request_in_flight_finish_then_stops() {
    let mut service = Service::start();
    let mut upload = TcpStream::connect(&service.addr).expect("connect");
    upload
        .write_all(b"POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 23\r\nConnection: close\r\n\r\n{\"object\": ")
        .expect("the first part");
    // The request is in flight once the service counts it.
    let started = Instant::now();
    while !agent()
        .get(service.url("/metrics"))
        .call()
        .expect("metrics")
        .body_mut()
        .read_to_string()
        .expect("text")
        .contains("cardkit_http_requests_in_flight 2")
    {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the upload is seen"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let terminated = Command::new("kill")
        .args(["-TERM", &service.child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(terminated.success());
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        service.child.try_wait().expect("a status").is_none(),
        "the service waits for the request in flight"
    );
    upload.write_all(b"\"migration\"}").expect("the rest");
    let mut response = String::new();
    upload.read_to_string(&mut response).expect("the response");
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(response.contains("missing_field"), "{response}");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = service.child.try_wait().expect("a status") {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the service stops"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status}");
    let mut rest = String::new();
    service.stderr.read_to_string(&mut rest).expect("stderr");
    assert!(rest.contains("cardkit serve: stopped"), "{rest}");
}

/// A SIGTERM sent as soon as the service says where it listens (before it
/// has served anything) stops it gracefully, exit 0: the signals are
/// handled from before that line, not from the serving loop's first turn
/// (the book's quick start, on a loaded machine, saw it killed).
#[test]
fn sigterm_at_once_after_the_address_line_stops_the_service_gracefully() {
    for round in 0..20 {
        let mut service = Service::start();
        let terminated = Command::new("kill")
            .args(["-TERM", &service.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(terminated.success());
        let status = service.child.wait().expect("a status");
        assert_eq!(status.code(), Some(0), "round {round}: {status}");
    }
}

#[test]
fn an_address_in_use_is_an_error_that_names_it() {
    let service = Service::start();
    let output = support::cardkit()
        .args(["serve", "--addr", &service.addr])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(&service.addr), "{stderr}");
    assert!(stderr.contains("in use"), "{stderr}");
}
