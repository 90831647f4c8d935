//! `migrate apply` on hostile and odd files: quotes inside unquoted fields,
//! long chains in linear time, line numbers counted as read, streaming
//! reports, links and read-only files, byte order marks.

use super::*;

/// `text` rewritten with `plan` at `pattern` as JSON (or JSON Lines).
fn json_with(
    plan: &Plan,
    pattern: &str,
    json_lines: bool,
    text: &[u8],
    on_delete: OnDelete,
) -> Result<(Vec<u8>, Report), cardkit_diff::Error> {
    let mut out = Vec::new();
    let mut report = Report::default();
    cardkit_diff::apply::json::rewrite(
        text,
        "in.json",
        json_lines,
        &Pattern::parse(pattern).unwrap(),
        plan,
        options(on_delete),
        Some(&mut out),
        &mut report,
    )?;
    Ok((out, report))
}

/// `n` merges `i -> i + 1` (the ids made from `i`), as notice lines.
fn chain_of(n: usize) -> Vec<Notice> {
    (0..n)
        .map(|i| Notice::new(&id(i), Some(&id(i + 1)), None))
        .collect()
}

#[test]
fn a_quote_inside_an_unquoted_field_does_not_hide_the_following_lines() {
    let p = plan(&[notice("n1", A, Some(B), "2024-01-01")]).unwrap();
    // RFC 4180 and the csv crate: a quote is special only at a field's start.
    let input = format!("name,id\n12\" monitor,{A}\nplain,{C}\n15\" screen,{A}\n");
    let (out, report) = csv_with(&p, &input, OnDelete::Keep).unwrap();
    assert_eq!(out, input.replace(A, B), "only the ids' bytes change");
    assert_eq!((report.references, report.count(Action::Merged)), (3, 2));
    let lines: Vec<&str> = report.changes.iter().map(|c| c.at.as_str()).collect();
    assert_eq!(lines, ["2", "4"]);
    // A quoted field still spans lines, and `""` is a quote within it.
    let input = format!("name,id\n\"a \"\"b\"\"\nc\",{A}\nx\"y\"z,{A}\n");
    let (out, report) = csv_with(&p, &input, OnDelete::Keep).unwrap();
    assert_eq!(out, input.replace(A, B));
    let lines: Vec<&str> = report.changes.iter().map(|c| c.at.as_str()).collect();
    assert_eq!(lines, ["2", "4"]);
}

#[test]
fn a_chain_of_20000_merges_is_resolved_in_linear_time_and_memory() {
    let n = 20_000;
    let started = std::time::Instant::now();
    let p = Plan::new(chain_of(n)).unwrap();
    let first = p.resolve(&id(0)).unwrap();
    assert_eq!(first.to, Some(id(n).as_str()));
    assert_eq!(first.followed, n);
    // A report line names the first notices and the last, and counts the
    // others: its length does not follow the chain's.
    let text = p.notices_text(&first);
    assert!(text.contains(&format!("… {} more …", n - 5)), "{text}");
    assert!(text.ends_with(&format!("merge {}", id(n - 1))), "{text}");
    let last = p.resolve(&id(n - 1)).unwrap();
    assert_eq!((last.to, last.followed), (Some(id(n).as_str()), 1));
    // The whole chain is still there for whoever asks for it.
    match p.outcome(&id(0)) {
        Some(cardkit_diff::apply::Outcome::Merged { notices, .. }) => {
            assert_eq!(notices.len(), n);
        }
        other => panic!("{other:?}"),
    }
    // Quadratic resolution took 35 s for 16,000 (release); this is
    // milliseconds, even unoptimised.
    assert!(started.elapsed().as_secs() < 5, "{:?}", started.elapsed());
    // The cycle and the conflict are still errors.
    let mut cycle = chain_of(n);
    cycle.push(Notice::new(&id(n), Some(&id(0)), None));
    let error = Plan::new(cycle).unwrap_err().0;
    assert!(
        error.starts_with("merges go round in a cycle through"),
        "{error}"
    );
    let mut conflict = chain_of(n);
    conflict.push(Notice::new(&id(7), Some(&id(3)), None));
    assert!(Plan::new(conflict).unwrap_err().0.contains("disagree"));
}

#[test]
fn json_line_numbers_are_counted_incrementally_at_the_pattern() {
    // 50,000 references on as many lines, 10 notices that match nothing:
    // the line of each string was counted from the file's start (quadratic).
    let notices: Vec<Notice> = (0..10)
        .map(|i| Notice::new(&id(1_000_000 + i), Some(&id(2_000_000 + i)), None))
        .collect();
    let mut p = Plan::new(notices).unwrap();
    let n = 50_000;
    let mut text = String::from("{\"cards\": [\n");
    for i in 0..n {
        text.push_str(&format!("  {{\"catalogAId\": \"{}\"}},\n", id(i)));
    }
    text.push_str(&format!("  {{\"catalogAId\": \"{A}\"}}\n]}}\n"));
    let started = std::time::Instant::now();
    let (out, report) = json_with(
        &p,
        "/cards/*/catalogAId",
        false,
        text.as_bytes(),
        OnDelete::Keep,
    )
    .unwrap();
    assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
    assert_eq!(out, text.as_bytes());
    assert_eq!(report.references, n + 1);
    // The line numbers are still right, at the end of the file too.
    p = plan(&[notice("n1", A, Some(B), "2024-01-01")]).unwrap();
    let (_, report) = json_with(
        &p,
        "/cards/*/catalogAId",
        false,
        text.as_bytes(),
        OnDelete::Keep,
    )
    .unwrap();
    assert_eq!(report.changes[0].at, (n + 2).to_string());
}

