#!/usr/bin/env python3
"""Where a chess match was lost: every position of a `menagerie match --pgn` file is scored
by Stockfish at a fixed node count, and each player's losses (centipawns the move played
gave away, from the mover's view, scores clipped to +-10 pawns) are summed by phase.
Needs python-chess (`pip install chess`) and /usr/games/stockfish.
Usage: match_errors.py GAMES.pgn [NODES] (default 30000 nodes a position). Prints the
mean loss a move by phase for A and B, each game's first ply where A stood 1.5 pawns
worse, and A's moves that lost a pawn or more from a position within 3 pawns of equal,
each with its FEN (to replay with `menagerie analyse chess --fen`)."""
import collections, sys
import chess, chess.engine, chess.pgn


def clip(x):
    return max(-1000, min(1000, x))


def main():
    path = sys.argv[1]
    nodes = int(sys.argv[2]) if len(sys.argv) > 2 else 30000
    sf = chess.engine.SimpleEngine.popen_uci('/usr/games/stockfish')
    sf.configure({'Threads': 1, 'Hash': 64})
    rows = []
    with open(path) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            a_white = game.headers.get('White') == 'A'
            board = game.board()
            moves = list(game.mainline_moves())
            scores = []  # from the side to move's view
            for i in range(len(moves) + 1):
                if board.is_game_over():
                    o = board.outcome()
                    scores.append(0 if o.winner is None else -10000)
                else:
                    info = sf.analyse(board, chess.engine.Limit(nodes=nodes))
                    scores.append(info['score'].pov(board.turn).score(mate_score=10000))
                fen, pieces = board.fen(), len(board.piece_map())
                if i < len(moves):
                    white_moves = board.turn == chess.WHITE
                    rows.append(dict(game=game.headers.get('Round'), ply=i + 1,
                                     who='A' if white_moves == a_white else 'B',
                                     fen=fen, pieces=pieces, move=moves[i].uci()))
                    board.push(moves[i])
            for k, r in enumerate(rows[len(rows) - len(moves):]):
                r['before'], r['after'] = clip(scores[k]), clip(-scores[k + 1])
            print(f"game {game.headers.get('Round')} scored", file=sys.stderr, flush=True)
    sf.quit()

    def phase(r):
        if r['ply'] <= 20:
            return 'opening (plies 1-20)'
        if r['pieces'] > 20:
            return 'middlegame (over 20 pieces)'
        return 'late middlegame (13-20)' if r['pieces'] > 12 else 'ending (12 or fewer)'
    print('mean centipawns lost a move from positions within 4 pawns of equal (moves, mean, moves losing 100 or more):')
    for who in 'AB':
        total, count, big = collections.Counter(), collections.Counter(), collections.Counter()
        for r in rows:
            if r['who'] != who or abs(r['before']) > 400:
                continue
            loss = max(0, r['before'] - r['after'])
            total[phase(r)] += loss
            count[phase(r)] += 1
            big[phase(r)] += loss >= 100
        for p in sorted(count):
            print(f'  {who} {p}: {count[p]} moves, {total[p] / count[p]:.1f}, {big[p]}')
    print("first ply where A stood 150 cp or more worse, by game:")
    for g in dict.fromkeys(r['game'] for r in rows):
        worse = [r['ply'] for r in rows if r['game'] == g and
                 (r['before'] if r['who'] == 'A' else -r['before']) <= -150]
        print(f'  game {g}: {worse[0] if worse else "never"}')
    print("A's moves losing 100 cp or more from within 300 cp of equal (game ply move before after FEN):")
    for r in rows:
        if r['who'] == 'A' and abs(r['before']) < 300 and r['before'] - r['after'] >= 100:
            print(f"  {r['game']} {r['ply']} {r['move']} {r['before']} {r['after']} {r['fen']}")


if __name__ == '__main__':
    main()
