//! Rows taken out of files already written: which rows of an earlier run's
//! file a run replaces, which rows of its own file it read again later in
//! the run, and the writing of a file again without them.

use std::collections::HashSet;
use std::fs::File;
use std::io::BufWriter;
use std::path::Path;
use std::sync::Arc;

use arrow_array::{Array, BooleanArray, RecordBatch, StringArray};
use arrow_schema::SchemaRef;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::ArrowWriter;
use parquet::file::properties::WriterProperties;

use super::table_file::WRITE_BUFFER;
use crate::keys::keys;
use crate::twice::Twice;
use crate::Error;

/// Rows read at a time from a file written again.
const READ_BATCH: usize = 8192;

/// What a run takes out of an earlier run's files.
#[derive(Debug, Default)]
pub(super) struct Dropping {
    pub(super) sets: HashSet<String>,
    /// Uuids stored under a set that is kept, moved to another set.
    pub(super) uuids: HashSet<String>,
    pub(super) migrations: HashSet<String>,
    pub(super) metas: HashSet<String>,
}

impl Twice {
    /// Whether rows of table `t` are left out.
    pub(super) fn leaves_out(&self, t: usize) -> bool {
        !self.dropped[t].is_empty() || !self.moved.is_empty() && uuid_column(t).is_some()
    }
}

/// The `uuid` column of table `t`, if it has one (that of a card, token or
/// product, or of the rows they own).
fn uuid_column(t: usize) -> Option<usize> {
    let keys = keys();
    keys.set_owned
        .iter()
        .find(|&&(owned, _, _)| owned == t)
        .and_then(|&(_, _, uuid)| uuid)
        .or_else(|| {
            keys.uuid_owned
                .iter()
                .find(|&&(owned, _)| owned == t)
                .map(|&(_, uuid)| uuid)
        })
}

/// The rows of a file that its footer counts.
pub(super) fn rows_in(path: &Path) -> Result<usize, Error> {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let at = |e: &dyn std::fmt::Display| Error::new(format!("{}: {e}", path.display()));
    let file = File::open(path).map_err(|e| at(&e))?;
    let reader = SerializedFileReader::new(file).map_err(|e| at(&e))?;
    Ok(usize::try_from(reader.metadata().file_metadata().num_rows()).unwrap_or(0))
}

/// Which rows of an earlier run's file of one table a run takes out: those
/// whose key column holds a key in a set of keys.
pub(super) struct Filter<'a> {
    /// (column in the file, the keys whose rows go).
    columns: Vec<(usize, Keys<'a>)>,
}

enum Keys<'a> {
    Owned(&'a HashSet<String>),
    Borrowed(&'a HashSet<&'a str>),
}

impl Keys<'_> {
    fn contains(&self, key: &str) -> bool {
        match self {
            Keys::Owned(keys) => keys.contains(key),
            Keys::Borrowed(keys) => keys.contains(key),
        }
    }

    fn is_empty(&self) -> bool {
        match self {
            Keys::Owned(keys) => keys.is_empty(),
            Keys::Borrowed(keys) => keys.is_empty(),
        }
    }
}

