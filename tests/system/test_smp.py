"""SMP (issue 13): the x86_64 application processors come up from the
ACPI MADT, tick on their own LAPIC timers, answer IPIs, and join the
scheduler (test_smp_sched.py tests what they run).

Each test boots its own QEMU with -smp N (boot(smp=N)); SMP=1 is the
shared console, unchanged."""
import re
import time

import pytest

from tally_console import SUMMARY, CLOSING, Console

# The several-CPU selftests (slow_smp): over 15 minutes once on a loaded
# 2-core host for SMP=2 under -icount, so half an hour before giving up.
SELFTEST_SMP_TIMEOUT = 1800

QUICK_TARGETS = ["x86_64"]

CPU_LINE = re.compile(r"^cpu=(\d+) apic=(\d+) online=(\d) role=(\w+) timer=(\S+) "
                      r"ticks=(\d+) ipis=(\d+)", re.M)
SMP_LINE = re.compile(r"^smp: (\d+) of (\d+) CPUs online \(rsdp from ([^)]+)\); APs schedule, "
                      r"LAPIC timer (\d+) Hz /16, (\d+) counts per tick at (\d+) Hz", re.M)


def _cpus(console):
    out = console.run("cpus")
    head = re.search(r"^cpus: online=(\d+) known=(\d+)$", out, re.M)
    assert head, out
    rows = {int(m.group(1)): m for m in CPU_LINE.finditer(out)}
    assert len(rows) == int(head.group(2)), out
    return int(head.group(1)), rows


@pytest.mark.kernel_only
@pytest.mark.parametrize("n", [2, 4])
def test_aps_online_ticking_and_answering(target, boot, n):
    c = boot(smp=n)
    m = SMP_LINE.search(c.text(c.boot_log))
    assert m, c.text(c.boot_log)
    assert (int(m.group(1)), int(m.group(2))) == (n, n)
    assert m.group(3) == "bios scan"    # -kernel: no loader hands an RSDP over
    # The LAPIC timer's count per tick is its rate over HZ, both measured.
    assert int(m.group(5)) == int(m.group(4)) // int(m.group(6))

    info = c.run("info")
    assert re.search(r"^cpus_online: %d$" % n, info, re.M), info

    online, first = _cpus(c)
    assert online == n and sorted(first) == list(range(n))
    assert first[0].group(4) == "boot" and first[0].group(5) == "i8254"
    apics = {int(r.group(2)) for r in first.values()}
    assert len(apics) == n, "every CPU its own APIC id"
    for i in range(1, n):
        assert first[i].group(3) == "1" and first[i].group(4) == "ap"
        assert first[i].group(5) == "lapic"

    # Each AP's own timer is running: its count grows between two looks.
    assert "nap: slept" in c.run("spawn --wait nap 300")
    _, second = _cpus(c)
    for i in range(1, n):
        assert int(second[i].group(6)) > int(first[i].group(6)), (first[i].group(0),
                                                                   second[i].group(0))

    sched = c.run("sched")
    assert re.search(r"^cpu0 current=", sched, re.M), sched
    for i in range(1, n):
        assert re.search(r"^cpu%d current=\d+ ready=\d+ switches=\d+ ticks=\d+ " % i,
                         sched, re.M), sched
    assert "runs no tasks" not in sched, sched

    # An IPI round trip to every AP, answered by that CPU itself.
    for i in range(1, n):
        out = c.run("cpus --ping %d" % i)
        assert re.search(r"^cpu %d answered: from=cpu%d apic=%s cycles=\d+$"
                         % (i, i, first[i].group(2)), out, re.M), out
    _, third = _cpus(c)
    # (From `second`: the nap above may have sent its CPU a reschedule.)
    for i in range(1, n):
        assert int(third[i].group(7)) == int(second[i].group(7)) + 1, third[i].group(0)
    # The boot CPU answers its own ping without an IPI.
    assert "cpu 0 answered: from=cpu0" in c.run("cpus --ping 0")

    # Bad input is refused by name and changes nothing.
    assert "error: cpus: ENODEV: no cpu 99 (%d known)" % n in c.run("cpus --ping 99")
    assert "error: cpus: EINVAL: --ping needs a CPU number, not 'junk'" in \
        c.run("cpus --ping junk")
    assert "error: cpus: EINVAL" in c.run("cpus --ping -1")
    assert "error: usage: cpus [--ping N|all] [--resched N]" in c.run("cpus --pong 1")
    assert "error: cpus: ENODEV: no AP 0 (%d known)" % n in c.run("cpus --resched 0")
    assert "error: cpus: ENODEV: no AP 99" in c.run("cpus --resched 99")
    _, fourth = _cpus(c)
    assert [int(fourth[i].group(7)) for i in range(n)] == \
        [int(third[i].group(7)) for i in range(n)]

    # One call to all the others at once: each answers once.
    assert re.search(r"^all answered: cpus=%d cycles=\d+$" % (n - 1),
                     c.run("cpus --ping all"), re.M)
    # The reschedule vector arrives (with nothing queued it changes
    # nothing but its count).
    # Counted from before: a spawn's wake-up may have sent one already.
    resched = lambda out: {int(a): int(b) for a, b in
                           re.findall(r"^cpu=(\d+) .* resched=(\d+)$", out, re.M)}
    before = resched(c.run("cpus"))
    assert "cpu 1 sent the reschedule IPI" in c.run("cpus --resched 1")
    out = c.run("cpus")
    _, fifth = _cpus(c)
    for i in range(1, n):
        want = int(fourth[i].group(7)) + 1 + (1 if i == 1 else 0)
        assert int(fifth[i].group(7)) == want, out
    after = resched(out)
    assert after[1] == before[1] + 1, out
    if n > 2:
        assert after[n - 1] == before[n - 1], out


