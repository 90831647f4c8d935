//! The Quick start runs as written, in the README and in the book
//! (`docs/quick-start.md`). Every command of their fenced `sh` blocks is run
//! with `sh -c`, the word `cardkit` replaced by the binary just built, in a
//! temporary directory holding a copy of `examples/` (the quick start runs
//! them in a checkout, or wherever `examples/` is copied), in order, and must
//! exit 0, or with the status that a comment `# exit status N: …` on the line
//! before it states. Where a `text` block follows an `sh` block, each of its
//! lines (but `…`) is a line that block's commands printed. (The book's
//! `console` blocks, commands with their whole output, are run by
//! `tests/book.rs`.)
//!
//! Two commands cannot run as they are: `cardkit serve` runs until it is
//! stopped, so it is started on a free port, asked for `/healthz` and the
//! page at `/`, and stopped as Ctrl-C stops it; `sqlite3` is run only where it
//! is installed, and elsewhere its query runs through `rusqlite`.

use crate::support;

use std::path::Path;
use std::process::Command;

use support::service::Service;
use support::{examples_dir, workspace_dir};

/// A fenced block of the Quick start: its language and its lines.
struct Block {
    lang: String,
    lines: Vec<String>,
}

/// One command of an `sh` block, and the exit status the text states.
struct Step {
    command: String,
    status: i32,
}

/// The fenced blocks of the README's `## Quick start` section, in order.
fn quick_start_blocks(readme: &str) -> Vec<Block> {
    let section: Vec<&str> = readme
        .lines()
        .skip_while(|line| line.trim_end() != "## Quick start")
        .skip(1)
        .take_while(|line| !line.starts_with("## "))
        .collect();
    assert!(
        !section.is_empty(),
        "the README has no `## Quick start` section"
    );
    fenced_blocks(&section)
}

/// The fenced blocks of some lines of Markdown, in order.
fn fenced_blocks(section: &[&str]) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut open: Option<Block> = None;
    for &line in section {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(lang)) => {
                open = Some(Block {
                    lang: lang.trim().to_owned(),
                    lines: Vec::new(),
                });
            }
            (Some(_), Some("")) => blocks.push(open.take().expect("an open block")),
            (Some(block), _) => block.lines.push(line.to_owned()),
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "a block of the Quick start is not closed");
    blocks
}

/// The commands of an `sh` block, each with the status stated before it (0
/// when none is): `# exit status N: why` applies to the next command; other
/// comments are prose; a line ending in `\` goes on on the next.
fn steps(block: &Block) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut status = None;
    let mut pending = String::new();
    for line in &block.lines {
        let line = line.trim();
        if pending.is_empty() {
            if line.is_empty() {
                continue;
            }
            if let Some(comment) = line.strip_prefix('#') {
                if let Some(rest) = comment.trim().strip_prefix("exit status ") {
                    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                    let n = digits
                        .parse()
                        .unwrap_or_else(|_| panic!("no status in the comment {line:?}"));
                    assert!(status.replace(n).is_none(), "two statuses before a command");
                }
                continue;
            }
        }
        match line.strip_suffix('\\') {
            Some(head) => {
                pending.push_str(head);
                pending.push(' ');
            }
            None => {
                pending.push_str(line);
                steps.push(Step {
                    command: std::mem::take(&mut pending),
                    status: status.take().unwrap_or(0),
                });
            }
        }
    }
    assert!(pending.is_empty(), "a command ends with `\\`: {pending}");
    assert!(status.is_none(), "an exit status stated before no command");
    steps
}

/// `command` with each word `cardkit` (where a command starts: at the start,
/// after white space or `|;&(`, and followed by white space or the end)
/// replaced by the binary, quoted for the shell.
fn with_binary(command: &str) -> String {
    let binary = format!("'{}'", env!("CARGO_BIN_EXE_cardkit").replace('\'', r"'\''"));
    let mut out = String::new();
    let mut rest = command;
    while let Some(at) = rest.find("cardkit") {
        let before = rest[..at].chars().next_back();
        let after = rest[at + "cardkit".len()..].chars().next();
        let starts = before.is_none_or(|c| c.is_whitespace() || "|;&(".contains(c));
        let ends = after.is_none_or(char::is_whitespace);
        out.push_str(&rest[..at]);
        out.push_str(if starts && ends { &binary } else { "cardkit" });
        rest = &rest[at + "cardkit".len()..];
    }
    out.push_str(rest);
    out
}

