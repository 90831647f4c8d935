//! A text layer: its text split into words, line breaks, the year and the
//! template's symbols, laid out in its box in the font selected, each line
//! written as SVG text with the symbols as images.

use std::fmt::Write as _;
use std::sync::Arc;

use cardkit::model::{HorizontalAlign, Text, VerticalAlign};
use cardkit_design::symbols::{self, FontSize, TextCode};

use super::canvas::{Asset, Scene};
use super::geometry::Rect;
use super::svg::{escape, num, svg_color};
use super::wording::{place_of, short};
use crate::layout::{self, Frame, Piece, Placed, SizeChange, Style};
use crate::report::Report;

impl Scene<'_> {
    pub(super) fn text(&mut self, n: usize, pointer: &str, text: &Text) {
        let at = place_of(pointer, text.name.as_deref());
        #[allow(clippy::cast_precision_loss)]
        let frame = Rect {
            x: text.x as f32,
            y: text.y as f32,
            width: text.width as f32,
            height: text.height as f32,
        };
        if text.text.chars().count() > self.options.limits.max_text_chars {
            self.report.push(Report::new(
                &at,
                format!(
                    "the text is longer than the limit of {} characters: not drawn",
                    self.options.limits.max_text_chars
                ),
            ));
            self.placeholder(n, frame);
            return;
        }
        let frame = self.clamp_box(frame, "the box", &at);
        if !self.text_budget_left(&at) {
            self.placeholder(n, frame);
            return;
        }
        let Some(face) = self.fonts.select(
            text.font.as_deref(),
            text.font_weight.as_deref(),
            &at,
            &mut self.report,
        ) else {
            self.report.push(Report::new(
                &at,
                "no font could be loaded (not even a fallback): text not drawn",
            ));
            self.placeholder(n, frame);
            return;
        };
        let color = svg_color(text.color.as_ref()).unwrap_or_else(|| {
            self.report.push(Report::new(
                &at,
                format!("the colour \"{}\" cannot be drawn: white used", text.color),
            ));
            "rgb(255,255,255)".to_owned()
        });
        // Pieces to lay out, and the symbols' assets by piece index.
        let mut pieces = Vec::new();
        let mut symbol_assets: Vec<Result<Asset, (String, String)>> = Vec::new();
        let mut style = Style::default();
        let table = std::mem::take(&mut self.symbols);
        for run in symbols::split(&text.text, &table) {
            match run.piece {
                symbols::Piece::Text(plain) => push_text(&mut pieces, plain),
                symbols::Piece::Code(TextCode::Line) => pieces.push(Piece::Paragraph),
                symbols::Piece::Code(TextCode::LineNoSpace) => pieces.push(Piece::Break),
                symbols::Piece::Code(TextCode::Year) => {
                    push_text(&mut pieces, &self.year.to_string());
                }
                symbols::Piece::Code(code @ (TextCode::ItalicStart | TextCode::ItalicEnd | TextCode::FontSize(_))) => {
                    style = styled(style, code);
                    pieces.push(Piece::Style(style));
                }
                symbols::Piece::Symbol(symbol) => {
                    let loaded = self.asset(&symbol.src).map_err(|why| (symbol.src.clone(), why));
                    let aspect = match &loaded {
                        Ok(asset) if asset.height > 0.0 => (asset.width / asset.height).clamp(0.01, 100.0),
                        _ => 1.0,
                    };
                    #[allow(clippy::cast_possible_truncation)] // fractions of a line
                    pieces.push(Piece::Symbol {
                        index: symbol_assets.len(),
                        aspect,
                        scale: symbol.scale as f32,
                        spacing: symbol.spacing as f32,
                        vertical_shift: symbol.vertical_shift as f32,
                    });
                    symbol_assets.push(loaded);
                }
                symbols::Piece::Unknown(code) => self.report.push(Report::new(
                    &at,
                    format!("text code {{{code}}} is not a symbol of the template nor a known code: left out"),
                )),
            }
        }
        self.symbols = table;
        let layout_frame = Frame {
            x: frame.x,
            y: frame.y,
            width: frame.width,
            height: frame.height,
            #[allow(clippy::cast_precision_loss)]
            size: text.size.max(1) as f32,
            #[allow(clippy::cast_possible_truncation)]
            line_height_scale: text.line_height_scale as f32,
            one_line: text.one_line,
            align: text.align.unwrap_or(HorizontalAlign::Left),
            vertical_align: text.vertical_align.unwrap_or(VerticalAlign::Center),
        };
        let block = self.fonts.with_measure(&face, |measure| {
            layout::lay_out(&pieces, &layout_frame, measure)
        });
        if !block.fits {
            self.report.push(Report::new(
                &at,
                format!(
                    "the text does not fit its box of {} × {} even at {} px",
                    num(frame.width),
                    num(frame.height),
                    num(block.size)
                ),
            ));
        }
        #[allow(clippy::cast_precision_loss)]
        let rotation = text.rotation as f32;
        let filter = self.filter(n, text.filters.as_deref(), frame, rotation, &at);
        self.open_layer(n, text.opacity, filter.as_ref());
        self.open_rotation(rotation, frame);
        let family = escape(&face.key);
        let mut symbol_count = 0;
        let mut out_of_budget = false;
        for (l, line) in block.lines.iter().enumerate() {
            let _ = write!(
                self.svg,
                "<g id=\"layer-{n}-line-{l}\" font-family=\"'{family}'\" font-size=\"{}\" font-weight=\"{}\" fill=\"{color}\">",
                num(block.size),
                face.weight
            );
            let mut empty = true;
            for item in &line.items {
                let chars = match item {
                    Placed::Word { text, .. } => text.chars().count(),
                    Placed::Symbol { .. } => 1,
                };
                if out_of_budget || !self.spend_text(chars) {
                    out_of_budget = true;
                    break;
                }
                match item {
                    Placed::Word {
                        x,
                        text,
                        size,
                        italic,
                    } => {
                        empty = false;
                        let _ = write!(
                            self.svg,
                            "<text x=\"{}\" y=\"{}\"",
                            num(*x),
                            num(line.baseline),
                        );
                        if *size != block.size {
                            let _ = write!(self.svg, " font-size=\"{}\"", num(*size));
                        }
                        if *italic {
                            // Slanted about the baseline, as a browser
                            // slants a face that has no italics of its own.
                            let _ = write!(
                                self.svg,
                                " transform=\"matrix(1 0 {} 1 {} 0)\"",
                                num(-ITALIC_SLANT),
                                num(ITALIC_SLANT * line.baseline)
                            );
                        }
                        let _ = write!(self.svg, " xml:space=\"preserve\">{}</text>", escape(text));
                    }
                    Placed::Symbol {
                        index,
                        x,
                        y,
                        width,
                        height,
                    } => {
                        empty = false;
                        let rect = Rect {
                            x: *x,
                            y: *y,
                            width: *width,
                            height: *height,
                        };
                        let id = format!("layer-{n}-symbol-{symbol_count}");
                        symbol_count += 1;
                        match &symbol_assets[*index] {
                            Ok(asset)
                                if self.embed(asset.href.len() as u64, &at)
                                    && self.spend(self.isolated_draw_cost(asset, rect), &at) =>
                            {
                                let href = Arc::clone(&asset.href);
                                // Isolated, resvg draws the symbol in a layer of its own
                                // size rather than of the whole picture's (see
                                // `SYMBOL_ISOLATION`).
                                let _ =
                                    write!(self.svg, "<g id=\"{id}\" style=\"isolation:isolate\">");
                                self.svg_image(&href, rect);
                                self.svg.push_str("</g>");
                            }
                            Ok(_) => self.placeholder_with_id(&id, rect),
                            Err((src, why)) => {
                                self.report.push(Report::new(
                                    &at,
                                    format!(
                                        "symbol `{}`: {why}: drawn as a placeholder box",
                                        short(src)
                                    ),
                                ));
                                self.placeholder_with_id(&id, rect);
                            }
                        }
                    }
                }
            }
            if empty {
                // An empty line keeps its group (ids stay in step); usvg
                // drops empty groups, which is what it should draw.
            }
            self.svg.push_str("</g>");
        }
        self.close_rotation(rotation);
        self.close_layer(filter.as_ref());
        if out_of_budget {
            self.report_text_budget(&at);
        }
    }

    /// Whether the card's text may draw more; if not, a report line.
    fn text_budget_left(&mut self, at: &str) -> bool {
        let limits = &self.options.limits;
        let (words, chars) = (limits.max_drawn_words, limits.max_drawn_chars);
        if self.drawn_words < words && self.drawn_chars < chars {
            return true;
        }
        self.report_text_budget(at);
        false
    }

    fn report_text_budget(&mut self, at: &str) {
        let limits = &self.options.limits;
        let (words, chars) = (limits.max_drawn_words, limits.max_drawn_chars);
        self.report.push(Report::new(
            at,
            format!("the card's text reaches the limit of {words} words and symbols or {chars} characters drawn: the rest of this layer's text is not drawn"),
        ));
    }

    /// Counts a word (or symbol) of `chars` characters to draw; `false`
    /// past the card's limits.
    fn spend_text(&mut self, chars: usize) -> bool {
        let limits = &self.options.limits;
        if self.drawn_words >= limits.max_drawn_words
            || self.drawn_chars + chars > limits.max_drawn_chars
        {
            return false;
        }
        self.drawn_words += 1;
        self.drawn_chars += chars;
        true
    }
}

