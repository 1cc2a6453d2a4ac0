/*
 * libgamedb - the ChessBase format (CBH family): the index (.cbh, .cbj), the name files (.cbp
 * players, .cbt tournaments, .cbc annotators, .cbs sources, .cbe teams) and the guiding texts.
 * The moves and annotations (.cbg, .cba) are decoded by cbh-moves.c through lib/formats/cbh.h.
 *
 * Layout facts are in doc/formats/chessbase.md. The CBH, CBJ records and CBG are big-endian;
 * the name files, the CBJ header and the guiding-text bodies are little-endian.
 *
 * Header listing reads the .cbh, .cbj and the name files only; a game's .cbg record is read
 * when the caller asks for its start position (setup games) or its moves.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/format.h"
#include "formats/cbh.h"
#include "formats/toolkit.h"

#define CBH_REC 46                 /* header and record size of the .cbh */
#define CBJ_HEADER 32
#define ENT_HEADER 28              /* entity file header without its extra bytes */
#define ENT_NODE 9                 /* tree node before each entity payload */
#define ENT_MAGIC 1234567890u
#define ENT_DELETED 0xFFFFFC19u    /* -999 in the left-child field: a deleted entity */
#define ENT_MAX_PAYLOAD 4096u      /* larger record sizes are taken as a corrupt header */
#define ENT_MAX_EXTRA 4096u
#define ENT_COPY 96                /* bytes of a payload we read (the longest known is 90) */
#define CHESS960_ECO (65536u - 960u) /* ECO values from here on are Chess960 positions */
#define SCAN_CHUNK (CBH_REC * 8192u)
#define DETECT_MAX_TEXTS 4096u     /* guiding texts whose titles feed charset-detect */

enum { ENT_PLAYER, ENT_TOURNAMENT, ENT_ANNOTATOR, ENT_SOURCE, ENT_TEAM, ENT_TYPES };

static const char *const ent_ext[ENT_TYPES] = { ".cbp", ".cbt", ".cbc", ".cbs", ".cbe" };

struct ent_file {
	struct gamedb__file *f; /* NULL: absent or unusable */
	uint64_t hdr;           /* where the first record starts */
	uint32_t payload;       /* payload size from the header (the node is not counted) */
	uint32_t count;         /* records the file holds */
	const char *why;        /* when f is NULL: "is missing", "is unusable", ... */
};

/* The public ChessBase handle: what gamedb_chessbase_* reach, and the loaded guiding text. */
struct gamedb_chessbase {
	struct cbh *s;
	int loaded;
	int32_t format;
	int32_t ntitles;
	struct {
		uint32_t off;     /* into titles */
		const char *lang; /* static ISO code */
	} *title;
	size_t title_cap;
	struct gamedb__buf titles; /* NUL-separated UTF-8 titles */
	struct gamedb__buf content;
	int have_content;
};

struct cbh {
	struct gamedb_reader *r;
	struct gamedb__file *cbh, *cbj;
	uint32_t nrec;       /* records of the index: games and texts */
	uint32_t *texts;     /* ids (1-based record numbers) of the text records, ascending */
	uint32_t ntexts;
	size_t texts_cap;
	uint32_t ngames;
	uint32_t next;
	struct ent_file ent[ENT_TYPES];
	uint32_t cbj_rec;    /* CBJ record size, 0 = no usable CBJ */
	uint32_t cbj_count;  /* CBJ records */
	uint32_t cbj_said;   /* CBJ records its header counts (more than cbj_count: cut short) */
	struct gamedb__cbg_ctx ctx;
	struct gamedb_chessbase handle;
};

/* Length of a fixed-size string field: up to its first NUL (bytes after it may be garbage). */
static size_t fixlen(const uint8_t *p, size_t max)
{
	const uint8_t *nul = memchr(p, 0, max);
	return nul ? (size_t)(nul - p) : max;
}

static const char *cb_charset(const struct cbh *s)
{
	return gamedb__cbg_charset(&s->ctx);
}

/* ---- languages ------------------------------------------------------------------------- */

/* Guiding texts number their languages on their own: 0 English ... 6 Portuguese. */
static const char *const text_languages[] = { "en", "de", "fr", "es", "it", "nl", "pt" };

static const char *text_language_iso(uint32_t n)
{
	return n < sizeof text_languages / sizeof text_languages[0] ? text_languages[n] : "";
}

/*
 * ChessBase nation numbers 1..253 as 3-letter codes (IOC where one exists), for EventCountry.
 * The numbering is ChessBase's (see doc/formats/chessbase.md); 0 is "no nation".
 */
static const char nations[] =
	"AFGALBALGANDANGANTARGARMAUSAUT" "AZEBAHBRNBANBARBLRBELBIZBERBOL"
	"BIHBOTBRAIVBBRUBULBURCANCHICHN" "COLCRCCROCUBCYPCZEDENDJIDOMECU"
	"EGYENGESPESTETHFROFIJFINFRAMKD" "GAMGEOGERGHAGREGUAGCIGUYHAIHON"
	"HKGHUNISLINDINAIRIIRQISRIRLITA" "CIVJAMJPNGCIJORKAZKENKORKGZKUW"
	"LATLIBLBALIELTULUXMACMADMASMLI" "MLTMTNMRIMEXMDAMONMGLMARMOZMYA"
	"NAMNEPNEDAHONZLNCANGRNORPAKPLE" "PANPNGPARPERPHIPOLPORPURQATROU"
	"RUSESASMRSCOSENSEYSINSVKSLORSA" "SRISUDSURSWESUISYRTJKTANTHATTO"
	"TUNTURTKMUGAUKRUAEUSAURUURSUZB" "VENVIEISVWLSYEMSCGZAMZIMZAIDDR"
	"TCHCMRCHACPVKIRCOMCGOPRKLAOLES" "MAWMDVMHLOMANRUMICNIGKSATOGTGA"
	"VANVATTUVSWZSLELCAPAPSVISAMSKI" "SOLGE2ZARRWALBRNETTPEASAAGGARU"
	"BENBHUBDICAMCAYCAFGCICIACOACOK" "GEQERIFGBFRGFRPGABGGBGRNGRLFGA"
	"GUMGUIGBSIOMJMYMFRMYFMSGNCFNNN" "NNANMIOTMPLWPIGRUFSTPSOMSVNHGB"
	"PGBTKITCIWFRNIRISSGBRSAAMNESRB" "CATBASKOS";

_Static_assert(sizeof nations == 253 * 3 + 1, "one 3-letter code per nation 1..253");

static int nation_code(uint32_t n, char out[4])
{
	if (n == 0 || n > (sizeof nations - 1) / 3)
		return 0;
	memcpy(out, nations + 3 * (n - 1), 3);
	out[3] = 0;
	return 1;
}

/* ---- bidding and opening -------------------------------------------------------------- */

/* Byte 0 is 0, bytes 1-2 are 36 (CB6 era) or 44 (CB9+), 3-4 the record size 46, byte 5 is 1. */
static int cb_bid(struct gamedb__src *src)
{
	struct gamedb__file *f = src->nfiles ? src->files[0] : NULL;
	const uint8_t *p;
	uint32_t v;

	if (!f || gamedb__file_view(f, 0, 6, &p) != 6)
		return -1;
	if (p[0] != 0 || gamedb__be16(p + 3) != CBH_REC || p[5] != 1)
		return -1;
	v = gamedb__be16(p + 1);
	return (v == 36 || v == 44) ? 100 : 40;
}

