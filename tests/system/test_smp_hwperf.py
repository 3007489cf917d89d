"""hwperf across CPUs (issue 13): R3, R4, R5, R12 and R19 with -smp 4.

Every boot here is under -icount (cpi=1): the vCPUs then run in one
thread on one virtual clock, so every AP starts and ticks on time whatever
the host's load.

Every online CPU keeps its own PMU state (the software PMU's bank and idle
ticks), and whatever hwperf must do to another CPU's counters it does on
that CPU by IPI (kernel/hwperf/xcall.c).  The first tests need no task on
an AP: the APs idle, and their SYSTEM blocks count their own kernel
cycles and timer ticks.  The others pin a task to a CPU with
`spawn --cpu N`, which the SMP scheduler adds; a kernel without it
answers with spawn's usage line, and those tests SKIP saying so.
"""
import re
import time

import pytest

pytestmark = pytest.mark.kernel_only
QUICK_TARGETS = ["x86_64"]

SMP = 4
OK = re.compile(r"^ok (?:gen=(\d+)|0)$")
ERR = re.compile(r"^err (E[A-Z]+): (.+)$")
CTR = re.compile(r"^(\S+) count=(\d+) enabled=(\d+) running=(\d+)$", re.M)
CPU_TICKS = re.compile(r"^cpu=(\d+) apic=\d+ online=1 role=\w+ timer=\S+ ticks=(\d+)", re.M)
LONG_SPIN = "3000000000"        # outlives every test; killed at the end


def first(out):
    return out.splitlines()[0] if out else ""


def ok(out):
    m = OK.match(first(out))
    assert m, "expected an ok line:\n" + out
    return int(m.group(1)) if m.group(1) else 0


def err(out, name):
    m = ERR.match(first(out))
    assert m, "expected an err line:\n" + out
    assert m.group(1) == name, out
    return m.group(2)


def counters(out):
    return {m.group(1): int(m.group(2)) for m in CTR.finditer(out)}


KEVENTS = re.compile(r"^kevents cpu=(\d+) kinds=(\S+)$", re.M)


def kevents(c):
    """{cpu: kinds} of `hwperf status`: what each CPU's hooks pass on."""
    return {int(cpu): kinds for cpu, kinds in KEVENTS.findall(c.run("hwperf status"))}


def cpu_ticks(c):
    return {int(a): int(b) for a, b in CPU_TICKS.findall(c.run("cpus"))}


def let_run(c, seconds):
    time.sleep(seconds)
    c.run("echo tick")


def smp(boot):
    # Under -icount (one thread, one virtual clock) every AP starts and
    # ticks on time whatever the host's load; without it, on a loaded host,
    # an AP can miss smp_boot's 100 ms window and stay offline.
    c = boot(smp=SMP, icount=True, append="cpi=1")
    assert re.search(r"^cpus_online: %d$" % SMP, c.run("info"), re.M)
    return c


def pinned(c, cpu, prog):
    """pid of prog started on CPU cpu; SKIP when spawn has no --cpu."""
    out = c.run("spawn --cpu %d %s" % (cpu, prog))
    m = re.search(r"^pid (\d+)$", out, re.M)
    if not m and "usage:" in out:
        pytest.skip("`spawn --cpu N` is not in this kernel (the SMP scheduler "
                    "adds it; until then no task runs on an AP): " + first(out))
    assert m, out
    return int(m.group(1))


