//! The typed models: their field tables say what the spec says, defaults
//! apply, documents round-trip, and the decisions on `dummy()` and
//! `enforce_id` hold.

use cardkit::model::{
    Card, CardSet, Color, HorizontalAlign, Identifiers, Layer, Migration, Set, Template, Text,
    Translations, VerticalAlign,
};
use cardkit::schema::{FieldDef, Model, Type, Version};
use serde_json::json;
use uuid::Uuid;

fn field<M: Model>(name: &str) -> &'static FieldDef {
    M::model()
        .field(name)
        .unwrap_or_else(|| panic!("{} has no field {name}", M::model().name))
        .1
}

#[test]
fn field_tables_carry_the_spec_facts() {
    let cmc = field::<CardSet>("convertedManaCost");
    assert!(cmc.required && cmc.deprecated && !cmc.nullable);
    assert_eq!(cmc.since, Some(Version::new(4, 0, 0)));
    assert!(matches!(cmc.ty, Type::Number));

    let sealed = field::<Set>("sealedProduct");
    assert!(sealed.required && sealed.nullable);
    assert_eq!(sealed.since, Some(Version::new(5, 2, 0)));

    let id = field::<Migration>("id");
    assert!(!id.required && !id.nullable);

    let color = field::<Text>("color");
    assert!(!color.required && !color.nullable);
    assert_eq!(color.default.map(|d| d()), Some(json!("white")));
    assert_eq!(
        field::<Text>("align").default.map(|d| d()),
        Some(json!("left"))
    );

    assert!(Translations::model().field("Portuguese (Brazil)").is_some());
    assert_eq!(Translations::model().fields.len(), 16);
    let identifiers = Identifiers::model().fields;
    assert_eq!(identifiers.len(), 18);
    assert!(identifiers
        .iter()
        .all(|f| f.nullable && !f.required && f.since.is_some()));

    for (model, wire) in [
        (Set::model(), "tokenSetcode"),
        (Set::model(), "iconCode"),
        (Template::model(), "asset_root_url"),
        (Migration::model(), "old_catalogA_id"),
        (Migration::model(), "new_catalogA_id"),
        (Identifiers::model(), "datasetAV4Id"),
        (Identifiers::model(), "shopAEtchedId"),
    ] {
        assert!(model.field(wire).is_some(), "{} lacks {wire}", model.name);
    }
}

#[test]
fn every_set_side_field_has_a_version_tag_and_no_design_field_has_one() {
    use cardkit::model::*;
    let tagged = [
        CardSet::model(),
        CardToken::model(),
        ForeignData::model(),
        Identifiers::model(),
        LeadershipSkills::model(),
        Legalities::model(),
        PurchaseUrls::model(),
        RelatedCards::model(),
        Ruling::model(),
        SealedProduct::model(),
        Translations::model(),
    ];
    for model in tagged {
        for f in model.fields.iter().filter(|f| f.name != "id") {
            assert!(
                f.since.is_some(),
                "{}.{} has no version tag",
                model.name,
                f.name
            );
        }
    }
    for model in [
        Template::model(),
        Card::model(),
        Migration::model(),
        Text::model(),
    ] {
        assert!(
            model.fields.iter().all(|f| f.since.is_none()),
            "{}",
            model.name
        );
    }
}

#[test]
fn defaults_apply_when_members_are_absent() {
    let card: Card = serde_json::from_value(json!({
        "name": "c", "width": 5.0, "height": 7,
        "data": {"children": [
            {"type": "text", "text": "t", "size": 1, "x": 0, "y": 0, "width": 1, "height": 1},
            {"type": "image", "src": "a.png", "filters": [{"type": "shadow", "x": 1, "y": 2}]}
        ]}
    }))
    .expect("card");
    assert_eq!((card.width, card.corners), (5, 0));
    let Layer::Text(text) = &card.data.children[0] else {
        panic!("text")
    };
    assert_eq!(text.color, Color::white());
    assert_eq!(text.align, Some(HorizontalAlign::Left));
    assert_eq!(text.vertical_align, Some(VerticalAlign::Center));
    assert!((text.line_height_scale - 1.0).abs() < f64::EPSILON);
    let Layer::Image(image) = &card.data.children[1] else {
        panic!("image")
    };
    assert_eq!((image.width, image.height), (100, 100));
    let Some(cardkit::model::Filter::Shadow(shadow)) = image.filters.as_ref().map(|f| &f[0]) else {
        panic!("shadow")
    };
    assert_eq!(shadow.color, Color::black());

    let bare: Card = serde_json::from_value(json!({"name": "c", "width": 1, "height": 1})).unwrap();
    assert!(bare.data.children.is_empty() && bare.data.name.is_none());
}

