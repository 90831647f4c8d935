//! The resolver's own cases: where a `src` is, and what is refused.

use super::*;

fn folder() -> Resolver {
    Resolver::new(Some(Root::Dir(PathBuf::from("/designs"))))
}

#[test]
fn relative_paths_resolve_under_a_folder_root() {
    assert_eq!(
        folder().locate("frames/./red.png").unwrap(),
        Location::File(PathBuf::from("/designs/frames/red.png"))
    );
    assert_eq!(
        folder().locate("frames/x/../red.png").unwrap(),
        Location::File(PathBuf::from("/designs/frames/red.png"))
    );
    // On a host, a leading slash is the root itself.
    assert_eq!(
        folder().locate("/frames/red.png").unwrap(),
        Location::File(PathBuf::from("/designs/frames/red.png"))
    );
}

#[test]
fn paths_out_of_the_root_are_refused() {
    for src in [
        "../../etc/passwd",
        "frames/../../x",
        "%2e%2e/%2e%2e/etc/passwd",
        "..\\..\\windows",
        "a/%2F/b/%2e%2e%2f%2e%2e%2f..",
        "x%00y",
    ] {
        assert!(
            matches!(folder().locate(src), Err(AssetError::Escapes(_))),
            "{src}: {:?}",
            folder().locate(src)
        );
    }
}

#[test]
fn schemes_other_than_data_and_http_are_never_followed() {
    for src in [
        "file:///etc/passwd",
        "FILE:/etc/passwd",
        "ftp://x/y",
        "javascript:alert(1)",
        "C:/x.png",
    ] {
        assert!(
            matches!(folder().locate(src), Err(AssetError::Scheme(_))),
            "{src}"
        );
    }
}

#[test]
fn relative_paths_join_a_url_root_as_the_design_tool_does() {
    let host = Resolver::new(Some(Root::parse("https://example.org")));
    assert_eq!(
        host.locate("custom/symbol/b.svg").unwrap().to_string(),
        "https://example.org/custom/symbol/b.svg"
    );
    let deeper = Resolver::new(Some(Root::parse("https://example.org/a/")));
    assert_eq!(
        deeper.locate("b c.png").unwrap().to_string(),
        "https://example.org/a/b%20c.png"
    );
    assert!(matches!(
        deeper.load("b.png", 10),
        Err(AssetError::Remote(_))
    ));
}

#[test]
fn a_mirror_holds_relative_paths_and_urls_of_the_root_host() {
    let mirrored = Resolver::new(Some(Root::parse("https://example.org/"))).with_mirror("/mirror");
    assert_eq!(
        mirrored.locate("custom/b.svg").unwrap(),
        Location::File(PathBuf::from("/mirror/custom/b.svg"))
    );
    assert_eq!(
        mirrored.locate("https://example.org/custom/b.svg").unwrap(),
        Location::File(PathBuf::from("/mirror/custom/b.svg"))
    );
    assert_eq!(
        mirrored.locate("https://other.example/../x/y.png").unwrap(),
        Location::File(PathBuf::from("/mirror/other.example/x/y.png"))
    );
}

#[test]
fn without_a_root_only_data_and_urls_resolve() {
    let none = Resolver::new(None);
    assert!(matches!(none.locate("a.png"), Err(AssetError::NoRoot(_))));
    assert!(none.locate("https://example.org/a.png").is_ok());
    assert!(matches!(none.locate(""), Err(AssetError::Empty)));
}

#[test]
fn data_uris_are_read_from_their_header_and_decoded_within_the_limit() {
    let none = Resolver::new(None);
    let Location::Data(data) = none.locate("data:IMAGE/PNG;base64,aGVsbG8=").unwrap() else {
        panic!("not data");
    };
    assert_eq!(data.media_type, "image/png");
    assert!(data.base64);
    assert_eq!(data.encoded_len, 8);
    assert_eq!(
        none.load("data:image/png;base64,aGVsbG8=", 100)
            .unwrap()
            .bytes,
        b"hello"
    );
    assert_eq!(none.load("data:,a%20b", 100).unwrap().bytes, b"a b");
    assert!(matches!(
        none.load("data:image/png;base64,aGVsbG8=", 5),
        Err(AssetError::TooLarge { size: 6, limit: 5 })
    ));
    assert!(matches!(
        none.load("data:image/png;base64,a*b*", 100),
        Err(AssetError::MalformedData(_))
    ));
    assert!(matches!(
        none.locate("data:image/png"),
        Err(AssetError::MalformedData(_))
    ));
}