/// The words of a command, without a trailing comment.
fn words(command: &str) -> Vec<&str> {
    command
        .split_whitespace()
        .take_while(|word| !word.starts_with('#'))
        .collect()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("make a folder");
    for entry in std::fs::read_dir(from).expect("read a folder") {
        let entry = entry.expect("a folder entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("a file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy a file");
        }
    }
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()))
}

/// `sqlite3 DB 'SQL'`, run through rusqlite: rows as `sqlite3` prints them
/// (values joined by `|`).
fn sqlite_through_rusqlite(dir: &Path, words: &[&str], command: &str) -> String {
    let [_, db, ..] = words else {
        panic!("not `sqlite3 DB 'SQL'`: {command}");
    };
    let sql = command
        .split_once('\'')
        .and_then(|(_, rest)| rest.rsplit_once('\''))
        .map(|(sql, _)| sql)
        .unwrap_or_else(|| panic!("no quoted query in {command}"));
    let connection = rusqlite::Connection::open(dir.join(db)).expect("open the database");
    let mut statement = connection.prepare(sql).expect("the query");
    let columns = statement.column_count();
    let mut rows = statement.query([]).expect("run the query");
    let mut out = String::new();
    while let Some(row) = rows.next().expect("a row") {
        let values: Vec<String> = (0..columns)
            .map(|i| match row.get_ref(i).expect("a value") {
                rusqlite::types::ValueRef::Null => String::new(),
                rusqlite::types::ValueRef::Integer(n) => n.to_string(),
                rusqlite::types::ValueRef::Real(x) => x.to_string(),
                rusqlite::types::ValueRef::Text(text) => String::from_utf8_lossy(text).into_owned(),
                rusqlite::types::ValueRef::Blob(_) => panic!("a blob in {command}"),
            })
            .collect();
        out.push_str(&values.join("|"));
        out.push('\n');
    }
    out
}

/// `cardkit serve ARGS…` started in `dir` on a free port (an `--addr` in
/// the README's command is replaced), asked for its health and its page,
/// then stopped with SIGTERM, as Ctrl-C stops it: it must exit 0.
fn serve(dir: &Path, words: &[&str]) -> String {
    let mut args = Vec::new();
    let mut rest = words[2..].iter();
    while let Some(&word) = rest.next() {
        if word == "--addr" {
            rest.next();
        } else if !word.starts_with("--addr=") {
            args.push(word);
        }
    }
    let mut service = Service::start_in(dir, &args);
    assert!(
        service.first_line.contains("listening on http://"),
        "{}",
        service.first_line
    );
    let health = ureq::get(&service.url("/healthz"))
        .call()
        .expect("GET /healthz")
        .into_body()
        .read_to_string()
        .expect("its body");
    assert_eq!(health.trim(), "ok");
    let page = ureq::get(&service.url("/"))
        .call()
        .expect("GET /")
        .into_body()
        .read_to_string()
        .expect("the page");
    assert!(page.contains("<title>cardkit"), "the page:\n{page}");

    let pid = service.child.id().to_string();
    let killed = Command::new("sh")
        .args(["-c", &format!("kill -TERM {pid}")])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let status = service.child.wait().expect("the service stops");
    assert_eq!(
        status.code(),
        Some(0),
        "cardkit serve stopped with {status}"
    );
    service.first_line.clone()
}

/// Runs the commands of the `sh` blocks in a copy of `examples/`, checks
/// their statuses and the `text` blocks after them; returns the commands run.
fn run_sh_blocks(blocks: &[Block], source: &str) -> Vec<String> {
    let dir = tempfile::tempdir().expect("a temporary directory");
    copy_dir(&examples_dir(), &dir.path().join("examples"));
    let have_sqlite3 = on_path("sqlite3");

    let mut ran: Vec<String> = Vec::new();
    for (index, block) in blocks.iter().enumerate() {
        if block.lang != "sh" {
            continue;
        }
        let mut printed = String::new();
        for step in steps(block) {
            let words = words(&step.command);
            ran.push(step.command.clone());
            if words.starts_with(&["cardkit", "serve"]) {
                printed.push_str(&serve(dir.path(), &words));
                continue;
            }
            if words.first() == Some(&"sqlite3") && !have_sqlite3 {
                eprintln!("no sqlite3 on PATH: running its query through rusqlite");
                assert_eq!(step.status, 0, "{}", step.command);
                printed.push_str(&sqlite_through_rusqlite(dir.path(), &words, &step.command));
                continue;
            }
            let output = Command::new("sh")
                .args(["-c", &with_binary(&step.command)])
                .current_dir(dir.path())
                .env_remove("CARDKIT_CONFIG")
                .output()
                .unwrap_or_else(|e| panic!("sh runs {}: {e}", step.command));
            let stdout = String::from_utf8_lossy(&output.stdout);
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(
                output.status.code(),
                Some(step.status),
                "`{}` exited with {}, {source} says {}\nstdout:\n{stdout}\nstderr:\n{stderr}",
                step.command,
                output.status,
                step.status
            );
            printed.push_str(&stdout);
            printed.push_str(&stderr);
        }
        // The output shown after the block.
        if let Some(shown) = blocks.get(index + 1).filter(|next| next.lang == "text") {
            let lines: Vec<&str> = printed.lines().map(str::trim_end).collect();
            for line in &shown.lines {
                let line = line.trim_end();
                if line.is_empty() || line == "…" {
                    continue;
                }
                assert!(
                    lines.contains(&line),
                    "{source} shows {line:?} after `{}`, which printed:\n{printed}",
                    block.lines.join("; ")
                );
            }
        }
    }
    ran
}

