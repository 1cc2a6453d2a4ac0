/*
 * libgamedb - reading a position index (gamedb_index_*): the header, the section table, the
 * bases, the fence and the move dictionary at open (each checked against the file's size);
 * then, per query, one binary search in the fence, one read of 128 keys, one of the postings
 * and one of the games' records. Every number read from the file is checked before it is used:
 * a damaged or hostile index is refused with a message, never read past its end, and nothing
 * is allocated beyond what the file itself holds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/reader.h"
#include "query/index.h"

static uint64_t get64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static int ix_ok(const struct gamedb_index *ix)
{
	return ix && ix->magic == GAMEDB__INDEX_MAGIC;
}

static int bad(struct gamedb_index *ix, const char *what)
{
	const char *name = ix->f ? ix->f->name : "index";

	snprintf(ix->errmsg, sizeof ix->errmsg, "%s: not a gamedb index, or a damaged one: %s", name,
		 what);
	return -1;
}

/* n bytes at off of the index into *out (valid until the next view); 0, or -1 with a message. */
static int view(struct gamedb_index *ix, uint64_t off, uint64_t n, const uint8_t **out)
{
	if (off > ix->fsize || n > ix->fsize - off || n > SIZE_MAX)
		return bad(ix, "a section runs past the end of the file");
	if (n == 0) {
		*out = (const uint8_t *)"";
		return 0;
	}
	if (gamedb__file_view(ix->f, off, (size_t)n, out) != (int64_t)n) {
		snprintf(ix->errmsg, sizeof ix->errmsg, "%s", ix->src.err.message);
		return -1;
	}
	return 0;
}

/* The bases section: each base's games and files. */
static int read_bases(struct gamedb_index *ix)
{
	const uint8_t *p;
	uint64_t at = 0, size = ix->size[IXS_BASES], next = 0;
	size_t i, k;

	/* each base takes at least 24 bytes: no more bases than that allows */
	if (ix->nbases > size / 24)
		return bad(ix, "more bases than the bases section holds");
	ix->bases = calloc(ix->nbases ? (size_t)ix->nbases : 1, sizeof *ix->bases);
	if (!ix->bases)
		return bad(ix, "out of memory");
	if (view(ix, ix->off[IXS_BASES], size, &p) != 0)
		return -1;
	for (i = 0; i < ix->nbases; i++) {
		struct gamedb__ixbase *b = &ix->bases[i];
		uint64_t nf;
		if (size - at < 24)
			return bad(ix, "a base runs past its section");
		b->first = get64(p + at);
		b->n = get64(p + at + 8);
		nf = get64(p + at + 16);
		at += 24;
		if (b->first != next || b->n > ix->ngames - b->first)
			return bad(ix, "a base's games are not where the bases before it end");
		next = b->first + b->n;
		if (nf == 0 || nf > GAMEDB__IX_MAX_FILES)
			return bad(ix, "a base has no files, or too many");
		for (k = 0; k < nf; k++) {
			struct gamedb__ixfile *f = &b->files[k];
			uint64_t len;
			if (size - at < 28)
				return bad(ix, "a base file runs past its section");
			f->size = get64(p + at);
			f->mtime = (int64_t)get64(p + at + 8);
			f->hash = get64(p + at + 16);
			len = (uint64_t)p[at + 24] | (uint64_t)p[at + 25] << 8 |
			      (uint64_t)p[at + 26] << 16 | (uint64_t)p[at + 27] << 24;
			at += 28;
			if (len == 0 || len > GAMEDB__IX_MAX_NAME || len > size - at)
				return bad(ix, "a base file's name runs past its section");
			f->name = malloc((size_t)len + 1);
			if (!f->name)
				return bad(ix, "out of memory");
			b->nfiles = k + 1; /* freed with the index from here on, whatever follows */
			memcpy(f->name, p + at, (size_t)len);
			f->name[len] = 0;
			if (strlen(f->name) != len)
				return bad(ix, "a base file's name holds a NUL");
			at += len;
		}
	}
	if (next != ix->ngames || at != size)
		return bad(ix, "the bases do not hold the games of the index");
	return 0;
}

