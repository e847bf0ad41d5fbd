//! The body of each fuzz target: one input in, panics only on a broken property.

use crate::api::{self, AnyGame, TypedCheck};
use menagerie_core::{Position, RuleOptions, VariantSpec};

/// Node limit of the short searches the checks run.
pub const SEARCH_NODES: u64 = 3_000;

/// The variant and options named by a header line `variant [name=value ...]`; an unknown
/// variant is chosen by the header's bytes, and options a variant refuses are dropped.
pub fn header(line: &str) -> (&'static str, Vec<String>) {
    let ids = api::variant_ids();
    let mut words = line.split_whitespace();
    let first = words.next().unwrap_or("");
    let id = ids
        .iter()
        .copied()
        .find(|id| id.eq_ignore_ascii_case(first))
        .unwrap_or_else(|| {
            let sum: usize = line.bytes().map(usize::from).sum();
            ids[sum % ids.len()]
        });
    let opts: Vec<String> = words.map(str::to_string).collect();
    if api::open(id, None, &opts).is_ok() {
        (id, opts)
    } else {
        (id, Vec::new())
    }
}

/// Splits an input into its header line and the rest.
fn split(data: &[u8]) -> (String, String) {
    let text = String::from_utf8_lossy(data);
    match text.split_once('\n') {
        Some((h, rest)) => (h.to_string(), rest.to_string()),
        None => (String::new(), text.into_owned()),
    }
}

/// Fuzz target `position`: a header line, then a position string. An accepted string must
/// round-trip, its views must read back, every legal turn's canonical and human text must
/// read back to that turn, play then undo must restore the position (and its key, in the
/// typed game), and a short search must end with a legal turn.
pub fn position(data: &[u8]) {
    let (head, body) = split(data);
    let (id, opts) = header(&head);
    let fen = body.trim_end_matches(['\n', '\r']);
    match api::open(id, Some(fen), &opts) {
        Err(e) => assert!(!e.is_empty(), "{id}: an empty error for {fen:?}"),
        Ok(mut game) => {
            accepted_game(id, &opts, game.as_mut());
            typed_position(id, &game.fen(), &opts);
            short_search(id, game.as_mut());
        }
    }
}

/// The round trips every accepted game must satisfy (all but the search).
pub fn accepted_game(id: &str, opts: &[String], game: &mut dyn AnyGame) {
    let fen = game.fen();
    let again = api::open(id, Some(&fen), opts)
        .unwrap_or_else(|e| panic!("{id} {opts:?}: the written string {fen:?} is refused: {e}"));
    assert_eq!(again.fen(), fen, "{id} {opts:?}: round trip of {fen:?}");
    for player in [menagerie_core::Color::White, menagerie_core::Color::Black] {
        let view = game.view_fen(player);
        if let Err(e) = api::open(id, Some(&view), opts) {
            panic!("{id} {opts:?}: {player:?}'s view {view:?} of {fen:?} is refused: {e}");
        }
    }
    let turns = game.legal_moves_with_human();
    let over = game.outcome().is_some();
    for (canonical, human) in &turns {
        for text in [canonical, human] {
            match game.push(text) {
                Ok((c, h)) => {
                    assert_eq!(
                        (&c, &h),
                        (canonical, human),
                        "{id} {opts:?}: {text:?} at {fen:?} reads as another turn"
                    );
                    let after = game.fen();
                    let reopened = api::open(id, Some(&after), opts).unwrap_or_else(|e| {
                        panic!("{id} {opts:?}: {after:?} (after {c} at {fen:?}) is refused: {e}")
                    });
                    assert_eq!(
                        reopened.fen(),
                        after,
                        "{id}: round trip after {c} at {fen:?}"
                    );
                    assert_eq!(game.pop().as_deref(), Some(c.as_str()), "{id}: pop of {c}");
                    assert_eq!(game.fen(), fen, "{id}: play and undo {c} at {fen:?}");
                }
                Err(e) => {
                    // A game already over offers turns it may refuse; nothing else may.
                    assert!(
                        over,
                        "{id} {opts:?}: the offered turn {text:?} at {fen:?} is refused: {e}"
                    );
                    assert_eq!(game.fen(), fen, "{id}: a refused turn changed the position");
                }
            }
        }
    }
}

/// A depth-2 search within [`SEARCH_NODES`] nodes ends with a legal turn when there is one.
pub fn short_search(id: &str, game: &mut dyn AnyGame) {
    let fen = game.fen();
    let legal = game.legal_moves();
    let found = api::search(game, Some(2), Some(SEARCH_NODES), None);
    assert_eq!(game.fen(), fen, "{id}: the search changed the position");
    if game.outcome().is_some() {
        assert_eq!(
            found.best, None,
            "{id}: a search of the finished game {fen:?} chose a turn"
        );
    } else if let Some(best) = &found.best {
        assert!(
            legal.contains(best),
            "{id}: the search at {fen:?} chose {best}, not a legal turn"
        );
    } else {
        assert!(legal.is_empty(), "{id}: no turn chosen at {fen:?}");
    }
}