def test_R3_R12_R19_every_cpu_counts_its_own(boot):
    c = smp(boot)
    before = cpu_ticks(c)
    gen = ok(c.run("hwperf sys force cycles:k,ticks:k"))
    # R3: every CPU's block is loaded there, so every CPU's hooks pass
    # the two kinds on (each tests its own word: pmu_kevent.h).
    assert kevents(c) == {cpu: "cycles,ticks" for cpu in range(SMP)}
    assert "nap: slept" in c.run("spawn --wait nap 300")
    per_cpu = {}
    for cpu in range(SMP):
        out = c.run("hwperf sys read --cpu %d" % cpu)
        assert ok(out) == gen, out
        per_cpu[cpu] = counters(out)
        # R3: the same events count on every CPU, idle APs included.
        assert per_cpu[cpu]["cycles:k"] > 0 and per_cpu[cpu]["ticks:k"] > 0, out
    after = cpu_ticks(c)
    # R19: a CPU's block counts that CPU's ticks only: no more than its
    # own timer took between the two looks (all CPUs' would be ~4x).
    for cpu in range(1, SMP):
        assert per_cpu[cpu]["ticks:k"] <= after[cpu] - before[cpu], (cpu, per_cpu, before, after)
    # R12: the system read folds every CPU (each on itself) into the sum.
    total = counters(c.run("hwperf sys read"))
    assert total["ticks:k"] >= sum(p["ticks:k"] for p in per_cpu.values())
    assert total["cycles:k"] >= sum(p["cycles:k"] for p in per_cpu.values())
    # R12: 0, not a generation, for a CPU that does not exist.
    assert first(c.run("hwperf sys read --cpu %d" % SMP)) == "ok 0"
    assert first(c.run("hwperf sys read --cpu 16")) == "ok 0"
    # Release folds and stops every CPU's block.
    assert ok(c.run("hwperf sys release")) == 0
    assert counters(c.run("hwperf sys read --cpu 3")) == {}
    assert kevents(c) == {cpu: "none" for cpu in range(SMP)}
    # All of it by cross-call, every one answered (`hwperf status`).
    m = re.search(r"^xcalls served=(\d+) polled=(\d+) timeouts=(\d+) rerung=(\d+)$",
                  c.run("hwperf status"), re.M)
    assert m and int(m.group(1)) >= 3 * (SMP - 1) and m.group(3) == "0", m


def test_R12_cpu_read_is_live_not_a_tick_old(boot):
    c = smp(boot)
    ok(c.run("hwperf sys force cycles:k"))
    # Two reads of CPU 3 a few ms apart: folded on CPU 3 at each read, so
    # the count grows between them even within one tick.
    a = counters(c.run("hwperf sys read --cpu 3"))["cycles:k"]
    b = counters(c.run("hwperf sys read --cpu 3"))["cycles:k"]
    assert b > a


def test_R4_system_enable_names_task_and_cpu(boot):
    c = smp(boot)
    pid = pinned(c, 1, "spin " + LONG_SPIN)
    ok(c.run("hwperf enable %d cycles:u" % pid))
    let_run(c, 0.2)
    why = err(c.run("hwperf sys enable cycles:k"), "EBUSY")
    assert "pid %d has USER counters live on cpu 1" % pid in why, why
    # Its counters are live on CPU 1 alone: only CPU 1's hooks feed them.
    assert kevents(c) == {0: "none", 1: "cycles", 2: "none", 3: "none"}
    c.run("kill -KILL %d" % pid)


def test_R5_R6_force_takes_counters_off_cpu1(boot):
    c = smp(boot)
    pid = pinned(c, 1, "spin " + LONG_SPIN)
    gen = ok(c.run("hwperf enable %d cycles:u" % pid))
    let_run(c, 0.3)
    ok(c.run("hwperf sys force cycles:k,cycles:u"))
    out = c.run("hwperf read %d" % pid)
    assert ok(out) == gen + 1, "R6: its generation goes up\n" + out
    frozen = counters(out)["cycles:u"]
    assert frozen > 0, "R5: folded on CPU 1 before the loss\n" + out
    let_run(c, 0.3)                 # still spinning on CPU 1
    assert counters(c.run("hwperf read %d" % pid))["cycles:u"] == frozen, "R6: frozen"
    # CPU 1's user cycles now go to CPU 1's system block (R3, R19).
    assert counters(c.run("hwperf sys read --cpu 1"))["cycles:u"] > 0
    assert counters(c.run("hwperf sys read --cpu 2"))["cycles:u"] == 0
    c.run("kill -KILL %d" % pid)


def test_R12_pinned_workload_shows_on_its_cpu_only(boot):
    c = smp(boot)
    ok(c.run("hwperf sys force cycles:k,cycles:u"))
    pids = [pinned(c, cpu, "spin " + LONG_SPIN) for cpu in (2, 3)]
    let_run(c, 0.3)
    u = {cpu: counters(c.run("hwperf sys read --cpu %d" % cpu))["cycles:u"]
         for cpu in range(SMP)}
    assert u[2] > 0 and u[3] > 0, u
    assert u[1] == 0, "nothing runs in user mode on CPU 1: %r" % u
    for pid in pids:
        c.run("kill -KILL %d" % pid)


# ---- the benchmarks: rules_smp (R3, R12, R19) and cost_smp -----------------

