/*
 * branch.c - decoding the MIPS32 branches and jumps that have a delay
 * slot (branch.h).  Encodings are from the MIPS32 instruction set manual
 * (Volume II), Releases 1 to 5.
 */
#include <stdbool.h>

#include "branch.h"

#define OP_SHIFT      26
#define RS_SHIFT      21
#define RT_SHIFT      16
#define FIELD5_MASK   0x1fu
#define FUNCT_MASK    0x3fu
#define IMM_MASK      0xffffu
#define INDEX_MASK    0x03ffffffu
#define INSN_BYTES    4u
#define REGION_MASK   0xf0000000u   /* j/jal stay in the 256 MiB region */

enum {
	OP_SPECIAL = 0x00, OP_REGIMM = 0x01, OP_J = 0x02, OP_JAL = 0x03,
	OP_BEQ = 0x04, OP_BNE = 0x05, OP_BLEZ = 0x06, OP_BGTZ = 0x07,
	OP_BEQL = 0x14, OP_BNEL = 0x15, OP_BLEZL = 0x16, OP_BGTZL = 0x17,
};

enum { FUNCT_JR = 0x08, FUNCT_JALR = 0x09 };

enum {
	RT_BLTZ = 0x00, RT_BGEZ = 0x01, RT_BLTZL = 0x02, RT_BGEZL = 0x03,
	RT_BLTZAL = 0x10, RT_BGEZAL = 0x11, RT_BLTZALL = 0x12, RT_BGEZALL = 0x13,
};

static uint32_t field(uint32_t insn, unsigned shift, uint32_t mask)
{
	return (insn >> shift) & mask;
}

/* PC-relative target: the offset counts words from the delay slot. */
static uint32_t rel_target(uint32_t insn, uint32_t pc)
{
	int32_t off = (int16_t)(insn & IMM_MASK);

	return pc + INSN_BYTES + (uint32_t)(off * (int32_t)INSN_BYTES);
}

static int conditional(bool taken, uint32_t insn, uint32_t pc, uint32_t *resume)
{
	*resume = taken ? rel_target(insn, pc) : pc + 2 * INSN_BYTES;
	return 0;
}

int mips_branch_resume(uint32_t insn, uint32_t pc, const uint32_t regs[32],
		       uint32_t *resume)
{
	uint32_t op = insn >> OP_SHIFT;
	uint32_t rs = field(insn, RS_SHIFT, FIELD5_MASK);
	uint32_t rt = field(insn, RT_SHIFT, FIELD5_MASK);
	int32_t s = (int32_t)regs[rs];

	switch (op) {
	case OP_SPECIAL:
		switch (insn & FUNCT_MASK) {
		case FUNCT_JR:
		case FUNCT_JALR:
			*resume = regs[rs];
			return 0;
		}
		return -1;
	case OP_REGIMM:
		switch (rt) {
		case RT_BLTZ: case RT_BLTZL: case RT_BLTZAL: case RT_BLTZALL:
			return conditional(s < 0, insn, pc, resume);
		case RT_BGEZ: case RT_BGEZL: case RT_BGEZAL: case RT_BGEZALL:
			return conditional(s >= 0, insn, pc, resume);
		}
		return -1;
	case OP_J:
	case OP_JAL:
		*resume = ((pc + INSN_BYTES) & REGION_MASK) |
			  ((insn & INDEX_MASK) * INSN_BYTES);
		return 0;
	case OP_BEQ:
	case OP_BEQL:
		return conditional(regs[rs] == regs[rt], insn, pc, resume);
	case OP_BNE:
	case OP_BNEL:
		return conditional(regs[rs] != regs[rt], insn, pc, resume);
	case OP_BLEZ:
	case OP_BLEZL:
		return conditional(s <= 0, insn, pc, resume);
	case OP_BGTZ:
	case OP_BGTZL:
		return conditional(s > 0, insn, pc, resume);
	}
	return -1;
}
