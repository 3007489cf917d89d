"""hwperf through the console: the counter-sharing rules R1..R20.

Every test names the rule it checks.  They run on the software PMU, the
only PMU that counts in QEMU; each boots its own kernel so that modes and
generations start from a known state.  The console is root (uid 0) and is
the highest-priority task, so a program it spawns has not run yet when the
next console command enables its counters.
"""
import os
import re
import time

import pytest

from tally_console import ROOT

pytestmark = pytest.mark.kernel_only
# ... and with two and four CPUs (issue 13): the rules hold on CPU 0
# whatever the others do.
SMP_TARGETS = ["x86_64-smp2", "x86_64-smp4"]

OK = re.compile(r"^ok (?:gen=(\d+)|0)$")
ERR = re.compile(r"^err (E[A-Z]+): (.+)$")
CTR = re.compile(r"^(\S+) count=(\d+) enabled=(\d+) running=(\d+)$", re.M)
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
    return {m.group(1): tuple(int(x) for x in m.group(2, 3, 4)) for m in CTR.finditer(out)}


def spawn(c, prog, *opts):
    out = c.run(" ".join(("spawn",) + opts + (prog,)))
    m = re.search(r"^pid (\d+)$", out, re.M)
    assert m, out
    return int(m.group(1))


def status(c):
    out = c.run("hwperf status")
    ok(out)
    mode = re.search(r"^mode (\w+)$", out, re.M).group(1)
    holders = {int(p): dict(cpu=int(cp), gen=int(g), lost=int(l)) for p, cp, g, l in
               re.findall(r"^holder pid=(\d+) cpu=(-?\d+) gen=(\d+) lost=(\d)$", out, re.M)}
    return mode, holders


def let_run(c, seconds):
    """The console sleeps on input, so spawned tasks get the CPU."""
    time.sleep(seconds)
    c.run("echo tick")


def test_R1_R7_status_starts_free(boot):
    c = boot()
    mode, holders = status(c)
    assert mode == "FREE" and holders == {}


def test_R2_R4_R7_enable_returns_positive_generation(boot):
    c = boot()
    pid = spawn(c, "spin " + LONG_SPIN)
    gen = ok(c.run("hwperf enable %d cycles:u,syscalls:u" % pid))
    assert gen >= 1
    mode, holders = status(c)
    assert mode == "USER"
    assert holders[pid]["gen"] == gen and holders[pid]["lost"] == 0
    let_run(c, 0.3)
    out = c.run("hwperf read %d" % pid)
    assert ok(out) == gen
    ctrs = counters(out)
    assert ctrs["cycles:u"][0] > 0 and ctrs["syscalls:u"][0] == 0
    c.run("kill -KILL %d" % pid)


def beside_console(target):
    """spawn options that run a task on the console's CPU.  A read of a task
    running on another CPU sees its counts as of that CPU's last fold (its
    last tick or counter wrap) and its user time as of its last kernel
    entry, each up to a tick old and not the same instant (docs/hwperf.md,
    Several CPUs); on the console's CPU the task is between two time
    slices whenever the console reads, so both are exact together."""
    return ("--cpu", "0") if "smp" in target else ()


def read_cycles_and_utime(c, pid, name="cycles:u"):
    out = c.run("hwperf read -r %d" % pid)
    return counters(out)[name][0], int(re.search(r"utime_cycles=(\d+)", out).group(1))


def test_R2_R14_cycles_u_equals_user_time_exactly(target, boot):
    """R2: counted only while the task runs; R14: folded exactly.  The task
    may run before `enable` lands (the console waits for input between
    lines), so compare what both clocks gained between two reads."""
    c = boot()
    pid = spawn(c, "spin " + LONG_SPIN, *beside_console(target))
    ok(c.run("hwperf enable %d cycles:u" % pid))
    let_run(c, 0.2)
    n0, u0 = read_cycles_and_utime(c, pid)
    let_run(c, 0.5)
    n1, u1 = read_cycles_and_utime(c, pid)
    assert n1 - n0 == u1 - u0 > 0
    c.run("kill -KILL %d" % pid)