#[test]
fn documents_round_trip_with_unknown_members_kept() {
    for path in [
        "valid/template.json",
        "valid/card.json",
        "valid/set.json",
        "valid/migration.json",
    ] {
        let text = std::fs::read_to_string(format!(
            "{}/../../examples/{path}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .expect("example");
        let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
        value["someExtension"] = json!({"kept": true});
        match path {
            p if p.contains("template") => round_trip::<Template>(&value),
            p if p.contains("card") => round_trip::<Card>(&value),
            p if p.contains("set") => round_trip::<Set>(&value),
            _ => round_trip::<Migration>(&value),
        }
    }
}

fn round_trip<T>(value: &serde_json::Value)
where
    T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let first: T = serde_json::from_value(value.clone()).expect("parse");
    let written = serde_json::to_value(&first).expect("serialize");
    assert_eq!(written["someExtension"], json!({"kept": true}));
    let second: T = serde_json::from_value(written.clone()).expect("parse again");
    assert_eq!(first, second);
    let report = cardkit::validate(
        &serde_json::to_vec(&written).unwrap(),
        &cardkit::Options::default(),
    );
    let errors: Vec<_> = report
        .documents
        .iter()
        .flat_map(|d| &d.diagnostics)
        .filter(|d| d.severity == cardkit::Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn dummy_template_is_as_decided() {
    let dummy = Template::dummy();
    assert_eq!(dummy.name, "Dummy");
    assert_eq!(
        (
            dummy.card.name.as_str(),
            dummy.card.width,
            dummy.card.height
        ),
        ("Dummy", 100, 100)
    );
    assert!(dummy.context.license.is_none() && dummy.context.image_sets.is_empty());
    assert!(dummy.context.fonts.is_empty() && dummy.context.symbol_sets.is_empty());
    let written = serde_json::to_vec(&dummy).unwrap();
    let again: Template = cardkit::from_slice(&written).expect("the dummy is a valid template");
    assert_eq!(again, dummy);
}

#[test]
fn enforce_id_derives_missing_ids() {
    let text = std::fs::read_to_string(format!(
        "{}/../../examples/valid/set.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    value["code"] = json!(" EXA ");
    let set: Set = cardkit::from_slice(&serde_json::to_vec(&value).unwrap()).unwrap();
    assert_eq!(set.id, Some(Uuid::new_v5(&Uuid::NAMESPACE_OID, b"exa")));
    assert_eq!(set.cards[0].id, Some(set.cards[0].uuid));

    let given = Uuid::nil();
    value["id"] = json!(given.to_string());
    let set: Set = cardkit::from_slice(&serde_json::to_vec(&value).unwrap()).unwrap();
    assert_eq!(set.id, Some(given));
}

#[test]
fn from_slice_refuses_invalid_documents_and_containers() {
    let error = cardkit::from_str::<Migration>(r#"{"object": "list", "data": []}"#).unwrap_err();
    assert!(matches!(error, cardkit::ParseError::NotBare(_)), "{error}");
    let error =
        cardkit::from_str::<Card>(r#"{"name": "c", "width": "1", "height": 1}"#).unwrap_err();
    assert!(error.to_string().contains("wrong_type"), "{error}");
}

#[test]
fn the_minimal_document_of_every_kind_is_valid_and_told_apart() {
    use cardkit::schema::minimal::minimal;
    use cardkit::validate::{validate, Options};
    for &kind in cardkit::Kind::ALL {
        let bytes = serde_json::to_vec(&minimal(kind)).unwrap();
        for forced in [Some(kind), None] {
            let options = Options {
                kind: forced,
                ..Options::default()
            };
            let report = validate(&bytes, &options);
            assert!(report.is_valid(), "{kind} ({forced:?}): {report:#?}");
            assert_eq!(report.documents[0].kind, Some(kind), "{kind}");
            let warnings = &report.documents[0].diagnostics;
            assert!(warnings.is_empty(), "{kind}: {warnings:#?}");
        }
    }
}

/// The fields whose values may hold a reference between documents: those
/// that name or are named, and those holding models that do; a card's
/// rulings and legalities do not, and a template holds none (its models
/// hold each other in a cycle, which the mask follows without looping).
#[test]
fn link_fields_are_those_a_reference_may_be_in() {
    fn has<M: Model>(name: &str) -> bool {
        let model = M::model();
        let (index, _) = model.field(name).expect("a field of the model");
        model.link_fields() & (1 << index) != 0
    }
    for name in [
        "uuid",
        "name",
        "otherFaceIds",
        "variations",
        "relatedCards",
        "setCode",
    ] {
        assert!(has::<CardSet>(name), "CardSet.{name}");
    }
    for name in [
        "rulings",
        "legalities",
        "foreignData",
        "identifiers",
        "text",
        "artist",
    ] {
        assert!(!has::<CardSet>(name), "CardSet.{name}");
    }
    for name in ["cards", "tokens", "sealedProduct", "code", "parentCode"] {
        assert!(has::<Set>(name), "Set.{name}");
    }
    assert!(!has::<Set>("booster"), "Set.booster");
    for model in cardkit::schema::models_of(Template::model()) {
        assert_eq!(model.link_fields(), 0, "{}", model.name);
    }
}

/// A record of a set (card, token, sealed product) holds no record: the
/// references read a record's mentions as one run of the document's.
#[test]
fn records_hold_no_records() {
    use cardkit::model::{CardToken, SealedProduct};
    let records = [CardSet::model(), CardToken::model(), SealedProduct::model()];
    for record in records {
        for held in cardkit::schema::models_of(record).into_iter().skip(1) {
            assert!(
                !records.iter().any(|r| std::ptr::eq(*r, held)),
                "{} holds {}",
                record.name,
                held.name
            );
        }
    }
}