/*
 * Opens an optional sibling file (the I/O layer also tries the extension in upper case, as
 * bases copied from Windows have it). Returns 0, 1 if absent, 2 if the source cannot hold
 * another file, or -1 on a fatal error (out of memory; error set).
 */
static int open_sibling(struct cbh *s, const char *ext, struct gamedb__file **out)
{
	struct gamedb_reader *r = s->r;

	*out = NULL;
	/* A source full of files would report that as a fatal error: ask it only with room. */
	if (r->src.nfiles >= sizeof r->src.files / sizeof r->src.files[0])
		return 2;
	gamedb__clear_error(r);
	if (gamedb__src_open(&r->src, ext, 1, out) == 0)
		return 0;
	*out = NULL;
	return r->errcode == GAMEDB_E_NOMEM ? -1 : 1;
}

/*
 * The name of the base's file with extension ext (".cba"), without its folder, for a message
 * about a file that is not there: the index's name with its extension replaced, in the case
 * of the index's (bases copied from Windows have "X.CBH").
 */
static void sibling_name(const struct cbh *s, const char *ext, char *out, size_t cap)
{
	const char *name = s->cbh->name, *slash = strrchr(name, '/'), *dot;
	size_t n, i;
	int upper;

	if (slash)
		name = slash + 1;
	dot = strrchr(name, '.');
	n = dot ? (size_t)(dot - name) : strlen(name);
	upper = dot && dot[1] >= 'A' && dot[1] <= 'Z';
	snprintf(out, cap, "%.*s%s", (int)n, name, ext);
	for (i = n + 1; upper && i < cap && out[i]; i++)
		if (out[i] >= 'a' && out[i] <= 'z')
			out[i] = (char)(out[i] - 'a' + 'A');
}

/* Adds ext to the list of optional files that could not be used. */
static void note_missing(struct gamedb__buf *notes, const char *what)
{
	if (notes->len)
		gamedb__buf_append(notes, ", ", 2);
	gamedb__buf_append(notes, what, strlen(what));
}

/* Reads an entity file's header: an unusable file is noted and then treated as absent. */
static int ent_init(struct cbh *s, int t, struct gamedb__buf *notes)
{
	struct ent_file *e = &s->ent[t];
	const uint8_t *p;
	int64_t got;
	uint32_t extra;
	char what[96];
	int rc = open_sibling(s, ent_ext[t], &e->f);

	if (rc < 0)
		return -1;
	if (rc > 0) {
		e->why = rc == 2 ? "cannot be opened (too many files for the source)" : "is missing";
		/* Teams are absent in bases from before CB9: not worth a warning at the open (a
		 * game that points into the file says so). */
		if (t != ENT_TEAM || rc == 2)
			note_missing(notes, rc == 2 ? "too many files for the source" : ent_ext[t] + 1);
		return 0;
	}
	got = gamedb__file_view(e->f, 0, ENT_HEADER, &p);
	if (got < 0)
		return -1;
	if (got < ENT_HEADER) {
		snprintf(what, sizeof what, "%s (shorter than its header)", e->f->name);
		goto unusable;
	}
	e->payload = gamedb__le32(p + 12);
	extra = gamedb__le32(p + 24);
	if (gamedb__le32(p + 8) != ENT_MAGIC || e->payload == 0 || e->payload > ENT_MAX_PAYLOAD ||
	    extra > ENT_MAX_EXTRA) {
		snprintf(what, sizeof what, "%s (offset 8: not a ChessBase name file)", e->f->name);
		goto unusable;
	}
	e->hdr = ENT_HEADER + (uint64_t)extra;
	if (e->f->size > e->hdr) {
		uint64_t n = (e->f->size - e->hdr) / (e->payload + ENT_NODE);
		e->count = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
	}
	return 0;
unusable:
	note_missing(notes, what);
	e->f = NULL;
	e->why = "is unusable";
	return 0;
}

/* The CBJ header is little-endian: version, record size, record count. */
static void cbj_init(struct cbh *s, struct gamedb__buf *notes)
{
	const uint8_t *p;
	uint32_t rec, count;
	char what[256];

	if (!s->cbj || gamedb__file_view(s->cbj, 0, CBJ_HEADER, &p) != CBJ_HEADER)
		goto unusable;
	rec = gamedb__le32(p + 4);
	count = gamedb__le32(p + 8);
	if (rec < 8 || rec > 65536)
		goto unusable;
	/*
	 * Never more records than the file holds. A file cut short loses the teams of the games
	 * past its end: the open says so, and each such game (cbj_fields()).
	 */
	s->cbj_said = count;
	if ((uint64_t)count * rec > s->cbj->size - CBJ_HEADER) {
		count = (uint32_t)((s->cbj->size - CBJ_HEADER) / rec);
		snprintf(what, sizeof what, "%s (offset 8: the header counts %u records, the file "
			 "holds %u: the teams of the games past it are not read)",
			 s->cbj->name, s->cbj_said, count);
		note_missing(notes, what);
	}
	s->cbj_rec = rec;
	s->cbj_count = count;
	return;
unusable:
	if (s->cbj) {
		snprintf(what, sizeof what, "%s (bad header: teams not read)", s->cbj->name);
		note_missing(notes, what);
	}
	s->cbj = NULL;
}

static int add_text_id(struct cbh *s, uint32_t id)
{
	if (gamedb__grow((void **)&s->texts, &s->texts_cap, (size_t)s->ntexts + 1, sizeof *s->texts))
		return -1;
	s->texts[s->ntexts++] = id;
	return 0;
}

