//! Text laid out in its box: greedy word wrap, explicit new lines and
//! paragraphs, inline symbols, italics and size changes, alignment, and
//! shrinking one pixel at a time until it fits.
//!
//! Widths come from a [`Measure`], which the renderer backs with the font
//! data and shaper that draw the text, so a line measured to fit is drawn
//! the width it was measured.

use cardkit::model::{HorizontalAlign, VerticalAlign};

/// Widths and vertical metrics of the face text is set in.
pub(crate) trait Measure {
    /// The advance of `text` at `size` pixels.
    fn advance(&self, text: &str, size: f32) -> f32;
    /// Ascent at `size` pixels.
    fn ascent(&self, size: f32) -> f32;
    /// Descent at `size` pixels (positive).
    fn descent(&self, size: f32) -> f32;
}

/// A piece of text to lay out.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Piece {
    /// Plain text (spaces in it are where lines may break).
    Text(String),
    /// An inline symbol: its index among the text's symbols, its width over
    /// its height, its height as a part of the line height (`scale`), and
    /// the room on each side and how far it moves down, as parts of its
    /// height.
    Symbol {
        index: usize,
        aspect: f32,
        scale: f32,
        spacing: f32,
        vertical_shift: f32,
    },
    /// A new line.
    Break,
    /// A new paragraph: a new line after a gap of [`PARAGRAPH_GAP`] times
    /// the size, as the design tool leaves (once for new lines in a row).
    Paragraph,
    /// The style of the text that follows.
    Style(Style),
}

/// How text is set: upright or in italics, at the layer's size or changed
/// from it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct Style {
    pub(crate) italic: bool,
    pub(crate) size: SizeChange,
}

/// A size of text as a change from the size the layer is set at (which
/// shrinks until the text fits).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) enum SizeChange {
    /// The layer's size.
    #[default]
    Same,
    /// So many pixels more (fewer when negative).
    By(f32),
    /// So many pixels.
    To(f32),
}

impl SizeChange {
    /// The size this change gives from the layer's `size`.
    pub(crate) fn at(self, size: f32) -> f32 {
        match self {
            SizeChange::Same => size,
            SizeChange::By(pixels) => (size + pixels).max(MIN_SIZE),
            SizeChange::To(pixels) => pixels.max(MIN_SIZE),
        }
    }
}

/// The box and the settings of a text layer.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Frame {
    pub(crate) x: f32,
    pub(crate) y: f32,
    pub(crate) width: f32,
    pub(crate) height: f32,
    pub(crate) size: f32,
    pub(crate) line_height_scale: f32,
    pub(crate) one_line: bool,
    pub(crate) align: HorizontalAlign,
    pub(crate) vertical_align: VerticalAlign,
}

/// Something drawn on a line.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Placed {
    /// A word (or any text without spaces) whose baseline starts at `x`,
    /// set at `size`, in italics or not.
    Word {
        x: f32,
        text: String,
        size: f32,
        italic: bool,
    },
    /// A symbol in its box.
    Symbol {
        index: usize,
        x: f32,
        y: f32,
        width: f32,
        height: f32,
    },
}

/// One line of laid-out text.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Line {
    /// Top of the line box.
    pub(crate) top: f32,
    /// The baseline.
    pub(crate) baseline: f32,
    /// Left edge of the first item.
    pub(crate) left: f32,
    /// Width of the line, trailing spaces left out.
    pub(crate) width: f32,
    /// What the line draws, left to right.
    pub(crate) items: Vec<Placed>,
}

/// Text laid out in its box.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Block {
    /// The font size the text was set at after shrinking.
    pub(crate) size: f32,
    /// The line height at that size.
    pub(crate) line_height: f32,
    /// The lines, top first.
    pub(crate) lines: Vec<Line>,
    /// Whether the text fits its box (false only when it does not fit even
    /// at the smallest size).
    pub(crate) fits: bool,
}

