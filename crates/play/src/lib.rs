//! Playing Menagerie's games, for every front end (the command line, the engine protocols,
//! the server): game records, players, the match runner, clocks and time allocation, the
//! one rule for search limits, and what a player is shown of a game.
//!
//! | module | what it holds |
//! |---|---|
//! | [`record`] | game records: write, read, replay, the outcome a record states |
//! | [`players`] | who chooses the moves: engine, random, greedy, an external UCI engine |
//! | [`engine`] | the one place this crate asks the engine for a move |
//! | [`matches`] | the match runner: colours, adjudication, forfeits, Elo |
//! | [`openings`] | random openings that are balanced and do not end the game |
//! | [`clock`] | time controls and how much of the clock a move may use |
//! | [`limits`] | the ranges of depth, nodes and time, one rule for every front end |
//! | [`perft`] | a bounded perft that can be stopped |
//! | [`lines`] | protocol input read line by line, each line bounded and checked |
//! | [`view`] | the game as one player sees it: texts of turns, move lists, notes |

#![warn(missing_docs)]

pub mod clock;
pub mod engine;
pub mod limits;
pub mod lines;
pub mod matches;
pub mod openings;
pub mod perft;
pub mod players;
pub mod record;
pub mod sprt;
pub mod uci_client;
pub mod view;

pub use menagerie_core::fmt_points;
