#!/bin/bash
# run.sh [BASE]
#
# Benchmark: the real Scid's own PGN export against `gamedb pgn` on one large SCID base, one
# thread each, plus `gamedb json`, the engine-tooling outputs (fen, epd, uci, positions) and
# header listing. Each measurement runs BENCH_RUNS times
# (default 3) under /usr/bin/time -f '%e %U %S %M'; the table shows the median of each column.
# The PGN that Scid writes and the PGN that gamedb writes must be identical (cmp).
#
# Environment:
#   GAMEDB_TOOL       the gamedb command (default: gamedb on PATH)
#   GAMEDB_LISTHDR    examples/list-headers (optional; measured when set and executable)
#   GAMEDB_REALDATA   real sample data, for building the base (see make-bigbase.sh)
#   BENCH_BASE        the base, without extension (default /tmp/gamedb-bench/big); built on
#                     first use by make-bigbase.sh next to this script
#   BENCH_RUNS        runs per measurement (default 3)
#   BENCH_WORKDIR     where the outputs go (default: a temporary folder, removed at the end)
#   BENCH_KEEP=1      keep the outputs
#   BENCH_CPU         pin every process to this CPU with taskset (default: no pinning; each
#                     program runs on one thread anyway)
#   BENCH_SCID5       the real Scid 5 (../shared/tools/scid5/scid5): then the benchmark runs on
#                     an si5 copy of the base (BASE-si5, made once by Scid 5's own copygames)
#                     against Scid 5's native export of it
#
# Exit status: 0 done and the PGN outputs are identical, 1 they differ or a command failed,
# 77 skipped (no Scid, no /usr/bin/time, no real data).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
base=${1:-${BENCH_BASE:-/tmp/gamedb-bench/big}}
base=${base%.si4}
runs=${BENCH_RUNS:-3}
tool=${GAMEDB_TOOL:-$(command -v gamedb || true)}
listhdr=${GAMEDB_LISTHDR:-}
tkscid=${TKSCID:-/usr/games/tkscid}
cpu=${BENCH_CPU:-}

skip() { echo "SKIP: $*" >&2; exit 77; }
[ -x "$tkscid" ] || skip "$tkscid not found (apt-get install scid)"
[ -x /usr/bin/time ] || skip "/usr/bin/time not found (apt-get install time)"
[ -n "$tool" ] && [ -x "$tool" ] || { echo "run.sh: gamedb not found (set GAMEDB_TOOL)" >&2; exit 1; }

# The base (cached: make-bigbase.sh does nothing when it is already there).
rc=0
"$here/make-bigbase.sh" "$base" || rc=$?
[ "$rc" = 77 ] && exit 77
[ "$rc" = 0 ] || { echo "run.sh: could not build the base $base" >&2; exit 1; }

# SCID 5: an si5 copy of the base, made once by Scid 5 itself; Scid 5 then exports it.
ext=4 codec=
if [ -n "${BENCH_SCID5:-}" ]; then
	[ -x "$BENCH_SCID5" ] || skip "$BENCH_SCID5 (Scid 5) not found"
	if [ ! -s "$base-si5.si5" ]; then
		rm -f "$base-si5.si5" "$base-si5.sn5" "$base-si5.sg5"
		printf 'set src [sc_base open SCID4 {%s}]\nset db [sc_base create SCID5 {%s}]\n%s\n' \
			"$base" "$base-si5" \
			'sc_base copygames $src dbfilter $db; sc_base close $db; sc_base close $src' \
			> "$base-si5.tcl"
		"$BENCH_SCID5" "$base-si5.tcl" > /dev/null || { echo "run.sh: Scid 5 could not copy $base" >&2; exit 1; }
	fi
	tkscid=$BENCH_SCID5 base=$base-si5 ext=5 codec="SCID5 "
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

# Scid's own export, exactly as ../shared/tools/scid-export.sh does it.
cat > "$work/scid-export.tcl" <<T
set db [sc_base open $codec{$base}]
set f [open {$work/scid.pgn} w]
fconfigure \$f -encoding utf-8
set n [sc_base numGames \$db]
for {set i 1} {\$i <= \$n} {incr i} { sc_game load \$i; puts \$f [sc_game pgn -width 75] }
close \$f
sc_base close \$db
T
# Scid opening the base: it reads the whole index and the names into memory.
cat > "$work/scid-open.tcl" <<T
set db [sc_base open $codec{$base}]
puts [sc_base numGames \$db]
sc_base close \$db
T

games=$("$tkscid" "$work/scid-open.tcl" | tail -n 1)

# The commands, by name: each is the array c_NAME, run as one argument vector.
names=(scid_export gamedb_pgn gamedb_json gamedb_info scid_open)
c_scid_export=("$tkscid" "$work/scid-export.tcl")
c_gamedb_pgn=("$tool" pgn --include-deleted "$base" -o "$work/gamedb.pgn")
c_gamedb_json=("$tool" json --include-deleted "$base" -o "$work/gamedb.jsonl")
c_gamedb_info=("$tool" info "$base")
c_scid_open=("$tkscid" "$work/scid-open.tcl")
# Engine-tooling outputs, next to PGN (same single pass over the games).
names+=(gamedb_fen gamedb_epd gamedb_uci gamedb_pos)
c_gamedb_fen=("$tool" fen --key --include-deleted "$base" -o /dev/null)
c_gamedb_epd=("$tool" epd --include-deleted "$base" -o /dev/null)
c_gamedb_uci=("$tool" uci --include-deleted "$base" -o /dev/null)
c_gamedb_pos=("$tool" positions --csv --include-deleted "$base" -o /dev/null)
if [ -n "$listhdr" ] && [ -x "$listhdr" ]; then
	names+=(list_headers)
	c_list_headers=("$listhdr" "$base")
