#!/bin/bash
# run.sh [BASE]
#
# Benchmark of issue 12: the real Scid's native PGN export against `gamedb pgn --layout scid`
# with one job and with two, on a large SCID base of real master games (bench/make-bigbase.sh:
# linares.cbh + Hedgehog.cbh + tactics.si4, 101,370 games), in one run. Then each layer's cost:
# instructions per move from callgrind on a slice, games per second in memory through the
# decoder alone, through SAN, and to PGN (bench-rate); and peak memory as the base grows
# tenfold. Ends with a ready-to-paste markdown table (bench/README.md).
#
# The timed commands run BENCH_RUNS times each (default 5), alternating (every command once per
# round, so that a burst of load on the machine falls on all of them alike), each under
# /usr/bin/time -f '%e %U %S %M'; the figures are the medians of wall time, CPU time (user +
# system) and peak resident memory. Scid's output and gamedb's must be identical (cmp).
# Before each timed run (untimed): the command's output of the round before is removed and
# `sync` writes back what the earlier runs wrote. Each run writes 140 MB: left in place,
# replacing the old output cost every program 30-45 ms inside the run (gamedb's rename over
# it, Scid's O_TRUNC open, both waiting for its pages under writeback), and the kernel wrote
# back the earlier outputs on the same two cores while the next run was timed.
# --jobs 1 / --jobs 2 is given two ways: the ratio of the medians, and the median of the
# rounds' own ratios (both run in the same round, a few seconds apart). Next to it, what two
# cores give on this machine at all: two independent `gamedb pgn --jobs 1` processes at once,
# one per core (BENCH_PAIR, default on), against one alone.
#
# Scid's export is its own C++ loop behind File > Export, as issue 12 gives it:
#   sc_base switch $db
#   sc_base export filter PGN FILE -append 0 -starttext "" -endtext "" -comments 1
#     -variations 1 -space 0 -symbols 0 -indentC 0 -indentV 0 -column 0 -noMarkCodes 0
#     -convertNullMoves 0
#
# Environment:
#   GAMEDB_TOOL       the gamedb command (default: gamedb on PATH)
#   GAMEDB_RATE       bench/bench-rate of the same build (optional: the layer figures)
#   GAMEDB_LISTHDR    examples/list-headers (optional; measured when set and executable)
#   GAMEDB_REALDATA   real sample data, for building the base (see make-bigbase.sh)
#   BENCH_BASE        the base, without extension (default /tmp/gamedb-bench/real/real); built
#                     on first use by make-bigbase.sh next to this script
#   BENCH_KIND        real (default) or puzzles: the older base of short puzzles (default
#                     path /tmp/gamedb-bench/big), made by make-bigbase.sh BIGBASE_KIND=puzzles
#   BENCH_RUNS        runs per measurement (default 5)
#   BENCH_SLICE       games of the callgrind slice (default 1635: one round of the base)
#   BENCH_SMALL       games of the small end of the memory figure (default: a tenth of the base)
#   BENCH_WORKDIR     where the outputs go (default: a temporary folder, removed at the end)
#   BENCH_KEEP=1      keep the outputs
#   BENCH_CPU         pin the single-job commands to this CPU with taskset (default: none)
#   BENCH_SCID5       the real Scid 5 (../shared/tools/scid5/scid5; optional): then the whole run
#                     is on an si5 copy of the base (BASE-si5.si5/.sn5/.sg5 next to it, made once,
#                     and again when the si4 base is newer, by Scid 5's own sc_base copygames)
#                     against Scid 5's native export of it (the same sc_base export command, the
#                     base opened as `sc_base open SCID5 ...`)
#   BENCH_TOOLING=1   also time the engine-tooling outputs next to PGN, one job each: gamedb fen
#                     --key, epd, uci and positions --csv (to /dev/null); rows added to the tables
#
# Exit status: 0 done and the PGN outputs are identical, 1 they differ or a command failed,
# 77 skipped (no Scid, no /usr/bin/time, no real data).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
kind=${BENCH_KIND:-real}
case $kind in
real) default_base=/tmp/gamedb-bench/real/real ;;
puzzles) default_base=/tmp/gamedb-bench/big ;;
*) echo "run.sh: BENCH_KIND is real or puzzles, not $kind" >&2; exit 1 ;;
esac
base=${1:-${BENCH_BASE:-$default_base}}
base=${base%.si4}
runs=${BENCH_RUNS:-5}
tool=${GAMEDB_TOOL:-$(command -v gamedb || true)}
rate=${GAMEDB_RATE:-}
listhdr=${GAMEDB_LISTHDR:-}
tkscid=${TKSCID:-/usr/games/tkscid}
cpu=${BENCH_CPU:-}

