"""perfmon's pause/resume/reset and pctr's combined read (issue 15 item 5),
from the console (`hwperf pause|resume|reset|pctr PID`) and from a task
through the user library (user/hwpause.c).  The rules are docs/hwperf.md's
"Pause, resume, reset and the pctr read": pause and resume keep the
generation (R7 moves it only when counts stop being comparable), reset
bumps it, resume does not restart a set lost to SYSTEM mode (R6).

syscalls:u counts in QEMU (the software PMU counts system calls as the
kernel takes them), exactly one per call, so every expectation is exact.
"""
import re
import time

import pytest

from tally_console import fields, ints

pytestmark = pytest.mark.kernel_only

RUN_TIMEOUT = 120
CALLS = 1000
OK = re.compile(r"^ok (?:gen=(\d+)|0)$")
ERR = re.compile(r"^err (E[A-Z]+): (.+)$")
CTR = re.compile(r"^(\S+) count=(\d+) enabled=(\d+) running=(\d+)$", re.M)
PCTR = re.compile(r"^pctr cycles=(\d+) idle_cycles=(\d+) idle_iterations=(\d+) ncpus=(\d+)$",
                  re.M)
RUSAGE_SYSCALLS = re.compile(r"^rusage .*\bsyscalls=(\d+)", re.M)
LONG_SYS = "2000000000"         # getppid calls: outlives the test; killed at the end


def ok(out):
    m = OK.match(out.splitlines()[0] if out else "")
    assert m, "expected an ok line:\n" + out
    return int(m.group(1)) if m.group(1) else 0


def err(out, name):
    m = ERR.match(out.splitlines()[0] if out else "")
    assert m and m.group(1) == name, "expected err %s:\n%s" % (name, out)
    return m.group(2)


@pytest.fixture
def c(console):
    if "unknown command" in console.run("help spawn"):
        pytest.skip("tasks are not in this kernel yet (no `spawn`)")
    return console


def spawn(c, prog):
    out = c.run("spawn " + prog)
    m = re.search(r"^pid (\d+)$", out, re.M)
    assert m, out
    return int(m.group(1))


def let_run(c, seconds=0.5):
    """The console sleeps on input, so the spawned task gets the CPU."""
    time.sleep(seconds)
    c.run("echo tick")


def read(c, pid):
    """(generation, syscalls:u count, the task's system calls so far)."""
    out = c.run("hwperf read -r %d" % pid)
    gen = ok(out)
    m = CTR.search(out)
    assert m and m.group(1) == "syscalls:u", out
    return gen, int(m.group(2)), int(RUSAGE_SYSCALLS.search(out).group(1))


def test_console_pause_resume_reset(c):
    pid = spawn(c, "sys " + LONG_SYS)
    try:
        gen = ok(c.run("hwperf enable %d syscalls:u" % pid))
        let_run(c)
        _, before, _ = read(c, pid)
        assert before > 0
        # Paused: the task keeps making calls, the count stands still.
        assert ok(c.run("hwperf pause %d" % pid)) == gen
        g1, paused1, calls1 = read(c, pid)
        let_run(c)
        g2, paused2, calls2 = read(c, pid)
        assert (g1, g2) == (gen, gen)
        assert calls2 > calls1, "the task did not run while paused"
        assert paused2 == paused1 >= before
        # Still the holder (not released), generation unchanged.
        assert re.search(r"^holder pid=%d .*gen=%d lost=0$" % (pid, gen),
                         c.run("hwperf status"), re.M)
        # Resume: counting continues from the paused value.
        assert ok(c.run("hwperf resume %d" % pid)) == gen
        let_run(c)
        g3, resumed, calls3 = read(c, pid)
        assert g3 == gen
        assert paused2 < resumed <= paused2 + (calls3 - calls2)
        # Reset: zero, and the generation moves (R7).
        assert ok(c.run("hwperf pause %d" % pid)) == gen
        assert ok(c.run("hwperf reset %d" % pid)) == gen + 1
        g4, zero, _ = read(c, pid)
        assert (g4, zero) == (gen + 1, 0)
        assert ok(c.run("hwperf resume %d" % pid)) == gen + 1
        let_run(c)
        assert read(c, pid)[1] > 0
    finally:
        c.run("kill -KILL %d" % pid)


def pctr(c, pid):
    out = c.run("hwperf pctr %d" % pid)
    gen = ok(out)
    m = PCTR.search(out)
    assert m, out
    cnt = CTR.search(out)
    assert cnt, out
    return gen, [int(x) for x in m.groups()], int(cnt.group(2))