/// The smallest size text is shrunk to.
const MIN_SIZE: f32 = 1.0;
/// Rounding slack when comparing widths and heights.
const EPSILON: f32 = 0.01;
/// The room the design tool leaves before a new paragraph, as a part of the
/// size: 18 px at 60 px between the two paragraphs of the reference
/// picture (`corpus/design-tool/mightstone_dimirova-smiley.png`).
pub(crate) const PARAGRAPH_GAP: f32 = 0.3;

/// An atom of a line: a word or a run of spaces (its advance at size 1, and
/// its style), a symbol, or a new line (with the paragraph gap or not).
#[derive(Debug, Clone)]
enum Atom {
    Word(String, f32, Style),
    Space(f32, Style),
    Symbol(usize),
    Break { paragraph: bool },
}

/// Lays `pieces` out in `frame`, shrinking the size one pixel at a time
/// until the lines fit the box.
///
/// Sizes whose line height alone is taller than the box cannot fit, so the
/// search starts below them: the result is the one stepping down from the
/// layer's size would reach, without the steps that cannot succeed.
pub(crate) fn lay_out(pieces: &[Piece], frame: &Frame, measure: &dyn Measure) -> Block {
    // Advances scale with the size: words are measured once, at size 1.
    let atoms = atoms(pieces, measure);
    let line_height_scale = if frame.line_height_scale.is_finite() && frame.line_height_scale > 0.0
    {
        frame.line_height_scale
    } else {
        1.0
    };
    let mut size = frame.size.max(MIN_SIZE);
    let tallest = (frame.height / line_height_scale).floor();
    if size > tallest {
        size = tallest.max(MIN_SIZE);
    }
    loop {
        let lines = break_lines(&atoms, pieces, frame, size * line_height_scale, size);
        let height = height(&lines, size, line_height_scale);
        let widest = lines.iter().map(|l| l.width).fold(0.0, f32::max);
        let fits = height <= frame.height + EPSILON && widest <= frame.width + EPSILON;
        if fits || size <= MIN_SIZE {
            return place(
                &lines,
                &atoms,
                pieces,
                frame,
                size,
                line_height_scale,
                measure,
                fits,
            );
        }
        size -= 1.0;
        if size < MIN_SIZE {
            size = MIN_SIZE;
        }
    }
}

/// The height of `lines` at `size`: their line boxes and the gaps before
/// paragraphs.
fn height(lines: &[Draft], size: f32, line_height_scale: f32) -> f32 {
    let gaps = lines.iter().filter(|line| line.paragraph).count();
    lines.len() as f32 * size * line_height_scale + gaps as f32 * PARAGRAPH_GAP * size
}

fn atoms(pieces: &[Piece], measure: &dyn Measure) -> Vec<Atom> {
    let mut atoms = Vec::new();
    let mut style = Style::default();
    for (index, piece) in pieces.iter().enumerate() {
        match piece {
            Piece::Break => atoms.push(Atom::Break { paragraph: false }),
            // New lines in a row are one paragraph break: one gap.
            Piece::Paragraph => {
                let paragraph = !matches!(atoms.last(), Some(Atom::Break { paragraph: true }));
                atoms.push(Atom::Break { paragraph });
            }
            Piece::Style(next) => style = *next,
            Piece::Symbol { .. } => atoms.push(Atom::Symbol(index)),
            Piece::Text(text) => {
                let mut rest = text.as_str();
                while !rest.is_empty() {
                    let is_space = rest.starts_with(' ');
                    let end = rest
                        .find(|c: char| (c == ' ') != is_space)
                        .unwrap_or(rest.len());
                    let (part, tail) = rest.split_at(end);
                    let width = measure.advance(part, 1.0);
                    atoms.push(if is_space {
                        Atom::Space(width, style)
                    } else {
                        Atom::Word(part.to_owned(), width, style)
                    });
                    rest = tail;
                }
            }
        }
    }
    atoms
}

/// A line before it is placed: its atoms and width, and whether it starts
/// a paragraph (after the paragraph gap).
#[derive(Default)]
struct Draft {
    atoms: Vec<usize>,
    width: f32,
    paragraph: bool,
}