skip() { echo "SKIP: $*" >&2; exit 77; }
[ -x "$tkscid" ] || skip "$tkscid not found (apt-get install scid)"
[ -x /usr/bin/time ] || skip "/usr/bin/time not found (apt-get install time)"
[ -n "$tool" ] && [ -x "$tool" ] || { echo "run.sh: gamedb not found (set GAMEDB_TOOL)" >&2; exit 1; }

# The base (cached: make-bigbase.sh does nothing when it is already there).
rc=0
GAMEDB_TOOL=$tool BIGBASE_KIND=$kind "$here/make-bigbase.sh" "$base" || rc=$?
[ "$rc" = 77 ] && exit 77
[ "$rc" = 0 ] || { echo "run.sh: could not build the base $base" >&2; exit 1; }

# SCID 5: an si5 copy of the base, made once by Scid 5 itself (its own copy of every game, as its
# "copy all games" does); Scid 5 then exports it and gamedb reads it.
ext=4 codec='' scid_name=Scid si_note=''
if [ -n "${BENCH_SCID5:-}" ]; then
	[ -x "$BENCH_SCID5" ] || skip "$BENCH_SCID5 (Scid 5) not found"
	if [ ! -s "$base-si5.si5" ] || [ ! -s "$base-si5.sg5" ] || [ "$base.si4" -nt "$base-si5.si5" ]; then
		rm -f "$base-si5.si5" "$base-si5.sn5" "$base-si5.sg5"
		cat > "$base-si5.tcl" <<T
set src [sc_base open SCID4 {$base}]
set db [sc_base create SCID5 {$base-si5}]
sc_base copygames \$src dbfilter \$db
sc_base close \$db
sc_base close \$src
T
		"$BENCH_SCID5" "$base-si5.tcl" > /dev/null || { echo "run.sh: Scid 5 could not copy $base" >&2; exit 1; }
		rm -f "$base-si5.tcl"
	fi
	tkscid=$BENCH_SCID5 base=$base-si5 ext=5 codec="SCID5 " scid_name="Scid 5" si_note=", si5"
fi