/// In the typed game: every turn's key after play equals the key of the position re-read
/// from its string, and play then undo (the game's history) restores position and key.
pub fn typed_position(id: &str, fen: &str, opts: &[String]) {
    struct Keys;
    impl TypedCheck<()> for Keys {
        fn run<P: Position>(self, spec: VariantSpec<P>, fen: &str, opts: &RuleOptions) {
            let Ok(pos) = (spec.from_fen)(fen, opts) else {
                panic!(
                    "{}: {fen:?} opens in the registry but not in the typed game",
                    spec.id
                )
            };
            let fresh = (spec.from_fen)(&pos.fen(), opts).ok();
            assert_eq!(
                fresh.map(|p| p.key()),
                Some(pos.key()),
                "{}: key of {fen:?}",
                spec.id
            );
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            let mut game = menagerie_core::Game::new(pos.clone());
            for &m in &moves {
                let mut next = pos.clone();
                next.play(m);
                let text = next.fen();
                let reread = (spec.from_fen)(&text, opts).unwrap_or_else(|e| {
                    panic!(
                        "{}: {text:?} after {} is refused: {e}",
                        spec.id,
                        pos.move_text(m)
                    )
                });
                assert_eq!(
                    reread.key(),
                    next.key(),
                    "{}: incremental key after {} at {fen:?} differs from {text:?}'s",
                    spec.id,
                    pos.move_text(m)
                );
                if game.push(m).is_ok() {
                    assert_eq!(game.position().key(), next.key(), "{}: push", spec.id);
                    game.pop();
                    assert_eq!(game.position().key(), pos.key(), "{}: pop", spec.id);
                    assert_eq!(game.position().fen(), pos.fen(), "{}: pop", spec.id);
                }
            }
        }
    }
    api::with_typed(id, fen, opts, Keys);
}

/// The positions the move-text target starts from, `(variant, position string)`: each
/// variant's start and every rulebook position that opens (read once).
pub fn move_positions() -> &'static [(&'static str, String)] {
    static ALL: std::sync::OnceLock<Vec<(&'static str, String)>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        let mut all = Vec::new();
        for id in api::variant_ids() {
            if let Some(v) = api::variant(id) {
                all.push((id, v.start_fen.to_string()));
            }
        }
        for line in include_str!("../data/positions.txt").lines() {
            if let Some((id, fen)) = line.split_once('\t') {
                if let Some(v) = api::variant(id) {
                    if api::open(v.id, Some(fen), &[]).is_ok() {
                        all.push((v.id, fen.to_string()));
                    }
                }
            }
        }
        all
    })
}

/// Fuzz target `move_text`: byte 0 picks a position, byte 1 how many random turns to play
/// from it (chosen by the next bytes); every line of the rest is tried as a turn. A turn read
/// is one the game offers, with its own text; a refused one leaves the game as it was.
pub fn move_text(data: &[u8]) {
    let positions = move_positions();
    let (Some(&a), Some(&b)) = (data.first(), data.get(1)) else {
        return;
    };
    let (id, fen) = &positions[usize::from(a) % positions.len()];
    let Ok(mut game) = api::open(id, Some(fen), &[]) else {
        return;
    };
    let plies = usize::from(b % 16);
    let mut rest = &data[2..];
    for _ in 0..plies {
        let legal = game.legal_moves();
        let Some((&pick, tail)) = rest.split_first() else {
            break;
        };
        rest = tail;
        if legal.is_empty() || game.outcome().is_some() {
            break;
        }
        let mv = &legal[usize::from(pick) % legal.len()];
        if let Err(e) = game.push(mv) {
            panic!("{id}: the offered {mv} is refused at {}: {e}", game.fen());
        }
    }
    let text = String::from_utf8_lossy(rest);
    let turns = game.legal_moves_with_human();
    let before = game.fen();
    for line in text.lines() {
        match game.push(line) {
            Ok((c, h)) => {
                assert!(
                    turns.contains(&(c.clone(), h.clone())),
                    "{id}: {line:?} at {before:?} read as {c}/{h}, which is not offered"
                );
                assert_eq!(game.pop().as_deref(), Some(c.as_str()));
                assert_eq!(game.fen(), before, "{id}: play and undo of {line:?}");
            }
            Err(e) => {
                assert!(!e.to_string().is_empty(), "{id}: empty error for {line:?}");
                assert_eq!(
                    game.fen(),
                    before,
                    "{id}: the refused {line:?} changed the game"
                );
            }
        }
    }
}

/// Fuzz target `pieces`: byte 0 picks Common or Imperial; the rest is a piece table. An
/// accepted table opens a game whose turns read back and whose short search ends.
pub fn pieces(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let imperial = which % 2 == 1;
    let text = String::from_utf8_lossy(rest);
    let Ok(mut game) = api::open_with_pieces(imperial, &text) else {
        return;
    };
    let id = game.variant();
    let _ = game.perft(2);
    // The turns read back by their text (the round trips of the registry's own pieces).
    let fen = game.fen();
    for (canonical, _) in game.legal_moves_with_human() {
        match game.push(&canonical) {
            Ok((c, _)) => {
                assert_eq!(
                    c, canonical,
                    "{id} with custom pieces: {canonical} at {fen:?}"
                );
                game.pop();
            }
            Err(e) => assert!(
                game.outcome().is_some(),
                "{id} with custom pieces: the offered {canonical} is refused: {e}\n{text}"
            ),
        }
    }
    short_search(id, game.as_mut());
}

/// Fuzz target `record`: a game record is read and replayed, or refused with a sentence;
/// one that replays is written again and reads back to the same game.
pub fn record(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Err(e) = api::record::read_and_replay(&text) {
        assert!(!e.is_empty(), "an empty error for the record {text:?}");
    }
}

/// Fuzz target `uci`: byte 0 picks the variant, the rest is a UCI session (see
/// [`crate::protocols::uci_session`]).
pub fn uci(data: &[u8]) {
    crate::protocols::uci_session(data);
}

/// Fuzz target `xboard`: byte 0 picks the variant, the rest is an XBoard session (see
/// [`crate::protocols::xboard_session`]).
pub fn xboard(data: &[u8]) {
    crate::protocols::xboard_session(data);
}

/// Fuzz target `server`: a few HTTP requests to the whole router in-process (see
/// [`crate::server`]).
pub fn server(data: &[u8]) {
    crate::server::requests(data);
}
