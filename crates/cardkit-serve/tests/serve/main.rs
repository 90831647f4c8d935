//! The integration tests of `cardkit-serve`, in one test binary (one link
//! instead of one per file): each file of this folder is a module, a test's
//! name is its module's then its own.

/// The service on a port of its own, for the tests that ask it from their
/// own thread (`clients`, `contract`, `page`).
#[path = "../support/service.rs"]
mod service;

mod api;
mod clients;
mod contract;
mod page;
