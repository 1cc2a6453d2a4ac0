/*
 * libgamedb - the Chess Assistant format (Convekta, "Chess Data Pro format 1.3"): a base is
 * NAME.cdp (base-wide facts), NAME.emb (a small file system holding the name tables),
 * NAME.d00 (38-byte game headers), NAME.a02 (game id -> record address, with redirections)
 * and NAME.d02 (the game records: moves by piece number, variations, comments).
 *
 * The only description is the Kvetka project's text (doc/formats/chessassistant.md has every
 * field and every reading chosen where that text is unclear). No real base is public, so the
 * reader is defensive throughout: fragment chains, redirection chains and record lengths are
 * bounded and checked, and every move passes through the board engine.
 *
 * The one switch the seed leaves open (which way the horizontal part of a move's coordinate
 * delta counts) is CA_DIR_* below and the "direction" option; "auto" settles it by legality.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/chessassistant.h"

static const char *const table_names[4] = { "Players", "Events", "Places", "Sources" };

/* ---- the EMB file system -------------------------------------------------------------- */

/*
 * Assembles an EMB file of len bytes whose fragment table starts at off: (length, offset)
 * pairs read one after another until the lengths add up to len. A fragment that runs past
 * len, past the end of the EMB or a table that runs off the file is an error (the reader's,
 * FATAL); so is a file longer than the EMB itself (fragments cannot make more bytes than
 * there are without reusing them, and that is how a hostile file would ask for memory).
 */
