//! `#[derive(Model)]`: derives cardkit's field table of a model, enumeration or
//! union from its Rust definition, reading the same `serde` attributes that
//! shape the JSON, so that every fact about a field is written once.
//!
//! Attributes read:
//! - `#[serde(rename = "…")]`, `#[serde(rename_all = "…")]`, `#[serde(default)]`,
//!   `#[serde(default = "path")]`, `#[serde(tag = "…")]`, `#[serde(untagged)]`;
//! - `#[model(name = "…")]` (the spec's name of the model), `#[model(constant)]`
//!   (a one-variant enumeration that is a constant string);
//! - `#[field(since = "vX.Y.Z", deprecated, required, not_null, few_values, link = Variant, ty = EXPR)]`;
//! - doc comments, which become the descriptions.
//!
//! A `#[serde(flatten)]` field (the catch-all of members the spec does not
//! define) is not part of the table.

use proc_macro::TokenStream;
use proc_macro2::{Span, TokenStream as Tokens};
use quote::{format_ident, quote};
use syn::{
    parse_macro_input, spanned::Spanned, Attribute, Data, DeriveInput, Error, Expr, Fields, LitStr,
    Result, Type,
};

/// Derives `Describe` (and `Model` for structs) from a type's definition.
#[proc_macro_derive(Model, attributes(model, field))]
pub fn derive_model(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    let result = match &input.data {
        Data::Struct(_) => derive_struct(&input),
        Data::Enum(_) => derive_enum(&input),
        Data::Union(_) => Err(Error::new(input.span(), "unions are not models")),
    };
    result.unwrap_or_else(Error::into_compile_error).into()
}

/// What the container's attributes say.
#[derive(Default)]
struct ContainerAttrs {
    rename_all: Option<String>,
    tag: Option<String>,
    untagged: bool,
    name: Option<String>,
    constant: bool,
}

fn container_attrs(attrs: &[Attribute]) -> Result<ContainerAttrs> {
    let mut out = ContainerAttrs::default();
    for attr in attrs {
        if attr.path().is_ident("serde") {
            attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("rename_all") {
                    out.rename_all = Some(meta.value()?.parse::<LitStr>()?.value());
                } else if meta.path.is_ident("tag") {
                    out.tag = Some(meta.value()?.parse::<LitStr>()?.value());
                } else if meta.path.is_ident("untagged") {
                    out.untagged = true;
                } else if meta.input.peek(syn::Token![=]) {
                    meta.value()?.parse::<Expr>()?;
                }
                Ok(())
            })?;
        } else if attr.path().is_ident("model") {
            attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("name") {
                    out.name = Some(meta.value()?.parse::<LitStr>()?.value());
                } else if meta.path.is_ident("constant") {
                    out.constant = true;
                } else {
                    return Err(meta.error("expected `name = \"…\"` or `constant`"));
                }
                Ok(())
            })?;
        }
    }
    Ok(out)
}

/// What a field's or variant's attributes say.
#[derive(Default)]
struct MemberAttrs {
    rename: Option<String>,
    /// `Some(None)`: `#[serde(default)]`; `Some(Some(path))`: a default function.
    default: Option<Option<syn::Path>>,
    since: Option<(u32, u32, u32)>,
    deprecated: bool,
    /// `few_values`: a string field whose values come from a short list.
    few_values: bool,
    /// `link = Variant`: the field's [`Link`] in the references.
    link: Option<syn::Ident>,
    required: bool,
    not_null: bool,
    ty: Option<Expr>,
    /// `#[serde(flatten)]`: the catch-all of unknown members, not a field.
    flatten: bool,
    /// `#[serde(with = "path")]`: how the value is written, also its default.
    with: Option<syn::Path>,
}

