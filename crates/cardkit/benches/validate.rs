//! Validation throughput against the parse floor (`serde_json` into
//! `IgnoredAny`; `sonic-rs` and `simd-json` are measured too, as candidate
//! floors) and against what a Rust program would do without cardkit's
//! validator (`serde_json` into the typed models, which stops at the first
//! error), on the inputs of `bench/run.sh`: a real set of the corpus,
//! a generated 100 MB catalog, and the same catalog with a defect in every
//! card. Inputs are generated under `target/bench-data` when missing.
//!
//! ```sh
//! cargo bench -p cardkit --bench validate
//! ```

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use cardkit::model::Set;
use cardkit::validate::{Options, Validator};
use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn shared() -> PathBuf {
    std::env::var_os("CARDKIT_SHARED").map_or_else(|| workspace().join("../shared"), PathBuf::from)
}

/// The bytes of a benchmark input, made by `make` first if it is missing.
fn input(name: &str, make: impl FnOnce(&Path)) -> Vec<u8> {
    let path = workspace().join("target/bench-data").join(name);
    if !path.exists() {
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("bench-data folder");
        make(&path);
    }
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn run(command: &mut Command) {
    let status = command.status().expect("python3 runs");
    assert!(status.success(), "{command:?} failed");
}

fn catalog(path: &Path) {
    run(Command::new("python3")
        .arg(shared().join("bench/make_allprintings.py"))
        .arg(shared().join("corpus/raw/set/mightstone_set_BRO.json"))
        .args(["--size-mb", "100", "--seed", "1", "--neutral", "-o"])
        .arg(path));
}

/// A catalog, as the typed models read it: `data` maps codes to sets
/// (`meta` is passed over).
#[derive(serde::Deserialize)]
struct Catalog {
    data: HashMap<String, Set>,
}

/// How many cards the typed models read from `bytes` (a catalog, or one
/// bare set), or why they could not.
fn typed(bytes: &[u8], catalog: bool) -> Result<usize, serde_json::Error> {
    Ok(if catalog {
        let catalog: Catalog = serde_json::from_slice(bytes)?;
        catalog.data.values().map(|set| set.cards.len()).sum()
    } else {
        serde_json::from_slice::<Set>(bytes)?.cards.len()
    })
}

fn throughput(c: &mut Criterion) {
    let set_path = shared().join("corpus/neutral/set/mightstone_set_BRO.json");
    let set = std::fs::read(&set_path).unwrap_or_else(|e| panic!("{}: {e}", set_path.display()));
    let catalog_bytes = input("catalog-100.json", catalog);
    let invalid = input("invalid-100.json", |path| {
        let valid = workspace().join("target/bench-data/catalog-100.json");
        run(Command::new("python3")
            .arg(workspace().join("bench/make_invalid.py"))
            .arg(&valid)
            .arg("-o")
            .arg(path));
    });
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    // The typed models stop at the first defect: timed on valid inputs
    // (`Some`: whether the input is a catalog).
    for (name, bytes, samples, typed_as) in [
        ("real set (BRO, 2.8 MB)", &set, 50, Some(false)),
        ("catalog (100 MB)", &catalog_bytes, 10, Some(true)),
        ("invalid-heavy catalog (100 MB)", &invalid, 10, None),
    ] {
        let mut group = c.benchmark_group(name);
        group.sample_size(samples);
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function("parse floor (serde_json, IgnoredAny)", |b| {
            b.iter(|| serde_json::from_slice::<serde::de::IgnoredAny>(bytes).ok());
        });
        // Candidate floors: parsers said to be faster (each only parses).
        group.bench_function("sonic-rs (IgnoredAny)", |b| {
            b.iter(|| sonic_rs::from_slice::<serde::de::IgnoredAny>(bytes).ok());
        });
        group.bench_function("simd-json (tape, parsing a copy in place)", |b| {
            b.iter_batched_ref(
                || bytes.clone(),
                |copy| simd_json::to_tape(copy).map(|tape| tape.0.len()).ok(),
                BatchSize::LargeInput,
            );
        });
        if let Some(catalog) = typed_as {
            let cards = typed(bytes, catalog).unwrap_or_else(|e| panic!("{name}, typed: {e}"));
            assert!(cards > 0, "{name}: no cards read into the typed models");
            group.bench_function("serde_json into the typed models", |b| {
                b.iter(|| typed(bytes, catalog).ok());
            });
        }
        for jobs in [1, cores] {
            group.bench_with_input(
                BenchmarkId::new("cardkit", format!("{jobs} threads")),
                bytes,
                |b, bytes| {
                    b.iter(|| {
                        let mut documents = 0;
                        Validator::new(Options::default())
                            .jobs(jobs)
                            .reader(&bytes[..], |_| documents += 1)
                            .expect("reading memory");
                        documents
                    });
                },
            );
        }
        group.finish();
    }
}

criterion_group!(benches, throughput);
criterion_main!(benches);
