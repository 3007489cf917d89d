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

#include "events/events.h"
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

/* ---- names against a PMU's tables ---------------------------------------- */

/* Append "a, b, c" to buf, stopping with ", ..." before it overflows. */
static void list_add(char *buf, size_t len, const char *name)
{
	static const char more[] = ", ...";
	size_t n = strlen(buf);

	if (n >= sizeof(more) - 1 && strcmp(buf + n - (sizeof(more) - 1), more) == 0)
		return;
	if (n + strlen(name) + 2 + sizeof(more) >= len) {
		snprintf(buf + n, len - n, "%s", n ? more : more + 2);
		return;
	}
	snprintf(buf + n, len - n, "%s%s", n ? ", " : "", name);
}

/* Room for the list at the end of a reason. */
#define LIST_MAX 64

static bool listed_before(const struct pmu_event_table *tab, unsigned e)
{
	for (unsigned k = 0; k < e; k++)
		if (hwperf_name_eq(tab->events[k].name, tab->events[e].name))
			return true;
	return false;
}

static void list_events(const struct pmu_caps *caps, char *buf, size_t len)
{
	buf[0] = '\0';
	for (unsigned t = 0; t < caps->ntables; t++)
		for (unsigned e = 0; e < caps->tables[t]->count; e++)
			if (!listed_before(caps->tables[t], e))
				list_add(buf, len, caps->tables[t]->events[e].name);
}

static const struct ev_umask_set *umask_set_of(const struct pmu_caps *caps,
                                               const char *event)
{
	for (unsigned i = 0; i < caps->numask_sets; i++)
		if (hwperf_name_eq(caps->umask_sets[i].event, event))
			return &caps->umask_sets[i];
	return NULL;
}

static void list_umasks(const struct ev_umask_set *set, char *buf, size_t len)
{
	buf[0] = '\0';
	for (unsigned u = 0; set && u < set->count; u++)
		list_add(buf, len, set->umasks[u].name);
}

/* The fields the PMU has, for "it takes ..." (at most 40 bytes). */
static void list_fields(uint32_t fields, char *buf, size_t len)
{
	static const struct { uint32_t bit; const char *name; } names[] = {
		{ PMU_FIELD_EVSEL, "event" }, { PMU_FIELD_UMASK, "umask" },
		{ PMU_FIELD_CMASK, "cmask" }, { PMU_FIELD_INV, "inv" },
		{ PMU_FIELD_EDGE, "edge" },
	};

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (fields & names[i].bit)
			list_add(buf, len, names[i].name);
	if (!buf[0])
		snprintf(buf, len, "none of event, umask, cmask, inv, edge");
}

/* The first table holding the event wins; hwmask gathers its entries. */
static bool find_event(const struct pmu_caps *caps, const char *event,
                       struct hwperf_lookup *out)
{
	for (unsigned t = 0; t < caps->ntables; t++) {
		const struct pmu_event_table *tab = caps->tables[t];
		bool found = false;

		for (unsigned e = 0; e < tab->count; e++) {
			if (!hwperf_name_eq(tab->events[e].name, event))
				continue;
			if (!found) {
				out->table = (uint8_t)t;
				out->entry = (uint16_t)e;
				found = true;
			}
			out->hwmask |= tab->events[e].counters;
		}
		if (found)
			return true;
	}
	return false;
}

static bool find_umask(const struct ev_umask_set *set, const char *name,
                       uint32_t *bits)
{
	for (unsigned u = 0; set && u < set->count; u++)
		if (hwperf_name_eq(set->umasks[u].name, name)) {
			*bits |= set->umasks[u].bits;
			return true;
		}
	return false;
}

bool hwperf_has_umask(const struct pmu_caps *caps, const char *event,
                      const char *name)
{
	struct hwperf_lookup lk;
	char bare[HWPERF_NAME_MAX];
	uint32_t bits = 0;

	/* event may already carry unit masks: "inst-retired:any-p" */
	snprintf(bare, sizeof(bare), "%.*s", (int)strcspn(event, ":"), event);
	memset(&lk, 0, sizeof(lk));
	if (!caps || !find_event(caps, bare, &lk))
		return false;
	return find_umask(umask_set_of(caps, bare), name,
	                  &bits);
}

