//! The classic tool's codes that depend on the card, applied as the texts
//! are converted, since a spec document carries their result and not what
//! they read:
//!
//! - the mana-cost mode (`manaCost: true`): each word of the text is a
//!   symbol's name (`1 B G` is drawn as `{1}{B}{G}`);
//! - `{elemidinfo-set}` and its kin: the value of the card's `infoSet`
//!   (`infoNumber`, `infoYear`, `infoArtist`, `infoLanguage`, `infoRarity`,
//!   `infoNote`), or nothing when the card has none; with no artist, the
//!   brush before the artist's name (`\u{FFEE}{elemidinfo-artist}`) goes
//!   too;
//! - `{ptshiftX,Y}`: the text moved by `X` of the card's width and `Y` of
//!   its height when the card has a power/toughness box (a frame so named,
//!   or a version that always has one), else nothing.

use std::collections::BTreeMap;

/// The card versions the tool always shifts texts for (`{ptshift}`), as
/// it names them.
const VERSIONS_WITH_PT_BOX: [&str; 5] = [
    "commanderLegends",
    "m21",
    "mysticalArchive",
    "customDualLands",
    "feuerAmeiseKaldheim",
];

/// The brush the tool draws before the artist's name.
const ARTIST_BRUSH: char = '\u{FFEE}';

/// The values the `{elemid…}` codes of a card's texts read, by the id of
/// the tool's field (`info-set` for `infoSet`).
#[derive(Debug, Default)]
pub(super) struct Info(BTreeMap<String, String>);

impl Info {
    /// The card's `info…` members (`infoSet` is `info-set`).
    pub(super) fn of(data: &serde_json::Map<String, serde_json::Value>) -> Info {
        Info(
            data.iter()
                .filter_map(|(member, value)| {
                    let field = member.strip_prefix("info")?;
                    let value = match value {
                        serde_json::Value::String(text) => text.clone(),
                        serde_json::Value::Number(number) => number.to_string(),
                        _ => String::new(),
                    };
                    Some((format!("info-{}", field.to_lowercase()), value))
                })
                .collect(),
        )
    }

    /// `text` with each `{elemidinfo-…}` code replaced by its value (the
    /// tool's fields are always there: a card without the member gives
    /// nothing); whether any was.
    pub(super) fn fill(&self, text: &str) -> (String, bool) {
        let mut text = text.to_owned();
        if self.0.get("info-artist").is_none_or(String::is_empty) {
            text = text.replace(&format!("{ARTIST_BRUSH}{{elemidinfo-artist}}"), "");
        }
        let mut filled = false;
        let mut out = String::with_capacity(text.len());
        let mut rest = text.as_str();
        while let Some(open) = find_code(rest, "{elemidinfo-") {
            let after = &rest[open + 1..];
            let Some(close) = after.find('}') else { break };
            let id = after["elemid".len()..close].to_lowercase();
            out.push_str(&rest[..open]);
            out.push_str(self.0.get(&id).map_or("", String::as_str));
            filled = true;
            rest = &after[close + 1..];
        }
        out.push_str(rest);
        (out, filled)
    }
}

/// Where the code starting with `prefix` (lower case) is in `text`, in any
/// case.
fn find_code(text: &str, prefix: &str) -> Option<usize> {
    text.char_indices().map(|(at, _)| at).find(|&at| {
        text.get(at..at + prefix.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(prefix))
    })
}

/// A text in the mana-cost mode as symbol codes: each word (a run without
/// spaces) is a symbol's name, written in braces unless it already is.
pub(super) fn mana_cost(text: &str) -> String {
    text.split_whitespace()
        .map(|word| {
            if word.starts_with('{') && word.ends_with('}') {
                word.to_owned()
            } else {
                format!("{{{word}}}")
            }
        })
        .collect()
}

/// Whether the tool shifts texts by `{ptshift}` on a card of `version`
/// whose frames are named `frames`.
pub(super) fn pt_shift_applies<'a>(
    version: Option<&str>,
    mut frames: impl Iterator<Item = &'a str>,
) -> bool {
    version.is_some_and(|version| {
        version.contains("planeswalker") || VERSIONS_WITH_PT_BOX.contains(&version)
    }) || frames.any(|name| name.to_lowercase().contains("power/toughness"))
}

/// `text` without its `{ptshiftX,Y}` codes, and the shift the last of them
/// gives (fractions of the card's width and height), if any can be read.
pub(super) fn take_pt_shift(text: &str) -> (String, Option<(f64, f64)>) {
    let mut shift = None;
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = find_code(rest, "{ptshift") {
        let after = &rest[open + "{ptshift".len()..];
        let Some(close) = after.find('}') else { break };
        let mut numbers = after[..close].split(',').map(|n| n.trim().parse::<f64>());
        if let (Some(Ok(x)), Some(Ok(y))) = (numbers.next(), numbers.next()) {
            if x.is_finite() && y.is_finite() {
                shift = Some((x, y));
            }
        }
        out.push_str(&rest[..open]);
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    (out, shift)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn mana_costs_are_symbol_codes() {
        assert_eq!(mana_cost("1 B G"), "{1}{B}{G}");
        assert_eq!(mana_cost("1 g g "), "{1}{g}{g}");
        assert_eq!(mana_cost("{W}{B}{G}"), "{W}{B}{G}");
        assert_eq!(mana_cost(""), "");
    }

    #[test]
    fn info_codes_are_filled_from_the_card() {
        let data = json!({"infoSet": "MTG", "infoYear": 2023, "infoArtist": "", "width": 1});
        let info = Info::of(data.as_object().unwrap());
        let (text, filled) =
            info.fill("{elemidinfo-set}*{ElemIdInfo-Language} \u{FFEE}{elemidinfo-artist}");
        assert_eq!(text, "MTG* ");
        assert!(filled);
        assert_eq!(info.fill("© {elemidinfo-year}").0, "© 2023");
        assert!(!info.fill("plain").1);
        // A code cut short is left for the report.
        assert_eq!(info.fill("{elemidinfo-set").0, "{elemidinfo-set");
    }

    #[test]
    fn pt_shifts_are_taken_out_and_read() {
        assert_eq!(
            take_pt_shift("{ptshift0,0.0172}™ & ©"),
            ("™ & ©".to_owned(), Some((0.0, 0.0172)))
        );
        assert_eq!(take_pt_shift("{ptshiftx}a"), ("a".to_owned(), None));
        assert!(pt_shift_applies(None, ["Power/Toughness Box"].into_iter()));
        assert!(pt_shift_applies(Some("m21"), std::iter::empty()));
        assert!(!pt_shift_applies(
            Some("sagaRegular"),
            ["Frame"].into_iter()
        ));
    }
}
