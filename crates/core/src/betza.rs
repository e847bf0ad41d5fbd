//! Piece movement as data: the Betza subset defined in the Little Cheops rulebook (§5).
//!
//! Atoms `W F D N A`; a doubled atom is a rider; shorthands `R B Q K`; modifiers `m` (move
//! only), `c` (capture only), `p` (hop over one screen, riders only) and the direction
//! letters `f b l r v s` with the pairs `fl fr bl br`. Offsets are stored as White sees them;
//! [`Component::offsets_for`] turns them half a turn for Black.

use crate::error::BetzaError;
use crate::geometry::Offset;
use crate::position::Color;

/// Which kinds of arrival a component allows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// Moves to empty squares and captures.
    Both,
    /// Moves to empty squares only (`m`).
    MoveOnly,
    /// Captures only (`c`).
    CaptureOnly,
}

impl Mode {
    /// Whether the component may end on an empty square.
    pub fn moves(self) -> bool {
        self != Mode::CaptureOnly
    }
    /// Whether the component may capture.
    pub fn captures(self) -> bool {
        self != Mode::MoveOnly
    }
}

/// One part of a piece's moves: a set of offsets used as a leap or a ride.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Component {
    /// The atom letter (`W F D N A`).
    pub atom: char,
    /// The selected offsets, as White sees them.
    pub offsets: Vec<Offset>,
    /// Repeats the offset along a line while the squares are empty.
    pub rider: bool,
    /// Hops exactly one screen on its line (`p`).
    pub hopper: bool,
    /// Move, capture or both.
    pub mode: Mode,
}

impl Component {
    /// The offsets for a piece of `color` (Black's are White's turned half a turn).
    pub fn offsets_for(&self, color: Color) -> Vec<Offset> {
        match color {
            Color::White => self.offsets.clone(),
            Color::Black => self.offsets.iter().map(|o| o.flipped()).collect(),
        }
    }
}

/// A piece's whole move definition, parsed from Betza text.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PieceMoves {
    /// The text it was read from.
    pub text: String,
    /// Its components, in the order written (a shorthand gives one per part).
    pub components: Vec<Component>,
}

fn atom_base(atom: char) -> Option<(i8, i8)> {
    Some(match atom {
        'W' => (1, 0),
        'F' => (1, 1),
        'D' => (2, 0),
        'N' => (2, 1),
        'A' => (2, 2),
        _ => return None,
    })
}

/// Every offset obtained from `(a, b)` by changing signs and swapping, without repeats.
pub fn symmetric_offsets(a: i8, b: i8) -> Vec<Offset> {
    let mut out: Vec<Offset> = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        for (sx, sy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let o = Offset::new(x * sx, y * sy);
            if !out.contains(&o) {
                out.push(o);
            }
        }
    }
    out
}

#[derive(Clone, Copy)]
enum Dir {
    One(char),
    Pair(char, char),
}

fn selects(d: Dir, o: Offset) -> bool {
    let one = |c: char| match c {
        'f' => o.dy > 0,
        'b' => o.dy < 0,
        'l' => o.dx < 0,
        'r' => o.dx > 0,
        'v' => o.dy.abs() > o.dx.abs(),
        's' => o.dx.abs() > o.dy.abs(),
        _ => false,
    };
    match d {
        Dir::One(c) => one(c),
        Dir::Pair(a, b) => one(a) && one(b),
    }
}