/* One pass over the index: which records are guiding texts (never games). */
static int32_t scan_index(struct cbh *s)
{
	uint32_t id = 1;

	while (id <= s->nrec) {
		uint32_t n = s->nrec - id + 1, k;
		const uint8_t *p;
		int64_t got;

		if (n > SCAN_CHUNK / CBH_REC)
			n = SCAN_CHUNK / CBH_REC;
		got = gamedb__file_view(s->cbh, (uint64_t)id * CBH_REC, (size_t)n * CBH_REC, &p);
		if (got < 0)
			return GAMEDB_FATAL;
		if (got != (int64_t)n * CBH_REC)
			return gamedb__error(s->r, GAMEDB_FATAL, GAMEDB_E_IO,
					     "%s: offset %llu: cannot read the index", s->cbh->name,
					     (unsigned long long)id * CBH_REC);
		for (k = 0; k < n; k++)
			if ((p[k * CBH_REC] & 2) && add_text_id(s, id + k) != 0)
				return gamedb__error(s->r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
		id += n;
	}
	s->ngames = s->nrec - s->ntexts;
	return GAMEDB_OK;
}

static void cb_close(void *state);

static int32_t detect_charset(struct cbh *s);

static int32_t cb_open(struct gamedb_reader *r, void **state)
{
	struct cbh *s = calloc(1, sizeof *s);
	struct gamedb__buf notes = { 0 };
	const uint8_t *p;
	uint32_t next_id, file_recs, said = 0;
	int32_t rc = GAMEDB_OK;
	int t, o, more = 0;
	char msg[512], cbj[320];

	if (!s)
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
	s->r = r;
	s->handle.s = s;
	s->ctx.r = r;
	s->ctx.language = -1;
	s->ctx.mainline_moves = -1;
	*state = s;
	if (gamedb__src_open(&r->src, NULL, 0, &s->cbh) != 0)
		goto fail;

	if (gamedb__file_view(s->cbh, 0, CBH_REC, &p) != CBH_REC || p[0] != 0 || p[5] != 1) {
		gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_CORRUPT,
			      "%s: offset 0: not a ChessBase index (bad signature or shorter than its header)",
			      s->cbh->name);
		goto fail;
	}
	if (gamedb__be16(p + 3) != CBH_REC) {
		gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_UNSUPPORTED_VERSION,
			      "%s: offset 3: record size %u (this library reads 46)", s->cbh->name,
			      gamedb__be16(p + 3));
		goto fail;
	}
	/* The header's next game id is the record count + 1; the file size bounds it. */
	next_id = gamedb__be32(p + 6);
	file_recs = s->cbh->size / CBH_REC - 1 > UINT32_MAX - 1 ? UINT32_MAX - 1
								 : (uint32_t)(s->cbh->size / CBH_REC - 1);
	s->nrec = next_id ? next_id - 1 : 0;
	if (next_id == 0 || s->nrec > file_recs) {
		gamedb__error(r, GAMEDB_WARN, GAMEDB_E_CORRUPT,
			      "%s: offset 6: index truncated: header says %u records, the file holds %u",
			      s->cbh->name, next_id ? next_id - 1 : 0, file_recs);
		s->nrec = file_recs;
		rc = GAMEDB_WARN;
	} else if (s->nrec < file_recs) {
		/*
		 * More records than the header counts: a broken header must not hide the games
		 * past the count (a user's only copy, maybe). They are read like the others; one
		 * that does not decode fails as any game does.
		 */
		said = s->nrec;
		s->nrec = file_recs;
		more = 1;
	}
	if (scan_index(s) != GAMEDB_OK)
		goto fail;

	/* The game file is required; the others only lose what they hold. */
	o = open_sibling(s, ".cbg", &s->ctx.cbg);
	if (o < 0)
		goto fail;
	if (o > 0) {
		/* Once more, not quietly, for a message naming the file and the reason. */
		if (gamedb__src_open(&r->src, ".cbg", 0, &s->ctx.cbg) != 0)
			goto fail;
	}
	if (open_sibling(s, ".cba", &s->ctx.cba) < 0)
		goto fail;
	for (t = 0; t < ENT_TYPES; t++)
		if (ent_init(s, t, &notes) != 0)
			goto fail;
	o = open_sibling(s, ".cbj", &s->cbj);
	if (o < 0)
		goto fail;
	if (o == 2)
		note_missing(&notes, ".cbj (too many files for the source)");
	cbj_init(s, &notes);
	/*
	 * A base with teams (a .cbe that holds some) links its games to them in the .cbj: without
	 * it no game's team is known. No index field points into the .cbj (it is parallel to the
	 * .cbh), so the open says it, once.
	 */
	cbj[0] = 0;
	if (o == 1 && s->ent[ENT_TEAM].f && s->ent[ENT_TEAM].count) {
		char name[96], ename[96];
		sibling_name(s, ".cbj", name, sizeof name);
		sibling_name(s, ".cbe", ename, sizeof ename);
		snprintf(cbj, sizeof cbj, "%s is missing: the games' links to the %u team records of %s are "
			 "not known, team tags (WhiteTeam, BlackTeam) are left out", name,
			 s->ent[ENT_TEAM].count, ename);
	}
	/* CP1251 or CP1252 from the names (the option charset-detect=no turns it off; a read
	 * error leaves CP1252). Russian bases are common and read as mojibake otherwise. */
	if (detect_charset(s) != GAMEDB_OK)
		s->ctx.detected = NULL;
	gamedb__clear_error(r);
	/* One warning: what the header hides, the files missing, the teams not linked. */
	msg[0] = 0;
	if (more)
		snprintf(msg, sizeof msg, "offset 6: the header counts %u records, the file holds %u: "
			 "all %u are read", said, s->nrec, s->nrec);
	else if (rc == GAMEDB_WARN && !notes.len)
		snprintf(msg, sizeof msg, "offset 6: index truncated: the file holds %u records",
			 s->nrec);
	if (notes.len) {
		size_t n = strlen(msg);
		snprintf(msg + n, sizeof msg - n, "%s%smissing or unusable: %s (names from them read as \"?\", teams are left out)",
			 n ? "; " : "", rc == GAMEDB_WARN ? "offset 6: index truncated; " : "",
			 notes.p);
		gamedb__buf_free(&notes);
	}
	if (msg[0] || cbj[0])
		return gamedb__error(r, GAMEDB_WARN,
				     rc == GAMEDB_WARN || more ? GAMEDB_E_CORRUPT : GAMEDB_E_IO,
				     "%s: %s%s%s", s->cbh->name, msg, msg[0] && cbj[0] ? "; " : "",
				     cbj);
	return GAMEDB_OK;
fail:
	gamedb__buf_free(&notes);
	cb_close(s);
	*state = NULL;
	return GAMEDB_FATAL;
}

static void cb_close(void *state)
{
	struct cbh *s = state;

	if (!s)
		return;
	gamedb__cbg_ctx_free(&s->ctx);
	free(s->texts);
	free(s->handle.title);
	gamedb__buf_free(&s->handle.titles);
	gamedb__buf_free(&s->handle.content);
	free(s);
}

/* ---- names ----------------------------------------------------------------------------- */

enum { ENT_OK = 0, ENT_ABSENT = 1, ENT_BAD = 2, ENT_IOERR = -1 };

/*
 * Copies the payload of entity id of type t into out (ENT_COPY bytes, zero-filled beyond the
 * record, so that a shorter record size reads as empty fields). ENT_OK; ENT_ABSENT when the
 * file is absent; ENT_BAD for an id out of range or a deleted entity; ENT_IOERR (error set).
 */
static int ent_get(struct cbh *s, int t, uint32_t id, uint8_t out[ENT_COPY])
{
	struct ent_file *e = &s->ent[t];
	const uint8_t *p;
	size_t len;
	int64_t got;

	memset(out, 0, ENT_COPY);
	if (!e->f)
		return ENT_ABSENT;
	if (id >= e->count)
		return ENT_BAD;
	len = ENT_NODE + (e->payload < ENT_COPY ? e->payload : ENT_COPY);
	got = gamedb__file_view(e->f, e->hdr + (uint64_t)id * (e->payload + ENT_NODE), len, &p);
	if (got < 0)
		return ENT_IOERR;
	if ((size_t)got != len)
		return ENT_BAD;
	if (gamedb__le32(p) == ENT_DELETED)
		return ENT_BAD;
	memcpy(out, p + ENT_NODE, len - ENT_NODE);
	return ENT_OK;
}

/* Per-game state of next_game(): which names were bad, for one warning per game. */
struct hdr_ctx {
	struct cbh *s;
	struct gamedb_game *g;
	uint64_t off;
	char bad[64];
	char lost[ENT_TYPES][48]; /* by name file: the tags not read because it is absent */
	int cbj_cut;              /* the game's .cbj record is past the end of a cut .cbj */
};

/* The game points into name file t, which is absent: its tag `what` is not read. */
static void mark_lost(struct hdr_ctx *h, int t, const char *what)
{
	char *l = h->lost[t];
	size_t n = strlen(l);

	if (t == ENT_TOURNAMENT)
		what = "Event, Site and the tournament's other tags";
	if (n + strlen(what) + 3 >= sizeof h->lost[t])
		return;
	snprintf(l + n, sizeof h->lost[t] - n, "%s%s", n ? ", " : "", what);
}

/*
 * The game's warning for names and teams it lost (lost) and bad ids (bad): the reader's
 * message and the game's own, which the writers report. WARN.
 */
