//! The fonts a render may use, loaded explicitly into one font database (no
//! system fonts), and text measured with the shaper usvg draws it with.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;

use usvg::fontdb::{self, Database, Source};

use crate::layout::Measure;
use crate::report::Report;

/// One face the text of a card can be set in.
#[derive(Debug, Clone)]
pub(crate) struct Face {
    /// The face in the database.
    id: fontdb::ID,
    /// The face's own family name, for report lines.
    pub(crate) family: String,
    /// The family name usvg selects the face by: this face's alone, so
    /// text is drawn in the face it was measured with, whatever other
    /// fonts call themselves.
    pub(crate) key: String,
    /// The weight usvg selects the face by (100–900).
    pub(crate) weight: u16,
    /// The file a fallback face was read from, for report lines.
    file: Option<std::path::PathBuf>,
    /// Units of the font's design grid per em.
    units_per_em: f32,
    /// Ascent above the baseline, in font units (positive).
    ascent: f32,
    /// Descent below the baseline, in font units (positive).
    descent: f32,
}

impl Face {
    /// Ascent at `size` pixels.
    pub(crate) fn ascent(&self, size: f32) -> f32 {
        self.ascent * size / self.units_per_em
    }

    /// Descent at `size` pixels (positive).
    pub(crate) fn descent(&self, size: f32) -> f32 {
        self.descent * size / self.units_per_em
    }
}

/// A font the template declares, found (or not) on disk.
#[derive(Debug, Clone)]
struct Declared {
    /// Faces loaded for the name, by weight.
    by_weight: BTreeMap<u16, Face>,
}

/// The font database of a render and the faces the template's font names
/// stand for.
pub(crate) struct Fonts {
    db: Arc<Database>,
    /// The template's fonts by lower-case name.
    declared: BTreeMap<String, Declared>,
    /// Fallback faces by weight: the first loaded is the regular one.
    fallback: BTreeMap<u16, Face>,
    /// Names already reported as substituted (one report line per name and
    /// weight per card).
    reported: std::collections::BTreeSet<(String, u16)>,
}

/// A font the template declares, or the user names: where it is named (for
/// report lines), its name, its weight, and the bytes of its file or why
/// they could not be read.
pub(crate) struct DeclaredFont {
    pub(crate) at: String,
    pub(crate) name: String,
    pub(crate) weight: Option<String>,
    pub(crate) bytes: Result<Arc<Vec<u8>>, String>,
}

/// Where the fonts of a render come from.
pub(crate) struct FontSources<'a> {
    /// The template's fonts: name, weight, and the bytes of its file or why
    /// they could not be read.
    pub(crate) declared: Vec<DeclaredFont>,
    /// The fallback font files, in order of preference.
    pub(crate) fallback: &'a [std::path::PathBuf],
}

/// The most bytes a font file may have.
pub const MAX_FONT_BYTES: u64 = 32 * 1024 * 1024;

impl Fonts {
    /// Loads the template's fonts and the fallback fonts; every font that
    /// cannot be read or is not a font is a report line.
    pub(crate) fn load(sources: FontSources<'_>, report: &mut Vec<Report>) -> Fonts {
        let mut db = Database::new();
        let mut declared: BTreeMap<String, Declared> = BTreeMap::new();
        let mut pending: Vec<(String, u16, fontdb::ID)> = Vec::new();
        for DeclaredFont {
            at,
            name,
            weight,
            bytes,
        } in sources.declared
        {
            let key = name.to_lowercase();
            declared.entry(key.clone()).or_insert_with(|| Declared {
                by_weight: BTreeMap::new(),
            });
            match bytes {
                Err(why) => report.push(Report::new(&at, format!("font \"{name}\": {why}"))),
                Ok(bytes) => {
                    let ids = db.load_font_source(Source::Binary(bytes));
                    match ids.first() {
                        None => report.push(Report::new(
                            &at,
                            format!(
                                "font \"{name}\": the file is not a font (no face could be read)"
                            ),
                        )),
                        Some(&id) => {
                            let weight = weight
                                .as_deref()
                                .and_then(parse_weight)
                                .unwrap_or_else(|| db.face(id).map_or(400, |f| f.weight.0));
                            pending.push((key, weight, id));
                        }
                    }
                }
            }
        }
        let mut fallback_ids = Vec::new();
        for path in sources.fallback {
            match read_limited(path) {
                Err(why) => report.push(Report::new(
                    "fonts",
                    format!("fallback font {}: {why}", path.display()),
                )),
                Ok(bytes) => {
                    let ids = db.load_font_source(Source::Binary(Arc::new(bytes)));
                    if ids.is_empty() {
                        report.push(Report::new(
                            "fonts",
                            format!("fallback font {}: the file is not a font", path.display()),
                        ));
                    }
                    fallback_ids.extend(ids.first().map(|&id| (id, path)));
                }
            }
        }
        let mut fonts = Fonts {
            db: Arc::new(Database::new()),
            declared,
            fallback: BTreeMap::new(),
            reported: std::collections::BTreeSet::new(),
        };
        for (key, weight, id) in pending {
            match face_of(&mut db, id) {
                Some(mut face) => {
                    face.weight = db.face(face.id).map_or(weight, |f| f.weight.0);
                    if let Some(entry) = fonts.declared.get_mut(&key) {
                        entry.by_weight.entry(weight).or_insert(face);
                    }
                }
                None => report.push(Report::new(
                    "template /context/fonts",
                    format!("font \"{key}\": its metrics cannot be read"),
                )),
            }
        }
        for (id, path) in fallback_ids {
            if let Some(mut face) = face_of(&mut db, id) {
                face.file = Some(path.clone());
                fonts.fallback.entry(face.weight).or_insert(face);
            }
        }
        fonts.db = Arc::new(db);
        fonts
    }

