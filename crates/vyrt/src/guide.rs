//! Where a player reads about a rule: every rulebook code that a message or a rule option's
//! help cites (`R5`, `R6`) is written here and nowhere else, so that pointing messages at
//! the players' guide (`docs/rules/vyrt.md`) instead is one edit of this file.
//! `guide!(name)` is a string literal, usable inside `concat!`.

macro_rules! guide {
    (back_row_pawns) => {
        "R5"
    };
    (double_step) => {
        "R6"
    };
}
