#!/bin/sh
# libgamedb - ABI check with libabigail (STYLE.md, section I).
#
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Two things are compared, each against a baseline made with abidw:
#   - the library: its exported functions, their versions and signatures, and the types they
#     reach (abi/libgamedb-1.0.abi);
#   - every type of the public headers, reachable or not (abi/libgamedb-1.0-types.abi): the
#     library passes its enums as int32_t, so their values are visible only here. The types
#     come from a probe: a tiny shared object compiled from <gamedb/gamedb.h> with
#     -g -fno-eliminate-unused-debug-types, so that all of them are in its debug information.
#
# Usage:
#   scripts/abicheck.sh [options] NEW_LIB
#       Compares NEW_LIB (a freshly built libgamedb.so.1, with debug information) and the
#       headers in --headers against the committed baselines.
#   scripts/abicheck.sh [options] --ref GIT_REF NEW_LIB
#       Builds GIT_REF (exported with `git archive`, so the work tree is never touched) with
#       `meson setup --buildtype=debug` in a temporary directory and compares its library and
#       headers with NEW_LIB and --headers (e.g. `--ref v1.0.0` in CI, against the last release).
#   scripts/abicheck.sh [options] --update NEW_LIB
#       Writes both baselines from NEW_LIB and --headers with abidw. Do this once per release,
#       when the ABI of that release is final, and commit the result; never to make a failing
#       check pass.
#
# Options:
#   --baseline FILE      the library baseline (default: abi/libgamedb-1.0.abi); the types
#                        baseline is the same name ending in -types.abi
#   --suppressions FILE  documented suppressions for the library (default:
#                        abi/libgamedb.abignore); header-types.abignore in the same folder
#                        filters the C library's types out of the header-types half
#   --headers DIR        the public headers of NEW_LIB (default: include/gamedb); types that
#                        do not appear in them are private and not compared
#   --cc COMPILER        the C compiler for the probe (default: $CC, else cc)
#
# Exit status: 0 compatible (added functions and added enumerators are fine), 1 an ABI change
# or an error, 77 skipped (abidiff/abidw or a C compiler missing, or NEW_LIB has no debug
# information).
#
# abidiff's exit status is a bit field: 1 error, 2 usage error, 4 ABI change, 8 incompatible
# ABI change (a removed symbol, for instance). With --no-added-syms, additions are not changes.
# Bit 4 alone still covers changes that break callers, such as a renumbered enumerator or a
# changed parameter type, so any non-zero status fails the check; a change known to be
# harmless gets a documented entry in the suppressions file instead.

set -u

here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/.." && pwd)
baseline="$srcdir/abi/libgamedb-1.0.abi"
suppr="$srcdir/abi/libgamedb.abignore"
headers="$srcdir/include/gamedb"
mode=check
ref=
probe_cc=${CC:-cc}

usage() {
	sed -n '4,45p' "$0" | sed 's/^# \{0,1\}//'
	exit 1
}

while [ $# -gt 0 ]; do
	case "$1" in
	--baseline) baseline=$2; shift 2 ;;
	--suppressions) suppr=$2; shift 2 ;;
	--headers) headers=$2; shift 2 ;;
	--cc) probe_cc=$2; shift 2 ;;
	--update) mode=update; shift ;;
	--ref) mode=ref; ref=$2; shift 2 ;;
	-h|--help) usage ;;
	--) shift; break ;;
	-*) echo "abicheck: unknown option $1" >&2; exit 1 ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || usage
newlib=$1

if ! command -v abidiff >/dev/null 2>&1 || ! command -v abidw >/dev/null 2>&1; then
	echo "SKIP: abidiff/abidw (libabigail) not installed"
	exit 77
fi
if [ ! -f "$newlib" ]; then
	echo "abicheck: $newlib: no such file" >&2
	exit 1
fi
# Without DWARF, abidiff sees symbol names only and would miss every type change.
if command -v readelf >/dev/null 2>&1 && ! readelf -S "$newlib" | grep -q '\.debug_info'; then
	echo "SKIP: $newlib has no debug information (build with -g, e.g. --buildtype=debug)"
	exit 77
fi

types_baseline="${baseline%.abi}-types.abi"
types_suppr="$(dirname "$suppr")/header-types.abignore"
for f in "$suppr" "$types_suppr"; do
	if [ ! -f "$f" ]; then
		echo "abicheck: $f: no such file" >&2
		exit 1
	fi
done
if ! command -v "$probe_cc" >/dev/null 2>&1; then
	echo "SKIP: no C compiler ($probe_cc) for the header probe"
	exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gamedb-abicheck.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

# Builds the probe for the headers in $1 (a folder named gamedb) into $2.
build_probe() {
	hdir=$1
	out=$2
	root=$(dirname "$hdir")
	# gamedb-version.h is generated at build time; it holds macros only, no types, so a stub
	# stands in for it when the folder has none (the real one comes first when present).
	mkdir -p "$tmp/stub/gamedb"
	printf '#define GAMEDB_VERSION_MAJOR 1\n' >"$tmp/stub/gamedb/gamedb-version.h"
	cat >"$tmp/probe.c" <<'PROBE'
/* Every type of the public headers, for abidw; nothing here is ever run. */
#include <gamedb/gamedb.h>
int gamedb_abi_probe(void);
int gamedb_abi_probe(void) { return 0; }
PROBE
	"$probe_cc" -shared -fPIC -g -O0 -fno-eliminate-unused-debug-types \
		-I"$root" -I"$tmp/stub" -o "$out" "$tmp/probe.c" || {
		echo "abicheck: cannot compile the header probe with $probe_cc" >&2
		return 1
	}
}