fn symbol_width(piece: &Piece, line_height: f32) -> f32 {
    match piece {
        Piece::Symbol {
            aspect,
            scale,
            spacing,
            ..
        } => {
            let height = scale * line_height;
            height * aspect + 2.0 * spacing * height
        }
        _ => 0.0,
    }
}

fn atom_width(atom: &Atom, pieces: &[Piece], line_height: f32, size: f32) -> f32 {
    match atom {
        Atom::Word(_, w, style) | Atom::Space(w, style) => w * style.size.at(size),
        Atom::Symbol(index) => symbol_width(&pieces[*index], line_height),
        Atom::Break { .. } => 0.0,
    }
}

/// Greedy line breaking at `size`: a chunk (the atoms between spaces) goes
/// on the current line when it fits, else starts the next one.
fn break_lines(
    atoms: &[Atom],
    pieces: &[Piece],
    frame: &Frame,
    line_height: f32,
    size: f32,
) -> Vec<Draft> {
    let mut lines = Vec::new();
    let mut line = Draft::default();
    let mut spaces: Vec<usize> = Vec::new();
    let mut spaces_width = 0.0;
    let mut i = 0;
    while i < atoms.len() {
        match &atoms[i] {
            Atom::Break { paragraph } => {
                lines.push(std::mem::replace(
                    &mut line,
                    Draft {
                        paragraph: *paragraph,
                        ..Draft::default()
                    },
                ));
                spaces.clear();
                spaces_width = 0.0;
                i += 1;
            }
            Atom::Space(..) => {
                spaces_width += atom_width(&atoms[i], pieces, line_height, size);
                spaces.push(i);
                i += 1;
            }
            Atom::Word(..) | Atom::Symbol(_) => {
                let start = i;
                let mut chunk_width = 0.0;
                while i < atoms.len() && matches!(atoms[i], Atom::Word(..) | Atom::Symbol(_)) {
                    chunk_width += atom_width(&atoms[i], pieces, line_height, size);
                    i += 1;
                }
                let wraps = !frame.one_line
                    && !line.atoms.is_empty()
                    && line.width + spaces_width + chunk_width > frame.width + EPSILON;
                if wraps {
                    lines.push(std::mem::take(&mut line));
                } else {
                    // Spaces at the start of a line are kept, as typed.
                    line.atoms.append(&mut spaces);
                    line.width += spaces_width;
                }
                spaces.clear();
                spaces_width = 0.0;
                line.atoms.extend(start..i);
                line.width += chunk_width;
            }
        }
    }
    if !line.atoms.is_empty() || !lines.is_empty() {
        lines.push(line);
    }
    lines
}

