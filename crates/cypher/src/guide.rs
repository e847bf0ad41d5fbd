//! Where a player reads about a rule: every rulebook code that a message or a rule option's
//! help cites (`R1`, `R14`, ...) is written here and nowhere else, so that pointing messages
//! at the players' guide (`docs/rules/cypher.md`) instead is one edit of this file.
//! `guide!(name)` is a string literal, usable inside `concat!`.

macro_rules! guide {
    (self_flip) => {
        "R1"
    };
    (king_court_entry) => {
        "R4"
    };
    (infiltration_target) => {
        "R12"
    };
    (coup) => {
        "R14"
    };
}
