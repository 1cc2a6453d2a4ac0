/*
 * libgamedb - building a position index (gamedb_index_writer_*): every position of every game's
 * main line, with the game that reaches it (once, where it first does, as the scan counts) and
 * the move played there, sorted by key; each game's result, Elos and year beside, so that a tree
 * opens no game. The layout is doc/index.md's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/game.h"
#include "core/reader.h"
#include "query/index.h"
#include "query/query.h"

/* One posting while building: the key, the game (global number) and the move. */
struct entry {
	uint64_t key;
	uint32_t game, move;
};

struct wbase {
	uint64_t first, n;
	size_t nfiles;
	struct gamedb__ixfile files[GAMEDB__IX_MAX_FILES];
	const struct gamedb_reader *r;
	int ended;
};

#define GAMEDB__SEEN 4096 /* a game's positions looked up in a table; past half of it, a look back */

struct gamedb_index_writer {
	uint32_t magic;
	struct wbase *bases;
	size_t nbases;
	uint64_t *games;            /* records, by global number */
	uint64_t ngames, capgames;
	struct entry *e;
	size_t ne, cape;
	size_t game_start;          /* the first entry of the game being added */
	/* the keys of the game being added (first arrivals only): open addressing, by stamp */
	uint64_t seen_key[GAMEDB__SEEN];
	uint32_t seen_stamp[GAMEDB__SEEN], stamp;
	size_t nseen;
	uint64_t z[16][64];         /* gamedb__query_ztable() */
	char (*moves)[GAMEDB__IX_MOVE];
	size_t nmoves, capmoves;
	uint32_t *mhash;            /* open addressing: move id + 1, 0 empty */
	size_t mhcap;
	struct wfail {
		uint64_t base, slot;
		uint32_t kind;     /* GAMEDB__IXF_* */
		char *msg;
	} *failed;
	size_t nfailed, capfailed;
	char errmsg[600];
};

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 64;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * size);
	if (!q)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

static uint64_t fnv(uint64_t h, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * UINT64_C(0x100000001b3);
	return h;
}

int gamedb__ix_stat(const char *path, struct gamedb__ixfile *out)
{
	struct stat st;
	FILE *f;
	uint8_t *buf;
	size_t n;
	uint64_t h = UINT64_C(0xcbf29ce484222325);

	if (stat(path, &st) != 0 || !(f = fopen(path, "rb")))
		return -1;
	buf = malloc(GAMEDB__IX_HASHED);
	if (!buf) {
		fclose(f);
		return -1;
	}
	out->size = (uint64_t)st.st_size;
	out->mtime = (int64_t)st.st_mtime;
	n = fread(buf, 1, GAMEDB__IX_HASHED, f);
	h = fnv(h, buf, n);
	if (out->size > 2 * GAMEDB__IX_HASHED) {
		/* the last 64 KiB too: where a base grows or is rewritten last */
		if (fseek(f, -(long)GAMEDB__IX_HASHED, SEEK_END) == 0) {
			n = fread(buf, 1, GAMEDB__IX_HASHED, f);
			h = fnv(h, buf, n);
		}
	}
	out->hash = h;
	free(buf);
	fclose(f);
	return 0;
}

int gamedb__ix_archive_path(const char *primary, char *buf, size_t cap)
{
	size_t n = strlen(primary);
	struct stat st;

	/* "dir/a.cbv:member.cbh": the longest prefix before a ':' that is a file */
	while (n > 0) {
		n--;
		if (primary[n] != ':' || n >= cap)
			continue;
		memcpy(buf, primary, n);
		buf[n] = 0;
		if (stat(buf, &st) == 0 && S_ISREG(st.st_mode))
			return 0;
	}
	return -1;
}

GAMEDB_EXPORT int32_t gamedb_index_writer_new(struct gamedb_index_writer **out)
{
	struct gamedb_index_writer *w;

	if (!out)
		return GAMEDB_FATAL;
	w = calloc(1, sizeof *w);
	*out = w;
	if (!w)
		return GAMEDB_FATAL;
	w->magic = GAMEDB__IXW_MAGIC;
	gamedb__query_ztable(w->z);
	return GAMEDB_OK;
}

static int writer_ok(const struct gamedb_index_writer *w)
{
	return w && w->magic == GAMEDB__IXW_MAGIC;
}

