//! Compressed inputs: gzip, zstd, xz, bzip2 and zip archives are told by
//! their first bytes and give the plain file's report; a stream cut short or
//! an archive that is corrupt is an input that cannot be read; a
//! decompression bomb costs time, not memory.

use crate::support;

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use predicates::str::contains;
use serde_json::Value;
use support::report::parse;
use support::{cardkit, examples_dir, show};

/// Every file of examples/ (valid and invalid), by its name there.
fn examples() -> Vec<(String, PathBuf)> {
    let mut files = Vec::new();
    for group in ["valid", "invalid"] {
        let mut dir: Vec<_> = std::fs::read_dir(examples_dir().join(group))
            .expect("examples")
            .map(|entry| entry.expect("entry").path())
            .collect();
        dir.sort();
        files.extend(dir.into_iter().map(|path| {
            let name = format!(
                "{group}/{}",
                path.file_name().expect("a name").to_string_lossy()
            );
            (name, path)
        }));
    }
    files
}

/// `bytes` compressed as `format` says.
fn compress(format: &str, bytes: &[u8]) -> Vec<u8> {
    match format {
        "gz" => {
            let mut encoder =
                flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            encoder.write_all(bytes).expect("gzip");
            encoder.finish().expect("gzip")
        }
        "zst" => zstd::encode_all(bytes, 3).expect("zstd"),
        "xz" => {
            let mut encoder = liblzma::write::XzEncoder::new(Vec::new(), 6);
            encoder.write_all(bytes).expect("xz");
            encoder.finish().expect("xz")
        }
        "bz2" => {
            let mut encoder =
                bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
            encoder.write_all(bytes).expect("bzip2");
            encoder.finish().expect("bzip2")
        }
        other => panic!("no format {other}"),
    }
}

/// A zip archive at `path` of `members` (name, bytes), deflated.
fn zip_of(path: &Path, members: &[(String, Vec<u8>)]) {
    let mut archive = zip::ZipWriter::new(File::create(path).expect("archive"));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in members {
        archive.start_file(name.as_str(), options).expect("member");
        archive.write_all(bytes).expect("member");
    }
    archive.finish().expect("archive");
}

/// `cardkit validate --format json PATHS…`: the report, and the exit status.
fn validate(paths: &[String]) -> (Value, i32) {
    let output = cardkit()
        .args(["validate", "--format", "json"])
        .args(paths)
        .output()
        .expect("run");
    (
        parse(&output.stdout),
        output.status.code().expect("a status"),
    )
}

/// A report with each file's path given by `rename`, and no time.
fn comparable(mut report: Value, rename: impl Fn(&str) -> String) -> Value {
    for file in report["files"].as_array_mut().expect("files") {
        let path = file["path"].as_str().expect("path").to_owned();
        file["path"] = Value::String(rename(&path));
    }
    report["summary"]
        .as_object_mut()
        .expect("summary")
        .remove("seconds");
    report
}

#[test]
fn every_format_of_every_example_gives_the_plain_files_report() {
    let examples = examples();
    let plain: Vec<String> = examples.iter().map(|(_, path)| show(path)).collect();
    let names: Vec<&str> = examples.iter().map(|(name, _)| name.as_str()).collect();
    let (expected, expected_code) = validate(&plain);
    let expected = comparable(expected, |path| {
        let at = plain.iter().position(|p| p == path).expect("a plain path");
        names[at].to_owned()
    });
    assert_eq!(
        expected["files"].as_array().expect("files").len(),
        names.len()
    );

    let dir = tempfile::tempdir().expect("temporary directory");
    for format in ["gz", "zst", "xz", "bz2"] {
        let mut paths = Vec::new();
        for (name, path) in &examples {
            let bytes = std::fs::read(path).expect("example");
            let at = dir
                .path()
                .join(format!("{}.{format}", name.replace('/', "-")));
            std::fs::write(&at, compress(format, &bytes)).expect("compressed");
            paths.push(show(&at));
        }
        let (report, code) = validate(&paths);
        let report = comparable(report, |path| {
            let at = paths.iter().position(|p| p == path).expect("a path given");
            names[at].to_owned()
        });
        assert_eq!(code, expected_code, "{format}");
        // The bytes validated are the decoded ones: the same as the plain
        // files'.
        assert_eq!(report, expected, "{format}");
    }

    let archive = dir.path().join("examples.zip");
    let members: Vec<(String, Vec<u8>)> = examples
        .iter()
        .map(|(name, path)| (name.clone(), std::fs::read(path).expect("example")))
        .collect();
    zip_of(&archive, &members);
    let prefix = format!("{}!", show(&archive));
    let (report, code) = validate(&[show(&archive)]);
    let report = comparable(report, |path| {
        path.strip_prefix(&prefix)
            .unwrap_or_else(|| panic!("{path} is not named as a member"))
            .to_owned()
    });
    assert_eq!(code, expected_code, "zip");
    // The members are read in name order: invalid/ before valid/.
    let mut by_name = expected.clone();
    by_name["files"]
        .as_array_mut()
        .expect("files")
        .sort_by(|a, b| a["path"].as_str().cmp(&b["path"].as_str()));
    assert_eq!(report, by_name, "zip");
}

