//! Little Cheops (B. Gregory Johnson, 1999), Common (9x9) and Imperial (13x13) styles, as
//! `shared/rules/little-cheops.md` rules them: pieces as data, the Master's screen capture,
//! promotion, abdication, Castles, sealed Deputies, arrests, and the umpire's hidden
//! information with a view for each player.
//!
//! Where each rule is coded (rulebook section -> file):
//!
//! | rulebook | file |
//! |---|---|
//! | §4 pieces, §5 Betza notation (pieces as data) | `pieces.rs`; compiled per game in `rules.rs` |
//! | §6 setups, §14 position strings | `lib.rs` (starts), `fen.rs` |
//! | 7.1 kinds of turn, 7.4 who moves | `position.rs` (`candidates`, `generate`) |
//! | 7.2 moving and capturing, the Master's screen | `moves_and_captures.rs` |
//! | 7.3 jumps (hop chains), 10.5 arrest | `hops.rs` |
//! | 7.5 attack, check and legal turns | `attack_and_check.rs` |
//! | §8 promotion (last rank, in the halls) | `promotion.rs` |
//! | §9 Castles: formation, activation, keeping, Castle Effect, arrestees | `castles.rs` |
//! | §10 Deputies: appointment, inspection, revealed and compromised | `deputies.rs` |
//! | §11 abdication | `abdication.rs` |
//! | §12 end of the game | `endings.rs`, and `outcome` in `lib.rs` |
//! | §13 notation (machine form, recorder notation, reading them) | `notation.rs` |
//! | §15 hidden information: a player's view, what each viewer is told | `view.rs`, `notation.rs` (`seen_texts`) |
//! | §16 order of events inside one turn | `order_of_events.rs` |
//!
//! Readings where the rulebook leaves a point open (each also noted where it is coded):
//! * C2 lists what a bastion of an active Castle may not be (captured, a screen, hopped);
//!   a leap by a piece inside the Castle across its own bastion is allowed (R9's rectangle
//!   rule is C1's, and C1 does not apply inside).
//! * A rider of `D`, `N` or `A` passes over each leg's rectangle and its landing squares.
//! * The rooms an arrest may use are judged after steps 2 to 4 of §16 (so a Deputy that was
//!   its Castle's activator and hops off the chair cannot arrest into it).
//! * A Deputy whose Betza differs from the Civilian's is compromised by any step a Civilian
//!   on its square could not make (10.3); with such a table R41 may no longer hold.
//! * At a third repetition with an abdication available (R36), the core's `Game` can only
//!   report the draw; [`CheopsPosition::repetition_choices`] offers the choice instead.

#![warn(missing_docs)]

mod abdication;
mod attack_and_check;
mod castles;
mod deputies;
mod describe;
mod endings;
pub mod fen;
mod hops;
mod moves_and_captures;
pub mod notation;
mod order_of_events;
pub mod pieces;
pub mod position;
mod promotion;
pub mod rules;
pub mod view;

pub use pieces::{default_pieces, load_pieces, PieceFileError, PieceTable, DEFAULT_PIECES};
pub use position::{Castle, CheopsMove, CheopsPosition, LetterBoard, TurnKind};
pub use rules::{Settings, Style};
pub use view::PlayerView;

use menagerie_core::{
    BitBoard, Color, Geometry, MoveError, Outcome, Position, PositionError, RuleOption,
    RuleOptions, Square, Termination, VariantSpec,
};
use position::{cell_color, cell_role, sqb};
use rules::Rules;

/// The rule options the rulebook names as alternatives (defaults first).
pub const OPTIONS: &[RuleOption] = &[
    RuleOption {
        name: "leap-passes",
        values: &["rectangle", "landing-only"],
        help: "a D, N or A leap is stopped by an active Castle anywhere in its rectangle, or only by landing in it (guide §14)",
    },
    RuleOption {
        name: "repetition",
        values: &["third", "fourth"],
        help: "the occurrence of the same umpire position that draws (guide §11)",
    },
    RuleOption {
        name: "challenge-count",
        values: &["50-rounds", "50-turns"],
        help: "how long a challenge to mate runs without a Pawn move, capture or arrest (guide §11)",
    },
];

