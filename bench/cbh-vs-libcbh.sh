#!/bin/bash
# cbh-vs-libcbh.sh
#
# Benchmark of issue 32: libgamedb's ChessBase decoding against libcbh (rolandlo/libcbh, the
# other open reader), both driven the same way from C/C++, on the five bases of the issue, in
# one run. libgamedb: bench-cbh-walk (bench/cbh-walk.c: open, next_game, every tag, every
# event of the iterator with flags 0, the squares of each move, each comment's text and its
# length). libcbh: bench/libcbh-walk.cpp (open, parseNext on every game, as libcbh's own tests
# do, then the same reads: the squares of each move, each comment's text and its size, each
# tag's value). Neither side scans a text for its length: libcbh's strings carry theirs, and
# gamedb_event_get_text_n() gives libgamedb's (before 1.2 the walk ran strlen() over every
# libgamedb comment and read none of libcbh's: 5 % of libgamedb's time on Hedgehog). Each run of
# either program repeats whole passes over the base for at least BENCH_SECONDS of its own CPU
# time; the figure of a run is its CPU time per pass. The two programs run alternately, base
# after base, BENCH_RUNS rounds; the table gives the medians, games per second of CPU time and
# the ratio libgamedb / libcbh (above 1: libgamedb is faster), and the median of each round's
# own ratio with their range (the two runs of a round are back to back: on shared cores whose
# speed drifts over seconds that ratio moves less than the medians'). Both must read the same number
# of moves per pass (main line and variations), or the script fails.
#
# libcbh is built here from its public source when it is present (LIBCBH_SRC; CMake, Release,
# into LIBCBH_BUILD) and the benchmark is skipped (exit 77) otherwise. Nothing of libcbh is
# part of libgamedb or of its CI. To get the source:
#   git clone https://github.com/rolandlo/libcbh /tmp/libcbh-src
#
# Environment:
#   GAMEDB_CBH_WALK  bench-cbh-walk of a release build (default: build-rel/bench/bench-cbh-walk)
#   LIBCBH_SRC       libcbh's source (default /tmp/libcbh-src)
#   LIBCBH_BUILD     where it is built (default $LIBCBH_SRC/build-bench)
#   GAMEDB_REALDATA  the real data (default ../shared/realdata from the source tree)
#   CBH_BASES        the bases, space-separated .cbh paths (default: the five of issue 32; one
#                    absent is listed as absent)
#   BENCH_RUNS       rounds (default 5)
#   BENCH_SECONDS    CPU seconds of each run at least (default 1)
#   BENCH_INSTRUCTIONS  1: also the instructions of a pass (after the first) on both sides,
#                    counted by callgrind inside each program's measured_pass() (valgrind;
#                    minutes): a figure a busy machine does not move
#
# Exit status: 0 done, 1 a program failed or the two read different numbers of moves,
# 77 skipped (no libcbh source, no C++ compiler or CMake, no bench-cbh-walk).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
src_root=$(cd "$here/.." && pwd)
walk=${GAMEDB_CBH_WALK:-$src_root/build-rel/bench/bench-cbh-walk}
libcbh_src=${LIBCBH_SRC:-/tmp/libcbh-src}
libcbh_build=${LIBCBH_BUILD:-$libcbh_src/build-bench}
realdata=${GAMEDB_REALDATA:-$src_root/../shared/realdata}
runs=${BENCH_RUNS:-5}
seconds=${BENCH_SECONDS:-1}
cb=$realdata/chessbase

skip() { echo "cbh-vs-libcbh: skipped: $*" >&2; exit 77; }
[ -x "$walk" ] || skip "no $walk (meson setup build-rel --buildtype=release; ninja -C build-rel)"
[ -f "$libcbh_src/include/cbh.h" ] || skip "no libcbh source in $libcbh_src (LIBCBH_SRC)"
command -v cmake >/dev/null || skip "no cmake"
command -v c++ >/dev/null || skip "no C++ compiler"

# libcbh, Release, as its CMakeLists.txt builds it; then the driver against it.
cmake -S "$libcbh_src" -B "$libcbh_build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$libcbh_build" -j 2 >/dev/null
lcw=$libcbh_build/libcbh-walk
c++ -O2 -std=c++20 -I "$libcbh_src/include" -o "$lcw" "$here/libcbh-walk.cpp" \
	-L "$libcbh_build" -lcbh -Wl,-rpath,"$libcbh_build"

# name|path; TWIC: the unpacked .cbv of TWIC issue 1134 wherever it is found under the data.
twic=$(find "$cb" -iname 'twic1134*.cbh' 2>/dev/null | head -n 1)
capa=$(find "$cb" -iname 'capa*.cbh' 2>/dev/null | head -n 1)
if [ -n "${CBH_BASES:-}" ]; then
	bases=""
	for p in $CBH_BASES; do bases="$bases $(basename "$p" .cbh)|$p"; done
else
	bases="twic1134|${twic:-$cb/twic1134.cbh} Hedgehog|$cb/morphy/Hedgehog/Hedgehog.cbh
	       linares|$cb/morphy/linares/linares.cbh BielMTO|$cb/libcbh/NormalGames/BielMTO.cbh
	       Capa|${capa:-$cb/Capa.cbh}"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# One run: "games moves passes cpu" -> the per-pass CPU time appended to FILE; games and moves
