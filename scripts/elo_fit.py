#!/usr/bin/env python3
"""Place players on one Elo scale from several matches (a Bradley-Terry fit).

Used for the levels' tables (docs/engine.md, "The top of Vyrt's table as one ladder"):
single 20-game matches between adjacent levels are noisy, and a match won outright has no
upper bound; fitted together, every match between any two of the players counts.

Each argument is one match, A:B:RESULT, where RESULT is either a CSV written by
`menagerie match --csv` (A is the match's --a) or counts W-D-L (A's wins, draws, losses):

    scripts/elo_fit.py level6:level5:16-2-2 n200k:level6:g76.csv n1M:n200k:g87.csv

The first player named is put at 0. A player every match shows only winning (or only
losing) has no finite place; it is said and left out, and the fit is of the rest.
"""

import csv
import math
import sys


def counts(result):
    """A match's (wins, draws, losses) for A, from W-D-L or from a match's CSV."""
    parts = result.split("-")
    if len(parts) == 3 and all(p.isdigit() for p in parts):
        return tuple(int(p) for p in parts)
    w = d = l = 0
    with open(result, newline="") as f:
        for row in csv.DictReader(f):
            a, b = float(row["points_a"]), float(row["points_b"])
            if a > b:
                w += 1
            elif a < b:
                l += 1
            else:
                d += 1
    return w, d, l


def expected(diff):
    """A's expected score at an Elo difference."""
    return 1.0 / (1.0 + 10.0 ** (-diff / 400.0))


def fit(matches, names):
    """Elo of each name (the first at 0) maximising the games' likelihood."""
    elo = {n: 0.0 for n in names}
    for _ in range(50000):
        grad = {n: 0.0 for n in names}
        for a, b, (w, d, l) in matches:
            games = w + d + l
            surprise = (w + 0.5 * d) - games * expected(elo[a] - elo[b])
            grad[a] += surprise
            grad[b] -= surprise
        step = max(abs(g) for g in grad.values())
        for n in names:
            elo[n] += 2.0 * grad[n]
        first = elo[names[0]]
        for n in names:
            elo[n] -= first
        if step < 1e-6:
            break
    return elo


def main(args):
    if not args:
        print(__doc__.strip())
        return 2
    matches = []
    for arg in args:
        try:
            a, b, result = arg.split(":", 2)
            matches.append((a, b, counts(result)))
        except (ValueError, OSError, KeyError) as e:
            print(f"{arg!r} is not A:B:W-D-L or A:B:FILE.csv ({e})", file=sys.stderr)
            return 2
    names = []
    for a, b, _ in matches:
        for n in (a, b):
            if n not in names:
                names.append(n)
    # Drop, until none is left, players with only wins or only losses: no finite Elo.
    while True:
        score = {n: [0.0, 0] for n in names}
        for a, b, (w, d, l) in matches:
            if a in score and b in score:
                score[a][0] += w + 0.5 * d
                score[a][1] += w + d + l
                score[b][0] += l + 0.5 * d
                score[b][1] += w + d + l
        extreme = [n for n, (s, g) in score.items() if g == 0 or s in (0.0, g)]
        if not extreme:
            break
        for n in extreme:
            print(f"{n}: no finite place (every game it played went one way)")
            names.remove(n)
        matches = [m for m in matches if m[0] in names and m[1] in names]
    if not names:
        return 1
    elo = fit(matches, names)
    for n in sorted(names, key=lambda n: elo[n]):
        print(f"{n:>12} {elo[n]:+7.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
