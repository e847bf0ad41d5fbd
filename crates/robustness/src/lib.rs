//! Menagerie's robustness checks: what each fuzz target does with one input (so libFuzzer
//! under `fuzz/` and the stable replays under `tests/` run the same code), a small
//! deterministic mutator for the stable replays, and the helpers of the property tests.
//! The protocol loops (UCI, XBoard) and the server's HTTP API run in-process.
//!
//! Every check panics (with the input in the message) when a property fails, and returns
//! quietly for any input the library refuses with an error.

#![warn(missing_docs)]

pub mod api;
pub mod checks;
pub mod mutate;
pub mod protocols;
pub mod server;
