//! Every asset stays under its root after decoding and after its links are
//! followed: an absolute URL's encoded slashes (`..%2F`, `%2F/etc`) never
//! lead out of the local mirror, a symbolic link out of the root is
//! refused (and its target never opened), and links that stay inside keep
//! working. The mirror check of `cardkit assets --check` says the same.

#![cfg(unix)]

use std::os::unix::fs::symlink;
use std::path::Path;

use cardkit_design::assets::manifest::{check, manifest};
use cardkit_design::assets::{AssetError, Location, Resolver, Root};

/// `top/root/` (the root or mirror, with `frame.png`) beside
/// `top/outside/private.png`.
fn layout() -> tempfile::TempDir {
    let top = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(top.path().join("root/frames")).unwrap();
    std::fs::create_dir_all(top.path().join("outside")).unwrap();
    std::fs::write(top.path().join("root/frames/red.png"), b"red").unwrap();
    std::fs::write(top.path().join("outside/private.png"), b"private").unwrap();
    top
}

fn mirrored(top: &Path) -> Resolver {
    Resolver::new(Some(Root::parse("https://example.org/"))).with_mirror(top.join("root"))
}

#[test]
fn encoded_slashes_in_a_url_never_leave_the_mirror() {
    let top = layout();
    let resolver = mirrored(top.path());
    let outside = top.path().join("outside/private.png");
    for src in [
        "https://example.org/..%2Foutside%2Fprivate.png".to_owned(),
        "https://example.org/frames/..%2F..%2Foutside/private.png".to_owned(),
        format!(
            "https://example.org/%2F{}",
            outside.display().to_string().trim_start_matches('/')
        ),
        format!(
            "https://example.org/{}",
            outside.display().to_string().replace('/', "%2F")
        ),
        "https://example.org/%2Fetc%2Fpasswd".to_owned(),
        "https://other.example/%2e%2e%2F%2e%2e%2Fsecret".to_owned(),
        "https://example.org/a%5C..%5C..%5Csecret".to_owned(),
        "https://example.org/x%00y".to_owned(),
    ] {
        let located = resolver.locate(&src);
        assert!(
            matches!(located, Err(AssetError::Escapes(_))),
            "{src}: {located:?}"
        );
        assert!(resolver.load(&src, 1 << 20).is_err(), "{src}");
    }
    // A plain URL of the root's host is still read from the mirror.
    let red = resolver
        .load("https://example.org/frames/red.png", 100)
        .unwrap();
    assert_eq!(red.bytes, b"red");
}

#[test]
fn links_out_of_the_asset_root_are_refused_and_never_opened() {
    let top = layout();
    let root = top.path().join("root");
    symlink("../outside/private.png", root.join("frame.png")).unwrap();
    symlink("/etc", root.join("etc")).unwrap();
    symlink(top.path().join("outside"), root.join("frames/out")).unwrap();
    // A link to a file that does not exist, outside: refused the same way,
    // so that the answer says nothing of what is there.
    symlink("../outside/none.png", root.join("ghost.png")).unwrap();
    let resolver = Resolver::new(Some(Root::Dir(root.clone())));
    for src in [
        "frame.png",
        "etc/passwd",
        "frames/out/private.png",
        "ghost.png",
    ] {
        let loaded = resolver.load(src, 1 << 20);
        let Err(AssetError::OutsideRoot(path)) = &loaded else {
            panic!("{src}: {loaded:?}");
        };
        assert_eq!(path, &root.join(src));
        let why = loaded.unwrap_err().to_string();
        assert!(why.contains("outside the asset root"), "{why}");
    }
    // Through a mirror the same.
    symlink("../../outside/private.png", root.join("frames/blue.png")).unwrap();
    let via_mirror = mirrored(top.path()).load("https://example.org/frames/blue.png", 100);
    assert!(
        matches!(via_mirror, Err(AssetError::OutsideRoot(_))),
        "{via_mirror:?}"
    );
}

#[test]
fn links_that_stay_inside_the_asset_root_keep_working() {
    let top = layout();
    let root = top.path().join("root");
    symlink("frames/red.png", root.join("frame.png")).unwrap();
    symlink("frames", root.join("aliases")).unwrap();
    // Out and back in: the end is under the root.
    symlink("../root/frames/red.png", root.join("round.png")).unwrap();
    symlink(root.join("frames"), root.join("absolute")).unwrap();
    symlink("loop", root.join("loop")).unwrap();
    let resolver = Resolver::new(Some(Root::Dir(root.clone())));
    for src in [
        "frame.png",
        "aliases/red.png",
        "round.png",
        "absolute/red.png",
    ] {
        let loaded = resolver
            .load(src, 100)
            .unwrap_or_else(|e| panic!("{src}: {e}"));
        assert_eq!(loaded.bytes, b"red", "{src}");
        assert_eq!(loaded.location, Location::File(root.join(src)));
    }
    assert!(matches!(
        resolver.load("loop", 100),
        Err(AssetError::Unreadable(..))
    ));
    assert!(matches!(
        resolver.load("none.png", 100),
        Err(AssetError::Missing(_))
    ));
}

#[test]
fn the_mirror_check_refuses_what_a_render_refuses() {
    let top = layout();
    let root = top.path().join("root");
    symlink("../outside/private.png", root.join("frame.png")).unwrap();
    let text = r#"{"name":"C","width":1,"height":1,"asset_root_url":"https://example.org/","data":{"layers":[
        {"type":"image","name":"a","src":"https://example.org/..%2Foutside%2Fprivate.png"},
        {"type":"image","name":"b","src":"https://example.org/%2Fetc%2Fpasswd"},
        {"type":"image","name":"c","src":"frame.png"},
        {"type":"image","name":"d","src":"frames/red.png"}]}}"#;
    let resolver = Resolver::new(Some(Root::parse("https://example.org/")));
    let entries = manifest(text.as_bytes(), &resolver).unwrap();
    let missing = check(&entries, &resolver, &root);
    let whys: Vec<&str> = missing.iter().map(|m| m.why.as_str()).collect();
    assert_eq!(missing.len(), 3, "{whys:?}");
    assert!(whys[0].contains("leads out of the asset root"), "{whys:?}");
    assert!(whys[1].contains("leads out of the asset root"), "{whys:?}");
    assert!(whys[2].contains("outside the asset root"), "{whys:?}");
    assert!(whys[2].contains("frame.png"), "{whys:?}");
}
