//! Version tags such as `v5.2.1`.

use std::fmt;
use std::str::FromStr;

/// A version tag of the Set format (`Since`), compared as a semantic version.
///
/// Tags are always `vMAJOR.MINOR.PATCH` with no pre-release part, so a plain
/// ordered triple is exact; it is `const`-constructible so the field tables can
/// be static.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version {
    /// Major version.
    pub major: u32,
    /// Minor version.
    pub minor: u32,
    /// Patch version.
    pub patch: u32,
}

impl Version {
    /// A version from its three numbers.
    #[must_use]
    pub const fn new(major: u32, minor: u32, patch: u32) -> Self {
        Version {
            major,
            minor,
            patch,
        }
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}.{}.{}", self.major, self.minor, self.patch)
    }
}

/// A version tag that is not of the form `vX.Y.Z`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseVersionError(String);

impl fmt::Display for ParseVersionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a version tag: expected vMAJOR.MINOR.PATCH, e.g. v5.2.1",
            self.0
        )
    }
}

impl std::error::Error for ParseVersionError {}

impl FromStr for Version {
    type Err = ParseVersionError;

    /// Parses `v5.2.1` (the leading `v` may be omitted).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let error = || ParseVersionError(text.to_owned());
        let digits = text.strip_prefix('v').unwrap_or(text);
        let mut parts = digits.split('.').map(|part| {
            let plain = !part.is_empty()
                && part.bytes().all(|b| b.is_ascii_digit())
                && (part == "0" || !part.starts_with('0'));
            if plain {
                part.parse::<u32>().map_err(|_| error())
            } else {
                Err(error())
            }
        });
        let version = Version::new(
            parts.next().ok_or_else(error)??,
            parts.next().ok_or_else(error)??,
            parts.next().ok_or_else(error)??,
        );
        if parts.next().is_some() {
            return Err(error());
        }
        Ok(version)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_orders_as_semantic_versions() {
        let v = |s: &str| s.parse::<Version>().unwrap();
        assert_eq!(v("v5.2.1"), Version::new(5, 2, 1));
        assert_eq!(v("4.10.0"), Version::new(4, 10, 0));
        assert!(v("v4.10.0") > v("v4.9.9"));
        assert!(v("v5.0.0") > v("v4.99.99"));
        assert_eq!(v("v5.2.1").to_string(), "v5.2.1");
    }

    #[test]
    fn rejects_malformed_tags() {
        for bad in [
            "", "v", "v5", "v5.2", "v5.2.1.0", "v5.x.1", "v05.2.1", "5.2.-1", "vv5.2.1",
        ] {
            assert!(bad.parse::<Version>().is_err(), "{bad:?} parsed");
        }
    }
}