static int emb_get(struct ca *s, const char *what, uint32_t len, uint32_t off, uint8_t **out)
{
	struct gamedb__file *f = s->emb;
	uint64_t pos = off, got = 0;
	uint8_t *buf;
	const uint8_t *p;

	*out = NULL;
	if (len > f->size) {
		gamedb__error(s->r, GAMEDB_FATAL, GAMEDB_E_CORRUPT,
			      "%s: offset %u: %s: length %u is more than the whole file (%llu bytes)",
			      f->name, off, what, len, (unsigned long long)f->size);
		return -1;
	}
	buf = malloc(len ? len : 1);
	if (!buf) {
		gamedb__error(s->r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
		return -1;
	}
	while (got < len) {
		uint32_t fl, fo;
		int64_t n = gamedb__file_view(f, pos, 8, &p);
		if (n < 0)
			goto fail;
		if (n < 8) {
			gamedb__error(s->r, GAMEDB_FATAL, GAMEDB_E_CORRUPT,
				      "%s: offset %llu: %s: the fragment table runs past the end of the file (%llu of %u bytes found)",
				      f->name, (unsigned long long)pos, what, (unsigned long long)got, len);
			goto fail;
		}
		fl = gamedb__le32(p);
		fo = gamedb__le32(p + 4);
		if (fl > len - got) {
			gamedb__error(s->r, GAMEDB_FATAL, GAMEDB_E_CORRUPT,
				      "%s: offset %llu: %s: a fragment of %u bytes overruns the file's length (%llu of %u bytes found)",
				      f->name, (unsigned long long)pos, what, fl, (unsigned long long)got, len);
			goto fail;
		}
		if ((uint64_t)fo + fl > f->size) {
			gamedb__error(s->r, GAMEDB_FATAL, GAMEDB_E_CORRUPT,
				      "%s: offset %llu: %s: a fragment of %u bytes at offset %u lies outside the file (%llu bytes)",
				      f->name, (unsigned long long)pos, what, fl, fo,
				      (unsigned long long)f->size);
			goto fail;
		}
		if (fl) {
			n = gamedb__file_view(f, fo, fl, &p);
			if (n < 0)
				goto fail;
			if ((uint64_t)n < fl) {
				gamedb__error(s->r, GAMEDB_FATAL, GAMEDB_E_IO,
					      "%s: offset %u: %s: cannot read a fragment", f->name, fo, what);
				goto fail;
			}
			memcpy(buf + got, p, fl);
			got += fl;
		}
		/* Each pair moves the table on by 8 bytes: zero-length fragments cannot loop, they
		 * run into the end of the file. */
		pos += 8;
	}
	*out = buf;
	return 0;
fail:
	free(buf);
	return -1;
}

/* 1 if the directory entry's C string (at most cap bytes) is name, in any case. */
static int entry_is(const uint8_t *e, size_t cap, const char *name)
{
	size_t i, n = strlen(name);

	if (n >= cap)
		return 0;
	for (i = 0; i < n; i++) {
		int a = e[i], b = (unsigned char)name[i];
		if (a >= 'A' && a <= 'Z')
			a += 32;
		if (b >= 'A' && b <= 'Z')
			b += 32;
		if (a != b)
			return 0;
	}
	return e[n] == 0;
}

/*
 * Reads the root directory and the files the reader uses (by name, not by position):
 * Players/Events/Places/Sources .a01 and .d01, and Players.d00. A missing one leaves its
 * names unknown ("?"): returns 1 then (a warning), 0 when all were there, -1 on an error.
 */
static int emb_load(struct ca *s)
{
	struct gamedb__file *f = s->emb;
	const uint8_t *p;
	uint8_t *dir = NULL;
	uint32_t dlen, doff;
	size_t i, k, nent;
	int missing = 0;
	int64_t n = gamedb__file_view(f, 0, CA_EMB_HEAD, &p);

	if (n < 0)
		return -1;
	if (n < (int64_t)CA_EMB_HEAD) {
		gamedb__error(s->r, GAMEDB_FATAL, GAMEDB_E_CORRUPT,
			      "%s: offset %lld: truncated header (an EMB header takes %u bytes)", f->name,
			      (long long)n, CA_EMB_HEAD);
		return -1;
	}
	dlen = gamedb__le32(p + 136);
	doff = gamedb__le32(p + 140);
	if (emb_get(s, "root directory", dlen, doff, &dir) != 0)
		return -1;
	nent = dlen / CA_DIR_ENTRY;
	for (k = 0; k < 9; k++) {
		static const char *const ext[3] = { ".a01", ".d01", ".d00" };
		size_t t = k < 8 ? k / 2 : T_PLAYERS;
		size_t e = k < 8 ? k % 2 : 2;
		char name[24], what[40];
		uint8_t **dst = e == 0 ? &s->tab[t].a01 : e == 1 ? &s->tab[t].d01 : &s->pd00;
		size_t *dn = e == 0 ? &s->tab[t].a01n : e == 1 ? &s->tab[t].d01n : &s->pd00n;

		snprintf(name, sizeof name, "%s%s", table_names[t], ext[e]);
		for (i = 0; i < nent; i++) {
			const uint8_t *en = dir + i * CA_DIR_ENTRY;
			if (entry_is(en + 28, CA_DIR_ENTRY - 28, name))
				break;
		}
		if (i == nent) {
			if (e != 2)
				missing = 1;
			continue;
		}
		snprintf(what, sizeof what, "file %s", name);
		if (emb_get(s, what, gamedb__le32(dir + i * CA_DIR_ENTRY + 8),
			    gamedb__le32(dir + i * CA_DIR_ENTRY + 12), dst) != 0) {
			free(dir);
			return -1;
		}
		*dn = gamedb__le32(dir + i * CA_DIR_ENTRY + 8);
	}
	free(dir);
	for (k = 0; k < 4; k++)
		s->tab[k].have = s->tab[k].a01 && s->tab[k].d01;
	return missing;
}

/*
 * The record of id in a name table: its bytes (name, then for players the title). The a01
 * entry of id is the record's address in d01 when it is not negative; a negative entry sends
 * to the id it negates. 0, or -1 when the id has no record (out of range, a chain that loops
 * or runs longer than CA_MAX_CHAIN, an address or record outside d01).
 */
static int name_of(const struct ca *s, int t, uint32_t id, const uint8_t **name, size_t *nlen,
		   const uint8_t **title, size_t *tlen)
{
	const struct catable *tb = &s->tab[t];
	size_t cnt, steps = 0, addr, hd = t == T_PLAYERS ? 2 : 1;
	int64_t v;

	if (!tb->have)
		return -1;
	cnt = tb->a01n / 4;
	for (;;) {
		if (id >= cnt || steps++ > CA_MAX_CHAIN)
			return -1;
		v = (int32_t)gamedb__le32(tb->a01 + 4 * (size_t)id);
		if (v >= 0)
			break;
		if (-v > (int64_t)UINT32_MAX)
			return -1;
		id = (uint32_t)-v;
	}
	addr = (size_t)v;
	if (addr >= tb->d01n || tb->d01n - addr < hd)
		return -1;
	*nlen = tb->d01[addr];
	*tlen = t == T_PLAYERS ? tb->d01[addr + 1] : 0;
	if (tb->d01n - addr - hd < *nlen + *tlen)
		return -1;
	*name = tb->d01 + addr + hd;
	*title = *name + *nlen;
	return 0;
}

/*
 * The charset of the base's text: the caller's `charset` option, else what charset-detect
 * found, else CP1251. Worked out on each use, so that an option set after the open counts.
 */
const char *gamedb__ca_charset(const struct ca *s)
{
	if (s->r->text.charset[0] || !s->detected)
		return gamedb__reader_charset(s->r);
	return s->detected;
}

/*
 * charset-detect: CP1251 or CP1252 by the text layer's vote (text/detect.c) over every name
 * and title of the name tables and the base comment; CP1251, the format's default, on a tie
 * (all ASCII).
 */
static void ca_detect(struct ca *s)
{
	struct gamedb__charset_votes v = { 0, 0 };
	const uint8_t *nm, *ti;
	size_t nl, tl;
	uint32_t id;
	int t;

	/* Each stored name once: an id redirected to another (a negative entry) is skipped, so
	   no redirection chain is followed and the vote costs one step per id. */
	for (t = 0; t < 4; t++)
		for (id = 0; s->tab[t].have && id < s->tab[t].a01n / 4; id++)
			if ((int32_t)gamedb__le32(s->tab[t].a01 + 4 * (size_t)id) >= 0 &&
			    name_of(s, t, id, &nm, &nl, &ti, &tl) == 0) {
				gamedb__charset_vote(&v, nm, nl);
				gamedb__charset_vote(&v, ti, tl);
			}
	gamedb__charset_vote(&v, s->cdp_comment, s->cdp_comment_len);
	s->detected = gamedb__charset_choose(&v, "CP1251");
}

/* ---- bidding and opening -------------------------------------------------------------- */

/* 1 if n bytes are a NUL-padded text field (printable or line breaks, then at least one NUL). */
static int text_field(const uint8_t *p, size_t n)
{
	size_t i = 0;

	while (i < n && p[i] && (p[i] >= 0x20 || p[i] == '\n' || p[i] == '\r' || p[i] == '\t'))
		i++;
	if (i == 0 || i == n)
		return 0;
	while (i < n && p[i] == 0)
		i++;
	return i == n;
}

/* 1 if the n bytes at p hold the text t. */
static int has_text(const uint8_t *p, size_t n, const char *t)
{
	size_t i, k = strlen(t);

	for (i = 0; i + k <= n; i++)
		if (memcmp(p + i, t, k) == 0)
			return 1;
	return 0;
}

static int ca_bid(struct gamedb__src *src)
{
	struct gamedb__file *f = src->nfiles ? src->files[0] : NULL;
	const uint8_t *p;

	if (!f || gamedb__file_view(f, 0, CA_CDP_HEAD, &p) != (int64_t)CA_CDP_HEAD)
		return -1;
	if (!text_field(p, 50) || !text_field(p + 50, 50))
		return -1;
	if (has_text(p + 50, 50, "Data Pro") || has_text(p, 50, "Chess Assistant"))
		return 100;
	return 20;
}

static void ca_close(void *state)
{
	struct ca *s = state;
	int k;

	if (!s)
		return;
	for (k = 0; k < 4; k++) {
		free(s->tab[k].a01);
		free(s->tab[k].d01);
	}
	free(s->pd00);
	free(s->cdp_comment);
	gamedb__buf_free(&s->handle.comment);
	gamedb__stack_free(&s->frames);
	gamedb__stack_free(&s->pend);
	free(s);
}

static int32_t ca_open(struct gamedb_reader *r, void **state)
{
	struct ca *s = calloc(1, sizeof *s);
	const uint8_t *p;
	int32_t rc = GAMEDB_OK;
	uint32_t cdp_count;
	int64_t n;
	int m;

	if (!s)
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
	s->r = r;
	s->handle.s = s;
	s->dir = CA_DIR_AUTO;
	s->dir_cur = CA_DIR_RIGHT;
	gamedb__stack_init(&s->frames, sizeof(struct caframe), CA_MAX_DEPTH + 1);
	gamedb__stack_init(&s->pend, sizeof(size_t), SIZE_MAX);
	*state = s;
	if (gamedb__src_open(&r->src, NULL, 0, &s->cdp) != 0 ||
	    gamedb__src_open(&r->src, ".emb", 0, &s->emb) != 0 ||
	    gamedb__src_open(&r->src, ".d00", 0, &s->d00) != 0 ||
	    gamedb__src_open(&r->src, ".a02", 0, &s->a02) != 0 ||
	    gamedb__src_open(&r->src, ".d02", 0, &s->d02) != 0)
		goto fail;
	n = gamedb__file_view(s->cdp, 0, CA_CDP_HEAD, &p);
	if (n < 0)
		goto fail;
	if (n < (int64_t)CA_CDP_HEAD) {
		gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_CORRUPT,
			      "%s: offset %lld: truncated header (a CDP header takes %u bytes)",
			      s->cdp->name, (long long)n, CA_CDP_HEAD);
		goto fail;
	}
	cdp_count = gamedb__le32(p + 104);
	{
		/* The base comment: its length at 108, the text from 112 (clipped to the file). */
		uint64_t cl = gamedb__le32(p + 108);
		const uint8_t *q;
		if (cl > s->cdp->size - CA_CDP_HEAD)
			cl = s->cdp->size - CA_CDP_HEAD;
		s->cdp_comment = malloc(cl ? (size_t)cl : 1);
		if (!s->cdp_comment) {
			gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
			goto fail;
		}
		n = cl ? gamedb__file_view(s->cdp, CA_CDP_HEAD, (size_t)cl, &q) : 0;
		if (n < 0)
			goto fail;
		if (n)
			memcpy(s->cdp_comment, q, (size_t)n);
		s->cdp_comment_len = (size_t)n;
	}
	m = emb_load(s);
	if (m < 0)
		goto fail;
	s->count = s->d00->size / CA_D00_REC;
	ca_detect(s); /* on by default; charset-detect=no turns it off */
	if (m > 0)
		rc = gamedb__error(r, GAMEDB_WARN, GAMEDB_E_CORRUPT,
				   "%s: a name table (a01/d01) is missing from the root directory; its names read \"?\"",
				   s->emb->name);
	if (s->d00->size % CA_D00_REC)
		rc = gamedb__error(r, GAMEDB_WARN, GAMEDB_E_CORRUPT,
				   "%s: offset %llu: %llu bytes after the last whole 38-byte header are ignored",
				   s->d00->name, (unsigned long long)(s->count * CA_D00_REC),
				   (unsigned long long)(s->d00->size % CA_D00_REC));
	else if (cdp_count != s->count)
		rc = gamedb__error(r, GAMEDB_WARN, GAMEDB_E_CORRUPT,
				   "%s: offset 104: the base says %u games, %s holds %llu headers; the headers are read",
				   s->cdp->name, cdp_count, s->d00->name, (unsigned long long)s->count);
	return rc;
fail:
	ca_close(s);
	*state = NULL;
	return GAMEDB_FATAL;
}