/// The slant of italics: the tangent of 12°, a browser's oblique.
const ITALIC_SLANT: f32 = 0.2126;

/// `style` after `code` (italics or a size; other codes leave it).
fn styled(mut style: Style, code: TextCode) -> Style {
    match code {
        TextCode::ItalicStart => style.italic = true,
        TextCode::ItalicEnd => style.italic = false,
        // Changes add up, as the design tool sets each from the size the
        // text has reached.
        #[allow(clippy::cast_possible_truncation)] // bounded by the code's reading
        TextCode::FontSize(change) => {
            style.size = match (style.size, change) {
                (SizeChange::Same, FontSize::By(pixels)) => SizeChange::By(pixels as f32),
                (SizeChange::By(earlier), FontSize::By(pixels)) => {
                    SizeChange::By(earlier + pixels as f32)
                }
                (SizeChange::To(earlier), FontSize::By(pixels)) => {
                    SizeChange::To(earlier + pixels as f32)
                }
                (_, points @ FontSize::Points(_)) => SizeChange::To(points.apply(0.0) as f32),
            };
        }
        TextCode::Line | TextCode::LineNoSpace | TextCode::Year => {}
    }
    style
}

/// Plain text as pieces: a new paragraph at each `\n` (`\r\n` too), as the
/// design tool reads it.
fn push_text(pieces: &mut Vec<Piece>, text: &str) {
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            pieces.push(Piece::Paragraph);
        }
        let line = line.strip_suffix('\r').unwrap_or(line);
        if !line.is_empty() {
            pieces.push(Piece::Text(line.replace('\t', " ")));
        }
    }
}
