# Scid's own PGN export (`sc_game pgn -width 75`, deleted games included, as
# /work/shared/tools/scid-export.sh does) of every game of the open base $db into the file
# $out, in UTF-8; then the base is closed and Scid ends. The lines that set db and out come
# before it: tests/make-scid-fixtures.sh, tests/golden-scid.py and tests/golden-scid5.py
# write them, then this.
set f [open $out w]
fconfigure $f -encoding utf-8
set n [sc_base numGames $db]
for {set i 1} {$i <= $n} {incr i} { sc_game load $i; puts $f [sc_game pgn -width 75] }
close $f
sc_base close $db
exit 0
