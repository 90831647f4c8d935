//! The diff of one set: its set-level members compared, its records matched
//! by uuid, re-keyed printings paired, and each changed record read again
//! from both builds and compared.

use std::collections::{HashMap, HashSet};

use crate::compare::compare;
use crate::data::{Change, FieldChange, RecordDiff, SetDiff};
use crate::fields::facts;
use crate::options::DiffOptions;
use crate::pointer::Ignore;
use crate::print::{RecordPrint, SetPrint};
use crate::side::Side;
use crate::value::Json;
use crate::Error;

/// The text of a record's member (by wire name, when its model has it),
/// when a string.
pub(crate) fn text(value: &Json, member: Option<&str>) -> Option<String> {
    value.get(member?).and_then(Json::as_str).map(str::to_owned)
}

/// What a diff found of one record, before it is reported.
struct Found<'a> {
    change: Change,
    old: Option<&'a RecordPrint>,
    new: Option<&'a RecordPrint>,
}

/// The diff of one set (old and new by index), `None` when unchanged; the
/// numbers it has written another way are added to `numbers_rewritten`.
pub(crate) fn diff_set(
    old: &Side,
    new: &Side,
    (o, n): (Option<usize>, Option<usize>),
    options: &DiffOptions,
    rekeyed: &mut HashMap<(usize, usize), (usize, usize)>,
    numbers_rewritten: &mut usize,
) -> Result<Option<SetDiff>, Error> {
    let (os, ns) = (o.map(|o| &old.build.sets[o]), n.map(|n| &new.build.sets[n]));
    let (Some(os), Some(ns)) = (os, ns) else {
        let (set, change) = match (os, ns) {
            (Some(set), None) => (set, Change::Removed),
            (None, Some(set)) => (set, Change::Added),
            _ => return Ok(None),
        };
        let (old_file, new_file) = match change {
            Change::Removed => (old.file_of(set), None),
            _ => (None, new.file_of(set)),
        };
        return Ok(Some(SetDiff {
            code: set.code.clone(),
            change,
            old_file,
            new_file,
            old_pointer: (change == Change::Removed).then(|| set.pointer.clone()),
            new_pointer: (change == Change::Added).then(|| set.pointer.clone()),
            records: set.records.len(),
            fields: Vec::new(),
            changes: Vec::new(),
        }));
    };
    let (o, n) = (o.unwrap_or_default(), n.unwrap_or_default());
    let mut fields = Vec::new();
    let same_members = os.members.len() == ns.members.len() && {
        let mut a = os.members.clone();
        let mut b = ns.members.clone();
        a.sort();
        b.sort();
        a == b
    };
    if !same_members {
        let compared = compare(
            &old.set_members(os)?,
            &new.set_members(ns)?,
            &[],
            &options.ignore,
        );
        fields = compared.changes;
        *numbers_rewritten += compared.numbers_rewritten;
    }
    // Records by (list, uuid, occurrence).
    let before = keyed(&os.records);
    let after = keyed(&ns.records);
    let mut found: Vec<Found<'_>> = Vec::new();
    let mut added = Vec::new();
    // Each added and removed record's index in its set: re-keyed pairs are
    // recorded by index without looking for them again.
    let mut added_at = Vec::new();
    let mut kept: HashSet<usize> = HashSet::new();
    let mut order: Vec<(&(u8, &str, u32), &usize)> = after.iter().collect();
    order.sort_by_key(|(_, &i)| i);
    for (k, &i) in order {
        let record = &ns.records[i];
        match before.get(k) {
            Some(&j) => {
                kept.insert(j);
                if os.records[j].hash != record.hash {
                    found.push(Found {
                        change: Change::Changed,
                        old: Some(&os.records[j]),
                        new: Some(record),
                    });
                }
            }
            None => {
                added.push(record);
                added_at.push(i);
            }
        }
    }
    let (removed_at, removed): (Vec<usize>, Vec<&RecordPrint>) = os
        .records
        .iter()
        .enumerate()
        .filter(|(j, _)| !kept.contains(j))
        .unzip();
    let pairs = crate::rekey::pairs(&removed, &added);
    let (mut paired_old, mut paired_new) = (HashSet::new(), HashSet::new());
    for &(r, a) in &pairs {
        paired_old.insert(r);
        paired_new.insert(a);
        found.push(Found {
            change: Change::Rekeyed,
            old: Some(removed[r]),
            new: Some(added[a]),
        });
        rekeyed.insert((o, removed_at[r]), (n, added_at[a]));
    }
    for (a, record) in added.iter().enumerate() {
        if !paired_new.contains(&a) {
            found.push(Found {
                change: Change::Added,
                old: None,
                new: Some(record),
            });
        }
    }
    for (r, record) in removed.iter().enumerate() {
        if !paired_old.contains(&r) {
            found.push(Found {
                change: Change::Removed,
                old: Some(record),
                new: None,
            });
        }
    }
    let mut changes = Vec::new();
    for f in found {
        if let Some(record) = report(old, new, os, ns, &f, &options.ignore, numbers_rewritten)? {
            changes.push(record);
        }
    }
    // List order, then the new build's order (the old one's for removed
    // records).
    changes.sort_by_key(|r: &RecordDiff| {
        let print = |p: &Option<String>| p.clone().unwrap_or_default();
        (
            facts().lists.iter().position(|l| l.name == r.list),
            r.change == Change::Removed,
            index_of(&print(&r.new_pointer).max(print(&r.old_pointer))),
        )
    });
    if fields.is_empty() && changes.is_empty() {
        return Ok(None);
    }
    Ok(Some(SetDiff {
        code: ns.code.clone(),
        change: Change::Changed,
        old_file: old.file_of(os),
        new_file: new.file_of(ns),
        old_pointer: Some(os.pointer.clone()),
        new_pointer: Some(ns.pointer.clone()),
        records: ns.records.len(),
        fields,
        changes,
    }))
}

