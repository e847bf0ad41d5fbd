#!/usr/bin/env python3
"""Positions for training the chess network, nearer to those our own search evaluates than
Stockfish's games: our engine plays itself at a small node count from random openings (with
an occasional random move), and beside each position of its games come positions one or two
random moves further on (the poor moves a search tries). Each position not in check where
the side to move has no capture that plainly wins material (no promotion, no capture of a
more valuable or undefended piece: where quiescence would stand pat) is written with
Stockfish's static evaluation from the side to move's view.

Usage: search_positions.py SEED GAMES OUT [ENGINE] (lines `FEN;score` appended to OUT, read
by the `train_nnue` example; ENGINE defaults to `target/release/menagerie`). Needs
python-chess (`pip install chess`) and Stockfish at /usr/games/stockfish."""
import random, subprocess, sys

import chess

VALUE = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9,
         chess.KING: 100}


class Uci:
    def __init__(self, cmd):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send('uci')
        self.until('uciok')

    def send(self, s):
        self.p.stdin.write(s + '\n')
        self.p.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit('engine died: %s' % self.p.args)
            lines.append(line.rstrip('\n'))
            if line.startswith(prefix):
                return lines


def plainly_wins_material(board):
    """Whether the side to move has a promotion or a capture of a more valuable or an
    undefended piece."""
    them = not board.turn
    for mv in board.legal_moves:
        if mv.promotion:
            return True
        if board.is_capture(mv):
            if board.is_en_passant(mv):
                continue
            victim = board.piece_type_at(mv.to_square)
            attacker = board.piece_type_at(mv.from_square)
            if VALUE[victim] > VALUE[attacker] or not board.is_attacked_by(them, mv.to_square):
                return True
    return False


def main():
    seed, games, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    engine = sys.argv[4] if len(sys.argv) > 4 else 'target/release/menagerie'
    rng = random.Random(seed)
    ours = Uci([engine, 'uci'])
    sf = Uci(['/usr/games/stockfish'])
    f = open(out, 'a')

    def write(board):
        if board.is_check() or board.is_game_over() or plainly_wins_material(board):
            return
        fen = board.fen()
        sf.send('position fen ' + fen)
        sf.send('eval')
        final = sf.until('Final evaluation')[-1].split()
        try:
            white = round(float(final[2]) * 100)
        except (IndexError, ValueError):
            return
        f.write('%s;%d\n' % (fen, white if board.turn == chess.WHITE else -white))

    for _ in range(games):
        board = chess.Board()
        ours.send('ucinewgame')
        opening = rng.randint(6, 12)
        for ply in range(300):
            if board.is_game_over(claim_draw=True):
                break
            legal = list(board.legal_moves)
            if ply < opening or rng.random() < 0.03:
                board.push(rng.choice(legal))
                continue
            write(board)
            # One or two random moves further on: the poor moves a search looks at.
            for depth in (1, 2):
                if rng.random() < 0.6:
                    side = board.copy(stack=False)
                    for _ in range(depth):
                        moves = list(side.legal_moves)
                        if not moves:
                            break
                        side.push(rng.choice(moves))
                    write(side)
            ours.send('position fen ' + board.fen())
            ours.send('go nodes %d' % rng.randint(1000, 4000))
            best = ours.until('bestmove')[-1].split()[1]
            try:
                board.push_uci(best)
            except ValueError:
                break
        f.flush()
    ours.send('quit')
    sf.send('quit')


main()