    /// The database usvg draws with.
    pub(crate) fn database(&self) -> Arc<Database> {
        Arc::clone(&self.db)
    }

    /// The face for a text layer's `font` and `fontWeight`; a substitution
    /// is a report line (once per name and weight).
    pub(crate) fn select(
        &mut self,
        name: Option<&str>,
        weight: Option<&str>,
        at: &str,
        report: &mut Vec<Report>,
    ) -> Option<Face> {
        let wanted = weight.and_then(parse_weight).unwrap_or(400);
        if let Some(name) = name {
            let key = name.to_lowercase();
            if let Some(declared) = self.declared.get(&key) {
                if let Some(face) = declared.by_weight.get(&wanted) {
                    return Some(face.clone());
                }
                if let Some(face) = nearest(&declared.by_weight, wanted) {
                    if wanted != 400 && self.reported.insert((key.clone(), wanted)) {
                        report.push(Report::new(
                            at,
                            format!(
                                "font \"{name}\" has no weight {wanted}: set in its weight {}",
                                face.weight
                            ),
                        ));
                    }
                    return Some(face.clone());
                }
            }
            let face = nearest(&self.fallback, wanted)?.clone();
            if self.reported.insert((key, wanted)) {
                let why = if self.declared.contains_key(&name.to_lowercase()) {
                    "its file could not be loaded"
                } else {
                    "the template declares no such font"
                };
                let file = face
                    .file
                    .as_ref()
                    .map(|file| format!(" from {}", file.display()))
                    .unwrap_or_default();
                report.push(Report::new(
                    at,
                    format!(
                        "font \"{name}\" ({why}) substituted by \"{}\" weight {}{file}",
                        face.family, face.weight
                    ),
                ));
            }
            return Some(face);
        }
        nearest(&self.fallback, wanted).cloned()
    }

    /// Runs `f` with a measure of text set in `face`: one shaper (harfrust,
    /// as usvg shapes: default features, kerning on) for every string of a
    /// layer, and each distinct string shaped once.
    pub(crate) fn with_measure<R>(&self, face: &Face, f: impl FnOnce(&dyn Measure) -> R) -> R {
        let mut f = Some(f);
        let done = self.db.with_face_data(face.id, |data, index| {
            let font = harfrust::FontRef::from_index(data, index).ok()?;
            let shaper_data = harfrust::ShaperData::new(&font);
            let shaper = shaper_data.shaper(&font).build();
            let measure = Shaped {
                shaper: Some(&shaper),
                face,
                widths: RefCell::new(HashMap::new()),
            };
            f.take().map(|f| f(&measure))
        });
        match (done.flatten(), f) {
            (Some(result), _) => result,
            // The face's data cannot be shaped: every width is 0.
            (None, Some(f)) => f(&Shaped {
                shaper: None,
                face,
                widths: RefCell::new(HashMap::new()),
            }),
            (None, None) => unreachable!("the measure ran but gave nothing"),
        }
    }
}

