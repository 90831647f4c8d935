//! `POST /v1/render`: a template or card design drawn as `cardkit render`
//! draws it, as SVG, PNG, or JSON with the SVG and the render's report.
//!
//! The body is read whole (a design is parsed whole anyway), within the
//! service's body limits ([`MAX_RENDER_BODY`] at most), and drawn on a
//! blocking thread within the request's time limit, holding its
//! concurrency slot and one of the fewer render slots until it ends. The renderer's own limits
//! ([`cardkit_render::Limits`]) bound what a design can make it read and
//! draw. Assets are read from the service's asset folder (`cardkit serve
//! --assets DIR`), never out of it; without one, an asset that is not a
//! `data:` URI is drawn as a placeholder, with a report line.

use std::io::Read;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use cardkit_design::designs::Designs;
use cardkit_design::source::Design;
use cardkit_render::{render, Options};
use serde::{Deserialize, Serialize};
use tokio::runtime::Handle;
use utoipa::{IntoParams, ToSchema};

use crate::body::{self, BodyReader, Coding};
use crate::layers::Coded;
use crate::media::{BodyMedia, Picture};
use crate::problem::Problem;
use crate::state::{AppState, Slot};
use crate::validate::{content_length, halt_of, problem};

/// The largest body a render takes, whatever the service's size limit: a
/// design is held whole, and none comes near it.
pub const MAX_RENDER_BODY: u64 = 64 << 20;

/// The query of `POST /v1/render`.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct RenderParams {
    /// Of a file of several designs (the design tool's classic save file),
    /// the one to draw: its name as `cardkit import -o DIR` names its file
    /// (with or without `.json`), or its pointer in the file (`/3`), as
    /// `cardkit render --card`.
    #[param(example = "myrel-death-taxes")]
    card: Option<String>,
    /// The year `{year}` stands for (default: the current year), as
    /// `cardkit render --year`.
    #[param(value_type = Option<i32>, minimum = 1, maximum = 9999, example = 2024)]
    year: Option<i32>,
}

/// The JSON answer of `POST /v1/render` (`application/json`): the picture
/// and what could not be drawn as designed.
#[derive(Debug, Serialize, ToSchema)]
pub struct RenderedCard {
    /// The self-contained SVG (images embedded, text as outlines).
    pub svg: String,
    /// The picture's width, in pixels.
    pub width: f64,
    /// The picture's height, in pixels.
    pub height: f64,
    /// What was drawn: `template` (a template draws its own card) or
    /// `card`.
    pub kind: String,
    /// For a file of the design tool's own: what it is, converted in
    /// memory as `cardkit import` converts it; `null` for a design in the
    /// spec's shape.
    pub converted: Option<String>,
    /// What was not drawn as the design says (a missing asset, a
    /// substituted font, text that does not fit), in drawing order: the
    /// lines `cardkit render` writes on standard error.
    pub report: Vec<RenderReportLine>,
}

/// A line of a render's report.
#[derive(Debug, Serialize, ToSchema)]
pub struct RenderReportLine {
    /// Where: the JSON Pointer of the layer (with its name when it has one)
    /// or of the template's member.
    pub at: String,
    /// What happened.
    pub message: String,
}

/// The PNG of a render (`image/png`).
pub struct PngBytes;

impl utoipa::PartialSchema for PngBytes {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .content_media_type("image/png")
            .into()
    }
}

impl ToSchema for PngBytes {}

