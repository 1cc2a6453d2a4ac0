/*
 * --jobs: the games of one database converted by several threads in chunks, written out in
 * database order, so that the output and the messages are those of one job.
 */
#include "gamedb-tool.h"

#include <errno.h>
#include <pthread.h> /* MinGW: winpthreads, linked statically (see meson.build) */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifndef _WIN32
#include <sys/uio.h> /* writev() */
#endif
#ifdef _WIN32
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <io.h>
#include <windows.h>
#endif

struct membuf {
	char *p;
	size_t len, cap;
	int oom;
};

/* Appends n bytes; 0, or -1 (and oom set) when memory runs out. */
static int membuf_add(struct membuf *b, const char *s, size_t n)
{
	if (b->oom)
		return -1;
	if (b->cap - b->len < n) {
		size_t ncap = b->cap ? b->cap : 4096;
		char *np;
		while (ncap - b->len < n) {
			if (ncap > SIZE_MAX / 2) {
				b->oom = 1;
				return -1;
			}
			ncap *= 2;
		}
		np = realloc(b->p, ncap);
		if (!np) {
			b->oom = 1;
			return -1;
		}
		b->p = np;
		b->cap = ncap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	return 0;
}

/*
 * --jobs: a chunk's output is a list of blocks of one size (BLOCK_BYTES) from a store that the
 * workers share. A written chunk gives its blocks back to the store for the next chunks; they
 * are freed when the database is done. One buffer per chunk grown by realloc() kept the
 * largest output a slot ever held and left the heaps of the threads fragmented: the peak
 * memory of --jobs 2 grew with the base (6.6 MiB for a tenth of the real-game base, 8.8 MiB
 * for all of it). Nor is a block freed when more are kept than the window of chunks usually
 * needs: freed and allocated again, among the readers' own allocations, they fragmented the
 * heaps the same way (JSON: 5.7 MiB for a tenth, 6.9 MiB for all). Kept, the blocks are as
 * many as the most that were ever in flight at once, which is the peak anyway.
 */
#define BLOCK_BYTES ((size_t)32 << 10)

struct block {
	struct block *next;
	size_t len;
	char data[BLOCK_BYTES];
};

struct store {
	struct block *free; /* blocks written out, for reuse */
};

/* A block from the store, or a new one; NULL when memory runs out. */
static struct block *block_get(struct store *s)
{
	struct block *b = s->free;

	if (b)
		s->free = b->next;
	else
		b = malloc(sizeof *b);
	if (b) {
		b->next = NULL;
		b->len = 0;
	}
	return b;
}

/* Gives the blocks of list (a chunk's, written out) back to the store. */
static void blocks_put(struct store *s, struct block *list)
{
	struct block *last = list;

	if (!list)
		return;
	while (last->next)
		last = last->next;
	last->next = s->free;
	s->free = list;
}

/* Frees the blocks of list. */
static void blocks_free(struct block *list)
{
	while (list) {
		struct block *b = list;
		list = b->next;
		free(b);
	}
}

/* A run of games [start, end) of one database, converted by one worker of --jobs. */
struct chunk {
	uint64_t start, end;
	int last;             /* the last chunk: read on to --range's end as one job does */
	struct store *store;  /* where its blocks come from: its worker's */
	int owner;            /* the worker that fills it and writes it out */
	struct block *head, *tail; /* the output */
	size_t len;           /* its bytes */
	int oom;              /* memory ran out: the output is incomplete */
	struct membuf msgs;   /* the messages for standard error */
	size_t *objs;         /* json: where each object's '{' was (left out of the output) */
	size_t nobjs, capobjs;
	uint64_t done;        /* games counted by the progress bar */
	struct tally tally;   /* its games: written, failed, with warnings */
	int status;           /* ST_OK, ST_FAILED, ST_BASE or ST_STOP: the database or the run
				 stops after this chunk */
	int ready;            /* filled, not yet written (set under the pool's mutex, read atomically) */
};

/* Appends n bytes to c's output; 0, or -1 (and oom set) when memory runs out. */
static int chunk_add(struct chunk *c, const char *s, size_t n)
{
	while (n > 0) {
		size_t room;
		if (c->oom)
			return -1;
		if (!c->tail || c->tail->len == BLOCK_BYTES) {
			struct block *b = block_get(c->store);
			if (!b) {
				c->oom = 1;
				return -1;
			}
			if (c->tail)
				c->tail->next = b;
			else
				c->head = b;
			c->tail = b;
		}
		room = BLOCK_BYTES - c->tail->len;
		if (room > n)
			room = n;
		memcpy(c->tail->data + c->tail->len, s, room);
		c->tail->len += room;
		c->len += room;
		s += room;
		n -= room;
	}
	return 0;
}

/* Whether memory ran out for c's output (then it is incomplete). */
int chunk_oom(const struct chunk *c)
{
	return c->oom;
}

/* say() for a chunk: the message goes into its messages, written out with its output. */
void chunk_say(struct chunk *c, const char *fmt, va_list ap)
{
	struct membuf *b = &c->msgs;
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, again);
	va_end(again);
	if (n > 0 && !b->oom) {
		size_t need = (size_t)n + 1;
		char *tmp = malloc(need);
		if (tmp && vsnprintf(tmp, need, fmt, ap) == n)
			membuf_add(b, tmp, (size_t)n);
		else
			b->oom = 1;
		free(tmp);
	}
}