fi
show() { local -n c="c_$1"; printf '%q ' "${c[@]}"; }

# Warm the page cache so that every run reads the base from memory.
cat "$base.si$ext" "$base.sn$ext" "$base.sg$ext" > /dev/null

echo "base: $base ($games games; si$ext $(stat -c %s "$base.si$ext"), sn$ext $(stat -c %s "$base.sn$ext"), sg$ext $(stat -c %s "$base.sg$ext") bytes)"
echo "Scid: $tkscid"
echo "runs per measurement: $runs (median shown); pinned: ${pin[*]:-no}"
echo "commands (each run as: ${pin[*]:+${pin[*]} }/usr/bin/time -f '%e %U %S %M' CMD > /dev/null):"
for n in "${names[@]}"; do
	printf '  %-13s %s\n' "$n" "$(show "$n")"
done
echo "  scid-export.tcl:"
sed 's/^/    /' "$work/scid-export.tcl"
echo

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

declare -A wall cpu_s rss
for n in "${names[@]}"; do
	: > "$work/$n.times"
done
# Round-robin (every command once per round), so that a burst of load on the machine
# falls on all of them alike.
for ((k = 0; k < runs; k++)); do
	for n in "${names[@]}"; do
		declare -n argv="c_$n"
		if ! "${pin[@]}" /usr/bin/time -f '%e %U %S %M' -o "$work/$n.t" "${argv[@]}" \
			> /dev/null 2> "$work/$n.err"; then
			echo "run.sh: $n failed:" >&2
			cat "$work/$n.err" >&2
			exit 1
		fi
		tail -n 1 "$work/$n.t" >> "$work/$n.times"
	done
done
for n in "${names[@]}"; do
	wall[$n]=$(awk '{ print $1 }' "$work/$n.times" | median)
	cpu_s[$n]=$(awk '{ printf "%.2f\n", $2 + $3 }' "$work/$n.times" | median)
	rss[$n]=$(awk '{ print $4 }' "$work/$n.times" | median)
done

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "inf" }'; }
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
rate() { awk -v n="$games" -v t="$1" 'BEGIN { if (t > 0) printf "%.0f", n / t; else print "-" }'; }

printf '%-13s %8s %8s %9s %10s  %s\n' what "wall s" "cpu s" "peak MiB" "games/s" "Scid export time / this (wall, cpu)"
for n in "${names[@]}"; do
	r=-
	case $n in
	gamedb_pgn | gamedb_json)
		r="$(ratio "${wall[scid_export]}" "${wall[$n]}")x, $(ratio "${cpu_s[scid_export]}" "${cpu_s[$n]}")x"
		;;
	esac
	printf '%-13s %8s %8s %9s %10s  %s\n' "$n" "${wall[$n]}" "${cpu_s[$n]}" "$(mib "${rss[$n]}")" \
		"$(rate "${wall[$n]}")" "$r"
done
echo "(scid_open: Scid opens the base, which loads its whole index and name file, and closes it;"
echo " gamedb_info and list_headers walk every game header without decoding a move)"
echo
echo "raw runs (wall user sys maxrss-KiB):"
for n in "${names[@]}"; do
	printf '  %-13s %s\n' "$n" "$(tr '\n' ';' < "$work/$n.times")"
done
echo

wr=$(ratio "${wall[scid_export]}" "${wall[gamedb_pgn]}")
cr=$(ratio "${cpu_s[scid_export]}" "${cpu_s[gamedb_pgn]}")
echo "PGN export, Scid/gamedb: wall ${wr}x, cpu ${cr}x (target >= 3x: $(awk -v r="$wr" 'BEGIN { print (r >= 3) ? "met" : "NOT met" }'))"
echo "peak memory: Scid $(mib "${rss[scid_export]}") MiB, gamedb pgn $(mib "${rss[gamedb_pgn]}") MiB (target gamedb <= Scid: $([ "${rss[gamedb_pgn]}" -le "${rss[scid_export]}" ] && echo met || echo NOT met))"

status=0
echo "outputs: scid.pgn $(stat -c %s "$work/scid.pgn") bytes, gamedb.pgn $(stat -c %s "$work/gamedb.pgn") bytes, gamedb.jsonl $(wc -l < "$work/gamedb.jsonl") lines"
if cmp "$work/scid.pgn" "$work/gamedb.pgn"; then
	echo "PGN outputs identical: yes (cmp $work/scid.pgn $work/gamedb.pgn)"
else
	echo "PGN outputs identical: NO (cmp $work/scid.pgn $work/gamedb.pgn)"
	diff "$work/scid.pgn" "$work/gamedb.pgn" | head -n 20 || true
	status=1
fi
jl=$(wc -l < "$work/gamedb.jsonl")
if [ "$jl" != "$games" ]; then
	echo "gamedb json: $jl lines for $games games"
	status=1
fi
[ "${BENCH_KEEP:-0}" = 1 ] && echo "outputs kept in $work"
exit $status
