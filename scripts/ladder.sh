#!/usr/bin/env bash
# The frozen ladder (issue 34): the engine as of a fixed commit (02c7a06 by default) is the
# baseline in every variant. This script builds that commit from git once, into a cache,
# and plays the current engine against it with `menagerie match`: the baseline runs as an
# external UCI engine (`menagerie uci`, which plays every variant through UCI_Variant), the
# openings are paired (each random opening played twice, colours swapped) and a sequential
# test decides when to stop. docs/engine.md, "The frozen ladder", has the figures.
#
#   scripts/ladder.sh build                      # build the baseline only (prints its path)
#   scripts/ladder.sh VARIANT [match options]    # play: current engine (A) against baseline (B)
#
# Examples (the match's own options pass through; A is the current engine):
#   scripts/ladder.sh vyrt --nodes 20000 --opening-plies 8 --games 400
#   scripts/ladder.sh little-cheops --movetime 100 --opening-plies 6 --games 400 --sprt 0,50
#
# Environment:
#   LADDER_BASE    the baseline commit (default 02c7a06)
#   LADDER_CACHE   where the baseline's source, build and binary go
#                  (default ${XDG_CACHE_HOME:-$HOME/.cache}/menagerie-ladder)
#   LADDER_TARGET  cargo's target directory for the baseline (default $LADDER_CACHE/target;
#                  seeding it with a copy of target/release saves rebuilding dependencies)
#   MENAGERIE      the current engine's binary (default: built here, target/release/menagerie)
#   LADDER_NICE    niceness of the match (default 19: the games are long CPU jobs)
# With no --sprt among the options the test is --sprt 0,50 (stop once the current engine is
# shown 50 Elo better, or not better); with no --games, at most 400 games.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(git -C "$here" rev-parse --show-toplevel)
base=${LADDER_BASE:-02c7a06}
cache=${LADDER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/menagerie-ladder}
target=${LADDER_TARGET:-$cache/target}
bin="$cache/menagerie-$base"
uci="$cache/uci-$base"

build_baseline() {
    if [ ! -x "$bin" ]; then
        local src="$cache/src-$base"
        rm -rf "$src"
        mkdir -p "$src"
        # The commit's tree exactly (no worktree, nothing in the repository changes).
        git -C "$repo" archive "$base" | tar -x -C "$src"
        CARGO_TARGET_DIR="$target" cargo build --release --locked -p menagerie \
            --manifest-path "$src/Cargo.toml" >&2
        cp "$target/release/menagerie" "$bin.part"
        mv "$bin.part" "$bin"
    fi
    # `match` starts a UCI engine as a program without arguments: this is that program.
    printf '#!/bin/sh\nexec "%s" uci "$@"\n' "$bin" >"$uci.part"
    chmod +x "$uci.part"
    mv "$uci.part" "$uci"
}

case "${1:-}" in
"" | -h | --help)
    sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
build)
    build_baseline
    echo "$bin"
    exit 0
    ;;
esac

variant=$1
shift
build_baseline
current=${MENAGERIE:-}
if [ -z "$current" ]; then
    cargo build --release -p menagerie --manifest-path "$repo/Cargo.toml" >&2
    current="$repo/target/release/menagerie"
fi
extra=()
case " $* " in *" --sprt "*) ;; *) extra+=(--sprt 0,50) ;; esac
case " $* " in *" --games "*) ;; *) extra+=(--games 400) ;; esac
echo "ladder: $current (A) against $bin (B, commit $base) in $variant" >&2
exec nice -n "${LADDER_NICE:-19}" "$current" match "$variant" --a engine --b "uci:$uci" \
    "${extra[@]}" "$@"
