//! Migrations that the end-to-end tests of `cardkit validate` give it to
//! read: valid, invalid, and one per line with a given id.

/// A valid migration, pretty-printed over several lines.
pub const MIGRATION: &str = r#"{
  "object": "migration",
  "id": "0fca5b4c-3a5a-4a22-bd26-4b7a3f1b4c9e",
  "uri": "https://api.catalog.example.org/migrations/0fca5b4c",
  "created_at": "2023-01-15",
  "migration_strategy": "merge",
  "old_catalogA_id": "2b3c4d5e-6f70-4182-9394-a5b6c7d8e9f0",
  "new_catalogA_id": "7e8f9a0b-1c2d-4e3f-8a4b-5c6d7e8f9a0b",
  "note": null
}
"#;

/// A migration whose `id` is a number (line 3, column 9) and that has an
/// unknown member `colour` (line 9, column 3).
pub const BAD_MIGRATION: &str = r#"{
  "object": "migration",
  "id": 5,
  "uri": "https://api.catalog.example.org/migrations/0fca5b4c",
  "created_at": "2023-01-15",
  "migration_strategy": "merge",
  "old_catalogA_id": "2b3c4d5e-6f70-4182-9394-a5b6c7d8e9f0",
  "new_catalogA_id": null,
  "colour": "red"
}
"#;

/// One migration on one line, with the given id.
pub fn migration_line(id: &str) -> String {
    format!(
        r#"{{"object": "migration", "id": {id}, "uri": "https://e.org/m", "created_at": "2023-01-15", "migration_strategy": "delete", "old_catalogA_id": "2b3c4d5e-6f70-4182-9394-a5b6c7d8e9f0", "new_catalogA_id": null}}"#
    )
}

pub const GOOD_ID: &str = r#""0fca5b4c-3a5a-4a22-bd26-4b7a3f1b4c9e""#;
