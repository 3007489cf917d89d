"""SMP, second step (issue 13): tasks run on every x86_64 CPU.

Per-CPU run queues, wake-ups that prefer an idle CPU, balancing on the
tick, `spawn --cpu N` and `pin PID CPU|-` (ps: CPU, PIN and MIGR columns),
giant and real spinlocks with the lockdebug=1 checks, and a counted task
that migrates many times keeping cycles:u equal to its user time exactly.
Each test boots its own QEMU with -smp N.
"""
import os
import re
import time

import pytest

from tally_console import SUMMARY, CLOSING, PROMPT, Console

# The several-CPU selftests (slow_smp): over 15 minutes once on a loaded
# 2-core host for SMP=2 under -icount, so half an hour before giving up.
SELFTEST_SMP_TIMEOUT = 1800

QUICK_TARGETS = ["x86_64"]
pytestmark = pytest.mark.kernel_only

LONG_SPIN = "1000000000000"     # outlives every test (x86_64: 64-bit count); killed at the end
PS_ROW = re.compile(r"^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(\d+)\s+(\S+)\s+(\d+)\s+(\d+)"
                    r"\s+(\d+)\s+(\d+|-)\s+(\d+)\s*$", re.M)
SCHED_ROW = re.compile(r"^cpu(\d+) current=(\d+) ready=(\d+) switches=(\d+) ticks=(\d+) "
                       r"idle_iterations=(\d+) pulled=(\d+)$", re.M)


def ps(c):
    """pid -> dict(state, name, cpu, pin, migr) for every task."""
    out = c.run("ps")
    assert out.splitlines()[0].split()[-3:] == ["CPU", "PIN", "MIGR"], out
    return {int(m.group(1)): dict(state=m.group(5), name=m.group(7), cpu=int(m.group(10)),
                                  pin=None if m.group(11) == "-" else int(m.group(11)),
                                  migr=int(m.group(12)))
            for m in PS_ROW.finditer(out)}


def sched(c):
    return {int(m.group(1)): dict(current=int(m.group(2)), switches=int(m.group(4)),
                                  ticks=int(m.group(5)), pulled=int(m.group(7)))
            for m in SCHED_ROW.finditer(c.run("sched"))}


def spawn(c, line):
    out = c.run("spawn " + line)
    m = re.search(r"^pid (\d+)$", out, re.M)
    assert m, out
    return int(m.group(1))


def ended(c, pid):
    out = c.run("wait %d" % pid, timeout=120)
    m = re.search(r"^(exit \d+|signal \w+)$", out, re.M)
    assert m, out
    return m.group(1)


def let_run(c, seconds):
    time.sleep(seconds)
    c.run("echo tick")


def until(c, pred, what, timeout=10):
    deadline = time.monotonic() + timeout
    while True:
        rows = ps(c)
        if pred(rows):
            return rows
        assert time.monotonic() < deadline, "%s; ps: %r" % (what, rows)
        let_run(c, 0.05)


@pytest.mark.parametrize("n", [2, 4])
def test_spawn_cpu_pins_and_bad_cpu_spawns_nothing(target, boot, n):
    c = boot(smp=n)
    last = n - 1
    pid = spawn(c, "--cpu %d spin %s" % (last, LONG_SPIN))
    rows = until(c, lambda r: r[pid]["state"] == "run", "the pinned task never ran")
    assert rows[pid]["cpu"] == last and rows[pid]["pin"] == last
    assert sched(c)[last]["current"] == pid
    # Other spinners go anywhere but never onto it: it stays on its CPU.
    others = [spawn(c, "spin " + LONG_SPIN) for _ in range(n)]
    let_run(c, 0.5)
    rows = ps(c)
    assert rows[pid]["cpu"] == last and rows[pid]["migr"] == 0, rows[pid]
    for o in others:
        assert rows[o]["pin"] is None

    before = set(ps(c))
    for bad in ("99", str(n), "x", "-1"):
        out = c.run("spawn --cpu %s spin 1" % bad)
        assert re.search(r"^error: spawn: ENODEV: no CPU '%s' runs tasks \(0\.\.%d\)$"
                         % (re.escape(bad), last), out, re.M), out
    assert "usage" in c.run("spawn --cpu")
    assert set(ps(c)) == before, "a refused spawn started nothing"

    for p in [pid] + others:
        c.run("kill -KILL %d" % p)
        assert ended(c, p) == "signal SIGKILL"