/// Records by (list, uuid, occurrence of that uuid), to their index.
fn keyed(records: &[RecordPrint]) -> HashMap<(u8, &str, u32), usize> {
    let mut seen: HashMap<(u8, &str), u32> = HashMap::new();
    records
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let nth = seen.entry((r.list, &r.uuid)).or_default();
            *nth += 1;
            ((r.list, &*r.uuid, *nth), i)
        })
        .collect()
}

/// The index at the end of a record's pointer.
fn index_of(pointer: &str) -> u64 {
    pointer
        .rsplit('/')
        .next()
        .and_then(|i| i.parse().ok())
        .unwrap_or(u64::MAX)
}

fn record_pointer(set: &SetPrint, record: &RecordPrint) -> String {
    format!(
        "{}/{}/{}",
        set.pointer,
        facts().lists[usize::from(record.list)].name,
        record.index
    )
}

/// The report of one record, read again; `None` when it is unchanged after
/// all (its hash differed for what the comparison leaves out, or for
/// numbers written another way, which are added to `numbers_rewritten`).
fn report(
    old: &Side,
    new: &Side,
    os: &SetPrint,
    ns: &SetPrint,
    found: &Found<'_>,
    ignore: &Ignore,
    numbers_rewritten: &mut usize,
) -> Result<Option<RecordDiff>, Error> {
    let before = found.old.map(|r| old.record(os, r)).transpose()?;
    let after = found.new.map(|r| new.record(ns, r)).transpose()?;
    let some = found.new.or(found.old).map_or(0, |r| r.list);
    let list = &facts().lists[usize::from(some)];
    let mut fields = match (&before, &after) {
        (Some(a), Some(b)) => {
            let compared = compare(a, b, &[list.name, "*"], ignore);
            *numbers_rewritten += compared.numbers_rewritten;
            compared.changes
        }
        _ => Vec::new(),
    };
    if found.change == Change::Rekeyed {
        fields.retain(|f| f.pointer != format!("/{}", facts().key));
    } else if found.change == Change::Changed && fields.is_empty() {
        return Ok(None);
    }
    let identifiers = format!("/{}", facts().identifiers_name);
    let reidentified = fields.iter().any(|f: &FieldChange| {
        f.pointer == identifiers || f.pointer.starts_with(&format!("{identifiers}/"))
    });
    let label = after.as_ref().or(before.as_ref());
    let uuid = found
        .new
        .or(found.old)
        .map(|r| r.uuid.to_string())
        .unwrap_or_default();
    Ok(Some(RecordDiff {
        list: list.name,
        change: found.change,
        uuid,
        old_uuid: (found.change == Change::Rekeyed)
            .then(|| found.old.map(|r| r.uuid.to_string()))
            .flatten(),
        number: label.and_then(|v| text(v, list.number)),
        name: label.and_then(|v| text(v, list.label)),
        old_pointer: found.old.map(|r| record_pointer(os, r)),
        new_pointer: found.new.map(|r| record_pointer(ns, r)),
        reidentified,
        fields,
    }))
}