if [ -n "${BENCH_WORKDIR:-}" ]; then
	work=$BENCH_WORKDIR
	mkdir -p "$work"
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/gamedb-bench.XXXXXX")
	[ "${BENCH_KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT
fi

pin=()
if [ -n "$cpu" ] && command -v taskset > /dev/null && taskset -c "$cpu" true 2> /dev/null; then
	pin=(taskset -c "$cpu")
fi

# Scid's native export, exactly as issue 12 (and /tmp/gamedb-bench/real/exp.tcl) runs it.
cat > "$work/scid-export.tcl" <<T
set db [sc_base open $codec{$base}]
sc_base switch \$db
sc_base export filter PGN {$work/scid.pgn} -append 0 -starttext "" -endtext "" -comments 1 -variations 1 -space 0 -symbols 0 -indentC 0 -indentV 0 -column 0 -noMarkCodes 0 -convertNullMoves 0
sc_base close \$db
T
# Scid opening the base: it reads the whole index and the names into memory.
cat > "$work/scid-open.tcl" <<T
set db [sc_base open $codec{$base}]
puts [sc_base numGames \$db]
sc_base close \$db
T
games=$("$tkscid" "$work/scid-open.tcl" | tail -n 1)
slice=${BENCH_SLICE:-1635}
[ "$slice" -le "$games" ] || slice=$games
small=${BENCH_SMALL:-$((games / 10))}

# The commands, by name: each is the array c_NAME, run as one argument vector. The single-job
# commands are pinned with BENCH_CPU; --jobs 2 never is.
names=(scid_export gamedb_j1 gamedb_j2 json_j1 json_j2 gamedb_info scid_open)
c_scid_export=("${pin[@]}" "$tkscid" "$work/scid-export.tcl")
c_gamedb_j1=("${pin[@]}" "$tool" pgn --layout scid --jobs 1 "$base" -o "$work/j1.pgn")
c_gamedb_j2=("$tool" pgn --layout scid --jobs 2 "$base" -o "$work/j2.pgn")
c_json_j1=("${pin[@]}" "$tool" json --jobs 1 "$base" -o /dev/null)
c_json_j2=("$tool" json --jobs 2 "$base" -o /dev/null)
c_gamedb_info=("${pin[@]}" "$tool" info "$base")
c_scid_open=("${pin[@]}" "$tkscid" "$work/scid-open.tcl")
# Engine-tooling outputs (BENCH_TOOLING=1), one job each, next to PGN.
tooling=()
if [ "${BENCH_TOOLING:-0}" = 1 ]; then
	tooling=(fen_j1 epd_j1 uci_j1 pos_j1)
	names+=("${tooling[@]}")
	c_fen_j1=("${pin[@]}" "$tool" fen --key --jobs 1 "$base" -o /dev/null)
	c_epd_j1=("${pin[@]}" "$tool" epd --jobs 1 "$base" -o /dev/null)
	c_uci_j1=("${pin[@]}" "$tool" uci --jobs 1 "$base" -o /dev/null)
	c_pos_j1=("${pin[@]}" "$tool" positions --csv --jobs 1 "$base" -o /dev/null)
fi
if [ -n "$listhdr" ] && [ -x "$listhdr" ]; then
	names+=(list_headers)
	c_list_headers=("${pin[@]}" "$listhdr" "$base")
fi
show() { local -n c="c_$1"; printf '%q ' "${c[@]}"; }
# The file each command writes, removed before each of its runs (see the top).
declare -A out_of=([scid_export]="$work/scid.pgn" [gamedb_j1]="$work/j1.pgn" [gamedb_j2]="$work/j2.pgn")

# Warm the page cache so that every run reads the base from memory.
cat "$base.si$ext" "$base.sn$ext" "$base.sg$ext" > /dev/null

echo "base: $base ($games games; si$ext $(stat -c %s "$base.si$ext"), sn$ext $(stat -c %s "$base.sn$ext"), sg$ext $(stat -c %s "$base.sg$ext") bytes)"
echo "$scid_name: $tkscid; gamedb: $tool ($("$tool" --version))"
echo "machine: $(nproc) cores online, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "runs per measurement: $runs, alternating (median shown)"
echo "commands (each run as: /usr/bin/time -f '%e %U %S %M' CMD > /dev/null):"
for n in "${names[@]}"; do
	printf '  %-13s %s\n' "$n" "$(show "$n")"
done
echo "  scid-export.tcl:"
sed 's/^/    /' "$work/scid-export.tcl"
echo

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
timed() { # NAME ARGV...: one run, its "wall user sys maxrss" appended to $work/NAME.times
	local n=$1
	shift
	[ -n "${out_of[$n]:-}" ] && rm -f "${out_of[$n]}"
	sync
	if ! /usr/bin/time -f '%e %U %S %M' -o "$work/$n.t" "$@" > /dev/null 2> "$work/$n.err"; then
		echo "run.sh: $n failed:" >&2
		cat "$work/$n.err" >&2
		exit 1
	fi
	tail -n 1 "$work/$n.t" >> "$work/$n.times"
}

declare -A wall cpu_s rss
for n in "${names[@]}"; do
	: > "$work/$n.times"
done
for ((k = 0; k < runs; k++)); do
	for n in "${names[@]}"; do
		declare -n argv="c_$n"
		timed "$n" "${argv[@]}"
	done
done
for n in "${names[@]}"; do
	wall[$n]=$(awk '{ print $1 }' "$work/$n.times" | median)
	cpu_s[$n]=$(awk '{ printf "%.2f\n", $2 + $3 }' "$work/$n.times" | median)
	rss[$n]=$(awk '{ print $4 }' "$work/$n.times" | median)
done

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "inf" }'; }
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
rate_of() { awk -v n="$games" -v t="$1" 'BEGIN { if (t > 0) printf "%.0f", n / t; else print "-" }'; }

