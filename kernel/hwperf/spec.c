/*
 * spec.c - parse and print event specifications (syntax in spec.h).
 *
 * Two passes over the text: items with an explicit "@I" (and "sig=") are
 * placed first, so that unnumbered events filling the free counters can
 * never take a slot that a later "@I" names.  On an R10000-shaped PMU the
 * slot of an unnumbered event decides its hardware counter, so there the
 * slots follow the placement engine `events` uses (reseat below).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "events/place.h"
#include "spec.h"

#define ITEM_MAX 96             /* longest item we accept */
#define DECIMAL 10
#define HEX 16

__attribute__((format(printf, 2, 3)))
static int fail(struct hwperf_reason *why, const char *fmt, ...)
{
	static const char prefix[] = "EINVAL: ";
	va_list ap;

	if (why) {
		memcpy(why->text, prefix, sizeof(prefix));
		va_start(ap, fmt);
		vsnprintf(why->text + sizeof(prefix) - 1,
		          sizeof(why->text) - (sizeof(prefix) - 1), fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

struct item {
	char text[ITEM_MAX];    /* the whole item, for messages */
	char buf[ITEM_MAX];     /* cut into parts */
};

static int digit_value(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + DECIMAL;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + DECIMAL;
	return -1;
}

/*
 * Whole-string unsigned number in base; no sign, no junk, nothing above
 * max.  Values stay below 2^60 while digits are added, so base <= 16 never
 * overflows 64 bits and no 64-bit division is needed (none on MIPS32).
 */
#define NUM_LIMIT_SHIFT 60

static int parse_num(const char *s, unsigned base, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	static const char hex_prefix[] = "0x";

	if (base == DECIMAL && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = HEX;
		s += sizeof(hex_prefix) - 1;
	}
	if (*s == '\0')
		return -EINVAL;
	for (; *s; s++) {
		int d = digit_value(*s);

		if (d < 0 || (unsigned)d >= base || (v >> NUM_LIMIT_SHIFT) != 0)
			return -EINVAL;
		v = v * base + (unsigned)d;
		if (v > max)
			return -EINVAL;
	}
	*out = v;
	return 0;
}

static int parse_modes(const char *s, uint32_t *modes)
{
	uint32_t m = 0;

	for (; *s; s++) {
		switch (*s) {
		case 'u': m |= PMU_MODE_U; break;
		case 'k': m |= PMU_MODE_K; break;
		case 's': m |= PMU_MODE_S; break;
		case 'x': m |= PMU_MODE_X; break;
		default:  return -EINVAL;
		}
	}
	*modes = m;
	return m ? 0 : -EINVAL;
}

static bool name_char_ok(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || ch == '-' || ch == '_' || ch == '.';
}

static char fold(char ch)
{
	if (ch >= 'A' && ch <= 'Z')
		return (char)(ch - 'A' + 'a');
	return ch == '_' ? '-' : ch;
}

bool hwperf_name_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (fold(*a) != fold(*b))
			return false;
	return *a == *b;
}

static bool is_raw(const char *name)
{
	if (name[0] != 'r' || name[1] == '\0')
		return false;
	for (const char *p = name + 1; *p; p++)
		if (digit_value(*p) < 0)
			return false;
	return true;
}

/* Mask of hardware counters that can count name (0: unknown). */
static uint32_t caps_counters(const struct pmu_caps *caps, const char *name)
{
	uint32_t m = 0;

	for (unsigned t = 0; t < caps->ntables && !m; t++)
		for (unsigned e = 0; e < caps->tables[t]->count; e++)
			if (hwperf_name_eq(caps->tables[t]->events[e].name, name))
				m |= caps->tables[t]->events[e].counters;
	return m;
}

static bool slot_free(const struct hwperf_control *ctl, unsigned i)
{
	const struct hwperf_event *ev = &ctl->ev[i];

	return ev->name[0] == '\0' && !(ev->flags & HWPERF_EV_RAW);
}

/* Lowest free virtual counter able to count the event, or -1. */
static int free_slot(const struct hwperf_control *ctl,
                     const struct pmu_caps *caps, uint32_t hwmask)
{
	unsigned spc = caps ? caps->slots_per_counter : 0;

	for (unsigned i = 0; i < HWPERF_NVCTR; i++)
		if (slot_free(ctl, i) && (!spc || (hwmask & (1u << (i / spc)))))
			return (int)i;
	return -1;
}

static int set_event(struct hwperf_event *ev, const char *name,
                     const struct item *it, struct hwperf_reason *why)
{
	uint64_t code;

	if (is_raw(name)) {
		if (parse_num(name + 1, HEX, UINT32_MAX, &code) < 0)
			return fail(why, "raw code too large in '%s'",
			                        it->text);
		ev->flags = HWPERF_EV_RAW;
		ev->code = (uint32_t)code;
		return 0;
	}
	if (name[0] == '\0' || strlen(name) >= HWPERF_NAME_MAX)
		return fail(why, "bad event name in '%s'", it->text);
	for (const char *p = name; *p; p++)
		if (!name_char_ok(*p))
			return fail(why, "bad character '%c' in event "
			                        "'%s'", *p, name);
	memcpy(ev->name, name, strlen(name) + 1);
	return 0;
}

static int parse_opt(struct hwperf_event *ev, const char *opt, bool *have_modes,
                     const struct item *it, struct hwperf_reason *why)
{
	static const char thresh_key[] = "thresh=";
	uint64_t n;

	if (strncmp(opt, thresh_key, sizeof(thresh_key) - 1) == 0) {
		const char *num = opt + sizeof(thresh_key) - 1;

		if (num[0] == '-')
			return fail(why, "negative threshold in '%s'",
			                        it->text);
		if (parse_num(num, DECIMAL, INT64_MAX, &n) < 0)
			return fail(why, "bad threshold '%s' in '%s'",
			                        num, it->text);
		ev->thresh = (int64_t)n;
		return 0;
	}
	if (*have_modes || parse_modes(opt, &ev->modes) < 0)
		return fail(why, "bad modes '%s' in '%s' (use u, k, "
		                        "s, x once)", opt, it->text);
	*have_modes = true;
	return 0;
}

/* NAME{:opt} into ev; the item's buffer is cut in place. */
static int parse_event(struct hwperf_event *ev, char *body, const struct item *it,
                       struct hwperf_reason *why)
{
	bool have_modes = false;
	char *opt = strchr(body, ':');
	int err;

	if (opt)
		*opt++ = '\0';
	if ((err = set_event(ev, body, it, why)) < 0)
		return err;
	while (opt) {
		char *next = strchr(opt, ':');

		if (next)
			*next++ = '\0';
		if ((err = parse_opt(ev, opt, &have_modes, it, why)) < 0)
			return err;
		opt = next;
	}
	if (!have_modes)
		ev->modes = PMU_MODE_U;
	return 0;
}

static int check_known(const struct hwperf_event *ev, const struct pmu_caps *caps,
                       const struct item *it, uint32_t *hwmask,
                       struct hwperf_reason *why)
{
	*hwmask = ~0u;
	if (!caps || (ev->flags & HWPERF_EV_RAW))
		return 0;
	*hwmask = caps_counters(caps, ev->name);
	if (!*hwmask)
		return fail(why, "unknown event '%s' in '%s' (pmu %s)",
		                        ev->name, it->text, caps->name);
	return 0;
}

static int parse_sig(struct hwperf_control *ctl, const char *num,
                     const struct item *it, struct hwperf_reason *why)
{
	uint64_t sig;

	if (parse_num(num, DECIMAL, HWPERF_SIG_MAX, &sig) < 0)
		return fail(why, "signal in '%s' is outside 0..%d",
		                        it->text, HWPERF_SIG_MAX);
	ctl->sig = (int)sig;
	return 0;
}

/* "@I=event..." (numbered pass) or "event..." (unnumbered pass). */
static int parse_item(struct hwperf_control *ctl, const struct pmu_caps *caps,
                      struct item *it, bool numbered_pass, int *seated,
                      struct hwperf_reason *why)
{
	static const char sig_key[] = "sig=";
	struct hwperf_event ev;
	char *body = it->buf;
	uint32_t hwmask;
	uint64_t idx;
	int slot, err;

	if (strncmp(body, sig_key, sizeof(sig_key) - 1) == 0)
		return numbered_pass ?
		       parse_sig(ctl, body + sizeof(sig_key) - 1, it, why) : 0;
	if ((body[0] == '@') != numbered_pass)
		return 0;
	memset(&ev, 0, sizeof(ev));
	if (numbered_pass) {
		char *eq = strchr(body, '=');

		if (!eq)
			return fail(why, "missing '=' in '%s'", it->text);
		*eq = '\0';
		if (parse_num(body + 1, DECIMAL, HWPERF_NVCTR - 1, &idx) < 0)
			return fail(why, "counter index in '%s' is "
			                        "outside 0..%d", it->text,
			                        HWPERF_NVCTR - 1);
		body = eq + 1;
	}
	if ((err = parse_event(&ev, body, it, why)) < 0 ||
	    (err = check_known(&ev, caps, it, &hwmask, why)) < 0)
		return err;
	if (numbered_pass) {
		if (!slot_free(ctl, (unsigned)idx))
			return fail(why, "counter %u given twice in "
			                        "'%s'", (unsigned)idx, it->text);
		slot = (int)idx;
	} else if ((slot = free_slot(ctl, caps, hwmask)) < 0) {
		return fail(why, "no free counter for '%s' (at most "
		                        "%d events)", it->text, HWPERF_NVCTR);
	} else {
		*seated = slot;
	}
	ctl->ev[slot] = ev;
	return 0;
}

static void trim_copy(struct item *it, const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	memcpy(it->text, s, n);
	it->text[n] = '\0';
	memcpy(it->buf, it->text, n + 1);
}

/* The slots unnumbered items took, in the order of the text. */
struct seats {
	uint8_t slot[HWPERF_NVCTR];
	unsigned n;
};

static int parse_pass(const char *spec, const struct pmu_caps *caps,
                      struct hwperf_control *ctl, bool numbered_pass,
                      struct seats *st, struct hwperf_reason *why)
{
	const char *p = spec;

	for (;;) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		struct item it;
		int seated = -1;
		int err;

		if (n >= ITEM_MAX)
			return fail(why, "item too long at '%.20s...'",
			                        p);
		trim_copy(&it, p, n);
		if (it.text[0] == '\0')
			return fail(why, "empty item in '%s'", spec);
		if ((err = parse_item(ctl, caps, &it, numbered_pass, &seated,
		                      why)) < 0)
			return err;
		if (seated >= 0)
			st->slot[st->n++] = (uint8_t)seated;
		if (!end)
			return 0;
		p = end + 1;
	}
}

/*
 * Give the unnumbered events of an R10000-shaped PMU the counters the
 * placement engine gives them -- what `events` says for the same list --
 * with the numbered events keeping theirs and going first: so
 * "cycles,cycles" takes @0 and @16, one on each counter, not @0 and @1
 * sharing counter 0.  In the order of the text each takes the lowest free
 * slot of its counter; one the set has no room for (it will be
 * multiplexed) the lowest free slot that can count it, as before.
 */
static int reseat(struct hwperf_control *ctl, const struct pmu_caps *caps,
                  const struct seats *st, struct hwperf_reason *why)
{
	/* Too big for a kernel stack; the console runs one command at a
	 * time, and the user library one thread. */
	static struct ev_place pl;
	static struct hwperf_event item[HWPERF_NVCTR];
	unsigned spc = caps->slots_per_counter;
	uint32_t width = (uint32_t)pmu_width_mask(caps->ncounters);
	unsigned idx = st->n;

	memset(&pl, 0, sizeof(pl));
	for (unsigned k = 0; k < caps->ncounters; k++)
		if (caps->counter[k].fixed)
			pl.fixed |= 1u << k;
	for (unsigned k = 0; k < st->n; k++) {
		item[k] = ctl->ev[st->slot[k]];
		memset(&ctl->ev[st->slot[k]], 0, sizeof(ctl->ev[0]));
		pl.mask[k] = (item[k].flags & HWPERF_EV_RAW ? ~0u :
		              caps_counters(caps, item[k].name)) & width;
		pl.rank[k] = 1;
		pl.want |= 1u << k;
	}
	for (unsigned i = 0; i < HWPERF_NVCTR; i++)
		if (!slot_free(ctl, i)) {
			pl.mask[idx] = (1u << (i / spc)) & width;
			pl.want |= 1u << idx++;
		}
	events_place(&pl);
	for (unsigned k = 0; k < st->n; k++) {
		uint32_t able = pl.hw[k] == EV_PLACE_NONE ? pl.mask[k] :
		                1u << pl.hw[k];
		int slot = free_slot(ctl, caps, able);

		if (slot < 0)
			return fail(why, "no free counter for '%s' (at most "
			            "%u events on one counter)", item[k].name, spc);
		ctl->ev[slot] = item[k];
	}
	return 0;
}

int hwperf_spec_parse(const char *spec, const struct pmu_caps *caps,
                      struct hwperf_control *ctl, struct hwperf_reason *why)
{
	struct seats st = { .n = 0 };
	int err;

	memset(ctl, 0, sizeof(*ctl));
	if (!spec || spec[0] == '\0')
		return fail(why, "no events given");
	if ((err = parse_pass(spec, caps, ctl, true, &st, why)) < 0 ||
	    (err = parse_pass(spec, caps, ctl, false, &st, why)) < 0)
		return err;
	if (caps && caps->slots_per_counter && st.n &&
	    (err = reseat(ctl, caps, &st, why)) < 0)
		return err;
	for (unsigned i = 0; i < HWPERF_NVCTR; i++)
		if (!slot_free(ctl, i))
			return 0;
	return fail(why, "no events given in '%s'", spec);
}

void hwperf_modes_str(uint32_t modes, char *buf, size_t len)
{
	static const struct { uint32_t bit; char ch; } letters[] = {
		{ PMU_MODE_U, 'u' }, { PMU_MODE_K, 'k' },
		{ PMU_MODE_S, 's' }, { PMU_MODE_X, 'x' },
	};
	size_t n = 0;

	for (size_t i = 0; i < sizeof(letters) / sizeof(letters[0]); i++)
		if ((modes & letters[i].bit) && n + 1 < len)
			buf[n++] = letters[i].ch;
	if (len)
		buf[n < len ? n : len - 1] = '\0';
}

int hwperf_spec_format(const struct hwperf_control *ctl, char *buf, size_t len)
{
	size_t n = 0;

	for (unsigned i = 0; i < HWPERF_NVCTR; i++) {
		const struct hwperf_event *ev = &ctl->ev[i];
		char modes[8];
		char name[HWPERF_NAME_MAX];
		int w;

		if (slot_free(ctl, i))
			continue;
		if (ev->flags & HWPERF_EV_RAW)
			snprintf(name, sizeof(name), "r%x", (unsigned)ev->code);
		else
			snprintf(name, sizeof(name), "%s", ev->name);
		hwperf_modes_str(ev->modes, modes, sizeof(modes));
		if (ev->thresh)
			w = snprintf(buf + (n < len ? n : len),
			             n < len ? len - n : 0, "@%u=%s:%s:thresh=%lld,",
			             i, name, modes, (long long)ev->thresh);
		else
			w = snprintf(buf + (n < len ? n : len),
			             n < len ? len - n : 0, "@%u=%s:%s,", i, name,
			             modes);
		n += (size_t)(w > 0 ? w : 0);
	}
	n += (size_t)snprintf(buf + (n < len ? n : len), n < len ? len - n : 0,
	                      "sig=%d", ctl->sig);
	return (int)n;
}
