//! `migrate apply`'s rewriters against the readers users have: generated
//! records (fields with quotes, commas, line ends, a BOM, CRLF) written as
//! CSV by the `csv` crate, and generated JSON (pretty or not, ids written
//! with escapes) as one value and as JSON Lines, rewritten under notices
//! that merge and delete some ids. The output read back with the `csv`
//! crate and `serde_json` is the input's records, with an id changed only
//! where a notice says, and to the end of its chain; a record or item
//! dropped only when its id is deleted and `--on-delete drop` was asked.
#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use cardkit_diff::apply::{
    csv as apply_csv, json as apply_json, ApplyOptions, Notice, OnDelete, Plan, Report,
};
use cardkit_diff::pointer::Pattern;
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};

const IDS: [&str; 5] = ["id0", "id1", "id2", "id3", "id4"];

#[derive(Debug, Arbitrary)]
struct Input {
    /// Notices: (old, new) as indexes into `IDS`; a new of 5 or more deletes.
    notices: Vec<(u8, u8)>,
    drop: bool,
    rows: Vec<Row>,
    bom: bool,
    crlf: bool,
    pretty: bool,
    escape_ids: bool,
}

#[derive(Debug, Arbitrary)]
struct Row {
    /// The id column: one of `IDS` (upper case when odd), or free text.
    id: u8,
    free: String,
    other: String,
}

impl Row {
    fn id(&self) -> String {
        match self.id % 12 {
            n @ 0..=4 => IDS[usize::from(n)].to_owned(),
            n @ 5..=9 => IDS[usize::from(n - 5)].to_ascii_uppercase(),
            _ => self.free.clone(),
        }
    }
}

/// What `id` becomes: `Some(Some(new))` merged, `Some(None)` deleted.
fn expected(plan: &Plan, id: &str) -> Option<Option<String>> {
    plan.resolve(id).map(|r| r.to.map(str::to_owned))
}

fn csv_case(input: &Input, plan: &Plan, options: ApplyOptions) {
    let mut writer = csv::WriterBuilder::new()
        .terminator(if input.crlf {
            csv::Terminator::CRLF
        } else {
            csv::Terminator::Any(b'\n')
        })
        .from_writer(Vec::new());
    writer.write_record(["name", "catalog_id", "note"]).unwrap();
    let records: Vec<[String; 3]> = input
        .rows
        .iter()
        .map(|row| [row.other.clone(), row.id(), row.free.clone()])
        .collect();
    for record in &records {
        writer.write_record(record).unwrap();
    }
    let mut bytes = writer.into_inner().unwrap();
    if input.bom {
        bytes.splice(0..0, *b"\xEF\xBB\xBF");
    }
    let mut out = Vec::new();
    let mut report = Report::counting();
    let result = apply_csv::rewrite(
        &bytes[..],
        "f.csv",
        "catalog_id",
        plan,
        options,
        Some(&mut out),
        &mut report,
    );
    result.unwrap_or_else(|e| panic!("{e}\n{}", String::from_utf8_lossy(&bytes)));
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(&out[..]);
    let got: Vec<Vec<String>> = reader
        .records()
        .map(|r| {
            r.expect("the output is CSV")
                .iter()
                .map(str::to_owned)
                .collect()
        })
        .collect();
    let mut want = Vec::new();
    for record in &records {
        let mut record = record.to_vec();
        match expected(plan, &record[1]) {
            Some(Some(new)) => record[1] = new,
            Some(None) if options.on_delete == OnDelete::Drop => continue,
            _ => {}
        }
        want.push(record);
    }
    // The csv crate reads a record of one empty field written alone as an
    // empty line, which it skips; such records are compared as absent.
    let blank = |r: &Vec<String>| r.iter().all(String::is_empty);
    let want: Vec<_> = want.into_iter().filter(|r| !blank(r)).collect();
    let got: Vec<_> = got.into_iter().filter(|r| !blank(r)).collect();
    assert_eq!(
        got,
        want,
        "\ninput {:?}\noutput {:?}",
        String::from_utf8_lossy(&bytes),
        String::from_utf8_lossy(&out)
    );
}