printf '%-13s %8s %8s %9s %10s  %s\n' what "wall s" "cpu s" "peak MiB" "games/s" "$scid_name export / this (wall, cpu)"
for n in "${names[@]}"; do
	r=-
	case $n in
	gamedb_j* | json_j* | fen_j1 | epd_j1 | uci_j1 | pos_j1)
		r="$(ratio "${wall[scid_export]}" "${wall[$n]}")x, $(ratio "${cpu_s[scid_export]}" "${cpu_s[$n]}")x"
		;;
	esac
	printf '%-13s %8s %8s %9s %10s  %s\n' "$n" "${wall[$n]}" "${cpu_s[$n]}" "$(mib "${rss[$n]}")" \
		"$(rate_of "${wall[$n]}")" "$r"
done
echo "(scid_open: $scid_name opens the base, which loads its whole index and name file, and closes it;"
echo " gamedb_info and list_headers walk every game header without decoding a move)"
echo
echo "raw runs (wall user sys maxrss-KiB):"
for n in "${names[@]}"; do
	printf '  %-13s %s\n' "$n" "$(tr '\n' ';' < "$work/$n.times")"
done
echo

# The rounds' own ratios of --jobs 1 to --jobs 2, and their median.
rounds=$(paste -d' ' "$work/gamedb_j1.times" "$work/gamedb_j2.times" | awk '{ printf "%.2f\n", $1 / $5 }')
s12r=$(printf '%s\n' "$rounds" | median)
echo "--jobs 1 / --jobs 2, round by round: $(printf '%s\n' "$rounds" | tr '\n' ' ')(median ${s12r}x)"

# Two cores at all: two independent --jobs 1 processes at once, one per core, against one alone.
pair_note=
if [ "${BENCH_PAIR:-1}" = 1 ] && command -v taskset > /dev/null && taskset -c 1 true 2> /dev/null; then
	: > "$work/alone.times"
	: > "$work/pair.times"
	for ((k = 0; k < runs; k++)); do
		sync
		timed alone taskset -c 1 "$tool" pgn --layout scid --jobs 1 "$base" -o /dev/null
		sync
		/usr/bin/time -f '%e %U %S %M' -o "$work/pa.t" taskset -c 0 "$tool" pgn --layout scid --jobs 1 "$base" -o /dev/null &
		/usr/bin/time -f '%e %U %S %M' -o "$work/pb.t" taskset -c 1 "$tool" pgn --layout scid --jobs 1 "$base" -o /dev/null
		wait
		# The pair's time is that of the slower of the two.
		awk 'FNR == 1 && $1 > m { m = $1 } END { print m }' "$work/pa.t" "$work/pb.t" >> "$work/pair.times"
	done
	alone=$(awk '{ print $1 }' "$work/alone.times" | median)
	pair=$(awk '{ print $1 }' "$work/pair.times" | median)
	ceil=$(awk -v a="$alone" -v p="$pair" 'BEGIN { printf "%.2f", 2 * a / p }')
	pair_note="two cores at all: one gamedb pgn --jobs 1 alone ${alone} s, two at once (one per core, to /dev/null) ${pair} s: two cores do ${ceil}x the work of one here"
	echo "$pair_note"
	echo "  raw (wall): alone $(awk '{ print $1 }' "$work/alone.times" | tr '\n' ' '); pair $(tr '\n' ' ' < "$work/pair.times")"