GAMEDB_EXPORT void gamedb_index_writer_free(struct gamedb_index_writer *w)
{
	size_t i, k;

	if (!writer_ok(w))
		return;
	for (i = 0; i < w->nbases; i++)
		for (k = 0; k < w->bases[i].nfiles; k++)
			free(w->bases[i].files[k].name);
	free(w->bases);
	free(w->games);
	free(w->e);
	free(w->moves);
	free(w->mhash);
	for (i = 0; i < w->nfailed; i++)
		free(w->failed[i].msg);
	free(w->failed);
	w->magic = 0;
	free(w);
}

GAMEDB_EXPORT const char *gamedb_index_writer_errmsg(const struct gamedb_index_writer *w)
{
	return writer_ok(w) ? w->errmsg : "not an index writer";
}

static int32_t nomem(struct gamedb_index_writer *w)
{
	snprintf(w->errmsg, sizeof w->errmsg, "out of memory");
	return GAMEDB_FATAL;
}

/* The files of the base r reads: names, sizes, times, hashes. */
static int base_files(struct gamedb_index_writer *w, struct wbase *b)
{
	const struct gamedb__src *src = &b->r->src;
	char path[GAMEDB__IX_MAX_NAME];
	size_t i;

	for (i = 0; i < src->nfiles && b->nfiles < GAMEDB__IX_MAX_FILES; i++) {
		struct gamedb__ixfile *f = &b->files[b->nfiles];
		if (src->files[i]->kind != GAMEDB__FILE_FD)
			continue;
		f->name = gamedb__strdup(src->files[i]->name);
		if (!f->name)
			return nomem(w);
		if (gamedb__ix_stat(f->name, f) != 0) {
			snprintf(w->errmsg, sizeof w->errmsg, "%s: cannot be read to record it", f->name);
			free(f->name);
			return GAMEDB_FAILED;
		}
		b->nfiles++;
	}
	if (b->nfiles == 0 && src->archive && src->primary &&
	    gamedb__ix_archive_path(src->primary, path, sizeof path) == 0) { /* unpacked from one file */
		struct gamedb__ixfile *f = &b->files[0];
		f->name = gamedb__strdup(path);
		if (!f->name)
			return nomem(w);
		if (gamedb__ix_stat(f->name, f) != 0) {
			free(f->name);
			f->name = NULL;
		} else {
			b->nfiles = 1;
		}
	}
	if (b->nfiles == 0) {
		snprintf(w->errmsg, sizeof w->errmsg, "%s: not a base on disk (an index is checked "
			 "against its files)", src->primary ? src->primary : "the base");
		return GAMEDB_FAILED;
	}
	return GAMEDB_OK;
}

GAMEDB_EXPORT int32_t gamedb_index_writer_end_base(struct gamedb_index_writer *w,
						   struct gamedb_reader *r)
{
	struct wbase *b;
	int32_t rc;

	if (!writer_ok(w) || !r)
		return GAMEDB_FATAL;
	if (w->nbases == 0 || w->bases[w->nbases - 1].r != r || w->bases[w->nbases - 1].ended) {
		/* a base without a game: still a base, checked like any other */
		struct wbase *nb = realloc(w->bases, (w->nbases + 1) * sizeof *nb);
		if (!nb)
			return nomem(w);
		w->bases = nb;
		memset(&nb[w->nbases], 0, sizeof *nb);
		nb[w->nbases].first = w->ngames;
		nb[w->nbases].r = r;
		w->nbases++;
	}
	b = &w->bases[w->nbases - 1];
	rc = base_files(w, b);
	b->ended = 1;
	b->r = NULL;
	return rc;
}

/* The base r's games go to: the last one, or a new one. */
static struct wbase *base_for(struct gamedb_index_writer *w, const struct gamedb_reader *r)
{
	struct wbase *nb;

	if (w->nbases && w->bases[w->nbases - 1].r == r && !w->bases[w->nbases - 1].ended)
		return &w->bases[w->nbases - 1];
	nb = realloc(w->bases, (w->nbases + 1) * sizeof *nb);
	if (!nb)
		return NULL;
	w->bases = nb;
	memset(&nb[w->nbases], 0, sizeof *nb);
	nb[w->nbases].first = w->ngames;
	nb[w->nbases].r = r;
	return &w->bases[w->nbases++];
}

