//! Where a player reads about a rule: every section of the players' guide
//! (`docs/rules/cypher.md`) that a message or a rule option's help cites is written here and
//! nowhere else, so that a renumbered guide is one edit of this file.
//! `guide!(name)` is a string literal, usable inside `concat!`.

macro_rules! guide {
    (self_flip) => {
        "guide §11"
    };
    (king_court_entry) => {
        "guide §4"
    };
    (infiltration_target) => {
        "guide §12"
    };
    (coup) => {
        "guide §13"
    };
}
