//! Hostile input in listings, archives and configuration: one column of a
//! listing wider than any terminal, zip members that share their bytes or
//! their names, FIFOs and devices where files are expected (inputs found,
//! configurations, assets), a
//! configuration outside the project, an ignored `invalid_json`.

use crate::support;

use std::path::Path;
use std::process::Output;
use std::time::Duration;

use support::dir_with;

/// Runs `cardkit ARGS…` in `dir` (no configuration named by the
/// environment), killed if it takes longer than a test should.
fn run_in(dir: &Path, args: &[&str]) -> Output {
    let mut command = assert_cmd::Command::new(env!("CARGO_BIN_EXE_cardkit"));
    command
        .current_dir(dir)
        .env_remove("CARDKIT_CONFIG")
        .args(args)
        .timeout(Duration::from_secs(30));
    let output = command.output().expect("cardkit runs");
    assert!(output.status.code().is_some(), "killed: it hung");
    output
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// What a run printed, on both streams.
fn printed(output: &Output) -> String {
    text(&output.stdout) + &text(&output.stderr)
}

/// A template of `count` text layers, the first named `first`.
#[cfg(feature = "design")]
fn template(count: usize, first: &str) -> String {
    let layers: Vec<String> = (0..count)
        .map(|i| {
            let name = if i == 0 { first } else { "n" };
            format!(
                r#"{{"type": "text", "text": "t", "name": "{name}", "size": 1, "x": 0, "y": 0, "width": 1, "height": 1}}"#
            )
        })
        .collect();
    format!(
        r#"{{"name": "x", "width": 5, "height": 5, "data": {{"children": [{}]}}}}"#,
        layers.join(", ")
    )
}

#[cfg(feature = "design")]
#[test]
fn layers_text_is_not_padded_to_a_cell_wider_than_the_column_bound() {
    let wide = "w".repeat(70_000);
    let template = template(300, &wide);
    let dir = dir_with(&[("wide.json", &template)]);
    let output = run_in(dir.path(), &["layers", "wide.json"]);
    let listing = text(&output.stdout);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(listing.contains(&wide));
    // Every other line as short as without the wide name.
    assert!(
        listing.lines().skip(1).all(|line| line.len() < 100),
        "{listing:.300}"
    );
    assert!(listing.len() < template.len() + 300 * 100);
}

#[test]
fn config_listing_shows_a_value_wider_than_65535_characters() {
    let wide = "w".repeat(70_000);
    let config = format!("exclude = [\"{wide}\"]\n");
    let dir = dir_with(&[(".git/HEAD", ""), ("cardkit.toml", &config)]);
    let output = run_in(dir.path(), &["config"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let listing = text(&output.stdout);
    assert!(listing.contains(&wide));
    assert!(listing.len() < 2 * config.len() + 10_000);
}

/// A zip archive of stored members (name, bytes); with `shared`, every
/// entry of the central directory names the first member's bytes.
fn stored_zip(members: &[(&str, &[u8])], shared: bool) -> Vec<u8> {
    let u16 = |n: usize| u16::try_from(n).expect("small").to_le_bytes();
    let u32 = |n: usize| u32::try_from(n).expect("small").to_le_bytes();
    let mut archive = Vec::new();
    let mut central = Vec::new();
    for (index, (name, data)) in members.iter().enumerate() {
        let mut hasher = flate2::Crc::new();
        hasher.update(data);
        let crc = hasher.sum().to_le_bytes();
        let sizes = [u32(data.len()), u32(data.len())].concat();
        let offset = if shared && index > 0 {
            0
        } else {
            let offset = archive.len();
            archive.extend_from_slice(b"PK\x03\x04\x14\0\0\0\0\0\0\0\0\0");
            archive.extend_from_slice(&crc);
            archive.extend_from_slice(&sizes);
            archive.extend_from_slice(&u16(name.len()));
            archive.extend_from_slice(&[0, 0]);
            archive.extend_from_slice(name.as_bytes());
            archive.extend_from_slice(data);
            offset
        };
        central.extend_from_slice(b"PK\x01\x02\x14\0\x14\0\0\0\0\0\0\0\0\0");
        central.extend_from_slice(&crc);
        central.extend_from_slice(&sizes);
        central.extend_from_slice(&u16(name.len()));
        central.extend_from_slice(&[0; 12]);
        central.extend_from_slice(&u32(offset));
        central.extend_from_slice(name.as_bytes());
    }
    let start = archive.len();
    archive.extend_from_slice(&central);
    archive.extend_from_slice(b"PK\x05\x06\0\0\0\0");
    archive.extend_from_slice(&u16(members.len()));
    archive.extend_from_slice(&u16(members.len()));
    archive.extend_from_slice(&u32(central.len()));
    archive.extend_from_slice(&u32(start));
    archive.extend_from_slice(&[0, 0]);
    archive
}

/// A valid migration, on one line.
const MIGRATION: &[u8] = br#"{"object": "migration", "id": "0fca5b4c-3a5a-4a22-bd26-4b7a3f1b4c9e", "uri": "https://api.catalog.example.org/migrations/0fca5b4c-3a5a-4a22-bd26-4b7a3f1b4c9e", "created_at": "2023-01-15", "migration_strategy": "merge", "old_catalogA_id": "2b3c4d5e-6f70-4182-9394-a5b6c7d8e9f0", "new_catalogA_id": "7e8f9a0b-1c2d-4e3f-8a4b-5c6d7e8f9a0b", "note": "Merged the duplicate printing into its original."}"#;

#[test]
fn zip_members_that_share_one_stream_are_refused_by_name() {
    let names: Vec<String> = (0..200).map(|i| format!("m{i:03}.json")).collect();
    let members: Vec<(&str, &[u8])> = names.iter().map(|n| (n.as_str(), MIGRATION)).collect();
    let dir = tempfile::tempdir().expect("dir");
    std::fs::write(dir.path().join("bomb.zip"), stored_zip(&members, true)).expect("zip");
    let output = run_in(dir.path(), &["validate", "bomb.zip"]);
    assert_ne!(output.status.code(), Some(0));
    let said = printed(&output);
    assert!(said.contains("bomb.zip!m001.json"), "{said:.2000}");
    assert!(
        said.contains("overlap those of the member m000.json"),
        "{said:.2000}"
    );
}

#[test]
fn zip_members_of_one_name_are_reported_not_skipped() {
    let members: [(&str, &[u8]); 2] = [("a.json", b"[1, "), ("a.json", MIGRATION)];
    let dir = tempfile::tempdir().expect("dir");
    std::fs::write(dir.path().join("twice.zip"), stored_zip(&members, false)).expect("zip");
    let output = run_in(dir.path(), &["validate", "twice.zip"]);
    let said = printed(&output);
    assert_ne!(output.status.code(), Some(0), "{said}");
    assert!(said.contains("twice.zip!a.json"), "{said}");
    assert!(said.contains("2 members have this name"), "{said}");
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
}

#[cfg(unix)]
#[test]
fn a_fifo_found_in_a_folder_is_never_opened() {
    let dir = dir_with(&[("data/a.json", std::str::from_utf8(MIGRATION).unwrap())]);
    mkfifo(&dir.path().join("data/pipe.json"));
    mkfifo(&dir.path().join("data/pipe.zip"));
    let output = run_in(dir.path(), &["validate", "data"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stdout));
}

#[cfg(unix)]
#[test]
fn a_fifo_named_is_read_as_a_stream() {
    let dir = tempfile::tempdir().expect("dir");
    let pipe = dir.path().join("pipe.json");
    mkfifo(&pipe);
    let writer = {
        let pipe = pipe.clone();
        std::thread::spawn(move || std::fs::write(pipe, MIGRATION).expect("written"))
    };
    let output = run_in(dir.path(), &["validate", "pipe.json"]);
    writer.join().expect("the writer");
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stdout));
}

/// An asset that is a FIFO (or a link to one, or to a device) is reported,
/// never opened: opening a FIFO waits for a writer, and `render`,
/// `assets --check` and the fonts waited with it.
#[cfg(all(unix, feature = "render"))]
#[test]
fn an_asset_that_is_no_regular_file_is_reported_not_opened() {
    let card = r#"{"name": "C", "width": 10, "height": 10, "data": {"type": "group", "children": [{"type": "image", "src": "frame.png"}]}}"#;
    let dir = dir_with(&[("card.json", card)]);
    std::fs::create_dir(dir.path().join("assets")).expect("a folder");
    mkfifo(&dir.path().join("assets/frame.png"));
    let render = [
        "render",
        "card.json",
        "--assets",
        "assets",
        "--svg",
        "out.svg",
    ];
    let said = printed(&run_in(dir.path(), &render));
    assert!(said.contains("frame.png"), "{said}");
    assert!(said.contains("a FIFO (named pipe)"), "{said}");
    // The check says the mirror lacks it: not a file it could use.
    let check = run_in(dir.path(), &["assets", "card.json", "--check", "assets"]);
    assert_eq!(check.status.code(), Some(1), "{}", printed(&check));
    assert!(printed(&check).contains("frame.png"), "{}", printed(&check));
}

#[cfg(unix)]
#[test]
fn a_pyproject_that_is_no_regular_file_is_an_error_naming_it() {
    let dir = dir_with(&[(".git/HEAD", ""), ("sub/a.json", "{}")]);
    mkfifo(&dir.path().join("pyproject.toml"));
    let output = run_in(&dir.path().join("sub"), &["validate", "a.json"]);
    let said = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{said}");
    assert!(
        said.contains("pyproject.toml: cannot be read: is not a regular file but a FIFO"),
        "{said}"
    );

    let dir = dir_with(&[(".git/HEAD", ""), ("a.json", "{}")]);
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("cardkit.toml")).expect("link");
    let output = run_in(dir.path(), &["validate", "a.json"]);
    let said = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{said}");
    assert!(
        said.contains("cardkit.toml: cannot be read: is not a regular file but a device"),
        "{said}"
    );
}