/// Text measured with one face's shaper.
struct Shaped<'a, 'b> {
    shaper: Option<&'a harfrust::Shaper<'b>>,
    face: &'a Face,
    /// Widths at size 1 by string.
    widths: RefCell<HashMap<String, f32>>,
}

impl Measure for Shaped<'_, '_> {
    fn advance(&self, text: &str, size: f32) -> f32 {
        if text.is_empty() {
            return 0.0;
        }
        let Some(shaper) = self.shaper else {
            return 0.0;
        };
        if let Some(width) = self.widths.borrow().get(text) {
            return width * size;
        }
        let mut buffer = harfrust::UnicodeBuffer::new();
        buffer.push_str(text);
        buffer.guess_segment_properties();
        let output = shaper.shape(buffer, harfrust::ShapeOptions::new());
        let units: i64 = output
            .glyph_positions()
            .iter()
            .map(|p| i64::from(p.x_advance))
            .sum();
        #[allow(clippy::cast_precision_loss)] // advances are small
        let width = units as f32 / self.face.units_per_em;
        self.widths.borrow_mut().insert(text.to_owned(), width);
        width * size
    }

    fn ascent(&self, size: f32) -> f32 {
        self.face.ascent(size)
    }

    fn descent(&self, size: f32) -> f32 {
        self.face.descent(size)
    }
}

/// The face nearest in weight to `wanted` (CSS's rule simplified: the
/// closest weight, the lighter one on a tie).
fn nearest(faces: &BTreeMap<u16, Face>, wanted: u16) -> Option<&Face> {
    faces
        .iter()
        .min_by_key(|(weight, _)| (weight.abs_diff(wanted), **weight))
        .map(|(_, face)| face)
}

/// Reads a face's family, weight and metrics, and gives it a family name
/// of its own in the database.
fn face_of(db: &mut Database, id: fontdb::ID) -> Option<Face> {
    use skrifa::MetadataProvider as _;
    let info = db.face(id)?;
    let family = info.families.first()?.0.clone();
    let weight = info.weight.0;
    let metrics = db.with_face_data(id, |data, index| {
        let font = skrifa::FontRef::from_index(data, index).ok()?;
        let metrics = font.metrics(
            skrifa::instance::Size::unscaled(),
            skrifa::instance::LocationRef::default(),
        );
        Some((
            f32::from(metrics.units_per_em),
            metrics.ascent,
            -metrics.descent,
        ))
    })??;
    let (units_per_em, ascent, descent) = metrics;
    if !(16.0..=16384.0).contains(&units_per_em) {
        return None;
    }
    let mut info = db.face(id)?.clone();
    // Unique, as the id it was loaded under is.
    let serial: String = format!("{id:?}")
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect();
    let key = format!("cardkit face {serial}");
    info.families = vec![(key.clone(), fontdb::Language::English_UnitedStates)];
    db.remove_face(id);
    let id = db.push_face_info(info);
    Some(Face {
        id,
        family,
        key,
        weight,
        file: None,
        units_per_em,
        ascent,
        descent,
    })
}

/// A CSS font weight: a number 1–1000 or `normal`, `bold`, `lighter`,
/// `bolder` (the last two taken as 300 and 700, as there is no parent).
pub(crate) fn parse_weight(weight: &str) -> Option<u16> {
    let weight = weight.trim().to_ascii_lowercase();
    match weight.as_str() {
        "normal" | "regular" => Some(400),
        "bold" | "bolder" => Some(700),
        "lighter" | "light" => Some(300),
        "medium" => Some(500),
        "semibold" => Some(600),
        "thin" => Some(100),
        "black" | "heavy" => Some(900),
        number => number
            .parse::<u16>()
            .ok()
            .filter(|w| (1..=1000).contains(w)),
    }
}

/// A file's bytes, refused when larger than [`MAX_FONT_BYTES`].
pub(crate) fn read_limited(path: &Path) -> Result<Vec<u8>, String> {
    use std::io::Read as _;
    let file = std::fs::File::open(path).map_err(|e| format!("cannot be read: {e}"))?;
    let mut bytes = Vec::new();
    file.take(MAX_FONT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot be read: {e}"))?;
    if bytes.len() as u64 > MAX_FONT_BYTES {
        return Err(format!("larger than the limit of {MAX_FONT_BYTES} bytes"));
    }
    Ok(bytes)
}
