//! The integration tests, one module per subject, in one test binary: the
//! library's generic code is instantiated and optimised once for all of
//! them, not once per file. (`tests/stack_secrets.rs` is a binary of its
//! own: it probes the dead stack of its own calls.)
//!
//! Run one subject with a filter, e.g. `cargo test --test integration
//! batch::`.

mod api;
mod batch;
#[path = "../common/mod.rs"]
mod common;
mod kat;
mod kat_files;
mod long_messages;
mod properties;
mod stream;
