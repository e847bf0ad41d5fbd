//! Where a player reads about a rule: every section of the players' guide
//! (`docs/rules/vyrt.md`) that a message or a rule option's help cites is written here and
//! nowhere else, so that a renumbered guide is one edit of this file.
//! `guide!(name)` is a string literal, usable inside `concat!`.

macro_rules! guide {
    (back_row_pawns) => {
        "the ruling in guide §4"
    };
    (double_step) => {
        "the ruling in guide §4"
    };
}