@pytest.mark.parametrize("width", [16, 8])
def test_R14_narrow_counter_exact_over_1000_wraps(target, boot, width):
    c = boot(append="softpmu_width=%d" % width)
    assert "counters x %d bits" % width in c.boot_log.decode("latin-1")
    pid = spawn(c, "spin " + LONG_SPIN, *beside_console(target))
    ok(c.run("hwperf enable %d cycles:u" % pid))
    let_run(c, 0.1)
    n0, u0 = read_cycles_and_utime(c, pid)
    wraps_needed = 1000 << width
    prev, deadline = n0, time.monotonic() + 60
    while True:
        let_run(c, 0.3)
        n1, u1 = read_cycles_and_utime(c, pid)
        assert n1 >= prev, "R14: a virtual count went backwards"
        prev = n1
        if n1 - n0 > wraps_needed or time.monotonic() > deadline:
            break
    assert n1 - n0 > wraps_needed, "only %d wraps" % ((n1 - n0) >> width)
    assert n1 - n0 == u1 - u0
    c.run("kill -KILL %d" % pid)


def test_R13_eight_events_on_two_counters_share_time(boot):
    c = boot()
    pid = spawn(c, "spin " + LONG_SPIN)
    spec = "@0=cycles:u,@1=cycles:uk,@2=syscalls:u,@3=faults:u,@4=ticks:u,@5=irqs:u,@6=csw:k,@7=signals:k"
    ok(c.run("hwperf enable %d %s" % (pid, spec)))
    let_run(c, 2.0)
    ctrs = counters(c.run("hwperf read %d" % pid))
    assert len(ctrs) == 8
    for name, (count, enabled, running) in ctrs.items():
        assert enabled > 0
        share = running / enabled
        assert 0.20 <= share <= 0.30, (name, share)
    c.run("kill -KILL %d" % pid)


def test_R4_R5_R6_R7_forced_acquire_takes_sleeping_holder(boot):
    c = boot()
    pid = spawn(c, "nap 100000")
    gen = ok(c.run("hwperf enable %d cycles:u" % pid))
    let_run(c, 0.1)
    sysgen = ok(c.run("hwperf sys force cycles:k"))
    mode, holders = status(c)
    assert mode == "SYSTEM"
    assert holders[pid]["lost"] == 1, "R6: the holder is marked lost"
    assert holders[pid]["gen"] == gen + 1, "R6/R7: its generation goes up"
    assert ok(c.run("hwperf read %d" % pid)) == gen + 1, "R6: counts stay readable"
    assert "SYSTEM" in err(c.run("hwperf sys force cycles:k"), "EBUSY"), "R5: already SYSTEM"
    assert "SYSTEM" in err(c.run("hwperf enable %d cycles:u" % pid), "EBUSY"), "R4: SYSTEM mode"
    assert ok(c.run("hwperf sys read")) == sysgen
    c.run("kill -KILL %d" % pid)


def test_R6_lost_counters_never_restart(boot):
    c = boot()
    pid = spawn(c, "spin " + LONG_SPIN)
    ok(c.run("hwperf enable %d cycles:u" % pid))
    let_run(c, 0.2)
    ok(c.run("hwperf sys force cycles:k"))
    ok(c.run("hwperf sys release"))
    mode, holders = status(c)
    assert mode != "SYSTEM" and holders[pid]["lost"] == 1
    before = counters(c.run("hwperf read %d" % pid))["cycles:u"][0]
    let_run(c, 0.3)                 # the task runs, SYSTEM mode is over
    after = counters(c.run("hwperf read %d" % pid))["cycles:u"][0]
    assert after == before, "R6: counters restarted after SYSTEM mode ended"
    gen = ok(c.run("hwperf setctl %d cycles:u" % pid))     # explicit restart
    let_run(c, 0.3)
    assert counters(c.run("hwperf read %d" % pid))["cycles:u"][0] > 0
    assert status(c)[1][pid]["lost"] == 0 and status(c)[1][pid]["gen"] == gen
    c.run("kill -KILL %d" % pid)


def test_R4_sys_enable_takes_counters_from_holders_not_running(boot):
    """One CPU: while the console runs no USER holder is live, so the
    non-forced system request succeeds and the sleeping holder loses."""
    c = boot()
    pid = spawn(c, "nap 100000")
    gen = ok(c.run("hwperf enable %d cycles:u" % pid))
    ok(c.run("hwperf sys enable cycles:k"))
    mode, holders = status(c)
    assert mode == "SYSTEM" and holders[pid]["lost"] == 1 and holders[pid]["gen"] == gen + 1
    c.run("kill -KILL %d" % pid)


