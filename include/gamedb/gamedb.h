/*
 * libgamedb - read legacy chess and xiangqi game databases.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * @file gamedb.h
 * @brief The public API of libgamedb: readers, games, move iterators, events, writers.
 *
 * Users write `#include <gamedb/gamedb.h>` and link with `pkg-config --libs gamedb`.
 *
 * Conventions that hold for every function below:
 * - Status codes: ::GAMEDB_OK, ::GAMEDB_END, ::GAMEDB_WARN, ::GAMEDB_FAILED, ::GAMEDB_FATAL
 *   (see ::gamedb_status). Detail codes (::gamedb_error) explain the last failure of a reader.
 * - The caller frees only what it received from a `*_new`, `*_dup` or `*_iter_new` function,
 *   with the matching `*_free`. `*_free(NULL)` does nothing.
 * - Every `const char *` the library returns is NUL-terminated UTF-8, borrowed, and valid as
 *   long as the object it came from, unless the function says otherwise.
 * - There is no global state. One handle must not be used from two threads at once; different
 *   handles may be used from different threads concurrently.
 * - No game is lost without a word (doc/ledger.md): every game a base holds is either
 *   delivered (::GAMEDB_OK; ::GAMEDB_WARN with a message saying what was lost) or reported
 *   (::GAMEDB_FAILED, with a message naming the file, the game or line, the byte offset and the
 *   reason); gamedb_reader_game_count() counts exactly what gamedb_reader_next_game() hands
 *   out, and a stream reports every line of its own that it cannot use.
 */
#ifndef GAMEDB_GAMEDB_H
#define GAMEDB_GAMEDB_H

#include <stddef.h>
#include <stdint.h>

#include <gamedb/gamedb-version.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @cond PRIVATE */
#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(GAMEDB_BUILDING_LIBRARY)
#define GAMEDB_EXPORT __declspec(dllexport)
#else
#define GAMEDB_EXPORT __declspec(dllimport)
#endif
#elif defined(__GNUC__) && __GNUC__ >= 4
#define GAMEDB_EXPORT __attribute__((visibility("default")))
#else
#define GAMEDB_EXPORT
#endif
/** @endcond */

/**
 * @defgroup errors Status and error codes
 * @{
 */

/**
 * Status codes returned by most functions. The numbers are stable.
 * @since 1.0
 */
enum gamedb_status {
	/** Success. */
	GAMEDB_OK = 0,
	/** Iteration finished (no more games, no more events). Not an error. */
	GAMEDB_END = 1,
	/** The item was delivered but something was lost (charset fallback, a repaired field). */
	GAMEDB_WARN = -20,
	/** This game is unreadable; the reader stays usable and the next game can be read. */
	GAMEDB_FAILED = -25,
	/** The handle is unusable; only the matching free function may be called. */
	GAMEDB_FATAL = -30
};

/**
 * Detail codes, fetched with gamedb_reader_errcode(). The numbers are stable and are never
 * reused; new codes may be added.
 * @since 1.0
 */
enum gamedb_error {
	GAMEDB_E_NONE = 0,                 /**< No error. */
	GAMEDB_E_NOMEM = 1,                /**< Out of memory. */
	GAMEDB_E_IO = 2,                   /**< A file could not be opened or read. */
	GAMEDB_E_UNRECOGNIZED_FORMAT = 3,  /**< No format recognised the data. */
	GAMEDB_E_CORRUPT = 4,              /**< The data contradicts the format. */
	GAMEDB_E_UNSUPPORTED_VERSION = 5,  /**< A version of the format this library cannot read. */
	GAMEDB_E_ENCODING = 6,             /**< Text could not be converted to UTF-8. */
	GAMEDB_E_MISUSE = 7,               /**< A function was called out of order or with a bad handle. */
	GAMEDB_E_RANGE = 8,                /**< An index or value out of range. */
	GAMEDB_E_STRUCT_SIZE = 9,          /**< A caller-filled struct has a size the library cannot accept. */
	GAMEDB_E_UNSUPPORTED = 10,         /**< The operation is not supported by this format or reader. */
	GAMEDB_E_ILLEGAL_MOVE = 11,        /**< A decoded move is not legal in its position. */
	GAMEDB_E_INVALID_ARGUMENT = 12,    /**< An argument is invalid (NULL, unknown name, bad value). */
	GAMEDB_E_UNKNOWN_OPTION = 13,      /**< No format recognises an option key. */
	GAMEDB_E_CANCELLED = 14            /**< A progress callback asked to stop (@since 1.1). */
};

/**
 * A short English description of a detail code (::gamedb_error) or of a negative status code
 * (::GAMEDB_WARN, ::GAMEDB_FAILED, ::GAMEDB_FATAL). 0 gives "success". ::GAMEDB_END is not an
 * error and shares its value with ::GAMEDB_E_NOMEM, so 1 is described as the detail code.
 *
 * @return a static string, never NULL.
 * @since 1.0
 */
GAMEDB_EXPORT const char *gamedb_strerror(int32_t code);

/** @} */

/**
 * @defgroup version Version
 * @{
 */

/**
 * The version of the library at run time, as MAJOR * 10000 + MINOR * 100 + PATCH.
 * Compare with ::GAMEDB_VERSION_NUMBER, the version the caller was compiled against.
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_version_number(void);

/**
 * The version of the library at run time as "MAJOR.MINOR.PATCH".
 * @return a static string.
 * @since 1.0
 */
GAMEDB_EXPORT const char *gamedb_version_string(void);

/** @} */

/**
 * @defgroup formats Formats
 * The formats this library reads, listed from its one registry: a GUI builds its Open dialog's
 * file filter from it, a program its help. Formats are numbered 0 .. gamedb_format_count() - 1
 * in the order the library tries them; the numbers may change between versions, the names
 * do not.
 *
 * @code
 * for (size_t i = 0; i < gamedb_format_count(); i++) {
 *     uint32_t flags;
 *     printf("%s: %s\n", gamedb_format_get_name(i), gamedb_format_get_description(i));
 *     for (size_t k = 0; gamedb_format_get_extension(i, k, &flags); k++)
 *         if (flags & GAMEDB_EXTENSION_OPENS)
 *             printf("  *%s\n", gamedb_format_get_extension(i, k, NULL));
 * }
 * @endcode
 * @{
 */

/**
 * Flag of gamedb_format_get_extension(): a base is opened by a file with this extension.
 * (A macro, not an enum: an enum type would be a new type in the 1.0 ABI baseline.)
 * @since 1.1
 */
#define GAMEDB_EXTENSION_OPENS 1u

/**
 * Flag of gamedb_format_get_extension(), always with ::GAMEDB_EXTENSION_OPENS: the file is an
 * archive that holds a whole base of the format in one file (ChessBase `.cbv`; `.cbz`, the
 * same encrypted, which needs the reader option `password`), unpacked in memory by the open.
 * An Open dialog offers it with the format's other opening extensions; copying such a base
 * means copying that one file.
 * @since 1.1
 */
#define GAMEDB_EXTENSION_ARCHIVE 2u

/**
 * The number of formats this library reads.
 * @since 1.1
 */
GAMEDB_EXPORT size_t gamedb_format_count(void);

/**
 * The name of format @p index ("scid"), as gamedb_reader_support_format(),
 * gamedb_reader_set_format() and gamedb_reader_set_option() take it.
 * @return a static string, or NULL when @p index is not below gamedb_format_count().
 * @since 1.1
 */
GAMEDB_EXPORT const char *gamedb_format_get_name(size_t index);

/**
 * A one-line description of format @p index, in English.
 * @return a static string, or NULL when @p index is out of range.
 * @since 1.1
 */
GAMEDB_EXPORT const char *gamedb_format_get_description(size_t index);

/**
 * The capabilities (::gamedb_capability bits) every base of format @p index has; 0 when
 * @p index is out of range.
 * @since 1.1
 */
GAMEDB_EXPORT uint32_t gamedb_format_get_capabilities(size_t index);

/**
 * The charset format @p index reads its text in unless the `charset` option says otherwise
 * ("UTF-8", "CP1252", "GB18030").
 * @return a static string, or NULL when @p index is out of range.
 * @since 1.1
 */
GAMEDB_EXPORT const char *gamedb_format_get_charset(size_t index);

/**
 * Extension @p k of format @p index, lower case with its dot (".si4"): first every file a base
 * of the format can be opened by (::GAMEDB_EXTENSION_OPENS in @p flags): the format's own
 * (ChessBase: ".cbh"), then the archives that hold a whole base of it (".cbv", ".cbz", flagged
 * ::GAMEDB_EXTENSION_ARCHIVE as well); then the other files of a base, which do not open it
 * (".cbg", flags 0). Files copied from Windows may carry them in upper case; the library finds
 * both.
 * @param index the format, 0 .. gamedb_format_count() - 1.
 * @param k the extension, from 0.
 * @param flags if not NULL, set to the flags of the extension (::GAMEDB_EXTENSION_OPENS,
 *        ::GAMEDB_EXTENSION_ARCHIVE), 0 past the end.
 * @return a static string, or NULL past the last extension or for an unknown format.
 * @since 1.1
 */
GAMEDB_EXPORT const char *gamedb_format_get_extension(size_t index, size_t k, uint32_t *flags);

/**
 * Option @p k of format @p index, for gamedb_reader_set_option(). The options every format
 * shares (`charset`, `fallback-charset`, `password`) are not listed.
 * @param index the format, 0 .. gamedb_format_count() - 1.
 * @param k the option, from 0.
 * @param default_value if not NULL, set to the value the format uses when the option is not
 *        set (a static string), or NULL past the end.
 * @param description if not NULL, set to a one-line description (a static string).
 * @return the option's key (a static string), or NULL past the last option.
 * @since 1.1
 */
GAMEDB_EXPORT const char *gamedb_format_get_option(size_t index, size_t k,
						   const char **default_value,
						   const char **description);

/** @} */

/**
 * @defgroup reader Reader
 * One open database of any format.
 *
 * The canonical loop:
 * @code
 * struct gamedb_reader *r = gamedb_reader_new();
 * struct gamedb_game *g;
 * int32_t rc;
 * if (!r) return -1;
 * gamedb_reader_support_format_all(r);
 * if (gamedb_reader_open_filename(r, "base.si4") < GAMEDB_WARN) { // WARN: open, with a note
 *     fprintf(stderr, "%s\n", gamedb_reader_errmsg(r));
 *     gamedb_reader_free(r);
 *     return -1;
 * }
 * for (;;) {
 *     rc = gamedb_reader_next_game(r, &g);
 *     if (rc == GAMEDB_END || rc == GAMEDB_FATAL) break;
 *     if (rc == GAMEDB_FAILED) { fprintf(stderr, "%s\n", gamedb_reader_errmsg(r)); continue; }
 *     printf("%s - %s\n", gamedb_game_get_tag(g, "White"), gamedb_game_get_tag(g, "Black"));
 * }
 * gamedb_reader_free(r);
 * @endcode
 *
 * A reader has one base open at a time, and may open another (since 1.1): an open function
 * called on a reader with a base open closes that base first, as gamedb_reader_free() would,
 * and keeps the reader's formats, options and converter. Whatever the reader handed out for
 * the base it closes (games, messages, the pointers said valid "until gamedb_reader_free()")
 * is then invalid, as after gamedb_reader_free(); copies made with gamedb_game_dup() stay.
 * @{
 */

/** An open database (opaque). @since 1.0 */
struct gamedb_reader;
/** One game of a database (opaque). @since 1.0 */
struct gamedb_game;
/** An iterator over the moves and annotations of a game (opaque). @since 1.0 */
struct gamedb_move_iter;
/** One item of a move iterator (opaque). @since 1.0 */
struct gamedb_event;
/** What only SCID databases have (opaque). @since 1.0 */
struct gamedb_scid;
/** What only ChessBase databases have (opaque). @since 1.0 */
struct gamedb_chessbase;
/** What only Chess Assistant databases have (opaque). @since 1.1 */
struct gamedb_chessassistant;

/**
 * Reader capabilities, from gamedb_reader_capabilities().
 * @since 1.0
 */
enum gamedb_capability {
	GAMEDB_CAP_SEEK = 1,       /**< gamedb_reader_seek_game() works. */
	GAMEDB_CAP_COUNT = 2,      /**< gamedb_reader_game_count() works without reading every game. */
	GAMEDB_CAP_MULTIFILE = 4,  /**< The database is made of several files. */
	GAMEDB_CAP_VARIATIONS = 8, /**< Games may hold variations. */
	GAMEDB_CAP_XIANGQI = 16    /**< Games are Chinese chess. */
};

/**
 * Creates a reader. No format is enabled yet: call gamedb_reader_support_format_all() or
 * gamedb_reader_set_format() before opening.
 *
 * @return a new reader the caller frees with gamedb_reader_free(), or NULL if out of memory.
 * @since 1.0
 */
GAMEDB_EXPORT struct gamedb_reader *gamedb_reader_new(void);

/**
 * Closes the database and frees the reader, every game it handed out (but not games made
 * with gamedb_game_dup()) and every message it returned. NULL does nothing.
 * Move iterators made from the reader's games must be freed before.
 * @since 1.0
 */
GAMEDB_EXPORT void gamedb_reader_free(struct gamedb_reader *r);

/**
 * Enables detection of every format this library knows, by content (bidding).
 * @return ::GAMEDB_OK, or ::GAMEDB_FATAL with ::GAMEDB_E_MISUSE after an open.
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_reader_support_format_all(struct gamedb_reader *r);

/**
 * Enables detection of the SCID format (si4/si3 + sn4/sn3 + sg4/sg3).
 * @return ::GAMEDB_OK, or ::GAMEDB_FATAL with ::GAMEDB_E_MISUSE after an open.
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_reader_support_format_scid(struct gamedb_reader *r);

/**
 * Enables detection of the ChessBase format (cbh + cbg, cba, cbp, cbt, cbc, cbs, cbe, cbj).
 * @return ::GAMEDB_OK, or ::GAMEDB_FATAL with ::GAMEDB_E_MISUSE after an open.
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_reader_support_format_chessbase(struct gamedb_reader *r);

/**
 * Enables detection of the XQF format (XQStudio xiangqi games, one game per file).
 * @return ::GAMEDB_OK, or ::GAMEDB_FATAL with ::GAMEDB_E_MISUSE after an open.
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_reader_support_format_xqf(struct gamedb_reader *r);

/**
 * Enables detection of one format by its name (gamedb_format_get_name(): "scid",
 * "chessbase", "xqf", ...), so that a format added later needs no new function.
 * @return ::GAMEDB_OK; ::GAMEDB_FATAL with ::GAMEDB_E_INVALID_ARGUMENT for an unknown name, or
 *         ::GAMEDB_E_MISUSE after an open.
 * @since 1.1
 */
GAMEDB_EXPORT int32_t gamedb_reader_support_format(struct gamedb_reader *r, const char *name);