static int32_t ca_set_option(void *state, const char *key, const char *value)
{
	struct ca *s = state;

	if (strcmp(key, "charset-detect") == 0) {
		if (!value || strcmp(value, "yes") == 0 || strcmp(value, "1") == 0 ||
		    strcmp(value, "true") == 0) {
			ca_detect(s);
			return GAMEDB_OK;
		}
		if (strcmp(value, "no") == 0 || strcmp(value, "0") == 0 ||
		    strcmp(value, "false") == 0) {
			s->detected = NULL;
			return GAMEDB_OK;
		}
		return gamedb__error(s->r, GAMEDB_FAILED, GAMEDB_E_INVALID_ARGUMENT,
				     "option charset-detect: \"%s\" is neither yes nor no", value);
	}
	if (strcmp(key, "direction") != 0)
		return GAMEDB_WARN;
	if (!value || strcmp(value, "auto") == 0)
		s->dir = CA_DIR_AUTO;
	else if (strcmp(value, "right") == 0)
		s->dir = s->dir_cur = CA_DIR_RIGHT;
	else if (strcmp(value, "left") == 0)
		s->dir = s->dir_cur = CA_DIR_LEFT;
	else
		return gamedb__error(s->r, GAMEDB_FAILED, GAMEDB_E_MISUSE,
				     "option direction: \"%s\" is none of auto, right, left", value);
	return GAMEDB_OK;
}