#[test]
fn a_huge_data_uri_is_refused_before_it_is_decoded() {
    let huge = format!("data:image/png;base64,{}", "A".repeat(10 << 20));
    let refused = Resolver::new(None).load(&huge, 1 << 20);
    assert!(matches!(refused, Err(AssetError::TooLarge { size, .. }) if size == 7_864_320));
}

#[test]
fn files_are_read_within_the_limit() {
    let dir = std::env::temp_dir().join(format!("cardkit-assets-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("f")).unwrap();
    std::fs::write(dir.join("f/a.png"), b"12345").unwrap();
    let resolver = Resolver::new(Some(Root::Dir(dir.clone())));
    assert_eq!(resolver.load("f/a.png", 5).unwrap().bytes, b"12345");
    assert!(matches!(
        resolver.load("f/a.png", 4),
        Err(AssetError::TooLarge { size: 5, limit: 4 })
    ));
    assert!(matches!(
        resolver.load("f/b.png", 4),
        Err(AssetError::Missing(_))
    ));
    assert!(matches!(
        resolver.load("f", 4),
        Err(AssetError::Unreadable(..))
    ));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_design_is_rooted_at_its_own_root_or_its_folder() {
    assert_eq!(
        Root::of_design("https://example.org", Some(Path::new("/d/x.json"))),
        Some(Root::parse("https://example.org"))
    );
    assert_eq!(
        Root::of_design("", Some(Path::new("/d/x.json"))),
        Some(Root::Dir(PathBuf::from("/d")))
    );
    assert_eq!(
        Root::of_design("", Some(Path::new("x.json"))),
        Some(Root::Dir(PathBuf::from(".")))
    );
    assert_eq!(Root::of_design("", None), None);
}

/// A link swapped in after [`Resolver::confined`] looked (here: the path
/// it returned becomes a link out of the root) is not followed out: the
/// file is opened from the root by calls that refuse to leave it.
#[cfg(unix)]
#[test]
fn a_link_swapped_in_after_the_check_does_not_lead_out_of_the_root() {
    let top = tempfile::tempdir().unwrap();
    let root = top.path().join("root");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(top.path().join("secret.png"), b"outside").unwrap();
    std::fs::write(root.join("frame.png"), b"inside").unwrap();
    let resolver = Resolver::new(Some(Root::Dir(root.clone())));
    let path = root.join("frame.png");
    let resolved = resolver.confined(&path).unwrap();
    assert_eq!(read_file(&root, &resolved, &path, 1024).unwrap(), b"inside");
    // The swap: the checked file becomes a link to the file outside, and
    // a folder on the way a link to the folder outside.
    std::fs::remove_file(&resolved).unwrap();
    std::os::unix::fs::symlink("../secret.png", &resolved).unwrap();
    let read = read_file(&root, &resolved, &path, 1024);
    assert!(matches!(read, Err(AssetError::Unreadable(..))), "{read:?}");
    std::fs::create_dir_all(root.join("art")).unwrap();
    std::fs::write(root.join("art/secret.png"), b"inside too").unwrap();
    let deep = root.join("art/secret.png");
    let resolved = resolver.confined(&deep).unwrap();
    std::fs::remove_dir_all(root.join("art")).unwrap();
    std::os::unix::fs::symlink("..", root.join("art")).unwrap();
    // `art/secret.png` now names `root/secret.png`, which does not exist:
    // still under the root, and refused as missing, not read from outside.
    let read = read_file(&root, &resolved, &deep, 1024);
    assert!(read.is_err(), "{read:?}");
    std::fs::remove_file(root.join("art")).unwrap();
    std::os::unix::fs::symlink(top.path(), root.join("art")).unwrap();
    let read = read_file(&root, &resolved, &deep, 1024);
    assert!(matches!(read, Err(AssetError::Unreadable(..))), "{read:?}");
}