fn member_attrs(attrs: &[Attribute]) -> Result<MemberAttrs> {
    let mut out = MemberAttrs::default();
    for attr in attrs {
        if attr.path().is_ident("serde") {
            attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("rename") {
                    out.rename = Some(meta.value()?.parse::<LitStr>()?.value());
                } else if meta.path.is_ident("default") {
                    out.default = Some(if meta.input.peek(syn::Token![=]) {
                        Some(meta.value()?.parse::<LitStr>()?.parse::<syn::Path>()?)
                    } else {
                        None
                    });
                } else if meta.path.is_ident("flatten") {
                    out.flatten = true;
                } else if meta.path.is_ident("with") {
                    out.with = Some(meta.value()?.parse::<LitStr>()?.parse::<syn::Path>()?);
                } else if meta.input.peek(syn::Token![=]) {
                    meta.value()?.parse::<Expr>()?;
                }
                Ok(())
            })?;
        } else if attr.path().is_ident("field") {
            attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("since") {
                    let lit = meta.value()?.parse::<LitStr>()?;
                    out.since = Some(parse_version(&lit)?);
                } else if meta.path.is_ident("deprecated") {
                    out.deprecated = true;
                } else if meta.path.is_ident("few_values") {
                    out.few_values = true;
                } else if meta.path.is_ident("link") {
                    out.link = Some(meta.value()?.parse::<syn::Ident>()?);
                } else if meta.path.is_ident("required") {
                    out.required = true;
                } else if meta.path.is_ident("not_null") {
                    out.not_null = true;
                } else if meta.path.is_ident("ty") {
                    out.ty = Some(meta.value()?.parse::<Expr>()?);
                } else {
                    return Err(meta.error(
                        "expected `since = \"vX.Y.Z\"`, `deprecated`, `required`, `not_null`, `few_values`, `link = …` or `ty = …`",
                    ));
                }
                Ok(())
            })?;
        }
    }
    Ok(out)
}

fn parse_version(lit: &LitStr) -> Result<(u32, u32, u32)> {
    let text = lit.value();
    let numbers: Vec<u32> = text
        .strip_prefix('v')
        .unwrap_or(&text)
        .split('.')
        .map(str::parse)
        .collect::<std::result::Result<_, _>>()
        .map_err(|_| Error::new(lit.span(), "expected a version tag vX.Y.Z"))?;
    match numbers[..] {
        [major, minor, patch] => Ok((major, minor, patch)),
        _ => Err(Error::new(lit.span(), "expected a version tag vX.Y.Z")),
    }
}

/// The doc comment, lines trimmed and joined.
fn doc(attrs: &[Attribute]) -> String {
    let mut lines = Vec::new();
    for attr in attrs {
        if let syn::Meta::NameValue(nv) = &attr.meta {
            if nv.path.is_ident("doc") {
                if let Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) = &nv.value
                {
                    lines.push(s.value().trim().to_owned());
                }
            }
        }
    }
    let mut text = String::new();
    for line in lines {
        if line.is_empty() {
            text.push_str("\n\n");
        } else {
            if !text.is_empty() && !text.ends_with('\n') {
                text.push(' ');
            }
            text.push_str(&line);
        }
    }
    text.trim().to_owned()
}

/// Applies serde's `rename_all` rule to a Rust name.
fn rename(name: &str, rule: Option<&str>, span: Span) -> Result<String> {
    let name = name.trim_start_matches("r#");
    let words = || -> Vec<String> {
        if name.contains('_') || name.chars().all(|c| !c.is_uppercase()) {
            name.split('_').map(str::to_owned).collect()
        } else {
            let mut words: Vec<String> = Vec::new();
            for c in name.chars() {
                if c.is_uppercase() || words.is_empty() {
                    words.push(String::new());
                }
                words.last_mut().expect("pushed").push(c);
            }
            words
        }
    };
    Ok(match rule {
        None => name.to_owned(),
        Some("camelCase") => {
            let mut out = String::new();
            for (i, word) in words().iter().enumerate() {
                if i == 0 {
                    out.push_str(&word.to_lowercase());
                } else {
                    let mut chars = word.chars();
                    if let Some(first) = chars.next() {
                        out.extend(first.to_uppercase());
                        out.push_str(chars.as_str());
                    }
                }
            }
            out
        }
        Some("lowercase") => name.to_lowercase(),
        Some("kebab-case") => words()
            .iter()
            .map(|w| w.to_lowercase())
            .collect::<Vec<_>>()
            .join("-"),
        Some(other) => {
            return Err(Error::new(
                span,
                format!("rename_all = \"{other}\" is not supported by #[derive(Model)]"),
            ))
        }
    })
}

/// `Option<T>` at the outside of a field's type.
fn is_option(ty: &Type) -> bool {
    matches!(ty, Type::Path(p) if p.qself.is_none()
        && p.path.segments.last().is_some_and(|s| s.ident == "Option"))
}

