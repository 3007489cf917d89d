/*
 * encode.c - building an x86 event code from its parts: event select,
 * unit mask, counter mask, invert, edge.
 *
 * These are the Intel and AMD drivers' pmu_ops.encode (arch/x86_64/pmu/
 * points at them) and the x86 models' ev_model.encode, one function for
 * both, so `events --model skylake --resolve SPEC` builds on any machine
 * the code the driver would build on the hardware.  Layouts: Intel
 * IA32_PERFEVTSELx (SDM vol. 3B, "Architectural Performance Monitoring
 * Version 1"), AMD PerfEvtSel (APM vol. 2, "Performance Event-Select
 * Registers") in Tally's AMD code layout (AMD_CODE_*, events.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "events.h"

static int refuse(char *reason, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int refuse(char *reason, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (reason && len) {
		va_start(ap, fmt);
		vsnprintf(reason, len, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/*
 * Each field given replaces those bits of enc->code.  Every value must
 * fit its IA32_PERFEVTSELx field (8 bits each); invert and edge are
 * single bits.
 */
int events_intel_encode(const struct pmu_encoding *enc, uint32_t *code,
                        char *reason, size_t len)
{
	static const struct {
		uint32_t field;
		const char *part;
		uint32_t mask;
		unsigned shift;
	} valued[] = {
		{ PMU_FIELD_EVSEL, "event", INTEL_EVTSEL_EVENT, 0 },
		{ PMU_FIELD_UMASK, "umask", INTEL_EVTSEL_UMASK,
		  INTEL_EVTSEL_UMASK_SHIFT },
		{ PMU_FIELD_CMASK, "cmask", INTEL_EVTSEL_CMASK,
		  INTEL_EVTSEL_CMASK_SHIFT },
	};
	uint32_t c = enc->code;

	for (size_t i = 0; i < sizeof(valued) / sizeof(valued[0]); i++) {
		uint32_t v = valued[i].field == PMU_FIELD_EVSEL ? enc->evsel :
		             valued[i].field == PMU_FIELD_UMASK ? enc->umask :
		             enc->cmask;
		uint32_t max = valued[i].mask >> valued[i].shift;

		if (!(enc->fields & valued[i].field))
			continue;
		if (v > max)
			return refuse(reason, len, "%s=0x%x: intel-arch takes "
			              "0..0x%x", valued[i].part, (unsigned)v,
			              (unsigned)max);
		c = (c & ~valued[i].mask) | (v << valued[i].shift);
	}
	c |= enc->fields & PMU_FIELD_INV ? INTEL_EVTSEL_INV : 0;
	c |= enc->fields & PMU_FIELD_EDGE ? INTEL_EVTSEL_EDGE : 0;
	*code = c;
	return 0;
}

int events_amd_encode(const struct pmu_encoding *enc, uint32_t *code,
                      char *reason, size_t len)
{
	uint32_t c = enc->code;

	if ((enc->fields & PMU_FIELD_EVSEL) && enc->evsel > AMD_EVSEL_MAX)
		return refuse(reason, len, "event=0x%x: amd takes 0..0x%x",
		              (unsigned)enc->evsel, AMD_EVSEL_MAX);
	if ((enc->fields & PMU_FIELD_UMASK) && enc->umask > AMD_FIELD8_MAX)
		return refuse(reason, len, "umask=0x%x: amd takes 0..0x%x",
		              (unsigned)enc->umask, AMD_FIELD8_MAX);
	if ((enc->fields & PMU_FIELD_CMASK) && enc->cmask > AMD_FIELD8_MAX)
		return refuse(reason, len, "cmask=%u: amd takes 0..%u",
		              (unsigned)enc->cmask, AMD_FIELD8_MAX);
	if (enc->fields & PMU_FIELD_EVSEL) {
		c &= ~(AMD_CODE_EVENT_LO_MASK | AMD_CODE_EVENT_HI_MASK);
		c |= enc->evsel & AMD_CODE_EVENT_LO_MASK;
		c |= (enc->evsel >> AMD_EVSEL_HI_SHIFT) << AMD_CODE_EVENT_HI_SHIFT;
	}
	if (enc->fields & PMU_FIELD_UMASK)
		c = (c & ~AMD_CODE_UMASK_MASK) |
		    (enc->umask << AMD_CODE_UMASK_SHIFT);
	if (enc->fields & PMU_FIELD_CMASK)
		c = (c & ~AMD_CODE_CMASK_MASK) |
		    (enc->cmask << AMD_CODE_CMASK_SHIFT);
	c |= enc->fields & PMU_FIELD_INV ? AMD_CODE_INV : 0;
	c |= enc->fields & PMU_FIELD_EDGE ? AMD_CODE_EDGE : 0;
	*code = c;
	return 0;
}