def check_R12_stalled_cpu_is_waited_for_then_named(c, ncpus):
    """R12: `sys read --cpu N` of a CPU that exists but does not answer
    is an error naming it, never a 0.  `stall 1 MS`: CPU 1 spins with
    interrupts masked.  A cross-call to a CPU that took none of its own
    ticks is waited for up to 500 ticks (docs/hwperf.md): a 2 s stall is
    waited out, where 50 ticks would have failed it; a 7 s one is named
    after 5 s, and CPU 1 answers again once it is over.  Also
    test_malta_smp.py's, on two VPEs."""
    assert c.run("hwperf sys force cycles:k").startswith("ok"), "SYSTEM mode"
    assert "cpu 1 stalls for 2000 ms with interrupts masked" in c.run("stall 1 2000")
    t0 = time.time()
    out = c.run("hwperf sys read --cpu 1", timeout=30)
    took = time.time() - t0
    assert out.startswith("ok"), out
    assert int(re.search(r"^cycles:k count=(\d+) ", out, re.M).group(1)) > 0, out
    assert took >= 1.0, "the read did not wait for the stall (%.2f s)" % took
    assert "cpu 1 stalls for 7000 ms" in c.run("stall 1 7000")
    t0 = time.time()
    out = c.run("hwperf sys read --cpu 1", timeout=30)
    took = time.time() - t0
    assert out.splitlines()[0] == ("err ETIMEDOUT: cpu 1 did not answer within 500 ticks, "
                                   "and took none of its own; nothing was changed there"), out
    assert 4.5 <= took < 7.0, took
    time.sleep(7.5 - took)
    assert c.run("hwperf sys read --cpu 1").startswith("ok")
    assert re.search(r"^xcalls served=\d+ polled=\d+ timeouts=1 rerung=\d+$",
                     c.run("hwperf status"), re.M)
    assert c.run("hwperf sys release").startswith("ok")
    # Bad input changes nothing.
    assert "error: stall: EINVAL: cpu 0 runs this console" in c.run("stall 0 100")
    assert "error: stall: ENODEV: no cpu 9 (%d online)" % ncpus in c.run("stall 9 100")
    assert "error: usage: stall CPU MS" in c.run("stall 1")
    for bad in ("1 0", "1 10001", "1 junk", "x 100", "1 -5"):
        assert "error: stall: EINVAL: needs a CPU number and 1 to 10000 ms, " \
            "not '%s'" % bad in c.run("stall " + bad), bad
    assert re.search(r"^cpu 1 answered: from=cpu1 ", c.run("cpus --ping 1"), re.M)


