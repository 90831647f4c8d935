//! Where a render's assets come from: `data:` URIs, and local files under
//! the asset directory. Nothing here reaches the network.

use std::path::{Component, Path, PathBuf};

use base64::Engine as _;

/// The asset root of a render: a local directory, and the URL root
/// (`scheme://netloc/…`) that remote sources under it are mirrored from.
#[derive(Debug, Clone, Default)]
pub(crate) struct AssetRoot {
    pub(crate) dir: Option<PathBuf>,
    pub(crate) url: Option<String>,
}

impl AssetRoot {
    /// The bytes of `src`, at most `limit` of them.
    pub(crate) fn load(&self, src: &str, limit: u64) -> Result<Vec<u8>, String> {
        let src = src.trim();
        if src.is_empty() {
            return Err("the source is empty".to_owned());
        }
        if let Some(rest) = strip_prefix_ignore_case(src, "data:") {
            return decode_data_uri(rest, limit);
        }
        let relative = if let Some(url) = self.url.as_deref().filter(|u| !u.is_empty()) {
            let url = url.trim_end_matches('/');
            match src.strip_prefix(url) {
                Some(rest) => rest.trim_start_matches('/'),
                None if is_remote(src) => {
                    return Err(format!(
                        "remote, outside the asset root {url}, and never fetched"
                    ))
                }
                None => src,
            }
        } else if is_remote(src) {
            return Err("remote and never fetched (no local mirror)".to_owned());
        } else {
            src
        };
        let Some(dir) = &self.dir else {
            return Err("not a data: URI, and no asset directory was given".to_owned());
        };
        let path = under(dir, relative)?;
        read_limited(&path, limit).map_err(|why| format!("`{relative}` {why}"))
    }
}

/// Whether `src` is an absolute URL (`scheme://…`).
fn is_remote(src: &str) -> bool {
    src.split_once("://").is_some_and(|(scheme, _)| {
        !scheme.is_empty()
            && scheme
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
    })
}

fn strip_prefix_ignore_case<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    (text.len() >= prefix.len() && text[..prefix.len()].eq_ignore_ascii_case(prefix))
        .then(|| &text[prefix.len()..])
}

/// `relative` joined under `dir`, refused when it would leave it.
fn under(dir: &Path, relative: &str) -> Result<PathBuf, String> {
    let relative = relative.split(['?', '#']).next().unwrap_or_default();
    let mut path = dir.to_path_buf();
    for component in Path::new(relative).components() {
        match component {
            Component::Normal(part) => path.push(part),
            Component::CurDir => {}
            Component::ParentDir | Component::RootDir | Component::Prefix(_) => {
                return Err("leaves the asset root (`..` or an absolute path)".to_owned())
            }
        }
    }
    Ok(path)
}

fn read_limited(path: &Path, limit: u64) -> Result<Vec<u8>, String> {
    use std::io::Read as _;
    let file = std::fs::File::open(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => "is not in the asset directory".to_owned(),
        _ => format!("cannot be read from the asset directory: {e}"),
    })?;
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot be read: {e}"))?;
    if bytes.len() as u64 > limit {
        return Err(format!("is larger than the limit of {limit} bytes"));
    }
    Ok(bytes)
}

/// The bytes of a `data:` URI (after `data:`), base64 or percent-encoded.
fn decode_data_uri(rest: &str, limit: u64) -> Result<Vec<u8>, String> {
    let (header, payload) = rest.split_once(',').ok_or("a data: URI without a comma")?;
    // Base64 is 4 characters for 3 bytes: refuse before decoding.
    if (payload.len() as u64) / 4 * 3 > limit {
        return Err(format!(
            "a data: URI larger than the limit of {limit} bytes"
        ));
    }
    if header.to_ascii_lowercase().ends_with(";base64") {
        let cleaned: String = payload
            .chars()
            .filter(|c| !c.is_ascii_whitespace())
            .collect();
        base64::engine::general_purpose::STANDARD_NO_PAD
            .decode(cleaned.trim_end_matches('='))
            .map_err(|e| format!("a data: URI whose base64 is invalid: {e}"))
    } else {
        Ok(percent_decode(payload))
    }
}

fn percent_decode(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let hex = |b: u8| (b as char).to_digit(16);
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(high), Some(low)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                #[allow(clippy::cast_possible_truncation)] // two hex digits
                out.push((high * 16 + low) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    out
}
