#!/bin/sh
# Installs what libgamedb needs to build and test on Debian (or Ubuntu), if it is missing.
# Run as root or with sudo available. Idempotent: does nothing when all is there.
set -eu
pkgs="meson ninja-build gcc g++ pkg-config python3 python3-pytest scid pgn-extract stockfish polyglot doxygen abigail-tools valgrind"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
echo "scripts/deps.sh: installing:$missing" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
