//! What one player is shown of a game: the game from that player's view, the text of a
//! turn (human and canonical, once when they are the same), examples of the game's own
//! notation for prompts and help.

use menagerie_core::{Color, RuleOptions};
use menagerie_variants::{AnyGame, Variant, VariantError};

/// A turn as a player reads it: `human (canonical)`, or the one text when they agree.
pub fn pair(canonical: &str, human: &str) -> String {
    if canonical == human {
        canonical.to_string()
    } else {
        format!("{human} ({canonical})")
    }
}

/// The game as `viewer` may see it (`None`: the umpire, who sees everything), opened as a
/// game of `variant` (which carries its piece table) with `options`. A game with nothing
/// hidden is returned as a copy.
pub fn as_seen_by(
    variant: &Variant,
    options: &RuleOptions,
    game: &dyn AnyGame,
    viewer: Option<Color>,
) -> Result<Box<dyn AnyGame>, VariantError> {
    let Some(side) = viewer else {
        return Ok(game.fork());
    };
    let view = game.view_fen(side);
    if view == game.fen() {
        return Ok(game.fork());
    }
    variant.open(Some(&view), options)
}

/// The turns played so far as `viewer` may know them (`None`: the umpire, who knows
/// everything): a player knows their own turns, and of the opponent's what the game lets
/// them know (an Imperial appointment without its square).
pub fn history_seen_by(game: &dyn AnyGame, viewer: Option<Color>) -> Vec<(String, String)> {
    match viewer {
        Some(_) => game.history_seen_by(viewer),
        None => game.history(),
    }
}

/// The last turn played, as `viewer` may know it.
pub fn last_turn_seen_by(game: &dyn AnyGame, viewer: Option<Color>) -> Option<(String, String)> {
    history_seen_by(game, viewer).pop()
}

/// One kind of turn or mark a chess player has not met, with the sentence that explains it.
struct Note {
    variant: &'static str,
    key: &'static str,
    /// Whether a turn's (canonical, human) text shows it.
    shows: fn(&str, &str) -> bool,
    text: &'static str,
}

/// Notes on the notation of the games, shown the first time each kind appears. (When the
/// games describe their turns' kinds themselves, these key on the kind instead of the text.)
const NOTES: &[Note] = &[
    Note {
        variant: "cypher",
        key: "combined",
        shows: |c, _| c.contains('/'),
        text: "a combined move (Sb8/Nb10, canonical d0-d4/b3-z3): the Spy leaves Court and, in the same turn, one major piece enters an empty Court square (docs/rules/cypher.md §9)",
    },
    Note {
        variant: "cypher",
        key: "infiltration",
        shows: |c, _| c.contains('*'),
        text: "infiltration (Kb5**Rd10, canonical e4-e5*a1-d10): a King landing on the Border sends a Queen, Rook, Bishop or Knight straight to d0 or d10, capturing whatever enemy stands there; once per game (docs/rules/cypher.md §12)",
    },
    Note {
        variant: "cypher",
        key: "coup",
        shows: |c, _| c.contains('('),
        text: "a coup d'etat (e9(Qz6)): a pawn reaching its last Field rank leaves the board and the opponent's highest man (not King or Spy) changes sides where it stands (docs/rules/cypher.md §13)",
    },
    Note {
        variant: "cypher",
        key: "release",
        shows: |c, _| c.starts_with("P@") || c.starts_with("p@"),
        text: "a prisoner release (PRc5, canonical P@c5): instead of moving, a player not in check puts one of their captured pawns back on an empty Border square; the prisoner pools under the board count each side's captured pawns not yet released (docs/rules/cypher.md §14)",
    },
    Note {
        variant: "cypher",
        key: "flip",
        shows: |_, h| h.ends_with("(flip)") || h.ends_with("++"),
        text: "(flip) marks a turn that ends the game by a flip: a King and a Spy meet (lined up in Court, or side by side) and one side wins at once; the rulebook writes it ++, which is not a double check (docs/rules/cypher.md §11)",
    },
    Note {
        variant: "cypher",
        key: "four-checks",
        shows: |_, h| h.ends_with("//"),
        text: "// marks a turn that ends the game by the 4-check rule (docs/rules/cypher.md §16)",
    },
];

/// Which notes a player has been shown, so each is shown once.
#[derive(Clone, Debug, Default)]
pub struct Notes {
    shown: Vec<&'static str>,
}

impl Notes {
    /// Nothing shown yet.
    pub fn new() -> Self {
        Notes::default()
    }