/// Reads the rule options into settings, after checking them against [`OPTIONS`].
pub fn settings_from(options: &RuleOptions) -> Result<Settings, PositionError> {
    options
        .validate(OPTIONS)
        .map_err(|e| PositionError::new("rule options", e.to_string()))?;
    Ok(Settings {
        leap_landing_only: options.get("leap-passes", "rectangle") == "landing-only",
        fourth_repetition: options.get("repetition", "third") == "fourth",
        challenge_turns: if options.get("challenge-count", "50-rounds") == "50-turns" {
            50
        } else {
            100
        },
    })
}

/// The Common start position (§6.1; the Civilians' squares are provisional).
pub const COMMON_START: &str = "tnnqkeiit/ppppppppp/9/2c3c2/9/2C3C2/9/PPPPPPPPP/TIIEKQNNT w 0 1";
/// The Imperial development setup (§6.2, provisional), umpire string.
pub const IMPERIAL_START: &str = "tnnouqkedbiit/ppppppppppppp/2m1a3a1m2/3c5c3/13/13/13/13/13/3C5C3/2M1A3A1M2/PPPPPPPPPPPPP/TIIBDEKQUONNT w - - 0 1 -";

impl CheopsPosition {
    /// Reads a position string of `style` with the built-in pieces and default rules.
    pub fn from_fen(style: Style, fen: &str) -> Result<Self, PositionError> {
        Self::parse_fen(rules::default_rules(style, Settings::default()), fen)
    }

    /// Reads a position string of `style` under rule options, with the built-in pieces.
    pub fn from_fen_with_options(
        style: Style,
        fen: &str,
        options: &RuleOptions,
    ) -> Result<Self, PositionError> {
        let settings = settings_from(options)?;
        Self::parse_fen(rules::default_rules(style, settings), fen)
    }

    /// Reads a position string of `style` played with the piece table `pieces` (for
    /// `--pieces <file>`), under rule options.
    pub fn from_fen_with_pieces(
        style: Style,
        fen: &str,
        pieces: &PieceTable,
        options: &RuleOptions,
    ) -> Result<Self, PositionError> {
        let settings = settings_from(options)?;
        Self::parse_fen(rules::rules_for(style, pieces, settings), fen)
    }

    /// The start position of `style`.
    pub fn start(style: Style) -> Self {
        let fen = match style {
            Style::Common => COMMON_START,
            Style::Imperial => IMPERIAL_START,
        };
        match Self::from_fen(style, fen) {
            Ok(p) => p,
            // The start strings are constants checked by the tests.
            Err(e) => panic!("the start position does not parse: {e}"),
        }
    }

    /// The style of play.
    pub fn style(&self) -> Style {
        self.rules.style
    }

    /// The legal moves as a new vector.
    pub fn moves(&self) -> Vec<CheopsMove> {
        let mut v = Vec::new();
        self.legal_moves(&mut v);
        v
    }

    /// The legal moves in machine form, sorted.
    pub fn move_texts(&self) -> Vec<String> {
        let mut v: Vec<String> = self.moves().iter().map(|m| self.machine_text(m)).collect();
        v.sort();
        v
    }

    /// The halfmove clock: turns since the last capture, arrest or Pawn move.
    pub fn halfmove(&self) -> u32 {
        self.halfmove
    }

