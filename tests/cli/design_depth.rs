//! The design commands on designs as deep as documents may nest, and one
//! level deeper; on a design that starts with a byte order mark; on an
//! invalid design with many errors.

use crate::support;

use std::path::Path;

use support::cardkit;

/// The deepest nesting of arrays and objects the validator passes.
const LIMIT: usize = 1100;

/// How deep `text` nests arrays and objects (no brackets in its strings).
fn depth(text: &str) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    for b in text.bytes() {
        match b {
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth -= 1,
            _ => {}
        }
    }
    deepest
}

/// A template whose card's groups nest so that the whole file is exactly
/// `levels` deep; it has one image set, `0`, with a variant `v`.
fn nested_template(levels: usize) -> String {
    let wrap = |groups: usize, leaf: &str| {
        let open = r#"{"type": "group", "children": ["#.repeat(groups);
        let close = "]}".repeat(groups);
        format!(
            r#"{{"name": "T", "context": {{"imageSets": [{{"prototype": {{}}, "variants": [{{"name": "v", "src": "v.png", "thumb": "v.png"}}]}}],
  "symbolSets": [{{"name": "s", "prototype": {{}}, "srcPrefix": "", "symbols": [{{"name": "T", "src": "t.svg"}}]}}]}},
  "card": {{"name": "C", "width": 10, "height": 10, "data": {open}{leaf}{close}}}}}"#
        )
    };
    // Each group is two levels (the object, its children); an empty group
    // as the leaf is one level more than an image.
    let leaves = [
        r#"{"type": "image", "src": "a.png"}"#,
        r#"{"type": "group", "children": []}"#,
    ];
    for groups in (levels / 2).saturating_sub(4)..=levels / 2 {
        for leaf in leaves {
            let template = wrap(groups, leaf);
            if depth(&template) == levels {
                return template;
            }
        }
    }
    panic!("no template {levels} deep");
}

/// Each design command's arguments on `file`, writing into `dir`.
fn commands(file: &str, dir: &Path) -> Vec<Vec<String>> {
    let svg = dir.join("out.svg").to_str().unwrap().to_owned();
    let words = |line: &str| line.split(' ').map(str::to_owned).collect::<Vec<_>>();
    vec![
        words(&format!("layers {file}")),
        words(&format!("assets {file}")),
        words(&format!("expand {file} --set 0 --variant v")),
        words(&format!("symbols {file}")),
        words(&format!("render {file} --force --svg {svg}")),
    ]
}

#[test]
fn design_commands_read_designs_as_deep_as_documents_may_nest() {
    let dir = tempfile::tempdir().unwrap();
    let at_limit = dir.path().join("at-limit.json");
    std::fs::write(&at_limit, nested_template(LIMIT)).unwrap();
    let over = dir.path().join("over.json");
    std::fs::write(&over, nested_template(LIMIT + 1)).unwrap();
    for args in commands(at_limit.to_str().unwrap(), dir.path()) {
        let output = cardkit().args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{args:?}: {stderr}");
    }
    for args in commands(over.to_str().unwrap(), dir.path()) {
        let output = cardkit().args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            matches!(output.status.code(), Some(1 | 2)),
            "{args:?}: {:?} {stderr}",
            output.status
        );
        assert!(
            stderr.contains("invalid template: 1 error\n")
                && stderr.contains("too_deep at \"/card/data/children/0/")
                && stderr.contains("1100"),
            "{args:?}: {stderr:.400}"
        );
    }
}

#[test]
fn design_commands_skip_a_byte_order_mark() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bom.json");
    std::fs::write(&file, format!("\u{feff}{}", nested_template(20))).unwrap();
    for args in commands(file.to_str().unwrap(), dir.path()) {
        let output = cardkit().args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{args:?}: {stderr}");
    }
}

#[test]
fn an_invalid_design_is_reported_in_bounded_lines() {
    let dir = tempfile::tempdir().unwrap();
    let layers = vec![r#"{"type": "text"}"#; 20_000].join(", ");
    let card = format!(
        r#"{{"name": "C", "width": 10, "height": 10, "data": {{"type": "group", "children": [{layers}]}}}}"#
    );
    let file = dir.path().join("bad.json");
    std::fs::write(&file, card).unwrap();
    let file = file.to_str().unwrap();
    let svg = dir.path().join("out.svg");
    for args in [
        vec!["layers", file],
        vec!["assets", file],
        vec!["render", file, "--svg", svg.to_str().unwrap()],
    ] {
        let output = cardkit().args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            output.status.code().is_some_and(|code| code != 0),
            "{args:?}"
        );
        assert!(stderr.len() < 8192, "{args:?}: {} bytes", stderr.len());
        assert!(
            stderr.contains("invalid card design: ")
                && stderr.contains("more (`cardkit validate` reports every one)"),
            "{args:?}: {stderr}"
        );
        assert!(stderr.lines().all(|line| line.len() < 1024), "{stderr}");
    }
}
