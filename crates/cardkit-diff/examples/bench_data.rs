//! The benchmark's inputs (`bench/diff.sh`):
//!
//! ```sh
//! bench_data pair DIR MEGABYTES CHANGES     # DIR/old.json, DIR/new.json
//! bench_data notices DIR NOTICES ROWS       # DIR/notices.jsonl, DIR/refs.csv
//! ```
//!
//! The pair is two catalogs from the tests' seeded generator, of about
//! MEGABYTES each, with CHANGES changes of every kind; the notices are
//! merges (in chains of up to three) and deletes of ids that the CSV's
//! `catalog_id` column refers to, among other columns.

#[path = "../tests/support/pairs.rs"]
mod pairs;

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

/// The size of a generated set of 300 cards, about.
const SET_BYTES: usize = 300 * 1_010;

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let number = |i: usize| -> usize { args.get(i).and_then(|a| a.parse().ok()).unwrap_or(0) };
    let dir = Path::new(args.get(2).map_or(".", String::as_str));
    std::fs::create_dir_all(dir)?;
    match args.get(1).map(String::as_str) {
        Some("pair") => {
            let spec = pairs::Spec {
                seed: 1,
                sets: (number(3) << 20) / SET_BYTES,
                cards: 300,
                changes: number(4),
                set_changes: true,
            };
            let mut old = BufWriter::new(File::create(dir.join("old.json"))?);
            let mut new = BufWriter::new(File::create(dir.join("new.json"))?);
            let expected = pairs::write_pair(&spec, &mut old, &mut new)?;
            old.flush()?;
            new.flush()?;
            println!(
                "{} sets, {} record changes",
                spec.sets,
                expected.records.len()
            );
        }
        Some("notices") => {
            let mut rng = pairs::Rng::new(2);
            let (notices, rows) = (number(3), number(4));
            let ids: Vec<String> = (0..notices).map(|_| rng.uuid()).collect();
            let mut out = BufWriter::new(File::create(dir.join("notices.jsonl"))?);
            for (i, old) in ids.iter().enumerate() {
                // Every tenth is a delete; the others merge into the next
                // id (a chain) or a fresh one.
                let new = match i % 10 {
                    9 => None,
                    0..=2 if i + 1 < ids.len() && (i + 1) % 10 != 9 => Some(ids[i + 1].clone()),
                    _ => Some(rng.uuid()),
                };
                let id = rng.uuid();
                let (strategy, new) = match new {
                    Some(n) => ("merge", format!("\"{n}\"")),
                    None => ("delete", "null".into()),
                };
                writeln!(
                    out,
                    r#"{{"object":"migration","id":"{id}","uri":"urn:uuid:{id}","created_at":"2024-05-02","migration_strategy":"{strategy}","old_catalogA_id":"{old}","new_catalogA_id":{new}}}"#
                )?;
            }
            out.flush()?;
            let mut csv = BufWriter::new(File::create(dir.join("refs.csv"))?);
            write!(csv, "deck,\"card name\",catalog_id,quantity\r\n")?;
            for row in 0..rows {
                let id = if row % 3 == 0 {
                    ids[rng.below(ids.len())].clone()
                } else {
                    rng.uuid()
                };
                write!(
                    csv,
                    "deck {},\"Card, {row}\",{id},{}\r\n",
                    row % 977,
                    row % 4 + 1
                )?;
            }
            csv.flush()?;
        }
        _ => eprintln!("usage: bench_data pair DIR MEGABYTES CHANGES | notices DIR NOTICES ROWS"),
    }
    Ok(())
}
