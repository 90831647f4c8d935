//! The checker: reads one unit of a file through a [`Reader`] and applies
//! the field tables to it, recording what it finds in [`Findings`]. It never
//! builds a tree: on the valid path it only moves the cursor and keeps the
//! path; pointers and diagnostics are made when a problem is found.

mod checker;
mod object;
mod tags;
mod value;

pub(crate) use checker::{Checker, Flow, Found, Malformed};
