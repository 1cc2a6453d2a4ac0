#!/bin/bash
# make-bigbase.sh [OUTBASE]
#
# Builds, with the real Scid (headless /usr/games/tkscid), a large SCID (si4) base for the
# benchmark: Scid's own PGN export of the real si4 bases under $GAMEDB_REALDATA/scid
# (five, endings, tactics, matein1; deleted games included), concatenated, repeated until there
# are at least $BIGBASE_MIN_GAMES games (default 133900), and imported with
# `sc_base create` + `sc_base import`.
#
# OUTBASE is the base path without extension (default /tmp/gamedb-bench/big). The big PGN is
# written to a temporary folder and removed afterwards. Nothing is rebuilt when OUTBASE already
# holds exactly the expected number of games.
#
# Exit status: 0 base ready, 77 skipped (no Scid or no real data), 1 failure.
set -eu

out=${1:-/tmp/gamedb-bench/big}
out=${out%.si4}
min=${BIGBASE_MIN_GAMES:-133900}
here=$(cd "$(dirname "$0")" && pwd)
realdata=${GAMEDB_REALDATA:-$here/../../shared/realdata}
# Scid's own export of a base: the shared oracle tool, beside the real data.
scid_export=${SCID_EXPORT:-$realdata/../tools/scid-export.sh}
tkscid=${TKSCID:-/usr/games/tkscid}

if [ ! -x "$scid_export" ]; then
	echo "SKIP: $scid_export not found (set SCID_EXPORT or GAMEDB_REALDATA)" >&2
	exit 77
fi
if [ ! -x "$tkscid" ]; then
	echo "SKIP: $tkscid not found (apt-get install scid)" >&2
	exit 77
fi
sources=(
	"$realdata/scid/scidtopgn/five/five"
	"$realdata/scid/scidvspc-modern/si4/endings/endings"
	"$realdata/scid/scidvspc-modern/si4/tactics/tactics"
	"$realdata/scid/scidvspc-modern/si4/matein1/matein1"
)
for s in "${sources[@]}"; do
	if [ ! -f "$s.si4" ]; then
		echo "SKIP: real SCID base $s.si4 not found (set GAMEDB_REALDATA)" >&2
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

# One round: Scid's own export of every source base, deleted games included.
round="$work/round.pgn"
: > "$round"
per_round=0
for s in "${sources[@]}"; do
	n=$(scid_count "$s")
	per_round=$((per_round + n))
	"$scid_export" "$s" "$work/part.pgn" 2>/dev/null
	cat "$work/part.pgn" >> "$round"
done
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