impl PieceMoves {
    /// Reads a Betza definition, or says what is wrong with it.
    pub fn parse(text: &str) -> Result<Self, BetzaError> {
        let err = |message: String| BetzaError {
            text: text.to_string(),
            message,
        };
        let chars: Vec<char> = text.chars().collect();
        if chars.is_empty() {
            return Err(err("the definition is empty".into()));
        }
        let mut components = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            let (mut m, mut c, mut p) = (false, false, false);
            let mut dirs: Vec<Dir> = Vec::new();
            while i < chars.len() && chars[i].is_ascii_lowercase() {
                let ch = chars[i];
                match ch {
                    'm' => m = true,
                    'c' => c = true,
                    'p' => p = true,
                    'f' | 'b' => {
                        if matches!(chars.get(i + 1), Some('l') | Some('r')) {
                            dirs.push(Dir::Pair(ch, chars[i + 1]));
                            i += 1;
                        } else {
                            dirs.push(Dir::One(ch));
                        }
                    }
                    'l' | 'r' | 'v' | 's' => dirs.push(Dir::One(ch)),
                    other => {
                        return Err(err(format!("'{other}' is not a modifier of this subset")))
                    }
                }
                i += 1;
            }
            let Some(&atom) = chars.get(i) else {
                return Err(err("a run of modifiers has no atom after it".into()));
            };
            i += 1;
            // (atom, rider) parts of this component.
            let parts: Vec<(char, bool)> = match atom {
                'W' | 'F' | 'D' | 'N' | 'A' => {
                    let rider = chars.get(i) == Some(&atom);
                    if rider {
                        i += 1;
                    }
                    vec![(atom, rider)]
                }
                'R' | 'B' | 'Q' | 'K' => {
                    if chars.get(i) == Some(&atom) {
                        return Err(err(format!("the shorthand '{atom}' cannot be doubled")));
                    }
                    match atom {
                        'R' => vec![('W', true)],
                        'B' => vec![('F', true)],
                        'Q' => vec![('W', true), ('F', true)],
                        _ => vec![('W', false), ('F', false)],
                    }
                }
                other => return Err(err(format!("'{other}' is not an atom of this subset"))),
            };
            if p && parts.iter().any(|&(_, rider)| !rider) {
                return Err(err(format!("'p' needs a rider, but '{atom}' is a leaper")));
            }
            let mode = match (m, c) {
                (true, false) => Mode::MoveOnly,
                (false, true) => Mode::CaptureOnly,
                _ => Mode::Both,
            };
            let mut selected_any = false;
            for (a, rider) in parts {
                let (x, y) = atom_base(a).unwrap_or((1, 0));
                let offsets: Vec<Offset> = symmetric_offsets(x, y)
                    .into_iter()
                    .filter(|&o| dirs.is_empty() || dirs.iter().any(|&d| selects(d, o)))
                    .collect();
                if offsets.is_empty() {
                    continue;
                }
                selected_any = true;
                components.push(Component {
                    atom: a,
                    offsets,
                    rider,
                    hopper: p,
                    mode,
                });
            }
            if !selected_any {
                return Err(err(format!(
                    "the direction letters before '{atom}' select no offset"
                )));
            }
        }
        Ok(PieceMoves {
            text: text.to_string(),
            components,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offs(c: &Component) -> Vec<(i8, i8)> {
        let mut v: Vec<_> = c.offsets.iter().map(|o| (o.dx, o.dy)).collect();
        v.sort();
        v
    }

    #[test]
    fn pawn_master_and_prime_minister() {
        let pawn = PieceMoves::parse("mfWcfF").unwrap();
        assert_eq!(pawn.components.len(), 2);
        assert_eq!(offs(&pawn.components[0]), [(0, 1)]);
        assert_eq!(pawn.components[0].mode, Mode::MoveOnly);
        assert_eq!(offs(&pawn.components[1]), [(-1, 1), (1, 1)]);
        assert_eq!(pawn.components[1].mode, Mode::CaptureOnly);
        let black: Vec<_> = pawn.components[0].offsets_for(Color::Black);
        assert_eq!(black, [Offset::new(0, -1)]);

        let master = PieceMoves::parse("mRcpR").unwrap();
        assert_eq!(master.components.len(), 2);
        assert!(master.components[1].hopper && master.components[1].rider);
        assert_eq!(master.components[1].mode, Mode::CaptureOnly);

        let pm = PieceMoves::parse("BN").unwrap();
        assert!(pm.components[0].rider);
        assert_eq!(pm.components[1].offsets.len(), 8);
        assert!(!pm.components[1].rider);

        let nightrider = PieceMoves::parse("NN").unwrap();
        assert!(nightrider.components[0].rider);
        let king = PieceMoves::parse("K").unwrap();
        assert_eq!(
            king.components
                .iter()
                .map(|c| c.offsets.len())
                .sum::<usize>(),
            8
        );
    }

    #[test]
    fn directions_and_pairs() {
        let c = PieceMoves::parse("flF").unwrap();
        assert_eq!(offs(&c.components[0]), [(-1, 1)]);
        let v = PieceMoves::parse("vN").unwrap();
        assert_eq!(offs(&v.components[0]), [(-1, -2), (-1, 2), (1, -2), (1, 2)]);
        let fw_lw = PieceMoves::parse("fWlW").unwrap();
        assert_eq!(fw_lw.components.len(), 2);
    }

    #[test]
    fn errors_name_the_fault() {
        for bad in ["", "flW", "pN", "pK", "RR", "mX", "fm", "W1", "xW"] {
            let e = PieceMoves::parse(bad).unwrap_err();
            assert_eq!(e.text, bad);
            assert!(!e.message.is_empty());
        }
    }
}