    /// The notes not shown before for turns with these texts, in `variant`; they count as
    /// shown from now on.
    pub fn for_turns<'a>(
        &mut self,
        variant: &str,
        turns: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Vec<&'static str> {
        let turns: Vec<(&str, &str)> = turns.into_iter().collect();
        let mut out = Vec::new();
        for n in NOTES.iter().filter(|n| n.variant == variant) {
            if !self.shown.contains(&n.key) && turns.iter().any(|(c, h)| (n.shows)(c, h)) {
                self.shown.push(n.key);
                out.push(n.text);
            }
        }
        out
    }
}

/// A key of the board's letters (`K King, Q Queen, ...`) for games whose pieces are a
/// table of their own (Little Cheops); `None` for games with the usual chess letters.
pub fn letter_key(variant: &str) -> Option<String> {
    let lines = menagerie_variants::piece_help(variant, None).ok()??;
    let names: Vec<String> = lines
        .iter()
        .skip(1)
        .filter_map(|l| {
            let (letter, rest) = l.split_once(char::is_whitespace)?;
            let name: Vec<&str> = rest
                .split_whitespace()
                .take_while(|w| w.chars().next().is_some_and(char::is_uppercase) && w.len() > 2)
                .collect();
            (!name.is_empty()).then(|| format!("{letter} {}", name.join(" ")))
        })
        .collect();
    (!names.is_empty()).then(|| {
        format!(
            "key: {} (upper case White, lower case Black; docs/rules/little-cheops.md §3)",
            names.join(", ")
        )
    })
}

/// Example turns of this game for prompts and help: a canonical text and a human text
/// (different from it where the game has both), taken from the turns legal in `game`.
pub fn examples(game: &dyn AnyGame) -> (String, Option<String>) {
    let moves = game.legal_moves_with_human();
    // Prefer a plain one-word move, the kind a newcomer types first.
    let plain = |h: &str| !h.contains(char::is_whitespace);
    let ordinary = |c: &str| c.chars().all(|ch| ch.is_alphanumeric() || ch == '-');
    let pick = moves
        .iter()
        .find(|(c, h)| c != h && plain(h) && ordinary(c))
        .or_else(|| moves.iter().find(|(c, h)| plain(h) && ordinary(c)))
        .or_else(|| moves.iter().find(|(c, _)| ordinary(c)))
        .or_else(|| moves.first());
    // A human example is offered only if the game reads it back as the same turn.
    let reads_back = |c: &str, h: &str| game.fork().push(h).is_ok_and(|(got, _)| got == c);
    match pick {
        Some((c, h)) if c != h && reads_back(c, h) => (c.clone(), Some(h.clone())),
        Some((c, _)) => (c.clone(), None),
        None => (String::new(), None),
    }
}

/// The sentence telling a player how to type a turn of this game.
pub fn how_to_type(game: &dyn AnyGame) -> String {
    match examples(game) {
        (c, _) if c.is_empty() => "a move in the game's notation".to_string(),
        (c, Some(h)) => format!("a move (canonical like {c} or human like {h})"),
        (c, None) => format!("a move (like {c})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples_come_from_the_game() {
        let open = |id: &str| {
            menagerie_variants::find(id)
                .expect("a variant")
                .open(None, &RuleOptions::new())
                .expect("the start")
        };
        let chess = open("chess");
        let (c, h) = examples(chess.as_ref());
        assert!(chess.legal_moves().contains(&c));
        assert!(h.is_some());
        let vyrt = open("vyrt");
        let (c, h) = examples(vyrt.as_ref());
        assert!(vyrt.legal_moves().contains(&c), "{c}");
        assert_eq!(h, None, "Vyrt writes its moves one way");
        assert_eq!(pair("A2-A3", "A2-A3"), "A2-A3");
        let mut notes = Notes::new();
        assert_eq!(notes.for_turns("cypher", [("d3-d5", "d5")]).len(), 0);
        assert_eq!(notes.for_turns("cypher", [("P@c5", "PRc5")]).len(), 1);
        assert_eq!(notes.for_turns("cypher", [("P@c5", "PRc5")]).len(), 0);
        assert_eq!(notes.for_turns("chess", [("e2e4", "e4++")]).len(), 0);
        assert_eq!(notes.for_turns("cypher", [("d0-d1", "Sd1(flip)")]).len(), 1);
        assert_eq!(pair("e2e4", "e4"), "e4 (e2e4)");
    }
}
