//! `cardkit completions SHELL` covers every command, nested subcommands
//! (`migrate apply`) included, and every flag their help lists; `cardkit man`
//! has a page per command with its flags; and `cardkit dummy KIND` makes a
//! valid document of each kind.

use crate::support;

use std::collections::BTreeSet;

use support::{cardkit, into_a_closed_pipe, Stream};

fn stdout(args: &[&str]) -> String {
    let output = cardkit().args(args).output().expect("cardkit runs");
    assert!(output.status.success(), "{args:?}: {output:?}");
    String::from_utf8(output.stdout).expect("UTF-8")
}

/// The subcommands the help of `cardkit PATH…` lists (without `help`).
fn subcommands(path: &[&str]) -> Vec<String> {
    let mut args = path.to_vec();
    args.push("--help");
    let help = stdout(&args);
    help.lines()
        .skip_while(|line| !line.starts_with("Commands:"))
        .skip(1)
        .take_while(|line| !line.trim().is_empty())
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

/// The commands `cardkit --help` lists (without `help`).
fn commands() -> Vec<String> {
    subcommands(&[])
}

/// Every command and nested subcommand, as the words that name it
/// (`["validate"]`, `["migrate", "apply"]`).
fn command_paths() -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let mut pending: Vec<Vec<String>> = commands().into_iter().map(|c| vec![c]).collect();
    while let Some(path) = pending.pop() {
        let words: Vec<&str> = path.iter().map(String::as_str).collect();
        for sub in subcommands(&words) {
            let mut longer = path.clone();
            longer.push(sub);
            pending.push(longer);
        }
        paths.push(path);
    }
    paths.sort();
    paths
}

/// Every `--flag` a help text names in its options.
fn flags(help: &str) -> BTreeSet<String> {
    help.lines()
        .map(str::trim_start)
        .filter(|line| line.starts_with('-'))
        .flat_map(|line| line.split(|c: char| c == ',' || c.is_whitespace()))
        .filter(|word| word.starts_with("--") && word.len() > 2)
        .map(|word| {
            word.split(['=', '<', '['])
                .next()
                .unwrap_or(word)
                .to_owned()
        })
        .filter(|flag| flag != "--help" && flag != "--version")
        .collect()
}

#[test]
fn completions_name_every_command_and_flag() {
    let paths = command_paths();
    assert!(paths.len() >= 13, "{paths:?}");
    assert!(
        paths.contains(&vec!["migrate".to_owned(), "apply".to_owned()]),
        "{paths:?}"
    );
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let script = stdout(&["completions", shell]);
        for path in &paths {
            let command = path.last().expect("a word");
            assert!(script.contains(command.as_str()), "{shell}: {path:?}");
            let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
            args.push("--help");
            for flag in flags(&stdout(&args)) {
                // fish names long flags without their dashes (`-l as-of`).
                let bare = flag.trim_start_matches('-');
                assert!(
                    script.contains(&flag) || (shell == "fish" && script.contains(bare)),
                    "{shell}: {path:?} {flag}"
                );
            }
        }
    }
    let refused = cardkit().args(["completions", "tcsh"]).output().unwrap();
    assert_eq!(refused.status.code(), Some(2));
}

#[test]
fn the_manual_has_a_page_per_command_with_its_flags() {
    let man = stdout(&["man"]);
    // Each page starts at its title line, `.TH NAME 1 …`.
    let pages: Vec<&str> = man.split(".TH ").skip(1).collect();
    assert!(pages[0].starts_with("cardkit 1"), "{}", pages[0]);
    for path in command_paths() {
        let title = format!("cardkit-{} 1", path.join("-"));
        let page = pages
            .iter()
            .find(|page| page.starts_with(&title))
            .unwrap_or_else(|| panic!("no page {title}"));
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        for flag in flags(&stdout(&args)) {
            // roff escapes the dashes of flags.
            let roff = flag.replace('-', "\\-");
            assert!(page.contains(&roff), "{path:?}: {flag}");
        }
    }
}

#[test]
fn a_dummy_of_every_kind_is_valid() {
    for kind in ["template", "card", "set", "migration"] {
        let document = stdout(&["dummy", kind]);
        cardkit()
            .args(["validate", "--no-config", "--kind", kind, "-"])
            .write_stdin(document.clone())
            .assert()
            .code(0);
        // Its kind is told from its members, too.
        cardkit()
            .args(["validate", "--no-config", "-"])
            .write_stdin(document)
            .assert()
            .code(0);
    }
    assert_eq!(stdout(&["dummy"]), stdout(&["dummy", "template"]));
}

#[test]
fn completions_and_the_manual_into_a_closed_pipe_end_quietly() {
    for args in [&["completions", "bash"][..], &["man"]] {
        let (status, stderr) = into_a_closed_pipe(args, Stream::Stdout);
        assert_eq!(status, Some(0), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
