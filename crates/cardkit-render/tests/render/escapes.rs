//! Assets and fonts read only from under their root: an encoded slash in
//! a URL's path (`..%2F`, `%2F/abs`) and a symbolic link out of the asset
//! directory or the fonts directory are reported, and the file outside is
//! never drawn nor embedded. Links that stay inside are drawn as before.

#![cfg(unix)]

use crate::support;

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use cardkit::model::Template;
use cardkit_render::{render, Options};
use serde_json::json;
use support::{card_of, options};

/// A folder with `mirror/` (and `mirror/inside.svg`) and, beside it,
/// `outside/private.svg`.
struct Layout {
    top: PathBuf,
}

impl Layout {
    fn new(name: &str) -> Layout {
        let top =
            std::env::temp_dir().join(format!("cardkit-escapes-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&top);
        std::fs::create_dir_all(top.join("mirror/fonts")).unwrap();
        std::fs::create_dir_all(top.join("outside")).unwrap();
        let svg = "<svg xmlns='http://www.w3.org/2000/svg' width='4' height='4'><rect width='4' height='4' fill='red'/></svg>";
        std::fs::write(top.join("outside/private.svg"), svg).unwrap();
        std::fs::write(top.join("mirror/inside.svg"), svg).unwrap();
        Layout { top }
    }

    fn mirror(&self) -> PathBuf {
        self.top.join("mirror")
    }

    fn render(&self, srcs: &[String], root: Option<&str>) -> (Vec<String>, String) {
        let layers: Vec<_> = srcs
            .iter()
            .map(
                |src| json!({"type": "image", "src": src, "x": 0, "y": 0, "width": 4, "height": 4}),
            )
            .collect();
        let card = card_of(4, 4, json!(layers));
        let options = Options {
            assets: Some(self.mirror()),
            root: root.map(ToOwned::to_owned),
            ..options()
        };
        let rendered = render(&card, None, &options).expect("renders");
        let lines = rendered.report().iter().map(ToString::to_string).collect();
        (lines, rendered.svg().to_owned())
    }

    /// The SVG of cards whose images are all missing: what a refused
    /// image leaves.
    fn undrawn(&self, count: usize, root: Option<&str>) -> String {
        let missing: Vec<String> = (0..count).map(|i| format!("missing-{i}.svg")).collect();
        self.render(&missing, root).1
    }
}

impl Drop for Layout {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.top);
    }
}

fn absolute_encoded(path: &Path) -> String {
    path.display()
        .to_string()
        .trim_start_matches('/')
        .replace('/', "%2F")
}

#[test]
fn encoded_slashes_in_a_url_never_reach_outside_the_mirror() {
    let layout = Layout::new("url");
    let outside = layout.top.join("outside/private.svg");
    let srcs = [
        "https://example.org/..%2Foutside%2Fprivate.svg".to_owned(),
        format!("https://example.org/%2F{}", absolute_encoded(&outside)),
        "https://example.org/%2Fetc%2Fpasswd".to_owned(),
    ];
    let root = Some("https://example.org/");
    let (lines, svg) = layout.render(&srcs, root);
    assert_eq!(svg, layout.undrawn(3, root), "drawn from outside");
    assert_eq!(lines.len(), 3, "{lines:?}");
    for line in &lines {
        assert!(line.contains("leads out of the asset root"), "{line}");
    }
    // A URL of the mirror's own file is still drawn.
    let (lines, svg) = layout.render(
        &["https://example.org/inside.svg".to_owned()],
        Some("https://example.org/"),
    );
    assert!(lines.is_empty(), "{lines:?}");
    assert_ne!(svg, layout.undrawn(1, root));
}

#[test]
fn links_out_of_the_asset_directory_are_reported_not_drawn() {
    let layout = Layout::new("links");
    let mirror = layout.mirror();
    symlink("../outside/private.svg", mirror.join("frame.svg")).unwrap();
    symlink("/etc", mirror.join("etc")).unwrap();
    symlink("inside.svg", mirror.join("alias.svg")).unwrap();
    let (lines, svg) = layout.render(&["frame.svg".to_owned(), "etc/passwd".to_owned()], None);
    assert_eq!(svg, layout.undrawn(2, None), "drawn from outside");
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].contains("`frame.svg` is outside the asset root"),
        "{lines:?}"
    );
    assert!(
        lines[1].contains("`etc/passwd` is outside the asset root"),
        "{lines:?}"
    );
    let (lines, svg) = layout.render(&["alias.svg".to_owned()], None);
    assert!(lines.is_empty(), "{lines:?}");
    assert_ne!(svg, layout.undrawn(1, None), "a link inside is drawn");
}

#[test]
fn a_font_linked_out_of_the_fonts_directory_is_not_read() {
    let layout = Layout::new("fonts");
    let fonts = layout.mirror().join("fonts");
    symlink("/etc/passwd", fonts.join("Evil.ttf")).unwrap();
    let template: Template = serde_json::from_value(json!({
        "name": "t",
        "context": {"fonts": [{"name": "evil", "src": "Evil.ttf"}]},
        "card": {"name": "c", "width": 10, "height": 10},
    }))
    .unwrap();
    let card = card_of(
        20,
        20,
        json!([{"type": "text", "text": "x", "font": "evil", "size": 10, "x": 0, "y": 0, "width": 20, "height": 20}]),
    );
    let options = Options {
        fonts: Some(fonts),
        ..options()
    };
    let rendered = render(&card, Some(&template), &options).expect("renders");
    let lines: Vec<String> = rendered.report().iter().map(ToString::to_string).collect();
    assert!(
        lines[0].contains("`Evil.ttf` is outside the asset root"),
        "{lines:?}"
    );
}