/* The record of game idx of base b (added, zero, when new): NULL when out of memory. */
static uint64_t *record(struct gamedb_index_writer *w, struct wbase *b, uint64_t idx)
{
	uint64_t g = b->first + idx;

	if (idx >= UINT32_MAX || g >= UINT32_MAX)
		return NULL;
	if (g >= w->ngames) {
		size_t cap = (size_t)w->capgames;
		if (grow((void **)&w->games, &cap, (size_t)g + 1, sizeof *w->games) != 0)
			return NULL;
		w->capgames = cap;
		memset(w->games + w->ngames, 0, (size_t)(g + 1 - w->ngames) * sizeof *w->games);
		w->ngames = g + 1;
		b->n = idx + 1;
	}
	return &w->games[g];
}

/* A move's place in the dictionary's table: its UCI and the start of its SAN, mixed. */
static size_t move_hash(const char m[GAMEDB__IX_MOVE])
{
	uint64_t a, b, c;

	memcpy(&a, m, 8);
	memcpy(&b, m + 8, 8);
	memcpy(&c, m + 16, 8);
	a = a * UINT64_C(0x9E3779B97F4A7C15) ^ b * UINT64_C(0xC2B2AE3D27D4EB4F) ^ c;
	return (size_t)(a ^ a >> 31);
}

/* The dictionary number of a move (uci, san), added when new; UINT32_MAX when out of memory. */
static uint32_t move_id(struct gamedb_index_writer *w, const char *uci, const char *san)
{
	char m[GAMEDB__IX_MOVE];
	size_t i, mask;

	memset(m, 0, sizeof m);
	for (i = 0; i < 7 && uci[i]; i++)
		m[i] = uci[i];
	for (i = 0; i < 23 && san[i]; i++)
		m[8 + i] = san[i];
	if (2 * (w->nmoves + 1) > w->mhcap) {
		size_t cap = w->mhcap ? 2 * w->mhcap : 1024;
		uint32_t *h = calloc(cap, sizeof *h);
		if (!h)
			return UINT32_MAX;
		for (i = 0; i < w->nmoves; i++) {
			size_t k = move_hash(w->moves[i]) & (cap - 1);
			while (h[k])
				k = (k + 1) & (cap - 1);
			h[k] = (uint32_t)i + 1;
		}
		free(w->mhash);
		w->mhash = h;
		w->mhcap = cap;
	}
	mask = w->mhcap - 1;
	i = move_hash(m) & mask;
	for (; w->mhash[i]; i = (i + 1) & mask)
		if (memcmp(w->moves[w->mhash[i] - 1], m, sizeof m) == 0)
			return w->mhash[i] - 1;
	if (w->nmoves >= UINT32_MAX - 2 ||
	    grow((void **)&w->moves, &w->capmoves, w->nmoves + 1, sizeof *w->moves) != 0)
		return UINT32_MAX;
	memcpy(w->moves[w->nmoves], m, sizeof m);
	w->mhash[i] = (uint32_t)w->nmoves + 1;
	return (uint32_t)w->nmoves++;
}

/* Records a failure of base b at game slot (its message copied); 0, or -1 out of memory. */
static int add_failure(struct gamedb_index_writer *w, struct wbase *b, uint64_t slot, uint32_t kind,
		       const char *msg)
{
	struct wfail *f;
	size_t len = strlen(msg);

	if (grow((void **)&w->failed, &w->capfailed, w->nfailed + 1, sizeof *w->failed) != 0)
		return -1;
	f = &w->failed[w->nfailed];
	f->base = (uint64_t)(b - w->bases);
	f->slot = slot;
	f->kind = kind;
	if (len > GAMEDB__IX_MAX_MSG)
		len = GAMEDB__IX_MAX_MSG;
	f->msg = malloc(len + 1);
	if (!f->msg)
		return -1;
	memcpy(f->msg, msg, len);
	f->msg[len] = 0;
	w->nfailed++;
	return 0;
}

struct walk {
	struct gamedb_index_writer *w;
	uint32_t game;
};

