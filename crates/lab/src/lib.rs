//! The designers' lab: what a rule does to a game, measured by self-play and shown in plots.
//!
//! | module | what it holds |
//! |---|---|
//! | [`run`] | playing a study: seeds, openings, shards, threads, the figures of each game |
//! | [`stats`] | the statistics as pure functions (intervals, Elo, tests, regressions) |
//! | [`report`] | the figures of a study and the files of its report |
//! | [`plots`] | the SVG plots |
//! | [`html`] | the report page |
//! | [`cli`] | `menagerie study` and `menagerie study merge` |

#![warn(missing_docs)]

pub mod cli;
pub mod html;
pub mod plots;
pub mod report;
pub mod run;
pub mod stats;