# kept for the check.
run() { # PROGRAM NAME SIDE PATH
	local out
	out=$("$1" "$seconds" "$4" 2>/dev/null) || { echo "cbh-vs-libcbh: $3 failed on $4" >&2; exit 1; }
	set -- "$1" "$2" "$3" "$4" $out
	echo "$6 $8" >"$tmp/$2.$3.count"
	echo "$(awk -v p="${10}" -v c="${12}" 'BEGIN { printf "%.9f", c / p }')" >>"$tmp/$2.$3.t"
}
for r in $(seq "$runs"); do
	for b in $bases; do
		name=${b%%|*} path=${b#*|}
		[ -f "$path" ] || continue
		# Alternate which program goes first, round by round.
		if [ $((r % 2)) = 1 ]; then
			run "$walk" "$name" gamedb "$path"; run "$lcw" "$name" libcbh "$path"
		else
			run "$lcw" "$name" libcbh "$path"; run "$walk" "$name" gamedb "$path"
		fi
	done
	echo "cbh-vs-libcbh: round $r of $runs done" >&2
done

median() { sort -g "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
status=0
echo
echo "| base | games | moves | libgamedb games/s | libcbh games/s | ratio | ratio by round (range) |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for b in $bases; do
	name=${b%%|*} path=${b#*|}
	if [ ! -f "$path" ]; then
		echo "| $name | absent ($path) | | | | | |"
		continue
	fi
	read -r g_games g_moves <"$tmp/$name.gamedb.count"
	read -r l_games l_moves <"$tmp/$name.libcbh.count"
	if [ "$g_moves" != "$l_moves" ]; then
		echo "cbh-vs-libcbh: $name: libgamedb reads $g_moves moves, libcbh $l_moves" >&2
		status=1
	fi
	note=""
	[ "$g_games" = "$l_games" ] || note=" (libcbh: $l_games entries)"
	tg=$(median "$tmp/$name.gamedb.t") tl=$(median "$tmp/$name.libcbh.t")
	# The two runs of a round follow each other: their ratio, round by round, is less moved by
	# a machine whose speed drifts over seconds (shared cores) than the two medians are.
	paste "$tmp/$name.libcbh.t" "$tmp/$name.gamedb.t" | awk '{ printf "%.6f\n", $1 / $2 }' >"$tmp/$name.r"
	rm=$(median "$tmp/$name.r") rlo=$(sort -g "$tmp/$name.r" | head -n 1) rhi=$(sort -g "$tmp/$name.r" | tail -n 1)
	# Games per second on both sides with the games libgamedb delivers (libcbh counts a text
	# entry of the base as a game too); the ratio is that of the CPU times per pass.
	awk -v n="$name" -v g="$g_games" -v m="$g_moves" -v tg="$tg" -v tl="$tl" -v note="$note" \
	    -v rm="$rm" -v rlo="$rlo" -v rhi="$rhi" 'BEGIN {
		printf "| %s | %d%s | %d | %.0f | %.0f | %.2f | %.2f (%.2f-%.2f) |\n", n, g, note, m,
		       g / tg, g / tl, tl / tg, rm, rlo, rhi }'
done
echo
echo "BENCH_RUNS=$runs BENCH_SECONDS=$seconds; medians of CPU time per pass; ratio = libcbh time / libgamedb time"
echo "(of the medians; by round: the median of the rounds' own ratios, the two runs of a round back to back)."

# Instructions of a pass (BENCH_INSTRUCTIONS=1, valgrind): what the time figures measure, on a
# count a busy machine does not move. Each program under callgrind, counting only inside its
# measured_pass(): once with one pass (the first, which also fills the caches and tables), once
# with several; a pass after the first = (all - first) / (passes - 1).
instructions() { # PROGRAM PATH -> "instructions-per-pass passes"
	local one all cpu secs passes first total
	one=$(valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" --toggle-collect='measured_pass*' \
		"$1" 0 "$2" 2>&1) || return 1
	first=$(echo "$one" | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
	cpu=$(echo "$one" | sed -n 's/.* cpu \([0-9.]*\).*/\1/p')
	secs=$(awk -v c="$cpu" 'BEGIN { printf "%.3f", 3.5 * c }')
	all=$(valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" --toggle-collect='measured_pass*' \
		"$1" "$secs" "$2" 2>&1) || return 1
	total=$(echo "$all" | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
	passes=$(echo "$all" | sed -n 's/.* passes \([0-9]*\).*/\1/p')
	[ -n "$first" ] && [ -n "$total" ] && [ "${passes:-0}" -ge 2 ] || return 1
	awk -v f="$first" -v t="$total" -v p="$passes" 'BEGIN { printf "%.0f %d\n", (t - f) / (p - 1), p }'
}
if [ "${BENCH_INSTRUCTIONS:-0}" = 1 ] && command -v valgrind >/dev/null; then
	echo
	echo "| base | libgamedb instructions a pass | libcbh instructions a pass | libcbh / libgamedb |"
	echo "| --- | ---: | ---: | ---: |"
	for b in $bases; do
		name=${b%%|*} path=${b#*|}
		[ -f "$path" ] || continue
		ig=$(instructions "$walk" "$path") || { echo "| $name | failed | | |"; continue; }
		il=$(instructions "$lcw" "$path") || { echo "| $name | | failed | |"; continue; }
		awk -v n="$name" -v g="${ig% *}" -v l="${il% *}" 'BEGIN {
			printf "| %s | %.0f | %.0f | %.2f |\n", n, g, l, l / g }'
	done
	echo
	echo "BENCH_INSTRUCTIONS=1: callgrind, instructions inside measured_pass() of a pass after the first."
fi
exit $status