#[test]
fn a_configuration_larger_than_the_bound_is_refused() {
    let big = format!("# {}\n", "x".repeat(2 << 20));
    let dir = dir_with(&[(".git/HEAD", ""), ("cardkit.toml", &big), ("a.json", "{}")]);
    let output = run_in(dir.path(), &["validate", "a.json"]);
    let said = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{said}");
    assert!(
        said.contains("cardkit.toml: cannot be read: is larger than"),
        "{said}"
    );
}

/// A configuration that passes anything it applies to.
const PASS_ALL: &str = "ignore = [\"/**\"]\n";

#[test]
fn the_search_for_a_configuration_stops_at_home() {
    let invalid = r#"{"object": "migration", "id": 1}"#;
    let dir = dir_with(&[("cardkit.toml", PASS_ALL), ("home/project/a.json", invalid)]);
    let project = dir.path().join("home/project");
    let mut command = assert_cmd::Command::new(env!("CARGO_BIN_EXE_cardkit"));
    let output = command
        .current_dir(&project)
        .env_remove("CARDKIT_CONFIG")
        .env("HOME", dir.path().join("home"))
        .args(["validate", "a.json"])
        .output()
        .expect("cardkit runs");
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stdout));
    // Below the home directory, it applies.
    let mut command = assert_cmd::Command::new(env!("CARGO_BIN_EXE_cardkit"));
    let output = command
        .current_dir(&project)
        .env_remove("CARDKIT_CONFIG")
        .env("HOME", dir.path())
        .args(["validate", "a.json"])
        .output()
        .expect("cardkit runs");
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stdout));
}

