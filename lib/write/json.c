/*
 * libgamedb - the JSON Lines writer: one object per game per line. Public API only, but for
 * speed a run of plain moves is taken at once from the iterator (core/cursor.h, move_run()),
 * which passes them as its events would.
 *
 * The event stream is flat (a variation follows the move it replaces); JSON wants a tree
 * (a move holds its variations). Since a move's NAGs, comment and variations all follow it in
 * the stream, one pass suffices: each open line (the main line or a variation) keeps its move
 * object open until the next move or the line's end. Lines are kept on an explicit stack, not
 * by recursion, because a hostile database can nest variations tens of thousands deep.
 *
 * The JSON itself nests no deeper than common readers go (Ruby stops at 100 levels, jq 1.6 at
 * 256, Python's json near 1,000): a move on a line JSON_NEST_MAX variations deep holds its
 * variations flat, in "variations_flat", an array of moves in PGN order where each move says
 * its depth below that move ("depth") and the first move of each variation says so
 * ("starts_variation"). See doc/output.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/cursor.h"
#include "util/buf.h"

/* Most games fit in the writer's stack buffer; a longer one moves to the heap. */
#define JSON_INLINE 8192
/*
 * The deepest variation written nested: its moves' variations are written flat. A move object
 * there is at JSON depth 3 + 3 * 30 = 93; its "variations_flat", the moves in it, their
 * "comments" and the comment objects go 4 deeper: 97, within what the strictest common readers
 * take (Ruby's JSON 100 levels, Rust's serde_json 128, jq 1.6 256 where an object counts
 * twice, Python's json near 1,000). The real bases nest 8 deep at most.
 */
#define JSON_NEST_MAX 30

struct jw {
	struct gamedb__buf out;
	int err;
};

static void put(struct jw *w, const char *s, size_t len)
{
	if (gamedb__buf_put(&w->out, s, len) != 0)
		w->err = 1;
}

static void puts_(struct jw *w, const char *s)
{
	put(w, s, strlen(s));
}

/* A string literal, its length known at compile time. */
#define PUTL(w, lit) put((w), (lit), sizeof(lit) - 1)

/* The bytes a JSON string escapes: '"', '\\' and the controls. */
static const unsigned char needs_escape[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	['"'] = 1, ['\\'] = 1,
};

/* An integer as JSON (negative ones too). */
static void put_int(struct jw *w, int64_t v)
{
	char num[24];
	size_t n = 0;

	if (v < 0)
		num[n++] = '-';
	n += gamedb__put_u64(num + n, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
	put(w, num, n);
}

/*
 * A JSON string of len bytes: the room for the worst case (every byte a 6-byte escape) is
 * reserved once, then eight bytes at a time are copied while none needs an escape.
 */
static void jstr_n(struct jw *w, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	uint64_t x;
	char *d;

	if (len > (SIZE_MAX - 8) / 6 || gamedb__buf_room(&w->out, 6 * len + 2) != 0) {
		w->err = 1;
		return;
	}
	d = w->out.p + w->out.len;
	*d++ = '"';
	for (;;) {
		unsigned char c;
#if defined(__SSE2__)
		/* Sixteen bytes at a time (SSE2, every x86-64) while none needs an escape. */
		while (len - i >= 16) {
			__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
			__m128i bad = _mm_or_si128(
				_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
					     _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
				_mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(0x1F)),
					       _mm_set1_epi8(0x1F))); /* below 0x20 */
			if (_mm_movemask_epi8(bad))
				break;
			_mm_storeu_si128((__m128i *)(void *)d, v);
			d += 16;
			i += 16;
		}
#endif
		while (len - i >= 8) {
			memcpy(&x, p + i, 8);
			if (gamedb__has_byte(x, '"') | gamedb__has_byte(x, '\\') |
			    gamedb__has_below(x, 0x20))
				break;
			memcpy(d, &x, 8);
			d += 8;
			i += 8;
		}
		/* Then byte by byte up to the next byte to escape (short strings: all of them). */
		while (i < len && !needs_escape[p[i]])
			*d++ = (char)p[i++];
		if (i == len)
			break;
		c = p[i++];
		*d++ = '\\';
		switch (c) {
		case '"': *d++ = '"'; break;
		case '\\': *d++ = '\\'; break;
		case '\n': *d++ = 'n'; break;
		case '\r': *d++ = 'r'; break;
		case '\t': *d++ = 't'; break;
		default:
			memcpy(d, "u00", 3);
			d[3] = hex[c >> 4];
			d[4] = hex[c & 15];
			d += 5;
		}
	}
	*d++ = '"';
	*d = 0;
	w->out.len = (size_t)(d - w->out.p);
}

