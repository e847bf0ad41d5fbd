#!/usr/bin/env python3
"""Positions for tuning the chess evaluation: Stockfish plays itself at a fixed node count from
random openings (with an occasional random move), and each position is written with
Stockfish's search score from the side to move's view. Usage: stockfish_positions.py SEED GAMES OUT [NODES] (lines `FEN;score` appended to OUT,
only positions not in check whose best move is quiet; used by the `tune_chess` example)."""
import random, subprocess, sys

def main():
    seed, games, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    nodes = int(sys.argv[4]) if len(sys.argv) > 4 else 5000
    rng = random.Random(seed)
    sf = subprocess.Popen(['/usr/games/stockfish'], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          text=True, bufsize=1)
    def send(s):
        sf.stdin.write(s + '\n')
    def until(prefix):
        lines = []
        while True:
            l = sf.stdout.readline()
            if not l:
                raise SystemExit('stockfish died')
            lines.append(l.rstrip('\n'))
            if l.startswith(prefix):
                return lines
    send('uci'); until('uciok')
    send('setoption name Hash value 16'); send('isready'); until('readyok')
    f = open(out, 'a')
    for g in range(games):
        moves = []
        send('ucinewgame'); send('isready'); until('readyok')
        seen = {}
        opening = rng.randint(6, 12)
        for ply in range(400):
            send('position startpos moves ' + ' '.join(moves))
            if ply < opening or rng.random() < 0.02:
                send('go perft 1')
                lines = until('Nodes searched')
                legal = [l.split(':')[0] for l in lines if ':' in l and not l.startswith('Nodes')]
                if not legal:
                    break
                moves.append(rng.choice(legal))
                continue
            send('go nodes %d' % nodes)
            lines = until('bestmove')
            best = lines[-1].split()[1]
            if best == '(none)':
                break
            score = None
            for l in lines:
                t = l.split()
                if 'score' in t:
                    i = t.index('score')
                    score = (t[i + 1], int(t[i + 2]))
            send('d')
            dl = until('Checkers:')
            fen = next(l[5:] for l in dl if l.startswith('Fen: '))
            checkers = dl[-1].split(':', 1)[1].strip()
            board = fen.split()[0]
            key = board + fen.split()[1]
            seen[key] = seen.get(key, 0) + 1
            if seen[key] >= 3 or int(fen.split()[4]) >= 100:
                break
            if score is None or score[0] != 'cp':
                break
            # The board as a dict, to tell a capture from a quiet move.
            occ = set()
            for r, row in enumerate(board.split('/')):
                c = 0
                for ch in row:
                    if ch.isdigit():
                        c += int(ch)
                    else:
                        occ.add('abcdefgh'[c] + str(8 - r)); c += 1
            frm, to = best[:2], best[2:4]
            quiet = to not in occ and len(best) == 4
            # A pawn moving diagonally to an empty square takes en passant.
            if quiet and frm[0] != to[0] and fen.split()[3] == to:
                quiet = False
            if not checkers and quiet:
                f.write('%s;%d\n' % (fen, score[1]))
            moves.append(best)
        f.flush()
    send('quit')

main()
