"""PMU drivers in QEMU: each says honestly what it found, nothing counts,
and hwperf falls back to the software PMU (issue 6; platforms.md)."""
import re

import pytest

from tally_console import Console

# (target, QEMU -cpu, lines `info` must show).  QEMU 7.2 TCG counts
# nothing: architectural PMU absent on Intel models (CPUID.0AH version 0),
# AMD's PerfCtr MSRs read 0 and drop writes, MIPS Config1.PC is 0 except
# on P5600 whose counters ignore writes.
CASES = [
    ("x86_64", "qemu64", [r"pmu: intel-arch v0: not present", r"pmu: amd-legacy: present but not counting"]),
    ("x86_64", "max", [r"pmu: intel-arch v0: not present", r"pmu: amd-legacy: present but not counting"]),
    ("x86_64", "Skylake-Client", [r"pmu: intel-arch v0: not present \(CPUID.0AH version 0\)",
                                  r"pmu: amd: not present \(not an AuthenticAMD CPU\)"]),
    ("x86_64", "EPYC", [r"pmu: amd-legacy: present but not counting", r"family 17h"]),
    ("mips", "24Kf", [r"pmu: mips32: not present \(Config1.PC = 0\)", r"pmu: r10k: not present"]),
    ("mips", "34Kf", [r"pmu: mips32: not present \(Config1.PC = 0\)"]),
    ("mips", "74Kf", [r"pmu: mips32: not present \(Config1.PC = 0\)"]),
    ("mips", "P5600", [r"pmu: mips-p5600: present but not counting \(PerfCnt0 write lost"]),
]


@pytest.mark.parametrize("machine,cpu,lines", CASES, ids=["%s-%s" % c[:2] for c in CASES])
def test_drivers_report_honestly_and_soft_pmu_takes_over(machine, cpu, lines, request):
    wanted = request.config.getoption("--target")
    if wanted and machine not in wanted:
        pytest.skip("target %s not selected" % machine)
    c = Console(machine, cpu=cpu)
    try:
        assert "pmu: using soft" in c.boot_log.decode("latin-1")
        info = c.run("info")
        for pat in lines:
            assert re.search(pat, info), (pat, info)
        assert "pmu: soft: 2 counters x 32 bits" in info
        status = c.run("hwperf status")
        assert re.search(r"^driver soft counters=2 width=32 counts=1$", status, re.M), status
        # Nothing reports counting hardware: no driver line without a verdict.
        for line in re.findall(r"^pmu: (.*)$", info, re.M):
            assert line.startswith("soft") or "not present" in line or "not counting" in line, line
    finally:
        c.close()


@pytest.mark.kernel_only
def test_events_lists_active_pmu_and_any_model(console):
    out = console.run("events")
    # The counter mask is the PMU's own: the default soft PMU has two.
    assert re.search(r"^event cycles code=0x0 counters=0x3 modes=ukx pmu=soft ", out, re.M), out
    for name in ("syscalls", "csw-vol", "csw-invol", "faults", "tlb-refills", "irqs", "ticks", "signals"):
        assert re.search(r"^event %s " % name, out, re.M), name
    assert not re.search(r"^event (instructions|branches|cache-misses) ", out, re.M)
    models = console.run("events --models")
    for m in ("intel-arch", "amd-legacy", "amd-core", "24k", "74k", "p5600", "r10000", "r12000"):
        assert re.search(r"^model %s " % m, models, re.M), m
    r10k = console.run("events --model r10000")
    assert re.search(r"^event tlb-misses code=0x17 counters=0x2 ", r10k, re.M), r10k
    assert "error: events: no model 'nope'" in console.run("events --model nope")