/* A JSON string of a C string (up to its NUL). */
static void jstr(struct jw *w, const char *s)
{
	jstr_n(w, s, strlen(s));
}

/* The state of one open line (the main line or a variation). */
struct jline {
	int open;      /* a move object is open */
	int first;     /* no move written yet */
	int has_move;  /* a move was written (lines written flat: they close theirs early) */
	int starts;    /* lines written flat: the next move is the variation's first */
	int nags_open; /* its "nags" array is open */
	int vars_open; /* its "variations" array is open */
	int has_before;
	struct gamedb__buf before; /* a comment waiting for the next move */
	/*
	 * What the open move object gets when it closes, as JSON text: the members of its
	 * "comments" array (when a move has several comments or they carry languages), of its
	 * "commands" array and of its "annotations" array.
	 */
	int ncomments, langs;
	struct gamedb__buf comments, commands, annotations;
	/*
	 * The first comment's entry of "comments" waits until a second comment needs it (most
	 * moves have one comment, and "comments" is written only for several): its text is
	 * the JSON string at first_at (first_len bytes) of the output, after "comment".
	 */
	int first_waits;
	size_t first_at, first_len;
	/* "%clk" and "%emt" of the move as seconds, for "clock" and "elapsed" (has_*: seen) */
	double clock, elapsed;
	int has_clock, has_elapsed;
};

/*
 * Seconds of a clock text "[-]H:MM:SS[.fff]" (also "MM:SS" or "SS"): 0, or -1 when the text
 * is not one.
 */
static int parse_seconds(const char *s, double *out)
{
	double v = 0, field, scale;
	int neg = 0, fields = 0;

	while (*s == ' ')
		s++;
	if (*s == '-') {
		neg = 1;
		s++;
	}
	for (;;) {
		if (*s < '0' || *s > '9')
			return -1;
		field = 0;
		while (*s >= '0' && *s <= '9')
			field = field * 10 + (*s++ - '0');
		if (*s == '.') {
			for (s++, scale = 0.1; *s >= '0' && *s <= '9'; s++, scale /= 10)
				field += (*s - '0') * scale;
		}
		v = v * 60 + field;
		if (++fields > 3)
			return -1;
		if (*s != ':')
			break;
		s++;
	}
	while (*s == ' ')
		s++;
	if (*s)
		return -1;
	*out = neg ? -v : v;
	return 0;
}

static void jbuf_str(struct jw *w, struct gamedb__buf *b, const char *s)
{
	struct jw t;

	t.out = *b;
	t.err = 0;
	jstr(&t, s);
	*b = t.out;
	if (t.err)
		w->err = 1;
}

static void jbuf_puts(struct jw *w, struct gamedb__buf *b, const char *s)
{
	if (gamedb__buf_append(b, s, strlen(s)) != 0)
		w->err = 1;
}

static void close_move_full(struct jw *w, struct jline *l);

/* Closes the open move object of a line, with the arrays it has open. */
static inline void close_move(struct jw *w, struct jline *l)
{
	/* Most moves: nothing but the object to close. */
	if (!(l->nags_open | l->vars_open | l->ncomments | l->has_clock | l->has_elapsed) &&
	    !l->commands.len && !l->annotations.len) {
		if (l->open)
			put(w, "}", 1);
		l->open = 0;
		return;
	}
	close_move_full(w, l);
}