/// Renders the body: a template (drawn with its own card), a card design
/// (drawn without a template: the fallback fonts, no symbol sets, as
/// `cardkit render` without `--template`), or a file of the design tool's
/// own (an older layered template, a classic save file), converted in
/// memory as `cardkit import` converts it.
///
/// `Accept` chooses the answer: `image/svg+xml` the SVG, `image/png` the
/// PNG, `application/json` (the default) the SVG with the render's report.
/// Assets that are not `data:` URIs are drawn as placeholders, with a
/// report line: the service reads no asset files.
#[utoipa::path(
    post,
    path = "/v1/render",
    tag = "rendering",
    params(RenderParams),
    request_body(
        description = "The design as sent: a template, a card design, or a file of the design tool's own. May be sent with `Content-Encoding: gzip` (or `x-gzip`) or `zstd`, or compressed without a `Content-Encoding` (gzip, zstd, xz, bzip2, told by their first bytes), as `POST /v1/validate`.",
        content((crate::openapi::AnyBytes = "application/json")),
    ),
    responses(
        (status = 200, description = "The picture: the SVG (`image/svg+xml`), the PNG (`image/png`), or the SVG with the render's report (`application/json`, the default).",
            content(
                (RenderedCard = "application/json"),
                (String = "image/svg+xml"),
                (PngBytes = "image/png"),
            )),
        (status = 400, description = "A bad parameter (a `card` that names none of the file's designs), or a body that could not be read (cut short, or a content coding or compression that does not decode).", body = Problem, content_type = "application/problem+json"),
        (status = 408, description = "The request took longer than the time limit (`timed_out`), or its body came slower than the minimum rate (`body_too_slow`).", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is larger than the size limit (the service's, and 64 MiB at most).", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "A media type or content coding the service does not read.", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The body is not a design that can be drawn (`not_renderable`): not a template or card design (its first errors are listed; `POST /v1/validate` reports every one), a file of several designs without `card`, or a design beyond the renderer's limits (layers, size, pixels).", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The service is at its concurrency limit, or of renders (`max_renders`); try again after `Retry-After` seconds.", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn render_design(
    State(state): State<Arc<AppState>>,
    query: Result<Query<RenderParams>, QueryRejection>,
    slot: Option<axum::Extension<Slot>>,
    coded: Option<axum::Extension<Coded>>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let deadline = tokio::time::Instant::now() + state.config.timeout;
    let limit = state.config.max_body.min(MAX_RENDER_BODY);
    let asked = (|| {
        let Query(params) =
            query.map_err(|rejection| Problem::bad_parameter(rejection.body_text()))?;
        if let Some(year) = params.year.filter(|year| !(1..=9999).contains(year)) {
            return Err(Problem::bad_parameter(format!(
                "`year` is {year}: expected a year from 1 to 9999"
            )));
        }
        if BodyMedia::of(&headers)? != BodyMedia::Json {
            return Err(Problem::unsupported_media_type(
                "a render takes one design, sent as `application/json`",
            ));
        }
        if let Some(length) = content_length(&headers) {
            if length > limit {
                return Err(Problem::body_too_large(format!(
                    "the body is {length} bytes; the limit is {limit} bytes"
                )));
            }
        }
        Ok(params)
    })();
    let params = match asked {
        Ok(params) => params,
        Err(problem) => return problem.into_response(),
    };
    // Taken before the body is read: a render holds its body whole.
    let Ok(drawing) = Arc::clone(&state.renders).try_acquire_owned() else {
        return Problem::rendering(state.config.max_renders).into_response();
    };
    let picture = Picture::of(&headers);
    let reader = BodyReader::new(
        body.into_data_stream(),
        Handle::current(),
        deadline,
        state.config.timeout.as_secs(),
        limit,
    )
    .min_rate(state.config.min_body_rate, state.config.body_window);
    let codings = coded.map(|axum::Extension(Coded(codings))| codings);
    let slot = slot.map(|axum::Extension(slot)| slot);
    let assets = state.config.assets.clone();
    let job = tokio::task::spawn_blocking(move || {
        // The slot is held until the render ends, even when its client has
        // been answered 408: renders at once stay within the limit.
        let _slot = (slot, drawing);
        let bytes = read_body(reader, codings.as_deref())?;
        draw(&bytes, &params, picture, assets)
    });
    match tokio::time::timeout_at(deadline, job).await {
        Ok(Ok(Ok(response))) => response,
        Ok(Ok(Err(problem))) => problem.into_response(),
        Ok(Err(_)) => Problem::internal("the render stopped without an answer").into_response(),
        Err(_) => Problem::timed_out(state.config.timeout.as_secs()).into_response(),
    }
}

/// The body whole, decoded by its content codings, or by its first bytes
/// when it has none, within its limits.
fn read_body(reader: BodyReader, codings: Option<&[Coding]>) -> Result<Vec<u8>, Problem> {
    let halted = reader.halted();
    let limits = reader.limits();
    let failed = |error: std::io::Error| problem(halt_of(&halted, &error));
    let gone = || Problem::unreadable_body("the client is gone");
    let mut decoded: Box<dyn Read> = match codings {
        Some(codings) => Box::new(limits.on(
            body::decoded(Box::new(reader), codings).map_err(|e| failed(e).unwrap_or_else(gone))?,
        )),
        None => {
            let opened = cardkit_run::open_stream("<body>", reader, false)
                .map_err(|e| failed(e).unwrap_or_else(gone))?;
            if opened.compressed.is_some() {
                Box::new(limits.on(opened.reader))
            } else {
                opened.reader
            }
        }
    };
    let mut bytes = Vec::new();
    decoded
        .read_to_end(&mut bytes)
        .map_err(|e| failed(e).unwrap_or_else(gone))?;
    Ok(bytes)
}

/// The design of `bytes` drawn, answered as `picture` asks.
fn draw(
    bytes: &[u8],
    params: &RenderParams,
    picture: Picture,
    assets: Option<std::path::PathBuf>,
) -> Result<Response, Problem> {
    let designs = Designs::read(bytes).map_err(|why| Problem::not_renderable(why.to_string()))?;
    let converted = designs
        .converted
        .as_ref()
        .map(|converted| converted.note(std::path::Path::new("the body")));
    let named = designs
        .one(params.card.as_deref())
        .map_err(|choice| match &choice.asked {
            Some(asked) => {
                Problem::bad_parameter(format!("`card` is `{asked}`: {}", listed(&choice.names)))
            }
            None => Problem::not_renderable(format!(
                "the body holds {} designs: name the one to draw with `card`; {}",
                choice.names.len(),
                listed(&choice.names)
            )),
        })?;
    let design: &Design = &named.design;
    let options = Options {
        year: params.year,
        assets,
        ..Options::default()
    };
    let rendered = render(design.card(), design.template(), &options)
        .map_err(|why| Problem::not_renderable(why.to_string()))?;
    let response = match picture {
        Picture::Svg => media(rendered.svg().to_owned().into_response(), "image/svg+xml"),
        Picture::Png => {
            let png = rendered
                .png()
                .map_err(|why| Problem::not_renderable(why.to_string()))?;
            media(png.into_response(), "image/png")
        }
        Picture::Json => {
            let (width, height) = rendered.size();
            let answer = RenderedCard {
                svg: rendered.svg().to_owned(),
                width: f64::from(width),
                height: f64::from(height),
                kind: match design {
                    Design::Template(_) => "template",
                    Design::Card(_) => "card",
                }
                .to_owned(),
                converted,
                report: rendered
                    .report()
                    .iter()
                    .map(|line| RenderReportLine {
                        at: line.at.clone(),
                        message: line.message.clone(),
                    })
                    .collect(),
            };
            axum::Json(answer).into_response()
        }
    };
    Ok(response)
}

/// The names of a file's designs, for a problem's detail: the first few,
/// and how many more (a classic save file may hold thousands).
fn listed(names: &[String]) -> String {
    const SHOWN: usize = 10;
    if names.is_empty() {
        return "the body holds one design, not several".to_owned();
    }
    let mut text = format!(
        "its designs are named {}",
        names
            .iter()
            .take(SHOWN)
            .map(String::as_str)
            .collect::<Vec<_>>()
            .join(", ")
    );
    if names.len() > SHOWN {
        text.push_str(&format!(" and {} more", names.len() - SHOWN));
    }
    text.push_str(&format!(
        " (as `cardkit import -o DIR` names their files), or by pointer, /0 to /{}",
        names.len() - 1
    ));
    text
}

/// `response` as `content_type`.
fn media(mut response: Response, content_type: &'static str) -> Response {
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}