int32_t sink_chunk(void *user_data, const char *data, size_t len)
{
	struct emit *e = user_data;

	return chunk_add(e->c, data, len) == 0 ? 0 : 1;
}

int32_t sink_chunk_json(void *user_data, const char *data, size_t len)
{
	struct chunk *c = ((struct emit *)user_data)->c;

	if (len > 0 && data[0] == '{') {
		if (c->nobjs == c->capobjs) {
			size_t ncap = c->capobjs ? 2 * c->capobjs : 256;
			size_t *n = realloc(c->objs, ncap * sizeof *n);
			if (!n) {
				c->oom = 1;
				return 1;
			}
			c->objs = n;
			c->capobjs = ncap;
		}
		c->objs[c->nobjs++] = c->len;
		data++;
		len--;
	}
	return chunk_add(c, data, len) == 0 ? 0 : 1;
}

/*
 * --jobs: the games of one database in chunks. Each worker has a reader of its own (the
 * library's rule: one reader per thread) and takes the next chunk, seeks to it and converts
 * its games into the chunk's memory. The output goes out in database order, so that it and
 * the messages are those of one job, and each chunk is written out by the worker that filled
 * it, when its turn comes: at once when it is next, else as soon as the chunk before it is
 * out (the worker looks between two games of the chunk it fills then, or waits when it has
 * nothing left to take). A chunk's text is then still in the cache of the core that made it;
 * written out by the other worker (as it was before), every byte crossed between the cores'
 * caches once more, and `--jobs 2` spent 5-10 % more CPU than `--jobs 1` in the kernel's copy
 * of the text and in the copy into the blocks. The calling thread is a worker as well: there
 * is no thread that only writes, and nobody waits except when `window` chunks (eight per job)
 * are taken and not yet written, which bounds the memory whatever the size of the database,
 * or at the end. Eight small chunks rather than three larger ones: the same memory gives the
 * other workers more slack while one of them is held up (a read or a write that waits for the
 * disk, a thread the system runs late); with three chunks of 128 games, the workers of --jobs
 * 2 waited 20-80 ms per run for room, with eight of 64 they hardly wait.
 */
struct pool {
	pthread_mutex_t mu;
	pthread_cond_t turn;  /* a chunk was written: the next one's turn, and a slot is free */
	struct chunk *slots;  /* chunk k is in slots[k % window] */
	size_t window;
	uint64_t next_take;
	uint64_t next_write;  /* set under mu, read atomically (a worker's look between games) */
	uint64_t next_start;  /* the first game of the next chunk taken */
	int stop;
	uint64_t end;         /* games [.., end) */
	int jobs;
	size_t per_game;      /* output bytes per game of the last chunk filled (0: none yet) */
	const struct opts *o;
	int mode;
	const char *db;
	/* The output side: used by one worker at a time, the one whose chunk's turn it is. */
	FILE *out;
	struct progress *pr;
	uint64_t done;
	struct tally tally;   /* the games of the chunks written */
	int status;
	int werrno;           /* errno of a write that failed, in the worker that wrote */
};

struct worker {
	struct pool *p;
	int id;
	struct gamedb_reader *r;
	struct store store;   /* its chunks' blocks */
	int pending;          /* its chunks filled and not yet written */
	pthread_t t;
};