static void close_move_full(struct jw *w, struct jline *l)
{
	if (l->nags_open)
		put(w, "]", 1);
	if (l->vars_open)
		put(w, "]", 1);
	if (l->open && (l->ncomments > 1 || l->langs)) {
		PUTL(w, ", \"comments\": [");
		put(w, l->comments.p, l->comments.len);
		put(w, "]", 1);
	}
	if (l->open && l->commands.len) {
		PUTL(w, ", \"commands\": [");
		put(w, l->commands.p, l->commands.len);
		put(w, "]", 1);
	}
	if (l->open && l->annotations.len) {
		PUTL(w, ", \"annotations\": [");
		put(w, l->annotations.p, l->annotations.len);
		put(w, "]", 1);
	}
	if (l->open && (l->has_clock || l->has_elapsed)) {
		char num[64];
		if (l->has_clock) {
			snprintf(num, sizeof num, ", \"clock\": %.10g", l->clock);
			puts_(w, num);
		}
		if (l->has_elapsed) {
			snprintf(num, sizeof num, ", \"elapsed\": %.10g", l->elapsed);
			puts_(w, num);
		}
	}
	l->has_clock = l->has_elapsed = 0;
	if (l->open)
		put(w, "}", 1);
	l->open = l->nags_open = l->vars_open = 0;
	l->ncomments = l->langs = 0;
	l->first_waits = 0;
	gamedb__buf_clear(&l->comments);
	gamedb__buf_clear(&l->commands);
	gamedb__buf_clear(&l->annotations);
}

static void close_nags(struct jw *w, struct jline *l)
{
	if (l->nags_open)
		put(w, "]", 1);
	l->nags_open = 0;
}

/* The copy of s (len bytes) at d when no byte of it needs an escape, else NULL. */
static inline char *copy_plain(char *d, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (needs_escape[(unsigned char)s[i]])
			return NULL;
		d[i] = s[i];
	}
	return d + len;
}

/*
 * A move's "san" and "uci" members: both in one reservation when they need no escape (as
 * the board engine writes them), else through jstr_n().
 */
static void san_uci(struct jw *w, const char *san, size_t sl, const char *uci, size_t ul)
{
	static const char a[] = "{\"san\": \"", b[] = "\", \"uci\": \"";
	char *d;

	if (sl > SIZE_MAX / 4 || ul > SIZE_MAX / 4 || gamedb__buf_room(&w->out, sl + ul + 32) != 0) {
		w->err = 1;
		return;
	}
	d = w->out.p + w->out.len;
	memcpy(d, a, sizeof a - 1);
	d = copy_plain(d + sizeof a - 1, san, sl);
	if (d) {
		memcpy(d, b, sizeof b - 1);
		d = copy_plain(d + sizeof b - 1, uci, ul);
	}
	if (d) {
		*d++ = '"';
		*d = 0;
		w->out.len = (size_t)(d - w->out.p);
		return;
	}
	PUTL(w, "{\"san\": "); /* nothing was kept of the above */
	jstr_n(w, san, sl);
	PUTL(w, ", \"uci\": ");
	jstr_n(w, uci, ul);
}

/* A move's object opened on line l, up to its "uci" member (the event loop of moves()). */
static inline void move_begin(struct jw *w, struct jline *l, const char *san, size_t sl,
			      const char *uci, size_t ul)
{
	close_move(w, l);
	if (!l->first)
		PUTL(w, ", ");
	l->first = 0;
	san_uci(w, san, sl, uci, ul);
}

/* The rest of a move's opening: the comment before it, if one waits. */
static inline void move_end(struct jw *w, struct jline *l)
{
	if (l->has_before) {
		PUTL(w, ", \"comment_before\": ");
		jstr(w, l->before.p);
		l->has_before = 0;
		gamedb__buf_clear(&l->before);
	}
	l->open = 1;
}

/*
 * A run of moves that carry their SAN, taken at once from the cursor (gamedb__cursor_next(),
 * as pgn.c's write_run() takes them), written as the event loop writes each move when no FEN
 * or key is asked for: no event and no call through the public API per move. Passes them.
 */
static void move_run(struct jw *w, struct jline *l, struct gamedb_move_iter *it,
		     const struct gamedb__run *run)
{
	struct gamedb__ply pl;
	size_t k;
	char uci[8];

	for (k = 0; k < run->n; k++) {
		gamedb__run_ply(run, k, &pl);
		if (!gamedb__ply_plain(run, &pl))
			break;
		move_begin(w, l, gamedb__run_san(run, k), pl.san_len, uci,
			   gamedb__cursor_uci(it, run, k, uci));
		move_end(w, l);
	}
	gamedb__cursor_pass(it, run, k);
}