/* ---- headers -------------------------------------------------------------------------- */

static const char *const game_types[31] = {
	NULL, "my own games", "historic games", "model games", "annotated games from books",
	"computer games", "opening theory/plans", "middlegames", "endgames", "strategy",
	"tactics", "tests", "blunders", "kingside attack", "queenside attack", "counter attack",
	"typical pawn structure", "piece play", "positional sacrifice", "material imbalance",
	"endgame transition", "opposite coloured bishops", "space", "defence", "prophylaxis",
	"drawing methods", "my analysis", "computer analysis", "tablebase analysis", "psychology",
	"miscellaneous"
};

/* A name tag from a table; "?" (dflt) when the id has none; NULL dflt: no tag then. */
static int name_tag(struct ca *s, struct gamedb_game *g, const char *tag, int t, uint32_t id,
		    const char *dflt, const char *title_tag, int *unknown)
{
	const uint8_t *nm, *ti;
	size_t nl, tl;
	const char *cs = gamedb__ca_charset(s);

	if (name_of(s, t, id, &nm, &nl, &ti, &tl) != 0 || nl == 0) {
		if (!dflt)
			return 0;
		if (unknown && s->tab[t].have)
			*unknown = 1;
		return gamedb__tags_add(&g->head, tag, dflt, strlen(dflt), NULL, 0, NULL) ? -1 : 0;
	}
	if (gamedb__game_add_tag_raw(g, &g->head, tag, (const char *)nm, nl, cs) == GAMEDB_FAILED)
		return -1;
	if (title_tag && tl &&
	    gamedb__game_add_tag_raw(g, &g->head, title_tag, (const char *)ti, tl, cs) == GAMEDB_FAILED)
		return -1;
	return 0;
}