def test_R4_EBUSY_target_already_enabled(boot):
    c = boot()
    pid = spawn(c, "nap 100000")
    ok(c.run("hwperf enable %d cycles:u" % pid))
    assert "set-control" in err(c.run("hwperf enable %d syscalls:u" % pid), "EBUSY")
    c.run("kill -KILL %d" % pid)


def test_R4_R20_EINVAL_names_the_bad_token(boot):
    c = boot()
    pid = spawn(c, "nap 100000")
    before = status(c)
    assert "thresh" in err(c.run("hwperf enable %d cycles:u:thresh=-1" % pid), "EINVAL")
    assert "nosuch" in err(c.run("hwperf enable %d nosuch" % pid), "EINVAL")
    assert "33" in err(c.run("hwperf enable %d cycles,sig=33" % pid), "EINVAL")
    assert "q" in err(c.run("hwperf enable %d cycles:q" % pid), "EINVAL")
    err(c.run("hwperf enable %d rZZ" % pid), "EINVAL")
    assert status(c) == before, "a refused request changed nothing"
    c.run("kill -KILL %d" % pid)


def test_R4_ESRCH_no_such_task(boot):
    c = boot()
    assert "9999" in err(c.run("hwperf enable 9999 cycles"), "ESRCH")
    assert "9999" in err(c.run("hwperf read 9999"), "ESRCH")


def test_R4_R20_EPERM_kernel_modes_need_root(boot):
    c = boot()
    pid = spawn(c, "nap 100000", "--pgid", "1")
    assert err(c.run("as 100 hwperf enable %d cycles:k" % pid), "EPERM")
    assert err(c.run("as 100 hwperf enable %d cycles:ux" % pid), "EPERM")
    ok(c.run("as 100 hwperf enable %d cycles:u" % pid))     # user mode is fine
    ok(c.run("hwperf release %d" % pid))
    c.run("kill -KILL %d" % pid)


def test_R5_R12_system_operations_need_root(boot):
    c = boot()
    err(c.run("as 100 hwperf sys force cycles:k"), "EPERM")
    ok(c.run("hwperf sys force cycles:k"))
    err(c.run("as 100 hwperf sys setctl cycles:k"), "EPERM")
    err(c.run("as 100 hwperf sys release"), "EPERM")
    assert status(c)[0] == "SYSTEM"


def test_R3_R5_system_mode_needs_a_kernel_mode_event(boot):
    """R3: SYSTEM mode needs root and at least one k-mode event."""
    c = boot()
    err(c.run("hwperf sys force cycles:u,syscalls:u"), "EINVAL")
    assert status(c)[0] == "FREE"


def test_R8_only_same_group_or_root(boot):
    c = boot()
    other = spawn(c, "nap 100000", "--uid", "100", "--pgid", "7")
    mine = spawn(c, "nap 100000", "--uid", "100", "--pgid", "1")
    ok(c.run("hwperf enable %d cycles:u" % other))     # root may
    err(c.run("as 100 hwperf read %d" % other), "EPERM")  # other group
    ok(c.run("as 100 hwperf enable %d cycles:u" % mine))  # the console's group
    ok(c.run("as 100 hwperf read %d" % mine))
    c.run("kill -KILL %d" % other)
    c.run("kill -KILL %d" % mine)


def test_R7_R10_setctl_bumps_generation_getctl_returns_events(boot):
    c = boot()
    pid = spawn(c, "nap 100000")
    g1 = ok(c.run("hwperf enable %d cycles:u,syscalls:u:thresh=5,sig=10" % pid))
    out = c.run("hwperf getctl %d" % pid)
    assert ok(out) == g1
    assert "cycles:u" in out and "syscalls:u:thresh=5" in out and "sig=10" in out
    g2 = ok(c.run("hwperf setctl %d faults:u" % pid))
    assert g2 == g1 + 1
    assert "faults:u" in c.run("hwperf getctl %d" % pid)
    c.run("kill -KILL %d" % pid)


