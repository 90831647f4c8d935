//! Aligned text tables, as the text listings print them (`fields`,
//! `layers`, `symbols`, `assets`): each column padded to its widest cell,
//! two spaces between columns, no spaces at a line's end.
//!
//! Only cells up to [`PADDED_WIDTH`] characters are padded to: a wider
//! cell (a long name, a `data:` URI) is written as it is, pushing the rest
//! of its own line to the right, and the other lines are not padded
//! against it. Without that bound, one cell of a megabyte would pad every
//! line to a megabyte.
//!
//! ```
//! use cardkit_run::table::aligned;
//!
//! let rows = [
//!     ["/a".to_owned(), "text".to_owned()],
//!     ["/bb/0".to_owned(), "image".to_owned()],
//! ];
//! assert_eq!(aligned(&rows), "/a     text\n/bb/0  image\n");
//! ```

use std::io::{self, Write};

/// The widest cell a column is padded to, in characters.
pub const PADDED_WIDTH: usize = 80;

/// The width each column is padded to: its widest cell that is at most
/// [`PADDED_WIDTH`] characters wide.
#[must_use]
pub fn widths<const N: usize>(rows: &[[String; N]]) -> [usize; N] {
    let mut widths = [0; N];
    for row in rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            let count = cell.chars().count();
            if count <= PADDED_WIDTH {
                *width = (*width).max(count);
            }
        }
    }
    widths
}

/// `cell` followed by the spaces that bring it to `width` characters (none
/// when it is as wide or wider).
pub fn push_padded(line: &mut String, cell: &str, width: usize) {
    line.push_str(cell);
    let count = cell.chars().count();
    line.extend(std::iter::repeat_n(' ', width.saturating_sub(count)));
}

/// One row as a line, its cells padded to `widths`, without a newline.
#[must_use]
pub fn line<const N: usize>(row: &[String; N], widths: &[usize; N]) -> String {
    let mut line = String::new();
    for (cell, &width) in row.iter().zip(widths) {
        push_padded(&mut line, cell, width);
        line.push_str("  ");
    }
    line.truncate(line.trim_end().len());
    line
}

/// Writes `rows`, one line each, aligned.
///
/// # Errors
/// Writing to `out` fails.
pub fn write_aligned<const N: usize>(out: &mut impl Write, rows: &[[String; N]]) -> io::Result<()> {
    let widths = widths(rows);
    for row in rows {
        writeln!(out, "{}", line(row, &widths))?;
    }
    Ok(())
}

/// `rows`, one line each, aligned.
#[must_use]
pub fn aligned<const N: usize>(rows: &[[String; N]]) -> String {
    let widths = widths(rows);
    let mut out = String::new();
    for row in rows {
        out.push_str(&line(row, &widths));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_wider_than_the_bound_is_not_padded_to_nor_against() {
        let wide = "w".repeat(70_000);
        let rows = [
            [wide.clone(), "b".to_owned()],
            ["a".to_owned(), "c".to_owned()],
            ["aaa".to_owned(), "d".to_owned()],
        ];
        let text = aligned(&rows);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], format!("{wide}  b"));
        assert_eq!(lines[1], "a    c");
        assert_eq!(lines[2], "aaa  d");
    }

    #[test]
    fn output_is_linear_in_the_input() {
        let rows: Vec<[String; 2]> = (0..1000)
            .map(|i| ["x".repeat(if i == 0 { 1 << 20 } else { 1 }), "y".to_owned()])
            .collect();
        let input: usize = rows.iter().flatten().map(String::len).sum();
        let text = aligned(&rows);
        assert!(text.len() <= input + rows.len() * (2 * PADDED_WIDTH + 6));
    }
}
