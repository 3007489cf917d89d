/*
 * sample.c - the bounded ring of sample records and their two printed
 * forms (sample.h, docs/hwperf.md "Sample records").
 *
 * The ring is filled from the overflow path with the hwperf lock held and
 * read after the profiled task has ended, so it needs no lock of its own.
 * It keeps the first records and counts the rest as dropped: a reader
 * sees exactly how much of the run the records cover.
 */
#include <stdio.h>
#include <string.h>

#include "sample.h"

uint32_t hwperf_ring_capacity(size_t page_bytes, unsigned npages, uint32_t max)
{
	uint64_t n = (uint64_t)(page_bytes / sizeof(struct hwperf_sample)) * npages;

	return n < max ? (uint32_t)n : max;
}

void hwperf_ring_init(struct hwperf_ring *r, struct hwperf_sample **pages,
                      size_t page_bytes, uint32_t cap)
{
	r->pages = pages;
	r->per_page = (uint32_t)(page_bytes / sizeof(struct hwperf_sample));
	r->cap = r->per_page ? cap : 0;
	r->n = 0;
	r->dropped = 0;
}

struct hwperf_sample *hwperf_ring_next(struct hwperf_ring *r)
{
	struct hwperf_sample *s;

	if (r->n >= r->cap) {
		r->dropped++;
		return NULL;
	}
	s = &r->pages[r->n / r->per_page][r->n % r->per_page];
	r->n++;
	memset(s, 0, sizeof(*s));
	return s;
}

const struct hwperf_sample *hwperf_ring_get(const struct hwperf_ring *r, uint32_t i)
{
	if (i >= r->n)
		return NULL;
	return &r->pages[i / r->per_page][i % r->per_page];
}

/* snprintf that never runs past the end and keeps counting. */
static size_t add(char *buf, size_t len, size_t at, const char *fmt,
                  unsigned long long a)
{
	int n = snprintf(at < len ? buf + at : NULL, at < len ? len - at : 0, fmt, a);

	return at + (n > 0 ? (size_t)n : 0);
}

static size_t add_str(char *buf, size_t len, size_t at, const char *fmt,
                      const char *s)
{
	int n = snprintf(at < len ? buf + at : NULL, at < len ? len - at : 0, fmt, s);

	return at + (n > 0 ? (size_t)n : 0);
}

static size_t format_line(const struct hwperf_sample *s, const char *event,
                          char *buf, size_t len)
{
	size_t at = 0;

	at = add(buf, len, at, "sample pid=%lld", (long long)s->pid);
	at = add(buf, len, at, " cpu=%llu", s->cpu);
	at = add(buf, len, at, " cycles=%llu", (unsigned long long)s->cycles);
	at = add(buf, len, at, " vctr=%llu", s->vctr);
	at = add_str(buf, len, at, " event=%s", event);
	at = add(buf, len, at, " pc=%#llx", (unsigned long long)s->pc);
	at = add_str(buf, len, at, "%s", " chain=");
	if (s->depth == 0)
		at = add_str(buf, len, at, "%s", "-");
	for (unsigned i = 0; i < s->depth; i++)
		at = add(buf, len, at, i ? ",%#llx" : "%#llx",
		         (unsigned long long)s->chain[i]);
	if (s->flags & HWPERF_SAMPLE_TRUNC)
		at = add_str(buf, len, at, "%s", ",...");
	return at;
}

static size_t format_json(const struct hwperf_sample *s, const char *event,
                          char *buf, size_t len)
{
	size_t at = 0;

	at = add(buf, len, at, "{\"pid\":%lld", (long long)s->pid);
	at = add(buf, len, at, ",\"cpu\":%llu", s->cpu);
	at = add(buf, len, at, ",\"cycles\":%llu", (unsigned long long)s->cycles);
	at = add(buf, len, at, ",\"vctr\":%llu", s->vctr);
	/* Event names are spec syntax ([a-z0-9:=_@-]): nothing to escape. */
	at = add_str(buf, len, at, ",\"event\":\"%s\"", event);
	at = add(buf, len, at, ",\"pc\":\"%#llx\",\"chain\":[", (unsigned long long)s->pc);
	for (unsigned i = 0; i < s->depth; i++)
		at = add(buf, len, at, i ? ",\"%#llx\"" : "\"%#llx\"",
		         (unsigned long long)s->chain[i]);
	at = add_str(buf, len, at, "],\"truncated\":%s}",
	             (s->flags & HWPERF_SAMPLE_TRUNC) ? "true" : "false");
	return at;
}

int hwperf_sample_format(const struct hwperf_sample *s, const char *event,
                         bool json, char *buf, size_t len)
{
	size_t n = json ? format_json(s, event, buf, len) : format_line(s, event, buf, len);

	return (int)n;
}