/**
 * Skips detection: the next open uses the named format ("scid", "chessbase", "xqf").
 * @return ::GAMEDB_OK; ::GAMEDB_FATAL with ::GAMEDB_E_INVALID_ARGUMENT for an unknown name,
 *         or ::GAMEDB_E_MISUSE after an open.
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_reader_set_format(struct gamedb_reader *r, const char *name);

/**
 * Sets an option, before or after opening (libarchive's `format:key=value` model).
 *
 * Every option, with the formats that have it and their defaults (the test `header-docs`
 * checks this table against the code; gamedb_format_get_option() lists the options of a
 * format at run time, gamedb_format_get_charset() its default charset):
 *
 * | option             | format         | default      | meaning |
 * |--------------------|----------------|--------------|---------|
 * | `charset`          | scid           | `UTF-8`      | the charset of the base's text, an iconv name ("CP1252", "ISO-8859-1", "CP1251"), replacing the format's default and any detection |
 * | `charset`          | chessbase      | `CP1252`     | (the default when `charset-detect` is `no`) |
 * | `charset`          | chessassistant | `CP1251`     | (the default when `charset-detect` is `no`) |
 * | `charset`          | xqf            | `GB18030`    | |
 * | `charset`          | ccbridge       | `UTF-16LE`   | |
 * | `charset`          | style12        | `UTF-8`      | |
 * | `fallback-charset` | scid           | `ISO-8859-1` | when the charset is UTF-8: what bytes that are not UTF-8 are read as (with a warning once per open and per game) |
 * | `fallback-charset` | chessbase      | `CP1252`     | (used only with `charset` UTF-8) |
 * | `fallback-charset` | chessassistant | `CP1252`     | (used only with `charset` UTF-8) |
 * | `fallback-charset` | xqf            | `CP1252`     | (used only with `charset` UTF-8) |
 * | `fallback-charset` | ccbridge       | `CP1252`     | (used only with `charset` UTF-8) |
 * | `fallback-charset` | style12        | `CP1252`     | |
 * | `language`         | chessbase      | `all`        | keep annotation texts in one language (en, de, fr, es, it, nl, pl, pt) and those in none |
 * | `charset-detect`   | chessbase      | `yes`        | choose CP1251 or CP1252 from the name tables (`no`: the `charset` default) |
 * | `charset-detect`   | chessassistant | `yes`        | the same; CP1251 on a tie |
 * | `direction`        | chessassistant | `auto`       | which way the column part of a move code counts: `right`, `left`, or `auto` (by legality) |
 * | `password`         | every format   | (none)       | the password of an encrypted archive (a ChessBase `.cbz`), used by the open that deciphers it; set it before the open (after it, ::GAMEDB_WARN and no effect). An empty value or NULL forgets it. Without it such an archive fails to open with ::GAMEDB_E_UNSUPPORTED, with a wrong one with ::GAMEDB_E_INVALID_ARGUMENT (@since 1.1) |
 *
 * @param r the reader.
 * @param format a format name to address one format only, or NULL for all of them.
 * @param key the option name (the table above).
 * @param value the value, or NULL to restore the default.
 *
 * A format's option set before the open is kept and handed to the format that opens the base
 * (so a program can configure a reader before it knows which base the user picks); if that
 * format refuses its value, the open fails with the format's message. A key that no format
 * knows fails at once, before or after the open.
 * @return ::GAMEDB_OK (before the open: kept); ::GAMEDB_WARN when the key is known, but not
 *         to the open (or addressed) format; ::GAMEDB_FAILED with ::GAMEDB_E_UNKNOWN_OPTION
 *         when no format knows the key, or ::GAMEDB_E_INVALID_ARGUMENT for a bad value (e.g. a
 *         charset iconv does not know).
 * @since 1.0; options of a format kept from before the open since 1.1
 */
GAMEDB_EXPORT int32_t gamedb_reader_set_option(struct gamedb_reader *r, const char *format,
					       const char *key, const char *value);

/**
 * A caller-supplied text converter, tried before the library's own (iconv) conversion.
 *
 * @param user_data the pointer given to gamedb_reader_set_converter().
 * @param charset the source charset name the library would use (e.g. "CP1252"); valid only
 *        during the call, as @p in and @p out are.
 * @param in the raw bytes (not NUL-terminated).
 * @param in_len the number of bytes at @p in.
 * @param out where to write UTF-8 (not NUL-terminated).
 * @param out_cap the room at @p out: always at least 4 * in_len + 4 bytes.
 * @param out_len set to the number of bytes written.
 * @return ::GAMEDB_OK (converted), ::GAMEDB_WARN (converted with loss), or any other value to
 *         decline, so that the library converts the text itself.
 * @since 1.0
 */
typedef int32_t (*gamedb_text_converter_fn)(void *user_data, const char *charset,
					     const char *in, size_t in_len, char *out,
					     size_t out_cap, size_t *out_len);

/**
 * Installs a text converter hook (NULL removes it). @p user_data is passed back to every call
 * and is never freed by the library.
 * @return ::GAMEDB_OK.
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_reader_set_converter(struct gamedb_reader *r,
						  gamedb_text_converter_fn fn, void *user_data);

/**
 * The units of a progress report (gamedb_progress_fn()).
 * @since 1.1
 */
enum gamedb_progress_unit {
	/** Bytes: of an archive unpacked at the open (its packed bytes read), of a stream read
	 *  (a style 12 log). Reported at least every MiB of work (GAMEDB_PROGRESS_BYTES_STEP). */
	GAMEDB_PROGRESS_BYTES = 1,
	/** Games read from a base that counts its games (gamedb_reader_game_count()), or added to
	 *  a book. Reported every 4,096 games (GAMEDB_PROGRESS_GAMES_STEP). */
	GAMEDB_PROGRESS_GAMES = 2,
	/** Book entries (position and move) merged while a book is written. Reported every
	 *  4,096 entries (GAMEDB_PROGRESS_ENTRIES_STEP). */
	GAMEDB_PROGRESS_ENTRIES = 3
};

/** Bytes of work between two reports in ::GAMEDB_PROGRESS_BYTES (1 MiB). @since 1.1 */
#define GAMEDB_PROGRESS_BYTES_STEP (1u << 20)
/** Games between two reports in ::GAMEDB_PROGRESS_GAMES. @since 1.1 */
#define GAMEDB_PROGRESS_GAMES_STEP 4096u
/** Entries between two reports in ::GAMEDB_PROGRESS_ENTRIES. @since 1.1 */
#define GAMEDB_PROGRESS_ENTRIES_STEP 4096u

/**
 * A progress callback (gamedb_reader_set_progress(), gamedb_book_set_progress()), called from
 * inside the library's own calls, in the thread that made them, so that a caller can show how
 * far a long call is and stop it. Within one unit the reports are monotonic: @p done never
 * goes back, and the last report of a piece of work that ends (an archive unpacked, a log
 * read to its end, the last game of a base, a book written) has @p done equal to @p total.
 * The callback must not call the handle that reports.
 *
 * @param unit one of ::gamedb_progress_unit: what @p done and @p total count.
 * @param done how much of the work is done.
 * @param total the whole of it; 0 when it is not known (a stream on standard input).
 * @param user_data the pointer given with the callback.
 * @return 0 to go on; any other value stops the work: the call that reported returns
 *         ::GAMEDB_FATAL with ::GAMEDB_E_CANCELLED (a reader or book is then unusable but for
 *         its free function), except gamedb_book_write(), which returns ::GAMEDB_FAILED.
 * @since 1.1
 */
typedef int32_t (*gamedb_progress_fn)(int32_t unit, uint64_t done, uint64_t total,
				      void *user_data);

/**
 * Sets the reader's progress callback (NULL removes it), before the open or after it. Set
 * before the open, it reports the unpacking of an archive (a ChessBase `.cbv` or `.cbz`, in
 * ::GAMEDB_PROGRESS_BYTES of the archive); then, as games are read, the games of a base that
 * counts them (::GAMEDB_PROGRESS_GAMES: @p done the gamedb_reader_next_game() calls made,
 * @p total gamedb_reader_game_count()) or the bytes of a stream (a style 12 log,
 * ::GAMEDB_PROGRESS_BYTES: the bytes read, @p total the file's size or 0).
 *
 * The callback is called at most once per step of its unit, so a reader with a callback
 * reads as fast as one without. When it returns non-zero, the open or
 * gamedb_reader_next_game() that called it returns ::GAMEDB_FATAL with ::GAMEDB_E_CANCELLED
 * (gamedb_reader_errmsg() names the database), no game is handed out, and the reader is
 * unusable but for gamedb_reader_free(). @p user_data is never freed by the library.
 *
 * @return ::GAMEDB_OK, or ::GAMEDB_FATAL with ::GAMEDB_E_MISUSE for a bad or fatal reader.
 * @since 1.1
 */
GAMEDB_EXPORT int32_t gamedb_reader_set_progress(struct gamedb_reader *r, gamedb_progress_fn fn,
						 void *user_data);

/**
 * Opens a database by file name: the index file of a multi-file format ("base.si4") or its
 * base name ("base"). Sibling files are found next to it. Files are opened read-only and are
 * never written.
 *
 * On a reader that has a base open, this and every other open function close that base first
 * (since 1.1; before, the call was a misuse that left the reader fatal): its games and what
 * it handed out become invalid, as after gamedb_reader_free(); the formats enabled, the format
 * chosen with gamedb_reader_set_format(), the options set (and those a base gave it through
 * gamedb_reader_open_shared()) and the converter stay for the next base. The base is closed
 * whatever becomes of the open; an open that fails leaves the reader fatal, as ever (only
 * gamedb_reader_free() is valid then). A reader that had a fatal error opens nothing: free it
 * and make a new one.
 *
 * @return ::GAMEDB_OK, ::GAMEDB_WARN (opened, something was repaired), or ::GAMEDB_FATAL with
 *         a message (gamedb_reader_errmsg()) naming the file and the byte offset.
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_reader_open_filename(struct gamedb_reader *r, const char *path);

/**
 * Opens a database held in memory, for single-file formats. The memory is not copied and must
 * stay valid and unchanged until gamedb_reader_free() (or the next open on the reader). @p name (may be NULL; copied) is used
 * in messages and for detection by extension.
 * @return as gamedb_reader_open_filename().
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_reader_open_memory(struct gamedb_reader *r, const char *name,
						const void *data, size_t size);

/**
 * Opens a multi-file database held in memory: @p count files given by parallel arrays of
 * names ("base.si4", "base.sn4", "base.sg4"), data pointers and sizes. The first file is the
 * one the database is opened by; siblings are found by name. Names are copied; the memory is
 * not, and must outlive the reader (or stay until the next open on it).
 * @return as gamedb_reader_open_filename().
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_reader_open_memory_set(struct gamedb_reader *r,
						    const char *const *names,
						    const void *const *data, const size_t *sizes,
						    size_t count);

/**
 * Caller I/O: how the library reaches the files of a database through the caller.
 * A caller-filled struct: set @p size to sizeof(struct gamedb_io) (or call
 * gamedb_io_init()) before filling it. Every callback receives the @p user_data given to
 * gamedb_reader_open_io().
 * @since 1.0
 */
struct gamedb_io {
	/** sizeof(struct gamedb_io) as the caller was compiled. */
	size_t size;
	/**
	 * Opens the file @p name (valid only during the call) read-only; sets *handle and
	 * *file_size. A stream whose length cannot be known (a pipe) may set *file_size to
	 * UINT64_MAX: the first read that returns 0 then ends it (since 1.1; only stream
	 * formats, such as style12, can be read this way: they read forward only).
	 * Returns 0 on success, any other value if the file does not exist or cannot be opened.
	 */
	int32_t (*open)(void *user_data, const char *name, void **handle, uint64_t *file_size);
	/**
	 * Reads up to @p len bytes at @p offset into @p buf. Returns the number of bytes read
	 * (fewer only at the end of the file), or -1 on error.
	 */
	int64_t (*read_at)(void *user_data, void *handle, uint64_t offset, void *buf, size_t len);
	/** Closes a handle returned by open. */
	void (*close)(void *user_data, void *handle);
};

/**
 * Zeroes @p io and sets its size field. @p size must be sizeof(struct gamedb_io).
 * @return ::GAMEDB_OK, or ::GAMEDB_FAILED with ::GAMEDB_E_STRUCT_SIZE.
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_io_init(struct gamedb_io *io, size_t size);

/**
 * Opens a database through caller I/O: @p name is the file the database is opened by
 * ("base.si4"); siblings are asked for by name through io->open. The struct is copied;
 * @p user_data must stay valid until gamedb_reader_free() (or the next open on the reader,
 * which closes the files through io->close).
 * @return as gamedb_reader_open_filename(); ::GAMEDB_FATAL with ::GAMEDB_E_STRUCT_SIZE if
 *         io->size is not acceptable.
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_reader_open_io(struct gamedb_reader *r, const struct gamedb_io *io,
					    const char *name, void *user_data);

/**
 * Opens on @p r the database that @p base has open, for another thread: what @p base holds
 * read-only is shared, not made again. An archive @p base unpacked (a ChessBase `.cbv` or
 * `.cbz`, up to 1 GiB) is not unpacked nor deciphered again: both readers read the same
 * members, so the memory of N readers of an archive is that of one. A base on disk is opened
 * again from the file @p base found; one in memory (gamedb_reader_open_memory_set()) on the
 * same memory, which must then outlive both readers.
 *
 * @p r must be new (only options may have been set on it), or have a base open, which is
 * closed first (see gamedb_reader_open_filename()). It gets @p base's format (no
 * bidding), charset, fallback charset and every format option @p base was given, before its
 * open and after; options set on @p r before this call win over them. The converter hook
 * (gamedb_reader_set_converter()) is not taken over: it may not be safe in two threads; set
 * it on @p r if wanted. @p r starts at game 0, whatever @p base's position.
 *
 * Threads and ownership: @p base is not changed and may be in use by another thread during the
 * call (reading games; not an option being set, nor gamedb_reader_free()). After it the two
 * readers are independent: each is used by one thread at a time and freed with
 * gamedb_reader_free(), in either order, from any thread; what they share is freed with the
 * last of them.
 *
 * @return as gamedb_reader_open_filename(); ::GAMEDB_FATAL with ::GAMEDB_E_INVALID_ARGUMENT
 *         when @p base has no database open (or is @p r), ::GAMEDB_E_UNSUPPORTED when @p base
 *         reads through caller I/O (its callbacks may not be usable twice: open that with
 *         gamedb_reader_open_io()), ::GAMEDB_E_MISUSE when @p r had a fatal error.
 * @since 1.1
 */
GAMEDB_EXPORT int32_t gamedb_reader_open_shared(struct gamedb_reader *r,
						const struct gamedb_reader *base);

/**
 * Reads the next game's header. The first call after an open gives game 0.
 *
 * @param r the reader.
 * @param out set to the game, **borrowed**: owned and reused by the reader, valid until the
 *        next call of gamedb_reader_next_game(), gamedb_reader_seek_game(), an open or
 *        gamedb_reader_free() on @p r. Keep a game longer with gamedb_game_dup().
 * @return ::GAMEDB_OK; ::GAMEDB_WARN (the game is delivered, something was lost or repaired:
 *         see gamedb_reader_errmsg()); ::GAMEDB_END after the last game; ::GAMEDB_FAILED when
 *         this game is unreadable (*out is NULL; the next call goes on with the next game);
 *         ::GAMEDB_FATAL when the reader cannot go on.
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_reader_next_game(struct gamedb_reader *r, struct gamedb_game **out);

/**
 * Positions the reader so that the next gamedb_reader_next_game() gives game @p index
 * (0-based). Needs ::GAMEDB_CAP_SEEK.
 * @return ::GAMEDB_OK; ::GAMEDB_FAILED with ::GAMEDB_E_RANGE past the last game, or
 *         ::GAMEDB_E_UNSUPPORTED without the capability.
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_reader_seek_game(struct gamedb_reader *r, uint64_t index);

/**
 * The number of games (deleted games included), for formats with ::GAMEDB_CAP_COUNT.
 * @return ::GAMEDB_OK; ::GAMEDB_FAILED with ::GAMEDB_E_UNSUPPORTED for pure streams.
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_reader_game_count(struct gamedb_reader *r, uint64_t *out);

/**
 * The capabilities of the open database (::gamedb_capability bits), 0 before an open.
 * @since 1.0
 */
GAMEDB_EXPORT uint32_t gamedb_reader_capabilities(const struct gamedb_reader *r);

/**
 * The name of the open database's format ("scid"), or NULL before an open.
 * @return a static string.
 * @since 1.0
 */
GAMEDB_EXPORT const char *gamedb_reader_format(const struct gamedb_reader *r);

/**
 * Tells whether @p path names one of the files on disk that the open database @p r reads
 * (its index, name, game or annotation files), following symbolic links and comparing the
 * device and inode, not the name. A program that writes a file next to a database calls this
 * before it creates or truncates @p path, so that it can never write over the database it
 * reads; the gamedb command does so for its -o file.
 * Files of memory and caller-I/O sources are never on disk and never match.
 * The reader is not changed, so this may be asked at any time after an open.
 * @return 1 if it does, 0 if it does not (or @p path does not exist); ::GAMEDB_FATAL when
 *         @p r is not a reader or @p path is NULL, or when @p path cannot be examined
 *         (errno then tells why; a caller should treat that as "cannot tell" and refuse).
 * @since 1.1
 */
GAMEDB_EXPORT int32_t gamedb_reader_uses_file(const struct gamedb_reader *r, const char *path);

/**
 * The message of the last warning or error on this reader, naming the file and the byte
 * offset where it applies; "" if there was none.
 * @return a string owned by the reader, valid until the next call on @p r.
 * @since 1.0
 */
GAMEDB_EXPORT const char *gamedb_reader_errmsg(const struct gamedb_reader *r);