/// `id` as a JSON string, its characters escaped as `\u` when asked.
fn json_string(id: &str, escape: bool) -> String {
    if escape {
        let mut out = String::from("\"");
        for unit in id.encode_utf16() {
            out.push_str(&format!("\\u{unit:04x}"));
        }
        out.push('"');
        out
    } else {
        serde_json::to_string(id).unwrap()
    }
}

fn json_case(input: &Input, plan: &Plan, options: ApplyOptions, lines: bool) {
    let items: Vec<(Value, String)> = input
        .rows
        .iter()
        .map(|row| {
            let id = row.id();
            let text = format!(
                "{{\"name\": {}, \"card\": {{\"catalog_id\": {}}}}}",
                serde_json::to_string(&row.other).unwrap(),
                json_string(&id, input.escape_ids)
            );
            (json!({"name": row.other, "card": {"catalog_id": id}}), text)
        })
        .collect();
    let (bytes, pattern) = if lines {
        let end = if input.crlf { "\r\n" } else { "\n" };
        let text: String = items.iter().map(|(_, t)| format!("{t}{end}")).collect();
        (text, Pattern::parse("/card/catalog_id").unwrap())
    } else {
        let sep = if input.pretty { ",\n  " } else { "," };
        let text = format!(
            "{{\"cards\": [{}]}}",
            items
                .iter()
                .map(|(_, t)| t.as_str())
                .collect::<Vec<_>>()
                .join(sep)
        );
        (text, Pattern::parse("/cards/*/card/catalog_id").unwrap())
    };
    let mut bytes = bytes.into_bytes();
    if input.bom {
        bytes.splice(0..0, *b"\xEF\xBB\xBF");
    }
    let mut out = Vec::new();
    let mut report = Report::counting();
    apply_json::rewrite(
        &bytes[..],
        "f.json",
        lines,
        &pattern,
        plan,
        options,
        Some(&mut out),
        &mut report,
    )
    .unwrap_or_else(|e| panic!("{e}\n{}", String::from_utf8_lossy(&bytes)));
    let mut want = Vec::new();
    for (value, _) in &items {
        let mut value = value.clone();
        let id = value["card"]["catalog_id"].as_str().unwrap().to_owned();
        match expected(plan, &id) {
            Some(Some(new)) => value["card"]["catalog_id"] = Value::String(new),
            Some(None) if options.on_delete == OnDelete::Drop => continue,
            _ => {}
        }
        want.push(value);
    }
    let body = out.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&out);
    assert_eq!(
        out.starts_with(b"\xEF\xBB\xBF"),
        input.bom,
        "the BOM is kept (lines: {lines}): {:?} -> {:?}",
        String::from_utf8_lossy(&bytes),
        String::from_utf8_lossy(&out)
    );
    let got: Vec<Value> = if lines {
        body.split(|&b| b == b'\n')
            .filter(|l| !l.iter().all(u8::is_ascii_whitespace))
            .map(|l| serde_json::from_slice(l).expect("each line is JSON"))
            .collect()
    } else {
        let value: Value = serde_json::from_slice(body).expect("the output is JSON");
        value["cards"].as_array().expect("the cards").clone()
    };
    assert_eq!(
        got,
        want,
        "\ninput {}\noutput {}",
        String::from_utf8_lossy(&bytes),
        String::from_utf8_lossy(&out)
    );
}

fuzz_target!(|data: &[u8]| {
    let Ok(input) = Input::arbitrary_take_rest(Unstructured::new(data)) else {
        return;
    };
    let notices: Vec<Notice> = input
        .notices
        .iter()
        .take(8)
        .map(|&(old, new)| {
            let old = IDS[usize::from(old) % IDS.len()];
            let new = IDS.get(usize::from(new) % 8).copied();
            Notice::new(old, new, None)
        })
        .collect();
    // Notices that disagree or go round are refused (tested elsewhere).
    let Ok(plan) = Plan::new(notices) else {
        return;
    };
    let options = ApplyOptions {
        on_delete: if input.drop {
            OnDelete::Drop
        } else {
            OnDelete::Keep
        },
        dry_run: false,
    };
    csv_case(&input, &plan, options);
    json_case(&input, &plan, options, false);
    json_case(&input, &plan, options, true);
});