fi

w1=$(ratio "${wall[scid_export]}" "${wall[gamedb_j1]}")
c1=$(ratio "${cpu_s[scid_export]}" "${cpu_s[gamedb_j1]}")
w2=$(ratio "${wall[scid_export]}" "${wall[gamedb_j2]}")
s12=$(ratio "${wall[gamedb_j1]}" "${wall[gamedb_j2]}")
echo "PGN export, $scid_name / gamedb --jobs 1: wall ${w1}x, cpu ${c1}x (target >= 3x: $(awk -v r="$w1" 'BEGIN { print (r >= 3) ? "met" : "NOT met" }'))"
echo "PGN export, $scid_name / gamedb --jobs 2: wall ${w2}x; --jobs 1 / --jobs 2: wall ${s12}x (medians), ${s12r}x (median of the rounds) (target >= 1.8x on two cores: $(awk -v r="$s12" -v q="$s12r" 'BEGIN { print (r >= 1.8 && q >= 1.8) ? "met" : "NOT met" }'))"

status=0
echo "outputs: scid.pgn $(stat -c %s "$work/scid.pgn") bytes, j1.pgn $(stat -c %s "$work/j1.pgn"), j2.pgn $(stat -c %s "$work/j2.pgn")"
for o in j1 j2; do
	if cmp "$work/scid.pgn" "$work/$o.pgn"; then
		echo "PGN identical to $scid_name's: $o yes (cmp scid.pgn $o.pgn)"
	else
		echo "PGN identical to $scid_name's: $o NO (cmp scid.pgn $o.pgn)"
		diff "$work/scid.pgn" "$work/$o.pgn" | head -n 20 || true
		status=1
	fi
done
echo

# Peak memory as the base grows tenfold: the first $small games (--range) against all of them.
declare -A mem
for j in 1 2; do
	: > "$work/mem.times"
	timed mem "$tool" pgn --layout scid --jobs $j --range "1-$small" "$base" -o /dev/null
	mem[small$j]=$(awk '{ print $4 }' "$work/mem.times")
	mem[all$j]=${rss[gamedb_j$j]}
	echo "peak memory, gamedb pgn --jobs $j: $small games $(mib "${mem[small$j]}") MiB, $games games $(mib "${mem[all$j]}") MiB"
done
echo

# Each layer's cost: instructions per move (callgrind, one slice, one job) and games per
# second in memory (bench-rate: decoder alone, + SAN and texts, + PGN).
moves=
declare -A ir rates
if [ -n "$rate" ] && [ -x "$rate" ]; then
	moves=$("$rate" --mode decode --games "$slice" 0 "$base.si$ext" | sed -n 's/.* \([0-9]*\) moves a pass.*/\1/p')
	for m in decode san pgn; do
		rates[$m]=$("$rate" --mode $m --layout scid 3 "$base.si$ext")
		echo "bench-rate --mode $m --layout scid 3 $base.si$ext: ${rates[$m]#*: }"
	done
fi
if command -v valgrind > /dev/null && [ -n "$moves" ]; then
	cg() { # NAME ARGV...: instructions (Ir) of the collected part
		local n=$1
		shift
		valgrind --tool=callgrind --callgrind-out-file="$work/$n.cg" "$@" > /dev/null 2>&1 || return 0
		ir[$n]=$(awk '/^summary:/ { print $2 }' "$work/$n.cg")
	}
	cg tool "$tool" pgn --layout scid --jobs 1 --range "1-$slice" "$base" -o /dev/null
	for m in decode san pgn; do
		cg "$m" --toggle-collect=measured_pass "$rate" --mode $m --layout scid --games "$slice" 0 "$base.si$ext"
	done
	echo "callgrind, first $slice games ($moves moves, main lines and variations):"
	for n in decode san pgn tool; do
		[ -n "${ir[$n]:-}" ] && printf '  %-7s %14s instructions, %6s per move\n' "$n" "${ir[$n]}" \
			"$(awk -v i="${ir[$n]}" -v m="$moves" 'BEGIN { printf "%.0f", i / m }')"
	done
	echo "  (decode, san, pgn: bench-rate's pass in memory; tool: the whole gamedb pgn --layout scid --jobs 1 process)"
	echo