@pytest.mark.kernel_only
def test_R12_a_stalled_cpu_is_waited_for_then_named(target, boot):
    check_R12_stalled_cpu_is_waited_for_then_named(boot(smp=2), 2)


def test_one_cpu_refuses_a_stall(quick_console):
    assert "error: stall: ENODEV: no cpu 1 (1 online)" in quick_console.run("stall 1 100")


def test_one_cpu_unchanged(quick_console):
    """SMP=1 (the shared console): one CPU, no SMP line at boot, nothing
    for `sched` beyond CPU 0."""
    c = quick_console
    assert not re.search(r"^smp:", c.text(c.boot_log), re.M)
    assert re.search(r"^cpus_online: 1$", c.run("info"), re.M)
    online, rows = _cpus(c)
    assert online == 1 and list(rows) == [0]
    assert "error: cpus: ENODEV: no cpu 1 (1 known)" in c.run("cpus --ping 1")
    assert len(re.findall(r"^cpu\d", c.run("sched"), re.M)) == 1


@pytest.mark.kernel_only
@pytest.mark.slow_smp
def test_selftest_passes_with_two_cpus(target):
    """The one-shot selftest under ICOUNT=1 with -smp 2: the APs run
    tasks too and every check still passes."""
    c = Console(target, append="selftest cpi=1", icount=True, smp=2, wait=False)
    try:
        status, out = c.wait_exit(timeout=SELFTEST_SMP_TIMEOUT)
    finally:
        c.close()
    assert re.search(r"^smp: 2 of 2 CPUs online", out, re.M), out
    m, cl = SUMMARY.search(out), CLOSING.search(out)
    assert m and cl, out
    assert not re.search(r"^FAIL", out, re.M), out
    assert status == 0 and int(m.group(2)) == 0


@pytest.mark.kernel_only
def test_icount_with_two_cpus(target, boot):
    """What -icount shift=0 gives with several vCPUs (docs/design/
    platforms.md): QEMU runs them in one thread, round robin, on one
    virtual clock.  So each AP's LAPIC timer keeps pace with CPU 0's 8254
    tick, and an IPI round trip costs the same count every time (it is
    the instructions of both CPUs, not one CPU's cycles)."""
    c = boot(smp=2, icount=True, append="cpi=1")
    _, a = _cpus(c)
    assert "nap: slept" in c.run("spawn --wait nap 500")
    _, b = _cpus(c)
    ticks0 = int(b[0].group(6)) - int(a[0].group(6))
    ticks1 = int(b[1].group(6)) - int(a[1].group(6))
    assert ticks0 >= 50 and abs(ticks1 - ticks0) <= 1, (a, b)
    trips = set()
    for _ in range(3):
        m = re.search(r"^cpu 1 answered: from=cpu1 apic=\d+ cycles=(\d+)$",
                      c.run("cpus --ping 1"), re.M)
        assert m
        trips.add(int(m.group(1)))
    assert len(trips) == 1, trips


@pytest.mark.kernel_only
def test_the_stress_ends_on_two_cpus_under_icount(target, boot):
    """QEMU 7.2 under -icount runs the vCPUs in turn, CPU 0 first, each
    until the next deadline of the virtual clock, so CPU 0 in a user loop
    kept CPU 1 off (arch/x86_64/cpu.h tick_yield_vcpu).  Without CPU 0's
    tick ending its turn, `bench run stress -n 1` on two CPUs did not end
    in 600 s (twice); with it, it takes 14 to 20 s (measured)."""
    c = boot(smp=2, icount=True, append="cpi=1")
    out = c.run("bench run stress -n 1", timeout=180)
    assert re.search(r"^SUMMARY: 9 tests, 0 failures, 0 skipped$", out, re.M), out
    assert re.search(r"^PASS: bench: stress: forced count=100 expected=100$", out, re.M), out