/* 1 if the game being added has reached key before; else records it. */
static int seen_before(struct gamedb_index_writer *w, uint64_t key)
{
	size_t i, mask = GAMEDB__SEEN - 1;

	if (w->nseen >= GAMEDB__SEEN / 2) { /* a very long game: look back over its entries */
		for (i = w->game_start; i < w->ne; i++)
			if (w->e[i].key == key)
				return 1;
		return 0;
	}
	for (i = (size_t)(key ^ key >> 29) & mask; w->seen_stamp[i] == w->stamp; i = (i + 1) & mask)
		if (w->seen_key[i] == key)
			return 1;
	w->seen_stamp[i] = w->stamp;
	w->seen_key[i] = key;
	w->nseen++;
	return 0;
}

static int walk_one(void *ud, uint64_t key, const struct gamedb__hit *hit)
{
	struct walk *k = ud;
	struct gamedb_index_writer *w = k->w;
	uint32_t mv = 0;

	/* once per game, where it first arrives */
	if (seen_before(w, key))
		return 0;
	if (hit->has_move) {
		mv = move_id(w, hit->uci, hit->san);
		if (mv == UINT32_MAX)
			return -1;
		mv++;
	}
	if (grow((void **)&w->e, &w->cape, w->ne + 1, sizeof *w->e) != 0)
		return -1;
	w->e[w->ne].key = key;
	w->e[w->ne].game = k->game;
	w->e[w->ne].move = mv;
	w->ne++;
	return 0;
}

GAMEDB_EXPORT int32_t gamedb_index_writer_add_game(struct gamedb_index_writer *w,
						   struct gamedb_reader *r, struct gamedb_game *g)
{
	struct gamedb__gamestat st;
	struct wbase *b;
	struct walk k;
	uint64_t *rec, v;
	int32_t rc;

	if (!writer_ok(w) || !r || (g && g->reader != r))
		return GAMEDB_FATAL;
	b = base_for(w, r);
	if (b && !g) /* the game the reader could not read: its message, where it stood */
		return add_failure(w, b, b->n, GAMEDB__IXF_UNREAD, gamedb_reader_errmsg(r)) == 0
			       ? GAMEDB_OK : nomem(w);
	if (!b || !(rec = record(w, b, g->index))) {
		snprintf(w->errmsg, sizeof w->errmsg, b ? "more than 4,294,967,294 games" : "out of memory");
		return GAMEDB_FATAL;
	}
	k.w = w;
	k.game = (uint32_t)(b->first + g->index);
	w->game_start = w->ne;
	w->nseen = 0;
	if (++w->stamp == 0) { /* the stamps wrapped: start the table afresh */
		memset(w->seen_stamp, 0, sizeof w->seen_stamp);
		w->stamp = 1;
	}
	gamedb__gamestat(g, &st);
	v = GAMEDB__G_PRESENT | (uint64_t)(st.result & 3);
	if (g->deleted)
		v |= GAMEDB__G_DELETED;
	if (g->variant == GAMEDB_VARIANT_XIANGQI)
		v |= GAMEDB__G_XIANGQI;
	v |= (uint64_t)((unsigned)st.white_elo & 0x1FFFFu) << 6;
	v |= (uint64_t)((unsigned)st.black_elo & 0x1FFFFu) << 23;
	v |= (uint64_t)((unsigned)st.year & 0x3FFFu) << 40;
	rc = gamedb__query_walk(g, walk_one, &k, (const uint64_t(*)[64])w->z, w->errmsg,
				sizeof w->errmsg);
	if (rc == GAMEDB_FATAL)
		return nomem(w);
	if (rc == GAMEDB_FAILED) {
		w->ne = w->game_start; /* a failed game has no position: as the scan leaves it out */
		v |= GAMEDB__G_FAILED;
		if (add_failure(w, b, g->index, GAMEDB__IXF_DECODE, w->errmsg) != 0)
			return nomem(w);
	}
	*rec = v;
	return rc;
}

/* Entries by key, then by game (the order of the postings, written as gaps). */
static int by_key(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->game < y->game ? -1 : x->game > y->game;
}

/*
 * The entries by key, and by game within a key. Added in game order (the usual case: a base
 * read from its first game on), a stable sort by key is enough: four passes of a radix sort
 * on 16 bits. Games may come in any order (gamedb_index_writer_add_game() allows it: a
 * reader seeked back): then the entries are sorted by key and game. 0, or -1 out of memory.
 */