/**
 * The detail code (::gamedb_error) of the last warning or error on this reader.
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_reader_errcode(const struct gamedb_reader *r);

/**
 * The operating system's error number (an errno value: ENOENT, EACCES, EISDIR, ...) behind the
 * last error on this reader, when its detail code is ::GAMEDB_E_IO and a call of the system
 * failed (a file of the database could not be opened or read); 0 otherwise: no error, another
 * detail code, or an I/O error the system did not give (a file that shrank while open, the
 * caller's I/O, a member missing from a memory set). A file that is not a regular file gives
 * EISDIR for a folder and 0 for the other kinds (a FIFO, a device), which no errno names.
 * On Windows the system's error is given as the errno the C runtime maps it to (a missing file
 * or folder: ENOENT; access refused or a sharing violation: EACCES; others EIO).
 *
 * A binding raises its language's own "file not found" or "permission denied" error with it,
 * without opening the file again to learn why.
 * @return the errno value, or 0; 0 for an invalid handle.
 * @since 1.2
 */
GAMEDB_EXPORT int32_t gamedb_reader_get_os_error(const struct gamedb_reader *r);

/**
 * @name A base's own properties
 * What a base holds that is not per game (a library's name, its source and creator, a base's
 * description), as name/value pairs, one way for every format: a caller needs no per-format
 * handle to show them. Names are stable, lower case, words joined by hyphens; values are
 * UTF-8 text (numbers in decimal), "" when the base leaves the field empty. A format gives the
 * same names in the same order for every base of a kind:
 *
 * | format | names |
 * |---|---|
 * | `ccbridge` library (`.cbl`) | `name`, `source`, `creator`, `creator-email`, `created`, `modified` (the dates as the text CCBridge wrote, "2009-09-05 15:06:26"), `remarks` (line breaks LF, blank ends trimmed), `guid` ("{7918A863-F58A-48F5-90D5-C43395C50C62}"), `index-size` (the index entries the library was built for) |
 * | `ccbridge` record (`.cbr`) | none: all a record holds is its game's (tags) |
 * | `scid` | `version` (300, 400 or 500, as gamedb_scid_get_version()), `description`, `base-type`, `custom-flag-1` ... `custom-flag-6` ("" when unnamed), `autoload` |
 * | `chessassistant` | `comment` (the base's comment, as gamedb_chessassistant_get_comment()) |
 * | others | none yet |
 *
 * The properties are read at the first of these calls after the open (a library's remarks
 * take up to 64 KiB) and kept until the base is closed. When a value's stored text had to be
 * repaired (a field with no terminator read to its end, a letter that is no text replaced by
 * U+FFFD), every call leaves the reader's error set to that warning (gamedb_reader_errcode()
 * ::GAMEDB_E_ENCODING or ::GAMEDB_E_CORRUPT, gamedb_reader_errmsg() naming the file, the
 * offset and the property); otherwise every call clears it.
 *
 * @code
 * int32_t i, n = gamedb_reader_get_property_count(r);
 * for (i = 0; i < n; i++)
 *     printf("%s: %s\n", gamedb_reader_get_property_name(r, i),
 *            gamedb_reader_get_property_value(r, i));
 * @endcode
 * @{
 */

/**
 * The number of properties of the open base.
 * @return the count (0 when its format gives none), or ::GAMEDB_FATAL when no base is open,
 *         the handle is invalid or memory ran out (the reader is then unusable).
 * @since 1.2
 */
GAMEDB_EXPORT int32_t gamedb_reader_get_property_count(struct gamedb_reader *r);

/**
 * The name of property @p i (0 .. count - 1).
 * @return a static string (valid as long as the library is loaded), or NULL when @p i is out
 *         of range or no base is open.
 * @since 1.2
 */
GAMEDB_EXPORT const char *gamedb_reader_get_property_name(struct gamedb_reader *r, int32_t i);

/**
 * The value of property @p i (0 .. count - 1): UTF-8 text, possibly "".
 * @return a string owned by the reader, valid until the base is closed (gamedb_reader_free(),
 *         or the open of another base on @p r), or NULL when @p i is out of range or no base
 *         is open.
 * @since 1.2
 */
GAMEDB_EXPORT const char *gamedb_reader_get_property_value(struct gamedb_reader *r, int32_t i);

/**
 * The value of the property named @p name ("name", "description", ...).
 * @return a string owned by the reader, valid until the base is closed (gamedb_reader_free(),
 *         or the open of another base on @p r), or NULL when the base's format gives no such
 *         property, @p name is NULL or no base is open.
 * @since 1.2
 */
GAMEDB_EXPORT const char *gamedb_reader_get_property(struct gamedb_reader *r, const char *name);

/** @} */

/** @} */

/**
 * @defgroup game Game
 * A game's headers, start position and moves.
 * @{
 */

/**
 * Game variants, from gamedb_game_get_variant().
 * @since 1.0
 */
enum gamedb_variant {
	GAMEDB_VARIANT_CHESS = 1,    /**< Standard chess (any start position). */
	GAMEDB_VARIANT_CHESS960 = 2, /**< Chess960 / Fischer random castling rules. */
	GAMEDB_VARIANT_XIANGQI = 3,  /**< Chinese chess. */
	GAMEDB_VARIANT_BUGHOUSE = 4, /**< Bughouse (style 12 sessions): one board of the pair;
					  drops as in crazyhouse, the men in hand come from the
					  partner's board. */
	GAMEDB_VARIANT_CRAZYHOUSE = 5 /**< Crazyhouse: captured men change sides and may be dropped
					   back ("P@e4"); the FEN carries the holdings
					   ("...RNBQKBNR[Pn] w KQkq - 0 1") and marks promoted men
					   with "~". @since 1.1 */
};

/**
 * The game's 0-based position in its database.
 * @since 1.0
 */
GAMEDB_EXPORT uint64_t gamedb_game_get_index(const struct gamedb_game *g);

/**
 * The number of tags (PGN-style header pairs) of the game.
 *
 * Tags come in PGN order: the Seven Tag Roster first (Event, Site, Date, Round, White, Black,
 * Result), then the others. Formats that keep some tags outside their index (SCID's extra
 * tags) read them on the first call of a tag function that needs them.
 * @since 1.0
 */
GAMEDB_EXPORT size_t gamedb_game_get_tag_count(struct gamedb_game *g);

/**
 * The name and value of tag @p i (0-based, below gamedb_game_get_tag_count()).
 * @param g the game.
 * @param i the tag's position.
 * @param name set to the tag name (borrowed, valid as long as the game).
 * @param value set to the value in UTF-8 (borrowed, valid as long as the game).
 * @return ::GAMEDB_OK, or ::GAMEDB_FAILED with ::GAMEDB_E_RANGE.
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_game_get_tag_at(struct gamedb_game *g, size_t i, const char **name,
					     const char **value);

/**
 * The value of the tag @p name (case-sensitive) in UTF-8, or NULL if the game has no such tag.
 * @return a string owned by the game, valid as long as the game.
 * @since 1.0
 */
GAMEDB_EXPORT const char *gamedb_game_get_tag(struct gamedb_game *g, const char *name);

/**
 * The original bytes of tag @p name as stored in the database, before conversion.
 * @param g the game.
 * @param name the tag name.
 * @param len set to the number of bytes (the result is also NUL-terminated).
 * @param charset set to the name of the charset the library read them as ("CP1251"), a string
 *        owned by the game and valid as long as the game (also in a copy made by
 *        gamedb_game_dup() after gamedb_reader_free()); NULL for a tag the library made
 *        rather than read as text (a date, a result, a number, a "?"). The pointer may be
 *        NULL.
 * @return bytes owned by the game, valid as long as the game, or NULL if there is no such tag.
 * @since 1.0
 */
GAMEDB_EXPORT const char *gamedb_game_get_tag_raw(struct gamedb_game *g, const char *name,
						  size_t *len, const char **charset);

/**
 * The start position as FEN (the standard start for most games).
 * @return a string owned by the game, valid as long as the game.
 * @since 1.0
 */
GAMEDB_EXPORT const char *gamedb_game_get_fen(struct gamedb_game *g);

/**
 * The position after the last move of the main line, as FEN (the start position for a game
 * without moves). Decodes the moves if they were not decoded yet.
 * @return a string owned by the game, valid as long as the game, or NULL when the moves cannot
 *         be decoded (gamedb_game_errmsg() says why).
 * @since 1.0
 */
GAMEDB_EXPORT const char *gamedb_game_get_final_fen(struct gamedb_game *g);

/**
 * The 64-bit key of the start position: for chess its Polyglot key (the key of opening books,
 * equal to PolyGlot's own), for xiangqi the key of the same kind that `doc/keys.md` defines.
 * gamedb_event_get_key() gives the key after each move.
 * @param g a game.
 * @param key receives the key (untouched on failure).
 * @return ::GAMEDB_OK, or ::GAMEDB_FAILED when the start position cannot be read
 *         (gamedb_game_errmsg() says why).
 * @since 1.1
 */
GAMEDB_EXPORT int32_t gamedb_game_get_start_key(struct gamedb_game *g, uint64_t *key);

/**
 * The variant (::gamedb_variant) of the game.
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_game_get_variant(const struct gamedb_game *g);

/**
 * 1 if the game is marked deleted in its database (it is still readable), else 0.
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_game_is_deleted(const struct gamedb_game *g);

/**
 * The message of the last warning or error that concerns this game ("" if none): a tag that
 * could not be converted, an illegal move with its place, or what a writer changed
 * (gamedb_game_write_pgn() returned ::GAMEDB_WARN: a tag kept in a comment); a writer's note is
 * added after the reader's message and stays with the game (and with a copy made after it).
 * @return a string owned by the game, valid until the next call on the game.
 * @since 1.0
 */
GAMEDB_EXPORT const char *gamedb_game_errmsg(const struct gamedb_game *g);

/**
 * Whether the game's text came through intact: ::GAMEDB_WARN when a tag, or (once the moves are
 * decoded) a comment, could not be converted to UTF-8 without loss, or was not in the base's
 * charset and was read in the fallback charset (`fallback-charset`; said once per game, the
 * message naming file, game and text: @since 1.1), or a field was repaired; else
 * ::GAMEDB_OK. gamedb_game_errmsg() says what.
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_game_get_status(const struct gamedb_game *g);

/**
 * Copies a game so that it outlives the reader's next call. The moves are decoded first, so
 * the copy does not need the reader: it stays valid after gamedb_reader_free() (and after the
 * memory of gamedb_reader_open_memory() is freed). Every pointer the copy hands out (tag names,
 * values, raw bytes and their charset name, FENs, its message, its events' strings) is owned
 * by the copy, never by the reader.
 * @param g the game.
 * @param out set to the copy, owned by the caller, freed with gamedb_game_free().
 * @return ::GAMEDB_OK; ::GAMEDB_WARN when the moves could not all be decoded (the copy holds
 *         the legal part; its move iterator reports the failure); ::GAMEDB_FAILED with
 *         ::GAMEDB_E_NOMEM.
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_game_dup(struct gamedb_game *g, struct gamedb_game **out);

/**
 * Frees a game made by gamedb_game_dup(). NULL does nothing. Games handed out by
 * gamedb_reader_next_game() belong to the reader and must not be passed here.
 * @since 1.0
 */
GAMEDB_EXPORT void gamedb_game_free(struct gamedb_game *g);

/** @} */

/**
 * @defgroup moves Move iterator and events
 *
 * The canonical loop:
 * @code
 * struct gamedb_move_iter *it;
 * const struct gamedb_event *ev;
 * if (gamedb_move_iter_new(g, 0, &it) != GAMEDB_OK) {
 *     fprintf(stderr, "%s\n", gamedb_game_errmsg(g));
 *     return;
 * }
 * while (gamedb_move_iter_next(it, &ev) == GAMEDB_OK) {
 *     if (gamedb_event_get_type(ev) == GAMEDB_EVENT_MOVE)
 *         printf("%s ", gamedb_event_get_san(ev));
 * }
 * gamedb_move_iter_free(it);
 * @endcode
 * @{
 */

/**
 * Event types, from gamedb_event_get_type().
 * @since 1.0
 */
enum gamedb_event_type {
	GAMEDB_EVENT_MOVE = 1,            /**< A move: gamedb_event_get_move(), _san(), _uci(), _fen(). */
	GAMEDB_EVENT_VARIATION_BEGIN = 2, /**< An alternative to the move just given begins. */
	GAMEDB_EVENT_VARIATION_END = 3,   /**< The innermost variation ends. */
	GAMEDB_EVENT_COMMENT_BEFORE = 4,  /**< A comment before the next move (or before the game). */
	GAMEDB_EVENT_COMMENT_AFTER = 5,   /**< A comment after the move just given. */
	GAMEDB_EVENT_NAG = 6,             /**< A numeric annotation glyph for the move just given. */
	GAMEDB_EVENT_CLOCK = 7,           /**< A clock reading after the move just given: text in
					       PGN command form without brackets, "%clk 1:02:03". */
	GAMEDB_EVENT_RESULT = 8,          /**< The game result, last event of the main line. */
	GAMEDB_EVENT_COMMAND = 9,         /**< A markup command for the move just given (or the
					       start, before any move), text in PGN command form
					       without brackets: "%csl Gd4,Re5" (coloured squares),
					       "%cal Ge2e4" (arrows), "%emt 0:00:12", ...
					       @since 1.0 */
	GAMEDB_EVENT_ANNOTATION = 10      /**< A stored annotation the library has no mapping for:
					       its format's type code through
					       gamedb_event_get_annotation_type(), its stored bytes
					       through gamedb_event_get_text_raw(). @since 1.0 */
};

/**
 * Move iterator flags, given to gamedb_move_iter_new().
 * @since 1.0
 */
enum gamedb_iter_flags {
	GAMEDB_ITER_MAINLINE_ONLY = 1,  /**< Skip variations. */
	GAMEDB_ITER_SKIP_COMMENTS = 2,  /**< Skip comments. */
	GAMEDB_ITER_FEN = 4,            /**< Make gamedb_event_get_fen() available on MOVE events. */
	GAMEDB_ITER_PARTIAL = 8,        /**< When decoding fails, iterate over the part before the
					     failure instead of failing (the constructor then
					     returns ::GAMEDB_WARN). */
	GAMEDB_ITER_UCI_KING_TAKES_ROOK = 16 /**< gamedb_event_get_uci() writes castling as the
					     king taking its own rook (e1h1, or e1 to the Chess960
					     rook's square), as UCI engines want it in Chess960
					     mode; without it, king to its destination (e1g1).
					     @since 1.1 */
};

/**
 * Piece types, from gamedb_event_get_piece().
 * @since 1.0
 */
enum gamedb_piece {
	GAMEDB_PIECE_NONE = 0,
	GAMEDB_PIECE_PAWN = 1,
	GAMEDB_PIECE_KNIGHT = 2,
	GAMEDB_PIECE_BISHOP = 3,
	GAMEDB_PIECE_ROOK = 4,
	GAMEDB_PIECE_QUEEN = 5,
	GAMEDB_PIECE_KING = 6,      /**< Also the xiangqi general. */
	GAMEDB_PIECE_ADVISOR = 7,   /**< Xiangqi advisor. Chariot, horse, soldier are ROOK, KNIGHT,
				         PAWN. */
	GAMEDB_PIECE_ELEPHANT = 8,  /**< Xiangqi elephant. */
	GAMEDB_PIECE_CANNON = 9     /**< Xiangqi cannon. */
};

/**
 * Move notations, for gamedb_event_get_notation().
 * @since 1.0
 */
enum gamedb_notation {
	GAMEDB_NOTATION_SAN = 1,    /**< Chess SAN ("Nf3"); for xiangqi the same as WXF. */
	GAMEDB_NOTATION_UCI = 2,    /**< Chess UCI ("g1f3"); for xiangqi the same as ICCS. */
	GAMEDB_NOTATION_ICCS = 3,   /**< Xiangqi ICCS coordinates ("h2e2"); chess: as UCI. */
	GAMEDB_NOTATION_WXF = 4,    /**< Xiangqi WXF ("C2.5"); not defined for chess. */
	GAMEDB_NOTATION_CHINESE = 5 /**< Xiangqi Chinese notation in UTF-8 ("炮二平五"); not
				         defined for chess. */
};

/**
 * Creates an iterator over the moves and annotations of @p g, decoding the moves on first use
 * (listing headers never decodes moves). Each move is checked for legality.
 *
 * @param g the game.
 * @param flags ::gamedb_iter_flags bits.
 * @param out set to the iterator, owned by the caller, freed with gamedb_move_iter_free(),
 *        which must happen before the game stops being valid.
 * @return ::GAMEDB_OK; ::GAMEDB_FAILED when the moves cannot be decoded (*out is NULL and
 *         gamedb_game_errmsg() tells where), unless ::GAMEDB_ITER_PARTIAL was given, in which
 *         case ::GAMEDB_WARN with an iterator over the legal part.
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_move_iter_new(struct gamedb_game *g, uint32_t flags,
					   struct gamedb_move_iter **out);

/**
 * Gives the next event.
 * @param it the iterator.
 * @param out set to the event, borrowed: valid until the next gamedb_move_iter_next() or
 *        gamedb_move_iter_free() on @p it; so are the strings its accessors return.
 * @return ::GAMEDB_OK, or ::GAMEDB_END after the last event.
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_move_iter_next(struct gamedb_move_iter *it,
					    const struct gamedb_event **out);

/**
 * Frees an iterator. NULL does nothing.
 * @since 1.0
 */
