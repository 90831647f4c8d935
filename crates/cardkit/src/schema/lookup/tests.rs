//! Lookups by pointer: places, suggestions, depth and work.

use super::walk::WORK;
use super::*;
use crate::schema::fields::Member;
use crate::table::Type;

fn one(kind: Kind, pointer: &str) -> Place {
    let found = lookup(kind, pointer).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(found.len(), 1, "{pointer}");
    found.into_iter().next().unwrap()
}

#[test]
fn indexes_and_stars_name_the_same_field() {
    for pointer in [
        "/cards/3/identifiers/shopAId",
        "/cards/*/identifiers/shopAId",
    ] {
        let place = one(Kind::Set, pointer);
        assert_eq!(place.pointer, "/cards/*/identifiers/shopAId");
        assert_eq!(place.model, "Identifiers");
        assert_eq!(place.member.name(), "shopAId");
        assert!(place.item.is_none());
    }
}

#[test]
fn escapes_and_keys_with_spaces() {
    let place = one(Kind::Set, "/translations/Portuguese (Brazil)");
    assert_eq!(place.model, "Translations");
    assert!(lookup(Kind::Set, "/translations/Portuguese ~1Brazil").is_err());
    let error = lookup(Kind::Set, "/code~2").unwrap_err();
    assert!(
        error.reason.contains("`~` must be followed by 0 or 1"),
        "{error}"
    );
    let error = lookup(Kind::Set, "code").unwrap_err();
    assert!(error.reason.contains("starts with `/`"), "{error}");
    // `~1` and `~0` decode before the name is looked up.
    let error = lookup(Kind::Set, "/co~1de").unwrap_err();
    assert!(error.reason.contains("no member `co/de`"), "{error}");
}

#[test]
fn items_tags_and_recursion() {
    let item = one(Kind::Set, "/cards/0");
    assert_eq!(item.pointer, "/cards/*");
    assert_eq!(item.member.name(), "cards");
    assert!(matches!(item.item, Some(Type::Model { .. })));

    let tag = one(Kind::Card, "/data/children/2/type");
    assert!(matches!(tag.member, Member::Tag(union) if union.name == "Layer"));

    let deep = one(
        Kind::Template,
        "/card/data/children/0/children/1/children/*/src",
    );
    assert_eq!(deep.model, "Image");
    assert_eq!(
        deep.pointer,
        "/card/data/children/*/children/*/children/*/src"
    );
    assert_eq!(deep.branches.len(), 3);

    let names = lookup(Kind::Card, "/data/children/0/name").unwrap();
    let models: Vec<&str> = names.iter().map(|p| p.model).collect();
    assert_eq!(models, ["Group", "Image", "Text"]);

    let symbol = one(Kind::Template, "/context/symbolSets/0/symbols/1/name/0");
    assert_eq!(symbol.member.name(), "name");
    assert!(matches!(symbol.item, Some(Type::String { format: None })));
    assert_eq!(
        symbol.branches.len(),
        1,
        "the list alternative of SymbolName"
    );

    let shadow_x = lookup(Kind::Card, "/data/children/0/filters/0/x").unwrap();
    assert_eq!(
        shadow_x.len(),
        2,
        "image filters by tag, text filters by shape"
    );
    assert!(shadow_x.iter().all(|p| p.model == "FilterShadow"));
}

#[test]
fn unknown_pointers_name_the_nearest() {
    let error = lookup(Kind::Set, "/cards/0/identifiers/shopAid").unwrap_err();
    assert_eq!(
        error.nearest.as_deref(),
        Some("/cards/0/identifiers/shopAId")
    );
    let error = lookup(Kind::Set, "/tokenSetCode").unwrap_err();
    assert_eq!(error.nearest.as_deref(), Some("/tokenSetcode"));
    let error = lookup(Kind::Set, "/cards/uuid").unwrap_err();
    assert_eq!(error.nearest.as_deref(), Some("/cards/*/uuid"));
    let error = lookup(Kind::Set, "/cdoe/x").unwrap_err();
    assert_eq!(error.nearest.as_deref(), Some("/code"));
    // The validator's threshold: `codd` is not near enough to `code`.
    let error = lookup(Kind::Set, "/codd/x").unwrap_err();
    assert_eq!(error.nearest, None);
    let error = lookup(Kind::Set, "/zzzzzz").unwrap_err();
    assert_eq!(error.nearest, None);
    let error = lookup(Kind::Set, "/code/x").unwrap_err();
    assert!(error.reason.contains("no members"), "{error}");
    let error = lookup(Kind::Set, "/booster/x").unwrap_err();
    assert!(error.reason.contains("free-form"), "{error}");
    assert!(lookup(Kind::Set, "").is_err());
    assert!(lookup(Kind::Set, "/cards/01/uuid").is_err());
}