/* "counter mask" for PMU_FIELD_CMASK, and so on, for "pmu X has no ...". */
static const char *field_words(uint32_t field)
{
	switch (field) {
	case PMU_FIELD_EVSEL: return "event-select numbers";
	case PMU_FIELD_UMASK: return "unit masks";
	case PMU_FIELD_CMASK: return "counter mask";
	case PMU_FIELD_INV: return "invert bit";
	default: return "edge bit";
	}
}

static int check_fields(const struct pmu_caps *caps,
                        const struct hwperf_event *ev, const char *label,
                        bool named_umask, struct hwperf_reason *why)
{
	static const struct { uint32_t flag, field; const char *part; } map[] = {
		{ HWPERF_EV_EVSEL, PMU_FIELD_EVSEL, "event=" },
		{ HWPERF_EV_UMASK, PMU_FIELD_UMASK, "umask=" },
		{ HWPERF_EV_CMASK, PMU_FIELD_CMASK, "cmask=" },
		{ HWPERF_EV_INV, PMU_FIELD_INV, "inv" },
		{ HWPERF_EV_EDGE, PMU_FIELD_EDGE, "edge" },
	};
	char have[LIST_MAX];

	list_fields(caps->fields, have, sizeof(have));
	if (named_umask && !(caps->fields & PMU_FIELD_UMASK))
		return fail(why, "unit mask of %s: pmu %s has no unit masks; "
		            "it takes %s", label, caps->name, have);
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if ((ev->flags & map[i].flag) && !(caps->fields & map[i].field))
			return fail(why, "%s of %s: pmu %s has no %s; it takes "
			            "%s", map[i].part, label, caps->name,
			            field_words(map[i].field), have);
	if ((ev->flags & HWPERF_EV_CMASK) && ev->cmask > caps->cmask_max)
		return fail(why, "cmask=%u of %s: pmu %s counts masks 0..%u",
		            (unsigned)ev->cmask, label, caps->name,
		            (unsigned)caps->cmask_max);
	return 0;
}

/* Counters that are not tied to one event: where fields may be set. */
static uint32_t general_counters(const struct pmu_caps *caps)
{
	uint32_t m = 0;

	for (unsigned k = 0; k < caps->ncounters; k++)
		if (!caps->counter[k].fixed)
			m |= 1u << k;
	return m;
}

int hwperf_lookup(const struct pmu_caps *caps, const struct hwperf_event *ev,
                  struct hwperf_lookup *out, struct hwperf_reason *why)
{
	char buf[HWPERF_NAME_MAX];
	char list[LIST_MAX];
	const struct ev_umask_set *set;
	char *um, *next;
	size_t n = strnlen(ev->name, sizeof(ev->name));
	int err;

	memset(out, 0, sizeof(*out));
	if (ev->flags & HWPERF_EV_RAW) {
		out->hwmask = general_counters(caps);
		return check_fields(caps, ev, ev->flags & HWPERF_EV_EVSEL ?
		                    "cpu/../" : "raw code", false, why);
	}
	if (n == sizeof(ev->name))
		return fail(why, "event name longer than %d characters",
		            HWPERF_NAME_MAX - 1);
	memcpy(buf, ev->name, n + 1);
	um = strchr(buf, ':');
	if (um)
		*um++ = '\0';
	if (!find_event(caps, buf, out)) {
		list_events(caps, list, sizeof(list));
		return fail(why, "unknown event '%s' (pmu %s); %s has: %s", buf,
		            caps->name, caps->name, list);
	}
	if ((err = check_fields(caps, ev, buf, um != NULL, why)) < 0)
		return err;
	set = umask_set_of(caps, buf);
	list_umasks(set, list, sizeof(list));
	for (; um; um = next) {
		next = strchr(um, ':');
		if (next)
			*next++ = '\0';
		if (!set)
			return fail(why, "unit mask '%s': event %s takes none "
			            "(pmu %s)", um, buf, caps->name);
		if (!find_umask(set, um, &out->umask))
			return fail(why, "unit mask '%s' of %s: unknown; %s has: "
			            "%s", um, buf, buf, list);
		out->has_umask = true;
	}
	if (set && set->required && !out->has_umask)
		return fail(why, "event %s needs a unit mask; it has: %s", buf,
		            list);
	/* A fixed counter counts its one event, with no fields to set. */
	if (out->has_umask || (ev->flags & HWPERF_EV_FIELDS))
		out->hwmask &= general_counters(caps);
	return 0;
}