GAMEDB_EXPORT void gamedb_move_iter_free(struct gamedb_move_iter *it);

/**
 * The type (::gamedb_event_type) of an event.
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_event_get_type(const struct gamedb_event *ev);

/**
 * The squares of a MOVE event. Chess squares are 0..63 (a1 = 0, h1 = 7, h8 = 63); castling is
 * given as the king's move (e1 to g1). A null move has from == to, and so has a castling in
 * which the king stays on its square (Chess960, king on g1: "O-O"); gamedb_event_get_piece()
 * tells them apart (0 for a null move, the king for castling). Xiangqi squares are
 * 0..89, rank * 9 + file, in the ICCS frame (a0 = 0, i0 = 8, e9 = 85: Red at the bottom).
 * A drop (crazyhouse, bughouse: a man from the hand put on an empty square) has from == -1,
 * to the square, and gamedb_event_get_piece() gives the man dropped; its SAN and UCI are
 * "P@e4", "N@f3".
 * @param ev the event.
 * @param from set to the origin square, -1 for a drop (may be NULL).
 * @param to set to the destination square (may be NULL).
 * @param promo set to the promotion piece, a ::gamedb_piece or 0 (may be NULL).
 * @return ::GAMEDB_OK, or ::GAMEDB_FAILED with ::GAMEDB_E_MISUSE if the event is no move.
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_event_get_move(const struct gamedb_event *ev, int32_t *from,
					    int32_t *to, int32_t *promo);

/**
 * The moving piece (::gamedb_piece) of a MOVE event, 0 for other events and null moves.
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_event_get_piece(const struct gamedb_event *ev);

/**
 * The SAN of a MOVE event ("Nbd7", "exd8=Q+", "O-O", "--"), written when the game's moves
 * were decoded (the decoder plays each move once); for a xiangqi game its WXF form ("C2.5").
 * @return a string valid until the next gamedb_move_iter_next() or gamedb_move_iter_free()
 *         on the iterator, or NULL for other events.
 * @since 1.0
 */
GAMEDB_EXPORT const char *gamedb_event_get_san(const struct gamedb_event *ev);

/**
 * The UCI form of a MOVE event ("e2e4", "e7e8q", "e1g1", "0000" for a null move); for a
 * xiangqi game its ICCS form ("h2e2"). Castling in a Chess960 game (::GAMEDB_VARIANT_CHESS960)
 * is written king takes own rook ("f1g1", "b1a1"), as engines in UCI_Chess960 mode want it; so
 * is, in any game, a castling in which the king stays on its square ("g1h1", not "g1g1").
 * @return a string valid until the next gamedb_move_iter_next() or gamedb_move_iter_free()
 *         on the iterator, or NULL for other events.
 * @since 1.0
 */
GAMEDB_EXPORT const char *gamedb_event_get_uci(const struct gamedb_event *ev);

/**
 * The FEN after a MOVE event; needs ::GAMEDB_ITER_FEN.
 * @return a string valid until the next gamedb_move_iter_next() or gamedb_move_iter_free()
 *         on the iterator, or NULL.
 * @since 1.0
 */
GAMEDB_EXPORT const char *gamedb_event_get_fen(const struct gamedb_event *ev);

/**
 * The 64-bit key of the position after a MOVE event: for chess the Polyglot key (the key of
 * opening books: the standard start position is 0x463b96181691fc9c, after 1.e4
 * 0x823c9b50fd114196), for xiangqi the key of the same kind that `doc/keys.md` defines.
 * Computed from the position only when asked; needs no iterator flag.
 * @param ev an event.
 * @param key receives the key (untouched on failure).
 * @return ::GAMEDB_OK, or ::GAMEDB_FAILED for an event that is not a move.
 * @since 1.1
 */
GAMEDB_EXPORT int32_t gamedb_event_get_key(const struct gamedb_event *ev, uint64_t *key);

/**
 * A MOVE event in the given notation (::gamedb_notation).
 * @return a string valid until the next gamedb_move_iter_next() or gamedb_move_iter_free()
 *         on the iterator; NULL for other events and for a
 *         notation the game's variant does not have (WXF or Chinese for chess).
 * @since 1.0
 */
GAMEDB_EXPORT const char *gamedb_event_get_notation(const struct gamedb_event *ev,
						    int32_t notation);

/**
 * The move number of a MOVE event (1 for the first move of a standard game) and whose move it
 * was (0 white, 1 black) through @p colour (may be NULL). 0 for other events.
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_event_get_move_number(const struct gamedb_event *ev,
						   int32_t *colour);

/**
 * The variation depth of an event: 0 on the main line.
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_event_get_depth(const struct gamedb_event *ev);

/**
 * The text of a COMMENT_BEFORE / COMMENT_AFTER event (UTF-8), or of a RESULT event ("1-0").
 * @return a string valid until the next gamedb_move_iter_next() or gamedb_move_iter_free()
 *         on the iterator, or NULL for other events.
 * @since 1.0
 */
GAMEDB_EXPORT const char *gamedb_event_get_text(const struct gamedb_event *ev);

/**
 * The text gamedb_event_get_text() gives, with its length: for a program that takes text as
 * a pointer and a length (a string view, a GUI toolkit's string, a binding), so that it need
 * not scan a long comment for its end once more.
 * @param ev the event.
 * @param len set to the number of bytes of the text, its NUL left out (what strlen() would
 *        give); 0 when there is no text (may be NULL).
 * @return what gamedb_event_get_text() returns, valid as long.
 * @since 1.2
 */
GAMEDB_EXPORT const char *gamedb_event_get_text_n(const struct gamedb_event *ev, size_t *len);

/**
 * The stored bytes of a COMMENT_BEFORE / COMMENT_AFTER event, before charset conversion (up to
 * the first NUL byte; the result is NUL-terminated); or the whole stored payload of an
 * ANNOTATION event (which may hold NUL bytes: use @p len).
 * @param ev the event.
 * @param len set to the number of bytes (may be NULL).
 * @return bytes valid until the next gamedb_move_iter_next() or gamedb_move_iter_free() on
 *         the iterator, or NULL for other events. Formats
 *         that store UTF-8 or do not keep the original give the UTF-8 text.
 * @since 1.0
 */
GAMEDB_EXPORT const char *gamedb_event_get_text_raw(const struct gamedb_event *ev, size_t *len);

/**
 * The NAG number (1 = "!", 2 = "?", ...) of a NAG event, or -1 for other events.
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_event_get_nag(const struct gamedb_event *ev);

/**
 * The language of a COMMENT_BEFORE / COMMENT_AFTER event as an ISO 639-1 code ("en", "de"),
 * or "" when the format does not say (or the text is for all languages); NULL for other events.
 * @return a static string.
 * @since 1.0
 */
GAMEDB_EXPORT const char *gamedb_event_get_language(const struct gamedb_event *ev);

/**
 * The format's own type code of an ANNOTATION event (ChessBase: the CBA entry type, such as
 * 0x13 for a game quotation), or -1 for other events.
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_event_get_annotation_type(const struct gamedb_event *ev);

/** @} */

/**
 * @defgroup write Writers
 * PGN and JSON Lines, built from the public event stream only.
 * @{
 */

/**
 * Where a writer sends its bytes.
 * @return 0 to go on, any other value to stop the writer (which then returns ::GAMEDB_FAILED
 *         with ::GAMEDB_E_IO).
 * @since 1.0
 */
typedef int32_t (*gamedb_write_fn)(void *user_data, const char *data, size_t len);

/**
 * Writer flags.
 * @since 1.0
 */
enum gamedb_write_flags {
	GAMEDB_WRITE_NO_COMMENTS = 1,   /**< Leave out comments. */
	GAMEDB_WRITE_NO_VARIATIONS = 2, /**< Leave out variations. */
	GAMEDB_WRITE_NO_NAGS = 4,       /**< Leave out NAGs. */
	GAMEDB_WRITE_NO_COMMANDS = 8,   /**< Leave out markup commands and clocks
					     (PGN `[%csl ...]`, `[%cal ...]`, `[%clk ...]`). */
	GAMEDB_WRITE_WXF = 16,          /**< PGN of xiangqi games: WXF moves (default ICCS). */
	GAMEDB_WRITE_CHINESE = 32,      /**< PGN of xiangqi games: Chinese moves (default ICCS). */
	GAMEDB_WRITE_FEN = 64,          /**< JSON: each move gets "fen", the position after it
					     (@since 1.1). */
	GAMEDB_WRITE_KEY = 128,         /**< JSON: each move gets "key", the position key after it
					     as 16 hex digits (gamedb_event_get_key()); positions:
					     the key of each position (@since 1.1). */
	GAMEDB_WRITE_LAYOUT_SCID = 256, /**< PGN in the layout of Scid's own export, byte for
					     byte (75 columns, a pre-game comment on a line of its
					     own, commands where they came, all of them) instead
					     of the default export layout (@since 1.1). */
	GAMEDB_WRITE_ALL_COMMANDS = 512, /**< PGN: every markup command, also those no other
					     tool reads (`[%medal]`, `[%crit]`, ...); by default
					     only `%cal`, `%csl`, `%clk`, `%emt` and `%eval`
					     (@since 1.1). */
	GAMEDB_WRITE_PARTIAL = 1024     /**< PGN and JSON: a game whose moves cannot all be
					     decoded is written up to the failure, with a
					     comment (JSON: a "partial" key) saying where and
					     why, result `*` in the movetext and in the Result
					     tag, and ::GAMEDB_WARN (@since 1.1). */
};

/**
 * What gamedb_game_write_positions() writes.
 * @since 1.1
 */
enum gamedb_positions_format {
	/** A line per position of the main line, the start included: game number (from 1),
	 *  ply (0 = the start), FEN, and with ::GAMEDB_WRITE_KEY the key, separated by tabs. */
	GAMEDB_POSITIONS_FEN = 1,
	/** A line of EPD per position: the FEN's first four fields and the operations
	 *  `id "game N ply P"; c0 "RESULT"; hmvc H; fmvn F;` (and `c1 "polyglot KEY";` with
	 *  ::GAMEDB_WRITE_KEY). */
	GAMEDB_POSITIONS_EPD = 2,
	/** One line per game as an engine takes it: `position startpos moves e2e4 ...` or
	 *  `position fen FEN moves ...`. */
	GAMEDB_POSITIONS_UCI = 3,
	/** A JSON object per position from which a move was played: `{"game": N, "ply": P,
	 *  "fen": "...", "move": "e2e4", "result": 1}`, the result from the view of the side to
	 *  move (1, 0.5, 0, or null when unknown), with "key" under ::GAMEDB_WRITE_KEY. */
	GAMEDB_POSITIONS_JSON = 4,
	/** The same as CSV rows `game,ply,fen,move,result[,key]` (no header line; the result
	 *  empty when unknown). */
	GAMEDB_POSITIONS_CSV = 5
};

/**
 * Writes the game as PGN: tags, a blank line, the movetext, and a blank line after it. Tag
 * names and values are written as the PGN standard (section 8.1) has them, in both layouts:
 * in a value, `"` and `\` are escaped and a control character (newline, tab, bytes 0x01-0x1F
 * and 0x7F) is written as a space; UTF-8 stays as it is (the output is UTF-8 PGN). A tag whose
 * name is not a PGN tag name (letters, digits and `_`, starting with a letter or a digit, at
 * most 255 bytes: a SCID extra tag may hold spaces, quotes, brackets or non-ASCII) is not
 * written as a tag but kept whole in a comment line of its own before the movetext,
 * `{[%tag "NAME" "VALUE"]}`, name and value as PGN strings (where a `}`, which would end the
 * comment, is written as `)`). Either change gives ::GAMEDB_WARN, and gamedb_game_errmsg()
 * then says which tags (doc/output.md). The default layout is the PGN standard's export
 * form as every common reader takes it: no blank line inside the movetext (a newline in a
 * comment is written as a space), lines of at most 79 characters, never broken inside a
 * `[%...]` command, the commands of a move first in its one comment, only the commands other
 * tools read (see ::GAMEDB_WRITE_ALL_COMMANDS). ::GAMEDB_WRITE_LAYOUT_SCID gives Scid's own
 * export layout instead (75 columns; lines of at most 74 bytes), byte for byte.
 * @param g the game.
 * @param flags ::gamedb_write_flags bits.
 * @param sink where the bytes go; called once per game.
 * @param user_data passed to @p sink.
 * @return ::GAMEDB_OK; ::GAMEDB_WARN if text was converted with loss or a tag had to be
 *         changed to be valid PGN (gamedb_game_errmsg() says what, after any warning the game
 *         had); ::GAMEDB_FAILED when the moves cannot be decoded (nothing is written;
 *         gamedb_game_errmsg() says why) or the sink stopped.
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_game_write_pgn(struct gamedb_game *g, uint32_t flags,
					    gamedb_write_fn sink, void *user_data);

/**
 * Writes the game as one line of JSON (JSON Lines) ending in '\n':
 * `{"index": 0, "tags": {...}, "variant": "chess", "fen": "...", "final_fen": "...",
 * "deleted": false, "moves": [{"san": "e4", "uci": "e2e4", "nags": [1],
 * "comment_before": "...", "comment": "...", "variations": [[...]]}]}`.
 * Keys with nothing to say (no NAGs, no comment, no variations) are left out of a move.
 *
 * The JSON nests at most 97 levels, so that every common reader takes it (Ruby's JSON stops
 * at 100, Rust's serde_json at 128, jq 1.6 at 256 counting an object twice, Python's json
 * near 1,000): variations are written nested ("variations") down to the 30th variation
 * depth, and a move there holds its variations flat instead ("variations_flat"): the moves of
 * those variations and of their own variations, in PGN order, each with its "depth" below
 * that move (1 for its variations) and the first move of each variation marked
 * "starts_variation". The tree is rebuilt by reading them in order: a move that starts a
 * variation at depth d replaces the last move read at depth d - 1 (the holder's move at
 * depth 0); any other move follows the last one at its depth. A variation without a move
 * has no entry there, and a comment that follows a move's variations there becomes the next
 * move's "comment_before" (doc/output.md). Nothing else changes: the real bases nest 8 deep
 * at most.
 *
 * The schema: every key of every object, its type, and when it is there (the test
 * `json-schema` checks the output of every real base against this table):
 *
 * | object     | key                | type                   | when |
 * |------------|--------------------|------------------------|------|
 * | game       | `file`             | string                 | the gamedb command only: the database as named (@since 1.1) |
 * | game       | `n`                | integer                | the gamedb command only: the object's place in its whole output, from 0 (@since 1.1) |
 * | game       | `index`            | integer                | always: the game's place in its base, from 0 |
 * | game       | `tags`             | object of string       | always: tag name to value, in the game's order |
 * | game       | `variant`          | string                 | always: chess, chess960, xiangqi, bughouse or crazyhouse |
 * | game       | `fen`              | string                 | always: the start position |
 * | game       | `final_fen`        | string                 | always: the position after the main line ("" when unknown) |
 * | game       | `deleted`          | boolean                | always |
 * | game       | `partial`          | string                 | ::GAMEDB_WRITE_PARTIAL and a game read in part: where and why it stopped (@since 1.1) |
 * | game       | `moves`            | array of move          | always: the main line |
 * | game       | `comment`          | string                 | a comment after the main line that no move holds |
 * | move       | `san`              | string                 | always: the move in SAN (xiangqi: WXF) |
 * | move       | `uci`              | string                 | always: the move in UCI (xiangqi: ICCS coordinates) |
 * | move       | `fen`              | string                 | ::GAMEDB_WRITE_FEN: the position after the move (@since 1.1) |
 * | move       | `key`              | string                 | ::GAMEDB_WRITE_KEY: the position key after the move, 16 hex digits (@since 1.1) |
 * | move       | `comment_before`   | string                 | a comment before the move |
 * | move       | `nags`             | array of integer       | the move's NAGs |
 * | move       | `variations`       | array of array of move | the variations that replace the move |
 * | move       | `variations_flat`  | array of move          | a move 30 variations deep: the variations that replace it, flat (see above) (@since 1.1) |
 * | move       | `depth`            | integer                | a move of `variations_flat`: its variation depth below the move that holds it, from 1 (@since 1.1) |
 * | move       | `starts_variation` | boolean                | a move of `variations_flat` that is its variation's first: true (@since 1.1) |
 * | move       | `comment`          | string                 | the first comment after the move |
 * | move       | `comments`         | array of comment       | all comments after the move, when there are several or one has a language |
 * | move       | `commands`         | array of string        | the move's markup commands as text ("%clk 0:01:02") |
 * | move       | `annotations`      | array of annotation    | the format's annotations that have no PGN form (ChessBase) |
 * | move       | `clock`            | number                 | a %clk command: the clock in seconds (@since 1.1) |
 * | move       | `elapsed`          | number                 | a %emt command: the time used in seconds (@since 1.1) |
 * | comment    | `language`         | string                 | always: ISO 639-1, "" for none |
 * | comment    | `text`             | string                 | always |
 * | annotation | `type`             | integer                | always: gamedb_event_get_annotation_type() |
 * | annotation | `hex`              | string                 | always: the stored bytes in hex |
 *
 * @return as gamedb_game_write_pgn(), but for tags: JSON strings take any name and value as
 *         they are.
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_game_write_json(struct gamedb_game *g, uint32_t flags,
					     gamedb_write_fn sink, void *user_data);

/**
 * Writes the positions of the game's main line for engine tooling, in one pass: FEN lines,
 * EPD, a UCI `position` command or training rows (::gamedb_positions_format).
 * @param g the game.
 * @param format a ::gamedb_positions_format value.
 * @param flags ::GAMEDB_WRITE_KEY adds each position's key; other bits are ignored.
 * @param sink where the bytes go, in pieces.
 * @param user_data passed to @p sink.
 * @return ::GAMEDB_OK, or ::GAMEDB_FAILED when the moves cannot be decoded (gamedb_game_errmsg()
 *         says why; what was written stays), the format is unknown or the sink stopped.
 * @since 1.1
 */
