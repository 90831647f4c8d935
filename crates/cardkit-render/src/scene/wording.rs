//! How report lines name what they are about: a layer by its pointer and
//! name, a source by its head, an asset that cannot be read by its path in
//! the asset directory.

use cardkit_design::assets::{AssetError, Resolver, Root};

/// A layer's name and pointer, for report lines.
pub(super) fn place_of(pointer: &str, name: Option<&str>) -> String {
    match name {
        Some(name) => format!("{pointer} (\"{name}\")"),
        None => pointer.to_owned(),
    }
}

/// A source shortened for a report line (a `data:` URI by its head).
pub(super) fn short(src: &str) -> String {
    if src.len() > 80 {
        let mut end = 60;
        while !src.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}… ({} bytes)", &src[..end], src.len())
    } else {
        src.to_owned()
    }
}

/// Why an asset cannot be read, for a report line: paths are shown relative
/// to the asset directory, so a report reads the same on every machine.
pub(super) fn describe(error: &AssetError, resolver: &Resolver) -> String {
    let relative = |path: &std::path::Path| {
        let base = resolver
            .mirror()
            .map(std::path::Path::to_path_buf)
            .or_else(|| match resolver.root() {
                Some(Root::Dir(dir)) => Some(dir.clone()),
                _ => None,
            });
        base.and_then(|base| {
            path.strip_prefix(base)
                .ok()
                .map(|p| p.display().to_string())
        })
        .unwrap_or_else(|| path.display().to_string())
    };
    match error {
        AssetError::Missing(path) => format!("`{}` is not in the asset directory", relative(path)),
        AssetError::OutsideRoot(path) => format!(
            "`{}` is outside the asset root (a symbolic link leads out of it): it is not read",
            relative(path)
        ),
        AssetError::Unreadable(path, why) => {
            format!(
                "`{}` cannot be read from the asset directory: {why}",
                relative(path)
            )
        }
        other => other.to_string(),
    }
}
