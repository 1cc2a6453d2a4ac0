/*
 * What the files of the command share (a private header, not installed; the library's API is
 * include/gamedb/gamedb.h):
 *
 *   gamedb.c   dispatch: main(), the command table, usage
 *   cmdline.c  the option table and the parsing of the command line
 *   input.c    opening a database; standard input as caller I/O
 *   info.c     the info command
 *   convert.c  pgn, json, fen, epd, uci, positions and book: the run and its ledger
 *   jobs.c     --jobs: the games of a database in chunks over several threads
 *   output.c   the output file (written whole or not at all), sinks, progress bar
 *   win.c      the Windows layer (wmain(), UTF-8 file names through the wide API)
 */
#ifndef GAMEDB_TOOL_H
#define GAMEDB_TOOL_H

#define _XOPEN_SOURCE 700 /* realpath(), fchmod() */
#ifdef __linux__
#define _GNU_SOURCE /* fallocate() */
#endif
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

#include <gamedb/gamedb.h>

/* win.c: file names are UTF-8; on Windows they go through the wide API. */
#ifdef _WIN32
#define stat_t struct _stat64
int os_stat(const char *path, struct _stat64 *st);
FILE *os_fopen_write(const char *path);
int os_unlink(const char *path);
/* Replaces to with from; 0, or -1 with errno set. */
int os_replace(const char *from, const char *to);
/* Creates tmpl ("...XXXXXX") as a new file of its own; the descriptor, or -1 with errno set. */
int os_mkstemp(char *tmpl);
#define os_realpath(p) ((char *)NULL) /* the name as given: a link is replaced, not followed */
#else
#define stat_t struct stat
#define os_stat stat
#define os_unlink unlink
#define os_replace rename
#define os_mkstemp mkstemp
#define os_fopen_write(p) fopen((p), "w")
/* The file a write to path lands on, links followed (malloc'd), or NULL to use path. */
char *os_realpath(const char *path);
#endif

/* gamedb.c: the command line (UTF-8) to the exit status, before standard output's end. */
int run(int argc, char **argv);
/* output.c: standard output's end; the exit status (2 when the output was lost). */
int finish_stdout(int status);

#endif