/// Whether one of the commands run holds every word given.
fn has(ran: &[String], words: &[&str]) -> bool {
    ran.iter()
        .any(|command| words.iter().all(|word| command.contains(word)))
}

#[test]
fn every_command_of_the_quick_start_runs_as_the_readme_says() {
    let readme_path = workspace_dir().join("README.md");
    let readme = std::fs::read_to_string(&readme_path)
        .unwrap_or_else(|e| panic!("{}: {e}", readme_path.display()));
    let ran = run_sh_blocks(&quick_start_blocks(&readme), "the README");

    // What the README's Quick start must show, so that it cannot lose it
    // unnoticed.
    assert!(
        has(&ran, &["cardkit validate", "examples/published/"]),
        "{ran:#?}"
    );
    assert!(has(&ran, &["cardkit validate", "--strict"]), "{ran:#?}");
    assert!(
        has(&ran, &["sqlite3 published.db", "catalog_a_id"]),
        "{ran:#?}"
    );
    assert!(
        readme.contains("# exit status 1"),
        "no command of the Quick start states a failing status"
    );
}

#[test]
fn every_sh_command_of_the_books_quick_start_runs_as_the_book_says() {
    let path = workspace_dir().join("docs/quick-start.md");
    let book = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let lines: Vec<&str> = book.lines().collect();
    let ran = run_sh_blocks(&fenced_blocks(&lines), "docs/quick-start.md");

    // What the book's Quick start must show: its `sh` commands run here, its
    // `console` ones in tests/book.rs.
    assert!(has(&ran, &["cardkit export --to published.db"]), "{ran:#?}");
    assert!(has(&ran, &["cardkit export --to cards.db"]), "{ran:#?}");
    assert!(has(&ran, &["sqlite3 cards.db"]), "{ran:#?}");
    assert!(has(&ran, &["cardkit serve"]), "{ran:#?}");
    for shown in [
        "$ cardkit validate examples/published/V13.json",
        "$ cardkit validate --strict examples/published/",
        "$ cardkit validate --as-of latest ",
        "$ cardkit explain set /",
        "$ cardkit explain missing_field",
    ] {
        assert!(
            book.contains(shown),
            "docs/quick-start.md does not show {shown:?}"
        );
    }
}

#[test]
fn the_word_cardkit_is_replaced_where_it_is_a_command() {
    let binary = env!("CARGO_BIN_EXE_cardkit");
    let replaced = with_binary("cardkit validate cardkit.toml x | cardkit explain y");
    assert_eq!(replaced.matches(binary).count(), 2, "{replaced}");
    assert!(replaced.contains(" cardkit.toml "), "{replaced}");
    assert_eq!(with_binary("head -n 5 a.json"), "head -n 5 a.json");
}

#[test]
fn statuses_are_read_from_the_comment_before_a_command() {
    let block = Block {
        lang: "sh".to_owned(),
        lines: [
            "# prose",
            "cardkit a",
            "# exit status 1: because",
            "cardkit b \\",
            "  --flag",
            "cardkit c   # trailing",
        ]
        .map(str::to_owned)
        .to_vec(),
    };
    let steps = steps(&block);
    let seen: Vec<(&str, i32)> = steps
        .iter()
        .map(|s| (s.command.as_str(), s.status))
        .collect();
    assert_eq!(
        seen,
        [
            ("cardkit a", 0),
            ("cardkit b  --flag", 1),
            ("cardkit c   # trailing", 0)
        ]
    );
}