def test_busy_cpus_even_out_their_queues(target, boot):
    """Spinners all start on CPU 0 (their creator's); an idle CPU 1 pulls
    one, and is then busy.  Every BALANCE_TICKS a busy CPU also pulls from
    a queue two or more longer than its own (kernel/proc/sched.c balance),
    so eight spinners end up four and four, or five and three: without
    it they stayed seven and one (measured on the Malta's stress run: 63
    and 1)."""
    c = boot(smp=2)
    pids = [spawn(c, "spin " + LONG_SPIN) for _ in range(8)]
    rows = until(c, lambda r: min(sum(1 for p in pids if r[p]["cpu"] == i)
                                  for i in (0, 1)) >= 3,
                 "the queues did not even out", timeout=10)
    on = [sum(1 for p in pids if rows[p]["cpu"] == i) for i in (0, 1)]
    assert sorted(on) in ([4, 4], [3, 5]), (on, rows)
    assert sched(c)[1]["pulled"] >= 3, sched(c)
    for p in pids:
        c.run("kill -KILL %d" % p)
        assert ended(c, p) == "signal SIGKILL"


@pytest.mark.parametrize("n", [2, 4])
def test_tasks_spread_over_cpus_and_balance(target, boot, n):
    c = boot(smp=n)
    pids = [spawn(c, "spin " + LONG_SPIN) for _ in range(n)]
    let_run(c, 0.5)
    rows = ps(c)
    assert {rows[p]["cpu"] for p in pids} == set(range(n)), rows
    s = sched(c)
    assert sorted(s) == list(range(n))
    assert all(s[i]["switches"] > 0 for i in range(n)), s
    # More tasks than CPUs, then most end: the idle CPUs pull the rest.
    more = [spawn(c, "spin " + LONG_SPIN) for _ in range(n)]
    let_run(c, 0.3)
    for p in pids:
        c.run("kill -KILL %d" % p)
        assert ended(c, p) == "signal SIGKILL"
    # Within 10 s, not 0.5: with 4 vCPU threads on this 2-core host beside
    # the other worker, CPU 0 once had not pulled within 0.5 s (.ci/run on
    # 235ba51); balancing that never happens still fails.
    until(c, lambda rows: len({rows[p]["cpu"] for p in more}) == n,
          "the idle CPUs did not pull the spinners")
    assert sum(s["pulled"] for s in sched(c).values()) > 0
    for p in more:
        c.run("kill -KILL %d" % p)
        assert ended(c, p) == "signal SIGKILL"


@pytest.mark.parametrize("n", [2, 4])
def test_signals_waits_forks_and_pingpong_across_cpus(target, boot, n):
    c = boot(smp=n)
    last = n - 1
    # A sleeper on another CPU, cut short by a signal sent from CPU 0.
    nap = spawn(c, "--cpu %d nap 60000" % last)
    until(c, lambda r: r[nap]["state"] == "sleep", "nap never slept")
    c.run("kill -USR1 %d" % nap)
    assert ended(c, nap) == "exit 5"
    # A running task on another CPU, ended by SIGTERM.
    spin = spawn(c, "--cpu %d spin %s" % (last, LONG_SPIN))
    until(c, lambda r: r[spin]["state"] == "run", "spin never ran")
    c.run("kill -TERM %d" % spin)
    assert ended(c, spin) == "signal SIGTERM"
    # Fork trees spread over the CPUs; every parent reaps its children.
    for depth in (3, 5):
        out = c.run("spawn --wait forktree %d" % depth, timeout=120)
        assert re.search(r"^exit 0$", out, re.M), out
    out = c.run("spawn --wait --cpu %d forktree 4" % last, timeout=120)
    assert re.search(r"^exit 0$", out, re.M), out
    # Pingpong: parent and child yield to each other, wherever they run.
    out = c.run("spawn --wait pingpong 2000", timeout=120)
    assert re.search(r"^exit 0$", out, re.M), out
    assert sorted(ps(c)) == [0, 1], "everything was reaped"
    pages = re.search(r"pages_free=(\d+)", c.run("mem")).group(1)
    out = c.run("spawn --wait forktree 4", timeout=120)
    assert re.search(r"^exit 0$", out, re.M), out
    assert re.search(r"pages_free=(\d+)", c.run("mem")).group(1) == pages