/* Writes the moves of it as the value of "moves", then a main-line comment no move follows. */
static void moves(struct jw *w, struct gamedb_move_iter *it, uint32_t flags)
{
	const struct gamedb_event *ev;
	struct jline *stack, *l;
	size_t depth = 0, cap = 8, skip = 0, k;
	size_t flat_items = 0; /* moves written in the open "variations_flat" */
	/* A FEN or key per move: every move by its event. */
	const unsigned runs = flags & (GAMEDB_WRITE_FEN | GAMEDB_WRITE_KEY) ? 0 : GAMEDB__RUN_MOVES;
	char num[16];

	stack = calloc(cap, sizeof *stack);
	if (!stack) {
		w->err = 1;
		return;
	}
	stack[0].first = 1;
	put(w, "[", 1);
	for (;;) {
		int32_t type;
		struct gamedb__run run;
		/* Runs of moves at once where a move is written as the run writes it. */
		if (w->err || gamedb__cursor_next(it, !skip && depth <= JSON_NEST_MAX ? runs : 0, &run,
						  &ev) != GAMEDB_OK)
			break;
		if (run.n) {
			move_run(w, &stack[depth], it, &run);
			continue;
		}
		type = gamedb_event_get_type(ev);
		l = &stack[depth];
		if (skip) { /* inside a variation that has no move to hang from */
			if (type == GAMEDB_EVENT_VARIATION_BEGIN)
				skip++;
			else if (type == GAMEDB_EVENT_VARIATION_END)
				skip--;
			continue;
		}
		switch (type) {
		case GAMEDB_EVENT_MOVE:
			{
				size_t sl;
				const char *san = gamedb__event_san(ev, &sl);
				const char *uci = gamedb_event_get_uci(ev);
				if (depth > JSON_NEST_MAX)
					l->first = !flat_items++; /* every flat line shares one array */
				move_begin(w, l, san, sl, uci, strlen(uci));
				l->has_move = 1;
				if (depth > JSON_NEST_MAX) {
					PUTL(w, ", \"depth\": ");
					put_int(w, (int64_t)(depth - JSON_NEST_MAX));
					if (l->starts)
						PUTL(w, ", \"starts_variation\": true");
					l->starts = 0;
				}
			}
			if (flags & GAMEDB_WRITE_FEN) {
				PUTL(w, ", \"fen\": ");
				jstr(w, gamedb_event_get_fen(ev));
			}
			if (flags & GAMEDB_WRITE_KEY) {
				uint64_t key = 0;
				char hex[24];
				gamedb_event_get_key(ev, &key);
				snprintf(hex, sizeof hex, "%016llx", (unsigned long long)key);
				PUTL(w, ", \"key\": ");
				jstr(w, hex);
			}
			move_end(w, l);
			break;
		case GAMEDB_EVENT_NAG:
			if (!l->open || l->vars_open || (flags & GAMEDB_WRITE_NO_NAGS))
				break;
			if (l->nags_open)
				PUTL(w, ", ");
			else
				PUTL(w, ", \"nags\": [");
			l->nags_open = 1;
			put_int(w, gamedb_event_get_nag(ev));
			break;
		case GAMEDB_EVENT_COMMENT_AFTER:
			close_nags(w, l);
			if (l->open) {
				const char *lang = gamedb_event_get_language(ev);
				if (l->vars_open) { /* a comment after the variations: close them first */
					put(w, "]", 1);
					l->vars_open = 0;
				}
				/* The first comment is "comment"; all of them, with their languages,
				 * also go to "comments" when there are several or they have one. */
				if (l->ncomments == 0) {
					PUTL(w, ", \"comment\": ");
					l->first_at = w->out.len;
					jstr(w, gamedb_event_get_text(ev));
					l->first_len = w->out.len - l->first_at;
					if (!lang || !*lang) {
						l->first_waits = 1;
						l->ncomments++;
						break;
					}
				} else if (l->first_waits) {
					jbuf_puts(w, &l->comments, "{\"language\": \"\", \"text\": ");
					if (gamedb__buf_append(&l->comments, w->out.p + l->first_at,
							       l->first_len) != 0)
						w->err = 1;
					jbuf_puts(w, &l->comments, "}");
					l->first_waits = 0;
				}
				jbuf_puts(w, &l->comments, l->ncomments ? ", {\"language\": " :
					  "{\"language\": ");
				jbuf_str(w, &l->comments, lang ? lang : "");
				jbuf_puts(w, &l->comments, ", \"text\": ");
				jbuf_str(w, &l->comments, gamedb_event_get_text(ev));
				jbuf_puts(w, &l->comments, "}");
				l->ncomments++;
				if (lang && *lang)
					l->langs = 1;
				break;
			}
			/* no move yet: it waits for the next one, as a comment before */
			/* fall through */
		case GAMEDB_EVENT_COMMENT_BEFORE:
			gamedb__buf_clear(&l->before);
			if (gamedb__buf_append(&l->before, gamedb_event_get_text(ev),
					       strlen(gamedb_event_get_text(ev))) != 0)
				w->err = 1;
			l->has_before = 1;
			break;
		case GAMEDB_EVENT_CLOCK:
		case GAMEDB_EVENT_COMMAND:
			if (!l->open || (flags & GAMEDB_WRITE_NO_COMMANDS))
				break; /* before the first move: no move object to hold it */
			if (l->commands.len)
				jbuf_puts(w, &l->commands, ", ");
			jbuf_str(w, &l->commands, gamedb_event_get_text(ev));
			{
				const char *t = gamedb_event_get_text(ev);
				if (!strncmp(t, "%clk ", 5) && parse_seconds(t + 5, &l->clock) == 0)
					l->has_clock = 1;
				else if (!strncmp(t, "%emt ", 5) && parse_seconds(t + 5, &l->elapsed) == 0)
					l->has_elapsed = 1;
			}
			break;
		case GAMEDB_EVENT_ANNOTATION:
			if (!l->open)
				break;
			snprintf(num, sizeof num, "%d", (int)gamedb_event_get_annotation_type(ev));
			jbuf_puts(w, &l->annotations, l->annotations.len ? ", {\"type\": " :
				  "{\"type\": ");
			jbuf_puts(w, &l->annotations, num);
			jbuf_puts(w, &l->annotations, ", \"hex\": ");
			jbuf_str(w, &l->annotations, gamedb_event_get_text(ev));
			jbuf_puts(w, &l->annotations, "}");
			break;
		case GAMEDB_EVENT_VARIATION_BEGIN:
			close_nags(w, l);
			if (depth > JSON_NEST_MAX ? !l->has_move : !l->open) {
				skip = 1; /* cannot happen in a well-formed stream */
				break;
			}
			if (depth > JSON_NEST_MAX) {
				/* The variation's moves follow the move they replace in the flat
				 * array, which therefore cannot hold them: it ends here. */
				close_move(w, l);
			} else if (depth == JSON_NEST_MAX) {
				/* One flat array for all the variations of the move. */
				if (!l->vars_open) {
					PUTL(w, ", \"variations_flat\": [");
					flat_items = 0;
				}
				l->vars_open = 1;
			} else {
				puts_(w, l->vars_open ? ", " : ", \"variations\": [");
				l->vars_open = 1;
			}
			if (depth + 1 == cap) {
				struct jline *ns = realloc(stack, cap * 2 * sizeof *ns);
				if (!ns) {
					w->err = 1;
					break;
				}
				stack = ns;
				memset(stack + cap, 0, cap * sizeof *stack);
				cap *= 2;
			}
			depth++;
			stack[depth].first = 1;
			stack[depth].has_before = 0;
			stack[depth].open = 0;
			stack[depth].ncomments = stack[depth].langs = 0;
			stack[depth].first_waits = 0;
			stack[depth].has_move = 0;
			stack[depth].starts = 1;
			if (depth <= JSON_NEST_MAX)
				put(w, "[", 1);
			break;
		case GAMEDB_EVENT_VARIATION_END:
			if (depth == 0)
				break;
			close_move(w, l); /* a comment before the end of a variation is lost */
			l->has_before = 0;
			if (depth <= JSON_NEST_MAX)
				put(w, "]", 1);
			depth--;
			break;
		default:
			break;
		}
	}
	while (depth > 0) { /* only after an error: keep the brackets balanced */
		close_move(w, &stack[depth]);
		if (depth-- <= JSON_NEST_MAX)
			put(w, "]", 1);
	}
	close_move(w, &stack[0]);
	put(w, "]", 1);
	if (stack[0].has_before) {
		PUTL(w, ", \"comment\": ");
		jstr(w, stack[0].before.p);
	}
	for (k = 0; k < cap; k++) {
		gamedb__buf_free(&stack[k].before);
		gamedb__buf_free(&stack[k].comments);
		gamedb__buf_free(&stack[k].commands);
		gamedb__buf_free(&stack[k].annotations);
	}
	free(stack);
}