/* The failures section: each failure's base, place, kind and message. */
static int read_failures(struct gamedb_index *ix)
{
	const uint8_t *p;
	uint64_t at = 0, size = ix->size[IXS_FAILED];
	size_t i;

	ix->fails = calloc(ix->nfailed ? (size_t)ix->nfailed : 1, sizeof *ix->fails);
	if (!ix->fails)
		return bad(ix, "out of memory");
	if (view(ix, ix->off[IXS_FAILED], size, &p) != 0)
		return -1;
	for (i = 0; i < ix->nfailed; i++) {
		struct gamedb__ixfail *f = &ix->fails[i];
		uint64_t len;
		if (size - at < 24)
			return bad(ix, "a failure runs past its section");
		f->base = get64(p + at);
		f->slot = get64(p + at + 8);
		f->kind = (uint32_t)(get64(p + at + 16) & 0xFFFFFFFFu);
		len = get64(p + at + 16) >> 32;
		at += 24;
		if (f->base >= ix->nbases || f->slot > ix->bases[f->base].n ||
		    (f->kind != GAMEDB__IXF_DECODE && f->kind != GAMEDB__IXF_UNREAD) ||
		    (i && (f->base < f[-1].base || (f->base == f[-1].base && f->slot < f[-1].slot))) ||
		    len > GAMEDB__IX_MAX_MSG || len > size - at)
			return bad(ix, "a failure names no game of the index, or is out of order");
		f->msg = malloc((size_t)len + 1);
		if (!f->msg)
			return bad(ix, "out of memory");
		memcpy(f->msg, p + at, (size_t)len);
		f->msg[len] = 0;
		at += len;
	}
	if (at != size)
		return bad(ix, "the failures do not fill their section");
	return 0;
}

static int open_index(struct gamedb_index *ix)
{
	const uint8_t *p;
	uint64_t end;
	size_t i;

	if (gamedb__src_open(&ix->src, NULL, 0, &ix->f) != 0) {
		snprintf(ix->errmsg, sizeof ix->errmsg, "%s", ix->src.err.message);
		return -1;
	}
	ix->fsize = ix->f->size;
	if (ix->fsize < GAMEDB__IX_HEAD + GAMEDB__IX_TABLE)
		return bad(ix, "shorter than its header");
	if (view(ix, 0, GAMEDB__IX_HEAD + GAMEDB__IX_TABLE, &p) != 0)
		return -1;
	if (memcmp(p, GAMEDB__IX_SIG, 8) != 0)
		return bad(ix, "no GDBINDX1 signature");
	if (get64(p + 8) != (GAMEDB__IX_VERSION | (uint64_t)(GAMEDB__IX_HEAD + GAMEDB__IX_TABLE) << 32)) {
		snprintf(ix->errmsg, sizeof ix->errmsg, "%s: an index of another version (this library "
			 "reads version %u): build it again with gamedb index", ix->f->name,
			 GAMEDB__IX_VERSION);
		return -1;
	}
	ix->nbases = get64(p + 16);
	ix->ngames = get64(p + 24);
	ix->nkeys = get64(p + 32);
	ix->nmoves = get64(p + 40);
	ix->nfailed = get64(p + 48);
	end = GAMEDB__IX_HEAD + GAMEDB__IX_TABLE;
	for (i = 0; i < IXS_COUNT; i++) {
		ix->off[i] = get64(p + GAMEDB__IX_HEAD + 16 * i);
		ix->size[i] = get64(p + GAMEDB__IX_HEAD + 16 * i + 8);
		/* the sections follow one another, in order, to the end of the file */
		if (ix->off[i] != end || ix->size[i] > ix->fsize - end)
			return bad(ix, "the section table does not fit the file");
		end += ix->size[i];
	}
	if (end != ix->fsize)
		return bad(ix, "the file is longer than its sections");
	ix->nfence = (ix->nkeys + GAMEDB__IX_FENCE - 1) / GAMEDB__IX_FENCE;
	if (ix->ngames > UINT32_MAX || ix->size[IXS_GAMES] / 8 != ix->ngames ||
	    ix->size[IXS_GAMES] % 8 || ix->size[IXS_KEYS] / 8 != ix->nkeys || ix->size[IXS_KEYS] % 8 ||
	    ix->size[IXS_FENCE] != ix->nfence * 8 || ix->size[IXS_OFFS] != (ix->nkeys + 1) * 8 ||
	    ix->size[IXS_MOVES] / GAMEDB__IX_MOVE != ix->nmoves ||
	    ix->size[IXS_MOVES] % GAMEDB__IX_MOVE || ix->nfailed > ix->size[IXS_FAILED] / 24)
		return bad(ix, "a section's size does not match its count");
	if (read_bases(ix) != 0 || read_failures(ix) != 0)
		return -1;
	/* the fence and the dictionary are small (1/128 of the keys, the moves played): read whole */
	ix->fence = malloc((size_t)ix->size[IXS_FENCE] + 8);
	ix->moves = malloc((size_t)ix->size[IXS_MOVES] + GAMEDB__IX_MOVE);
	if (!ix->fence || !ix->moves)
		return bad(ix, "out of memory");
	if (view(ix, ix->off[IXS_FENCE], ix->size[IXS_FENCE], &p) != 0)
		return -1;
	for (i = 0; i < ix->nfence; i++) {
		ix->fence[i] = get64(p + 8 * i);
		if (i && ix->fence[i] <= ix->fence[i - 1])
			return bad(ix, "the fence keys are not in order");
	}
	if (view(ix, ix->off[IXS_MOVES], ix->size[IXS_MOVES], &p) != 0)
		return -1;
	memcpy(ix->moves, p, (size_t)ix->size[IXS_MOVES]);
	for (i = 0; i < ix->nmoves; i++) {
		/* each text NUL-terminated within its field: the move is handed out as a string */
		ix->moves[i][7] = 0;
		ix->moves[i][GAMEDB__IX_MOVE - 1] = 0;
	}
	return 0;
}

