"""The PMU's overflow interrupt, wired (issue 10 item 1).

x86: LVT PC carries vector 0x3e, whose IDT gate leads to
lapic_pmi_interrupt() and pmu_interrupt(); `irqs --test-pmi` sends this
CPU a self-IPI on that vector, which must arrive, find no overflowed
counter and be counted spurious -- exactly once per IPI -- with the kernel
going on as before (timer ticks on the 8259, tasks run).  MIPS: the
counters' line is dispatched only on cores whose CP0 names one; QEMU's
Malta cores name none (Config1.PC = 0, or IntCtl.IPPCI = 0 on the P5600),
and software cannot raise Cause.PCI, so the dispatch itself is host-tested
(tests/unit/arch/mips/test_intr_route.c) and the QEMU-side checks here are what
`irqs` reports.  A counter overflow delivered through the LVT or Cause.PCI
needs a PMU that counts: it SKIPs here with the reason, and runs on
hardware.
"""
import re
import time

import pytest

from tally_console import Console

PMI_ROW = re.compile(r"^pmi (\S+) count=(\d+) spurious=(\d+)(?: \((.*)\))?$", re.M)
TEST_LINE = re.compile(r"^pmi test (\S+) count=(\d+)->(\d+) spurious=(\d+)->(\d+)$", re.M)
PMI_VECTOR = "vector=0x3e"


def pmi_row(console):
    out = console.run("irqs")
    m = PMI_ROW.search(out)
    assert m, out
    return m.group(1), int(m.group(2)), int(m.group(3)), m.group(4) or "", out


def ticks(console):
    m = re.search(r"ticks=(\d+)", console.run("uptime"))
    assert m
    return int(m.group(1))


def x86(target):
    return target.startswith("x86_64")


def test_irqs_shows_the_pmu_line(console, target):
    line, count, spurious, note, out = pmi_row(console)
    assert spurious <= count
    if x86(target):
        assert line == PMI_VECTOR, out
        assert note == "", out
        assert re.search(r"^apic-other count=\d+$", out, re.M), out
    else:
        # QEMU's default Malta core, the 24Kf, has no counters.
        assert line == "none", out
        assert note == "Config1.PC = 0: no performance counters", out
        assert count == 0 and spurious == 0, out


def test_self_ipi_reaches_pmu_interrupt_and_counts_spurious(console, target):
    if not x86(target):
        out = console.run("irqs --test-pmi")
        assert out == ("error: irqs --test-pmi: ENOTSUP: MIPS cannot raise the "
                       "counter interrupt in software (Cause.PCI is read-only)\n")
        return
    _, count0, spurious0, _, _ = pmi_row(console)
    ticks0 = ticks(console)
    for i in range(3):
        out = console.run("irqs --test-pmi")
        m = TEST_LINE.search(out)
        assert m, out
        assert m.group(1) == PMI_VECTOR
        a, b, s, t = (int(x) for x in m.groups()[1:])
        assert (a, b) == (count0 + i, count0 + i + 1), out
        assert (s, t) == (spurious0 + i, spurious0 + i + 1), out
    _, count1, spurious1, _, _ = pmi_row(console)
    assert count1 == count0 + 3
    assert spurious1 == spurious0 + 3
    # The kernel is fine: the 8259 timer still ticks, a task runs and exits.
    time.sleep(0.2)
    assert ticks(console) > ticks0
    out = console.run("spawn --wait hello")
    assert re.search(r"^exit 0$", out, re.M), out
    assert console.run("echo ok") == "ok\n"


def test_test_pmi_is_root_only(console, target):
    _, count0, spurious0, _, _ = pmi_row(console)
    out = console.run("as 5 irqs --test-pmi")
    assert out == "error: irqs --test-pmi: EPERM: root only\n"
    _, count1, spurious1, _, _ = pmi_row(console)
    assert (count1, spurious1) == (count0, spurious0)
    assert console.run("irqs --nosuch").startswith("error: usage: irqs [--test-pmi]")


def test_counter_overflow_interrupt(console, target):
    """An overflow of a counting PMU, delivered through LVT PC (x86) or
    Cause.PCI on IntCtl.IPPCI (MIPS): counted, and not spurious."""
    status = console.run("hwperf status")
    m = re.search(r"^driver (\S+) .*counts=(\d)", status, re.M)
    assert m, status
    line, _, _, note, _ = pmi_row(console)
    if m.group(1) == "soft":
        pmus = "; ".join(re.findall(r"^pmu (.*)$", status, re.M)) or "no hardware PMU"
        where = "LVT PC" if x86(target) else "Cause.PCI (%s)" % (note or line)
        pytest.skip("needs a hardware PMU that counts to overflow a counter and "
                    "deliver it through %s; QEMU 7.2 counts nothing (%s)" % (where, pmus))
    assert line != "none", note
    out = console.run("spawn spin 2000000000")
    pid = re.search(r"^pid (\d+)$", out, re.M).group(1)
    _, count0, spurious0, _, _ = pmi_row(console)
    assert console.run("hwperf enable %s cycles:u:thresh=1000000" % pid).startswith("ok gen=")
    time.sleep(1.0)
    _, count1, spurious1, _, _ = pmi_row(console)
    console.run("kill -9 %s" % pid)
    console.run("wait %s" % pid)
    assert count1 > count0
    assert spurious1 == spurious0


def test_p5600_counters_have_no_line_in_qemu(request):
    """QEMU's P5600 has Config1.PC = 1 but IntCtl.IPPCI = 0: not wired."""
    wanted = request.config.getoption("--target")
    if wanted and "mips" not in wanted:
        pytest.skip("target mips not selected")
    c = Console("mips", cpu="P5600")
    try:
        out = c.run("irqs")
        m = PMI_ROW.search(out)
        assert m, out
        assert m.group(1) == "none", out
        assert m.group(4) == "IntCtl.IPPCI names no hardware line", out
        info = c.run("info")
        assert re.search(r"^pmu: mips-p5600: present but not counting .*; 1 ctrs, no irq$",
                         info, re.M), info
    finally:
        c.close()