static int32_t names_warning(struct hdr_ctx *h)
{
	struct cbh *s = h->s;
	char lost[320], file[96];
	size_t n = 0;
	int t;

	lost[0] = 0;
	for (t = 0; t < ENT_TYPES; t++) {
		if (!h->lost[t][0] || n >= sizeof lost)
			continue;
		sibling_name(s, ent_ext[t], file, sizeof file);
		n += (size_t)snprintf(lost + n, sizeof lost - n, "%s%s not read: %s %s",
				      n ? "; " : "", h->lost[t], file, s->ent[t].why);
	}
	if (h->cbj_cut && n < sizeof lost) {
		sibling_name(s, ".cbj", file, sizeof file);
		snprintf(lost + n, sizeof lost - n, "%sWhiteTeam, BlackTeam not read: %s ends before "
			 "the game's record", n ? "; " : "", file);
	}
	if (h->bad[0] && lost[0])
		gamedb__game_seterr(h->g, "%s: offset %llu: game %llu: %s; a name id is out of range or deleted (%s): replaced by \"?\" or left out",
				    s->cbh->name, (unsigned long long)h->off,
				    (unsigned long long)h->g->index + 1, lost, h->bad);
	else if (lost[0])
		gamedb__game_seterr(h->g, "%s: offset %llu: game %llu: %s", s->cbh->name,
				    (unsigned long long)h->off, (unsigned long long)h->g->index + 1,
				    lost);
	else
		gamedb__game_seterr(h->g, "%s: offset %llu: game %llu: a name id is out of range or deleted (%s): replaced by \"?\" or left out",
				    s->cbh->name, (unsigned long long)h->off,
				    (unsigned long long)h->g->index + 1, h->bad);
	/* The game's status says it: the writers then report the loss with the game. */
	h->g->text_status = GAMEDB_WARN;
	return gamedb__error(s->r, GAMEDB_WARN, GAMEDB_E_CORRUPT, "%s", h->g->errmsg);
}

static void mark_bad(struct hdr_ctx *h, const char *what)
{
	size_t n = strlen(h->bad), w = strlen(what);

	if (n + w + 3 >= sizeof h->bad)
		return;
	if (n)
		memcpy(h->bad + n, ", ", 2), n += 2;
	memcpy(h->bad + n, what, w + 1);
}

static int add_lit(struct gamedb_game *g, const char *tag, const char *value)
{
	return gamedb__tags_add(&g->head, tag, value, strlen(value), NULL, 0, NULL);
}

static int add_raw(struct hdr_ctx *h, const char *tag, const uint8_t *raw, size_t len)
{
	return gamedb__game_add_tag_raw(h->g, &h->g->head, tag, (const char *)raw, len,
					cb_charset(h->s)) == GAMEDB_FAILED ? -1 : 0;
}

/* Reads an entity for a tag: ENT_OK with out filled, else "?" cases noted. -1 on I/O error. */
static int fetch(struct hdr_ctx *h, int t, uint32_t id, uint8_t out[ENT_COPY], const char *what)
{
	int rc = ent_get(h->s, t, id, out);

	if (rc == ENT_IOERR)
		return -1;
	if (rc == ENT_BAD)
		mark_bad(h, what);
	else if (rc == ENT_ABSENT)
		mark_lost(h, t, what);
	return rc;
}

/* "Last, First", "Last", "First", or "?" when both are empty. */
static int player_tag(struct hdr_ctx *h, const char *tag, uint32_t id)
{
	uint8_t rec[ENT_COPY], name[64];
	size_t ll, fl, n = 0;
	int rc = fetch(h, ENT_PLAYER, id, rec, tag);

	if (rc < 0)
		return -1;
	if (rc != ENT_OK)
		return add_lit(h->g, tag, "?");
	ll = fixlen(rec, 30);
	fl = fixlen(rec + 30, 20);
	memcpy(name, rec, ll);
	n = ll;
	if (ll && fl) {
		name[n++] = ',';
		name[n++] = ' ';
	}
	memcpy(name + n, rec + 30, fl);
	n += fl;
	if (n == 0)
		return add_lit(h->g, tag, "?");
	return add_raw(h, tag, name, n);
}

/* A name-like field of an entity: its tag when not empty (or `unknown` when given). */
static int field_tag(struct hdr_ctx *h, const char *tag, const uint8_t *p, size_t max,
		     const char *unknown)
{
	size_t n = fixlen(p, max);

	if (n == 0)
		return unknown ? add_lit(h->g, tag, unknown) : 0;
	return add_raw(h, tag, p, n);
}

/* A stored date: year << 9 | month << 5 | day (12, 4 and 5 bits; 0 = unknown). */
static void cb_date(char *out, uint32_t d)
{
	gamedb__pgn_date(out, (d >> 9) & 0xFFF, (d >> 5) & 15, d & 31);
}

static const char *const event_types[9] = { NULL,   "game",  "match", "tourn", "swiss",
					    "team", "k.o.", "simul", "schev" };

/*
 * EventType in ChessBase's own PGN form: the pairing system, "team-" before it for a team
 * event, and the time control after it: "tourn", "team-swiss", "swiss (rapid)". out: room
 * for EVENT_TYPE_MAX bytes. Put together by hand, not by snprintf(): every game has one.
 */
#define EVENT_TYPE_MAX 24 /* "team-" + five letters + " (blitz)" + NUL */
static int event_type(uint32_t type, uint32_t team, char *out)
{
	const char *tc = (type & 0x20) ? " (blitz)" : (type & 0x40) ? " (rapid)"
						   : (type & 0x80) ? " (corr)" : "";
	size_t n;

	type &= 31;
	if (type == 0 || type > 8)
		return 0;
	if (team && type != 5) {
		memcpy(out, "team-", 5);
		out += 5;
	}
	n = strlen(event_types[type]);
	memcpy(out, event_types[type], n);
	memcpy(out + n, tc, strlen(tc) + 1);
	return 1;
}

static int tournament_tags(struct hdr_ctx *h, uint32_t id)
{
	uint8_t rec[ENT_COPY];
	int rc = fetch(h, ENT_TOURNAMENT, id, rec, "tournament");

	if (rc < 0)
		return -1;
	if (rc != ENT_OK)
		return add_lit(h->g, "Event", "?") || add_lit(h->g, "Site", "?") ? -1 : 0;
	if (field_tag(h, "Event", rec, 40, "?") || field_tag(h, "Site", rec + 40, 30, "?"))
		return -1;
	return 0;
}

/* The tournament tags that follow the Seven Tag Roster. */
static int tournament_extra_tags(struct hdr_ctx *h, uint32_t id)
{
	uint8_t rec[ENT_COPY];
	char buf[40];
	uint32_t date;

	if (ent_get(h->s, ENT_TOURNAMENT, id, rec) != ENT_OK)
		return 0; /* reported with Event already */
	date = gamedb__le32(rec + 70) & 0xFFFFFF;
	if (date) {
		cb_date(buf, date);
		if (add_lit(h->g, "EventDate", buf))
			return -1;
	}
	_Static_assert(sizeof buf >= EVENT_TYPE_MAX, "no room for EventType");
	if (event_type(rec[74], rec[75] & 1, buf) && add_lit(h->g, "EventType", buf))
		return -1;
	if (nation_code(rec[76], buf) && add_lit(h->g, "EventCountry", buf))
		return -1;
	return 0;
}

static int simple_entity_tag(struct hdr_ctx *h, int t, uint32_t id, const char *tag, size_t max)
{
	uint8_t rec[ENT_COPY];
	int rc = fetch(h, t, id, rec, tag);

	if (rc < 0)
		return -1;
	if (rc != ENT_OK)
		return 0;
	return field_tag(h, tag, rec, max, NULL);
}