/* Mask of hardware counters that can count ev (0: not found). */
static uint32_t caps_counters(const struct pmu_caps *caps,
                              const struct hwperf_event *ev)
{
	struct hwperf_lookup lk;

	return hwperf_lookup(caps, ev, &lk, NULL) < 0 ? 0 : lk.hwmask;
}

static bool ev_used(const struct hwperf_event *ev)
{
	return ev->name[0] != '\0' || (ev->flags & HWPERF_EV_RAW);
}

static bool slot_free(const struct hwperf_control *ctl, unsigned i)
{
	return !ev_used(&ctl->ev[i]);
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

/* ---- one event ------------------------------------------------------------ */

static int check_name(const char *name, const char *what,
                      const struct item *it, struct hwperf_reason *why)
{
	if (name[0] == '\0')
		return fail(why, "empty %s in '%s'", what, it->text);
	for (const char *p = name; *p; p++)
		if (!name_char_ok(*p))
			return fail(why, "bad character '%c' in %s '%s'", *p,
			            what, name);
	return 0;
}

static int set_event(struct hwperf_event *ev, const char *name,
                     const struct item *it, struct hwperf_reason *why)
{
	uint64_t code;
	int err;

	if (is_raw(name)) {
		if (parse_num(name + 1, HEX, UINT32_MAX, &code) < 0)
			return fail(why, "raw code too large in '%s'",
			                        it->text);
		ev->flags = HWPERF_EV_RAW;
		ev->code = (uint32_t)code;
		return 0;
	}
	if ((err = check_name(name, "event", it, why)) < 0)
		return err;
	if (strlen(name) >= HWPERF_NAME_MAX)
		return fail(why, "event name '%.24s...' longer than %d "
		            "characters", name, HWPERF_NAME_MAX - 1);
	memcpy(ev->name, name, strlen(name) + 1);
	return 0;
}

/* "event:umask": the unit-mask names travel in the name, to the kernel. */
static int add_umask(struct hwperf_event *ev, const char *um,
                     const struct item *it, struct hwperf_reason *why)
{
	size_t n = strlen(ev->name);
	int err;

	if (ev->flags & HWPERF_EV_RAW)
		return fail(why, "unit mask '%s' on a raw code in '%s' (give "
		            "its bits in the code)", um, it->text);
	if ((err = check_name(um, "unit mask", it, why)) < 0)
		return err;
	if (n + 1 + strlen(um) >= HWPERF_NAME_MAX)
		return fail(why, "event and unit masks '%s' longer than %d "
		            "characters", it->text, HWPERF_NAME_MAX - 1);
	ev->name[n] = ':';
	memcpy(ev->name + n + 1, um, strlen(um) + 1);
	return 0;
}

/* "KEY=N" with the key given: N into *out, or an error naming the part. */
static int keyed_num(const char *opt, const char *key, uint64_t max,
                     uint32_t *out, bool *matched, const struct item *it,
                     struct hwperf_reason *why)
{
	size_t k = strlen(key);
	uint64_t v;

	*matched = strncmp(opt, key, k) == 0 && opt[k] == '=';
	if (!*matched)
		return 0;
	if (parse_num(opt + k + 1, DECIMAL, max, &v) < 0)
		return fail(why, "%s: not a number in 0..%llu in '%s'", opt,
		            (unsigned long long)max, it->text);
	*out = (uint32_t)v;
	return 0;
}

/* "inv", "inv=1", "inv=0" (and libpfm's "i=1"): the flag set or cleared. */
static int keyed_flag(const char *opt, const char *key, const char *alias,
                      uint32_t flag, struct hwperf_event *ev, bool *matched,
                      const struct item *it, struct hwperf_reason *why)
{
	uint32_t v = 1;
	int err;

	*matched = strcmp(opt, key) == 0;
	if (*matched) {
		ev->flags |= flag;
		return 0;
	}
	if ((err = keyed_num(opt, key, 1, &v, matched, it, why)) < 0)
		return err;
	if (!*matched && alias &&
	    (err = keyed_num(opt, alias, 1, &v, matched, it, why)) < 0)
		return err;
	if (*matched)
		ev->flags = v ? ev->flags | flag : ev->flags & ~flag;
	return 0;
}

/* The modifiers perf's terms and libpfm's ":c=N:i=1:e=1" share. */
static int parse_field(struct hwperf_event *ev, const char *opt, bool *matched,
                       const struct item *it, struct hwperf_reason *why)
{
	int err;

	uint32_t v = 0;

	if ((err = keyed_num(opt, "cmask", UINT8_MAX, &v, matched, it,
	                     why)) < 0 || *matched ||
	    (err = keyed_num(opt, "c", UINT8_MAX, &v, matched, it,
	                     why)) < 0 || *matched) {
		if (*matched) {
			ev->flags |= HWPERF_EV_CMASK;
			ev->cmask = (uint16_t)v;
		}
		return err;
	}
	if ((err = keyed_flag(opt, "inv", "i", HWPERF_EV_INV, ev, matched, it,
	                      why)) < 0 || *matched)
		return err;
	return keyed_flag(opt, "edge", "e", HWPERF_EV_EDGE, ev, matched, it,
	                  why);
}

static bool all_mode_letters(const char *s)
{
	if (*s == '\0')
		return false;
	for (; *s; s++)
		if (!strchr("ukxs", *s))
			return false;
	return true;
}

/*
 * One ':' part after the event.  The rule that tells modes from unit
 * masks: a part of mode letters only (u k s x) is a mode group, unless
 * the event (looked up in caps) has a unit mask of exactly that name.
 * Without caps (the user library) it is always a mode group.
 */
static int parse_opt(struct hwperf_event *ev, const char *opt, bool *have_modes,
                     const struct pmu_caps *caps, const struct item *it,
                     struct hwperf_reason *why)
{
	static const char thresh_key[] = "thresh=";
	bool matched;
	uint64_t n;
	int err;

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
	if ((err = parse_field(ev, opt, &matched, it, why)) < 0 || matched)
		return err;
	if (all_mode_letters(opt) &&
	    !(ev->name[0] && hwperf_has_umask(caps, ev->name, opt))) {
		if (*have_modes || parse_modes(opt, &ev->modes) < 0)
			return fail(why, "bad modes '%s' in '%s' (use u, k, "
			            "s, x once)", opt, it->text);
		*have_modes = true;
		return 0;
	}
	if (strchr(opt, '='))
		return fail(why, "modifier '%s' in '%s': unknown (have u, k, "
		            "s, x, thresh=, c=, i=, e=)", opt, it->text);
	if (caps && !(caps->fields & PMU_FIELD_UMASK)) {
		struct hwperf_lookup lk;

		/* Name the event first: INST_RETIRED:ANY_P on the soft PMU
		 * fails for the event, not for the unit mask. */
		if (hwperf_lookup(caps, ev, &lk, why) < 0)
			return -EINVAL;
		return fail(why, "bad modes '%s' in '%s' (use u, k, s, x once; "
		            "pmu %s has no unit masks)", opt, it->text,
		            caps->name);
	}
	if (*have_modes)
		return fail(why, "unit mask '%s' after the modes in '%s' (give "
		            "EVENT:UMASK:MODES)", opt, it->text);
	return add_umask(ev, opt, it, why);
}

/* The ':' parts after an event, cut in place. */
static int parse_opts(struct hwperf_event *ev, char *opt,
                      const struct pmu_caps *caps, const struct item *it,
                      struct hwperf_reason *why)
{
	bool have_modes = false;
	int err;

	while (opt) {
		char *next = strchr(opt, ':');

		if (next)
			*next++ = '\0';
		if ((err = parse_opt(ev, opt, &have_modes, caps, it, why)) < 0)
			return err;
		opt = next;
	}
	if (!have_modes)
		ev->modes = PMU_MODE_U;
	return 0;
}

/* perf's "PMU/term,term,.../MODES": the terms of one event. */
static int parse_term(struct hwperf_event *ev, const char *term,
                      bool *have_event, const struct item *it,
                      struct hwperf_reason *why)
{
	bool matched;
	uint32_t v = 0;
	int err;

	if ((err = keyed_num(term, "event", UINT16_MAX, &ev->code, &matched,
	                     it, why)) < 0 || matched) {
		*have_event = matched;
		return err;
	}
	if ((err = keyed_num(term, "umask", UINT8_MAX, &v, &matched, it,
	                     why)) < 0 || matched) {
		ev->flags |= matched ? HWPERF_EV_UMASK : 0;
		ev->umask = (uint16_t)v;
		return err;
	}
	if ((err = keyed_num(term, "cmask", UINT8_MAX, &v, &matched, it,
	                     why)) < 0 || matched) {
		ev->flags |= matched ? HWPERF_EV_CMASK : 0;
		ev->cmask = (uint16_t)v;
		return err;
	}
	if ((err = keyed_flag(term, "inv", NULL, HWPERF_EV_INV, ev, &matched,
	                      it, why)) < 0 || matched ||
	    (err = keyed_flag(term, "edge", NULL, HWPERF_EV_EDGE, ev, &matched,
	                      it, why)) < 0 || matched)
		return err;
	return fail(why, "term '%s' in '%s': unknown (have event=, umask=, "
	            "cmask=, inv, edge)", term, it->text);
}

static int parse_terms(struct hwperf_event *ev, char *body,
                       const struct pmu_caps *caps, const struct item *it,
                       struct hwperf_reason *why)
{
	char *open = strchr(body, '/');
	char *close = strrchr(body, '/');
	bool have_event = false;
	char *tail;
	int err;

	*open = '\0';
	if (close == open)
		return fail(why, "missing closing '/' in '%s'", it->text);
	*close = '\0';
	if (!hwperf_name_eq(body, "cpu") &&
	    !(caps && hwperf_name_eq(body, caps->name)))
		return fail(why, "pmu '%s' in '%s': not this pmu (use cpu%s%s)",
		            body, it->text, caps ? " or " : "",
		            caps ? caps->name : "");
	ev->flags = HWPERF_EV_RAW | HWPERF_EV_EVSEL;
	for (char *term = open + 1, *next; term; term = next) {
		next = strchr(term, ',');
		if (next)
			*next++ = '\0';
		if (term[0] != '\0' &&
		    (err = parse_term(ev, term, &have_event, it, why)) < 0)
			return err;
	}
	if (!have_event)
		return fail(why, "no event= term in '%s'", it->text);
	/* perf writes the modes right after the '/': cpu/.../uk */
	tail = close + 1;
	if (*tail == ':')
		tail++;
	return parse_opts(ev, *tail ? tail : NULL, caps, it, why);
}

/* "PMU::" (libpfm) names the pmu the event belongs to: it must be this one. */
static int strip_pmu(char **body, const struct pmu_caps *caps,
                     const struct item *it, struct hwperf_reason *why)
{
	char *sep = strstr(*body, "::");

	if (!sep)
		return 0;
	*sep = '\0';
	if (caps && !hwperf_name_eq(*body, caps->name)) {
		bool in_tables = false;

		for (unsigned t = 0; t < caps->ntables; t++)
			in_tables |= hwperf_name_eq(*body, caps->tables[t]->name);
		if (!in_tables)
			return fail(why, "pmu '%s' in '%s': this is pmu %s",
			            *body, it->text, caps->name);
	}
	*body = sep + 2;
	return 0;
}

/* One event, any syntax, into ev; the item's buffer is cut in place. */
static int parse_event(struct hwperf_event *ev, char *body,
                       const struct pmu_caps *caps, const struct item *it,
                       struct hwperf_reason *why)
{
	char *opt;
	int err;

	if ((err = strip_pmu(&body, caps, it, why)) < 0)
		return err;
	if (strchr(body, '/'))
		return parse_terms(ev, body, caps, it, why);
	opt = strchr(body, ':');
	if (opt)
		*opt++ = '\0';
	if ((err = set_event(ev, body, it, why)) < 0)
		return err;
	return parse_opts(ev, opt, caps, it, why);
}

static int check_known(const struct hwperf_event *ev, const struct pmu_caps *caps,
                       const struct item *it, uint32_t *hwmask,
                       struct hwperf_reason *why)
{
	struct hwperf_lookup lk;
	int err;

	(void)it;
	*hwmask = ~0u;
	if (!caps)
		return 0;
	if ((err = hwperf_lookup(caps, ev, &lk, why)) < 0)
		return err;
	*hwmask = lk.hwmask;
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
	if ((err = parse_event(&ev, body, caps, it, why)) < 0 ||
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

/* The ',' that ends the item at p, or NULL; perf's cpu/a=1,b=2/ holds
 * commas of its own between its slashes. */
static const char *item_end(const char *p)
{
	bool in_terms = false;

	for (; *p; p++) {
		if (*p == '/')
			in_terms = !in_terms;
		else if (*p == ',' && !in_terms)
			return p;
	}
	return NULL;
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
		const char *end = item_end(p);
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
		pl.mask[k] = caps_counters(caps, &item[k]) & width;
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

/* The event of ev as the parser reads it back, without modes. */
static void format_event(const struct hwperf_event *ev, char *buf, size_t len)
{
	size_t n;

	if (ev->flags & HWPERF_EV_EVSEL) {
		n = (size_t)snprintf(buf, len, "cpu/event=0x%x", (unsigned)ev->code);
		if (ev->flags & HWPERF_EV_UMASK)
			n += (size_t)snprintf(buf + (n < len ? n : len),
			                      n < len ? len - n : 0, ",umask=0x%x",
			                      (unsigned)ev->umask);
		if (ev->flags & HWPERF_EV_CMASK)
			n += (size_t)snprintf(buf + (n < len ? n : len),
			                      n < len ? len - n : 0, ",cmask=%u",
			                      (unsigned)ev->cmask);
		snprintf(buf + (n < len ? n : len), n < len ? len - n : 0,
		         "%s%s/", ev->flags & HWPERF_EV_INV ? ",inv" : "",
		         ev->flags & HWPERF_EV_EDGE ? ",edge" : "");
		return;
	}
	if (ev->flags & HWPERF_EV_RAW)
		n = (size_t)snprintf(buf, len, "r%x", (unsigned)ev->code);
	else
		n = (size_t)snprintf(buf, len, "%s", ev->name);
	if (ev->flags & HWPERF_EV_CMASK)
		n += (size_t)snprintf(buf + (n < len ? n : len),
		                      n < len ? len - n : 0, ":c=%u",
		                      (unsigned)ev->cmask);
	snprintf(buf + (n < len ? n : len), n < len ? len - n : 0, "%s%s",
	         ev->flags & HWPERF_EV_INV ? ":i=1" : "",
	         ev->flags & HWPERF_EV_EDGE ? ":e=1" : "");
}

int hwperf_spec_format(const struct hwperf_control *ctl, char *buf, size_t len)
{
	size_t n = 0;

	for (unsigned i = 0; i < HWPERF_NVCTR; i++) {
		const struct hwperf_event *ev = &ctl->ev[i];
		char modes[8];
		char name[ITEM_MAX];
		int w;

		if (slot_free(ctl, i))
			continue;
		format_event(ev, name, sizeof(name));
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