def read_cycles_and_utime(c, pid):
    out = c.run("hwperf read -r %d" % pid)
    m = re.search(r"^cycles:u count=(\d+) ", out, re.M)
    assert m, out
    return int(m.group(1)), int(re.search(r"utime_cycles=(\d+)", out).group(1))


def park_on_cpu0(c, pid):
    """Pin to CPU 0, where the console runs: while the console reads, the
    task is switched out, so its counts and times are both final."""
    c.run("pin %d 0" % pid)
    rows = until(c, lambda r: r[pid]["cpu"] == 0 and r[pid]["state"] == "ready",
                 "the task never came to CPU 0")
    return rows[pid]["migr"]


def migrate_counted(c, pid, moves, cpu_of):
    """Pin pid to cpu_of(i) for i < moves, between two parkings on CPU 0:
    (migrations, cycles:u gained, user time gained)."""
    m0 = park_on_cpu0(c, pid)
    n0, u0 = read_cycles_and_utime(c, pid)
    for i in range(moves):
        assert c.run("pin %d %d" % (pid, cpu_of(i))) == ""
    m1 = park_on_cpu0(c, pid)
    n1, u1 = read_cycles_and_utime(c, pid)
    return m1 - m0, n1 - n0, u1 - u0


@pytest.mark.parametrize("n", [2, 4])
def test_migrated_counted_task_keeps_cycles_u_equal_to_user_time(target, boot, n):
    """R2/R14 across CPUs: at every move the old CPU switches the task out
    (hwperf folds) and the new one switches it in (resumes), so no cycle
    is lost or counted twice however often it moves."""
    c = boot(smp=n)
    pid = spawn(c, "spin " + LONG_SPIN)
    assert re.match(r"^ok gen=\d+", c.run("hwperf enable %d cycles:u" % pid))
    moves = 300
    migr, cycles, utime = migrate_counted(
        c, pid, moves, lambda i: 1 + i % (n - 1) if n > 2 else i % 2)
    assert migr >= moves // 4, "only %d migrations" % migr
    assert cycles == utime > 0
    c.run("kill -KILL %d" % pid)
    assert ended(c, pid) == "signal SIGKILL"


def test_pin_refuses_by_name(target, boot):
    c = boot(smp=2)
    assert "error: pin: ESRCH: no live task 999" in c.run("pin 999 1")
    assert "error: pin: EPERM: pid 1 is a kernel thread" in c.run("pin 1 1")
    pid = spawn(c, "spin " + LONG_SPIN)
    assert "error: pin: ENODEV: no CPU 7 runs tasks (0..1)" in c.run("pin %d 7" % pid)
    assert "error: usage: pin PID CPU|-" in c.run("pin %d" % pid)
    assert c.run("pin %d 1" % pid) == ""
    until(c, lambda r: r[pid]["cpu"] == 1 and r[pid]["pin"] == 1, "never moved to CPU 1")
    assert c.run("pin %d -" % pid) == ""
    assert ps(c)[pid]["pin"] is None
    c.run("kill -KILL %d" % pid)
    assert ended(c, pid) == "signal SIGKILL"


def panic_of(c, line):
    c.send(line + "\r")
    c.expect(r"panic: ", timeout=30)
    return c.expect(r"\n", timeout=10).strip()


def test_lockdebug_catches_double_take_and_sleep_holding(target, boot):
    c = boot(smp=2)
    assert "error: lockcheck: EINVAL: lockdebug is off" in c.run("lockcheck twice")
    # Under lockdebug=1 ordinary work trips nothing ...
    c = boot(smp=2, append="lockdebug=1")
    out = c.run("spawn --wait forktree 4", timeout=120)
    assert re.search(r"^exit 0$", out, re.M), out
    # ... and each deliberate mistake panics naming the lock and both places.
    line = panic_of(c, "lockcheck twice")
    assert re.match(r"lockdebug: lock lockcheck taken twice on cpu 0: first at 0x[0-9a-f]+, "
                    r"again at 0x[0-9a-f]+$", line), line
    c = boot(smp=2, append="lockdebug=1")
    line = panic_of(c, "lockcheck sleep")
    assert re.match(r"lockdebug: lock lockcheck held across a sleep by pid 1 \(console\) "
                    r"on cpu 0, taken at 0x[0-9a-f]+$", line), line


