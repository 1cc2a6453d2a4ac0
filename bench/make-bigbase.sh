#!/bin/bash
# make-bigbase.sh [OUTBASE]
#
# Builds, with the real Scid (headless /usr/games/tkscid), a large SCID (si4) base for the
# benchmark, in one of two kinds (BIGBASE_KIND):
#
#   real (default)  real master games, long and annotated: the games of the ChessBase bases
#                   linares.cbh and Hedgehog.cbh ($GAMEDB_REALDATA/chessbase/morphy) and of the
#                   SCID base tactics.si4 ($GAMEDB_REALDATA/scid/scidvspc-modern/si4), 1,635
#                   games, exported by `gamedb pgn` ($GAMEDB_TOOL) in that order;
#   puzzles         the older base, mostly puzzles of three or four moves: Scid's own PGN export
#                   of the real si4 bases five, endings, tactics and matein1 (deleted games
#                   included).
#
# The PGN of one round is repeated until there are at least $BIGBASE_MIN_GAMES games (default
# 100000: 62 rounds, 101,370 games of the real kind) and imported with `sc_base create` +
# `sc_base import`, exactly as /tmp/gamedb-bench/real/imp.tcl made the base of issue 12.
#
# OUTBASE is the base path without extension (default /tmp/gamedb-bench/real/real for the real
# kind, /tmp/gamedb-bench/big for the puzzles). The big PGN is written to a temporary folder
# and removed afterwards. Nothing is rebuilt when OUTBASE already holds exactly the expected
# number of games.
#
# Exit status: 0 base ready, 77 skipped (no Scid, no gamedb or no real data), 1 failure.
set -eu

kind=${BIGBASE_KIND:-real}
case $kind in
real) default_out=/tmp/gamedb-bench/real/real ;;
puzzles) default_out=/tmp/gamedb-bench/big ;;
*) echo "make-bigbase: BIGBASE_KIND is real or puzzles, not $kind" >&2; exit 1 ;;
esac
out=${1:-$default_out}
out=${out%.si4}
min=${BIGBASE_MIN_GAMES:-100000}
here=$(cd "$(dirname "$0")" && pwd)
realdata=${GAMEDB_REALDATA:-$here/../../shared/realdata}
tkscid=${TKSCID:-/usr/games/tkscid}

if [ ! -x "$tkscid" ]; then
	echo "SKIP: $tkscid not found (apt-get install scid)" >&2
	exit 77
fi
if [ "$kind" = real ]; then
	# The games are exported by gamedb itself (any build: the PGN is the same).
	tool=${GAMEDB_TOOL:-$(command -v gamedb || true)}
	if [ -z "$tool" ] || [ ! -x "$tool" ]; then
		echo "SKIP: gamedb not found (set GAMEDB_TOOL)" >&2
		exit 77
	fi
	sources=(
		"$realdata/chessbase/morphy/linares/linares.cbh"
		"$realdata/chessbase/morphy/Hedgehog/Hedgehog.cbh"
		"$realdata/scid/scidvspc-modern/si4/tactics/tactics.si4"
	)
else
	# Scid's own export of a base: the shared oracle tool, beside the real data.
	scid_export=${SCID_EXPORT:-$realdata/../tools/scid-export.sh}
	if [ ! -x "$scid_export" ]; then
		echo "SKIP: $scid_export not found (set SCID_EXPORT or GAMEDB_REALDATA)" >&2
		exit 77
	fi
	sources=(
		"$realdata/scid/scidtopgn/five/five.si4"
		"$realdata/scid/scidvspc-modern/si4/endings/endings.si4"
		"$realdata/scid/scidvspc-modern/si4/tactics/tactics.si4"
		"$realdata/scid/scidvspc-modern/si4/matein1/matein1.si4"
	)
fi
for s in "${sources[@]}"; do
	if [ ! -f "$s" ]; then
		echo "SKIP: real base $s not found (set GAMEDB_REALDATA)" >&2
		exit 77
	fi
done

# One builder at a time per base (two benchmark runs may share the default path).
mkdir -p "$(dirname "$out")"
if command -v flock > /dev/null; then
	exec 9> "$out.lock"
	flock 9
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/gamedb-bigbase.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Runs a Tcl script in headless Scid; stdout is the script's output.
scid_tcl() {
	local tcl="$work/script.tcl"
	cat > "$tcl"
	"$tkscid" "$tcl"
}

# Game count of an existing base, as Scid itself reports it.
scid_count() {
	scid_tcl <<T
set db [sc_base open {$1}]
puts [sc_base numGames \$db]
sc_base close \$db
T
}

# One round: every source base's games, in order.
round="$work/round.pgn"
: > "$round"
per_round=0
if [ "$kind" = real ]; then
	"$tool" pgn "${sources[@]}" -o "$round"
	per_round=$(grep -c '^\[Event ' "$round" || true)
else
	for s in "${sources[@]}"; do
		n=$(scid_count "${s%.si4}")
		per_round=$((per_round + n))
		"$scid_export" "${s%.si4}" "$work/part.pgn" 2>/dev/null
		cat "$work/part.pgn" >> "$round"
	done
fi
if [ "$per_round" -le 0 ]; then
	echo "make-bigbase: the source bases hold no games" >&2
	exit 1
fi
repeats=$(( (min + per_round - 1) / per_round ))
want=$((per_round * repeats))

if [ -f "$out.si4" ] && [ -f "$out.sg4" ] && [ -f "$out.sn4" ]; then
	have=$(scid_count "$out" 2>/dev/null || echo 0)
	if [ "$have" = "$want" ]; then
		echo "make-bigbase: $out already holds $have games, not rebuilt" >&2
		exit 0
	fi
	echo "make-bigbase: $out holds $have games, want $want: rebuilding" >&2
fi

big="$work/big.pgn"
: > "$big"
for ((k = 0; k < repeats; k++)); do
	cat "$round" >> "$big"
done
echo "make-bigbase: $per_round games x $repeats = $want games ($(du -h "$big" | cut -f1) of PGN); importing into $out" >&2

rm -f "$out.si4" "$out.sg4" "$out.sn4"
got=$(scid_tcl <<T
set db [sc_base create {$out}]
sc_base import \$db {$big}
puts [sc_base numGames \$db]
sc_base close \$db
T
)
got=$(printf '%s\n' "$got" | tail -n 1)
if [ "$got" != "$want" ]; then
	echo "make-bigbase: Scid imported $got games, expected $want" >&2
	rm -f "$out.si4" "$out.sg4" "$out.sn4"
	exit 1
fi
echo "make-bigbase: $out: $got games" >&2
