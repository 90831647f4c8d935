//! Set name per language; the keys are language names.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::Model;

/// Set name per language; the keys are language names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
#[serde(rename_all = "camelCase")]
pub struct Translations {
    /// The set name in Ancient Greek.
    #[field(since = "v4.6.0")]
    #[serde(
        rename = "Ancient Greek",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub ancient_greek: Option<String>,

    /// The set name in Arabic.
    #[field(since = "v4.6.0")]
    #[serde(rename = "Arabic", default, skip_serializing_if = "Option::is_none")]
    pub arabic: Option<String>,

    /// The set name in Chinese Simplified.
    #[field(since = "v4.0.0")]
    #[serde(
        rename = "Chinese Simplified",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub chinese_simplified: Option<String>,

    /// The set name in Chinese Traditional.
    #[field(since = "v4.6.0")]
    #[serde(
        rename = "Chinese Traditional",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub chinese_traditional: Option<String>,

    /// The set name in French.
    #[field(since = "v4.0.0")]
    #[serde(rename = "French", default, skip_serializing_if = "Option::is_none")]
    pub french: Option<String>,

    /// The set name in German.
    #[field(since = "v4.0.0")]
    #[serde(rename = "German", default, skip_serializing_if = "Option::is_none")]
    pub german: Option<String>,

    /// The set name in Hebrew.
    #[field(since = "v4.6.0")]
    #[serde(rename = "Hebrew", default, skip_serializing_if = "Option::is_none")]
    pub hebrew: Option<String>,

    /// The set name in Italian.
    #[field(since = "v4.0.0")]
    #[serde(rename = "Italian", default, skip_serializing_if = "Option::is_none")]
    pub italian: Option<String>,

    /// The set name in Japanese.
    #[field(since = "v4.0.0")]
    #[serde(rename = "Japanese", default, skip_serializing_if = "Option::is_none")]
    pub japanese: Option<String>,

    /// The set name in Korean.
    #[field(since = "v4.0.0")]
    #[serde(rename = "Korean", default, skip_serializing_if = "Option::is_none")]
    pub korean: Option<String>,

    /// The set name in Latin.
    #[field(since = "v4.6.0")]
    #[serde(rename = "Latin", default, skip_serializing_if = "Option::is_none")]
    pub latin: Option<String>,

    /// The set name in Phyrexian.
    #[field(since = "v4.7.0")]
    #[serde(rename = "Phyrexian", default, skip_serializing_if = "Option::is_none")]
    pub phyrexian: Option<String>,

    /// The set name in Portuguese (Brazil).
    #[field(since = "v4.0.0")]
    #[serde(
        rename = "Portuguese (Brazil)",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub portuguese_brazil: Option<String>,

    /// The set name in Russian.
    #[field(since = "v4.0.0")]
    #[serde(rename = "Russian", default, skip_serializing_if = "Option::is_none")]
    pub russian: Option<String>,

    /// The set name in Sanskrit.
    #[field(since = "v4.6.0")]
    #[serde(rename = "Sanskrit", default, skip_serializing_if = "Option::is_none")]
    pub sanskrit: Option<String>,

    /// The set name in Spanish.
    #[field(since = "v4.0.0")]
    #[serde(rename = "Spanish", default, skip_serializing_if = "Option::is_none")]
    pub spanish: Option<String>,

    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}
