//! Where a render reads from: the assets (the asset root given, the
//! card's or the template's), the template's fonts, its symbol table.

use cardkit::model::{Card, Template};
use cardkit_design::assets::{AssetError, Resolver, Root};
use cardkit_design::symbols::SymbolTable;

use super::wording::describe;
use crate::fonts::{DeclaredFont, FontSources};
use crate::options::Options;
use crate::report::Report;

/// The resolver of a render: the asset root given, or the card's, or the
/// template's, else the assets directory; a URL root is read from the
/// assets directory as its mirror.
pub(super) fn resolver(card: &Card, template: Option<&Template>, options: &Options) -> Resolver {
    let named = options
        .root
        .clone()
        .or_else(|| Some(card.asset_root_url.clone()).filter(|u| !u.is_empty()))
        .or_else(|| {
            template
                .map(|t| t.asset_root_url.clone())
                .filter(|u| !u.is_empty())
        });
    let root = named
        .as_deref()
        .map(Root::parse)
        .or_else(|| options.assets.clone().map(Root::Dir));
    match (&root, &options.assets) {
        (Some(Root::Url(_)), Some(dir)) => Resolver::new(root).with_mirror(dir),
        _ => Resolver::new(root),
    }
}

/// The symbol table's own problems: names defined twice, prototype values
/// that are not numbers.
pub(super) fn symbol_table_report(table: &SymbolTable, report: &mut Vec<Report>) {
    for duplicate in table.duplicates() {
        report.push(Report::new(
            format!("template {}", duplicate.hidden),
            format!(
                "the symbol name {{{}}} is defined again at {}, which is the one drawn",
                duplicate.alias, duplicate.shown
            ),
        ));
    }
    for bad in table.bad_prototypes() {
        report.push(Report::new(
            format!("template {}", bad.pointer),
            format!("{} is not a number: the default is used", bad.found),
        ));
    }
}

/// The fonts of a render: each face the user names, from its file; then
/// the template's other fonts, each read from the fonts directory (by its
/// `src`, then by file name) or else through the asset root.
pub(super) fn font_sources<'a>(
    template: Option<&Template>,
    resolver: &Resolver,
    options: &'a Options,
) -> FontSources<'a> {
    let mut declared = Vec::new();
    let mut named = std::collections::BTreeSet::new();
    for font in &options.named_fonts {
        // The first file given for a name is the one drawn.
        if named.insert(font.name.to_lowercase()) {
            declared.push(DeclaredFont {
                at: format!("font {} ({})", font.name, font.file.display()),
                name: font.name.clone(),
                weight: None,
                bytes: Ok(std::sync::Arc::clone(&font.bytes)),
            });
        }
    }
    for (index, font) in template
        .map(|t| t.context.fonts.as_slice())
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        if named.contains(&font.name.to_lowercase()) {
            continue;
        }
        // The fonts directory is an asset root of its own: read through the
        // same resolver, never followed out of it.
        let from_dir = options.fonts.as_ref().and_then(|dir| {
            let fonts = Resolver::new(Some(Root::Dir(dir.clone())));
            let relative = std::path::Path::new(&font.src);
            let safe = relative
                .components()
                .all(|c| matches!(c, std::path::Component::Normal(_)));
            let by_name = relative
                .file_name()
                .and_then(|name| name.to_str())
                .filter(|name| !name.contains('%'));
            [safe.then_some(font.src.as_str()), by_name]
                .into_iter()
                .flatten()
                .map(|src| fonts.load(src, crate::fonts::MAX_FONT_BYTES))
                .find(|loaded| !matches!(loaded, Err(AssetError::Missing(_))))
                .map(|loaded| {
                    loaded.map(|asset| asset.bytes).map_err(|error| {
                        format!("in the fonts directory: {}", describe(&error, &fonts))
                    })
                })
        });
        let bytes = match from_dir {
            Some(bytes) => bytes,
            None => resolver
                .load(&font.src, crate::fonts::MAX_FONT_BYTES)
                .map(|asset| asset.bytes)
                .map_err(|error| describe(&error, resolver)),
        };
        declared.push(DeclaredFont {
            at: format!("template /context/fonts/{index}"),
            name: font.name.clone(),
            weight: font.weight.clone(),
            bytes: bytes.map(std::sync::Arc::new),
        });
    }
    FontSources {
        declared,
        fallback: &options.fallback_fonts,
    }
}
