//! One table's file of a run being written: its rows gathered into Arrow
//! batches and handed to the Parquet writer.

use std::fs::File;
use std::io::BufWriter;
use std::path::PathBuf;
use std::sync::Arc;

use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::SchemaRef;
use parquet::arrow::ArrowWriter;

use crate::arrow::Builder;
use crate::Error;

/// Rows gathered before they are handed to the Parquet writer as one batch
/// (the builders of the twelve tables hold this many rows each: 8192 took
/// 30 MB more at the peak, and were no faster).
pub(super) const BATCH_ROWS: usize = 1024;

/// ...or fewer, once their text takes this many bytes: a table of few,
/// large rows (`sets`, with a set's booster configuration as JSON) would
/// otherwise hold a whole catalog's worth before a batch is full.
pub(super) const BATCH_BYTES: usize = 4 << 20;

/// The buffer of each table's file: the writer hands it whole pages, so a
/// larger one saves few writes, and there are fourteen of them.
pub(super) const WRITE_BUFFER: usize = 128 << 10;

/// One table's file being written.
pub(super) struct TableFile {
    pub(super) schema: SchemaRef,
    pub(super) builders: Vec<Builder>,
    /// Rows written to the file in all.
    pub(super) rows: usize,
    /// Rows in the builders, and the bytes of their text.
    pub(super) buffered: usize,
    pub(super) buffered_bytes: usize,
    pub(super) writer: ArrowWriter<BufWriter<File>>,
    pub(super) temporary: PathBuf,
    pub(super) path: PathBuf,
}

impl TableFile {
    pub(super) fn flush(&mut self) -> Result<(), Error> {
        if self.buffered == 0 {
            return Ok(());
        }
        let columns: Vec<ArrayRef> = self.builders.iter_mut().map(Builder::finish).collect();
        self.buffered = 0;
        self.buffered_bytes = 0;
        let batch = RecordBatch::try_new(Arc::clone(&self.schema), columns)
            .map_err(|e| Error::new(format!("{}: {e}", self.path.display())))?;
        let at =
            |e: parquet::errors::ParquetError| Error::new(format!("{}: {e}", self.path.display()));
        self.writer.write(&batch).map_err(at)
    }

    /// Closes the row group in progress.
    pub(super) fn close_row_group(&mut self) -> Result<(), Error> {
        self.writer
            .flush()
            .map_err(|e| Error::new(format!("{}: {e}", self.path.display())))
    }
}