static int32_t ca_next_game(void *state, struct gamedb_game *g)
{
	struct ca *s = state;
	static const char *const results[5] = { "*", "1/2-1/2", "1-0", "0-1", "*" };
	const uint8_t *p;
	uint8_t h[CA_D00_REC];
	uint64_t off;
	uint32_t date, eco, v;
	char buf[32];
	const char *res;
	int64_t n;
	int unknown = 0;

	if (s->next >= s->count)
		return GAMEDB_END;
	off = s->next * CA_D00_REC;
	n = gamedb__file_view(s->d00, off, CA_D00_REC, &p);
	if (n < 0)
		return GAMEDB_FATAL;
	if (n < (int64_t)CA_D00_REC)
		return gamedb__error(s->r, GAMEDB_FATAL, GAMEDB_E_IO,
				     "%s: offset %llu: the file ends inside game header %llu",
				     s->d00->name, (unsigned long long)off, (unsigned long long)s->next + 1);
	memcpy(h, p, CA_D00_REC);
	g->index = s->next++;
	g->variant = GAMEDB_VARIANT_CHESS;
	g->loc[0] = gamedb__le32(h + 24); /* game id */
	g->fmt_flags = h[10];             /* outcome, for the decode */
	g->fen_pending = 1;               /* a setup position is only in the record */

	if (name_tag(s, g, "Event", T_EVENTS, gamedb__le24(h + 14), "?", NULL, &unknown) ||
	    name_tag(s, g, "Site", T_PLACES, gamedb__le24(h + 17), "?", NULL, &unknown))
		goto nomem;
	date = gamedb__le24(h + 11);
	gamedb__pgn_date(buf, date / (32 * 13), date / 32 % 13, date % 32);
	if (gamedb__tags_add(&g->head, "Date", buf, 10, NULL, 0, NULL))
		goto nomem;
	v = h[29];
	if (v == 0)
		strcpy(buf, "?");
	else if (v % 2)
		snprintf(buf, sizeof buf, "%u.5", v / 2);
	else
		snprintf(buf, sizeof buf, "%u", v / 2);
	if (gamedb__tags_add(&g->head, "Round", buf, strlen(buf), NULL, 0, NULL) ||
	    name_tag(s, g, "White", T_PLAYERS, gamedb__le24(h + 0), "?", NULL, &unknown) ||
	    name_tag(s, g, "Black", T_PLAYERS, gamedb__le24(h + 3), "?", NULL, &unknown))
		goto nomem;
	res = h[10] <= 4 ? results[h[10]] : "*";
	if (gamedb__tags_add(&g->head, "Result", res, strlen(res), NULL, 0, NULL))
		goto nomem;
	/* Titles after the roster: WhiteTitle/BlackTitle as PGN has them. */
	{
		const uint8_t *nm, *ti;
		size_t nl, tl;
		const char *cs = gamedb__ca_charset(s);
		if (name_of(s, T_PLAYERS, gamedb__le24(h + 0), &nm, &nl, &ti, &tl) == 0 && tl &&
		    gamedb__game_add_tag_raw(g, &g->head, "WhiteTitle", (const char *)ti, tl, cs) ==
			    GAMEDB_FAILED)
			goto nomem;
		if (name_of(s, T_PLAYERS, gamedb__le24(h + 3), &nm, &nl, &ti, &tl) == 0 && tl &&
		    gamedb__game_add_tag_raw(g, &g->head, "BlackTitle", (const char *)ti, tl, cs) ==
			    GAMEDB_FAILED)
			goto nomem;
	}
	if ((v = gamedb__le16(h + 6)) != 0) {
		snprintf(buf, sizeof buf, "%u", v);
		if (gamedb__tags_add(&g->head, "WhiteElo", buf, strlen(buf), NULL, 0, NULL))
			goto nomem;
	}
	if ((v = gamedb__le16(h + 8)) != 0) {
		snprintf(buf, sizeof buf, "%u", v);
		if (gamedb__tags_add(&g->head, "BlackElo", buf, strlen(buf), NULL, 0, NULL))
			goto nomem;
	}
	eco = gamedb__le16(h + 30);
	if (eco != 0 && eco < 500) {
		snprintf(buf, sizeof buf, "%c%02u", 'A' + eco / 100, eco % 100);
		if (gamedb__tags_add(&g->head, "ECO", buf, 3, NULL, 0, NULL))
			goto nomem;
	}
	if (name_tag(s, g, "Annotator", T_PLAYERS, gamedb__le24(h + 32), NULL, NULL, NULL) ||
	    name_tag(s, g, "Source", T_SOURCES, gamedb__le24(h + 35), NULL, NULL, NULL))
		goto nomem;
	v = gamedb__le32(h + 20);
	if (v >= 1 && v <= 30) {
		if (gamedb__tags_add(&g->head, "GameType", game_types[v], strlen(game_types[v]),
				     NULL, 0, NULL))
			goto nomem;
	} else if (v) {
		snprintf(buf, sizeof buf, "%u", v);
		if (gamedb__tags_add(&g->head, "GameType", buf, strlen(buf), NULL, 0, NULL))
			goto nomem;
	}
	if (unknown)
		return gamedb__error(s->r, GAMEDB_WARN, GAMEDB_E_CORRUPT,
				     "%s: offset %llu: game %llu: a player, event or site id has no name in %s",
				     s->d00->name, (unsigned long long)off,
				     (unsigned long long)g->index + 1, s->emb->name);
	return GAMEDB_OK;
nomem:
	return gamedb__error(s->r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
}

static int32_t ca_seek(void *state, uint64_t index)
{
	struct ca *s = state;

	if (index >= s->count)
		return gamedb__error(s->r, GAMEDB_FAILED, GAMEDB_E_RANGE,
				     "gamedb_reader_seek_game: game %llu of %llu",
				     (unsigned long long)index, (unsigned long long)s->count);
	s->next = index;
	return GAMEDB_OK;
}

static int32_t ca_count(void *state, uint64_t *out)
{
	struct ca *s = state;

	*out = s->count;
	return GAMEDB_OK;
}

/* ---- the game record ------------------------------------------------------------------ */

/*
 * Finds the record of game id in d02 through a02 and views it: *rec its codes (after the
 * length field), *len their number, *base their file offset. 0, or -1 with g's message set.
 */
int gamedb__ca_rec_view(struct ca *s, struct gamedb_game *g, const uint8_t **rec, size_t *len,
			uint64_t *base)
{
	uint64_t cnt = s->a02->size / 4, id = g->loc[0], steps = 0, off;
	const uint8_t *p;
	int64_t v, n;
	size_t hd, rl;

	for (;;) {
		if (id >= cnt) {
			gamedb__game_seterr(g, "%s: offset %llu: game %llu: game id %llu is past the end of the address table (%llu entries)",
					    s->a02->name, (unsigned long long)(id * 4),
					    (unsigned long long)g->index + 1, (unsigned long long)id,
					    (unsigned long long)cnt);
			return -1;
		}
		if (steps++ > CA_MAX_CHAIN) {
			gamedb__game_seterr(g, "%s: offset %llu: game %llu: the redirection chain loops (more than %u steps)",
					    s->a02->name, (unsigned long long)(id * 4),
					    (unsigned long long)g->index + 1, CA_MAX_CHAIN);
			return -1;
		}
		n = gamedb__file_view(s->a02, id * 4, 4, &p);
		if (n < 4) {
			gamedb__game_seterr(g, "%s: offset %llu: cannot read the address table",
					    s->a02->name, (unsigned long long)(id * 4));
			return -1;
		}
		v = (int32_t)gamedb__le32(p);
		if (v >= 0)
			break;
		id = (uint64_t)-v;
	}
	off = (uint64_t)v;
	n = gamedb__file_view(s->d02, off, 2, &p);
	if (n < 1 || (p[0] >= 128 && n < 2)) {
		gamedb__game_seterr(g, "%s: offset %llu: game %llu: the record's address lies past the end of the file",
				    s->d02->name, (unsigned long long)off, (unsigned long long)g->index + 1);
		return -1;
	}
	if (p[0] < 128) {
		rl = p[0];
		hd = 1;
	} else {
		rl = (size_t)(p[0] & 127) + (size_t)p[1] * 128;
		hd = 2;
	}
	n = gamedb__file_view(s->d02, off + hd, rl, &p);
	if (n < 0 || (size_t)n < rl) {
		gamedb__game_seterr(g, "%s: offset %llu: game %llu: a record of %zu bytes runs past the end of the file",
				    s->d02->name, (unsigned long long)off, (unsigned long long)g->index + 1, rl);
		return -1;
	}
	*rec = p;
	*len = rl;
	*base = off + hd;
	return 0;
}

/*
 * Code 230's position (76 bytes at b): both 18-piece arrays, the ply count, the castling mask
 * and the en-passant square. pos and sl set; 0, or -1 with a reason in why.
 */
int gamedb__ca_parse_setup(const uint8_t *b, struct gamedb__pos *pos, struct gamedb__caslots *sl,
			   char *fen, size_t fcap, char *why, size_t wcap)
{
	uint8_t board[64];
	const char *pw;
	char raw[128];
	size_t k;
	unsigned ply, mask, ep;
	int c, i;

	memset(board, 0, sizeof board);
	gamedb__caslots_clear(sl);
	for (c = 0; c < 2; c++) {
		for (i = 0; i < 18; i++) {
			unsigned at = b[c * 36 + 2 * i], type = b[c * 36 + 2 * i + 1];
			unsigned sq;
			if (type == 0)
				continue; /* absent (written 8, 0) */
			if ((at >> 4) > 7 || (at & 15) > 7) {
				snprintf(why, wcap, "%s piece %d stands on coordinate %u, off the board",
					 c ? "black" : "white", i, at);
				return -1;
			}
			if (i < 16 ? type != gamedb__ca_fixed_type[i] : (type < GAMEDB__KNIGHT || type > GAMEDB__QUEEN)) {
				snprintf(why, wcap, "%s piece %d cannot be of type %u", c ? "black" : "white",
					 i, type);
				return -1;
			}
			sq = (at >> 4) * 8 + (at & 15);
			if (board[sq]) {
				snprintf(why, wcap, "two pieces on one square (coordinate %u)", at);
				return -1;
			}
			board[sq] = GAMEDB__PC(type, c);
			sl->sq[c][i] = (uint8_t)sq;
		}
	}
	ply = gamedb__le16(b + 72);
	mask = b[74];
	ep = b[75];
	k = gamedb__fen_placement(board, raw);
	raw[k++] = ' ';
	raw[k++] = ply % 2 ? 'b' : 'w';
	raw[k++] = ' ';
	/* Chess Assistant plays standard chess: a right counts only with the king and the rook
	 * on their home squares (else FEN would read it as a Chess960 right). */
	{
		const uint8_t wk = GAMEDB__PC(GAMEDB__KING, 0), wr = GAMEDB__PC(GAMEDB__ROOK, 0);
		const uint8_t bk = GAMEDB__PC(GAMEDB__KING, 1), br = GAMEDB__PC(GAMEDB__ROOK, 1);
		size_t k0 = k;
		if ((mask & 1) && board[4] == wk && board[7] == wr)
			raw[k++] = 'K';
		if ((mask & 2) && board[4] == wk && board[0] == wr)
			raw[k++] = 'Q';
		if ((mask & 4) && board[60] == bk && board[63] == br)
			raw[k++] = 'k';
		if ((mask & 8) && board[60] == bk && board[56] == br)
			raw[k++] = 'q';
		if (k == k0)
			raw[k++] = '-';
	}
	raw[k++] = ' ';
	/* 0 is "none" (a1 is never an en-passant square); only the rank that fits the side to
	 * move is kept. */
	if (ep && (ep & 15) <= 7 && (ep >> 4) == (ply % 2 ? 2u : 5u)) {
		raw[k++] = (char)('a' + (ep & 15));
		raw[k++] = (char)('1' + (ep >> 4));
	} else {
		raw[k++] = '-';
	}
	snprintf(raw + k, sizeof raw - k, " 0 %u", ply / 2 + 1);
	if (gamedb__pos_from_fen_normal(pos, raw, fen, fcap, NULL, &pw) != 0) {
		snprintf(why, wcap, "not a playable position (%s): %s", pw, raw);
		return -1;
	}
	return 0;
}

/* Adds SetUp and FEN when the record starts with a setup position (after comments). */
static int32_t ca_load_tags(void *state, struct gamedb_game *g)
{
	struct ca *s = state;
	const uint8_t *rec;
	size_t len, i = 0;
	uint64_t base;
	struct gamedb__caslots sl;
	char why[160];

	if (gamedb__ca_rec_view(s, g, &rec, &len, &base) != 0) {
		g->errmsg[0] = 0; /* the decode reports it */
		return GAMEDB_OK;
	}
	while (i < len) {
		if (rec[i] == 233 && len - i >= 2)
			i += 2;
		else if (rec[i] == 234 && len - i >= 3)
			i += 3;
		else if (rec[i] == 235 && len - i >= 2)
			i += 2 + (size_t)rec[i + 1];
		else if (rec[i] == 236 && len - i >= 5)
			i += 5 + (size_t)gamedb__le32(rec + i + 1);
		else
			break;
	}
	if (i >= len || rec[i] != 230 || len - i - 1 < CA_SETUP_LEN)
		return GAMEDB_OK;
	if (gamedb__ca_parse_setup(rec + i + 1, &g->start, &sl, g->fen, sizeof g->fen, why, sizeof why) != 0) {
		strcpy(g->fen, GAMEDB__START_FEN);
		return GAMEDB_OK; /* the decode reports it */
	}
	g->have_start = 1;
	if (gamedb__tags_add(&g->extra, "SetUp", "1", 1, NULL, 0, NULL) ||
	    gamedb__tags_add(&g->extra, "FEN", g->fen, strlen(g->fen), NULL, 0, NULL))
		return GAMEDB_FAILED;
	return GAMEDB_OK;
}

static int ca_tag_surely_absent(void *state, const struct gamedb_game *g, const char *name)
{
	(void)state;
	(void)g;
	return strcmp(name, "FEN") != 0 && strcmp(name, "SetUp") != 0;
}

/* ---- the public handle ------------------------------------------------------------------ */

extern const struct gamedb__format gamedb__format_chessassistant;

static void *ca_handle(void *state)
{
	struct ca *s = state;

	return &s->handle;
}

GAMEDB_EXPORT struct gamedb_chessassistant *gamedb_reader_get_chessassistant(struct gamedb_reader *r)
{
	return gamedb__reader_handle(r, &gamedb__format_chessassistant);
}

/* Players.d00 field of player id: 0 rating, 1 FIDE id, 2 birthday (YYYYMMDD), 3 gender. */
static int64_t player_field(const struct ca *s, uint32_t id, int which)
{
	const uint8_t *p;
	uint32_t d;

	if ((uint64_t)id * 10 + 10 > s->pd00n)
		return 0;
	p = s->pd00 + (size_t)id * 10;
	switch (which) {
	case 0:
		return gamedb__le16(p);
	case 1:
		return gamedb__le32(p + 2);
	case 2:
		d = gamedb__le24(p + 6);
		return (int64_t)(d / 416) * 10000 + (d / 32 % 13) * 100 + d % 32;
	default:
		return p[9];
	}
}

GAMEDB_EXPORT int64_t gamedb_chessassistant_get_game_field(struct gamedb_chessassistant *ca,
							   const struct gamedb_game *g,
							   int32_t field)
{
	struct ca *s;
	const uint8_t *p;

	if (!ca || !g || g->magic != GAMEDB__GAME_MAGIC)
		return -1;
	s = ca->s;
	/* A game of this reader, or a copy of one (gamedb_game_dup() keeps its index). */
	if ((g->reader && g->reader != s->r) || g->index >= s->count ||
	    gamedb__file_view(s->d00, g->index * CA_D00_REC, CA_D00_REC, &p) != (int64_t)CA_D00_REC)
		return -1;
	switch (field) {
	case GAMEDB_CA_GAME_TYPE:
		return gamedb__le32(p + 20);
	case GAMEDB_CA_OUTCOME:
		return p[10];
	case GAMEDB_CA_GAME_ID:
		return gamedb__le32(p + 24);
	case GAMEDB_CA_WHITE_ID:
		return gamedb__le24(p);
	case GAMEDB_CA_BLACK_ID:
		return gamedb__le24(p + 3);
	case GAMEDB_CA_WHITE_RATING:
	case GAMEDB_CA_WHITE_FIDE_ID:
	case GAMEDB_CA_WHITE_BIRTHDAY:
	case GAMEDB_CA_WHITE_GENDER:
		return player_field(s, gamedb__le24(p), field - GAMEDB_CA_WHITE_RATING);
	case GAMEDB_CA_BLACK_RATING:
	case GAMEDB_CA_BLACK_FIDE_ID:
	case GAMEDB_CA_BLACK_BIRTHDAY:
	case GAMEDB_CA_BLACK_GENDER:
		return player_field(s, gamedb__le24(p + 3), field - GAMEDB_CA_BLACK_RATING);
	case GAMEDB_CA_UNKNOWN_BYTE:
		return p[28];
	default:
		return -1;
	}
}

/* The base comment into ca->comment as UTF-8: OK, WARN (converted with loss) or FAILED. */
static int32_t ca_comment(struct gamedb_chessassistant *ca)
{
	struct ca *s = ca->s;
	size_t n = s->cdp_comment_len;

	gamedb__buf_clear(&ca->comment);
	while (n && s->cdp_comment[n - 1] == 0)
		n--;
	return gamedb__text_to_utf8(&s->r->text, gamedb__ca_charset(s), gamedb__reader_fallback(s->r),
				    (const char *)s->cdp_comment, n, &ca->comment);
}

GAMEDB_EXPORT const char *gamedb_chessassistant_get_comment(struct gamedb_chessassistant *ca)
{
	if (!ca || ca_comment(ca) == GAMEDB_FAILED)
		return NULL;
	return ca->comment.p ? ca->comment.p : "";
}

/*
 * The base's own properties: its comment, as gamedb_chessassistant_get_comment() gives it;
 * converted with loss, a warning naming the file and where the comment is stored.
 */
static int32_t ca_properties(void *state, struct gamedb__props *out)
{
	struct ca *s = state;
	struct gamedb_chessassistant *ca = ca_handle(state);
	const int32_t rc = ca ? ca_comment(ca) : GAMEDB_FAILED;
	const char *c = rc != GAMEDB_FAILED ? (ca->comment.p ? ca->comment.p : "") : NULL;

	if (!c || gamedb__props_add(out, "comment", c, strlen(c)))
		return gamedb__error(s->r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
	if (rc == GAMEDB_WARN)
		return gamedb__error(s->r, GAMEDB_WARN, GAMEDB_E_ENCODING,
				     "%s: offset %u: the base's comment: text converted from %s with loss",
				     s->cdp->name, (unsigned)CA_CDP_HEAD, gamedb__ca_charset(s));
	return GAMEDB_OK;
}

static const char *const ca_extensions[] = { ".cdp", ".emb", ".d00", ".a02", ".d02", NULL };

static const struct gamedb__format_option ca_options[] = {
	{ "direction", "auto",
	  "which way the column part of a move code counts: right, left, or auto (by legality)" },
	{ "charset-detect", "yes", "choose CP1251 or CP1252 from the name tables (yes/no)" },
	{ NULL, NULL, NULL }
};

const struct gamedb__format gamedb__format_chessassistant = {
	.abi = GAMEDB__FORMAT_ABI_1,
	.name = "chessassistant",
	.description = "Chess Assistant bases (Convekta, Chess Data Pro format 1.3)",
	.extensions = ca_extensions,
	.opens = 1,
	.options = ca_options,
	.caps = GAMEDB_CAP_VARIATIONS | GAMEDB_CAP_SEEK | GAMEDB_CAP_COUNT | GAMEDB_CAP_MULTIFILE,
	.default_charset = "CP1251",
	.default_fallback = NULL,
	.bid = ca_bid,
	.open = ca_open,
	.set_option = ca_set_option,
	.next_game = ca_next_game,
	.seek_game = ca_seek,
	.game_count = ca_count,
	.load_tags = ca_load_tags,
	.tag_surely_absent = ca_tag_surely_absent,
	.decode_moves = gamedb__ca_decode,
	.properties = ca_properties,
	.handle = ca_handle,
	.close = ca_close,
};
