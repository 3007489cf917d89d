/*
 * cp0cmd.c - the `cp0` console command: the CP0 state a PMU or timer
 * problem is usually diagnosed from, decoded, in one screen.
 */
#include "arch.h"
#include "arch_task.h"
#include "console/cmd.h"
#include "cp0.h"
#include "mips.h"

#include <stdio.h>

static int cmd_cp0(int argc, char **argv)
{
	uint32_t status = cp0_read_status(), cause = cp0_read_cause();
	uint32_t config = cp0_read_config(), config1 = cp0_read_config1();
	struct timer_stats ts;

	if (cmd_extra_args(argc, argv))
		return CMD_ERR_REPORTED;
	timer_stats(&ts);
	printf("status=0x%08x im=0x%02x ie=%u exl=%u erl=%u bev=%u\n",
	       (unsigned)status,
	       (unsigned)cp0_field(status, ST_IM_MASK, ST_IM_SHIFT),
	       !!(status & ST_IE), !!(status & ST_EXL), !!(status & ST_ERL),
	       !!(status & ST_BEV));
	printf("cause=0x%08x ip=0x%02x ti=%u dc=%u iv=%u\n", (unsigned)cause,
	       (unsigned)cp0_field(cause, CAUSE_IP_MASK, CAUSE_IP_SHIFT),
	       !!(cause & CAUSE_TI), !!(cause & CAUSE_DC), !!(cause & CAUSE_IV));
	printf("count=0x%08x compare=0x%08x period=%u late_ticks=%lu resyncs=%lu "
	       "idle_restarts=%lu count_behind=%lu\n",
	       (unsigned)cp0_read_count(), (unsigned)cp0_read_compare(),
	       (unsigned)ts.period, ts.ticks_missed, ts.resyncs,
	       trap_idle_restarts(), ts.count_behind);
	if (cp0_is_release2()) {
		uint32_t intctl = cp0_read_intctl();

		printf("intctl=0x%08x ipti=%u ippci=%u ebase=0x%08x\n",
		       (unsigned)intctl,
		       (unsigned)cp0_field(intctl, INTCTL_IPTI_MASK, INTCTL_IPTI_SHIFT),
		       (unsigned)cp0_field(intctl, INTCTL_IPPCI_MASK, INTCTL_IPPCI_SHIFT),
		       (unsigned)cp0_read_ebase());
	}
	printf("prid=0x%08x config=0x%08x config1=0x%08x pc=%u tlb=%u\n",
	       (unsigned)cp0_read_prid(), (unsigned)config, (unsigned)config1,
	       !!(config1 & CONFIG1_PC), tlb_entries());
	printf("entryhi=0x%08x tlb_ring=%u tlb_refills_user=%u tlb_refills_kernel=%u "
	       "asid_rollovers=%llu\n",
	       (unsigned)cp0_read_entryhi(), tlb_ring_entries(),
	       (unsigned)arch_tlb_refill_count(true),
	       (unsigned)arch_tlb_refill_count(false),
	       (unsigned long long)vm_asid_rollovers());
	return 0;
}
CONSOLE_CMD(cp0, "MIPS CP0 registers: status, cause, timer, interrupt lines, config",
	    "cp0", cmd_cp0);
