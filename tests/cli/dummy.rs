//! `cardkit dummy`: the template it prints validates, also through a real
//! pipe into `cardkit validate`.

use crate::support;

use std::process::{Command as StdCommand, Stdio};

use serde_json::Value;
use support::cardkit;
use support::report::json_report;

#[test]
fn dummy_prints_a_template_that_validates() {
    let output = cardkit().arg("dummy").assert().code(0).stderr("");
    let template: Value =
        serde_json::from_slice(&output.get_output().stdout).expect("dummy prints JSON");
    assert_eq!(template["name"], "Dummy");
    assert_eq!(template["card"]["width"], 100);
    assert_eq!(template["card"]["height"], 100);

    // `cardkit dummy | cardkit validate --kind template -`, through a real pipe.
    let mut dummy = StdCommand::new(env!("CARGO_BIN_EXE_cardkit"))
        .arg("dummy")
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn cardkit dummy");
    let pipe = dummy.stdout.take().expect("dummy's stdout");
    let validate = StdCommand::new(env!("CARGO_BIN_EXE_cardkit"))
        .args(["validate", "--kind", "template", "-"])
        .stdin(Stdio::from(pipe))
        .output()
        .expect("run cardkit validate");
    assert!(dummy.wait().expect("wait for dummy").success());
    assert_eq!(
        String::from_utf8_lossy(&validate.stdout),
        "checked 1 document in 1 file: 1 valid, 0 invalid\n"
    );
    assert_eq!(validate.status.code(), Some(0));

    // And without `--kind`, it is told to be a template.
    let report = json_report(
        &["-"],
        Some(&String::from_utf8_lossy(&output.get_output().stdout)),
        0,
    );
    assert_eq!(report["files"][0]["documents"][0]["kind"], "template");
}
