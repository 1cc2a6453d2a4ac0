/*
 * libgamedb - header filters (gamedb_query_add_where()): the forms of pgn-extract's tag
 * criteria, `TAG OP VALUE`, tested against a game's tags without decoding its moves.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "query/query.h"

/* The operators, longest spelling first so that "<=" is not read as "<". */
static const struct {
	const char *text;
	int op;
} ops[] = {
	{ "<>", GAMEDB__W_NE }, { "!=", GAMEDB__W_NE }, { "<=", GAMEDB__W_LE }, { ">=", GAMEDB__W_GE },
	{ "=", GAMEDB__W_EQ }, { "<", GAMEDB__W_LT }, { ">", GAMEDB__W_GT }, { "~", GAMEDB__W_CONTAINS },
};

static int is_name_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

int gamedb__where_parse(struct gamedb__where *w, const char *expr, char *err, size_t cap)
{
	const char *p = expr, *name, *v;
	size_t nlen, vlen, k;

	memset(w, 0, sizeof *w);
	while (*p == ' ' || *p == '\t')
		p++;
	name = p;
	while (is_name_char(*p))
		p++;
	nlen = (size_t)(p - name);
	if (nlen == 0) {
		snprintf(err, cap, "filter \"%.60s\": wants TAG OP VALUE (White~Carlsen, Date>=1995, "
			 "ECO=B90), starting with a tag name", expr);
		return -1;
	}
	if (nlen >= sizeof w->tag) {
		snprintf(err, cap, "filter \"%.60s\": the tag name is longer than %zu characters",
			 expr, sizeof w->tag - 1);
		return -1;
	}
	memcpy(w->tag, name, nlen);
	w->tag[nlen] = 0;
	while (*p == ' ' || *p == '\t')
		p++;
	for (k = 0; k < sizeof ops / sizeof ops[0]; k++)
		if (strncmp(p, ops[k].text, strlen(ops[k].text)) == 0)
			break;
	if (k == sizeof ops / sizeof ops[0]) {
		snprintf(err, cap, "filter \"%.60s\": after the tag %s comes one of = <> != < <= > >= ~",
			 expr, w->tag);
		return -1;
	}
	w->op = ops[k].op;
	p += strlen(ops[k].text);
	while (*p == ' ' || *p == '\t')
		p++;
	v = p;
	vlen = strlen(v);
	while (vlen && (v[vlen - 1] == ' ' || v[vlen - 1] == '\t'))
		vlen--;
	if (vlen >= 2 && v[0] == '"' && v[vlen - 1] == '"') {
		v++;
		vlen -= 2;
	}
	if (vlen == 0 && w->op != GAMEDB__W_EQ && w->op != GAMEDB__W_NE) {
		snprintf(err, cap, "filter \"%.60s\": no value to compare %s with", expr, w->tag);
		return -1;
	}
	w->value = malloc(vlen + 1);
	if (!w->value)
		return -2;
	memcpy(w->value, v, vlen);
	w->value[vlen] = 0;
	return 0;
}

/* A whole number (an optional sign, then digits, nothing else); 1 and *out, or 0. */
static int whole(const char *s, long long *out)
{
	const char *p = s + (*s == '-' || *s == '+');
	long long v = 0;

	if (!*p)
		return 0;
	for (; *p; p++) {
		if (*p < '0' || *p > '9' || v > 100000000000000LL)
			return 0;
		v = v * 10 + (*p - '0');
	}
	*out = *s == '-' ? -v : v;
	return 1;
}

static int is_date_tag(const char *tag)
{
	return strcmp(tag, "Date") == 0 || strcmp(tag, "EventDate") == 0 ||
	       strcmp(tag, "UTCDate") == 0;
}

/*
 * Compares the dates a and b field by field (year.month.day) over the fields b gives: -1, 0,
 * 1, or 2 when a field to compare is unknown in either ("??", missing).
 */
static int cmp_date(const char *a, const char *b)
{
	for (;;) {
		long long x, y;
		char fa[8], fb[8];
		size_t la = strcspn(a, "."), lb = strcspn(b, ".");
		if (lb == 0 || lb >= sizeof fb || la == 0 || la >= sizeof fa)
			return 2;
		memcpy(fa, a, la);
		fa[la] = 0;
		memcpy(fb, b, lb);
		fb[lb] = 0;
		if (!whole(fa, &x) || !whole(fb, &y))
			return 2;
		if (x != y)
			return x < y ? -1 : 1;
		a += la;
		b += lb;
		if (*b != '.')
			return 0;
		if (*a != '.')
			return 2;
		a++;
		b++;
	}
}

static int contains_nocase(const char *hay, const char *needle)
{
	size_t n = strlen(needle), i;

	for (; *hay; hay++) {
		for (i = 0; i < n; i++) {
			char a = hay[i], b = needle[i];
			if (a >= 'A' && a <= 'Z')
				a = (char)(a - 'A' + 'a');
			if (b >= 'A' && b <= 'Z')
				b = (char)(b - 'A' + 'a');
			if (!a || a != b)
				break;
		}
		if (i == n)
			return 1;
	}
	return n == 0;
}

/* Whether the value v of a tag passes w. */
static int test_value(const struct gamedb__where *w, const char *tag, const char *v)
{
	long long x, y;
	int c;

	if (!v)
		return w->op == GAMEDB__W_NE;
	if (w->op == GAMEDB__W_CONTAINS)
		return contains_nocase(v, w->value);
	if (is_date_tag(tag)) {
		c = cmp_date(v, w->value);
		if (c == 2)
			return 0; /* unknown: neither equal nor unequal */
	} else if (whole(v, &x) && whole(w->value, &y)) {
		c = x < y ? -1 : x > y;
	} else {
		c = strcmp(v, w->value);
		c = c < 0 ? -1 : c > 0;
	}
	switch (w->op) {
	case GAMEDB__W_EQ: return c == 0;
	case GAMEDB__W_NE: return c != 0;
	case GAMEDB__W_LT: return c < 0;
	case GAMEDB__W_LE: return c <= 0;
	case GAMEDB__W_GT: return c > 0;
	default: return c >= 0;
	}
}

int gamedb__where_test(const struct gamedb__where *w, struct gamedb_game *g)
{
	if (strcmp(w->tag, "Player") == 0) {
		/* either player (pgn-extract -Ta); not equal: neither is */
		int a = test_value(w, "White", gamedb_game_get_tag(g, "White"));
		int b = test_value(w, "Black", gamedb_game_get_tag(g, "Black"));
		return w->op == GAMEDB__W_NE ? a && b : a || b;
	}
	return test_value(w, w->tag, gamedb_game_get_tag(g, w->tag));
}