/* Where the game is: CBH offsets, or their 64-bit CBJ copies when the CBJ holds them. */
static int cbj_fields(struct cbh *s, uint32_t id, const uint8_t *rec, struct gamedb_game *g,
		      int64_t teams[2])
{
	const uint8_t *p;
	uint32_t cbg32 = gamedb__be32(rec + 1), cba32 = gamedb__be32(rec + 5);
	size_t len;
	int64_t got;

	g->loc[0] = cbg32;
	g->loc[1] = cba32;
	teams[0] = teams[1] = -1;
	if (!s->cbj || id > s->cbj_count)
		return 0;
	len = s->cbj_rec < 38 ? s->cbj_rec : 38;
	got = gamedb__file_view(s->cbj, CBJ_HEADER + (uint64_t)(id - 1) * s->cbj_rec, len, &p);
	if (got < 0)
		return -1;
	if (got != (int64_t)len)
		return 0;
	teams[0] = (int32_t)gamedb__be32(p);
	teams[1] = (int32_t)gamedb__be32(p + 4);
	/* Only a copy that agrees with the CBH in its low 32 bits is taken for the larger one. */
	if (len >= 20 && (uint32_t)gamedb__be64(p + 12) == cba32)
		g->loc[1] = gamedb__be64(p + 12);
	if (len >= 38 && (uint32_t)gamedb__be64(p + 30) == cbg32)
		g->loc[0] = gamedb__be64(p + 30);
	return 0;
}

/* The record id of game index i: games are the records that are not texts, in order. */
static uint32_t game_id(const struct cbh *s, uint32_t i)
{
	/* k = number of texts before the game: the first k with texts[k] - 1 - k > i. */
	uint32_t lo = 0, hi = s->ntexts;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (s->texts[mid] - 1 - mid > i)
			hi = mid;
		else
			lo = mid + 1;
	}
	return i + lo + 1;
}

/*
 * Reads the 46 bytes of record id into rec. OK, or `status` (FATAL while listing games, FAILED
 * elsewhere) with the error set.
 */
static int32_t read_record(struct cbh *s, uint32_t id, uint8_t rec[CBH_REC], int32_t status)
{
	const uint8_t *p;
	int64_t got = gamedb__file_view(s->cbh, (uint64_t)id * CBH_REC, CBH_REC, &p);

	memset(rec, 0, CBH_REC); /* defined on every path (GCC cannot tell it is unused then) */
	if (got < 0)
		return GAMEDB_FATAL;
	if (got != CBH_REC)
		return gamedb__error(s->r, status, GAMEDB_E_IO,
				     "%s: offset %llu: cannot read record %u", s->cbh->name,
				     (unsigned long long)id * CBH_REC, id);
	memcpy(rec, p, CBH_REC);
	return GAMEDB_OK;
}

/*
 * v in decimal at o, without a NUL ("%u"); the end. Not snprintf: three numbers a game
 * (Round, the Elos) cost as much as a game's tags otherwise (issue 32).
 */