#[test]
fn a_directory_finds_compressed_files_and_archives_and_names_an_empty_one() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let set = std::fs::read(examples_dir().join("valid/set.json")).expect("example");
    let lines = std::fs::read(examples_dir().join("valid/migrations.jsonl")).expect("example");
    std::fs::write(dir.path().join("a.json.gz"), compress("gz", &set)).expect("written");
    // JSON Lines by the ending before the compression's.
    std::fs::write(dir.path().join("b.jsonl.zst"), compress("zst", &lines)).expect("written");
    std::fs::write(dir.path().join("c.JSON.XZ"), compress("xz", &set)).expect("written");
    std::fs::write(dir.path().join("notes.txt.gz"), compress("gz", b"not json")).expect("written");
    zip_of(
        &dir.path().join("d.zip"),
        &[
            ("sets/set.json.bz2".to_owned(), compress("bz2", &set)),
            ("readme.txt".to_owned(), b"skipped".to_vec()),
        ],
    );
    zip_of(
        &dir.path().join("empty.zip"),
        &[("readme.txt".to_owned(), b"skipped".to_vec())],
    );
    let (report, code) = validate(&[show(dir.path())]);
    assert_eq!(code, 0, "{report}");
    let paths: Vec<&str> = report["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|file| file["path"].as_str().expect("path"))
        .collect();
    let at = |name: &str| show(&dir.path().join(name));
    assert_eq!(
        paths,
        [
            at("a.json.gz"),
            at("b.jsonl.zst"),
            at("c.JSON.XZ"),
            format!("{}!sets/set.json.bz2", at("d.zip")),
        ]
    );
    // Each line of the JSON Lines file is a document with its line.
    let b = &report["files"][1]["documents"];
    assert_eq!(b[0]["line"], 1);
    assert_eq!(b[1]["line"], 2);
    cardkit()
        .args(["validate", &show(dir.path())])
        .assert()
        .code(0)
        .stderr(contains(format!(
            "note: {} holds no *.json, *.jsonl or *.ndjson file",
            at("empty.zip")
        )));
}

#[test]
fn a_truncated_gzip_and_a_corrupt_zip_are_unreadable_and_the_others_are_checked() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let set = std::fs::read(examples_dir().join("valid/set.json")).expect("example");
    let good = dir.path().join("good.json");
    std::fs::write(&good, &set).expect("written");
    let cut = dir.path().join("cut.json.gz");
    let gzip = compress("gz", &set);
    std::fs::write(&cut, &gzip[..gzip.len() / 2]).expect("written");
    // A member whose data was changed: its CRC-32 is no longer the
    // archive's (stored, so the change decodes).
    let corrupt = dir.path().join("corrupt.zip");
    let mut archive = zip::ZipWriter::new(File::create(&corrupt).expect("archive"));
    let stored =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    archive.start_file("set.json", stored).expect("member");
    archive.write_all(&set).expect("member");
    archive.finish().expect("archive");
    let mut bytes = std::fs::read(&corrupt).expect("archive");
    let at = bytes
        .windows(4)
        .position(|w| w == b"uuid")
        .expect("the set's text");
    bytes[at] = b'U';
    std::fs::write(&corrupt, &bytes).expect("written");
    // An archive whose directory is gone.
    let broken = dir.path().join("broken.zip");
    std::fs::write(&broken, &bytes[..bytes.len() / 2]).expect("written");

    let paths = [&cut, &corrupt, &broken, &good].map(|path| show(path));
    cardkit()
        .arg("validate")
        .args(&paths)
        .assert()
        .code(2)
        .stdout(contains(format!(
            "{}: error: cannot read: gzip: unexpected end of file",
            paths[0]
        )))
        .stdout(contains(format!(
            "{}!set.json: error: cannot read: zip: the member is corrupt: its CRC-32 is not the archive's",
            paths[1]
        )))
        .stdout(contains(format!("{}: error: cannot read: zip: ", paths[2])))
        .stdout(contains("1 valid, 0 invalid, 3 paths unreadable"));
}