LOADER_RSDP = [
    ("x86_64-iso-bios", "build/x86_64/tally.iso", "multiboot2 acpi old"),
    ("x86_64-iso-uefi", "build/x86_64/tally.iso", "multiboot2 acpi new"),
    ("x86_64-efi", "build/x86_64/tally-esp.img", "uefi"),
]


@pytest.mark.kernel_only
@pytest.mark.parametrize("boot_target,image,source", LOADER_RSDP,
                         ids=[t for t, _, _ in LOADER_RSDP])
def test_rsdp_from_each_loader(target, boot_target, image, source):
    """GRUB's multiboot2 ACPI tags (a copy of the RSDP: 1.0 under SeaBIOS,
    2.0 under OVMF) and tally.efi's hand-off (an address) each lead to the
    MADT; the -kernel path scans the BIOS area (above)."""
    import os
    from tally_console import EXTRA_TARGETS, ROOT
    if not os.path.exists(os.path.join(ROOT, image)):
        pytest.skip("%s not built (make iso efi)" % image)
    EXTRA_TARGETS.setdefault("x86_64-efi", dict(arch="x86_64", boot="efi"))
    c = Console(boot_target, smp=2)
    try:
        m = SMP_LINE.search(c.text(c.boot_log))
        assert m and m.group(3) == source, c.text(c.boot_log)
        assert int(m.group(1)) == 2
        assert re.search(r"^cpu 1 answered: from=cpu1 ", c.run("cpus --ping 1"), re.M)
    finally:
        c.close()


MALTA = [
    ("mips", "24Kf", 2, r"Config3\.MT=0 Config3\.CMGCR=0: QEMU starts any other -smp CPU "
                        r"at the kernel entry, which parks it"),
    ("mipsbe", "74Kf", 2, r"Config3\.MT=0 Config3\.CMGCR=0: QEMU starts any other -smp CPU"),
    ("mips", "34Kf", 1, r"Config3\.MT=1 Config3\.CMGCR=0 MVPConf0 VPEs=1: one VPE"),
]


@pytest.mark.parametrize("malta,cpu,n,why", MALTA,
                         ids=["%s-%s-smp%d" % (t, c, n) for t, c, n, _ in MALTA])
def test_malta_says_why_one_cpu(target, malta, cpu, n, why):
    """Malta under QEMU 7.2 runs one CPU, and says why at boot from the
    core's own registers (docs/design/platforms.md, CPUs in QEMU)."""
    c = Console(malta, cpu=cpu, smp=n)
    try:
        log = c.text(c.boot_log)
        assert re.search(r"^smp: Malta runs one CPU: " + why, log, re.M), log
        assert re.search(r"^cpus_online: 1$", c.run("info"), re.M)
        # No VPE to ring CPU 0 from: CPU 0's software lines stay masked.
        assert "error: cpus: ENODEV: no VPE 1 to ring cpu 0 from (1 known)" in \
            c.run("cpus --ring0 1")
        # A second CPU QEMU started (24Kf/74Kf) stays parked: the console
        # task still runs alone.
        assert "hello from pid" in c.run("spawn --wait hello")
    finally:
        c.close()


MALTA_VPE_LINE = re.compile(r"^smp: (\d+) of (\d+) VPEs online \(MT ASE: TCRestart, TCStatus\.A, "
                            r"VPEConf0\.VPA, evpe; MVPConf0 TLBS=(\d), MVPControl\.STLB=(\d)\); "
                            r"each ticks on its own Count/Compare at (\d+) Hz and is rung by "
                            r"mttc0 Cause\.IP0$", re.M)
MALTA_CPU_LINE = re.compile(r"^cpu=(\d+) vpe=(\d+) online=(\d) role=(\w+) timer=cp0-count "
                            r"ticks=(\d+) ipis=(\d+) resched=(\d+)", re.M)


def _malta_cpus(c):
    out = c.run("cpus")
    head = re.search(r"^cpus: online=(\d+) known=(\d+)$", out, re.M)
    assert head, out
    rows = {int(m.group(1)): m for m in MALTA_CPU_LINE.finditer(out)}
    assert len(rows) == int(head.group(2)), out
    return int(head.group(1)), rows


