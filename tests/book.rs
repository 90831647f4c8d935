//! The book (`docs/`, built with mdBook) and the README, tested as a reader
//! uses them.
//!
//! - Every command the book shows with its output, in a ```` ```console ````
//!   block (`$ cardkit …`, then `? N` when it exits with another status than
//!   0, then what it prints, standard error included), is run by trycmd from
//!   the repository's root, as a reader in a checkout runs it, and must print
//!   what the book shows: a line `...` stands for any lines, `[..]` for any
//!   text within a line. Commands that need the network, a service or files
//!   outside the repository are in ```` ```sh ```` blocks, which are not run
//!   here (the quick start's are run by `tests/quick_start.rs`).
//! - Every relative link and `#anchor` of the README and of the book leads to
//!   a file and a heading that exist (anchors as mdBook and GitHub make them
//!   from a heading), and every chapter is in `docs/SUMMARY.md`.
//!
//! `TRYCMD=overwrite cargo test --test book` writes what the commands print
//! into the book's blocks (keeping `...` and `[..]` where it can); review
//! the diff.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use regex::Regex;
use support::workspace_dir;

#[test]
fn the_books_commands_print_what_the_book_shows() {
    // The working directory is the test's, the package's root: the
    // repository's root, where the book's commands are run.
    assert_eq!(
        std::env::current_dir().expect("a working directory"),
        workspace_dir()
    );
    trycmd::TestCases::new()
        .register_bin("cardkit", trycmd::cargo::cargo_bin("cardkit"))
        // No colour, whatever the terminal the tests run from asks for.
        .env("NO_COLOR", "1")
        .case("docs/*.md");
}

/// The Markdown files whose links are checked: the README and the book.
fn markdown_files() -> Vec<PathBuf> {
    let root = workspace_dir();
    let mut files = vec![root.join("README.md")];
    let mut book: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|entry| entry.expect("a folder entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    book.sort();
    files.extend(book);
    files
}

/// The fence a line opens or closes a code block with, as CommonMark reads
/// it: three or more backticks (whose info string holds no backtick) or
/// tildes, after at most three spaces (more, in a list item).
fn fence_of(line: &str) -> Option<&str> {
    let trimmed = line.trim_start();
    let mark = trimmed.chars().next().filter(|&c| c == '`' || c == '~')?;
    let length = trimmed.chars().take_while(|&c| c == mark).count();
    let info = &trimmed[length..];
    (length >= 3 && !(mark == '`' && info.contains('`'))).then(|| &trimmed[..length])
}

/// Whether `line` closes the block `open` opened: the same mark, at least as
/// many, and nothing after it.
fn closes(line: &str, open: &str) -> bool {
    fence_of(line).is_some_and(|fence| {
        fence.starts_with(&open[..1])
            && fence.len() >= open.len()
            && line.trim_start()[fence.len()..].trim().is_empty()
    })
}

/// The text with fenced code blocks and inline code spans blanked out,
/// lines kept, so that what looks like a link or a heading in code is not
/// taken for one.
fn without_code(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut fence: Option<&str> = None;
    for line in text.split_inclusive('\n') {
        match fence {
            Some(open) => {
                if closes(line, open) {
                    fence = None;
                }
                out.push('\n');
            }
            None => match fence_of(line) {
                Some(open) => {
                    fence = Some(open);
                    out.push('\n');
                }
                None => out.push_str(line),
            },
        }
    }
    // Inline code: a run of backticks up to the next run of as many.
    let mut plain = String::with_capacity(out.len());
    let bytes = out.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'`' {
            let run = bytes[i..].iter().take_while(|&&b| b == b'`').count();
            let closing = "`".repeat(run);
            let rest = &out[i + run..];
            if let Some(end) = rest.find(&closing) {
                let span = &rest[..end];
                plain.extend(span.chars().map(|c| if c == '\n' { '\n' } else { ' ' }));
                i += run + end + run;
                continue;
            }
        }
        let c = out[i..].chars().next().expect("a character");
        plain.push(c);
        i += c.len_utf8();
    }
    plain
}

/// A heading's anchor as mdBook and GitHub make it: the heading's text
/// (code and links as their text) in lower case, letters, digits, `-` and `_`
/// kept, white space made `-`, anything else left out.
fn slug(heading: &str) -> String {
    let link = Regex::new(r"\[([^\]]*)\]\([^)]*\)").expect("a regex");
    let text = link.replace_all(heading, "$1").replace('`', "");
    text.trim()
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                Some(c.to_lowercase().next().unwrap_or(c))
            } else if c.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

/// The anchors of a Markdown file's headings (`#` to `######`), a repeated
/// one numbered as mdBook and GitHub number it (`-1`, `-2`, …).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut anchors = BTreeSet::new();
    let mut fence: Option<&str> = None;
    for line in text.lines() {
        match fence {
            Some(open) => {
                if closes(line, open) {
                    fence = None;
                }
                continue;
            }
            None => {
                if let Some(open) = fence_of(line) {
                    fence = Some(open);
                    continue;
                }
            }
        }
        let level = line.chars().take_while(|&c| c == '#').count();
        if (1..=6).contains(&level) && line[level..].starts_with(' ') {
            let base = slug(&line[level + 1..]);
            let count = seen.entry(base.clone()).or_insert(0);
            anchors.insert(if *count == 0 {
                base.clone()
            } else {
                format!("{base}-{count}")
            });
            *count += 1;
        }
    }
    anchors
}