#[allow(clippy::too_many_arguments)]
fn place(
    drafts: &[Draft],
    all_atoms: &[Atom],
    pieces: &[Piece],
    frame: &Frame,
    size: f32,
    line_height_scale: f32,
    measure: &dyn Measure,
    fits: bool,
) -> Block {
    let line_height = size * line_height_scale;
    let total = height(drafts, size, line_height_scale);
    let top = match frame.vertical_align {
        VerticalAlign::Top => frame.y,
        VerticalAlign::Center => frame.y + (frame.height - total) / 2.0,
        VerticalAlign::Bottom => frame.y + frame.height - total,
    };
    let ascent = measure.ascent(size);
    let descent = measure.descent(size);
    // The glyph box (ascent + descent) centred in the line box.
    let baseline_offset = (line_height - (ascent + descent)) / 2.0 + ascent;
    let mut lines = Vec::with_capacity(drafts.len());
    let mut line_top = top;
    for draft in drafts {
        if draft.paragraph {
            line_top += PARAGRAPH_GAP * size;
        }
        let baseline = line_top + baseline_offset;
        let left = match frame.align {
            HorizontalAlign::Left => frame.x,
            HorizontalAlign::Center => frame.x + (frame.width - draft.width) / 2.0,
            HorizontalAlign::Right => frame.x + frame.width - draft.width,
        };
        let mut x = left;
        let mut items = Vec::new();
        for &index in &draft.atoms {
            let atom = &all_atoms[index];
            let width = atom_width(atom, pieces, line_height, size);
            match atom {
                Atom::Word(text, _, style) => items.push(Placed::Word {
                    x,
                    text: text.clone(),
                    size: style.size.at(size),
                    italic: style.italic,
                }),
                Atom::Symbol(piece) => {
                    if let Piece::Symbol {
                        index,
                        aspect,
                        scale,
                        spacing,
                        vertical_shift,
                    } = &pieces[*piece]
                    {
                        let height = scale * line_height;
                        // Centred on the middle of the glyph box, then
                        // shifted down.
                        let middle = baseline - (ascent - descent) / 2.0;
                        items.push(Placed::Symbol {
                            index: *index,
                            x: x + spacing * height,
                            y: middle - height / 2.0 + vertical_shift * height,
                            width: height * aspect,
                            height,
                        });
                    }
                }
                Atom::Space(..) | Atom::Break { .. } => {}
            }
            x += width;
        }
        lines.push(Line {
            top: line_top,
            baseline,
            left,
            width: draft.width,
            items,
        });
        line_top += line_height;
    }
    Block {
        size,
        line_height,
        lines,
        fits,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every character 0.5 em wide; ascent 0.8, descent 0.2.
    struct Mono;

    impl Measure for Mono {
        fn advance(&self, text: &str, size: f32) -> f32 {
            text.chars().count() as f32 * size * 0.5
        }
        fn ascent(&self, size: f32) -> f32 {
            size * 0.8
        }
        fn descent(&self, size: f32) -> f32 {
            size * 0.2
        }
    }

    fn frame(width: f32, height: f32, size: f32) -> Frame {
        Frame {
            x: 0.0,
            y: 0.0,
            width,
            height,
            size,
            line_height_scale: 1.0,
            one_line: false,
            align: HorizontalAlign::Left,
            vertical_align: VerticalAlign::Top,
        }
    }

    fn words(block: &Block) -> Vec<String> {
        block
            .lines
            .iter()
            .map(|line| {
                line.items
                    .iter()
                    .map(|item| match item {
                        Placed::Word { text, .. } => text.as_str(),
                        Placed::Symbol { .. } => "#",
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }

    #[test]
    fn words_wrap_greedily_at_spaces() {
        // 10 px per character: "aaa bbb" is 70 px, "aaa bbb ccc" 110.
        let block = lay_out(
            &[Piece::Text("aaa bbb ccc dd".into())],
            &frame(100.0, 100.0, 20.0),
            &Mono,
        );
        assert_eq!(words(&block), ["aaa bbb", "ccc dd"]);
        assert!((block.lines[1].width - 60.0).abs() < 0.01);
        assert_eq!(block.size, 20.0);
    }

    #[test]
    fn breaks_start_new_lines_and_empty_lines_count() {
        let block = lay_out(
            &[
                Piece::Text("a".into()),
                Piece::Break,
                Piece::Break,
                Piece::Text("b".into()),
            ],
            &frame(100.0, 100.0, 20.0),
            &Mono,
        );
        assert_eq!(words(&block), ["a", "", "b"]);
        assert_eq!(block.lines[2].top, 40.0);
    }

    #[test]
    fn a_paragraph_starts_after_the_gap_which_counts_in_the_height() {
        let pieces = [
            Piece::Text("a".into()),
            Piece::Paragraph,
            Piece::Text("b".into()),
        ];
        let block = lay_out(&pieces, &frame(100.0, 100.0, 20.0), &Mono);
        assert_eq!(block.lines[1].top, 20.0 + PARAGRAPH_GAP * 20.0);
        // Two lines of 20 px fit 40 px, not with the gap between them: the
        // text shrinks until 2 × size + 0.3 × size fits (17 px).
        let block = lay_out(&pieces, &frame(100.0, 40.0, 20.0), &Mono);
        assert_eq!(block.size, 17.0);
        assert!(block.fits);
        // An empty line between paragraphs: one gap, not two.
        let pieces = [
            Piece::Text("a".into()),
            Piece::Paragraph,
            Piece::Paragraph,
            Piece::Text("b".into()),
        ];
        let block = lay_out(&pieces, &frame(100.0, 100.0, 20.0), &Mono);
        assert_eq!(block.lines[2].top, 40.0 + PARAGRAPH_GAP * 20.0);
    }

    #[test]
    fn italics_and_size_changes_reach_the_words_and_their_widths() {
        let bigger = Style {
            italic: true,
            size: SizeChange::By(10.0),
        };
        let block = lay_out(
            &[
                Piece::Text("aa ".into()),
                Piece::Style(bigger),
                Piece::Text("bb".into()),
                Piece::Style(Style::default()),
                Piece::Text(" cc".into()),
            ],
            &frame(1000.0, 100.0, 20.0),
            &Mono,
        );
        let items = &block.lines[0].items;
        let word = |i: usize| match &items[i] {
            Placed::Word {
                x, size, italic, ..
            } => (*x, *size, *italic),
            other => panic!("expected a word, found {other:?}"),
        };
        assert_eq!(word(0), (0.0, 20.0, false));
        assert_eq!(word(1), (30.0, 30.0, true));
        // "bb" at 30 px is 30 px wide; the space after it is upright again.
        assert_eq!(word(2), (70.0, 20.0, false));
        assert_eq!(SizeChange::To(12.0).at(20.0), 12.0);
        assert_eq!(SizeChange::By(-30.0).at(20.0), MIN_SIZE);
    }

    #[test]
    fn text_shrinks_one_step_until_it_fits() {
        // At 20 px a word is 30 px and two go on a line (70 px; three are
        // 110): 3 lines of 20 px do not fit 50 px. At 19 px still two (three
        // are 104.5): 57 px. At 18 px three fit (99 px): 2 lines, 36 px.
        let block = lay_out(
            &[Piece::Text("aaa aaa aaa aaa aaa aaa".into())],
            &frame(100.0, 50.0, 20.0),
            &Mono,
        );
        assert!(block.fits);
        assert_eq!(block.size, 18.0);
        assert_eq!(block.lines.len(), 2);
    }

    #[test]
    fn one_line_shrinks_instead_of_wrapping() {
        let mut f = frame(100.0, 100.0, 20.0);
        f.one_line = true;
        let block = lay_out(&[Piece::Text("aaaa bbbb cccc".into())], &f, &Mono);
        assert_eq!(block.lines.len(), 1);
        // 14 characters of 0.5 em in 100 px: 14 px.
        assert_eq!(block.size, 14.0);
    }

    #[test]
    fn alignment_counts_symbols() {
        let mut f = frame(100.0, 20.0, 20.0);
        f.align = HorizontalAlign::Right;
        let symbol = Piece::Symbol {
            index: 0,
            aspect: 1.0,
            scale: 0.5,
            spacing: 0.0,
            vertical_shift: 0.0,
        };
        let block = lay_out(&[Piece::Text("ab".into()), symbol], &f, &Mono);
        // "ab" is 20 px, the symbol 10: the line ends at the right edge.
        let line = &block.lines[0];
        assert_eq!(line.left, 70.0);
        match &line.items[1] {
            Placed::Symbol { x, width, .. } => assert_eq!(x + width, 100.0),
            other => panic!("expected a symbol, found {other:?}"),
        }
    }

    #[test]
    fn vertical_centring_and_bottom() {
        let mut f = frame(100.0, 100.0, 20.0);
        f.vertical_align = VerticalAlign::Center;
        let block = lay_out(&[Piece::Text("a".into())], &f, &Mono);
        assert_eq!(block.lines[0].top, 40.0);
        f.vertical_align = VerticalAlign::Bottom;
        let block = lay_out(&[Piece::Text("a".into())], &f, &Mono);
        assert_eq!(block.lines[0].top, 80.0);
    }
}