GAMEDB_EXPORT int32_t gamedb_game_write_positions(struct gamedb_game *g, int32_t format,
						  uint32_t flags, gamedb_write_fn sink,
						  void *user_data);

/**
 * Flags of gamedb_game_write_packed() beyond the ::gamedb_iter_flags it also takes.
 * @since 1.2
 */
enum gamedb_pack_flags {
	GAMEDB_PACK_KEYS = 0x10000,    /**< Each move's key (gamedb_event_get_key()). */
	GAMEDB_PACK_NO_MOVES = 0x20000, /**< The start position and the tags only: the moves are
					     not decoded (a header listing). */
	GAMEDB_PACK_GROUPED = 0x40000  /**< The events' strings grouped by kind (all SANs, then
					    all UCIs, ...), with a longer header that says where
					    each group starts: one field of every event is then
					    read without reading the others (gamedb_game_write_packed()). */
};

/**
 * Writes the whole game into one caller buffer, for bindings that pay per call (ctypes,
 * cffi, JNA): the tags, the start position and every event the move iterator would give, with
 * all its accessors' values, in one call, laid out to be unpacked with a few bulk operations.
 *
 * The layout, version 1 (all integers little-endian, offsets from the buffer's start; the
 * same in doc/packed.md):
 *
 * | offset | size | field |
 * | ---: | ---: | --- |
 * | 0 | 4 | the magic bytes `GDBK` |
 * | 4 | 4 | the layout version: 1 (a new version may add header fields and record bits) |
 * | 8 | 4 | H, the size of this header: 56; the records start at H |
 * | 12 | 4 | the flags given |
 * | 16 | 4 | E, the number of events (0 with ::GAMEDB_PACK_NO_MOVES) |
 * | 20 | 4 | T, the number of tags |
 * | 24 | 4 | the offset of the string section |
 * | 28 | 4 | its length in bytes |
 * | 32 | 4 | the offset of the raw section |
 * | 36 | 4 | its length in bytes |
 * | 40 | 8 | the game's index (gamedb_game_get_index()) |
 * | 48 | 4 | its variant (::gamedb_variant) |
 * | 52 | 4 | 1 when it is marked deleted, else 0 |
 *
 * Then E records of 32 bytes, one per event in the iterator's order:
 *
 * | offset | size | field |
 * | ---: | ---: | --- |
 * | 0 | 1 | the ::gamedb_event_type |
 * | 1 | 1 | which values follow in the sections, in this order: 1 SAN, 2 UCI, 4 Chinese notation (xiangqi), 8 FEN (::GAMEDB_ITER_FEN), 16 text, 32 language, 64 stored bytes, 128 key (::GAMEDB_PACK_KEYS) |
 * | 2 | 1 | MOVE: the moving piece (gamedb_event_get_piece()); else 0 |
 * | 3 | 1 | MOVE: the promotion piece or 0 |
 * | 4 | 2 | MOVE: the origin square, signed: -1 for a drop; else -1 |
 * | 6 | 2 | MOVE: the destination square, signed; else -1 |
 * | 8 | 4 | the variation depth, signed |
 * | 12 | 4 | signed: MOVE its move number, NAG the NAG, ANNOTATION its type code; else 0 |
 * | 16 | 1 | MOVE: 0 White (Red), 1 Black |
 * | 17 | 3 | 0 |
 * | 20 | 4 | with bit 64: the length of the event's stored bytes in the raw section |
 * | 24 | 8 | with bit 128: the key after the move |
 *
 * The string section: NUL-terminated UTF-8 strings, one after the other: each tag's name and
 * value (T pairs, in gamedb_game_get_tag_at()'s order), the start position's FEN, then for
 * each event the strings its bits name, in the order of the bits. With ::GAMEDB_PACK_GROUPED,
 * H is 80 and the header goes on with six 4-byte offsets, from the buffer's start, of the
 * groups that follow the FEN in the string section: each group holds the strings of one bit
 * (1, 2, 4, 8, 16, 32, in this order) of every event that has it, in the events' order, and
 * ends where the next one starts (the last at the section's end). The raw section: the stored
 * bytes of the events with bit 64 (gamedb_event_get_text_raw()), one after the other, each
 * as long as its record says (they may hold NUL bytes).
 *
 * @param g the game.
 * @param flags ::gamedb_iter_flags (as for gamedb_move_iter_new()) and ::gamedb_pack_flags;
 *        any other bit: ::GAMEDB_FAILED.
 * @param buf where the packed game is written; may be NULL when @p cap is 0.
 * @param cap the room at @p buf in bytes.
 * @param out_len set to the size of the whole packed game. When it is more than @p cap nothing
 *        usable was written: call again with at least that room (as with snprintf()). A game
 *        is never larger than the library's cap on one buffer (1 GiB).
 * @return ::GAMEDB_OK; ::GAMEDB_WARN when ::GAMEDB_ITER_PARTIAL was given and the moves could
 *         not all be decoded (the events are those of the legal part, as the iterator's);
 *         ::GAMEDB_FAILED when the moves cannot be decoded (gamedb_game_errmsg() says where;
 *         *out_len is 0), on a bad argument, or out of memory. A game whose text came with a
 *         loss is packed as it is: gamedb_game_get_status() says so afterwards.
 * @since 1.2
 */
GAMEDB_EXPORT int32_t gamedb_game_write_packed(struct gamedb_game *g, uint32_t flags, void *buf,
					       size_t cap, size_t *out_len);

/** @} */

/**
 * @defgroup book Opening books
 * A Polyglot opening book (`.bin`) built from games, as PolyGlot's own `make-book` builds it
 * from their PGN: the same entries, weights and order, so the same bytes (`doc/keys.md`).
 * @{
 */

/** An opening book being built (opaque). @since 1.1 */
struct gamedb_book;

/**
 * A new, empty book.
 * @param out receives the book; free it with gamedb_book_free().
 * @return ::GAMEDB_OK, or ::GAMEDB_FAILED when out of memory.
 * @since 1.1
 */
GAMEDB_EXPORT int32_t gamedb_book_new(struct gamedb_book **out);

/**
 * Sets an option, before the first game. Keys and values (PolyGlot's `make-book` options and
 * defaults): `max-ply` (plies of each game counted, default 1024), `min-game` (games an entry
 * needs, default 3), `min-score` (lowest score of an entry, a percentage, default 0),
 * `only-white` / `only-black` (`1`: keep only the positions with that side to move),
 * `uniform` (`1`: every weight 1), `standard-start` (`1`: leave out games that do not start
 * from the standard position, which PolyGlot cannot read), `memory` (MiB the table may use
 * before it spills to temporary files, default 256).
 * @return ::GAMEDB_OK, or ::GAMEDB_FAILED for an unknown key, a bad value or a book that has
 *         games already (gamedb_book_errmsg() says which).
 * @since 1.1
 */
GAMEDB_EXPORT int32_t gamedb_book_set_option(struct gamedb_book *b, const char *key,
					     const char *value);

/**
 * Counts the positions of a game's main line (each with the move played and the game's
 * result from the side to move's view). A game whose moves cannot all be decoded counts for
 * nothing; the line ends at a null move.
 * @return ::GAMEDB_OK; ::GAMEDB_WARN when the game was left out (not standard chess: the book
 *         format has no variants); ::GAMEDB_FAILED when its moves cannot be decoded (the book is
 *         unchanged); ::GAMEDB_FATAL when out of memory or temporary-file space (the book cannot
 *         be used any more). gamedb_book_errmsg() says why.
 * @since 1.1
 */
GAMEDB_EXPORT int32_t gamedb_book_add_game(struct gamedb_book *b, struct gamedb_game *g);

/**
 * Sets the book's progress callback (NULL removes it). gamedb_book_add_game() reports the
 * games added, in ::GAMEDB_PROGRESS_GAMES (@p total 0: the book does not know how many will
 * come), every GAMEDB_PROGRESS_GAMES_STEP games; gamedb_book_write() reports the entries
 * merged, in ::GAMEDB_PROGRESS_ENTRIES (@p total: the entries counted, the last report equal
 * to it), every GAMEDB_PROGRESS_ENTRIES_STEP entries. A non-zero return stops the work:
 * gamedb_book_add_game() returns ::GAMEDB_FATAL (the game not counted; the book cannot be
 * used any more but for gamedb_book_free()), gamedb_book_write() returns ::GAMEDB_FAILED
 * (what was written so far is not a whole book; a book is written once only).
 * gamedb_book_errmsg() then says "cancelled by the progress callback".
 * @return ::GAMEDB_OK, or ::GAMEDB_FAILED for a bad book.
 * @since 1.1
 */
GAMEDB_EXPORT int32_t gamedb_book_set_progress(struct gamedb_book *b, gamedb_progress_fn fn,
					       void *user_data);

/**
 * Writes the book: 16-byte entries (key, move, weight, learn 0, big-endian) sorted by key,
 * then weight (highest first). Once per book.
 * @param b the book.
 * @param sink receives the bytes, in pieces.
 * @param user_data passed to @p sink.
 * @return ::GAMEDB_OK, or ::GAMEDB_FAILED when the sink stopped or a temporary file could not
 *         be read back.
 * @since 1.1
 */
GAMEDB_EXPORT int32_t gamedb_book_write(struct gamedb_book *b, gamedb_write_fn sink,
					void *user_data);

/**
 * The message of the book's last failure ("" if none).
 * @return a string owned by the book, valid until its next call.
 * @since 1.1
 */
GAMEDB_EXPORT const char *gamedb_book_errmsg(const struct gamedb_book *b);

/**
 * Frees a book and its temporary files (NULL is allowed).
 * @since 1.1
 */
GAMEDB_EXPORT void gamedb_book_free(struct gamedb_book *b);

/** @} */

/**
 * @defgroup bookreader Reading opening books
 * Opening books of other programs, read: Arena's `.abk` (a tree of move sequences) and
 * ChessBase's `.ctg` (with its `.ctb` and `.cto` beside it). A position is probed for its
 * book moves with every statistic the format stores, or the whole book is walked: every
 * position reachable from the standard start through book moves, each once, nearest first.
 * A position an ABK book reaches by several paths is given once, with the moves of all of
 * them. Every book move is checked legal in its position; one that is not is left out and
 * reported (a warning of its position). doc/formats/abk.md has the rules.
 * @code
 *     struct gamedb_book_reader *br;
 *     gamedb_book_reader_new(&br);
 *     if (gamedb_book_reader_open_filename(br, "libra8.abk") >= GAMEDB_WARN &&
 *         gamedb_book_reader_probe(br, fen) == GAMEDB_OK)
 *         for (int32_t i = 0; i < gamedb_book_reader_move_count(br); i++)
 *             puts(gamedb_book_reader_move_get_uci(br, i));
 *     gamedb_book_reader_free(br);
 * @endcode
 * @{
 */

/** An opening book open for reading (opaque). @since 1.2 */
struct gamedb_book_reader;

/**
 * A new book reader, with no book open.
 * @param out receives the reader; free it with gamedb_book_reader_free().
 * @return ::GAMEDB_OK, or ::GAMEDB_FATAL when out of memory (then *out is NULL).
 * @since 1.2
 */
GAMEDB_EXPORT int32_t gamedb_book_reader_new(struct gamedb_book_reader **out);

/**
 * Opens a book read-only, its format told by the name's extension (`.abk`, `.ctg`). Once per
 * reader.
 * @param br the reader.
 * @param path the book's file (for CTG the `.ctg`; the `.ctb` and `.cto` are found beside it).
 * @return ::GAMEDB_OK; ::GAMEDB_WARN when the book opened but some of its records cannot be
 *         used (out of range, in a loop, an illegal move: gamedb_book_reader_errmsg() says how
 *         many and the first); ::GAMEDB_FATAL when it cannot be opened (the reader can then only
 *         be freed).
 * @since 1.2
 */
GAMEDB_EXPORT int32_t gamedb_book_reader_open_filename(struct gamedb_book_reader *br,
							const char *path);

/**
 * The open book's format.
 * @return "abk" or "ctg" (static), or NULL when no book is open.
 * @since 1.2
 */
GAMEDB_EXPORT const char *gamedb_book_reader_get_format(const struct gamedb_book_reader *br);

/**
 * Looks a position up. Its moves become the reader's current moves (the walk, if any, ends).
 * @param br the reader.
 * @param fen the position, in FEN (the move counters are not needed).
 * @return ::GAMEDB_OK when the book has moves for it; ::GAMEDB_WARN likewise, but some of its
 *         book moves were left out (illegal: gamedb_book_reader_errmsg() says which);
 *         ::GAMEDB_END when the book has none; ::GAMEDB_FAILED for a FEN that cannot be read.
 * @since 1.2
 */
GAMEDB_EXPORT int32_t gamedb_book_reader_probe(struct gamedb_book_reader *br, const char *fen);

/**
 * Starts a walk of the book: gamedb_book_reader_next_position() then gives every position
 * reachable from the standard start by at most @p max_ply book moves (the start is ply 0),
 * each once, in order of distance from the start.
 * @param br the reader.
 * @param max_ply the deepest ply, or -1 for no limit.
 * @return ::GAMEDB_OK, or ::GAMEDB_FAILED when no book is open.
 * @since 1.2
 */
GAMEDB_EXPORT int32_t gamedb_book_reader_walk(struct gamedb_book_reader *br, int32_t max_ply);

/**
 * The next position of the walk: its FEN, ply and moves become the current ones.
 * @return ::GAMEDB_OK; ::GAMEDB_WARN when the position is given but some of its book moves
 *         were left out (gamedb_book_reader_errmsg() says which and why); ::GAMEDB_END after the
 *         last; ::GAMEDB_FATAL when out of memory.
 * @since 1.2
 */
GAMEDB_EXPORT int32_t gamedb_book_reader_next_position(struct gamedb_book_reader *br);

/**
 * The current position's FEN (of the walk: as reached by the first shortest path).
 * @return a string owned by the reader, valid until its next probe, next_position or free; NULL
 *         when there is no current position.
 * @since 1.2
 */
GAMEDB_EXPORT const char *gamedb_book_reader_get_fen(const struct gamedb_book_reader *br);

/**
 * The current position's ply in the walk (0: the start), or -1 after a probe or when none.
 * @since 1.2
 */
GAMEDB_EXPORT int32_t gamedb_book_reader_get_ply(const struct gamedb_book_reader *br);

/**
 * The number of book moves of the current position (0 when none).
 * @since 1.2
 */
GAMEDB_EXPORT int32_t gamedb_book_reader_move_count(const struct gamedb_book_reader *br);

/**
 * Move @p i of the current position in UCI ("e2e4", "e1g1", "e7e8q").
 * @return a string owned by the reader, valid as gamedb_book_reader_get_fen()'s; NULL when
 *         @p i is out of range.
 * @since 1.2
 */