CHECK = re.compile(r"^(PASS|FAIL|SKIP|INFO): bench: (\S+): (\S+) (.*)$", re.M)
RULES_SMP = ["R3-every-cpu-counts", "R12-cpu-read-live", "R19-ticks-own-cpu",
             "R12-sys-read-sums", "R1-free-after"]


def verdicts(out, bench):
    found = {m.group(3): (m.group(1), m.group(4)) for m in CHECK.finditer(out)
             if m.group(2) == bench}
    assert found, out
    return found


def test_rules_smp_pass_on_every_cpu(boot):
    c = smp(boot)
    got = verdicts(c.run("bench run rules_smp", timeout=120), "rules_smp")
    assert got["cpus-online"] == ("INFO", "count=%d" % SMP), got
    for check in RULES_SMP:
        assert got[check][0] == "PASS", (check, got)
    assert "mode FREE" in c.run("hwperf status")


def test_rules_smp_benchbreak_makes_every_check_fail(boot):
    c = boot(smp=2, append="cpi=1 benchbreak=rules_smp", icount=True)
    got = verdicts(c.run("bench run rules_smp", timeout=120), "rules_smp")
    for check in RULES_SMP:
        verdict, rest = got[check]
        assert verdict == "FAIL" and "benchbreak" in rest, (check, got)


def test_cpu_benchmarks_skip_on_one_cpu(console):
    for bench in ("rules_smp", "cost_smp", "stress"):
        out = console.run("bench run " + bench, timeout=60)
        skips = re.findall(r"^SKIP: bench: %s: \S+ \((.*)\)$" % bench, out, re.M)
        assert skips and all("one CPU online" in s for s in skips), out
        assert "FAIL" not in out and "COST:" not in out, out


def test_cost_smp_rows_exact_and_within_budget(boot):
    import cost_budget
    c = boot(smp=2, append="cpi=1", icount=True)
    first_run = cost_budget.table(c.run("bench run cost_smp", timeout=240))
    second = cost_budget.table(c.run("bench run cost_smp", timeout=240))
    assert sorted(first_run) == ["ipi_roundtrip", "sysread_allcpus"], first_run
    # Under -icount the round trip is a fixed stream: the same every run.
    assert first_run["ipi_roundtrip"]["total"] == second["ipi_roundtrip"]["total"]
    # The system read folds CPU 1 by cross-call: it costs at least one.
    assert first_run["sysread_allcpus"]["milli"] > first_run["ipi_roundtrip"]["milli"]
    budget = cost_budget.load()["x86_64-smp2"]
    bad = cost_budget.over_budget(budget, cost_budget.entry(first_run))
    assert not bad, cost_budget.describe("x86_64-smp2", bad)


STRESS = ["forced", "errors", "ended", "backwards", "lost-moved", "pages-leaked", "clock-backwards",
          "R1-free-after"]


@pytest.mark.slow_smp
def test_stress_forced_takeovers_every_tick_on_4_cpus(boot):
    """64 tasks with counters, a forced takeover at every tick for 10 s.
    The tasks run on every CPU, and each takeover also programs, folds
    and clears every CPU's SYSTEM block there by cross-call.  As the
    benchbreak run below: QEMU's round robin sometimes runs one vCPU
    alone for minutes under -icount, and this run did not end within
    300 s once on a quiet host (make test-smp on e8d262f)."""
    c = smp(boot)
    out = c.run("bench run stress", timeout=900)
    got = verdicts(out, "stress")
    ticks = int(re.search(r"count=(\d+)", got["ticks"][1]).group(1))
    assert ticks >= 10 * 90, out           # about HZ=100 for 10 s
    for check in STRESS:
        assert got[check][0] == "PASS", (check, out)
    assert "spin" not in c.run("ps")


@pytest.mark.slow_smp
def test_stress_benchbreak_fails_every_check(boot):
    # Four vCPUs, as the stress itself: with exactly two under -icount,
    # QEMU 7.2 once left CPU 1 unscheduled for minutes (docs/design/platforms.md).
    # Usually 13 to 21 s; 1 boot in 8 QEMU's round robin ran only one
    # vCPU for minutes (681 s once), then the run ended right
    # (docs/design/platforms.md, "Exactly two vCPUs under -icount").
    c = boot(smp=SMP, append="cpi=1 benchbreak=stress", icount=True)
    got = verdicts(c.run("bench run stress -n 1", timeout=900), "stress")
    for check in STRESS:
        verdict, rest = got[check]
        assert verdict == "FAIL" and "benchbreak" in rest, (check, got)