impl<'a> Filter<'a> {
    /// The filter of table `t`, if `dropping` takes anything out of it.
    pub(super) fn of(
        t: usize,
        dropping: &'a Dropping,
        uuids: &'a HashSet<&'a str>,
    ) -> Option<Filter<'a>> {
        let keys = keys();
        // The files have every column but `build`.
        let mut columns = Vec::new();
        if t == keys.sets {
            columns.push((keys.set_code - 1, Keys::Owned(&dropping.sets)));
        }
        for &(owned, owner, uuid) in &keys.set_owned {
            if owned == t {
                columns.push((owner - 1, Keys::Owned(&dropping.sets)));
                if let Some(uuid) = uuid {
                    columns.push((uuid - 1, Keys::Owned(&dropping.uuids)));
                }
            }
        }
        for &(owned, uuid) in &keys.uuid_owned {
            if owned == t {
                columns.push((uuid - 1, Keys::Borrowed(uuids)));
            }
        }
        if let Some((migrations, id)) = keys.migrations {
            if migrations == t {
                columns.push((id - 1, Keys::Owned(&dropping.migrations)));
            }
        }
        if keys.meta.0 == t {
            columns.push((keys.meta.1 - 1, Keys::Owned(&dropping.metas)));
        }
        columns.retain(|(_, keys)| !keys.is_empty());
        (!columns.is_empty()).then_some(Filter { columns })
    }

    /// Which rows of `batch` stay.
    pub(super) fn keep(&self, batch: &RecordBatch) -> Result<BooleanArray, String> {
        let mut keep = vec![true; batch.num_rows()];
        for (column, keys) in &self.columns {
            let values = batch
                .column(*column)
                .as_any()
                .downcast_ref::<StringArray>()
                .ok_or_else(|| format!("column {column} is not text"))?;
            for (row, stays) in keep.iter_mut().enumerate() {
                if *stays && values.is_valid(row) && keys.contains(values.value(row)) {
                    *stays = false;
                }
            }
        }
        Ok(BooleanArray::from(keep))
    }
}

/// Which rows of this run's file of table `t` stay: not those of a set or
/// migration read again later in the run, nor those of a uuid that a later
/// set holds.
pub(super) fn in_run_filter(
    t: usize,
    twice: &Twice,
) -> impl FnMut(&RecordBatch, usize) -> Result<BooleanArray, String> + '_ {
    let mut dropped = twice.dropped[t].clone();
    dropped.sort_unstable();
    let uuid_column = uuid_column(t).filter(|_| !twice.moved.is_empty());
    let mut next = 0;
    move |batch: &RecordBatch, start: usize| {
        let uuids = match uuid_column {
            Some(column) => Some(
                batch
                    .column(column - 1)
                    .as_any()
                    .downcast_ref::<StringArray>()
                    .ok_or_else(|| "the uuid column is not text".to_owned())?,
            ),
            None => None,
        };
        let mut keep = Vec::with_capacity(batch.num_rows());
        for row in 0..batch.num_rows() {
            let at = start + row;
            while next < dropped.len() && dropped[next].1 <= at {
                next += 1;
            }
            let mut stays = !dropped[next..]
                .iter()
                .take_while(|&&(a, _)| a <= at)
                .any(|&(a, b)| a <= at && at < b);
            if stays {
                if let Some(uuids) = uuids.filter(|u| u.is_valid(row)) {
                    if let Some(bounds) = twice.moved.get(uuids.value(row)) {
                        stays = at >= bounds[t];
                    }
                }
            }
            keep.push(stays);
        }
        Ok(BooleanArray::from(keep))
    }
}

/// Writes the rows of the file at `from` that `keep` keeps (given each
/// batch and the number of its first row) to `to`, and syncs it; the rows
/// kept and left out.
pub(super) fn rewrite(
    from: &Path,
    to: &Path,
    schema: &SchemaRef,
    properties: &WriterProperties,
    mut keep: impl FnMut(&RecordBatch, usize) -> Result<BooleanArray, String>,
) -> Result<(usize, usize), Box<dyn std::error::Error>> {
    let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(from)?)?
        .with_batch_size(READ_BATCH)
        .build()?;
    let out = File::create(to)?;
    let mut writer = ArrowWriter::try_new(
        BufWriter::with_capacity(WRITE_BUFFER, out),
        Arc::clone(schema),
        Some(properties.clone()),
    )?;
    let (mut at, mut kept) = (0, 0);
    for batch in reader {
        let batch = batch?;
        let mask = keep(&batch, at)?;
        at += batch.num_rows();
        let filtered = arrow_select::filter::filter_record_batch(&batch, &mask)?;
        kept += filtered.num_rows();
        if filtered.num_rows() > 0 {
            writer.write(&RecordBatch::try_new(
                Arc::clone(schema),
                filtered.columns().to_vec(),
            )?)?;
        }
    }
    let inner = writer.into_inner()?;
    let file = inner.into_inner().map_err(|e| e.into_error())?;
    file.sync_all()?;
    Ok((kept, at - kept))
}