#[cfg(unix)]
#[test]
fn a_folder_anyone_may_write_to_is_not_searched_for_a_configuration() {
    use std::os::unix::fs::PermissionsExt;
    let invalid = r#"{"object": "migration", "id": 1}"#;
    let dir = dir_with(&[
        ("open/cardkit.toml", PASS_ALL),
        ("open/project/a.json", invalid),
    ]);
    let open = dir.path().join("open");
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o1777)).expect("chmod");
    let output = run_in(&open.join("project"), &["validate", "a.json"]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stdout));
}

#[test]
fn invalid_json_cannot_be_ignored() {
    let dir = dir_with(&[
        (".git/HEAD", ""),
        ("cardkit.toml", "ignore = [\"invalid_json\"]\n"),
        ("a.json", "not JSON"),
    ]);
    let output = run_in(dir.path(), &["validate", "a.json"]);
    let said = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{said}");
    assert!(said.contains("`invalid_json` cannot be ignored"), "{said}");

    let dir = dir_with(&[
        (".git/HEAD", ""),
        ("cardkit.toml", PASS_ALL),
        ("a.json", "not JSON"),
        ("b.jsonl", ""),
    ]);
    for file in ["a.json", "b.jsonl"] {
        let output = run_in(dir.path(), &["validate", file]);
        let said = printed(&output);
        assert_eq!(output.status.code(), Some(1), "{file}: {said}");
        assert!(said.contains("invalid_json"), "{file}: {said}");
    }
}

#[test]
fn gzip_with_trailing_zero_padding_is_read() {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut encoder, MIGRATION).expect("gzip");
    let mut bytes = encoder.finish().expect("gzip");
    bytes.extend([0; 512]);
    let dir = tempfile::tempdir().expect("dir");
    std::fs::write(dir.path().join("padded.json.gz"), bytes).expect("written");
    let output = run_in(dir.path(), &["validate", "padded.json.gz"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stdout));
}