/*
 * The output a chunk is meant to hold (chunk_games()). Counted in games alone, a run of long
 * annotated games (9 KB each in the real base) made chunks of 580 KB; in bytes, the window of
 * chunks in flight holds about as much whatever the games.
 */
#define CHUNK_BYTES ((size_t)96 << 10)

/*
 * The games in the next chunk: large enough that a chunk's seek and handoff cost nothing next
 * to its games (up to 64 of them), about CHUNK_BYTES of output going by the last chunk's
 * bytes per game, so that memory stays flat however large the base, and smaller towards the
 * end so that the workers finish at about the same time.
 */
static uint64_t chunk_games(const struct pool *p)
{
	uint64_t left = p->end - p->next_start;
	uint64_t n = left / ((uint64_t)p->jobs * 4);

	n = n < 16 ? 16 : n > 64 ? 64 : n;
	if (p->per_game > 0 && n > CHUNK_BYTES / p->per_game)
		n = CHUNK_BYTES / p->per_game < 4 ? 4 : CHUNK_BYTES / p->per_game;
	return n < left ? n : left;
}

static void poll_turn(struct pool *p, struct worker *w);

/*
 * Converts the games of chunk c with w's reader, as the one-job loop does for them; between
 * two games, writes out w's filled chunks when their turn has come (poll_turn()).
 */
static void fill_chunk(struct pool *p, struct worker *w, struct chunk *c)
{
	struct gamedb_reader *r = w->r;
	struct emit e;
	struct gamedb_game *g;
	uint64_t k = c->start;
	int32_t rc;

	memset(&e, 0, sizeof e);
	e.o = p->o;
	e.mode = p->mode;
	e.db = p->db;
	e.c = c;
	e.t = &c->tally;
	e.q = make_query(p->o, NULL); /* one per chunk: a query serves one thread */
	if (gamedb_reader_seek_game(r, k) == GAMEDB_FATAL) {
		say_reader(&e, gamedb_reader_errmsg(r));
		c->status = ST_BASE;
		gamedb_query_free(e.q);
		return;
	}
	while (c->last || k < c->end) {
		uint64_t idx;
		rc = next_read(&e, r, gamedb_reader_next_game(r, &g), &c->status);
		if (rc < 0)
			break;
		if (rc > 0) {
			k++; /* every format gives one game per call, read or not */
			continue;
		}
		idx = gamedb_game_get_index(g);
		k = idx + 1;
		if (idx >= p->o->to || (!c->last && idx >= c->end))
			break; /* past the range, or the next chunk's game */
		if (!game_wanted(p->o, idx))
			continue;
		c->done++;
		if (gamedb_game_is_deleted(g) && !p->o->include_deleted)
			continue;
		c->status = take_game(&e, g, idx, c->status);
		if (c->status == ST_STOP)
			break;
		if (w->pending)
			poll_turn(p, w);
	}
	gamedb_query_free(e.q);
}

/* A place in a chunk's output (NULL block: its end). */
struct cursor {
	const struct block *b;
	size_t off;
};

static void cursor_skip(struct cursor *at, size_t n)
{
	while (at->b && n >= at->b->len - at->off) {
		n -= at->b->len - at->off;
		at->b = at->b->next;
		at->off = 0;
	}
	at->off += n;
}

/*
 * Writes the next n bytes of a chunk's output to out. Tens of kilobytes go to the file
 * descriptor in one system call per 64 blocks (after what out's buffer holds) rather than
 * through stdio, which would first copy most of them into its buffer; a few bytes (the JSON
 * between two objects' prefixes) go through stdio. Should a write fail, the rest goes
 * through stdio after all, which fails the same way and leaves out in error, as one job would
 * (the same messages).
 */
static void write_out(FILE *out, struct cursor *at, size_t n)
{
	if (n >= 16384 && fflush(out) == 0) {
		int fd = fileno(out);
		while (n > 0) {
#ifdef _WIN32
			size_t piece = at->b->len - at->off;
			int got = _write(fd, at->b->data + at->off, (unsigned)(piece < n ? piece : n));
#else
			struct iovec v[64];
			struct cursor c = *at;
			size_t left = n;
			int k = 0;
			ssize_t got;
			for (; k < 64 && left > 0; k++) {
				size_t piece = c.b->len - c.off;
				piece = piece < left ? piece : left;
				v[k].iov_base = (void *)(c.b->data + c.off);
				v[k].iov_len = piece;
				left -= piece;
				c.b = c.b->next;
				c.off = 0;
			}
			got = writev(fd, v, k);
#endif
			if (got <= 0)
				break;
			cursor_skip(at, (size_t)got);
			n -= (size_t)got;
		}
	}
	while (n > 0) {
		size_t piece = at->b->len - at->off;
		piece = piece < n ? piece : n;
		fwrite(at->b->data + at->off, 1, piece, out);
		cursor_skip(at, piece);
		n -= piece;
	}
}