static char *dec(char *o, unsigned v)
{
	char d[12];
	size_t n = 0;

	do {
		d[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*o++ = d[--n];
	return o;
}

static int32_t cb_next(void *state, struct gamedb_game *g)
{
	struct cbh *s = state;
	struct hdr_ctx h;
	uint8_t rec[CBH_REC];
	uint32_t id, date, eco, w, b, tid;
	int64_t teams[2];
	char buf[48];
	int32_t st;
	/* Results 3-7 keep their ChessBase form in CBResult (doc/formats/chessbase.md). */
	static const char *const results[9] = { "0-1", "1/2-1/2", "1-0", "*", "0-1",
						"1/2-1/2", "1-0", "*", "*" };
	static const char *const cb_results[9] = { NULL,  NULL,  NULL,  "line", "-:+",
						   "=:=", "+:-", "0-0", NULL };
	uint32_t res;
	int t;

	if (s->next >= s->ngames)
		return GAMEDB_END;
	id = game_id(s, s->next);
	g->index = s->next++;
	st = read_record(s, id, rec, GAMEDB_FATAL);
	if (st != GAMEDB_OK)
		return st;
	memset(&h, 0, sizeof h);
	res = rec[27] <= 7 ? rec[27] : 8;
	h.s = s;
	h.g = g;
	h.off = (uint64_t)id * CBH_REC;

	g->deleted = (rec[0] >> 7) & 1;
	g->fmt_flags = gamedb__be32(rec + 39);
	g->loc[2] = id;
	if (cbj_fields(s, id, rec, g, teams) != 0)
		return GAMEDB_FATAL;
	h.cbj_cut = s->cbj && id > s->cbj_count && id <= s->cbj_said;
	eco = gamedb__be16(rec + 35);
	if (eco >= CHESS960_ECO && (g->fmt_flags & (1u << 27)))
		g->variant = GAMEDB_VARIANT_CHESS960;

	w = gamedb__be24(rec + 9);
	b = gamedb__be24(rec + 12);
	tid = gamedb__be24(rec + 15);
	if (tournament_tags(&h, tid))
		goto fail;
	date = gamedb__be24(rec + 24);
	cb_date(buf, date);
	if (add_lit(g, "Date", buf))
		goto nomem;
	if (rec[29] == 0) {
		strcpy(buf, "?");
	} else if (rec[30] == 0) {
		*dec(buf, rec[29]) = 0;
	} else {
		char *o = dec(buf, rec[29]);
		*o++ = '.';
		*dec(o, rec[30]) = 0;
	}
	if (add_lit(g, "Round", buf) || player_tag(&h, "White", w) || player_tag(&h, "Black", b) ||
	    add_lit(g, "Result", results[res]))
		goto fail;
	if (gamedb__be16(rec + 31)) {
		*dec(buf, gamedb__be16(rec + 31)) = 0;
		if (add_lit(g, "WhiteElo", buf))
			goto nomem;
	}
	if (gamedb__be16(rec + 33)) {
		*dec(buf, gamedb__be16(rec + 33)) = 0;
		if (add_lit(g, "BlackElo", buf))
			goto nomem;
	}
	if (eco < CHESS960_ECO && (eco >> 7) >= 1 && (eco >> 7) <= 500) {
		uint32_t c = (eco >> 7) - 1;
		buf[0] = (char)('A' + c / 100);
		buf[1] = (char)('0' + c % 100 / 10);
		buf[2] = (char)('0' + c % 10);
		buf[3] = 0;
		if (add_lit(g, "ECO", buf))
			goto nomem;
	}
	if (simple_entity_tag(&h, ENT_ANNOTATOR, gamedb__be24(rec + 18), "Annotator", 45) ||
	    tournament_extra_tags(&h, tid) ||
	    simple_entity_tag(&h, ENT_SOURCE, gamedb__be24(rec + 21), "Source", 25))
		goto fail;
	if ((teams[0] >= 0 && simple_entity_tag(&h, ENT_TEAM, (uint32_t)teams[0], "WhiteTeam", 45)) ||
	    (teams[1] >= 0 && simple_entity_tag(&h, ENT_TEAM, (uint32_t)teams[1], "BlackTeam", 45)))
		goto fail;
	if (res == 8)
		mark_bad(&h, "result");
	if (cb_results[res] && add_lit(g, "CBResult", cb_results[res]))
		goto nomem;
	if (res == 3 && rec[28]) {
		snprintf(buf, sizeof buf, "$%u", rec[28]);
		if (add_lit(g, "CBLineEvaluation", buf))
			goto nomem;
	}
	/* A setup game's start position is in its .cbg record: read on demand (load_tags). */
	g->fen_pending = (g->fmt_flags & 1) != 0;
	if (h.bad[0] || h.cbj_cut)
		return names_warning(&h);
	for (t = 0; t < ENT_TYPES; t++)
		if (h.lost[t][0])
			return names_warning(&h);
	return GAMEDB_OK;
fail:
	if (s->r->errcode != GAMEDB_E_NONE && s->r->errcode != GAMEDB_E_NOMEM)
		return GAMEDB_FATAL; /* an I/O error, set by the I/O layer */
nomem:
	return gamedb__error(s->r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
}

static int32_t cb_seek(void *state, uint64_t index)
{
	struct cbh *s = state;

	if (index >= s->ngames)
		return gamedb__error(s->r, GAMEDB_FAILED, GAMEDB_E_RANGE,
				     "gamedb_reader_seek_game: game %llu of %u",
				     (unsigned long long)index, s->ngames);
	s->next = (uint32_t)index;
	return GAMEDB_OK;
}

static int32_t cb_count(void *state, uint64_t *out)
{
	*out = ((struct cbh *)state)->ngames;
	return GAMEDB_OK;
}

/* Only a setup game (annotation flag bit 0) has tags beyond the index: SetUp and FEN. */
static int cb_tag_surely_absent(void *state, const struct gamedb_game *g, const char *name)
{
	(void)state;
	if (g->fmt_flags & 1)
		return strcmp(name, "FEN") != 0 && strcmp(name, "SetUp") != 0 &&
		       strcmp(name, "Variant") != 0;
	return 1;
}

static int32_t cb_load_tags(void *state, struct gamedb_game *g)
{
	struct cbh *s = state;
	int32_t st;
	int mode;

	if (!(g->fmt_flags & 1))
		return GAMEDB_OK;
	st = gamedb__cbg_read_setup(&s->ctx, g, &mode);
	if (st != GAMEDB_OK && st != GAMEDB_WARN) {
		if (!g->errmsg[0])
			gamedb__game_seterr(g, "%s: offset %llu: game %llu: cannot read the start position",
					    s->ctx.cbg->name, (unsigned long long)g->loc[0],
					    (unsigned long long)g->index + 1);
		gamedb__error(s->r, GAMEDB_FAILED, GAMEDB_E_CORRUPT, "%s", g->errmsg);
		return GAMEDB_FAILED;
	}
	/* WARN: the board without the castling rights (bad Chess960 squares): lossy, said so. */
	if (st == GAMEDB_WARN)
		g->text_status = GAMEDB_WARN;
	/*
	 * Chess960 (a 960 position number in the index, or moves stored in mode 10 or 11): as
	 * ChessBase and lichess tag it. The variant itself is the index's (fixed at next_game).
	 */
	if (g->have_start && (g->variant == GAMEDB_VARIANT_CHESS960 || mode == 10 || mode == 11) &&
	    gamedb__tags_add(&g->extra, "Variant", "Chess960", 8, NULL, 0, NULL) != 0)
		return GAMEDB_FAILED;
	if (g->have_start &&
	    (gamedb__tags_add(&g->extra, "SetUp", "1", 1, NULL, 0, NULL) != 0 ||
	     gamedb__tags_add(&g->extra, "FEN", g->fen, strlen(g->fen), NULL, 0, NULL) != 0))
		return GAMEDB_FAILED;
	return st;
}

static int32_t cb_decode(void *state, struct gamedb_game *g, struct gamedb__movebuf *mb)
{
	struct cbh *s = state;
	const uint8_t *rec;

	/* The CBH main-line move count tells the end of a game that lacks its final marker. */
	s->ctx.mainline_moves = -1;
	if (g->loc[2] >= 1 && g->loc[2] <= s->nrec &&
	    gamedb__file_view(s->cbh, g->loc[2] * CBH_REC, CBH_REC, &rec) == CBH_REC)
		s->ctx.mainline_moves = rec[45];
	return gamedb__cbg_decode(&s->ctx, g, mb);
}

/* ---- charset detection ----------------------------------------------------------------- */

/* CP1251 or CP1252 by the text layer's vote (text/detect.c) over names and text titles. */
static const uint8_t ent_fields[ENT_TYPES][2][2] = {
	/* offset, size of up to two text fields of each entity type */
	{ { 0, 30 }, { 30, 20 } }, /* player: last, first name */
	{ { 0, 40 }, { 40, 30 } }, /* tournament: title, place */
	{ { 0, 45 }, { 0, 0 } },   /* annotator */
	{ { 0, 25 }, { 25, 16 } }, /* source: title, publisher */
	{ { 0, 45 }, { 0, 0 } },   /* team */
};

/*
 * A cursor c over the guiding-text record at off in the .cbg (a flags byte, a 3-byte length
 * counting these 4 bytes, then the text's header, titles and contents), set past those 4
 * bytes. NULL, or why the record cannot be read.
 */
static const char *text_record(struct cbh *s, uint64_t off, struct gamedb__cur *c)
{
	uint32_t len;

	if (gamedb__cur_view(c, s->ctx.cbg, off, 4) != 4)
		return "record past the end of the file";
	len = gamedb__be24(c->p + 1);
	if (len < 8)
		return "record shorter than its header";
	if (gamedb__cur_view(c, s->ctx.cbg, off, len) != (int64_t)len)
		return "record runs past the end of the file";
	c->pos = 4;
	return NULL;
}

/* Feeds the titles of guiding text id to the votes; problems just end the sample. */
static void vote_text(struct cbh *s, uint32_t id, struct gamedb__charset_votes *v)
{
	uint8_t rec[CBH_REC];
	struct gamedb__cur c;
	uint32_t n, k;

	if (read_record(s, id, rec, GAMEDB_FAILED) != GAMEDB_OK ||
	    text_record(s, gamedb__be32(rec + 1), &c) != NULL)
		return;
	gamedb__cur_skip(&c, 2); /* the text's format */
	n = gamedb__cur_le16(&c);
	for (k = 0; k < n; k++) {
		const uint8_t *t;
		uint32_t tl;
		gamedb__cur_skip(&c, 2); /* the title's language */
		tl = gamedb__cur_le16(&c);
		t = gamedb__cur_take(&c, tl);
		if (gamedb__cur_failed(&c))
			return;
		gamedb__charset_vote(v, t, tl);
	}
}

static int32_t detect_charset(struct cbh *s)
{
	struct gamedb__charset_votes v = { 0, 0 };
	uint8_t rec[ENT_COPY];
	uint32_t id, k;
	int t, f;

	for (t = 0; t < ENT_TYPES; t++) {
		for (id = 0; id < s->ent[t].count; id++) {
			int rc = ent_get(s, t, id, rec);
			if (rc == ENT_IOERR)
				return GAMEDB_FAILED;
			if (rc != ENT_OK)
				continue;
			for (f = 0; f < 2; f++)
				if (ent_fields[t][f][1]) {
					const uint8_t *fp = rec + ent_fields[t][f][0];
					gamedb__charset_vote(&v, fp, fixlen(fp, ent_fields[t][f][1]));
				}
		}
	}
	/* Names alone can be all ASCII while the base's texts are not: their titles count too. */
	for (k = 0; k < s->ntexts && k < DETECT_MAX_TEXTS; k++)
		vote_text(s, s->texts[k], &v);
	gamedb__clear_error(s->r);
	s->ctx.detected = gamedb__charset_choose(&v, "CP1252");
	return GAMEDB_OK;
}

static int32_t cb_set_option(void *state, const char *key, const char *value)
{
	struct cbh *s = state;

	if (strcmp(key, "language") == 0) {
		int code;
		if (!value || !*value || strcmp(value, "all") == 0) {
			s->ctx.language = -1;
			return GAMEDB_OK;
		}
		code = gamedb__language_code(value);
		if (code < 0)
			return gamedb__error(s->r, GAMEDB_FAILED, GAMEDB_E_INVALID_ARGUMENT,
					     "option language: \"%s\" is not a ChessBase text language (en, de, fr, es, it, nl, pl, pt or all)",
					     value);
		s->ctx.language = code;
		return GAMEDB_OK;
	}
	if (strcmp(key, "charset-detect") == 0) {
		if (value && (strcmp(value, "yes") == 0 || strcmp(value, "1") == 0 ||
			      strcmp(value, "true") == 0))
			return detect_charset(s);
		if (!value || strcmp(value, "no") == 0 || strcmp(value, "0") == 0 ||
		    strcmp(value, "false") == 0) {
			s->ctx.detected = NULL;
			return GAMEDB_OK;
		}
		return gamedb__error(s->r, GAMEDB_FAILED, GAMEDB_E_INVALID_ARGUMENT,
				     "option charset-detect: \"%s\" is neither yes nor no", value);
	}
	return GAMEDB_WARN;
}

static void *cb_handle(void *state)
{
	return &((struct cbh *)state)->handle;
}

static const char *const cb_extensions[] = {
	".cbh", ".cbg", ".cba", ".cbp", ".cbt", ".cbc", ".cbs", ".cbe", ".cbj", NULL
};

static const struct gamedb__format_option cb_options[] = {
	{ "language", "all",
	  "keep annotation texts in one language (en, de, fr, es, it, nl, pl, pt) and those in none" },
	{ "charset-detect", "yes", "choose CP1251 or CP1252 from the name tables (yes/no)" },
	{ NULL, NULL, NULL },
};

const struct gamedb__format gamedb__format_chessbase = {
	.abi = GAMEDB__FORMAT_ABI_1,
	.name = "chessbase",
	.description = "ChessBase bases (ChessBase 6 and later, Fritz)",
	.extensions = cb_extensions,
	.opens = 1,
	.options = cb_options,
	.caps = GAMEDB_CAP_SEEK | GAMEDB_CAP_COUNT | GAMEDB_CAP_MULTIFILE | GAMEDB_CAP_VARIATIONS,
	.default_charset = "CP1252",
	.default_fallback = "CP1252",
	.bid = cb_bid,
	.open = cb_open,
	.set_option = cb_set_option,
	.next_game = cb_next,
	.seek_game = cb_seek,
	.game_count = cb_count,
	.load_tags = cb_load_tags,
	.tag_surely_absent = cb_tag_surely_absent,
	.decode_moves = cb_decode,
	.handle = cb_handle,
	.close = cb_close,
};

/* ---- the public ChessBase handle ------------------------------------------------------- */

GAMEDB_EXPORT struct gamedb_chessbase *gamedb_reader_get_chessbase(struct gamedb_reader *r)
{
	return gamedb__reader_handle(r, &gamedb__format_chessbase);
}

GAMEDB_EXPORT int64_t gamedb_chessbase_get_game_field(struct gamedb_chessbase *cb,
						      const struct gamedb_game *g, int32_t field)
{
	struct cbh *s;
	uint8_t rec[CBH_REC], trec[ENT_COPY];
	uint32_t eco;
	int trc;

	if (!cb || !g || g->magic != GAMEDB__GAME_MAGIC)
		return -1;
	s = cb->s;
	/* A game of this reader, or a copy of one (gamedb_game_dup() keeps where it was). */
	if ((g->reader && g->reader != s->r) || g->loc[2] < 1 || g->loc[2] > s->nrec ||
	    read_record(s, (uint32_t)g->loc[2], rec, GAMEDB_FAILED) != GAMEDB_OK || (rec[0] & 2))
		return -1;
	switch (field) {
	case GAMEDB_CB_RECORD_FLAGS:
		return rec[0];
	case GAMEDB_CB_MEDALS:
		return gamedb__be16(rec + 37);
	case GAMEDB_CB_ANNOTATION_FLAGS:
		return gamedb__be32(rec + 39);
	case GAMEDB_CB_MAGNITUDE:
		return gamedb__be16(rec + 43);
	case GAMEDB_CB_LINE_EVALUATION:
		return rec[27] == 3 ? rec[28] : 0;
	case GAMEDB_CB_SUB_ECO:
		eco = gamedb__be16(rec + 35);
		return eco < CHESS960_ECO && (eco >> 7) ? (eco & 127) : 0;
	case GAMEDB_CB_MAINLINE_MOVES:
		return rec[45];
	case GAMEDB_CB_ENCODING_MODE: {
		const uint8_t *p;
		return gamedb__file_view(s->ctx.cbg, g->loc[0], 1, &p) == 1 ? (p[0] & 0x3F) : -1;
	}
	case GAMEDB_CB_TOURNAMENT_TYPE:
	case GAMEDB_CB_TOURNAMENT_CATEGORY:
	case GAMEDB_CB_TOURNAMENT_ROUNDS:
	case GAMEDB_CB_TOURNAMENT_FLAGS:
	case GAMEDB_CB_TOURNAMENT_NATION:
		trc = ent_get(s, ENT_TOURNAMENT, gamedb__be24(rec + 15), trec);
		if (trc == ENT_IOERR)
			return -1;
		if (trc != ENT_OK)
			return 0;
		switch (field) {
		case GAMEDB_CB_TOURNAMENT_TYPE:
			return trec[74];
		case GAMEDB_CB_TOURNAMENT_CATEGORY:
			return trec[78];
		case GAMEDB_CB_TOURNAMENT_ROUNDS:
			return trec[80];
		case GAMEDB_CB_TOURNAMENT_FLAGS:
			return trec[79] | (int64_t)(trec[75] & 1) << 8;
		default:
			return trec[76];
		}
	default:
		return -1;
	}
}

GAMEDB_EXPORT const char *gamedb_chessbase_get_charset(const struct gamedb_chessbase *cb)
{
	return cb ? cb_charset(cb->s) : NULL;
}

GAMEDB_EXPORT uint64_t gamedb_chessbase_get_text_count(const struct gamedb_chessbase *cb)
{
	return cb ? cb->s->ntexts : 0;
}

/* 1 if an HTML text says it is UTF-8 (ChessBase 16 writes <meta charset="utf-8">). */
static int html_says_utf8(const uint8_t *p, uint32_t n)
{
	static const char key[] = "charset=";
	uint32_t i, k, lim = n < 2048 ? n : 2048;

	for (i = 0; i + sizeof key - 1 <= lim; i++) {
		for (k = 0; k < sizeof key - 1 && (p[i + k] | 0x20) == (uint8_t)key[k]; k++)
			;
		if (k < sizeof key - 1)
			continue;
		k = i + (uint32_t)sizeof key - 1;
		if (k < n && (p[k] == '"' || p[k] == '\''))
			k++;
		return n - k >= 5 && (p[k] | 0x20) == 'u' && (p[k + 1] | 0x20) == 't' &&
		       (p[k + 2] | 0x20) == 'f' && p[k + 3] == '-' && p[k + 4] == '8';
	}
	return 0;
}

static int32_t text_corrupt(struct cbh *s, uint64_t off, const char *what)
{
	return gamedb__error(s->r, GAMEDB_FAILED, GAMEDB_E_CORRUPT, "%s: offset %llu: guiding text: %s",
			     s->ctx.cbg->name, (unsigned long long)off, what);
}

/* Guiding text i (0-based) ends before the part `what` it announces. */
static int32_t text_short(struct cbh *s, const struct gamedb__cur *c, uint64_t i, const char *what)
{
	char msg[320];

	return gamedb__error(s->r, GAMEDB_FAILED, GAMEDB_E_CORRUPT, "%s",
			     gamedb__cur_message(c, msg, sizeof msg, "guiding text %llu: %s",
						 (unsigned long long)i + 1, what));
}

GAMEDB_EXPORT int32_t gamedb_chessbase_load_text(struct gamedb_chessbase *cb, uint64_t i)
{
	struct cbh *s;
	struct gamedb_reader *r;
	uint8_t rec[CBH_REC];
	const uint8_t *p, *b;
	struct gamedb__cur c;
	uint64_t off;
	uint32_t n, k, nc, best_lang = 0, best_len = 0;
	const uint8_t *best = NULL;
	int32_t status = GAMEDB_OK, st;
	const char *cs, *want, *why;

	if (!cb)
		return GAMEDB_FAILED;
	s = cb->s;
	r = s->r;
	cb->loaded = 0;
	cb->ntitles = 0;
	cb->have_content = 0;
	gamedb__buf_clear(&cb->titles);
	gamedb__buf_clear(&cb->content);
	if (i >= s->ntexts)
		return gamedb__error(r, GAMEDB_FAILED, GAMEDB_E_RANGE,
				     "gamedb_chessbase_load_text: text %llu of %u",
				     (unsigned long long)i, s->ntexts);
	st = read_record(s, s->texts[i], rec, GAMEDB_FAILED);
	if (st != GAMEDB_OK)
		return GAMEDB_FAILED;
	off = gamedb__be32(rec + 1);
	if (s->cbj && s->texts[i] <= s->cbj_count && s->cbj_rec >= 38 &&
	    gamedb__file_view(s->cbj, CBJ_HEADER + (uint64_t)(s->texts[i] - 1) * s->cbj_rec + 30, 8,
			      &p) == 8 &&
	    (uint32_t)gamedb__be64(p) == off)
		off = gamedb__be64(p);
	why = text_record(s, off, &c);
	if (why)
		return text_corrupt(s, off, why);
	cb->format = (int32_t)gamedb__cur_le16(&c);
	n = gamedb__cur_le16(&c); /* the record holds these 4 bytes (text_record) */
	cs = cb_charset(s);
	for (k = 0; k < n; k++) {
		uint32_t lang, tl;
		b = gamedb__cur_take(&c, 4);
		if (!b)
			return text_short(s, &c, i, "title list");
		lang = gamedb__le16(b);
		tl = gamedb__le16(b + 2);
		b = gamedb__cur_take(&c, tl);
		if (!b)
			return text_short(s, &c, i, "title");
		if (gamedb__grow((void **)&cb->title, &cb->title_cap, (size_t)cb->ntitles + 1,
				 sizeof *cb->title) != 0)
			goto nomem;
		cb->title[cb->ntitles].off = (uint32_t)cb->titles.len;
		cb->title[cb->ntitles].lang = text_language_iso(lang);
		cb->ntitles++;
		st = gamedb__text_to_utf8(&r->text, cs, gamedb__reader_fallback(r), (const char *)b,
					  fixlen(b, tl), &cb->titles);
		if (st == GAMEDB_FAILED || gamedb__buf_putc(&cb->titles, 0) != 0)
			goto nomem;
		if (st == GAMEDB_WARN)
			status = GAMEDB_WARN;
	}
	/* The contents, one per language: the one in the language option's language is kept,
	 * else the first. */
	want = s->ctx.language >= 0 ? gamedb__language_iso((unsigned)s->ctx.language) : "";
	if (gamedb__cur_left(&c) >= 3) {
		b = gamedb__cur_take(&c, 3);
		nc = gamedb__le16(b + 1);
		for (k = 0; k < nc; k++) {
			uint32_t lang, tlen, flen;
			const uint8_t *text;
			if (cb->format == 1) {
				if (!(b = gamedb__cur_take(&c, 4)))
					goto truncated;
				lang = gamedb__le16(b);
				tlen = gamedb__le16(b + 2);
			} else if (cb->format == 2 || cb->format == 3) {
				if (!(b = gamedb__cur_take(&c, 6)))
					goto truncated;
				lang = gamedb__le16(b);
				tlen = gamedb__le32(b + 2);
			} else {
				break; /* a format we do not know: titles only */
			}
			if (!(text = gamedb__cur_take(&c, tlen)))
				goto truncated;
			if (cb->format == 3) {
				if (gamedb__cur_skip(&c, 4) != 0)
					goto truncated;
			} else {
				flen = cb->format == 1 ? gamedb__cur_le16(&c) : gamedb__cur_le32(&c);
				/* formatting runs: dropped */
				if (gamedb__cur_failed(&c) || gamedb__cur_skip(&c, flen) != 0)
					goto truncated;
			}
			if (!best || (*want && strcmp(text_language_iso(lang), want) == 0 &&
				      strcmp(text_language_iso(best_lang), want) != 0)) {
				best = text;
				best_len = tlen;
				best_lang = lang;
			}
		}
	}
	if (best) {
		best_len = (uint32_t)fixlen(best, best_len); /* text ends at a NUL, as tags do */
		if (cb->format == 3 && html_says_utf8(best, best_len) &&
		    gamedb__utf8_valid((const char *)best, best_len)) {
			if (gamedb__buf_append(&cb->content, best, best_len) != 0)
				goto nomem;
		} else {
			st = gamedb__text_to_utf8(&r->text, cs, gamedb__reader_fallback(r),
						  (const char *)best, best_len, &cb->content);
			if (st == GAMEDB_FAILED)
				goto nomem;
			if (st == GAMEDB_WARN)
				status = GAMEDB_WARN;
		}
		cb->have_content = 1;
	}
	cb->loaded = 1;
	if (status == GAMEDB_WARN)
		return gamedb__error(r, GAMEDB_WARN, GAMEDB_E_ENCODING,
				     "%s: offset %llu: guiding text %llu: text converted from %s with loss",
				     s->ctx.cbg->name, (unsigned long long)off,
				     (unsigned long long)i + 1, cs);
	return GAMEDB_OK;
truncated:
	cb->ntitles = 0;
	return text_short(s, &c, i, "contents");
nomem:
	cb->ntitles = 0;
	return gamedb__error(r, GAMEDB_FAILED, GAMEDB_E_NOMEM, "out of memory");
}

GAMEDB_EXPORT int32_t gamedb_chessbase_get_text_title_count(const struct gamedb_chessbase *cb)
{
	return cb && cb->loaded ? cb->ntitles : 0;
}

GAMEDB_EXPORT const char *gamedb_chessbase_get_text_title(const struct gamedb_chessbase *cb,
							  int32_t k, const char **language)
{
	if (language)
		*language = NULL;
	if (!cb || !cb->loaded || k < 0 || k >= cb->ntitles)
		return NULL;
	if (language)
		*language = cb->title[k].lang;
	return cb->titles.p + cb->title[k].off;
}

GAMEDB_EXPORT const char *gamedb_chessbase_get_text_content(const struct gamedb_chessbase *cb,
							    int32_t *format, size_t *len)
{
	if (format)
		*format = cb && cb->loaded ? cb->format : 0;
	if (len)
		*len = 0;
	if (!cb || !cb->loaded)
		return NULL;
	if (len)
		*len = cb->have_content ? cb->content.len : 0;
	return cb->have_content && cb->content.p ? cb->content.p : "";
}