/// `/data` then `levels` × `/children/0`, then `last`.
fn deep(levels: usize, last: &str) -> String {
    format!("/data{}/{last}", "/children/0".repeat(levels))
}

/// The work a lookup takes, and the bytes of the places it finds.
fn measure(kind: Kind, pointer: &str) -> (usize, usize, Result<Vec<Place>, LookupError>) {
    let before = WORK.with(std::cell::Cell::get);
    let found = lookup(kind, pointer);
    let work = WORK.with(std::cell::Cell::get) - before;
    let bytes = found.as_ref().map_or(0, |places| {
        places
            .iter()
            .map(|place| {
                let branches: usize = place
                    .branches
                    .iter()
                    .map(|b| b.at.len() + b.run.as_ref().map_or(0, |run| run.last.len()))
                    .sum();
                place.pointer.len() + branches
            })
            .sum()
    });
    (work, bytes, found)
}

#[test]
fn deep_pointers_take_work_and_space_in_proportion_to_their_length() {
    let mut last = None;
    for levels in [137, 274, 549] {
        let pointer = deep(levels, "name");
        let (work, bytes, found) = measure(Kind::Card, &pointer);
        let places = found.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(places.len(), 3, "a group, an image or a text");
        // The groups that hold the named layer are one run of branches.
        let group = &places[0].branches;
        assert_eq!(group.len(), 1);
        assert_eq!(group[0].run.as_ref().map(|run| run.count), Some(levels));
        assert!(group[0].words().starts_with(&format!(
            "when the {levels} values from /data/children/* to /data/children/*/children/*"
        )));
        assert!(places[1..].iter().all(|p| p.branches.len() == 2));
        // Three places, each with its pattern and two more of its length
        // at most: linear in the pointer.
        assert!(
            bytes <= 9 * pointer.len(),
            "{bytes} bytes for {levels} levels"
        );
        if let Some((work_before, bytes_before)) = last {
            // Twice the levels, twice the work (four times, if quadratic).
            assert!(work < work_before * 5 / 2, "{work} after {work_before}");
            assert!(bytes < bytes_before * 5 / 2, "{bytes} after {bytes_before}");
        }
        last = Some((work, bytes));
    }
}

#[test]
fn pointers_deeper_than_documents_nest_are_refused_before_any_work() {
    // 1 + 2 × 549 + 1 = 1100 tokens: as deep as documents may nest.
    assert!(lookup(Kind::Card, &deep(549, "type")).is_ok());
    for levels in [550, 1600, 5000] {
        let pointer = deep(levels, "type");
        let (work, _, found) = measure(Kind::Card, &pointer);
        let error = found.unwrap_err();
        assert_eq!(work, 0, "{levels} levels");
        assert!(
            error.reason.contains("deeper than documents may nest"),
            "{}",
            error.reason
        );
        assert!(error.reason.contains(&format!("{}", 2 * levels + 2)));
        // The pointer is shown by its start and its end.
        assert!(error.to_string().len() < 400, "{error}");
        let tail = &pointer[pointer.len() - 40..];
        assert!(error
            .to_string()
            .starts_with(&format!("`{}…{tail}`", &pointer[..80])));
    }
}

#[test]
fn deep_pointers_that_go_wrong_say_where_in_linear_work() {
    let typo = format!("{}/chldren/0/type", deep(500, "children/0"));
    let (work, _, found) = measure(Kind::Card, &typo);
    let error = found.unwrap_err();
    let fixed = format!("{}/children/0/type", deep(500, "children/0"));
    assert_eq!(error.nearest.as_deref(), Some(fixed.as_str()));
    // Three walks of the pointer: the one that fails, two to suggest.
    assert!(work < 10 * typo.len(), "{work}");
}

#[test]
fn no_pointer_panics() {
    let tokens = [
        "", "~", "~0", "~1", "~2", "*", "0", "01", "-1", "é", "data", "children", "type", "cards",
        "filters", "name", "card", "x",
    ];
    for &kind in Kind::ALL {
        for a in tokens {
            for b in tokens {
                for c in tokens {
                    for pointer in [format!("/{a}/{b}/{c}"), format!("{a}/{b}~{c}")] {
                        let _ = lookup(kind, &pointer);
                    }
                }
            }
        }
    }
}