static int32_t index_new(struct gamedb_index **out, struct gamedb_index **ix)
{
	if (!out)
		return GAMEDB_FATAL;
	*ix = *out = calloc(1, sizeof **ix);
	if (!*ix)
		return GAMEDB_FATAL;
	(*ix)->magic = GAMEDB__INDEX_MAGIC;
	return GAMEDB_OK;
}

GAMEDB_EXPORT int32_t gamedb_index_open(struct gamedb_index **out, const char *path)
{
	struct gamedb_index *ix;

	if (index_new(out, &ix) != GAMEDB_OK)
		return GAMEDB_FATAL;
	if (!path) {
		snprintf(ix->errmsg, sizeof ix->errmsg, "gamedb_index_open: no path (NULL)");
		return GAMEDB_FAILED;
	}
	ix->src.kind = GAMEDB__SRC_PATH;
	ix->src.primary = gamedb__strdup(path);
	if (!ix->src.primary) {
		snprintf(ix->errmsg, sizeof ix->errmsg, "out of memory");
		return GAMEDB_FATAL;
	}
	return open_index(ix) == 0 ? GAMEDB_OK : GAMEDB_FAILED;
}

GAMEDB_EXPORT int32_t gamedb_index_open_memory(struct gamedb_index **out, const void *data,
					       size_t size)
{
	struct gamedb_index *ix;
	static char name[] = "index";
	static char *names[1] = { name };

	if (index_new(out, &ix) != GAMEDB_OK)
		return GAMEDB_FATAL;
	ix->src.kind = GAMEDB__SRC_MEMSET;
	ix->src.primary = gamedb__strdup(name);
	ix->src.nmem = 1;
	ix->src.mem_names = malloc(sizeof *ix->src.mem_names);
	ix->src.mem_data = malloc(sizeof *ix->src.mem_data);
	ix->src.mem_sizes = malloc(sizeof *ix->src.mem_sizes);
	if (!ix->src.primary || !ix->src.mem_names || !ix->src.mem_data || !ix->src.mem_sizes ||
	    !(ix->src.mem_names[0] = gamedb__strdup(names[0]))) {
		ix->src.nmem = ix->src.mem_names ? 0 : ix->src.nmem;
		snprintf(ix->errmsg, sizeof ix->errmsg, "out of memory");
		return GAMEDB_FATAL;
	}
	ix->src.mem_data[0] = data;
	ix->src.mem_sizes[0] = data ? size : 0;
	return open_index(ix) == 0 ? GAMEDB_OK : GAMEDB_FAILED;
}

GAMEDB_EXPORT const char *gamedb_index_errmsg(const struct gamedb_index *ix)
{
	return ix_ok(ix) ? ix->errmsg : "not an index";
}

GAMEDB_EXPORT uint64_t gamedb_index_get_count(const struct gamedb_index *ix, int32_t what)
{
	if (!ix_ok(ix))
		return 0;
	switch (what) {
	case GAMEDB_INDEX_BASES: return ix->nbases;
	case GAMEDB_INDEX_GAMES: return ix->ngames;
	case GAMEDB_INDEX_POSITIONS: return ix->nkeys;
	case GAMEDB_INDEX_FAILED: return ix->nfailed;
	case GAMEDB_INDEX_BYTES: return ix->fsize;
	default: return 0;
	}
}