def test_console_pctr_read_is_consistent(c):
    pid = spawn(c, "nap 100000")
    try:
        gen = ok(c.run("hwperf enable %d syscalls:u" % pid))
        g1, (cyc1, idle1, it1, ncpus), n1 = pctr(c, pid)
        time.sleep(0.3)         # the console and the napper sleep: idle runs
        g2, (cyc2, idle2, it2, _), n2 = pctr(c, pid)
        assert g1 == g2 == gen
        assert cyc2 > cyc1
        assert idle2 > idle1, "nothing ran but the idle task, yet it did not count"
        assert it2 >= it1
        # Idle time never exceeds the time that passed, per CPU.
        assert idle2 - idle1 <= (cyc2 - cyc1) * ncpus
        assert idle1 <= cyc1 * ncpus
        assert n1 == n2         # a sleeping task makes no system calls
    finally:
        c.run("kill -KILL %d" % pid)


def test_console_refusals(c):
    err(c.run("hwperf pause 30000"), "ESRCH")
    err(c.run("hwperf pctr 30000"), "ESRCH")
    pid = spawn(c, "nap 100000")
    try:
        assert "no counters to pause" in err(c.run("hwperf pause %d" % pid), "EINVAL")
        err(c.run("hwperf reset %d" % pid), "EINVAL")
        ok(c.run("hwperf enable %d syscalls:u" % pid))
        # R8: another user of another group may not.
        assert "may not touch" in err(c.run("as 100 hwperf pause %d" % pid), "EPERM")
        err(c.run("as 100 hwperf pctr %d" % pid), "EPERM")
    finally:
        c.run("kill -KILL %d" % pid)


def test_R6_resume_does_not_restart_lost_counters(c):
    pid = spawn(c, "sys " + LONG_SYS)
    try:
        gen = ok(c.run("hwperf enable %d syscalls:u" % pid))
        ok(c.run("hwperf pause %d" % pid))
        ok(c.run("hwperf sys force syscalls:uk"))
        assert "R6" in err(c.run("hwperf resume %d" % pid), "EINVAL")
        assert ok(c.run("hwperf sys release")) == 0
        err(c.run("hwperf resume %d" % pid), "EINVAL")
        # set-control restarts them, as R6 says; a pause it kept ends with resume.
        assert ok(c.run("hwperf setctl %d syscalls:u" % pid)) > gen
    finally:
        c.run("kill -KILL %d" % pid)
        c.run("hwperf sys release")


def line_fields(out, start):
    """The integer key=value fields of the line that begins with start."""
    m = re.search(r"^(%s.*)$" % re.escape(start), out, re.M)
    assert m, "no `%s` line in:\n%s" % (start, out)
    return ints(dict(f.split("=", 1) for f in m.group(1).split()[1:]))


def test_user_library_pause_resume_reset_pctr(c):
    out = c.run("spawn --wait hwpause %d" % CALLS, timeout=RUN_TIMEOUT)
    assert re.search(r"^exit 0$", out, re.M), out
    g = line_fields(out, "hwpause gen=")
    gen = g["gen"]
    assert gen > 0
    assert g["pause_gen"] == gen and g["resume_gen"] == gen
    assert g["reset_gen"] == gen + 1
    v = line_fields(out, "hwpause a=")
    n = v["calls"]
    # a: N calls and the read itself; b: the pause call counted at its
    # entry, then nothing for N calls and a read; resume's own entry was
    # paused; d: N calls and the read; e: a fresh zero plus the read.
    assert v["a"] == n + 1
    assert v["b"] == v["a"] + 1
    assert v["c"] == v["b"]
    assert v["d"] == v["c"] + n + 1
    assert v["e"] == 1
    p = ints(fields(out, "hwpctr"))
    assert p["gen1"] == p["gen2"] == gen + 1
    assert p["cycles2"] > p["cycles1"]
    assert p["idle2"] > p["idle1"]
    assert p["idle2"] - p["idle1"] <= (p["cycles2"] - p["cycles1"]) * p["ncpus"]
    assert p["iter2"] >= p["iter1"]
    # The second read saw the nap and itself.
    assert p["count2"] == p["count1"] + 2
    assert re.search(r"^hwpause failures=0$", out, re.M), out
    assert not re.search(r"^hwpause \w+=\w+ FAIL$", out, re.M), out