#[test]
fn gzip_on_standard_input_is_decoded_and_zip_is_refused() {
    let set = std::fs::read(examples_dir().join("valid/set.json")).expect("example");
    let plain = cardkit()
        .args(["validate", "--format", "json", "-"])
        .write_stdin(set.clone())
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let gzipped = cardkit()
        .args(["validate", "--format", "json", "-"])
        .write_stdin(compress("gz", &set))
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let same = |report: &[u8]| comparable(parse(report), str::to_owned);
    assert_eq!(same(&gzipped), same(&plain));

    let dir = tempfile::tempdir().expect("temporary directory");
    let archive = dir.path().join("a.zip");
    zip_of(&archive, &[("set.json".to_owned(), set)]);
    cardkit()
        .args(["validate", "-"])
        .write_stdin(std::fs::read(&archive).expect("archive"))
        .assert()
        .code(2)
        .stdout(contains(
            "<stdin>: error: cannot read: zip: an archive cannot be read from standard input",
        ));
}

/// A catalog whose `meta` holds a string of `zeros` zeros, gzipped as
/// concatenated members (read as one stream): one member of a mebibyte of
/// zeros is made once and written again and again, so that the test holds
/// neither the decoded text nor its compression.
fn bomb(path: &Path, mebibytes: usize) {
    let catalog =
        std::fs::read_to_string(examples_dir().join("valid/catalog.json")).expect("example");
    let rest = catalog
        .strip_prefix("{\"meta\": {")
        .expect("a catalog that starts with its meta");
    let mut file = io::BufWriter::new(File::create(path).expect("bomb"));
    file.write_all(&compress("gz", b"{\"meta\": {\"note\": \""))
        .expect("written");
    let zeros = compress("gz", &vec![b'0'; 1 << 20]);
    for _ in 0..mebibytes {
        file.write_all(&zeros).expect("written");
    }
    file.write_all(&compress("gz", format!("\", {rest}").as_bytes()))
        .expect("written");
    file.flush().expect("written");
}

#[test]
fn a_decompression_bomb_is_read_through_as_a_stream() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("bomb.json.gz");
    let mebibytes = 1024;
    bomb(&path, mebibytes);
    assert!(std::fs::metadata(&path).expect("bomb").len() < 8 << 20);
    let (report, code) = validate(&[show(&path)]);
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["summary"]["valid"], 2);
    let bytes = report["summary"]["bytes"].as_u64().expect("bytes");
    assert!(bytes > (mebibytes as u64) << 20, "{bytes} bytes decoded");
}

#[test]
fn the_text_summary_names_the_compressed_and_the_decoded_sizes() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("bomb.json.gz");
    bomb(&path, 2);
    let stored = std::fs::metadata(&path).expect("bomb").len();
    assert!((1_000..1_000_000).contains(&stored), "{stored} bytes");
    let path = show(&path);
    let plain = show(&examples_dir().join("valid/set.json"));
    let (report, _) = validate(std::slice::from_ref(&path));
    let decoded = report["summary"]["bytes"].as_u64().expect("bytes");
    let (both, _) = validate(&[path.clone(), plain.clone()]);
    let read = both["summary"]["bytes"].as_u64().expect("bytes");
    #[allow(clippy::cast_precision_loss)] // for reading
    let (decoded, read, stored) = (decoded as f64 / 1e6, read as f64 / 1e6, stored as f64 / 1e3);
    let throughput = |paths: &[&str]| {
        let output = cardkit()
            .args(["validate", "--no-config"])
            .args(paths)
            .output()
            .expect("run");
        let text = String::from_utf8(output.stdout).expect("UTF-8");
        let line = text.lines().find(|line| line.starts_with("read "));
        line.unwrap_or_else(|| panic!("no throughput:\n{text}"))
            .to_owned()
    };
    let line = throughput(&[&path]);
    let expected = format!("read {decoded:.1} MB (decoded from {stored:.1} kB compressed) in ");
    assert!(line.starts_with(&expected), "{line}");
    assert!(line.ends_with(" MB/s"), "{line}");
    let line = throughput(&[&path, &plain]);
    let expected = format!(
        "read {read:.1} MB ({decoded:.1} MB of it decoded from {stored:.1} kB compressed) in "
    );
    assert!(line.starts_with(&expected), "{line}");
}

#[test]
fn diff_and_migrate_apply_in_place_refuse_a_compressed_file_and_say_what_to_do() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let set = std::fs::read(examples_dir().join("valid/set.json")).expect("example");
    let gzipped = dir.path().join("set.json.gz");
    std::fs::write(&gzipped, compress("gz", &set)).expect("written");
    let plain = show(&examples_dir().join("valid/set.json"));
    cardkit()
        .args(["diff", &plain, &show(&gzipped)])
        .assert()
        .code(2)
        .stderr(contains(format!(
            "{} cannot be diffed: it is gzip-compressed",
            show(&gzipped)
        )))
        .stderr(contains("decompress it first"));

    let migrations = dir.path().join("migration.json");
    std::fs::write(&migrations, support::migrations::MIGRATION).expect("written");
    let migrations = show(&migrations);
    cardkit()
        .args(["migrate", "apply", "--migrations", &migrations])
        .args(["--pointer", "/cards/*/uuid", "--in-place", &show(&gzipped)])
        .assert()
        .code(2)
        .stderr(contains(format!(
            "{}: it is gzip-compressed, and migrate apply rewrites a plain file's bytes (--in-place would write it back uncompressed): decompress it first",
            show(&gzipped)
        )));
    assert_eq!(
        std::fs::read(&gzipped).expect("left as it was"),
        compress("gz", &set)
    );
}