/// The links of a Markdown text, outside code: each target with the line
/// it is on.
fn links(text: &str) -> Vec<(usize, String)> {
    let plain = without_code(text);
    // `[text](target)` and `![alt](target)`; the text may span lines.
    let link = Regex::new(r"\]\(\s*([^)\s]+)(?:\s+[^)]*)?\)").expect("a regex");
    link.captures_iter(&plain)
        .map(|found| {
            let at = found.get(0).expect("a match").start();
            let line = plain[..at].matches('\n').count() + 1;
            (line, found[1].trim_matches(['<', '>']).to_owned())
        })
        .collect()
}

/// Where a link leads in the repository, if it leads into it: a relative
/// path from the file's folder, or this repository's address on GitHub
/// (`…/blob/main/PATH`, `…/tree/main/PATH`). Other addresses are not
/// checked.
fn local_target(from: &Path, target: &str) -> Option<(PathBuf, Option<String>)> {
    const REPOSITORY: &str = "https://github.com/cardkit/cardkit";
    let (path, anchor) = match target.split_once('#') {
        Some((path, anchor)) => (path, Some(anchor.to_owned())),
        None => (target, None),
    };
    let resolved = if let Some(rest) = path.strip_prefix(REPOSITORY) {
        let within = rest
            .strip_prefix("/blob/main/")
            .or_else(|| rest.strip_prefix("/tree/main/"))?;
        workspace_dir().join(within)
    } else if path.contains("://") || path.starts_with("mailto:") {
        return None;
    } else if path.is_empty() {
        from.to_path_buf()
    } else {
        from.parent().expect("a folder").join(path)
    };
    Some((resolved, anchor))
}

#[test]
fn every_link_of_the_readme_and_the_book_leads_somewhere() {
    let root = workspace_dir();
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in markdown_files() {
        let text = std::fs::read_to_string(&file).expect("a Markdown file");
        let shown = file
            .strip_prefix(&root)
            .unwrap_or(&file)
            .display()
            .to_string();
        for (line, target) in links(&text) {
            let Some((path, anchor)) = local_target(&file, &target) else {
                continue;
            };
            checked += 1;
            if !path.exists() {
                broken.push(format!("{shown}:{line}: {target}: no such file"));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            if path.extension().is_none_or(|ext| ext != "md") {
                broken.push(format!(
                    "{shown}:{line}: {target}: an anchor into a file that is not Markdown"
                ));
                continue;
            }
            let target_text = std::fs::read_to_string(&path).expect("a Markdown file");
            if !anchors(&target_text).contains(&anchor) {
                broken.push(format!(
                    "{shown}:{line}: {target}: no heading #{anchor} in {}",
                    path.strip_prefix(&root).unwrap_or(&path).display()
                ));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "links that lead nowhere:\n{}",
        broken.join("\n")
    );
    assert!(checked > 100, "only {checked} links checked");
}

#[test]
fn every_chapter_is_in_the_summary() {
    let docs = workspace_dir().join("docs");
    let summary = std::fs::read_to_string(docs.join("SUMMARY.md")).expect("docs/SUMMARY.md");
    let listed: BTreeSet<String> = links(&summary)
        .into_iter()
        .map(|(_, target)| target)
        .collect();
    for file in markdown_files().iter().skip(1) {
        let name = file
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        if name != "SUMMARY.md" {
            assert!(
                listed.contains(&name),
                "docs/{name} is not in docs/SUMMARY.md"
            );
        }
    }
}

#[test]
fn the_link_checker_finds_a_missing_file_and_a_missing_heading() {
    let text =
        "# A title\n\n## `--kind auto` and more\n\n[a](#a-title) [b](#--kind-auto-and-more) \
                [c](#nowhere) `[d](#in-code)`\n\n```sh\n[e](#in-a-block)\n```\n";
    let found: Vec<String> = links(text).into_iter().map(|(_, target)| target).collect();
    assert_eq!(found, ["#a-title", "#--kind-auto-and-more", "#nowhere"]);
    let anchors = anchors(text);
    assert!(anchors.contains("a-title") && anchors.contains("--kind-auto-and-more"));
    assert!(!anchors.contains("nowhere"));
    let readme = workspace_dir().join("README.md");
    let (path, _) = local_target(&readme, "docs/no-such-chapter.md").expect("a local link");
    assert!(!path.exists());
    let (path, anchor) = local_target(
        &readme,
        "https://github.com/cardkit/cardkit/blob/main/CONTRIBUTING.md#dependencies",
    )
    .expect("this repository's address is checked");
    assert_eq!(
        (path, anchor.as_deref()),
        (
            workspace_dir().join("CONTRIBUTING.md"),
            Some("dependencies")
        )
    );
    assert!(local_target(&readme, "https://example.org/").is_none());
}