GAMEDB_EXPORT const char *gamedb_book_reader_move_get_uci(const struct gamedb_book_reader *br,
							   int32_t i);

/**
 * Move @p i of the current position in SAN ("Nf3", "O-O", "exd8=Q+").
 * @return as gamedb_book_reader_move_get_uci().
 * @since 1.2
 */
GAMEDB_EXPORT const char *gamedb_book_reader_move_get_san(const struct gamedb_book_reader *br,
							   int32_t i);

/**
 * The @p k-th statistic name a move of this format has (k from 0): "weight" first (the
 * Polyglot weight the conversion writes), then the format's own numbers (doc/formats/).
 * @return a static string, or NULL past the last or when no book is open.
 * @since 1.2
 */
GAMEDB_EXPORT const char *gamedb_book_reader_stat_name(const struct gamedb_book_reader *br,
							int32_t k);

/**
 * A statistic of move @p i of the current position.
 * @param br the reader.
 * @param i the move.
 * @param name one of the names gamedb_book_reader_stat_name() gives.
 * @param out receives the value.
 * @return ::GAMEDB_OK, or ::GAMEDB_FAILED for a move out of range or a name the format lacks.
 * @since 1.2
 */
GAMEDB_EXPORT int32_t gamedb_book_reader_move_get_stat(const struct gamedb_book_reader *br,
							int32_t i, const char *name, int64_t *out);

/**
 * The @p k-th name of a statistic the format stores for a position itself (k from 0): for
 * ChessBase books "games", "wins", "draws", "losses" (for its side to move), "elo",
 * "performance" (averages), "recommendation", "commentary" (the stored bytes); Arena books
 * have none (the tree stores moves only).
 * @return a static string, or NULL past the last or when no book is open.
 * @since 1.2
 */
GAMEDB_EXPORT const char *
gamedb_book_reader_position_stat_name(const struct gamedb_book_reader *br, int32_t k);

/**
 * A statistic of the current position itself. A probe that returned ::GAMEDB_END may still
 * have found the position (in the book with no moves): then its statistics are given.
 * @param br the reader.
 * @param name one of the names gamedb_book_reader_position_stat_name() gives.
 * @param out receives the value.
 * @return ::GAMEDB_OK, or ::GAMEDB_FAILED when the book does not have the position or the
 *         format has no statistic of that name.
 * @since 1.2
 */
GAMEDB_EXPORT int32_t gamedb_book_reader_get_stat(const struct gamedb_book_reader *br,
						   const char *name, int64_t *out);

/**
 * Writes the whole book (every position of an unlimited walk) as a Polyglot book: each book
 * move an entry with its "weight" statistic as weight (0 for a move the book marks bad), the
 * keys those of gamedb_game_get_start_key(), sorted by key and then weight (highest first).
 * Ends any walk.
 * @param br the reader.
 * @param sink receives the bytes.
 * @param user_data passed to @p sink.
 * @return ::GAMEDB_OK; ::GAMEDB_WARN when written but moves were left out (as the walk's
 *         warnings); ::GAMEDB_FAILED when the sink stopped or memory ran out.
 * @since 1.2
 */
GAMEDB_EXPORT int32_t gamedb_book_reader_write_polyglot(struct gamedb_book_reader *br,
							 gamedb_write_fn sink, void *user_data);

/**
 * The message of the reader's last failure or warning ("" if none).
 * @return a string owned by the reader, valid until its next call.
 * @since 1.2
 */
GAMEDB_EXPORT const char *gamedb_book_reader_errmsg(const struct gamedb_book_reader *br);

/**
 * Frees a reader and closes its book (NULL is allowed).
 * @since 1.2
 */
GAMEDB_EXPORT void gamedb_book_reader_free(struct gamedb_book_reader *br);

/** @} */

/**
 * @defgroup scid SCID databases
 * What only SCID databases have.
 * @{
 */

/**
 * The SCID handle of a reader, or NULL when the open database is of another format.
 * @return a pointer owned by the reader, valid until gamedb_reader_free().
 * @since 1.0
 */
GAMEDB_EXPORT struct gamedb_scid *gamedb_reader_get_scid(struct gamedb_reader *r);

/**
 * The index version: 300 (si3), 400 (si4) or 500 (si5: SCID 5, whose index has no version
 * number of its own).
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_scid_get_version(const struct gamedb_scid *s);

/**
 * The base description (UTF-8).
 * @return a string owned by the reader, valid until gamedb_reader_free().
 * @since 1.0
 */
GAMEDB_EXPORT const char *gamedb_scid_get_description(const struct gamedb_scid *s);

/**
 * The base type number (0 unknown, 1 temporary, 2 tournament, ... as Scid numbers them).
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_scid_get_base_type(const struct gamedb_scid *s);

/**
 * The name of custom flag @p n (1..6), "" if unnamed (si3 bases have none).
 * @return a string owned by the reader, valid until gamedb_reader_free(), or NULL if @p n is
 *         out of range.
 * @since 1.0
 */
GAMEDB_EXPORT const char *gamedb_scid_get_flag_name(const struct gamedb_scid *s, int32_t n);

/**
 * The game number Scid loads when the base is opened (0 none).
 * @since 1.0
 */
GAMEDB_EXPORT int64_t gamedb_scid_get_autoload(const struct gamedb_scid *s);

/**
 * The SCID flags of a game of this base (bit 0 non-standard start, 1 promotions,
 * 2 under-promotions, 3 deleted, 4 white opening, 5 black opening, 6 middlegame, 7 endgame,
 * 8 novelty, 9 pawn structure, 10 tactics, 11 king side, 12 queen side, 13 brilliancy,
 * 14 blunder, 15 user, 16..21 custom flags 1..6).
 * @return the flags, or 0 if @p g does not come from this base.
 * @since 1.0
 */
GAMEDB_EXPORT uint32_t gamedb_scid_get_game_flags(const struct gamedb_scid *s,
						  const struct gamedb_game *g);

/** @} */

/**
 * @defgroup chessbase ChessBase databases
 * What only ChessBase databases have: the CBH fields no tag carries, and the guiding texts
 * (text records of the base, which are never counted as games).
 * @{
 */

/**
 * Per-game ChessBase fields, for gamedb_chessbase_get_game_field().
 * @since 1.0
 */
enum gamedb_chessbase_field {
	GAMEDB_CB_RECORD_FLAGS = 1,        /**< CBH record byte 0 (bit 7 deleted). */
	GAMEDB_CB_MEDALS = 2,              /**< Medal bits (0 best game, 1 decided tournament,
					        2 model game, 3 novelty, 4 pawn structure,
					        5 strategy, 6 tactics, 7 attack, 8 sacrifice,
					        9 defence, 10 material, 11 piece play, 12 endgame,
					        13 tactical blunder, 14 strategical blunder, 15 user). */
	GAMEDB_CB_ANNOTATION_FLAGS = 3,    /**< What the game holds (0 setup position,
					        1 variations, 2 commentary, 3 symbols, 4 squares,
					        5 arrows, 7 time, 9 training, 22/23 clocks,
					        24 critical position, 27 unorthodox, ...). */
	GAMEDB_CB_MAGNITUDE = 4,           /**< The CBH "magnitude" bits. */
	GAMEDB_CB_LINE_EVALUATION = 5,     /**< NAG of a "line" result, 0 if none. */
	GAMEDB_CB_SUB_ECO = 6,             /**< ECO sub-code 0..99 (the ECO tag holds the code). */
	GAMEDB_CB_TOURNAMENT_TYPE = 7,     /**< Tournament type byte (low 5 bits: 1 game, 2 match,
					        3 round robin, 4 swiss, 5 team, 6 knock-out,
					        7 simul, 8 Scheveningen; bit 5 blitz, 6 rapid,
					        7 correspondence). */
	GAMEDB_CB_TOURNAMENT_CATEGORY = 8, /**< Tournament category (0 none). */
	GAMEDB_CB_TOURNAMENT_ROUNDS = 9,   /**< Rounds of the tournament (0 unknown). */
	GAMEDB_CB_TOURNAMENT_FLAGS = 10,   /**< The tournament's flag byte (bits: 0 complete in
					        old bases, 1 complete, 2 board points, 3 three
					        points for a win), plus bit 8 for a team
					        tournament. */
	GAMEDB_CB_TOURNAMENT_NATION = 11,  /**< ChessBase nation number of the tournament. */
	GAMEDB_CB_MAINLINE_MOVES = 12,     /**< Main-line moves as the index counts them (255 =
					        255 or more). */
	GAMEDB_CB_ENCODING_MODE = 13       /**< How the game's moves are stored (.cbg flags
					        bits 0-5): 0-7 regular chess, 10-11 Chess960,
					        others variants the library does not read; -1
					        when the .cbg record cannot be read. @since 1.1 */
};

/**
 * The ChessBase handle of a reader, or NULL when the open database is of another format.
 * @return a pointer owned by the reader, valid until gamedb_reader_free().
 * @since 1.0
 */
GAMEDB_EXPORT struct gamedb_chessbase *gamedb_reader_get_chessbase(struct gamedb_reader *r);

/**
 * A ChessBase field (::gamedb_chessbase_field) of a game of this base, read from its index
 * record (and, for the tournament fields, its tournament; 0 when the base has no tournament
 * file). A copy made by gamedb_game_dup() is taken as a game of this base.
 * @return the value (>= 0), or -1 if @p g does not come from this base or @p field is unknown.
 * @since 1.0
 */
GAMEDB_EXPORT int64_t gamedb_chessbase_get_game_field(struct gamedb_chessbase *cb,
						      const struct gamedb_game *g, int32_t field);

/**
 * The charset the base's text is read as: the caller's `charset` option; else what the
 * format option `charset-detect` found ("CP1251" or "CP1252"; on by default since 1.1,
 * "no" turns it off); else "CP1252".
 * @return a string owned by the reader, valid until the next gamedb_reader_set_option() or
 *         gamedb_reader_free() on it.
 * @since 1.0
 */
GAMEDB_EXPORT const char *gamedb_chessbase_get_charset(const struct gamedb_chessbase *cb);

/**
 * The number of guiding texts of the base (CBH records that are texts, not games).
 * @since 1.0
 */
GAMEDB_EXPORT uint64_t gamedb_chessbase_get_text_count(const struct gamedb_chessbase *cb);

/**
 * Loads guiding text @p i (0-based, in the order of the index) into the handle, replacing the
 * one loaded before.
 * @return ::GAMEDB_OK; ::GAMEDB_WARN if text was converted with loss; ::GAMEDB_FAILED with
 *         ::GAMEDB_E_RANGE, ::GAMEDB_E_CORRUPT or ::GAMEDB_E_IO (message naming the file and
 *         offset in gamedb_reader_errmsg()).
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_chessbase_load_text(struct gamedb_chessbase *cb, uint64_t i);

/**
 * The number of titles (one per language) of the loaded guiding text.
 * @since 1.0
 */
GAMEDB_EXPORT int32_t gamedb_chessbase_get_text_title_count(const struct gamedb_chessbase *cb);

/**
 * Title @p k of the loaded guiding text (UTF-8) and its language through @p language (ISO
 * 639-1, "" unknown, a static string; may be NULL).
 * @return a string owned by the handle, valid until the next gamedb_chessbase_load_text() or
 *         gamedb_reader_free(); NULL if out of range.
 * @since 1.0
 */
GAMEDB_EXPORT const char *gamedb_chessbase_get_text_title(const struct gamedb_chessbase *cb,
							  int32_t k, const char **language);

/**
 * The content of the loaded guiding text, converted to UTF-8 as stored (up to its first NUL):
 * plain text (formats 1 and 2, whose formatting runs are dropped) or HTML (format 3). A text
 * stored in several languages gives the one of the `language` option when it has it, else
 * the first.
 * @param cb the handle.
 * @param format set to the stored text format number (may be NULL).
 * @param len set to the length in bytes (may be NULL).
 * @return a string owned by the handle, valid until the next gamedb_chessbase_load_text() or
 *         gamedb_reader_free(); NULL if none is loaded.
 * @since 1.0
 */
GAMEDB_EXPORT const char *gamedb_chessbase_get_text_content(const struct gamedb_chessbase *cb,
							    int32_t *format, size_t *len);

/** @} */

/**
 * @defgroup chessassistant Chess Assistant databases
 * What only Chess Assistant databases have: the D00 fields no tag carries, the player
 * details of Players.d00, and the base comment of the CDP.
 * @{
 */

/**
 * Per-game Chess Assistant fields, for gamedb_chessassistant_get_game_field().
 * @since 1.1
 */
enum gamedb_chessassistant_field {
	GAMEDB_CA_GAME_TYPE = 1,       /**< Game type 1..30 (1 own games, 2 historic, 3 model,
					    ... 30 miscellaneous; the GameType tag names it), 0 none. */
	GAMEDB_CA_OUTCOME = 2,         /**< The stored outcome: 1 draw, 2 White won, 3 Black won,
					    4 unknown, 5..16 an evaluation symbol. */
	GAMEDB_CA_GAME_ID = 3,         /**< The game id (the key into the .a02 addresses). */
	GAMEDB_CA_WHITE_ID = 4,        /**< White's player id. */
	GAMEDB_CA_BLACK_ID = 5,        /**< Black's player id. */
	GAMEDB_CA_WHITE_RATING = 6,    /**< White's rating in Players.d00 (0 none). */
	GAMEDB_CA_WHITE_FIDE_ID = 7,   /**< White's FIDE id in Players.d00 (0 none). */
	GAMEDB_CA_WHITE_BIRTHDAY = 8,  /**< White's birthday as YYYYMMDD, unknown parts 0. */
	GAMEDB_CA_WHITE_GENDER = 9,    /**< White's gender: 0 unknown, 1 male, 2 female. */
	GAMEDB_CA_BLACK_RATING = 10,   /**< Black's rating in Players.d00 (0 none). */
	GAMEDB_CA_BLACK_FIDE_ID = 11,  /**< Black's FIDE id in Players.d00 (0 none). */
	GAMEDB_CA_BLACK_BIRTHDAY = 12, /**< Black's birthday as YYYYMMDD, unknown parts 0. */
	GAMEDB_CA_BLACK_GENDER = 13,   /**< Black's gender: 0 unknown, 1 male, 2 female. */
	GAMEDB_CA_UNKNOWN_BYTE = 14    /**< D00 byte 28, whose meaning is unknown. */
};

/**
 * The Chess Assistant handle of a reader, or NULL when the open database is of another
 * format.
 * @return a pointer owned by the reader, valid until gamedb_reader_free().
 * @since 1.1
 */
GAMEDB_EXPORT struct gamedb_chessassistant *
gamedb_reader_get_chessassistant(struct gamedb_reader *r);

/**
 * A Chess Assistant field (::gamedb_chessassistant_field) of a game of this base, read from
 * its D00 header (and, for the player fields, Players.d00; 0 when the player has no record
 * there). A copy made by gamedb_game_dup() is taken as a game of this base.
 * @return the value (>= 0), or -1 if @p g does not come from this base or @p field is unknown.
 * @since 1.1
 */
GAMEDB_EXPORT int64_t gamedb_chessassistant_get_game_field(struct gamedb_chessassistant *ca,
							   const struct gamedb_game *g,
							   int32_t field);

/**
 * The base comment stored in the CDP file, as UTF-8 ("" when there is none).
 * @return a string owned by the handle, valid until the next call of this function or
 *         gamedb_reader_free().
 * @since 1.1
 */
GAMEDB_EXPORT const char *gamedb_chessassistant_get_comment(struct gamedb_chessassistant *ca);
/** @} */

/**
 * @defgroup style12 FICS/ICC style 12: live lines and sessions
 * For clients of an Internet chess server: one `<12>` (board) or `<b1>` (holdings) line read
 * into a snapshot with getters (struct gamedb_style12_line), and a session
 * (struct gamedb_style12_session) that is fed the server's output as it comes and hands out
 * the games it rebuilds, exactly as the `style12` reader does for a whole log (the same code
 * does both). doc/formats/style12.md has the fields and the rebuild rules.
 *
 * A line:
 * @code
 *     struct gamedb_style12_line *l = gamedb_style12_line_new();
 *     if (gamedb_style12_line_parse(l, text, len) == GAMEDB_OK &&
 *         gamedb_style12_line_get_kind(l) == GAMEDB_STYLE12_BOARD) {
 *         int64_t ms;
 *         gamedb_style12_line_get_int(l, GAMEDB_STYLE12_WHITE_CLOCK_MS, &ms);
 *         show(gamedb_style12_line_get_fen(l), ms);
 *     } else {
 *         log(gamedb_style12_line_errmsg(l));
 *     }
 *     gamedb_style12_line_free(l);
 * @endcode
 * A session:
 * @code
 *     struct gamedb_style12_session *s = gamedb_style12_session_new("fics");
 *     while ((n = read(sock, buf, sizeof buf)) > 0) {
 *         gamedb_style12_session_feed(s, buf, n);
 *         while ((rc = gamedb_style12_session_next_game(s, &g)) != GAMEDB_END &&
 *                rc != GAMEDB_FATAL)
 *             if (rc == GAMEDB_FAILED)  // a line it could not use
 *                 log(gamedb_style12_session_errmsg(s));
 *             else
 *                 save(g);        // borrowed, as from gamedb_reader_next_game()
 *     }
 *     gamedb_style12_session_end(s); // the games still open end with "*"
 *     // ... and the same loop once more
 *     gamedb_style12_session_free(s);
 * @endcode
 * @{
 */

