//! The book's error-code table (`docs/output.md`, under `## Error codes`,
//! which the README's `## Error codes` links to: the SARIF report's rules
//! link there) is written by hand: it must list every [`Code`], in the order
//! of [`Code::ALL`], with its code string and its default severity, and
//! nothing else.

use std::path::PathBuf;

use cardkit::Code;

/// The rows of the table under the chapter's `## Error codes` heading:
/// (code, severity, meaning), as written.
fn error_code_rows(readme: &str) -> Vec<(String, String, String)> {
    let section: Vec<&str> = readme
        .lines()
        .skip_while(|line| line.trim() != "## Error codes")
        .skip(1)
        .take_while(|line| !line.starts_with('#'))
        .collect();
    assert!(
        !section.is_empty(),
        "docs/output.md has no `## Error codes` section"
    );
    let table: Vec<&str> = section
        .iter()
        .map(|line| line.trim())
        .skip_while(|line| !line.starts_with('|'))
        .take_while(|line| line.starts_with('|'))
        .collect();
    let cells = |line: &str| -> Vec<String> {
        line.trim_matches('|')
            .split('|')
            .map(|cell| cell.trim().to_owned())
            .collect()
    };
    let [header, rule, rows @ ..] = &table[..] else {
        panic!("no table in the book's error codes section:\n{section:#?}");
    };
    assert_eq!(cells(header), ["code", "severity", "meaning"], "{header}");
    assert!(
        cells(rule)
            .iter()
            .all(|c| c.chars().all(|c| c == '-' || c == ':')),
        "{rule}"
    );
    rows.iter()
        .map(|row| match &cells(row)[..] {
            [code, severity, meaning] => (code.clone(), severity.clone(), meaning.clone()),
            _ => panic!("a row of the error code table without three cells: {row}"),
        })
        .collect()
}

#[test]
fn the_error_code_table_lists_every_code_in_order_with_its_severity() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/output.md");
    let chapter =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let rows = error_code_rows(&chapter);

    let listed: Vec<(String, String)> = rows
        .iter()
        .map(|(code, severity, _)| (code.clone(), severity.clone()))
        .collect();
    let library: Vec<(String, String)> = Code::ALL
        .iter()
        .map(|code| {
            (
                format!("`{}`", code.as_str()),
                code.default_severity().as_str().to_owned(),
            )
        })
        .collect();
    let show = |rows: &[(String, String)]| -> String {
        rows.iter()
            .map(|(code, severity)| format!("| {code} | {severity} |\n"))
            .collect()
    };
    if listed != library {
        let row = listed
            .iter()
            .zip(&library)
            .position(|(a, b)| a != b)
            .unwrap_or(listed.len().min(library.len()));
        panic!(
            "the book's error code table differs from cardkit::Code::ALL and the \
             default severities from row {} on.\ndocs/output.md (code and severity):\n{}\
             library:\n{}",
            row + 1,
            show(&listed),
            show(&library)
        );
    }
    for (code, _, meaning) in &rows {
        assert!(
            !meaning.is_empty(),
            "{code} has no meaning in docs/output.md"
        );
    }
}

/// The SARIF report's rules link to the repository's page at
/// `#error-codes` (`help_uri`): the README's heading of that name, which
/// leads on to the book's table.
#[test]
fn the_readme_has_the_heading_sarif_links_to_and_it_leads_to_the_table() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../README.md");
    let readme =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let section: Vec<&str> = readme
        .lines()
        .skip_while(|line| line.trim() != "## Error codes")
        .skip(1)
        .take_while(|line| !line.starts_with('#'))
        .collect();
    assert!(
        section.join("\n").contains("(docs/output.md#error-codes)"),
        "the README's `## Error codes` does not link to docs/output.md#error-codes:\n{section:#?}"
    );
}