/// JSON Lines of `lines` sets, every seventh one with problems: megabytes
/// once decoded, more than the decoded bytes in flight between the thread
/// that decodes an input and the one that reads it.
fn many_sets(lines: usize) -> Vec<u8> {
    let compact = |path: &str| {
        let text = std::fs::read(examples_dir().join(path)).expect("example");
        let value: Value = serde_json::from_slice(&text).expect("JSON");
        value.to_string()
    };
    let (good, bad) = (
        compact("valid/set.json"),
        compact("invalid/set-card-problems.json"),
    );
    let mut text = Vec::new();
    for line in 0..lines {
        text.extend_from_slice(if line % 7 == 0 { &bad } else { &good }.as_bytes());
        text.push(b'\n');
    }
    text
}

/// `cardkit validate --format json --jobs JOBS PATH`: the report without
/// its path and time, and the exit status.
fn validated(path: &Path, jobs: &str) -> (Value, i32) {
    let output = cardkit()
        .args([
            "validate",
            "--no-config",
            "--format",
            "json",
            "--jobs",
            jobs,
        ])
        .arg(path)
        .output()
        .expect("run");
    let report = comparable(parse(&output.stdout), |_| "<input>".to_owned());
    (report, output.status.code().expect("an exit status"))
}

#[test]
fn a_gzip_or_zstd_input_larger_than_the_chunks_in_flight_gives_its_plain_twins_report() {
    let text = many_sets(2_000);
    assert!(text.len() > 4 << 20, "{} bytes", text.len());
    let dir = tempfile::tempdir().expect("temporary directory");
    let plain = dir.path().join("sets.jsonl");
    std::fs::write(&plain, &text).expect("written");
    for jobs in ["1", "2"] {
        let (expected, code) = validated(&plain, jobs);
        assert_eq!(code, 1);
        assert_eq!(expected["summary"]["invalid"], 286, "{jobs} jobs");
        for format in ["gz", "zst"] {
            let path = dir.path().join(format!("sets.jsonl.{format}"));
            std::fs::write(&path, compress(format, &text)).expect("written");
            assert_eq!(
                validated(&path, jobs),
                (expected.clone(), 1),
                "{format}, {jobs} jobs"
            );
        }
    }
}

#[test]
fn a_large_gzip_or_zstd_stream_cut_short_is_reported_where_its_decoder_stops() {
    let text = many_sets(2_000);
    let dir = tempfile::tempdir().expect("temporary directory");
    for format in ["gz", "zst"] {
        let whole = compress(format, &text);
        let cut = &whole[..whole.len() * 6 / 10];
        // What the decoder gives before it finds the stream cut short: the
        // bytes read, which the report counts.
        let mut decoder: Box<dyn io::Read> = match format {
            "gz" => Box::new(flate2::read::MultiGzDecoder::new(cut)),
            _ => Box::new(zstd::stream::read::Decoder::new(cut).expect("zstd")),
        };
        let mut given = Vec::new();
        let mut buf = vec![0; 64 << 10];
        loop {
            match decoder.read(&mut buf) {
                Ok(0) => panic!("{format}: a stream cut short read to its end"),
                Ok(n) => given.extend_from_slice(&buf[..n]),
                Err(error) => {
                    assert_eq!(error.kind(), io::ErrorKind::UnexpectedEof, "{format}");
                    break;
                }
            }
        }
        let path = dir.path().join(format!("cut.jsonl.{format}"));
        std::fs::write(&path, cut).expect("written");
        let name = if format == "gz" { "gzip" } else { "zstd" };
        for jobs in ["1", "2"] {
            let (report, code) = validated(&path, jobs);
            assert_eq!(code, 2, "{report}");
            assert_eq!(
                report["files"][0]["error"],
                format!("{name}: unexpected end of file"),
                "{report}"
            );
            assert_eq!(report["summary"]["unreadable"], 1, "{report}");
            assert_eq!(
                report["summary"]["bytes"],
                given.len(),
                "{format}, {jobs} jobs"
            );
        }
        assert_eq!(given[..], text[..given.len()]);
    }
}
