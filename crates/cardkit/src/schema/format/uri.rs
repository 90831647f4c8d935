//! The `uri` format: an RFC 3986 URI.

// iri-string: a maintained, dependency-free parser that follows RFC 3986 strictly and has a
// type for exactly the `URI` rule (scheme required, fragment allowed, ASCII only).
use iri_string::types::UriStr;

/// Whether `value` is a URI by the `URI` rule of RFC 3986: `scheme ":" hier-part
/// ["?" query] ["#" fragment]`.
///
/// The scheme is required, so relative references (`/x`, `//host/x`, `x/y`) are not URIs.
/// Only ASCII is allowed (non-ASCII characters must be percent-encoded), percent-encodings
/// must be well formed, and the empty string is not a URI.
#[must_use]
pub fn is_uri(value: &str) -> bool {
    !value.is_empty() && UriStr::new(value).is_ok()
}

#[cfg(test)]
mod tests {
    use super::is_uri;

    #[test]
    fn accepts_uris_with_a_scheme() {
        assert!(is_uri("http://x"));
        assert!(is_uri("https://example.com/a/b?c=d&e=f#g"));
        assert!(is_uri("HTTPS://EXAMPLE.COM/"));
        assert!(is_uri("urn:isbn:123"));
        assert!(is_uri("mailto:someone@example.com"));
        assert!(is_uri("file:///etc/hosts"));
        assert!(is_uri("http://[::1]:8080/x"));
        assert!(is_uri("http://192.168.0.1/"));
        assert!(is_uri("http://user:pw@host:80/p%20q"));
        assert!(is_uri("http://example.com/%E4%BE%8B"));
        assert!(is_uri("x:"));
        assert!(is_uri("a+b-c.d:e"));
        assert!(is_uri("data:,"));
        assert!(is_uri("http://x/#"));
        assert!(is_uri("http://x/?"));
    }

    #[test]
    fn rejects_relative_references() {
        assert!(!is_uri("/x"));
        assert!(!is_uri("//host/x"));
        assert!(!is_uri("x/y"));
        assert!(!is_uri("x"));
        assert!(!is_uri("?q"));
        assert!(!is_uri("#f"));
        assert!(!is_uri(":x"));
        assert!(!is_uri("1http://x"));
    }

    #[test]
    fn rejects_malformed_uris() {
        assert!(!is_uri(""));
        assert!(!is_uri(" "));
        assert!(!is_uri("http://exa mple.com"));
        assert!(!is_uri(" http://x"));
        assert!(!is_uri("http://x "));
        assert!(!is_uri("http://例え.jp"));
        assert!(!is_uri("http://x/é"));
        assert!(!is_uri("http://x/%zz"));
        assert!(!is_uri("http://x/%4"));
        assert!(!is_uri("http://x/%"));
        assert!(!is_uri("http://x:port/"));
        assert!(!is_uri("http://x/<y>"));
        assert!(!is_uri("http://x/a\"b"));
        assert!(!is_uri("http://x/#a#b"));
        assert!(!is_uri("http://[::1/"));
        assert!(!is_uri("http://x/\\"));
        assert!(!is_uri("http://x/\n"));
        assert!(!is_uri("ht tp://x"));
    }
}