    /// The round number.
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }

    /// The squares of the known Deputies (revealed or compromised).
    pub fn known_deputies(&self) -> Vec<Square> {
        self.known.iter().collect()
    }

    /// The squares of the sealed Deputies (the umpire's papers).
    pub fn papers(&self) -> Vec<Square> {
        self.papers.iter().collect()
    }

    /// What `player` may see: the public string, that player's own papers, and the turns
    /// offered, computed without the opponent's secret (§15, R41).
    pub fn view(&self, player: Color) -> PlayerView {
        PlayerView::new(self, player)
    }

    /// Perft with bulk counting of the last ply.
    pub fn perft_count(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut buffers: Vec<Vec<CheopsMove>> =
            (0..depth).map(|_| Vec::with_capacity(128)).collect();
        perft_walk(self, depth, &mut buffers)
    }

    fn describe_castle(&self, c: &Castle) -> String {
        let r: &Rules = &self.rules;
        let corners: Vec<String> = r
            .corners(c.chair as usize)
            .iter()
            .map(|&s| r.name(s))
            .collect();
        let mut s = format!(
            "Castle {}: bastions {}",
            r.name(c.chair as usize),
            corners.join(" ")
        );
        if c.active {
            s.push_str(&format!(
                "; active, held by {} (activator on {})",
                c.owner.name(),
                r.name(c.activator as usize)
            ));
            let arrestees: Vec<String> = r
                .halls(c.chair as usize)
                .iter()
                .filter(|&&h| self.frozen.has(sqb(h)) && !self.bastions.has(sqb(h)))
                .map(|&h| {
                    format!(
                        "{} {}",
                        r.table.def(cell_role(self.board[h])).name(),
                        r.name(h)
                    )
                })
                .collect();
            if !arrestees.is_empty() {
                s.push_str(&format!("; arrestees: {}", arrestees.join(", ")));
            }
            let entitled: Vec<String> = r
                .halls(c.chair as usize)
                .iter()
                .enumerate()
                .filter(|(i, _)| c.entitled & (1 << i) != 0)
                .map(|(_, &h)| r.name(h))
                .collect();
            if !entitled.is_empty() {
                s.push_str(&format!(
                    "; Pawns entitled to promote: {}",
                    entitled.join(" ")
                ));
            }
        } else {
            s.push_str("; inactive");
        }
        s
    }
}

fn perft_walk(pos: &CheopsPosition, depth: u32, buffers: &mut [Vec<CheopsMove>]) -> u64 {
    let Some((moves, rest)) = buffers.split_first_mut() else {
        return 1;
    };
    moves.clear();
    pos.generate(moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for mv in moves.iter() {
        let mut next = pos.clone();
        next.apply(mv);
        total += perft_walk(&next, depth - 1, rest);
    }
    total
}

impl std::fmt::Debug for CheopsPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CheopsPosition({})", self.umpire_fen())
    }
}

impl Position for CheopsPosition {
    type Move = CheopsMove;

    fn rule_draw(&self) -> bool {
        self.minimal_strength()
    }
    fn hidden_view(&self, player: Color) -> Option<Self> {
        (self.style() == Style::Imperial).then(|| self.view(player).into_position())
    }
    fn hypotheses(&self) -> Vec<Self> {
        self.sealed_hypotheses()
    }
    fn key_under(&self, hypothesis: &Self) -> u64 {
        // The hypothesis's sealed papers of the opponent, as if they had been there all
        // along: a position of the game repeats under it only with the same board, and then
        // the same Civilians carry them (unless the opponent appointed in between, which
        // the view cannot tell).
        let opponent = hypothesis.turn().other();
        let secret = hypothesis.papers & hypothesis.occ[opponent.index()];
        if secret.is_empty() {
            return self.key();
        }
        let mut with = self.clone();
        with.papers |= secret;
        with.key()
    }

