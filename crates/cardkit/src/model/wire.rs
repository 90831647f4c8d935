//! serde helpers for what the derive cannot say: integers written as `5.0`,
//! and members that must be present but may be null.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, Visitor};

/// An integer, also when written with a zero fraction or an exponent (`5.0`,
/// `5e0`), as the spec's `integer` allows; values beyond `i64` are refused.
pub(crate) fn integer<'de, D: Deserializer<'de>>(deserializer: D) -> Result<i64, D::Error> {
    deserializer.deserialize_any(IntegerVisitor)
}

/// An optional integer: `null` is none.
pub(crate) fn optional_integer<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<i64>, D::Error> {
    deserializer.deserialize_option(OptionalInteger)
}

/// A member that must be present and may be `null`: with
/// `deserialize_with`, serde makes the member required.
pub(crate) fn nullable<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
) -> Result<Option<T>, D::Error> {
    Option::<T>::deserialize(deserializer)
}

struct IntegerVisitor;

impl Visitor<'_> for IntegerVisitor {
    type Value = i64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an integer within the range of i64")
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<i64, E> {
        Ok(v)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<i64, E> {
        i64::try_from(v).map_err(|_| E::custom(format!("integer {v} is beyond the range of i64")))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<i64, E> {
        // i64::MAX as f64 rounds up to 2^63, hence the strict upper bound.
        if v.fract() == 0.0 && v >= i64::MIN as f64 && v < i64::MAX as f64 {
            #[allow(clippy::cast_possible_truncation)]
            Ok(v as i64)
        } else {
            Err(E::custom(format!(
                "{v} is not an integer within the range of i64"
            )))
        }
    }
}

struct OptionalInteger;

impl<'de> Visitor<'de> for OptionalInteger {
    type Value = Option<i64>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an integer or null")
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        integer(deserializer).map(Some)
    }
}
