//! The nearest known field name of an unknown member.

use std::cell::RefCell;
use std::collections::HashMap;

use crate::schema::ModelDef;

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