static int sort_entries(struct gamedb_index_writer *w)
{
	struct entry *tmp, *from = w->e, *to;
	size_t *count, i, pass;

	if (w->ne < 2)
		return 0;
	for (i = 1; i < w->ne && w->e[i].game >= w->e[i - 1].game; i++)
		;
	if (i < w->ne) {
		qsort(w->e, w->ne, sizeof *w->e, by_key);
		return 0;
	}
	tmp = malloc(w->ne * sizeof *tmp);
	count = malloc(65536 * sizeof *count);
	if (!tmp || !count) {
		free(tmp);
		free(count);
		return -1;
	}
	to = tmp;
	for (pass = 0; pass < 4; pass++) {
		const int shift = 16 * (int)pass;
		size_t sum = 0;
		memset(count, 0, 65536 * sizeof *count);
		for (i = 0; i < w->ne; i++)
			count[(from[i].key >> shift) & 0xFFFF]++;
		for (i = 0; i < 65536; i++) {
			size_t c = count[i];
			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < w->ne; i++)
			to[count[(from[i].key >> shift) & 0xFFFF]++] = from[i];
		to = from;
		from = from == w->e ? tmp : w->e;
	}
	/* four passes: the sorted entries are back in w->e */
	free(tmp);
	free(count);
	return 0;
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static size_t varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

/* Writes n bytes through fn; 0, or -1 with the message set. */
static int emit(struct gamedb_index_writer *w, gamedb_write_fn fn, void *ud, const void *p, size_t n)
{
	if (n && fn(ud, p, n) != GAMEDB_OK) {
		snprintf(w->errmsg, sizeof w->errmsg, "the index could not be written");
		return -1;
	}
	return 0;
}

/* n numbers, little-endian, through a small buffer. */
static int emit64s(struct gamedb_index_writer *w, gamedb_write_fn fn, void *ud, const uint64_t *v,
		   size_t n)
{
	uint8_t buf[4096];
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		put64(buf + k, v[i]);
		k += 8;
		if (k == sizeof buf) {
			if (emit(w, fn, ud, buf, k) != 0)
				return -1;
			k = 0;
		}
	}
	return emit(w, fn, ud, buf, k);
}

