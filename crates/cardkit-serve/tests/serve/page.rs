//! The web page at `/`, in a real browser: the service runs in this process
//! and `tests/browser/page.test.mjs` drives Debian's Chromium through
//! playwright-core against it (what it checks is told there).
//!
//! It needs node, Chromium (`CARDKIT_CHROMIUM`, default `/usr/bin/chromium`)
//! and `npm ci` run in `tests/browser/`; `.ci/run` installs them. Without
//! them the test says why it is skipped; in CI (`CI=true`) it fails.
//!
//! The screenshot it takes of an invalid example's report goes to
//! `target/tmp/page.png`, or with `CARDKIT_BLESS=1` to `docs/page.png`, the
//! picture of the book's chapter on the service (`docs/service.md`).

use crate::service;
#[path = "../../../cardkit/tests/support/shared.rs"]
mod shared;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use service::Service;

/// The repository's root.
fn workspace_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The folder of the browser test, with its `package.json`.
fn browser_test_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser")
}

/// What the browser test runs with.
struct Browser {
    node: OsString,
    chromium: PathBuf,
}

/// node, Chromium and playwright-core, or `None` (with the reason on
/// stderr) when the test is to be skipped.
fn browser() -> Option<Browser> {
    let node = std::env::var_os("CARDKIT_NODE").unwrap_or_else(|| "node".into());
    let chromium = std::env::var_os("CARDKIT_CHROMIUM")
        .map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from);
    let modules = browser_test_dir().join("node_modules/playwright-core");
    let runs = |program: &OsString| {
        Command::new(program)
            .arg("--version")
            .output()
            .is_ok_and(|output| output.status.success())
    };
    let why = if !runs(&node) {
        format!("node ({}) does not run", node.to_string_lossy())
    } else if !chromium.is_file() {
        format!(
            "Chromium is not at {}; install Debian's chromium or set CARDKIT_CHROMIUM",
            chromium.display()
        )
    } else if !modules.is_dir() {
        format!(
            "playwright-core is not installed; run `npm ci` in {}",
            browser_test_dir().display()
        )
    } else {
        return Some(Browser { node, chromium });
    };
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "{why}: CI must test the web page in a browser (.ci/run installs what it needs)"
    );
    eprintln!("skipped: {why}; .ci/run installs what the test of the page needs");
    None
}

#[test]
fn the_page_works_in_a_browser() {
    let Some(browser) = browser() else { return };
    let Some(shared) = shared::shared_dir() else {
        return;
    };
    let screenshot = if std::env::var_os("CARDKIT_BLESS").is_some() {
        workspace_dir().join("docs/page.png")
    } else {
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("page.png")
    };
    // The service on a runtime of its own, while node runs on this thread.
    let service = Service::start();
    let output = Command::new(&browser.node)
        .arg(browser_test_dir().join("page.test.mjs"))
        .arg(&service.base)
        .arg(&screenshot)
        .env("CARDKIT_CHROMIUM", &browser.chromium)
        .env("CARDKIT_EXAMPLES", workspace_dir().join("examples"))
        .env(
            "CARDKIT_LARGE_SET",
            shared.join("corpus/raw/set/mightstone_set_BRO.json"),
        )
        .env(
            "CARDKIT_MINIFIED_SET",
            shared.join("corpus/neutral/set/jsonsets_NEO.json"),
        )
        .env(
            "CARDKIT_UPSTREAM_SET",
            shared.join("corpus/raw/set/jsonsets_NEO.json"),
        )
        .output()
        .expect("node runs");
    service.stop();
    println!("{}", String::from_utf8_lossy(&output.stdout));
    eprintln!("{}", String::from_utf8_lossy(&output.stderr));
    assert!(
        output.status.success(),
        "the browser test failed ({}); its output is above",
        output.status
    );
    assert!(
        screenshot.is_file(),
        "a screenshot at {}",
        screenshot.display()
    );
}
