#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# make-scid-fixtures.sh - rebuild the SCID test bases in testdata/scid with the real Scid.
#
#   tests/make-scid-fixtures.sh [TKSCID]
#
# For every fixture of tests/scid-fixtures.txt, the real Scid (headless tkscid, Debian package
# `scid`; the committed files were made with Scid 4.7.4) imports our own PGN sources from
# testdata/scid/src into a new SCID4 base testdata/scid/NAME.si4/.sn4/.sg4, marks the listed
# games as deleted, and closes the base. Then the base is opened again from disk and Scid's own
# PGN export of every game (`sc_game pgn -width 75`, deleted games included, as
# /work/shared/tools/scid-export.sh does; tests/scid-export.tcl) is written to
# testdata/scid/NAME.oracle.pgn. That file is the expected output of the golden test
# (tests/golden-scid.py); nothing in it comes from our code.
#
# The export is made from a fresh session on purpose: the import session still holds values
# the .si4 file cannot store (an EventDate more than 3 years from the Date), so only an export
# from disk shows what a reader of the files can reproduce.
#
# The script stops with an error when Scid reports any import problem, or when the number of
# games in a base differs from the number of games in its PGN sources.
set -euo pipefail

tkscid=${1:-/usr/games/tkscid}
[ -x "$tkscid" ] || { echo "make-scid-fixtures: $tkscid not found (apt-get install scid)" >&2; exit 2; }
here=$(cd "$(dirname "$0")/.." && pwd)
dir=$here/testdata/scid
src=$dir/src
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# one line a base: name | PGN sources (in testdata/scid/src) | games to mark deleted (1-based)
fixtures=$here/tests/scid-fixtures.txt

tcl_quote() { # a Tcl word in braces; our paths have no braces
	case $1 in *[{}]*) echo "make-scid-fixtures: path with a brace: $1" >&2; exit 2 ;; esac
	printf '{%s}' "$1"
}

build() {
	local name=$1 pgns=$2 del=$3 base=$dir/$1 expected=0 p g
	rm -f "$base".si4 "$base".sn4 "$base".sg4 "$base".oracle.pgn
	{
		echo "set db [sc_base create $(tcl_quote "$base")]"
		echo 'set errors {}'
		for p in $pgns; do
			echo "set r [sc_base import \$db $(tcl_quote "$src/$p")]"
			# shellcheck disable=SC2016 # Tcl variables, not shell ones
			echo 'if {[string trim [lindex $r 1]] ne ""} { append errors [lindex $r 1] }'
		done
		for g in $del; do
			echo "sc_base gameflag \$db $g set D"
		done
		cat <<'T'
puts "games: [sc_base numGames $db]"
sc_base close $db
if {$errors ne ""} { puts "import errors: $errors"; exit 1 }
exit 0
T
	} > "$work/import.tcl"
	{
		echo "set db [sc_base open $(tcl_quote "$base")]"
		echo "set out $(tcl_quote "$base.oracle.pgn")"
		cat "$here/tests/scid-export.tcl"
	} > "$work/export.tcl"

	"$tkscid" "$work/import.tcl" > "$work/import.out" || {
		cat "$work/import.out" >&2
		echo "make-scid-fixtures: $name: Scid reported errors" >&2
		exit 1
	}
	for p in $pgns; do
		expected=$((expected + $(grep -c '^\[Event ' "$src/$p")))
	done
	if ! grep -qx "games: $expected" "$work/import.out"; then
		cat "$work/import.out" >&2
		echo "make-scid-fixtures: $name: expected $expected games" >&2
		exit 1
	fi
	"$tkscid" "$work/export.tcl"
	exported=$(grep -c '^\[Event ' "$base.oracle.pgn")
	if [ "$exported" != "$expected" ]; then
		echo "make-scid-fixtures: $name: export has $exported games, expected $expected" >&2
		exit 1
	fi
	echo "$name: $expected games${del:+, deleted: $del}"
}

while IFS='|' read -r name pgns del; do
	read -r name <<< "$name"
	case $name in '' | '#'*) continue ;; esac
	read -r -a pgns <<< "$pgns"
	read -r -a del <<< "$del"
	build "$name" "${pgns[*]}" "${del[*]}"
done < "$fixtures"