/* Writes chunk c (the next in turn) to the output; by the worker that is writing. */
static void write_chunk(struct pool *p, struct chunk *c)
{
	FILE *out = p->out;
	struct cursor at = { c->head, 0 };
	size_t pos = 0, j;

	for (j = 0; j < c->nobjs; j++) {
		write_out(out, &at, c->objs[j] - pos);
		json_prefix(out, p->db, json_n++);
		pos = c->objs[j];
	}
	write_out(out, &at, c->len - pos);
	blocks_put(c->store, c->head);
	c->head = c->tail = NULL;
	c->len = 0;
	if (c->msgs.len)
		fwrite(c->msgs.p, 1, c->msgs.len, stderr);
	if (c->msgs.oom)
		fprintf(stderr, "gamedb: out of memory\n");
	p->done += c->done;
	p->tally.written += c->tally.written;
	p->tally.failed += c->tally.failed;
	p->tally.warned += c->tally.warned;
	prealloc_more(out);
	progress_show(p->pr, p->done, 0);
	if (c->status > p->status || c->msgs.oom)
		p->status = c->msgs.oom ? ST_STOP : c->status;
	if (ferror(out)) {
		p->werrno = errno;
		fprintf(stderr, "gamedb: write error: %s\n", strerror(p->werrno));
		write_said = 1;
		p->status = ST_STOP;
	}
}

/*
 * Writes out w's chunks while it is their turn (the chunk next in turn is filled and w's);
 * with the pool's mutex held, which is let go during each write.
 */
static void write_turns(struct pool *p, struct worker *w)
{
	while (!p->stop && p->next_write < p->next_take) {
		struct chunk *n = &p->slots[p->next_write % p->window];
		if (!n->ready || n->owner != w->id)
			break;
		pthread_mutex_unlock(&p->mu);
		write_chunk(p, n);
		pthread_mutex_lock(&p->mu);
		__atomic_store_n(&n->ready, 0, __ATOMIC_RELAXED);
		w->pending--;
		__atomic_store_n(&p->next_write, p->next_write + 1, __ATOMIC_RELEASE);
		if (p->status >= ST_BASE)
			p->stop = 1;
		pthread_cond_broadcast(&p->turn);
	}
}

/*
 * Between two games of a chunk: w writes out its filled chunks if their turn has come. A look
 * without the mutex first (the chunk next in turn, its owner and whether it is filled); taken
 * only when the look says so, and write_turns() looks again under it.
 */
