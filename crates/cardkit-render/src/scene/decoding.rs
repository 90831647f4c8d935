//! How usvg is given the images of a render: a raster image is measured
//! from its header and refused above the pixel limit before anything
//! decodes it, and an SVGZ is inflated within a bound. The same checks
//! apply to images inside SVG assets, as usvg resolves those through the
//! same resolver.

use std::io::Read as _;
use std::sync::{Arc, Mutex, PoisonError};

use usvg::{ImageHrefDataResolverFn, ImageKind};

/// What the resolver met since it was last reset: the pixels of the
/// raster images it let through, and why it refused one.
#[derive(Debug, Default)]
pub(super) struct Seen {
    pub(super) raster_pixels: u64,
    pub(super) refused: Option<String>,
}

/// The shared record of what the resolver met.
pub(super) type SeenLog = Arc<Mutex<Seen>>;

/// Empties the record, returning what it held.
pub(super) fn take_seen(log: &SeenLog) -> Seen {
    std::mem::take(&mut *log.lock().unwrap_or_else(PoisonError::into_inner))
}

/// The resolver of `data:` images: usvg's own, with the checks above.
pub(super) fn data_resolver(
    max_image_pixels: u64,
    max_inflated_bytes: u64,
    log: SeenLog,
) -> ImageHrefDataResolverFn<'static> {
    Box::new(
        move |mime: &str, data: Arc<Vec<u8>>, options: &usvg::Options| {
            let record = |outcome: Result<u64, String>| {
                let mut seen = log.lock().unwrap_or_else(PoisonError::into_inner);
                match outcome {
                    Ok(pixels) => {
                        seen.raster_pixels = seen.raster_pixels.saturating_add(pixels);
                        true
                    }
                    Err(why) => {
                        seen.refused.get_or_insert(why);
                        false
                    }
                }
            };
            let kind = match mime {
                "image/jpg" | "image/jpeg" => ImageKind::JPEG(Arc::clone(&data)),
                "image/png" => ImageKind::PNG(Arc::clone(&data)),
                "image/gif" => ImageKind::GIF(Arc::clone(&data)),
                "image/webp" => ImageKind::WEBP(Arc::clone(&data)),
                "image/svg+xml" => {
                    return nested_svg(&data, max_inflated_bytes, options, |why| {
                        record(Err(why));
                    });
                }
                "text/plain" => match imagesize::image_type(&data) {
                    Ok(imagesize::ImageType::Jpeg) => ImageKind::JPEG(Arc::clone(&data)),
                    Ok(imagesize::ImageType::Png) => ImageKind::PNG(Arc::clone(&data)),
                    Ok(imagesize::ImageType::Gif) => ImageKind::GIF(Arc::clone(&data)),
                    Ok(imagesize::ImageType::Webp) => ImageKind::WEBP(Arc::clone(&data)),
                    _ => {
                        return nested_svg(&data, max_inflated_bytes, options, |why| {
                            record(Err(why));
                        });
                    }
                },
                _ => return None,
            };
            record(raster_pixels(&data, max_image_pixels)).then_some(kind)
        },
    )
}

/// The pixels a raster image declares in its header, or why it is refused.
/// An image whose size cannot be read is let through: usvg skips it too.
pub(super) fn raster_pixels(data: &[u8], max_image_pixels: u64) -> Result<u64, String> {
    let Ok(size) = imagesize::blob_size(data) else {
        return Ok(0);
    };
    let (width, height) = (size.width as u64, size.height as u64);
    let pixels = width.saturating_mul(height);
    if pixels > max_image_pixels {
        return Err(format!(
            "declares {width} × {height} pixels, more than the limit of {max_image_pixels} pixels an image may have"
        ));
    }
    Ok(pixels)
}

/// An SVG (or SVGZ) inside the drawing, parsed as usvg parses one.
fn nested_svg(
    data: &[u8],
    max_inflated_bytes: u64,
    options: &usvg::Options,
    refuse: impl FnOnce(String),
) -> Option<ImageKind> {
    let inflated;
    let text = if is_gzip(data) {
        match inflate(data, max_inflated_bytes) {
            Ok(bytes) => {
                inflated = bytes;
                &inflated[..]
            }
            Err(why) => {
                refuse(why);
                return None;
            }
        }
    } else {
        data
    };
    usvg::Tree::from_data_nested(text, options)
        .ok()
        .map(ImageKind::SVG)
}

pub(super) fn is_gzip(data: &[u8]) -> bool {
    data.starts_with(&[0x1F, 0x8B])
}

/// A gzip stream inflated, refused once it passes `max_bytes`.
pub(super) fn inflate(data: &[u8], max_bytes: u64) -> Result<Vec<u8>, String> {
    let mut inflated = Vec::new();
    flate2::read::GzDecoder::new(data)
        .take(max_bytes.saturating_add(1))
        .read_to_end(&mut inflated)
        .map_err(|e| format!("cannot be inflated as SVGZ: {e}"))?;
    if inflated.len() as u64 > max_bytes {
        return Err(format!(
            "inflates to more than the limit of {max_bytes} bytes"
        ));
    }
    Ok(inflated)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inflating_stops_at_the_bound() {
        use std::io::Write as _;
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        encoder.write_all(&vec![b' '; 100_000]).expect("written");
        let gzip = encoder.finish().expect("finished");
        assert_eq!(inflate(&gzip, 100_000).map(|b| b.len()), Ok(100_000));
        assert_eq!(
            inflate(&gzip, 99_999),
            Err("inflates to more than the limit of 99999 bytes".to_owned())
        );
    }
}
