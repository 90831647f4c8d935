//! `GET /metrics`: Prometheus text format. Requests by route, method and
//! status; their durations; requests in flight and shed; bytes, documents
//! and diagnostics validated. Every label takes a bounded set of values.

use std::fmt;

use cardkit::validate::DocumentReport;
use cardkit::Severity;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    route: String,
    method: String,
    status: u16,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabels {
    route: String,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct VerdictLabels {
    valid: String,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct CodeLabels {
    code: String,
    severity: String,
}

type Durations = Family<RouteLabels, Histogram, fn() -> Histogram>;

/// The service's metrics.
pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    durations: Durations,
    in_flight: Gauge,
    shed: Counter,
    bytes: Counter,
    documents: Family<VerdictLabels, Counter>,
    diagnostics: Family<CodeLabels, Counter>,
}

impl fmt::Debug for Metrics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Metrics")
    }
}

fn duration_histogram() -> Histogram {
    // 1 ms to about 4.4 min.
    Histogram::new(exponential_buckets(0.001, 4.0, 10))
}

impl Metrics {
    pub fn new() -> Self {
        let mut registry = Registry::with_prefix("cardkit");
        let requests = Family::<RequestLabels, Counter>::default();
        let durations: Durations = Family::new_with_constructor(duration_histogram);
        let in_flight = Gauge::default();
        let shed = Counter::default();
        let bytes = Counter::default();
        let documents = Family::<VerdictLabels, Counter>::default();
        let diagnostics = Family::<CodeLabels, Counter>::default();
        registry.register(
            "http_requests",
            "HTTP requests answered, by route, method and status",
            requests.clone(),
        );
        registry.register(
            "http_request_duration_seconds",
            "Time to the response's head, by route",
            durations.clone(),
        );
        registry.register(
            "http_requests_in_flight",
            "Requests being answered",
            in_flight.clone(),
        );
        registry.register(
            "http_requests_shed",
            "Requests refused (503) at the concurrency limit",
            shed.clone(),
        );
        registry.register(
            "validated_bytes",
            "Body bytes validated (after decoding)",
            bytes.clone(),
        );
        registry.register(
            "validated_documents",
            "Documents validated, by verdict",
            documents.clone(),
        );
        registry.register(
            "diagnostics",
            "Diagnostics found, by code and severity",
            diagnostics.clone(),
        );
        Metrics {
            registry,
            requests,
            durations,
            in_flight,
            shed,
            bytes,
            documents,
            diagnostics,
        }
    }

    /// The metrics in the Prometheus text format.
    pub fn render(&self) -> String {
        let mut text = String::new();
        // Writing into a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut text, &self.registry);
        text
    }

    /// A request begins; the guard counts it until it is dropped.
    pub fn begin(&self) -> InFlight {
        self.in_flight.inc();
        InFlight(self.in_flight.clone())
    }

    /// A request was answered.
    pub fn answered(&self, route: &str, method: &str, status: u16, seconds: f64) {
        self.requests
            .get_or_create(&RequestLabels {
                route: route.to_owned(),
                method: method.to_owned(),
                status,
            })
            .inc();
        self.durations
            .get_or_create(&RouteLabels {
                route: route.to_owned(),
            })
            .observe(seconds);
    }

    pub fn shed(&self) {
        self.shed.inc();
    }

    pub fn bytes(&self, bytes: u64) {
        self.bytes.inc_by(bytes);
    }

    /// Counts a document and its diagnostics (omitted ones too).
    pub fn document(&self, document: &DocumentReport) {
        let valid = if document.is_valid() { "true" } else { "false" };
        self.documents
            .get_or_create(&VerdictLabels {
                valid: valid.to_owned(),
            })
            .inc();
        let count = |code: cardkit::Code, severity: Severity, n: usize| {
            self.diagnostics
                .get_or_create(&CodeLabels {
                    code: code.as_str().to_owned(),
                    severity: severity.as_str().to_owned(),
                })
                .inc_by(n as u64);
        };
        for diagnostic in &document.diagnostics {
            count(diagnostic.code, diagnostic.severity, 1);
        }
        for (&code, &n) in &document.omitted.errors {
            count(code, Severity::Error, n);
        }
        for (&code, &n) in &document.omitted.warnings {
            count(code, Severity::Warning, n);
        }
    }
}

/// A request in flight, counted until dropped.
pub struct InFlight(Gauge);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.dec();
    }
}