GAMEDB_EXPORT int32_t gamedb_game_write_json(struct gamedb_game *g, uint32_t flags,
					     gamedb_write_fn sink, void *user_data)
{
	struct jw w;
	struct gamedb_move_iter *it = NULL;
	uint32_t iflags = 0;
	const char *final_fen;
	size_t i, n;
	int32_t rc;
	int partial = 0;
	char num[32], storage[JSON_INLINE];

	if (!g || !sink)
		return GAMEDB_FAILED;
	if (flags & GAMEDB_WRITE_NO_COMMENTS)
		iflags |= GAMEDB_ITER_SKIP_COMMENTS;
	if (flags & GAMEDB_WRITE_NO_VARIATIONS)
		iflags |= GAMEDB_ITER_MAINLINE_ONLY;
	if (flags & GAMEDB_WRITE_FEN)
		iflags |= GAMEDB_ITER_FEN;
	if (flags & GAMEDB_WRITE_PARTIAL)
		iflags |= GAMEDB_ITER_PARTIAL;
	gamedb__game_want_san(g); /* every move's SAN: made as the decoder plays the moves */
	rc = gamedb_move_iter_new(g, iflags, &it);
	if (rc == GAMEDB_WARN && (flags & GAMEDB_WRITE_PARTIAL))
		partial = 1; /* the moves before the failure; "partial" says where */
	else if (rc != GAMEDB_OK)
		return GAMEDB_FAILED;
	memset(&w, 0, sizeof w);
	gamedb__buf_init_fixed(&w.out, storage, sizeof storage);
	final_fen = gamedb_game_get_final_fen(g);

	PUTL(&w, "{\"index\": ");
	n = gamedb__put_u64(num, gamedb_game_get_index(g));
	put(&w, num, n);
	PUTL(&w, ", \"tags\": {");
	n = gamedb_game_get_tag_count(g);
	for (i = 0; i < n; i++) {
		const char *name, *value;
		if (gamedb_game_get_tag_at(g, i, &name, &value) != GAMEDB_OK)
			continue;
		if (i)
			put(&w, ", ", 2);
		jstr(&w, name);
		put(&w, ": ", 2);
		/* A game written in part has no result (as in PGN). */
		jstr(&w, partial && strcmp(name, "Result") == 0 ? "*" : value);
	}
	PUTL(&w, "}, \"variant\": ");
	switch (gamedb_game_get_variant(g)) {
	case GAMEDB_VARIANT_CHESS960: jstr(&w, "chess960"); break;
	case GAMEDB_VARIANT_XIANGQI: jstr(&w, "xiangqi"); break;
	case GAMEDB_VARIANT_BUGHOUSE: jstr(&w, "bughouse"); break;
	case GAMEDB_VARIANT_CRAZYHOUSE: jstr(&w, "crazyhouse"); break;
	default: jstr(&w, "chess"); break;
	}
	PUTL(&w, ", \"fen\": ");
	jstr(&w, gamedb_game_get_fen(g));
	PUTL(&w, ", \"final_fen\": ");
	jstr(&w, final_fen ? final_fen : "");
	puts_(&w, gamedb_game_is_deleted(g) ? ", \"deleted\": true" : ", \"deleted\": false");
	if (partial) {
		PUTL(&w, ", \"partial\": ");
		jstr(&w, gamedb_game_errmsg(g));
	}
	PUTL(&w, ", \"moves\": ");
	moves(&w, it, flags);
	gamedb_move_iter_free(it);
	PUTL(&w, "}\n");

	rc = GAMEDB_OK;
	if (w.err || sink(user_data, w.out.p, w.out.len) != 0)
		rc = GAMEDB_FAILED;
	else if (partial || gamedb_game_get_status(g) == GAMEDB_WARN)
		rc = GAMEDB_WARN;
	gamedb__buf_free(&w.out);
	return rc;
}