@pytest.mark.parametrize("n", [2, 4])
def test_malta_34kf_vpes_online_ticking_and_answering(target, n):
    """34Kf with -smp N: the other VPEs are started through the MT ASE,
    tick on their own Count/Compare, answer a ring (mttc0 Cause.IP0) and
    keep their own software-PMU bank.  Booted with novpetasks, so that
    they stay out of the scheduler and boot says so in one line (tasks on
    the VPEs, the default: test_malta_smp.py)."""
    c = Console("mips", cpu="34Kf", smp=n, append="novpetasks")
    try:
        log = c.text(c.boot_log)
        m = MALTA_VPE_LINE.search(log)
        assert m, log
        assert (int(m.group(1)), int(m.group(2))) == (n, n)
        # Measured: QEMU 7.2 gives each VPE a TLB of its own.
        assert (m.group(3), m.group(4)) == ("0", "0")
        assert re.search(r"^smp: novpetasks: VPEs other than 0 run no tasks", log, re.M), log
        assert not re.search(r"^smp: Malta runs one CPU", log, re.M), log
        assert re.search(r"^cpus_online: %d$" % n, c.run("info"), re.M)

        online, first = _malta_cpus(c)
        assert online == n and sorted(first) == list(range(n))
        assert first[0].group(4) == "boot"
        for i in range(1, n):
            # vpe= is the VPE's own EBase.CPUNum.
            assert first[i].group(2) == str(i) and first[i].group(3) == "1"
            assert first[i].group(4) == "vpe"

        # Each VPE's own timer runs: its count grows across a nap.
        assert "nap: slept" in c.run("spawn --wait nap 300")
        _, second = _malta_cpus(c)
        for i in range(1, n):
            assert int(second[i].group(5)) > int(first[i].group(5)), second[i].group(0)

        sched = c.run("sched")
        assert re.search(r"^cpu0 current=", sched, re.M), sched
        for i in range(1, n):
            assert re.search(r"^cpu%d idle \(runs no tasks\) vpe=%d online=1 " % (i, i),
                             sched, re.M), sched

        # A ring round trip, answered by that VPE itself, counted once;
        # this_cpu() there is that VPE's struct cpu (ErrorEPC, machdep.h),
        # not CPU 0's, and on CPU 0 it is still CPU 0's.
        for i in range(1, n):
            out = c.run("cpus --ping %d" % i)
            assert re.search(r"^cpu %d answered: from=cpu%d vpe=%d this_cpu=%d cycles=\d+$"
                             % (i, i, i, i), out, re.M), out
        _, third = _malta_cpus(c)
        for i in range(1, n):
            assert int(third[i].group(6)) == int(second[i].group(6)) + 1, third[i].group(0)
        assert "cpu 0 answered: from=cpu0 vpe=0 this_cpu=0 " in c.run("cpus --ping 0")
        assert re.search(r"^all answered: cpus=%d cycles=\d+$" % (n - 1),
                         c.run("cpus --ping all"), re.M)
        assert "cpu 1 sent the reschedule ring" in c.run("cpus --resched 1")
        _, fourth = _malta_cpus(c)
        assert int(fourth[1].group(7)) == int(third[1].group(7)) + 1, fourth[1].group(0)
        assert "error: cpus: ENODEV: no cpu 99 (%d known)" % n in c.run("cpus --ping 99")
        assert "error: cpus: EINVAL: --ping needs a CPU number, not 'junk'" in \
            c.run("cpus --ping junk")
        assert "error: cpus: ENODEV: no VPE 0 to ring" in c.run("cpus --resched 0")

        # Each VPE rings CPU 0 (mttc0 to TC 0's Cause.IP0): CPU 0 answers
        # in its interrupt handler, counted in its own ipis (the command
        # never polls CPU 0's mailbox), with this_cpu() its own.
        _, before = _malta_cpus(c)
        for i in range(1, n):
            out = c.run("cpus --ring0 %d" % i)
            assert re.search(r"^cpu 0 answered a ring from cpu %d: from=cpu0 this_cpu=0 "
                             r"cycles=\d+$" % i, out, re.M), out
        _, after = _malta_cpus(c)
        assert int(after[0].group(6)) == int(before[0].group(6)) + n - 1, after[0].group(0)
        assert "error: cpus: ENODEV: no VPE 0 to ring cpu 0 from (%d known)" % n in \
            c.run("cpus --ring0 0")

        # hwperf keeps a bank on each VPE: ticks counted there, by that VPE.
        assert c.run("hwperf sys force cycles:k,ticks:k").startswith("ok")
        assert "nap: slept" in c.run("spawn --wait nap 200")
        for i in range(n):
            out = c.run("hwperf sys read --cpu %d" % i)
            got = {m.group(1): (int(m.group(2)), int(m.group(3))) for m in
                   re.finditer(r"^(\S+) count=(\d+) enabled=(\d+) running=\d+$", out, re.M)}
            assert set(got) == {"cycles:k", "ticks:k"}, out
            assert all(count > 0 for count, _ in got.values()), out
            # Its own Count, extended to 64 bits as CPU 0's: enabled time
            # is the seconds since the force, not 2^32 cycles off.
            assert all(enabled < 10 * 166666667 for _, enabled in got.values()), out
        assert c.run("hwperf sys release").startswith("ok")
        # CPU 0 still runs the tasks.
        assert "hello from pid" in c.run("spawn --wait hello")
    finally:
        c.close()