    fn variant(&self) -> &'static str {
        self.rules.style.id()
    }
    fn geometry(&self) -> &Geometry {
        &self.rules.geometry
    }
    fn turn(&self) -> Color {
        self.turn
    }
    fn legal_moves(&self, moves: &mut Vec<CheopsMove>) {
        self.generate(moves);
    }
    fn legal_noisy_moves(&self, moves: &mut Vec<CheopsMove>) -> bool {
        self.generate_noisy(moves)
    }
    fn play(&mut self, mv: CheopsMove) {
        self.apply(&mv);
    }
    fn is_check(&self) -> bool {
        self.in_check(self.turn)
    }
    #[inline]
    fn may_give_check(&self, mv: CheopsMove) -> bool {
        CheopsPosition::may_give_check(self, &mv)
    }
    fn quick_outcome(&self) -> Option<Option<Color>> {
        // A draw accepted at a repetition (R36) has ended the game; searches see it here.
        self.draw_accepted.then_some(None)
    }
    fn outcome(&self) -> Option<Outcome> {
        if self.draw_accepted {
            return Some(Outcome::draw(Termination::Repetition));
        }
        let mut moves = Vec::new();
        self.generate(&mut moves);
        if !moves.is_empty() {
            return None;
        }
        Some(if self.in_check(self.turn) {
            Outcome::win(self.turn.other(), Termination::Checkmate)
        } else {
            Outcome::draw(Termination::rule(
                "deadlock",
                "deadlock: the side to move is not in check and has no legal turn",
            ))
        })
    }
    fn outcome_in_play(&self, repetitions: usize) -> Option<Outcome> {
        if let Some(o) = self.outcome() {
            return Some(o);
        }
        let limit = if self.rules.settings.fourth_repetition {
            4
        } else {
            3
        };
        // R36 lets a side with an abdication available choose it instead of the draw; the
        // core's Game cannot offer that choice, so front ends use `repetition_choices`.
        if repetitions >= limit {
            return Some(Outcome::draw(Termination::Repetition));
        }
        if self.minimal_strength() {
            return Some(Outcome::draw(Termination::rule(
                "minimal-strength",
                "minimal strength: neither side has anything but its King, Civilians, Deputies and bastions",
            )));
        }
        None
    }
    fn key(&self) -> u64 {
        // A hash of everything the repetition rule compares (R36): board, side, Castles,
        // known Deputies, papers; the clocks are left out. Eight bytes at a time: the search
        // asks for it at every node.
        let h = 0xcbf2_9ce4_8422_2325 ^ self.turn as u64;
        let mut h = self.mix_board_words(h, |w| w);
        for c in self.castles() {
            let w = u64::from_le_bytes([
                c.chair,
                c.active as u8,
                c.owner as u8,
                c.activator,
                c.entitled,
                1,
                0,
                0,
            ]);
            h = position::hash_mix(h, w);
        }
        for set in [self.known, self.papers] {
            for w in set.0 {
                h = position::hash_mix(h, w);
            }
        }
        position::board_hash(h)
    }
    fn fen(&self) -> String {
        self.umpire_fen()
    }
    fn move_text(&self, mv: CheopsMove) -> String {
        self.machine_text(&mv)
    }
    fn move_human(&self, mv: CheopsMove) -> String {
        self.recorder_action(&mv)
    }
    fn move_seen_by(&self, mv: CheopsMove, viewer: Option<Color>) -> (String, String) {
        self.seen_texts(&mv, viewer)
    }
    fn parse_move(&self, text: &str) -> Result<CheopsMove, MoveError> {
        self.read_move(text)
    }
    fn piece_char(&self, sq: Square) -> Option<char> {
        let c = *self.board.get(sq.index())?;
        (c != 0).then(|| self.letter(c))
    }
    fn is_noisy(&self, mv: CheopsMove) -> bool {
        match mv.kind {
            TurnKind::Move => mv.promo != position::NONE || self.board[mv.to as usize] != 0,
            TurnKind::HallPromotion => true,
            TurnKind::Hop => mv.arrest_room().is_some(),
            _ => false,
        }
    }
    fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }
    fn empty_glyph(&self, sq: Square) -> char {
        let s = sq.index();
        for c in self.castles() {
            let chair = c.chair as usize;
            if s == chair {
                return if c.active { '*' } else { 'o' };
            }
            if self.in_halls(chair, s) {
                return if c.active { '+' } else { ':' };
            }
        }
        '.'
    }
    fn view_fen(&self, player: Color) -> String {
        self.view(player).fen()
    }
    fn diagram_notes(&self) -> Vec<String> {
        let r: &Rules = &self.rules;
        let mut notes = Vec::new();
        for c in self.castles() {
            notes.push(self.describe_castle(c));
        }
        if !self.castles().is_empty() {
            notes.push(
                "Empty squares: * chair and + room of an active Castle, o chair and : room of an inactive one"
                    .into(),
            );
        }
        let name_list = |set: rules::Bits| -> String {
            set.iter()
                .map(|s| r.name(s.index()))
                .collect::<Vec<_>>()
                .join(" ")
        };
        if !self.known.is_empty() {
            notes.push(format!(
                "Known Deputies (shown as C): {}",
                name_list(self.known)
            ));
        }
        if !self.papers.is_empty() {
            notes.push(format!(
                "Sealed papers (secret): {}",
                name_list(self.papers)
            ));
        }
        let provisional = r.table.provisional_names();
        if !provisional.is_empty() {
            notes.push(format!(
                "Provisional pieces (until the published moves are found): {}",
                provisional.join(", ")
            ));
        }
        if let Some(o) = self.outcome() {
            notes.push(format!("Game over: {o}"));
        }
        notes
    }
    fn perft(&self, depth: u32) -> u64 {
        self.perft_count(depth)
    }
    fn turn_shape(&self, mv: CheopsMove) -> menagerie_core::TurnShape {
        self.shape_of(mv)
    }
    fn turn_shape_seen_by(
        &self,
        mv: CheopsMove,
        viewer: menagerie_core::Viewer,
    ) -> menagerie_core::TurnShape {
        self.shape_seen_by(mv, viewer)
    }
    fn piece_info(&self, sq: Square) -> Option<menagerie_core::PieceInfo> {
        self.piece_info_at(sq)
    }
    fn square_marks(&self, sq: Square) -> Vec<menagerie_core::Mark> {
        self.marks_of(sq)
    }
    fn has_secrets(&self) -> bool {
        self.rules.style == Style::Imperial
    }
    fn seen_by(&self, viewer: menagerie_core::Viewer) -> Self {
        self.seen_as(viewer)
    }
    fn choices_instead_of(&self, ending: &Outcome) -> Vec<CheopsMove> {
        self.choices_instead(ending)
    }
    fn claim_rules(&self) -> &'static [menagerie_core::ClaimRule] {
        describe::CLAIMS
    }
    fn claim_outcome(&self, code: &str, turns_since: u32) -> Option<Outcome> {
        self.claim_ending(code, turns_since)
    }
}