# The selftest's one wall-clock check: ticks counted against the cycle
# counter over a free-running round (kernel/bench/tick_bench.c).
HOST_CLOCK = re.compile(r"^FAIL: bench: tick_vs_cycles: ticks_free count=\d+ expected=")


@pytest.mark.slow_smp
@pytest.mark.parametrize("n,icount", [(2, False), (4, True), (4, False)],
                         ids=["smp2", "smp4-icount", "smp4"])
def test_selftest_passes_on_several_cpus(target, n, icount):
    """The one-shot selftest with the APs running tasks (SMP=2 under
    ICOUNT=1 is test_smp.py's).  Without -icount four vCPU threads share
    this 2-core host, so the wall-clock check tick_vs_cycles ticks_free
    measures the host's scheduling: alone it passed 5 runs of 5, but
    beside `make test-smp`'s other worker and a cost run its best of 5
    rounds was 36 of 50 ticks (docs/design/platforms.md); 3 runs of 3
    alone passed on 5a243d3 (42 to 46 s each).  So every check runs, and only a run whose
    one failure is that wall-clock check SKIPs.  An AP has 500 ms to come
    online and parks if it is later (test_smp.py)."""
    host = os.cpu_count() or 1
    c = Console(target, append="selftest cpi=1" if icount else "selftest",
                icount=icount, smp=n, wait=False)
    try:
        status, out = c.wait_exit(timeout=SELFTEST_SMP_TIMEOUT)
    finally:
        c.close()
    assert re.search(r"^smp: %d of %d CPUs online" % (n, n), out, re.M), out
    m, cl = SUMMARY.search(out), CLOSING.search(out)
    assert m and cl, out
    fails = re.findall(r"^FAIL: .*$", out, re.M)
    if not icount and host < n and fails and all(HOST_CLOCK.match(f) for f in fails):
        pytest.skip("%d vCPU threads on %d host cores: %s measures the host's "
                    "scheduling, not Tally (every other check passed)" % (n, host, fails[0]))
    assert not fails, out
    assert status == 0 and int(m.group(2)) == 0


CHORUS = re.compile(r"chorus ([abc]) (\d+) abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ\r?$",
                    re.M)


def test_writes_from_several_cpus_stay_whole(target, boot):
    """Three tasks on CPUs 1-3 each print 1,000 lines, one write() a line,
    while the console prints `help` five times: every line arrives whole.
    Today giant already keeps a system call and a kernel thread's printf
    apart; the console's output lock (kernel/console/console.c) keeps
    every printf, write and echo whole against what runs outside giant as
    well (interrupts, panics on another CPU), so this holds when system
    calls stop taking giant.  (The shell's echo of a typed command may land
    between two lines.)"""
    c = boot(smp=4)
    n = 1000
    out, pids = "", []

    def everything(line):
        # Console.run drops the line before the prompt's echo, and a task
        # may have printed there: keep every byte.
        c.send(line + "\r")
        c.proc.expect(PROMPT, timeout=120)
        return c.text(c.proc.before)
    for cpu, tag in ((1, "a"), (2, "b"), (3, "c")):
        said = everything("spawn --cpu %d chorus %d %s" % (cpu, n, tag))
        out += said
        pids.append(int(re.search(r"^pid (\d+)\r?$", said, re.M).group(1)))
    # The console prints at the same time (system calls take giant, so
    # the tasks' writes alone would not meet; the console's printf does).
    for _ in range(5):
        out += everything("help")
    out += "".join(everything("wait %d" % pid) for pid in pids)
    seen = {tag: sorted(int(m.group(2)) for m in CHORUS.finditer(out) if m.group(1) == tag)
            for tag in "abc"}
    for tag in "abc":
        assert seen[tag] == list(range(n)), "lines of %s cut or lost:\n%s" % (tag, out)