def test_malta_vpe_that_does_not_start_is_reported(target):
    """smpbreak=2 leaves VPE 2 halted: boot names it and why, the others
    come up, `cpus` shows it offline and a ping to it fails by name."""
    c = Console("mips", cpu="34Kf", smp=4, append="smpbreak=2")
    try:
        log = c.text(c.boot_log)
        why = "left halted (smpbreak), never reached mips_vpe_main within 100 ms"
        assert re.search(r"^smp: cpu 2 did not start: %s$" % re.escape(why), log, re.M), log
        m = MALTA_VPE_LINE.search(log)
        assert m and (int(m.group(1)), int(m.group(2))) == (3, 4), log
        online, rows = _malta_cpus(c)
        assert online == 3 and [rows[i].group(3) for i in range(4)] == ["1", "1", "0", "1"]
        assert 'why="%s"' % why in c.run("cpus")
        assert "error: cpus: EAGAIN: cpu 2 is not online: " + why in c.run("cpus --ping 2")
        for i in (1, 3):
            assert re.search(r"^cpu %d answered: from=cpu%d " % (i, i),
                             c.run("cpus --ping %d" % i), re.M)
    finally:
        c.close()


def test_malta_vpes_tick_in_step_under_icount(target):
    """Under -icount QEMU runs the VPEs round robin on one virtual clock:
    each VPE's Count/Compare tick keeps pace with CPU 0's, and a ring
    round trip lasts a whole number of timer ticks: the spinning VPE 0 runs
    until the next timer deadline before QEMU switches vCPU, and where the
    ping lands between deadlines depends on when the host delivered the
    command's bytes (docs/design/platforms.md)."""
    c = Console("mips", cpu="34Kf", smp=2, icount=True, append="cpi=1")
    try:
        _, a = _malta_cpus(c)
        assert "nap: slept" in c.run("spawn --wait nap 500")
        _, b = _malta_cpus(c)
        ticks0 = int(b[0].group(5)) - int(a[0].group(5))
        ticks1 = int(b[1].group(5)) - int(a[1].group(5))
        assert ticks0 >= 50 and abs(ticks1 - ticks0) <= 1, (a, b)
        info = c.run("info")
        cycles_hz = int(re.search(r"^cycles_hz: (\d+)$", info, re.M).group(1))
        hz = int(re.search(r"^hz: (\d+)$", info, re.M).group(1))
        tick = cycles_hz // hz
        for _ in range(3):
            m = re.search(r"^cpu 1 answered: from=cpu1 vpe=1 this_cpu=1 cycles=(\d+)$",
                          c.run("cpus --ping 1"), re.M)
            assert m
            trip = int(m.group(1))
            # Measured 3,332,537..3,332,666 (two ticks) and 4,999,131..
            # 4,999,137 (three, in a loaded CI run): each a few hundred
            # cycles short of a whole number of ticks.
            # One tick (1,665,840) since the VPEs' entry words moved to
            # DESAVE (make test after that merge).
            k = (trip + tick // 2) // tick
            assert k in (1, 2, 3) and abs(trip - k * tick) <= tick // 1000, (trip, tick)
    finally:
        c.close()


@pytest.mark.kernel_only
def test_cpu_that_does_not_start_is_reported(target, boot):
    """smpbreak=2 withholds CPU 2's startup IPIs: boot names it with its
    APIC id and reason, the other APs come up, and `cpus` shows it offline;
    a ping to it fails by name."""
    c = boot(smp=4, append="smpbreak=2")
    log = c.text(c.boot_log)
    assert re.search(r"^smp: cpu 2 \(apic 2\) did not start: no answer within 500 ms "
                     r"\(smpbreak: no SIPI sent\)$", log, re.M), log
    m = SMP_LINE.search(log)
    assert m and (int(m.group(1)), int(m.group(2))) == (3, 4), log
    assert re.search(r"^cpus_online: 3$", c.run("info"), re.M)
    online, rows = _cpus(c)
    assert online == 3 and sorted(rows) == [0, 1, 2, 3]
    assert [rows[i].group(3) for i in range(4)] == ["1", "1", "0", "1"]
    assert 'why="no answer within 500 ms (smpbreak: no SIPI sent)"' in c.run("cpus")
    assert "error: cpus: EAGAIN: cpu 2 (apic 2) is not online: no answer" in \
        c.run("cpus --ping 2")
    for i in (1, 3):
        assert re.search(r"^cpu %d answered: from=cpu%d " % (i, i),
                         c.run("cpus --ping %d" % i), re.M)


@pytest.mark.kernel_only
def test_more_cpus_than_cpu_max(target, boot):
    """-smp 17: CPU_MAX (16) come up, the one over is named at boot."""
    c = boot(smp=17)
    log = c.text(c.boot_log)
    m = SMP_LINE.search(log)
    assert m and (int(m.group(1)), int(m.group(2))) == (16, 17), log
    assert re.search(r"^smp: 1 CPU left off: more than CPU_MAX \(16\)$", log, re.M), log
    # 17 vCPU threads on a 2-core host: one may not run within the
    # ping's 100 ms (`cpu 5 did not answer within 100 ms` once, in .ci/run
    # on e447b70 beside the other worker).  Three tries; every CPU must
    # answer in one of them.
    for _ in range(3):
        out = c.run("cpus --ping all")
        if not re.search(r"^error: cpus: ETIMEDOUT: cpu \d+ did not answer within 100 ms$",
                         out, re.M):
            break
    assert re.search(r"^all answered: cpus=15 ", out, re.M), out


@pytest.mark.kernel_only
def test_late_ap_parks_instead_of_joining(target, boot):
    """smplate=2: CPU 2 dawdles past the BSP's 500 ms wait.  Boot counts it
    offline, and when it gets there it must park, not join: a CPU that
    schedules while the kernel counts it offline once panicked with
    `spinlock cpu_runq: taken twice on one CPU` (it believed one CPU ran).
    Under -icount its 1 s of dawdling is over long before the checks."""
    c = boot(smp=4, icount=True, append="smplate=2")
    log = c.text(c.boot_log)
    assert re.search(r"^smp: cpu 2 \(apic 2\) did not start: stuck before going "
                     r"online$", log, re.M), log
    m = SMP_LINE.search(log)
    assert m and (int(m.group(1)), int(m.group(2))) == (3, 4), log
    pids = [re.search(r"^pid (\d+)$", c.run("spawn spin 200000000"), re.M).group(1)
            for _ in range(6)]
    time.sleep(2)
    online, rows = _cpus(c)
    assert online == 3 and rows[2].group(3) == "0"
    out = c.run("sched")
    assert re.search(r"^cpu2 offline$", out, re.M), out
    assert "panic" not in out
    ps = c.run("ps")
    for pid in pids:
        row = re.search(r"^\s*%s\s.*\s(\d+)\s+-\s+\d+$" % pid, ps, re.M)
        assert row and row.group(1) != "2", ps