static void poll_turn(struct pool *p, struct worker *w)
{
	uint64_t k = __atomic_load_n(&p->next_write, __ATOMIC_ACQUIRE);
	struct chunk *n = &p->slots[k % p->window];

	if (__atomic_load_n(&n->owner, __ATOMIC_RELAXED) != w->id ||
	    !__atomic_load_n(&n->ready, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&p->mu);
	write_turns(p, w);
	pthread_mutex_unlock(&p->mu);
}

/*
 * Takes, fills and writes chunks until there are none left and w's are written out (or the
 * run stops).
 */
static void work(struct pool *p, struct worker *w)
{
	pthread_mutex_lock(&p->mu);
	for (;;) {
		struct chunk *c;
		write_turns(p, w);
		if (p->stop || (p->next_start >= p->end && !w->pending))
			break;
		if (p->next_start >= p->end || p->next_take >= p->next_write + p->window) {
			/* Its chunks wait for their turn, or the window is full: a turn must pass. */
			pthread_cond_wait(&p->turn, &p->mu);
			continue;
		}
		/* The slot's last chunk (next_take - window) is written: it is ours until then. */
		c = &p->slots[p->next_take++ % p->window];
		c->start = p->next_start;
		p->next_start += chunk_games(p);
		c->end = p->next_start;
		c->last = p->next_start == p->end;
		c->store = &w->store;
		__atomic_store_n(&c->owner, w->id, __ATOMIC_RELAXED);
		pthread_mutex_unlock(&p->mu);

		c->msgs.len = 0;
		c->oom = c->msgs.oom = 0;
		c->nobjs = 0;
		c->done = 0;
		memset(&c->tally, 0, sizeof c->tally);
		c->status = 0;
		fill_chunk(p, w, c);

		pthread_mutex_lock(&p->mu);
		if (c->end > c->start)
			p->per_game = c->len / (size_t)(c->end - c->start) + 1;
		w->pending++;
		__atomic_store_n(&c->ready, 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&p->mu);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct gamedb_reader *base = w->r; /* the calling thread's (convert_jobs()) */
	int32_t rc;

	/*
	 * Opened here, not by the calling thread: the opens overlap the first chunks. On the
	 * calling thread's reader, with its options: an archive is not unpacked again, all the
	 * workers read the one copy.
	 */
	w->r = gamedb_reader_new();
	rc = w->r ? gamedb_reader_open_shared(w->r, base) : GAMEDB_FATAL;
	if (rc != GAMEDB_OK && rc != GAMEDB_WARN) {
		gamedb_reader_free(w->r);
		w->r = NULL;
	}
	if (w->r)
		work(w->p, w);
	return NULL;
}

/* The number of processors online (the default of --jobs). */
int online_cores(void)
{
#ifdef _WIN32
	SYSTEM_INFO si;

	GetSystemInfo(&si);
	return si.dwNumberOfProcessors > 0 ? (int)si.dwNumberOfProcessors : 1;
#else
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (n > 256 ? 256 : (int)n) : 1;
#endif
}

/*
 * Games [from, end) of r (more than one job's worth) with --jobs workers: the calling thread
 * with r and the others with readers of their own, opened the same way. The database's
 * status, its games counted in t; -1 when the workers could not be set up (then nothing was
 * written).
 */
int convert_jobs(struct gamedb_reader *r, const char *db, const struct opts *o, int mode,
		 FILE *out, uint64_t from, uint64_t end, struct progress *pr, struct tally *t)
{
	struct pool p;
	struct worker *ws = calloc((size_t)o->jobs, sizeof *ws);
	int n = 0, i;
	size_t k;

	memset(&p, 0, sizeof p);
	p.o = o;
	p.mode = mode;
	p.db = db;
	p.next_start = from;
	p.end = end;
	p.jobs = o->jobs;
	p.out = out;
	p.pr = pr;
	p.window = (size_t)o->jobs * 8;
	p.slots = calloc(p.window, sizeof *p.slots);
	if (!ws || !p.slots || pthread_mutex_init(&p.mu, NULL) != 0) {
		free(ws);
		free(p.slots);
		return -1;
	}
	if (pthread_cond_init(&p.turn, NULL) != 0) {
		pthread_mutex_destroy(&p.mu);
		free(ws);
		free(p.slots);
		return -1;
	}
	for (i = 0; i < o->jobs; i++) {
		ws[i].p = &p;
		ws[i].id = i;
		ws[i].r = r; /* the others open theirs on it (worker_main()) */
	}
	/* Worker 0 is this thread; a worker that cannot start leaves its share to the others. */
	for (i = 1; i < o->jobs && (uint64_t)i < end - from; i++) {
		if (pthread_create(&ws[i].t, NULL, worker_main, &ws[i]) != 0)
			break;
		n++;
	}
	work(&p, &ws[0]);
	for (i = 1; i <= n; i++) {
		pthread_join(ws[i].t, NULL);
		gamedb_reader_free(ws[i].r);
	}
	/*
	 * errno is each thread's own: a write that failed in another worker leaves its errno
	 * here, for the message of the output's close (as one job, which wrote it all here).
	 */
	if (p.werrno)
		errno = p.werrno;
	progress_show(pr, p.done, 1);
	*t = p.tally;
	for (k = 0; k < p.window; k++) {
		blocks_free(p.slots[k].head); /* chunks left when the run stopped */
		free(p.slots[k].msgs.p);
		free(p.slots[k].objs);
	}
	for (i = 0; i < o->jobs; i++)
		blocks_free(ws[i].store.free);
	free(p.slots);
	free(ws);
	pthread_cond_destroy(&p.turn);
	pthread_mutex_destroy(&p.mu);
	return p.status;
}