GAMEDB_EXPORT int32_t gamedb_index_writer_write(struct gamedb_index_writer *w, gamedb_write_fn fn,
						void *user_data)
{
	uint8_t head[GAMEDB__IX_HEAD + GAMEDB__IX_TABLE], *post = NULL, *bases = NULL, *fails = NULL;
	uint64_t *keys = NULL, *offs = NULL, *fence = NULL, size[IXS_COUNT], off;
	size_t nkeys = 0, npost = 0, nbb = 0, nfb = 0, nfence, i, j, k;
	int32_t rc = GAMEDB_FATAL;

	if (!writer_ok(w) || !fn)
		return GAMEDB_FATAL;
	for (i = 0; i < w->nbases; i++)
		if (!w->bases[i].ended) {
			snprintf(w->errmsg, sizeof w->errmsg, "gamedb_index_writer_write: a base was not "
				 "ended (gamedb_index_writer_end_base())");
			return GAMEDB_FATAL;
		}
	if (sort_entries(w) != 0)
		return nomem(w);
	for (i = 0; i < w->ne; i++)
		nkeys += i == 0 || w->e[i].key != w->e[i - 1].key;
	nfence = (nkeys + GAMEDB__IX_FENCE - 1) / GAMEDB__IX_FENCE;
	keys = malloc((nkeys + 1) * sizeof *keys);
	offs = malloc((nkeys + 1) * sizeof *offs);
	fence = malloc((nfence + 1) * sizeof *fence);
	post = malloc(w->ne * 10 + 1);
	for (i = 0, k = 0; i < w->nbases; i++) {
		k += 24;
		for (j = 0; j < w->bases[i].nfiles; j++)
			k += 28 + strlen(w->bases[i].files[j].name);
	}
	bases = malloc(k + 1);
	for (i = 0, nfb = 0; i < w->nfailed; i++)
		nfb += 24 + strlen(w->failed[i].msg);
	fails = malloc(nfb + 1);
	if (!keys || !offs || !fence || !post || !bases || !fails) {
		nomem(w);
		goto out;
	}
	/* the postings: per key, its games in order, each as the gap from the one before and the move */
	for (i = 0, k = 0; i < w->ne; i++) {
		uint64_t prev = 0;
		if (i == 0 || w->e[i].key != w->e[i - 1].key) {
			keys[k] = w->e[i].key;
			offs[k++] = npost;
		} else {
			prev = w->e[i - 1].game;
		}
		npost += varint(post + npost, w->e[i].game - prev);
		npost += varint(post + npost, w->e[i].move);
	}
	offs[nkeys] = npost;
	for (i = 0; i < nfence; i++)
		fence[i] = keys[i * GAMEDB__IX_FENCE];
	for (i = 0; i < w->nbases; i++) {
		const struct wbase *b = &w->bases[i];
		put64(bases + nbb, b->first);
		put64(bases + nbb + 8, b->n);
		put64(bases + nbb + 16, b->nfiles);
		nbb += 24;
		for (j = 0; j < b->nfiles; j++) {
			size_t len = strlen(b->files[j].name);
			put64(bases + nbb, b->files[j].size);
			put64(bases + nbb + 8, (uint64_t)b->files[j].mtime);
			put64(bases + nbb + 16, b->files[j].hash);
			bases[nbb + 24] = (uint8_t)len;
			bases[nbb + 25] = (uint8_t)(len >> 8);
			bases[nbb + 26] = (uint8_t)(len >> 16);
			bases[nbb + 27] = (uint8_t)(len >> 24);
			memcpy(bases + nbb + 28, b->files[j].name, len);
			nbb += 28 + len;
		}
	}
	size[IXS_BASES] = nbb;
	size[IXS_GAMES] = w->ngames * 8;
	size[IXS_KEYS] = (uint64_t)nkeys * 8;
	size[IXS_FENCE] = (uint64_t)nfence * 8;
	size[IXS_OFFS] = ((uint64_t)nkeys + 1) * 8;
	size[IXS_POST] = npost;
	size[IXS_MOVES] = (uint64_t)w->nmoves * GAMEDB__IX_MOVE;
	/* failures in base and game order (qsort is not stable: by slot, then as recorded) */
	for (i = 0, k = 0; i < w->nfailed; i++) {
		const struct wfail *f = &w->failed[i];
		size_t len = strlen(f->msg);
		put64(fails + k, f->base);
		put64(fails + k + 8, f->slot);
		fails[k + 16] = (uint8_t)f->kind;
		fails[k + 17] = fails[k + 18] = fails[k + 19] = 0;
		fails[k + 20] = (uint8_t)len;
		fails[k + 21] = (uint8_t)(len >> 8);
		fails[k + 22] = fails[k + 23] = 0;
		memcpy(fails + k + 24, f->msg, len);
		k += 24 + len;
	}
	size[IXS_FAILED] = nfb;
	memset(head, 0, sizeof head);
	memcpy(head, GAMEDB__IX_SIG, 8);
	put64(head + 8, GAMEDB__IX_VERSION | ((uint64_t)sizeof head << 32));
	put64(head + 16, w->nbases);
	put64(head + 24, w->ngames);
	put64(head + 32, nkeys);
	put64(head + 40, w->nmoves);
	put64(head + 48, w->nfailed);
	off = sizeof head;
	for (i = 0; i < IXS_COUNT; i++) {
		put64(head + GAMEDB__IX_HEAD + 16 * i, off);
		put64(head + GAMEDB__IX_HEAD + 16 * i + 8, size[i]);
		off += size[i];
	}
	if (emit(w, fn, user_data, head, sizeof head) != 0 || emit(w, fn, user_data, bases, nbb) != 0 ||
	    emit64s(w, fn, user_data, w->games, (size_t)w->ngames) != 0 ||
	    emit64s(w, fn, user_data, keys, nkeys) != 0 || emit64s(w, fn, user_data, fence, nfence) != 0 ||
	    emit64s(w, fn, user_data, offs, nkeys + 1) != 0 || emit(w, fn, user_data, post, npost) != 0 ||
	    emit(w, fn, user_data, w->moves, w->nmoves * GAMEDB__IX_MOVE) != 0 ||
	    emit(w, fn, user_data, fails, nfb) != 0)
		goto out;
	rc = GAMEDB_OK;
out:
	free(keys);
	free(offs);
	free(fence);
	free(post);
	free(bases);
	free(fails);
	return rc;
}
