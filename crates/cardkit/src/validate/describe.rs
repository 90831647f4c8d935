//! Words for messages: what a type expects, and the nearest known field name.

use std::cell::RefCell;
use std::collections::HashMap;

use crate::schema::{ModelDef, Type};

/// What a value of `ty` is, in words: `an integer`, `an array of CardSet`.
pub(crate) fn expected(ty: &Type) -> String {
    match ty {
        Type::String { format: None } => "a string".to_owned(),
        Type::String {
            format: Some(format),
        } => format!("a {} string", format.name()),
        Type::Integer => "an integer".to_owned(),
        Type::Number => "a number".to_owned(),
        Type::Boolean => "a boolean".to_owned(),
        Type::Const { value } => format!("the constant \"{value}\""),
        Type::Enum { values, .. } => {
            let quoted: Vec<String> = values.iter().map(|v| format!("\"{v}\"")).collect();
            format!("one of {}", quoted.join(", "))
        }
        Type::List { item } => format!("an array of {}", plural(item)),
        Type::FreeObject => "an object".to_owned(),
        Type::Model { model } => format!("an object ({})", model().name),
        Type::Tagged(union) => format!("an object ({})", union.name),
        Type::AnyOf { types, .. } => {
            let each: Vec<String> = types.iter().map(|t| expected(t)).collect();
            each.join(" or ")
        }
    }
}

/// The items of a list, in words: `strings`, `CardSet objects`.
fn plural(item: &Type) -> String {
    match item {
        Type::String { format: None } => "strings".to_owned(),
        Type::String {
            format: Some(format),
        } => format!("{} strings", format.name()),
        Type::Integer => "integers".to_owned(),
        Type::Number => "numbers".to_owned(),
        Type::Boolean => "booleans".to_owned(),
        Type::Model { model } => format!("{} objects", model().name),
        Type::Tagged(union) => format!("{} objects", union.name),
        Type::AnyOf { name, .. } => format!("{name} values"),
        other => format!("({})", expected(other)),
    }
}

/// The known field whose name is closest to an unknown `name`, when one is
/// close enough to be a likely typo. The same unknown names come back on
/// every record of a catalog: each is compared with the model's fields once.
pub(crate) fn nearest_field(model: &'static ModelDef, name: &str) -> Option<&'static str> {
    /// Enough for every unknown name of real data; past it, start over.
    const REMEMBERED: usize = 4096;
    thread_local! {
        /// By model (its table's address), then by unknown name.
        static NEAREST: RefCell<HashMap<usize, HashMap<String, Option<&'static str>>>> =
            RefCell::new(HashMap::new());
    }
    NEAREST.with_borrow_mut(|known| {
        let names = known.entry(std::ptr::from_ref(model) as usize).or_default();
        if let Some(&near) = names.get(name) {
            return near;
        }
        if names.len() >= REMEMBERED {
            names.clear();
        }
        let near = compare(model, name);
        names.insert(name.to_owned(), near);
        near
    })
}

fn compare(model: &ModelDef, name: &str) -> Option<&'static str> {
    let lower = name.to_lowercase();
    model
        .fields
        .iter()
        .map(|field| {
            let score = if field.name.to_lowercase() == lower {
                1.0
            } else {
                strsim::jaro_winkler(&field.name.to_lowercase(), &lower)
            };
            (score, field.name)
        })
        .filter(|&(score, _)| score >= 0.9)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, name)| name)
}
