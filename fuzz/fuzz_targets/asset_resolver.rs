//! `cardkit_design::assets::Resolver` on any `src`: relative paths, URLs of
//! the root's host and of others, percent-encoding (`%2F`, `%2e%2e`, `%5C`,
//! `%00`), under a folder root and under a URL root with a local mirror,
//! in a folder holding symbolic links that stay inside it and links that
//! lead out of it (to a file beside it, to `/etc`, to `..`, a loop). The
//! property: a located file is under the root (no `..` left), a file read
//! is under the canonical root once its links are followed and is never
//! the file outside; anything else is refused; nothing panics.
#![no_main]

use std::path::{Component, PathBuf};
use std::sync::OnceLock;

use arbitrary::Arbitrary;
use cardkit_design::assets::{Location, Resolver, Root};
use libfuzzer_sys::fuzz_target;

#[derive(Debug, Arbitrary)]
struct Input {
    /// Which resolver: a folder root, a URL root with the folder as its
    /// mirror, a URL root without one, no root.
    mode: u8,
    /// Pieces joined into the `src`, some of them chosen from the names
    /// the folder holds, so that links are met often.
    pieces: Vec<Piece>,
}

#[derive(Debug, Arbitrary)]
enum Piece {
    Text(String),
    Known(u8),
}

const KNOWN: &[&str] = &[
    "/", "%2F", "%2f", "..", "%2e%2e", ".", "%5C", "\\", "%00", "?", "#",
    "https://example.org/", "https://other.example/", "data:,x", "file:///",
    "a.png", "dir", "b.png", "in", "out", "abs", "up", "self", "loop",
    "secret.png", "outside", "etc", "passwd",
];

const SECRET: &[u8] = b"the file outside the root";

/// `top/root/` with `a.png`, `dir/b.png`, links `in -> dir`, `self -> .`,
/// `out -> ../outside`, `abs -> /etc`, `up -> ..`, `loop -> loop`; and
/// `top/outside/secret.png`. Made once.
fn layout() -> &'static (PathBuf, PathBuf) {
    static LAYOUT: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    LAYOUT.get_or_init(|| {
        let top = tempfile::tempdir().expect("a folder").keep();
        let root = top.join("root");
        std::fs::create_dir_all(root.join("dir")).unwrap();
        std::fs::create_dir_all(top.join("outside")).unwrap();
        std::fs::write(root.join("a.png"), b"a").unwrap();
        std::fs::write(root.join("dir/b.png"), b"b").unwrap();
        std::fs::write(top.join("outside/secret.png"), SECRET).unwrap();
        #[cfg(unix)]
        for (link, target) in [
            ("in", "dir"),
            ("self", "."),
            ("out", "../outside"),
            ("abs", "/etc"),
            ("up", ".."),
            ("loop", "loop"),
        ] {
            std::os::unix::fs::symlink(target, root.join(link)).unwrap();
        }
        let canonical = root.canonicalize().unwrap();
        (root, canonical)
    })
}

fuzz_target!(|input: Input| {
    let (root, canonical) = layout();
    let src: String = input
        .pieces
        .iter()
        .map(|piece| match piece {
            Piece::Text(text) => text.as_str(),
            Piece::Known(i) => KNOWN[usize::from(*i) % KNOWN.len()],
        })
        .collect();
    let resolver = match input.mode % 4 {
        0 => Resolver::new(Some(Root::Dir(root.clone()))),
        1 => Resolver::new(Some(Root::parse("https://example.org/"))).with_mirror(root),
        2 => Resolver::new(Some(Root::parse("https://example.org/"))),
        _ => Resolver::new(None),
    };
    if let Ok(Location::File(path)) = resolver.locate(&src) {
        assert!(path.starts_with(root), "{src:?} located at {path:?}");
        assert!(
            !path.components().any(|c| c == Component::ParentDir),
            "{src:?} located at {path:?}"
        );
    }
    if let Ok(asset) = resolver.load(&src, 1 << 16) {
        if let Location::File(path) = &asset.location {
            let resolved = path.canonicalize().expect("a file read exists");
            assert!(
                resolved.starts_with(canonical),
                "{src:?} read from {resolved:?}"
            );
            assert_ne!(asset.bytes, SECRET, "{src:?}");
        }
    }
});