GAMEDB_EXPORT void gamedb_index_free(struct gamedb_index *ix)
{
	size_t i, k;

	if (!ix_ok(ix))
		return;
	for (i = 0; ix->bases && i < ix->nbases; i++)
		for (k = 0; k < ix->bases[i].nfiles; k++)
			free(ix->bases[i].files[k].name);
	free(ix->bases);
	for (i = 0; ix->fails && i < ix->nfailed; i++)
		free(ix->fails[i].msg);
	free(ix->fails);
	free(ix->fence);
	free(ix->moves);
	gamedb__src_close(&ix->src);
	ix->magic = 0;
	free(ix);
}

/* The file name without its folders. */
static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
#ifdef _WIN32
	const char *b = strrchr(p, '\\');
	if (b && (!s || b > s))
		s = b;
#endif
	return s ? s + 1 : p;
}

long gamedb__ix_base_of(struct gamedb_index *ix, struct gamedb_reader *r)
{
	const struct gamedb__src *src = &r->src;
	const char *first = NULL, *why = NULL;
	char path[GAMEDB__IX_MAX_NAME + 512], stale[800] = "", archive[GAMEDB__IX_MAX_NAME];
	size_t i, k, dirlen;

	for (i = 0; i < src->nfiles && !first; i++)
		if (src->files[i]->kind == GAMEDB__FILE_FD)
			first = src->files[i]->name;
	if (!first && src->archive && src->primary &&
	    gamedb__ix_archive_path(src->primary, archive, sizeof archive) == 0)
		first = archive;
	if (!first) {
		snprintf(ix->errmsg, sizeof ix->errmsg, "%s: not a base on disk: an index cannot be "
			 "checked against it", src->primary ? src->primary : "the base");
		return -1;
	}
	dirlen = (size_t)(base_name(first) - first);
	/* the base whose first file has the name of the reader's, its files as they were */
	for (i = 0; i < ix->nbases; i++) {
		const struct gamedb__ixbase *b = &ix->bases[i];
		if (strcmp(base_name(b->files[0].name), base_name(first)) != 0)
			continue;
		why = NULL;
		for (k = 0; k < b->nfiles && !why; k++) {
			struct gamedb__ixfile now;
			const struct gamedb__ixfile *then = &b->files[k];
			snprintf(path, sizeof path, "%.*s%s", (int)dirlen, first, base_name(then->name));
			if (gamedb__ix_stat(path, &now) != 0)
				why = "cannot be read";
			else if (now.size != then->size)
				why = "has another size";
			else if (now.mtime != then->mtime)
				why = "was modified";
			else if (now.hash != then->hash)
				why = "holds other bytes";
			if (why)
				snprintf(stale, sizeof stale, "%.200s: the index is stale: %.400s %s since the index was "
					 "built; build it again (gamedb index)", ix->f->name, path, why);
		}
		if (!why)
			return (long)i;
	}
	if (stale[0])
		snprintf(ix->errmsg, sizeof ix->errmsg, "%s", stale);
	else
		snprintf(ix->errmsg, sizeof ix->errmsg, "%.200s: the index was not built from %.300s", ix->f->name,
			 first);
	return -1;
}

static int read_varint(const uint8_t *p, uint64_t n, uint64_t *at, uint64_t *out)
{
	uint64_t v = 0;
	int shift = 0;

	while (*at < n && shift < 64) {
		uint8_t c = p[(*at)++];
		v |= (uint64_t)(c & 0x7F) << shift;
		if (!(c & 0x80)) {
			*out = v;
			return 0;
		}
		shift += 7;
	}
	return -1;
}

