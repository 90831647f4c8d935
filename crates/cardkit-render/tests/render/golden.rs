//! Golden renders of the corpus: the two saved cards (with the Angular
//! template they name, and the stand-in assets) and the cards of the three
//! templates. Each render's SVG (embedded images shown by length and digest)
//! and report are snapshots; the PNGs at 1/10 scale are checked by digest.
//! Every render is made twice and must give the same bytes.

use crate::support;

use cardkit::model::{Card, Template};
use cardkit_render::{render, Options};
use support::{corpus_card, corpus_template, options, readable_svg, sha256, shared_dir};

struct Case {
    name: &'static str,
    card: Card,
    template: Template,
}

fn cases(shared: &std::path::Path) -> Vec<Case> {
    let angular = corpus_template(shared, "mightstone_template-angular.json");
    let mut cases = vec![
        Case {
            name: "dimirova_head",
            card: corpus_card(shared, "mightstone_dimirova-smiley_head.json"),
            template: angular.clone(),
        },
        Case {
            name: "dimirova_2023_02_18",
            card: corpus_card(shared, "mightstone_dimirova-smiley_2023-02-18.json"),
            template: angular,
        },
    ];
    for (name, file) in [
        ("template_a", "mightstone_template-a.json"),
        ("template_angular", "mightstone_template-angular.json"),
        ("template_tall", "mightstone_template-tall.json"),
    ] {
        let template = corpus_template(shared, file);
        cases.push(Case {
            name,
            card: template.card.clone(),
            template,
        });
    }
    cases
}

fn render_twice(
    card: &Card,
    template: &Template,
    options: &Options,
) -> (String, Vec<u8>, Vec<String>) {
    let first = render(card, Some(template), options).expect("the card renders");
    let second = render(card, Some(template), options).expect("the card renders");
    assert_eq!(
        first.svg(),
        second.svg(),
        "the SVG differs between two runs"
    );
    let png = first.png().expect("a PNG");
    assert_eq!(
        png,
        second.png().expect("a PNG"),
        "the PNG differs between two runs"
    );
    let report = first.report().iter().map(ToString::to_string).collect();
    (first.svg().to_owned(), png, report)
}

#[test]
fn corpus_cards_render_as_snapshotted() {
    let Some(shared) = shared_dir() else { return };
    let mut digests = String::new();
    for case in cases(&shared) {
        let options = Options {
            scale: 0.1,
            ..options()
        };
        let (svg, png, report) = render_twice(&case.card, &case.template, &options);
        assert_snapshot!(format!("{}_svg", case.name), readable_svg(&svg));
        assert_snapshot!(format!("{}_report", case.name), report.join("\n"));
        // The pixels are pinned, not the PNG's bytes: how they are deflated
        // is the compression library's choice, not the drawing's.
        let decoded = resvg::tiny_skia::Pixmap::decode_png(&png).expect("the PNG decodes");
        digests.push_str(&format!(
            "{}: {} x {}, pixels sha256 {}\n",
            case.name,
            decoded.width(),
            decoded.height(),
            sha256(decoded.data())
        ));
    }
    assert_snapshot!("png_digests", digests);
}

#[test]
fn a_card_without_its_assets_still_renders_with_placeholders() {
    let Some(shared) = shared_dir() else { return };
    let card = corpus_card(&shared, "mightstone_dimirova-smiley_head.json");
    let options = Options {
        assets: None,
        scale: 0.1,
        ..options()
    };
    let rendered = render(&card, None, &options).expect("the card renders");
    let report: Vec<String> = rendered.report().iter().map(ToString::to_string).collect();
    assert_snapshot!(
        "a_card_without_its_assets_still_renders_with_placeholders",
        report.join("\n")
    );
    // Each frame is a placeholder: drawn, with its report line.
    assert!(rendered.svg().contains("<path"), "placeholders are drawn");
    assert!(rendered.png().is_ok());
}