#[test]
fn a_streaming_report_keeps_no_change() {
    let p = plan(&[notice("n1", A, Some(B), "2024-01-01")]).unwrap();
    let input = format!("id\n{}", format!("{A}\n").repeat(10_000));
    let mut report = Report::counting();
    let mut out = Vec::new();
    csv::rewrite(
        input.as_bytes(),
        "in.csv",
        "id",
        &p,
        options(OnDelete::Keep),
        Some(&mut out),
        &mut report,
    )
    .unwrap();
    assert!(report.changes.is_empty(), "written as they come, not kept");
    assert_eq!(
        (report.references, report.count(Action::Merged)),
        (10_000, 10_000)
    );
    let mut text = Vec::new();
    report.text(false, &mut text).unwrap();
    assert_eq!(
        String::from_utf8(text).unwrap(),
        "10000 references: 10000 merged, 0 deleted kept, 0 dropped; 0 written\n"
    );
}

#[cfg(unix)]
#[test]
fn in_place_writes_through_a_link_and_refuses_hard_links_and_read_only_files() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let p = plan(&[notice("n1", A, Some(B), "2024-01-01")]).unwrap();
    let column = References::Column("id".into());
    let run = |path: &Path| {
        let mut report = Report::default();
        apply_files(
            &[path.to_path_buf()],
            &column,
            &p,
            options(OnDelete::Keep),
            &Output::InPlace,
            &mut report,
        )
        .map(|()| report)
    };
    let read = |path: &Path| std::fs::read_to_string(path).unwrap();
    // A symbolic link: its target is rewritten, the link stays a link.
    std::fs::create_dir(dir.path().join("real")).unwrap();
    let real = write(&dir.path().join("real"), "deck.csv", &format!("id\n{A}\n"));
    let link = dir.path().join("link.csv");
    std::os::unix::fs::symlink("real/deck.csv", &link).unwrap();
    assert_eq!(run(&link).unwrap().written, 1);
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(read(&real), format!("id\n{B}\n"));
    // A file with two hard links is refused, both left as they were.
    let linked = write(dir.path(), "h.csv", &format!("id\n{A}\n"));
    std::fs::hard_link(&linked, dir.path().join("h2.csv")).unwrap();
    let error = run(&linked).unwrap_err().0;
    assert!(error.contains("has 2 hard links"), "{error}");
    assert_eq!(read(&dir.path().join("h2.csv")), format!("id\n{A}\n"));
    // A read-only file is refused, and left as it was.
    let read_only = write(dir.path(), "ro.csv", &format!("id\n{A}\n"));
    std::fs::set_permissions(&read_only, std::fs::Permissions::from_mode(0o444)).unwrap();
    let error = run(&read_only).unwrap_err().0;
    assert!(error.contains("read-only"), "{error}");
    assert_eq!(read(&read_only), format!("id\n{A}\n"));
    // Nothing to change: the file is not written, no temporary file is left.
    let plain = write(dir.path(), "plain.csv", &format!("id\n{C}\n"));
    assert_eq!(run(&plain).unwrap().written, 0);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 6);
}

#[test]
fn a_bom_is_read_past_and_kept_and_pointers_are_read_as_rfc_6901_says() {
    let p = plan(&[
        notice("n1", A, Some(B), "2024-01-01"),
        notice("n2", C, None, "2024-01-01"),
    ])
    .unwrap();
    let text = format!("\u{feff}{{\"cards\": [{{\"x\": \"{A}\"}}, {{\"x\": \"{A}\"}}]}}");
    let (out, _) = json_with(&p, "/cards/*/x", false, text.as_bytes(), OnDelete::Keep).unwrap();
    assert_eq!(out, text.replace(A, B).as_bytes(), "the BOM is kept");
    let (out, _) = json_with(
        &p,
        "/x",
        true,
        format!("\u{feff}{{\"x\": \"{A}\"}}\n").as_bytes(),
        OnDelete::Keep,
    )
    .unwrap();
    assert_eq!(out, format!("\u{feff}{{\"x\": \"{B}\"}}\n").as_bytes());
    // The BOM is the file's: it stays when the first line is dropped (found
    // by the fuzz target apply_rewrite).
    let (out, _) = json_with(
        &p,
        "/x",
        true,
        format!("\u{feff}{{\"x\": \"{C}\"}}\n{{\"x\": \"{A}\"}}\n").as_bytes(),
        OnDelete::Drop,
    )
    .unwrap();
    assert_eq!(out, format!("\u{feff}{{\"x\": \"{B}\"}}\n").as_bytes());
    // An index with a leading zero is no index.
    let (out, report) =
        json_with(&p, "/cards/01/x", false, text.as_bytes(), OnDelete::Keep).unwrap();
    assert_eq!((out, report.references), (text.clone().into_bytes(), 0));
    let (out, _) = json_with(&p, "/cards/1/x", false, text.as_bytes(), OnDelete::Keep).unwrap();
    assert_eq!(out, text.replacen(A, B, 2).replacen(B, A, 1).as_bytes());
    for bad in ["/~", "/~2", "/cards/*/~x"] {
        assert!(Pattern::parse(bad).is_err(), "{bad}");
    }
    // Dropping with an index after the last `*` would drop the whole card:
    // refused, saying so, before anything is read.
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "in.json",
        &format!("{{\"cards\": [{{\"ids\": [\"{C}\"]}}]}}"),
    );
    let error = apply_files(
        &[file],
        &References::Pointer(Pattern::parse("/cards/*/ids/0").unwrap()),
        &p,
        options(OnDelete::Drop),
        &Output::InPlace,
        &mut Report::default(),
    )
    .unwrap_err()
    .0;
    assert!(
        error.contains("would drop the whole item at /cards/*"),
        "{error}"
    );
}