# Writes the abidw dump of the library $2 (public headers $1) to $3. Types defined outside
# the public headers become declarations only (the opaque handles' layouts are private).
dump_lib() {
	abidw --headers-dir "$1" --drop-private-types --no-corpus-path --no-comp-dir-path \
		--short-locs --out-file "$3" "$2"
}

# The same for a probe: every type, reachable or not.
dump_probe() {
	abidw --headers-dir "$1" --drop-private-types --load-all-types --no-corpus-path \
		--no-comp-dir-path --short-locs --out-file "$3" "$2"
}

# Runs abidiff on two dumps and turns its bit-field status into ours.
# $1: what is compared (for messages), $2: suppressions file, $3 and $4: old and new dump,
# then extra options. No --headers-dir here: abidiff would then count every change to a type
# defined outside the public headers as private, int32_t and size_t included, and so miss a
# parameter changing from int32_t to int64_t; the dumps are already limited to public types.
run_abidiff() {
	what=$1
	sfile=$2
	old=$3
	new=$4
	shift 4
	abidiff --no-added-syms --suppressions "$sfile" "$@" "$old" "$new"
	st=$?
	if [ $st -eq 0 ]; then
		echo "abicheck: $what: OK, no ABI change"
		return 0
	fi
	if [ $st -gt 15 ]; then
		echo "abicheck: $what: abidiff crashed or was killed (status $st)" >&2
		return 1
	fi
	[ $((st & 1)) -ne 0 ] && echo "abicheck: $what: abidiff failed (status $st)" >&2
	[ $((st & 2)) -ne 0 ] && echo "abicheck: $what: abidiff usage error (status $st)" >&2
	[ $((st & 4)) -ne 0 ] && echo "abicheck: $what: the ABI changed (status $st)" >&2
	[ $((st & 8)) -ne 0 ] && echo "abicheck: $what: the change is incompatible (status $st)" >&2
	return 1
}

# Compares old and new dumps of the library and of the probe.
compare() {
	echo "abicheck: library: $1 vs $2"
	run_abidiff library "$suppr" "$1" "$2"
	lib_st=$?
	echo "abicheck: header types: $3 vs $4"
	run_abidiff "header types" "$types_suppr" "$3" "$4" --non-reachable-types
	types_st=$?
	[ $lib_st -eq 0 ] && [ $types_st -eq 0 ]
}

case $mode in
update)
	build_probe "$headers" "$tmp/probe.so" || exit 1
	dump_lib "$headers" "$newlib" "$baseline" || exit 1
	dump_probe "$headers" "$tmp/probe.so" "$types_baseline" || exit 1
	echo "abicheck: wrote $baseline and $types_baseline"
	exit 0
	;;
check)
	for f in "$baseline" "$types_baseline"; do
		if [ ! -f "$f" ]; then
			echo "abicheck: $f: no baseline (make one with --update)" >&2
			exit 1
		fi
	done
	build_probe "$headers" "$tmp/probe.so" || exit 1
	dump_lib "$headers" "$newlib" "$tmp/new.abi" || exit 1
	dump_probe "$headers" "$tmp/probe.so" "$tmp/new-types.abi" || exit 1
	echo "abicheck: comparing $newlib and $headers with the baselines"
	compare "$baseline" "$tmp/new.abi" "$types_baseline" "$tmp/new-types.abi"
	exit $?
	;;
ref)
	command -v git >/dev/null 2>&1 || { echo "SKIP: git not installed"; exit 77; }
	command -v meson >/dev/null 2>&1 || { echo "SKIP: meson not installed"; exit 77; }
	git -C "$srcdir" archive --format=tar --prefix=src/ "$ref" | tar -x -C "$tmp" || exit 1
	meson setup --buildtype=debug -Dtests=false -Ddocs=false "$tmp/build" "$tmp/src" \
		>"$tmp/setup.log" 2>&1 || { cat "$tmp/setup.log" >&2; exit 1; }
	ninja -C "$tmp/build" >"$tmp/build.log" 2>&1 ||
		{ cat "$tmp/build.log" >&2; exit 1; }
	build_probe "$tmp/src/include/gamedb" "$tmp/old-probe.so" || exit 1
	build_probe "$headers" "$tmp/probe.so" || exit 1
	echo "abicheck: comparing $ref with $newlib and $headers"
	dump_lib "$tmp/src/include/gamedb" "$tmp/build/lib/libgamedb.so.1" "$tmp/old.abi" || exit 1
	dump_probe "$tmp/src/include/gamedb" "$tmp/old-probe.so" "$tmp/old-types.abi" || exit 1
	dump_lib "$headers" "$newlib" "$tmp/new.abi" || exit 1
	dump_probe "$headers" "$tmp/probe.so" "$tmp/new-types.abi" || exit 1
	compare "$tmp/old.abi" "$tmp/new.abi" "$tmp/old-types.abi" "$tmp/new-types.abi"
	exit $?
	;;
esac
