#!/bin/sh
# Installs what libgamedb needs to build and test on Debian (or Ubuntu), if it is missing
# (with the argument "windows": what the Windows cross build and its Wine tests need; with
# "clang": clang).
# Run as root or with sudo available. Idempotent: does nothing when all is there.
set -eu
pkgs="meson ninja-build gcc g++ pkg-config python3 python3-pytest python3-venv python3-pip mypy scid pgn-extract stockfish fairy-stockfish polyglot doxygen abigail-tools valgrind"
# `scripts/deps.sh windows`: the MinGW cross compilers and Wine for the Windows build and its
# tests (cross/x86_64-w64-mingw32.ini). wine64 alone: no i386 architecture is needed.
if [ "${1:-}" = windows ]; then
	pkgs="meson ninja-build python3 gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64 binutils-mingw-w64-x86-64 wine wine64"
fi
# `scripts/deps.sh clang`: clang, for the sanitizer pass built by clang (.ci/run).
if [ "${1:-}" = clang ]; then
	pkgs="meson ninja-build python3 clang"
fi
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