/// The colour of the piece on `s`, if any.
pub fn piece_color(pos: &CheopsPosition, s: Square) -> Option<Color> {
    let c = *pos.board.get(s.index())?;
    (c != 0).then(|| cell_color(c))
}

/// The piece table with its status, one line per piece, for help text.
pub fn piece_help(table: &PieceTable) -> Vec<String> {
    let mut lines = vec![format!(
        "Little Cheops pieces (classes: royal, nobility, rook, ...; see the guide, docs/rules/little-cheops.md §3):"
    )];
    lines.extend(table.listing());
    lines
}

fn spec_common(fen: &str, options: &RuleOptions) -> Result<CheopsPosition, PositionError> {
    CheopsPosition::from_fen_with_options(Style::Common, fen, options)
}

fn spec_imperial(fen: &str, options: &RuleOptions) -> Result<CheopsPosition, PositionError> {
    CheopsPosition::from_fen_with_options(Style::Imperial, fen, options)
}

/// Both styles with the built-in pieces, for the variant registry. A game with a custom
/// piece table is opened with [`CheopsPosition::from_fen_with_pieces`]: the table belongs to
/// that game (its positions share it), never to the process.
pub fn variants() -> Vec<VariantSpec<CheopsPosition>> {
    vec![
        VariantSpec {
            id: "little-cheops",
            name: "Little Cheops (Common)",
            summary: "Johnson's flat Cheops on 9x9: Masters capture over a screen, immune Civilians, abdication to a Duke",
            start_fen: COMMON_START,
            options: OPTIONS,
            from_fen: spec_common,
        },
        VariantSpec {
            id: "little-cheops-imperial",
            name: "Little Cheops (Imperial)",
            summary: "Little Cheops on 13x13 with Castles, sealed Deputies, arrests and an umpire",
            start_fen: IMPERIAL_START,
            options: OPTIONS,
            from_fen: spec_imperial,
        },
    ]
}