/** A parsed `<12>` or `<b1>` line. @since 1.1 */
struct gamedb_style12_line;
/** A live style 12 session. @since 1.1 */
struct gamedb_style12_session;

/**
 * What a parsed line is, for gamedb_style12_line_get_kind().
 * @since 1.1
 */
enum gamedb_style12_kind {
	GAMEDB_STYLE12_NONE = 0,     /**< Nothing parsed yet, or the last parse failed. */
	GAMEDB_STYLE12_BOARD = 12,   /**< A `<12>` line: a board. */
	GAMEDB_STYLE12_HOLDINGS = 1  /**< A `<b1>` line: the men in hand of a crazyhouse or
				          bughouse game. */
};

/**
 * Integer fields of a line, for gamedb_style12_line_get_int(). All but
 * ::GAMEDB_STYLE12_GAME_NUMBER are fields of `<12>` lines only.
 * @since 1.1
 */
enum gamedb_style12_int {
	GAMEDB_STYLE12_SIDE_TO_MOVE = 1,      /**< 0 White, 1 Black. */
	GAMEDB_STYLE12_GAME_NUMBER = 2,       /**< The server's game number (both kinds). */
	GAMEDB_STYLE12_RELATION = 3,          /**< -4..2: -3 isolated position, -2 observing an
					           examined game, 2 examining, -1 playing (the
					           opponent to move), 1 playing (to move), 0
					           observing; -4 is sent by some servers. */
	GAMEDB_STYLE12_BASE_MINUTES = 4,      /**< The initial time in minutes (the help text says
					           seconds; the servers send minutes). */
	GAMEDB_STYLE12_INCREMENT_SECONDS = 5, /**< The increment in seconds. */
	GAMEDB_STYLE12_WHITE_CLOCK_MS = 6,    /**< White's remaining time in milliseconds (the
					           line's seconds times 1000 unless it has
					           milliseconds); may be negative. */
	GAMEDB_STYLE12_BLACK_CLOCK_MS = 7,    /**< Black's remaining time in milliseconds. */
	GAMEDB_STYLE12_MOVE_NUMBER = 8,       /**< The number of the move about to be made. */
	GAMEDB_STYLE12_FLIP = 9,              /**< 1: Black at the bottom, 0: White. */
	GAMEDB_STYLE12_TIME_TAKEN_MS = 10,    /**< Time taken by the previous move, milliseconds. */
	GAMEDB_STYLE12_HALFMOVE_CLOCK = 11,   /**< Moves since the last irreversible move. */
	GAMEDB_STYLE12_DOUBLE_PUSH_FILE = 12, /**< 0..7 (a..h) after a double pawn push, else -1. */
	GAMEDB_STYLE12_WHITE_MATERIAL = 13,   /**< White's material strength. */
	GAMEDB_STYLE12_BLACK_MATERIAL = 14,   /**< Black's material strength. */
	GAMEDB_STYLE12_CLOCKS_IN_MS = 15,     /**< 1 when the line's clocks were in milliseconds
					           (its time taken has a fraction), 0 seconds. */
	GAMEDB_STYLE12_CASTLING = 16,         /**< Castling rights: bit 0 White short, 1 White
					           long, 2 Black short, 3 Black long. */
	GAMEDB_STYLE12_PLY = 17               /**< Plies played before this board:
					           (move number - 1) * 2 + side to move. */
};

/**
 * Text fields of a line, for gamedb_style12_line_get_text().
 * @since 1.1
 */
enum gamedb_style12_text {
	GAMEDB_STYLE12_WHITE_NAME = 1,     /**< White's handle. */
	GAMEDB_STYLE12_BLACK_NAME = 2,     /**< Black's handle. */
	GAMEDB_STYLE12_MOVE_VERBOSE = 3,   /**< The previous move as sent: "P/e2-e4", "o-o",
					        "P/e7-e8=Q", "P/@@-e4", "none". */
	GAMEDB_STYLE12_MOVE_SAN = 4,       /**< The previous move's "pretty" notation as sent:
					        "e4", "Nxf3+", "none". */
	GAMEDB_STYLE12_MOVE_UCI = 5,       /**< The previous move in UCI: "e2e4", "e7e8q", drops
					        "P@e4"; castling as the king's move from the e-file
					        ("e1g1": the line does not say where a Chess960 king
					        stood). NULL when there is no previous move. */
	GAMEDB_STYLE12_TIME_TAKEN = 6,     /**< The time taken as sent: "(0:06)", "(0:02.123)". */
	GAMEDB_STYLE12_WHITE_HOLDINGS = 7, /**< `<b1>` lines (or a board given holdings by
					        gamedb_style12_line_set_holdings()): White's men in
					        hand, "PPN" ("" none). */
	GAMEDB_STYLE12_BLACK_HOLDINGS = 8, /**< Black's men in hand, upper case as well: "Q". */
	GAMEDB_STYLE12_PASSED = 9          /**< `<b1>` lines: the "<- BN" suffix's colour and man,
					        "BN" (a knight passed to Black); "" when the line
					        has none. */
};

/**
 * A new, empty line object (reusable: each parse replaces what it holds).
 * @return the object, owned by the caller (gamedb_style12_line_free()), or NULL when out of
 *         memory.
 * @since 1.1
 */
GAMEDB_EXPORT struct gamedb_style12_line *gamedb_style12_line_new(void);

/**
 * Parses one line of server output: a `<12>` or `<b1>` line, after an optional prompt
 * ("fics% ") and timestamps, with or without its line break (text after the first line break
 * is not read). Fields after the 31st of a `<12>` line are ignored (the help says fields may
 * be added).
 * @return ::GAMEDB_OK; ::GAMEDB_WARN for a board whose names are not UTF-8 (read as CP1252,
 *         gamedb_style12_line_errmsg() says so; the line is parsed); or ::GAMEDB_FAILED when
 *         the text is not such a line or a field is missing or bad, with
 *         gamedb_style12_line_errmsg() naming the field by its number in the help's count
 *         ("<12>" being field 1): "field 25 (white's clock) is missing: the line has 24
 *         fields where style 12 has 31". The line then holds nothing (::GAMEDB_STYLE12_NONE).
 * @since 1.1
 */
GAMEDB_EXPORT int32_t gamedb_style12_line_parse(struct gamedb_style12_line *l, const char *text,
						size_t len);

/**
 * What the last parse gave: a ::gamedb_style12_kind value.
 * @since 1.1
 */
GAMEDB_EXPORT int32_t gamedb_style12_line_get_kind(const struct gamedb_style12_line *l);

/**
 * The message of the last parse that failed or warned ("" after a parse that returned
 * ::GAMEDB_OK).
 * @return a string owned by @p l, valid until its next parse or free.
 * @since 1.1
 */
GAMEDB_EXPORT const char *gamedb_style12_line_errmsg(const struct gamedb_style12_line *l);

/**
 * The FEN of a `<12>` board: castling from the line's flags, the en-passant square only when
 * a pawn can take there, the halfmove clock and move number of the line. A board with more men
 * of a colour than chess allows (drops) is written with holdings ("[]"), as is a board given
 * holdings by gamedb_style12_line_set_holdings() (then the men in hand are in the brackets).
 * @return a string owned by @p l, valid until its next parse, set_holdings or free; NULL for a
 *         `<b1>` line or when nothing is parsed.
 * @since 1.1
 */
GAMEDB_EXPORT const char *gamedb_style12_line_get_fen(const struct gamedb_style12_line *l);

/**
 * An integer field (::gamedb_style12_int) into @p out.
 * @return ::GAMEDB_OK, or ::GAMEDB_FAILED when the line has no such field (unknown @p field,
 *         a `<12>` field asked of a `<b1>` line, nothing parsed).
 * @since 1.1
 */
GAMEDB_EXPORT int32_t gamedb_style12_line_get_int(const struct gamedb_style12_line *l,
						  int32_t field, int64_t *out);

/**
 * A text field (::gamedb_style12_text), UTF-8 (names that are not UTF-8 are read as CP1252;
 * the other fields are printable ASCII).
 * @return a string owned by @p l, valid until its next parse, set_holdings or free; NULL when
 *         the line has no such field.
 * @since 1.1
 */
GAMEDB_EXPORT const char *gamedb_style12_line_get_text(const struct gamedb_style12_line *l,
						       int32_t field);

/**
 * Gives a `<12>` board the men in hand of a `<b1>` line of the same game number (a
 * crazyhouse or bughouse game sends one with or before each board): the board's FEN then has
 * them in brackets ("...RNBQKBNR[Pn] w ..."), and its holdings text fields answer.
 * @return ::GAMEDB_OK, or ::GAMEDB_FAILED when @p board is not a `<12>` line, @p b1 not a
 *         `<b1>` line, or their game numbers differ (nothing changes then).
 * @since 1.1
 */
GAMEDB_EXPORT int32_t gamedb_style12_line_set_holdings(struct gamedb_style12_line *board,
						       const struct gamedb_style12_line *b1);

/**
 * Frees a line object. NULL is a no-op.
 * @since 1.1
 */
GAMEDB_EXPORT void gamedb_style12_line_free(struct gamedb_style12_line *l);

/**
 * A new live session. It rebuilds games from the lines it is fed by the rules of the
 * `style12` reader: every game it hands out is the game that reader gives for the same bytes
 * read as a log.
 * @param name the name its messages give the stream ("fics"; NULL: "live").
 * @return the session, owned by the caller (gamedb_style12_session_free()), or NULL when out
 *         of memory.
 * @since 1.1
 */
GAMEDB_EXPORT struct gamedb_style12_session *gamedb_style12_session_new(const char *name);

/**
 * Feeds the next @p n bytes of server output: any chunk, lines may be split anywhere between
 * calls (a line longer than 16 KiB is skipped to its end, never held). The games that end in
 * them are then ready for gamedb_style12_session_next_game(), which should be called after
 * each feed (ready games are kept until taken).
 * @return ::GAMEDB_OK, or ::GAMEDB_FATAL (out of memory; feed after gamedb_style12_session_end())
 *         with gamedb_style12_session_errmsg() saying why.
 * @since 1.1
 */
GAMEDB_EXPORT int32_t gamedb_style12_session_feed(struct gamedb_style12_session *s,
						  const char *bytes, size_t n);

/**
 * The end of the output: the last line, if it has no line break, is read, and every game
 * still in flight ends with "*" and is ready. Nothing may be fed after it.
 * @return ::GAMEDB_OK, or ::GAMEDB_FATAL (out of memory, or called twice).
 * @since 1.1
 */
GAMEDB_EXPORT int32_t gamedb_style12_session_end(struct gamedb_style12_session *s);

/**
 * The next finished game, as gamedb_reader_next_game() hands one out: @p out is borrowed,
 * valid until the next call of this function, gamedb_style12_session_free(), and works with
 * every game function (tags, gamedb_move_iter_new(), gamedb_game_write_pgn(),
 * gamedb_game_dup() to keep it). Its moves must be read (or the game duplicated) before the
 * next call.
 * @return ::GAMEDB_OK or ::GAMEDB_WARN (a game; for WARN, gamedb_style12_session_errmsg()
 *         says what was wrong in its lines or in lines skipped before it); ::GAMEDB_FAILED
 *         for a `<12>` or `<b1>` line that could not be used, in its place among the games
 *         (gamedb_style12_session_errmsg() names the line and why, as the reader's message
 *         does; @p out is NULL; call again for what follows); ::GAMEDB_END when no game is
 *         ready now (after gamedb_style12_session_end(): none will be; a warning about other
 *         skipped lines may then be in gamedb_style12_session_errmsg()); ::GAMEDB_FATAL.
 * @since 1.1
 */
GAMEDB_EXPORT int32_t gamedb_style12_session_next_game(struct gamedb_style12_session *s,
						       struct gamedb_game **out);

/**
 * The number of games in flight: begun in the lines fed so far, not yet ended
 * (gamedb_style12_session_peek_game() shows one).
 * @since 1.1
 */
GAMEDB_EXPORT size_t gamedb_style12_session_get_live_count(const struct gamedb_style12_session *s);

/**
 * A snapshot of game @p i in flight (0 the oldest, up to
 * gamedb_style12_session_get_live_count() - 1): its tags, start position and moves so far,
 * with clocks, and the result "*"; for a GUI that shows a game as it is played. The game
 * itself goes on in the session and comes out of gamedb_style12_session_next_game() when it
 * ends.
 * @return ::GAMEDB_OK or ::GAMEDB_WARN (something in its lines was wrong) with @p out a copy
 *         owned by the caller (gamedb_game_free()); ::GAMEDB_FAILED when @p i is out of range
 *         or memory ran out, with gamedb_style12_session_errmsg() saying so.
 * @since 1.1
 */
GAMEDB_EXPORT int32_t gamedb_style12_session_peek_game(struct gamedb_style12_session *s, size_t i,
						       struct gamedb_game **out);

/**
 * The message of the last call that returned other than ::GAMEDB_OK ("" if none).
 * @return a string owned by @p s, valid until its next call.
 * @since 1.1
 */
GAMEDB_EXPORT const char *gamedb_style12_session_errmsg(const struct gamedb_style12_session *s);

/**
 * Frees a session and the games still in it. NULL is a no-op.
 * @since 1.1
 */
GAMEDB_EXPORT void gamedb_style12_session_free(struct gamedb_style12_session *s);
/** @} */

/**
 * @defgroup query Search and the opening tree
 * Which games of an open reader reach a position and pass header filters, and what was played
 * from that position in them (the opening tree), counted as Scid counts.
 *
 * A position matches as Scid's exact board search matches it (`sc_search board ... Exact`):
 * the same men on the same squares and the same side to move; castling and en-passant rights
 * are not compared (Scid 4.7 compares neither). Only the main line of a game is searched, and
 * a game counts once, at the first ply where it reaches the position. Chess games are
 * searched for a chess position, xiangqi games for a xiangqi position.
 *
 * The canonical loop (every game of r that reaches the position after 1.e4 c5):
 *
 *     struct gamedb_query *q;
 *     gamedb_query_new(&q);
 *     gamedb_query_set_position(q, NULL, "e4 c5");
 *     gamedb_query_add_where(q, "Date>=1995");
 *     for (;;) {
 *         rc = gamedb_query_next(q, r, &g);
 *         if (rc == GAMEDB_END || rc == GAMEDB_FATAL) break;
 *         if (rc == GAMEDB_FAILED) { puts(gamedb_query_errmsg(q)); continue; }
 *         printf("%llu at ply %d\n", gamedb_game_get_index(g) + 1, gamedb_query_get_ply(q));
 *     }
 *     gamedb_query_free(q);
 * @{
 */

/** A position and header filters to match games against. Opaque. @since 1.2 */
struct gamedb_query;
/** The moves played from a position and how they scored. Opaque. @since 1.2 */
struct gamedb_tree;

/**
 * A new query that matches every game (no position, no filter).
 * @return ::GAMEDB_OK and *out (the caller frees it with gamedb_query_free()), or ::GAMEDB_FATAL
 *         with ::GAMEDB_E_NOMEM (*out NULL).
 * @since 1.2
 */
GAMEDB_EXPORT int32_t gamedb_query_new(struct gamedb_query **out);

/**
 * Sets the position the games must reach: the position of fen (NULL: the start position of the
 * game's kind), then the moves of moves played from it (NULL or "": none). A chess FEN is
 * matched against chess games, a xiangqi FEN against xiangqi games; with fen NULL the moves are
 * read as chess (SAN, "e4 c5", move numbers and "1..." allowed) and, when they are not legal
 * chess, as xiangqi (ICCS, "h2e2 h9g7"). Replaces an earlier position.
 * @return ::GAMEDB_OK, or ::GAMEDB_FAILED with ::GAMEDB_E_INVALID_ARGUMENT and a message naming
 *         what is wrong (gamedb_query_errmsg()); the query is then unchanged.
 * @since 1.2
 */