/* The key's postings: [*from, *to) of the postings section; 1 found, 0 not, -1 damaged. */
static int find_key(struct gamedb_index *ix, uint64_t key, uint64_t *from, uint64_t *to)
{
	const uint8_t *p;
	uint64_t lo = 0, hi = ix->nfence, block, n, i;

	if (ix->nkeys == 0)
		return 0;
	while (lo < hi) { /* the last fence key <= key */
		uint64_t mid = lo + (hi - lo) / 2;
		if (ix->fence[mid] <= key)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return 0;
	block = lo - 1;
	n = ix->nkeys - block * GAMEDB__IX_FENCE;
	if (n > GAMEDB__IX_FENCE)
		n = GAMEDB__IX_FENCE;
	if (view(ix, ix->off[IXS_KEYS] + block * GAMEDB__IX_FENCE * 8, n * 8, &p) != 0)
		return -1;
	if (get64(p) != ix->fence[block])
		return bad(ix, "a key block does not start with its fence key");
	for (i = 0; i < n; i++) {
		uint64_t k = get64(p + 8 * i);
		if (i && k <= get64(p + 8 * (i - 1)))
			return bad(ix, "the keys are not in order");
		if (k == key)
			break;
		if (k > key)
			return 0;
	}
	if (i == n)
		return 0;
	i += block * GAMEDB__IX_FENCE;
	if (view(ix, ix->off[IXS_OFFS] + i * 8, 16, &p) != 0)
		return -1;
	*from = get64(p);
	*to = get64(p + 8);
	if (*from > *to || *to > ix->size[IXS_POST])
		return bad(ix, "a key's postings lie outside their section");
	return 1;
}

int gamedb__ix_hits(struct gamedb_index *ix, size_t bi, uint64_t key, int xq, int failures,
		    struct gamedb__ixhit **out, size_t *nout)
{
	const struct gamedb__ixbase *b = &ix->bases[bi];
	const uint8_t *p;
	struct gamedb__ixhit *h = NULL;
	uint64_t from = 0, to = 0, at = 0, game = 0, lo = UINT64_MAX, hi = 0, fi;
	size_t n = 0, cap, i;
	int rc;

	*out = NULL;
	*nout = 0;
	rc = key ? find_key(ix, key, &from, &to) : 0;
	if (rc < 0)
		return -1;
	/* each posting takes two bytes at least; the failed games of the base add theirs */
	cap = (size_t)((to - from) / 2) + (size_t)ix->nfailed + 1;
	h = malloc(cap * sizeof *h);
	if (!h)
		return bad(ix, "out of memory");
	if (rc == 1) {
		if (view(ix, ix->off[IXS_POST] + from, to - from, &p) != 0)
			goto fail;
		for (i = 0; at < to - from; i++) {
			uint64_t gap, mv;
			if (read_varint(p, to - from, &at, &gap) != 0 ||
			    read_varint(p, to - from, &at, &mv) != 0) {
				bad(ix, "a posting runs past its key's postings");
				goto fail;
			}
			if ((i && gap == 0) || gap >= ix->ngames - game || mv > ix->nmoves) {
				bad(ix, "a posting names a game or a move the index does not have");
				goto fail;
			}
			game += gap;
			if (game < b->first || game - b->first >= b->n)
				continue;
			h[n].game = game - b->first;
			h[n].move = (uint32_t)mv;
			h[n].rec = 0;
			h[n].msg = NULL;
			h[n].kind = 0;
			if (h[n].game < lo)
				lo = h[n].game;
			hi = h[n].game;
			n++;
		}
	}
	/* the records of the games found, read in one piece */
	if (n) {
		if (view(ix, ix->off[IXS_GAMES] + (b->first + lo) * 8, (hi - lo + 1) * 8, &p) != 0)
			goto fail;
		for (i = 0, at = 0; i < n; i++) {
			uint64_t rec = get64(p + (h[i].game - lo) * 8);
			if (!(rec & GAMEDB__G_PRESENT) || (rec & GAMEDB__G_FAILED) ||
			    !(rec & GAMEDB__G_XIANGQI) != !xq)
				continue; /* a game of the other kind: not its position */
			h[at] = h[i];
			h[at++].rec = rec;
		}
		n = (size_t)at;
	}
	/* the failures of the base, merged in game order (a failure before a game of its place) */
	if (ix->nfailed && failures) {
		size_t m = n;
		for (fi = 0; fi < ix->nfailed; fi++) {
			const struct gamedb__ixfail *f = &ix->fails[fi];
			if (f->base != bi)
				continue;
			h[m].game = f->slot;
			h[m].move = 0;
			h[m].rec = GAMEDB__G_FAILED;
			h[m].kind = f->kind;
			h[m++].msg = f->msg;
		}
		if (m > n) {
			struct gamedb__ixhit *mg = malloc(m * sizeof *mg);
			size_t a = 0, c = n, k = 0;
			if (!mg) {
				bad(ix, "out of memory");
				goto fail;
			}
			while (a < n || c < m)
				mg[k++] = c >= m || (a < n && h[a].game < h[c].game) ? h[a++] : h[c++];
			free(h);
			h = mg;
		}
		n = m;
	}
	*out = h;
	*nout = n;
	return 0;
fail:
	free(h);
	return -1;
}