fn derive_struct(input: &DeriveInput) -> Result<Tokens> {
    let Data::Struct(data) = &input.data else {
        unreachable!()
    };
    let Fields::Named(named) = &data.fields else {
        return Err(Error::new(input.span(), "a model needs named fields"));
    };
    let ident = &input.ident;
    let container = container_attrs(&input.attrs)?;
    let model_name = container.name.unwrap_or_else(|| ident.to_string());
    let model_doc = doc(&input.attrs);

    let mut fields = Vec::new();
    let mut wire_names = Vec::new();
    let mut required_mask: u128 = 0;
    for field in &named.named {
        let rust_ident = field.ident.as_ref().expect("named");
        let attrs = member_attrs(&field.attrs)?;
        if attrs.flatten {
            continue;
        }
        let wire = match &attrs.rename {
            Some(name) => name.clone(),
            None => rename(
                &rust_ident.to_string(),
                container.rename_all.as_deref(),
                field.span(),
            )?,
        };
        let option = is_option(&field.ty);
        let required = attrs.required || (attrs.default.is_none() && !option);
        let nullable = option && !attrs.not_null;
        let ty = &field.ty;
        let type_expr = match &attrs.ty {
            Some(expr) => quote!(#expr),
            None => quote!(<#ty as ::cardkit::schema::Describe>::TYPE),
        };
        let default = match &attrs.default {
            None if option && !required && nullable => {
                quote!(Some(|| ::cardkit::__private::serde_json::Value::Null))
            }
            None => quote!(None),
            Some(None) => match &attrs.with {
                // Written by a custom function, as the default must be too.
                Some(with) => quote!(Some(|| {
                    #with::serialize(
                        &<#ty as ::core::default::Default>::default(),
                        ::cardkit::__private::serde_json::value::Serializer,
                    )
                    .expect("defaults serialize to JSON")
                })),
                None => quote!(Some(|| {
                    ::cardkit::__private::to_json(&<#ty as ::core::default::Default>::default())
                })),
            },
            Some(Some(path)) => quote!(Some(|| ::cardkit::__private::to_json(&#path()))),
        };
        let since = match attrs.since {
            Some((a, b, c)) => quote!(Some(::cardkit::schema::Version::new(#a, #b, #c))),
            None => quote!(None),
        };
        if required {
            let Some(bit) = 1u128.checked_shl(fields.len() as u32) else {
                return Err(Error::new(field.span(), "a model has at most 128 fields"));
            };
            required_mask |= bit;
        }
        let deprecated = attrs.deprecated;
        let few_values = attrs.few_values;
        let link = match &attrs.link {
            Some(link) => quote!(Some(::cardkit::schema::Link::#link)),
            None => quote!(None),
        };
        let field_doc = doc(&field.attrs);
        let rust_name = rust_ident.to_string().trim_start_matches("r#").to_owned();
        fields.push(quote! {
            ::cardkit::schema::FieldDef {
                name: #wire,
                rust_name: #rust_name,
                model: #model_name,
                ty: #type_expr,
                required: #required,
                nullable: #nullable,
                default: #default,
                since: #since,
                deprecated: #deprecated,
                few_values: #few_values,
                link: #link,
                doc: #field_doc,
            }
        });
        wire_names.push(wire);
    }
    let mut sorted: Vec<&String> = wire_names.iter().collect();
    sorted.sort();
    if let Some(pair) = sorted.windows(2).find(|w| w[0] == w[1]) {
        return Err(Error::new(
            input.span(),
            format!("two fields have the wire name `{}`", pair[0]),
        ));
    }
    let (slots, seed) = perfect_hash(&wire_names)
        .ok_or_else(|| Error::new(input.span(), "no perfect hash found for the field names"))?;

    // A static reached through a function: models refer to each other in
    // cycles (a Group's children are layers, one of which is a Group), which
    // constant evaluation cannot follow.
    let table = format_ident!("__CARDKIT_MODEL_{}", ident.to_string().to_uppercase());
    Ok(quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals)]
        static #table: ::cardkit::schema::ModelDef = ::cardkit::schema::ModelDef {
            name: #model_name,
            doc: #model_doc,
            fields: &[#(#fields),*],
            keys: &[#(::cardkit::schema::key_words(#wire_names.as_bytes())),*],
            slots: &[#(#slots),*],
            seed: #seed,
            required: #required_mask,
            upstream: ::std::sync::OnceLock::new(),
            link_fields: ::std::sync::OnceLock::new(),
        };
        impl ::cardkit::schema::Model for #ident {
            fn model() -> &'static ::cardkit::schema::ModelDef {
                &#table
            }
        }
        impl ::cardkit::schema::Describe for #ident {
            const TYPE: &'static ::cardkit::schema::Type =
                &::cardkit::schema::Type::Model { model: <#ident as ::cardkit::schema::Model>::model };
        }
    })
}

/// A table in which each wire name has a slot of its own, and the
/// multiplier that spreads them so: the validator finds a field with one hash
/// and one comparison. The slot holds the field's index; 255 marks an empty
/// slot.
fn perfect_hash(names: &[String]) -> Option<(Vec<u8>, u64)> {
    let mut len = names.len().next_power_of_two().max(1) * 4;
    while len <= 1 << 14 {
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..20_000 {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407)
                | 1;
            let mut slots = vec![u8::MAX; len];
            let spread = names.iter().enumerate().all(|(index, name)| {
                let slot = &mut slots[key_hash(name.as_bytes(), seed, len)];
                let free = *slot == u8::MAX;
                *slot = u8::try_from(index).unwrap_or(u8::MAX);
                free
            });
            if spread {
                return Some((slots, seed));
            }
        }
        len *= 2;
    }
    None
}

/// A copy of `cardkit::schema::key_hash` of a name, which the tables are
/// built for.
fn key_hash(key: &[u8], seed: u64, slots: usize) -> usize {
    let word = |bytes: &[u8]| {
        let mut word = [0u8; 8];
        word[..bytes.len()].copy_from_slice(bytes);
        u64::from_le_bytes(word)
    };
    let len = key.len();
    let head = word(&key[..len.min(8)]);
    let tail = word(&key[len.saturating_sub(8)..]);
    let mixed = head ^ tail.rotate_left(23) ^ (len as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let bits = slots.trailing_zeros();
    if bits == 0 {
        return 0;
    }
    (mixed.wrapping_mul(seed) >> (64 - bits)) as usize
}

fn derive_enum(input: &DeriveInput) -> Result<Tokens> {
    let Data::Enum(data) = &input.data else {
        unreachable!()
    };
    let ident = &input.ident;
    let container = container_attrs(&input.attrs)?;
    let name = container.name.clone().unwrap_or_else(|| ident.to_string());

    let mut wire_values = Vec::new();
    let mut inner_types = Vec::new();
    for variant in &data.variants {
        let attrs = member_attrs(&variant.attrs)?;
        let wire = match attrs.rename {
            Some(name) => name,
            None => rename(
                &variant.ident.to_string(),
                container.rename_all.as_deref(),
                variant.span(),
            )?,
        };
        wire_values.push(wire);
        match &variant.fields {
            Fields::Unit => inner_types.push(None),
            Fields::Unnamed(f) if f.unnamed.len() == 1 => {
                inner_types.push(Some(f.unnamed[0].ty.clone()));
            }
            _ => {
                return Err(Error::new(
                    variant.span(),
                    "variants must be unit or hold one value",
                ))
            }
        }
    }

    let ty = if inner_types.iter().all(Option::is_none) {
        if container.constant {
            let [value] = &wire_values[..] else {
                return Err(Error::new(
                    input.span(),
                    "a constant has exactly one variant",
                ));
            };
            return Ok(quote! {
                impl #ident {
                    /// The constant's only value.
                    pub const VALUE: &'static str = #value;
                }
                impl ::cardkit::schema::Describe for #ident {
                    const TYPE: &'static ::cardkit::schema::Type =
                        &::cardkit::schema::Type::Const { value: #value };
                }
            });
        }
        quote!(::cardkit::schema::Type::Enum { name: #name, values: &[#(#wire_values),*] })
    } else if inner_types.iter().all(Option::is_some) {
        let inner: Vec<&Type> = inner_types.iter().flatten().collect();
        if let Some(tag) = &container.tag {
            quote!(::cardkit::schema::Type::Tagged(&::cardkit::schema::TaggedUnion {
                name: #name,
                tag: #tag,
                variants: &[#((#wire_values, <#inner as ::cardkit::schema::Model>::model)),*],
                tag_optional: false,
            }))
        } else if container.untagged {
            quote!(::cardkit::schema::Type::AnyOf {
                name: #name,
                types: &[#(<#inner as ::cardkit::schema::Describe>::TYPE),*],
            })
        } else {
            return Err(Error::new(
                input.span(),
                "a union needs #[serde(tag = \"…\")] or #[serde(untagged)]",
            ));
        }
    } else {
        return Err(Error::new(
            input.span(),
            "mixing unit and value variants is not supported",
        ));
    };
    Ok(quote! {
        impl ::cardkit::schema::Describe for #ident {
            const TYPE: &'static ::cardkit::schema::Type = &#ty;
        }
    })
}