fi
per_move() { [ -n "${ir[$1]:-}" ] && awk -v i="${ir[$1]}" -v m="$moves" 'BEGIN { printf "%.0f", i / m }' || echo "-"; }
gps() { [ -n "${rates[$1]:-}" ] && printf '%s' "${rates[$1]}" | sed -n 's/.*s: \([0-9]*\) games\/s.*/\1/p' || echo "-"; }

# The table for bench/README.md.
echo "Markdown table (paste into bench/README.md):"
echo
echo "| what ($games games$si_note, $(nproc) cores, $runs runs, medians) | wall s | cpu s | peak MiB | $scid_name / this (wall) |"
echo "| --- | ---: | ---: | ---: | ---: |"
for n in scid_export gamedb_j1 gamedb_j2 json_j1 json_j2 "${tooling[@]}" gamedb_info scid_open; do
	case $n in
	scid_export) label="$scid_name native export (sc_base export)" ;;
	gamedb_j1) label="gamedb pgn --layout scid --jobs 1" ;;
	gamedb_j2) label="gamedb pgn --layout scid --jobs 2" ;;
	json_j1) label="gamedb json --jobs 1" ;;
	json_j2) label="gamedb json --jobs 2" ;;
	fen_j1) label="gamedb fen --key --jobs 1" ;;
	epd_j1) label="gamedb epd --jobs 1" ;;
	uci_j1) label="gamedb uci --jobs 1" ;;
	pos_j1) label="gamedb positions --csv --jobs 1" ;;
	gamedb_info) label="gamedb info (headers only)" ;;
	scid_open) label="$scid_name opens the base" ;;
	esac
	r=-
	case $n in
	gamedb_j* | json_j* | fen_j1 | epd_j1 | uci_j1 | pos_j1) r="$(ratio "${wall[scid_export]}" "${wall[$n]}")x" ;;
	esac
	echo "| $label | ${wall[$n]} | ${cpu_s[$n]} | $(mib "${rss[$n]}") | $r |"
done
echo
echo "--jobs 1 / --jobs 2: ${s12}x (the medians), ${s12r}x (the median of the rounds' ratios: $(printf '%s\n' "$rounds" | tr '\n' ' ' | sed 's/ $//'))."
[ -n "$pair_note" ] && echo "${pair_note^}."
echo
echo "| layer (first $slice games, $moves moves) | instructions per move | games/s in memory, whole base |"
echo "| --- | ---: | ---: |"
echo "| decode only: tags, every event, no SAN, no text | $(per_move decode) | $(gps decode) |"
echo "| + SAN and comment texts | $(per_move san) | $(gps san) |"
echo "| + PGN (--layout scid), in memory | $(per_move pgn) | $(gps pgn) |"
echo "| gamedb pgn --layout scid --jobs 1, whole process | $(per_move tool) | $(rate_of "${wall[gamedb_j1]}") (wall) |"
echo
echo "| peak memory, gamedb pgn --layout scid | $small games | $games games |"
echo "| --- | ---: | ---: |"
for j in 1 2; do
	echo "| --jobs $j | $(mib "${mem[small$j]}") MiB | $(mib "${mem[all$j]}") MiB |"
done
echo
echo "PGN identical to $scid_name's (cmp): --jobs 1 $(cmp -s "$work/scid.pgn" "$work/j1.pgn" && echo yes || echo NO), --jobs 2 $(cmp -s "$work/scid.pgn" "$work/j2.pgn" && echo yes || echo NO)"
[ "${BENCH_KEEP:-0}" = 1 ] && echo "outputs kept in $work"
exit $status