def test_R11_release_stops_counting_counts_stay_readable(boot):
    c = boot()
    pid = spawn(c, "spin " + LONG_SPIN)
    ok(c.run("hwperf enable %d cycles:u" % pid))
    let_run(c, 0.2)
    ok(c.run("hwperf release %d" % pid))
    before = counters(c.run("hwperf read %d" % pid))["cycles:u"][0]
    let_run(c, 0.2)
    assert counters(c.run("hwperf read %d" % pid))["cycles:u"][0] == before > 0
    c.run("kill -KILL %d" % pid)


def test_R12_R19_system_reads_per_cpu(boot):
    c = boot()
    err(c.run("hwperf sys getctl"), "EINVAL")           # not in SYSTEM mode
    sysgen = ok(c.run("hwperf sys force ticks:uk,cycles:k"))
    let_run(c, 0.3)
    total = counters(c.run("hwperf sys read"))
    cpu0 = c.run("hwperf sys read --cpu 0")
    assert ok(cpu0) == sysgen
    assert counters(cpu0)["ticks:uk"][0] >= 1
    assert total["ticks:uk"][0] >= 1
    assert c.run("hwperf sys read --cpu 5").splitlines()[0] == "ok 0"   # no such CPU
    out = c.run("hwperf sys getctl")
    assert ok(out) == sysgen and "ticks:uk" in out
    assert c.run("hwperf sys release").splitlines()[0] == "ok 0"
    assert status(c)[0] == "FREE"


def test_R9_read_with_resource_usage(boot):
    c = boot()
    pid = spawn(c, "spin " + LONG_SPIN)
    ok(c.run("hwperf enable %d cycles:u" % pid))
    let_run(c, 0.2)
    out = c.run("hwperf read -r %d" % pid)
    ru = dict(re.findall(r"(\w+)=(\d+)", out.splitlines()[-1]))
    for k in ("utime_ns", "stime_ns", "faults", "tlb_refills", "signals", "vcsw",
              "ivcsw", "syscalls"):
        assert k in ru
    assert int(ru["utime_ns"]) > 0
    c.run("kill -KILL %d" % pid)


def test_R20_bad_command_and_bad_pid_change_nothing(boot):
    c = boot()
    err(c.run("hwperf frobnicate"), "EINVAL")
    err(c.run("hwperf enable -3 cycles"), "EINVAL")
    err(c.run("hwperf enable 12x cycles"), "EINVAL")
    assert status(c) == ("FREE", {})
    assert c.run("echo ok") == "ok\n"


def abi_ops():
    """HWPERF_OP_* numbers as kernel/hwperf/abi.h (the user library's ABI) defines them."""
    text = open(os.path.join(ROOT, "kernel/hwperf/abi.h")).read()
    return {name: int(n) for name, n in
            re.findall(r"^#define HWPERF_OP_(\w+)\s+(\d+)", text, re.M) if name != "COUNT"}


OPS_LINE = re.compile(r'^op (\d+) console="([^"]*)"(?: self="([^"]*)")? '
                      r'id=(\S+) arg=(\S+) perm=(\S+)$', re.M)


def test_ops_table_lists_every_op_and_root_rows_refuse_other_uids(boot):
    """`hwperf ops` prints the one table both doors use: every ABI op number
    once, and each row marked root is refused to uid 100 with EPERM (the table's
    claim checked against what the kernel does)."""
    c = boot()
    out = c.run("hwperf ops")
    ok(out)
    rows = {int(m.group(1)): m.groups()[1:] for m in OPS_LINE.finditer(out)}
    assert sorted(rows) == sorted(abi_ops().values()), out
    assert rows[abi_ops()["MAP"]][0] == "", "the read page has no console words"
    root_rows = [words for words, _self, _id, arg, perm in rows.values() if perm == "root"]
    assert sorted(root_rows) == ["sys force", "sys release", "sys setctl"], out
    for words, _self, _id, arg, perm in rows.values():
        if perm != "root":
            continue
        line = "as 100 hwperf " + words + (" cycles:k" if arg == "ctl-in" else "")
        err(c.run(line), "EPERM")
    mode, holders = status(c)
    assert mode == "FREE" and holders == {}, "a refused op changed nothing"