GAMEDB_EXPORT int32_t gamedb_query_set_position(struct gamedb_query *q, const char *fen,
						const char *moves);

/**
 * Adds a header filter; a game must pass every filter added. The forms of pgn-extract's tag
 * criteria: `TAG OP VALUE` with OP one of `=` (equal), `<>` or `!=` (not equal), `<`, `<=`,
 * `>`, `>=` and `~` (contains, ignoring ASCII case). TAG is any tag name, or `Player` (White or
 * Black, as pgn-extract's -Ta). Date, EventDate and UTCDate compare field by field (year,
 * then month, then day) as far as the value gives them: `Date>=1995`, `Date=1995.06`; an
 * unknown field ("??") never compares. Two whole numbers compare as numbers (`WhiteElo>=2600`),
 * anything else byte by byte (`ECO>=B90`). A game without the tag passes only `<>`/`!=`.
 * The value may be quoted ("...").
 * @return ::GAMEDB_OK, or ::GAMEDB_FAILED with ::GAMEDB_E_INVALID_ARGUMENT and a message.
 * @since 1.2
 */
GAMEDB_EXPORT int32_t gamedb_query_add_where(struct gamedb_query *q, const char *expr);

/**
 * Whether game g passes the filters and reaches the position (the moves are decoded only when
 * the filters pass and a position is set).
 * @return 1 (it matches; gamedb_query_get_ply() tells where), 0 (it does not), or
 *         ::GAMEDB_FAILED when the game's moves cannot be decoded (gamedb_query_errmsg()).
 * @since 1.2
 */
GAMEDB_EXPORT int32_t gamedb_query_match(struct gamedb_query *q, struct gamedb_game *g);

/**
 * The next game of r that matches q, read from r's current place on (gamedb_reader_next_game()).
 * @return ::GAMEDB_OK or ::GAMEDB_WARN (as the game was read) and *out, borrowed from r as
 *         gamedb_reader_next_game() hands it out; ::GAMEDB_END; ::GAMEDB_FAILED (a game could
 *         not be read or decoded: gamedb_query_errmsg() says which; call again for the next);
 *         ::GAMEDB_FATAL (the reader is unusable).
 * @since 1.2
 */
GAMEDB_EXPORT int32_t gamedb_query_next(struct gamedb_query *q, struct gamedb_reader *r,
					struct gamedb_game **out);

/**
 * The ply (0 = the game's start position) at which the game last matched reached the
 * position; -1 when no position is set or nothing matched yet.
 * @since 1.2
 */
GAMEDB_EXPORT int32_t gamedb_query_get_ply(const struct gamedb_query *q);

/**
 * The message of the last failure of q. Borrowed, valid until the next call on q.
 * @since 1.2
 */
GAMEDB_EXPORT const char *gamedb_query_errmsg(const struct gamedb_query *q);

/** Frees q. NULL is a no-op. @since 1.2 */
GAMEDB_EXPORT void gamedb_query_free(struct gamedb_query *q);

/**
 * The statistics of a tree row (gamedb_tree_get_stat()), as Scid's tree computes them.
 * @since 1.2
 */
enum gamedb_tree_stat {
	GAMEDB_TREE_GAMES = 1,       /**< Games in which the move was played from the position. */
	GAMEDB_TREE_WHITE_WINS = 2,  /**< Of them, won by White (1-0). */
	GAMEDB_TREE_DRAWS = 3,       /**< Drawn (1/2-1/2). */
	GAMEDB_TREE_BLACK_WINS = 4,  /**< Won by Black (0-1). */
	GAMEDB_TREE_SCORE = 5,       /**< White's score in tenths of a percent (0..1000) over the
					  games with a result; 500 when none has one (Scid). */
	GAMEDB_TREE_ELO_GAMES = 6,   /**< Games where both sides' Elo is known (WhiteElo, BlackElo). */
	GAMEDB_TREE_WHITE_ELO = 7,   /**< White's average Elo over those games; 0 when none. */
	GAMEDB_TREE_BLACK_ELO = 8,   /**< Black's average Elo over those games; 0 when none. */
	GAMEDB_TREE_PERFORMANCE = 9, /**< The mover's performance rating (the opponents' average
					  Elo plus FIDE's table 8.1a for the mover's score); 0
					  when no game has both Elos (Scid shows it from 10). */
	GAMEDB_TREE_YEAR_GAMES = 10, /**< Games with a known year. */
	GAMEDB_TREE_AVG_YEAR = 11,   /**< Their average year (truncated); 0 when none. */
	GAMEDB_TREE_LAST_YEAR = 12,  /**< The latest year; 0 when none. */
	GAMEDB_TREE_MOVER = 13       /**< The side that moves from the position: 0 White (Red), 1 Black. */
};

/**
 * Counts every game of r, from its current place to its end, that matches q into a new tree.
 * q must have a position. Games that cannot be read or decoded are counted in *failed (if
 * failed is not NULL) and left out.
 * @return ::GAMEDB_OK and *out (the caller frees it with gamedb_tree_free()); ::GAMEDB_FAILED
 *         with ::GAMEDB_E_MISUSE when q has no position; ::GAMEDB_FATAL when the reader
 *         became unusable or memory ran out (*out NULL, the reader's or q's message says).
 * @since 1.2
 */
GAMEDB_EXPORT int32_t gamedb_query_tree(struct gamedb_query *q, struct gamedb_reader *r,
					struct gamedb_tree **out, uint64_t *failed);

/**
 * An empty tree, to be filled with gamedb_tree_add_game() (one reader per thread, one tree
 * each, then gamedb_tree_merge()).
 * @return ::GAMEDB_OK and *out, or ::GAMEDB_FATAL with ::GAMEDB_E_NOMEM.
 * @since 1.2
 */
GAMEDB_EXPORT int32_t gamedb_tree_new(struct gamedb_tree **out);

/**
 * Matches g against q (which must have a position) and, when it matches, counts the move
 * played from the position (or the game's end there) with g's result, Elos and year.
 * @return 1 counted, 0 not matched, ::GAMEDB_FAILED (g cannot be decoded, or q has no
 *         position: gamedb_query_errmsg()), ::GAMEDB_FATAL (out of memory).
 * @since 1.2
 */
GAMEDB_EXPORT int32_t gamedb_tree_add_game(struct gamedb_tree *t, struct gamedb_query *q,
					   struct gamedb_game *g);

/**
 * Adds the counts of other into t, as if other's games had been added to t after t's own
 * (the rows keep the order in which their moves were first seen).
 * @return ::GAMEDB_OK, or ::GAMEDB_FATAL (out of memory; t is then partly merged).
 * @since 1.2
 */
GAMEDB_EXPORT int32_t gamedb_tree_merge(struct gamedb_tree *t, const struct gamedb_tree *other);

/**
 * The number of rows: one per move played from the position, and one for the games that end
 * there. Rows are ordered by games, most first; rows with as many games keep the order in
 * which their moves were first seen (game order), as Scid's tree lists them.
 * @since 1.2
 */
GAMEDB_EXPORT size_t gamedb_tree_get_count(struct gamedb_tree *t);

/**
 * The move of row i in SAN ("Nf3", "O-O", xiangqi: WXF "C2.5"), or "[end]" for the games that
 * end at the position (Scid's word). Borrowed, valid until t is freed or changed; NULL when i
 * is out of range.
 * @since 1.2
 */
GAMEDB_EXPORT const char *gamedb_tree_get_san(struct gamedb_tree *t, size_t i);

/**
 * The move of row i in UCI ("g1f3", "e1g1"; xiangqi: ICCS "h2e2"), or "" for the games that end
 * at the position. Borrowed as gamedb_tree_get_san(); NULL when i is out of range.
 * @since 1.2
 */
GAMEDB_EXPORT const char *gamedb_tree_get_uci(struct gamedb_tree *t, size_t i);

/**
 * A statistic (::gamedb_tree_stat) of row i; i == gamedb_tree_get_count() gives the totals of
 * every row. 0 for an unknown stat or a row out of range.
 * @since 1.2
 */
GAMEDB_EXPORT int64_t gamedb_tree_get_stat(struct gamedb_tree *t, size_t i, int32_t stat);

/** Frees t. NULL is a no-op. @since 1.2 */
GAMEDB_EXPORT void gamedb_tree_free(struct gamedb_tree *t);

/**
 * A position index (doc/index.md): built once from the games of one or more bases of any
 * format, it maps each position of the games' main lines (as gamedb_query_set_position()
 * matches them) to the games that reach it and the move played there, and keeps each game's
 * result, Elos and year, so that a tree is counted without opening a game. It records each
 * base file's size, time and a hash of its first and last 64 KiB: a base changed since is
 * refused (gamedb_query_set_index()). A damaged or hostile index file is refused with a
 * message; nothing is read past its end nor allocated beyond its size. An index handle, like a
 * reader, is used by one thread at a time (its reads share a window): open one per thread.
 *
 *     gamedb_index_writer_new(&w);
 *     while ((rc = gamedb_reader_next_game(r, &g)) != GAMEDB_END && rc != GAMEDB_FATAL)
 *         if (g) gamedb_index_writer_add_game(w, r, g);
 *     gamedb_index_writer_end_base(w, r);
 *     gamedb_index_writer_write(w, write_fn, file);
 *     ...
 *     gamedb_index_open(&ix, "games.gdbi");
 *     gamedb_query_set_index(q, ix, r);           (r: a reader of the same base)
 *     while (gamedb_query_next_hit(q, &game, &flags) == GAMEDB_OK)
 *         gamedb_tree_add_hit(t, q);
 */
/** An index being built. Opaque. @since 1.2 */
struct gamedb_index_writer;
/** A position index read from its file. Opaque. @since 1.2 */
struct gamedb_index;

/**
 * A new, empty index to build.
 * @return ::GAMEDB_OK and *out (freed with gamedb_index_writer_free()), or ::GAMEDB_FATAL.
 * @since 1.2
 */
GAMEDB_EXPORT int32_t gamedb_index_writer_new(struct gamedb_index_writer **out);

/**
 * Adds game g of reader r: its main line's positions, each where the game first reaches it,
 * with the move played there; its result, Elos, year and whether it is deleted. g NULL
 * records that r could not deliver its next game (gamedb_reader_next_game() returned
 * ::GAMEDB_FAILED), with r's message, in its place. The games of
 * one base come from one reader, in any order; a reader other than the last one starts a new
 * base (end the last one first with gamedb_index_writer_end_base()).
 * @return ::GAMEDB_OK; ::GAMEDB_FAILED when g's moves cannot be decoded (recorded as a failed
 *         game; gamedb_index_writer_errmsg() says why); ::GAMEDB_FATAL (out of memory, more
 *         than 2^32 - 2 games, or g is not r's).
 * @since 1.2
 */
GAMEDB_EXPORT int32_t gamedb_index_writer_add_game(struct gamedb_index_writer *w,
						   struct gamedb_reader *r, struct gamedb_game *g);

/**
 * Ends the base r reads (call it after its last game, while r is open): records the files of
 * r on disk (name, size, time, hash) so that the index can be checked against them.
 * @return ::GAMEDB_OK; ::GAMEDB_FAILED when r is not a base on disk or a file cannot be read
 *         (the message says); ::GAMEDB_FATAL.
 * @since 1.2
 */
GAMEDB_EXPORT int32_t gamedb_index_writer_end_base(struct gamedb_index_writer *w,
						   struct gamedb_reader *r);

/**
 * Writes the index through fn (called with user_data and pieces of the file, in order).
 * @return ::GAMEDB_OK; ::GAMEDB_FATAL (fn failed, memory ran out, or a base was not ended).
 * @since 1.2
 */
GAMEDB_EXPORT int32_t gamedb_index_writer_write(struct gamedb_index_writer *w, gamedb_write_fn fn,
						void *user_data);

/** The message of w's last failure. Borrowed, valid until the next call on w. @since 1.2 */
GAMEDB_EXPORT const char *gamedb_index_writer_errmsg(const struct gamedb_index_writer *w);

/** Frees w. NULL is a no-op. @since 1.2 */
GAMEDB_EXPORT void gamedb_index_writer_free(struct gamedb_index_writer *w);

/**
 * Opens the index file at path (read as needed, never mapped).
 * @return ::GAMEDB_OK and *out; ::GAMEDB_FAILED (not an index, a damaged one, or one that
 *         cannot be read: gamedb_index_errmsg(*out) says which; free *out all the same);
 *         ::GAMEDB_FATAL (out of memory; *out may be NULL).
 * @since 1.2
 */
GAMEDB_EXPORT int32_t gamedb_index_open(struct gamedb_index **out, const char *path);

/**
 * Opens an index held in memory (size bytes at data, borrowed: they must outlive *out).
 * @return as gamedb_index_open().
 * @since 1.2
 */
GAMEDB_EXPORT int32_t gamedb_index_open_memory(struct gamedb_index **out, const void *data,
					       size_t size);

/** The counts of an index (gamedb_index_get_count()). @since 1.2 */
enum gamedb_index_count {
	GAMEDB_INDEX_BASES = 1,     /**< Bases indexed. */
	GAMEDB_INDEX_GAMES = 2,     /**< Games, all bases together. */
	GAMEDB_INDEX_POSITIONS = 3, /**< Distinct positions (keys). */
	GAMEDB_INDEX_FAILED = 4,    /**< Games that could not be decoded when it was built. */
	GAMEDB_INDEX_BYTES = 5      /**< The size of the file. */
};

/** A count of ix (::gamedb_index_count); 0 for an unknown one. @since 1.2 */
GAMEDB_EXPORT uint64_t gamedb_index_get_count(const struct gamedb_index *ix, int32_t what);

/** The message of ix's last failure. Borrowed, valid until the next call on ix. @since 1.2 */
GAMEDB_EXPORT const char *gamedb_index_errmsg(const struct gamedb_index *ix);

/** Frees ix. NULL is a no-op. @since 1.2 */
GAMEDB_EXPORT void gamedb_index_free(struct gamedb_index *ix);

/**
 * Lets q find its position's games of reader r in ix: the base of ix built from r's files is
 * chosen and checked (every file's size, time and hash as when the index was built), and the
 * position's games read from it. From then on gamedb_query_match() decodes only the games the
 * index names, gamedb_tree_add_game() none, and gamedb_query_next_hit() hands the games out
 * without reading them. ix and r must outlive q's use of them; ix NULL takes the index away.
 * A later gamedb_query_set_position() reads the new position's games from ix.
 * @return ::GAMEDB_OK; ::GAMEDB_FAILED (ix was not built from r's base, the base changed since,
 *         or ix is damaged: gamedb_query_errmsg() says which; q then has no index);
 *         ::GAMEDB_FATAL.
 * @since 1.2
 */
GAMEDB_EXPORT int32_t gamedb_query_set_index(struct gamedb_query *q, struct gamedb_index *ix,
					     struct gamedb_reader *r);

/** The flags of a hit (gamedb_query_next_hit()). @since 1.2 */
enum gamedb_hit_flag {
	GAMEDB_HIT_DELETED = 1, /**< The game is marked deleted in its base. */
	GAMEDB_HIT_FAILED = 2,  /**< The game could not be decoded when the index was built
				     (gamedb_query_errmsg() has the message of then); not counted. */
	GAMEDB_HIT_UNREAD = 4   /**< Not a game: the base could not deliver the game at this place
				     when the index was built (gamedb_reader_next_game() failed;
				     gamedb_query_errmsg() has the message of then). */
};

/**
 * The next game (0-based number in its base), in game order, that reaches q's position
 * according to q's index (header filters are not applied: they need the game), and its
 * ::gamedb_hit_flag flags. The games that failed when the index was built, and the places
 * where the base failed to deliver a game, come in their place, with their message.
 * @return ::GAMEDB_OK, ::GAMEDB_END, or ::GAMEDB_FATAL (q has no index).
 * @since 1.2
 */
GAMEDB_EXPORT int32_t gamedb_query_next_hit(struct gamedb_query *q, uint64_t *game, uint32_t *flags);

/**
 * Counts the game of q's last gamedb_query_next_hit() in t, from the index alone.
 * @return ::GAMEDB_OK; ::GAMEDB_FAILED (a failed game: not counted); ::GAMEDB_FATAL.
 * @since 1.2
 */
GAMEDB_EXPORT int32_t gamedb_tree_add_hit(struct gamedb_tree *t, struct gamedb_query *q);
/** @} */

#ifdef __cplusplus
}
#endif

#endif /* GAMEDB_GAMEDB_H */
