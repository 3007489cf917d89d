"""hwperf from user programs: SYS_hwperf and the user library (issue 4,
item 7), exercising what only a task itself can do.  Every test names the
rule it checks; all run on the software PMU, on every -kernel target.

The programs (user/hw*.c) print machine-readable lines:

    hwovf gen=G thresh=N calls=M signals=S count=C
    hwovf at=A1,A2,...                  loop call after which each signal came
    hwbusy pid=P enable=EBUSY gen=G gen_after=G still_counting=1
    r16 parent spec=S gen=G / r16 child spec=S gen=G count=C
    r17 before=A after=B child_calls=K
    r18 save=G before=A exited=B reaped=C child_calls=K
    r6 child gen_before=G gen_after=H / r6 acquire=G release=0 before=A after=B
    hwbad NAME=ENAME ok|FAIL ... hwbad failures=F
"""
import re

import pytest

from tally_console import fields, ints

pytestmark = pytest.mark.kernel_only

RUN_TIMEOUT = 120
THRESH = 10
CALLS = 95
OWN_READ = 1                # a task's first read counts itself (syscalls:u)


@pytest.fixture
def hw(console):
    if "unknown command" in console.run("help spawn"):
        pytest.skip("tasks are not in this kernel yet (no `spawn`)")
    if "no program 'hwbad'" in console.run("spawn --wait hwbad", timeout=RUN_TIMEOUT):
        pytest.skip("the hwperf user programs are not in this kernel")
    return console


def run(c, line):
    out = c.run("spawn --wait " + line, timeout=RUN_TIMEOUT)
    assert re.search(r"^exit 0$", out, re.M), out
    return out




def expected_signal_points(thresh, calls):
    """Where in hwovf's loop each overflow signal lands, and the count its
    final read returns (R15).  thresh must be 2 or more.

    Every counted system call moves the count by one: each loop call, the
    handler's return (sigreturn) after each signal, and the final read.  A
    signal comes on the return from the call that makes the count a
    multiple of thresh; after a sigreturn the count is one past one."""
    at, count = [], 0
    for done in range(1, calls + 1):
        count += 1
        if count % thresh == 0:
            at.append(done)
            count += 1          # the handler's sigreturn
    count += 1                  # the read, which counts itself
    if count % thresh == 0:
        at.append(calls)        # after the read; its sigreturn comes later
    return at, count


# ---- R15: the overflow signal after exactly n system calls ------------------

@pytest.mark.parametrize("thresh,calls", [(THRESH, CALLS), (1000, 999), (7, 7)])
def test_r15_signal_after_exactly_n_syscalls(hw, thresh, calls):
    out = run(hw, "hwovf %d %d" % (thresh, calls))
    f = ints(fields(out, "hwovf"))
    at, count = expected_signal_points(thresh, calls)
    assert f["gen"] > 0
    assert f["signals"] == len(at)
    assert f["count"] == count
    m = re.search(r"^hwovf at=([\d,]*)$", out, re.M)
    assert m, out
    assert [int(x) for x in m.group(1).split(",") if x] == at
    if at:
        assert at[0] == min(thresh, calls)  # the thresh-th counted call


# ---- R4: EBUSY for a system-wide request while our USER counters run ----------

def test_r4_ebusy_names_the_live_holder(hw):
    out = run(hw, "hwbusy")
    f = fields(out, "hwbusy")
    pid = int(f["pid"])
    assert f["enable"] == "EBUSY"
    assert f["gen"] == f["gen_after"]            # nothing changed (R7)
    assert f["still_counting"] == "1"
    # R20: the console tells why, naming the holder and where it runs.
    assert re.search(r"^hwperf: pid %d: EBUSY: pid %d has USER counters live on cpu 0$"
                     % (pid, pid), out, re.M), out


# ---- R16, R17, R18, R6: counters across fork, wait and exit -------------------

@pytest.fixture
def forked(hw):
    return run(hw, "hwfork")


def test_r16_child_gets_control_with_zero_counts(forked):
    parent = fields(forked, "r16 parent")
    child = fields(forked, "r16 child")
    assert child["spec"] == parent["spec"]
    assert child["gen"] == parent["gen"]
    # The child's first read is its first counted call: nothing before it.
    assert int(child["count"]) == OWN_READ


def test_r17_waited_child_counts_are_added(forked):
    f = ints(fields(forked, "r17"))
    assert f["after"] - f["before"] == f["child_calls"]


def test_r18_save_child_adds_at_exit_without_waiting(forked):
    f = ints(fields(forked, "r18"))
    assert f["save"] > 0
    assert f["exited"] - f["before"] == f["child_calls"]
    assert f["reaped"] == f["exited"]            # added once, not again at wait


def test_r6_lost_child_is_not_added(forked):
    child = ints(fields(forked, "r6 child"))
    assert child["gen_after"] == child["gen_before"] + 1     # R6, R7
    f = ints(fields(forked, "r6"))
    assert f["acquire"] > 0 and f["release"] == 0            # R5, R12
    assert f["after"] == f["before"]                         # R17
    assert "hwfork done" in forked


# ---- bad pointers and bad ops ------------------------------------------------

def test_efault_and_einval_change_nothing(hw):
    out = run(hw, "hwbad")
    lines = re.findall(r"^hwbad (\w+)=(\w+) (ok|FAIL)$", out, re.M)
    assert lines, out
    got = {name: (err, verdict) for name, err, verdict in lines}
    for name in ("enable_null", "enable_low", "enable_kernel", "read_kernel",
                 "read_text", "rusage_bad", "sysread_null", "setctl_bad"):
        assert got[name] == ("EFAULT", "ok"), name
    for name in ("op_unknown", "op_negative", "pid_negative",
                 "release_extra_arg", "read_extra_arg2", "sysread_id"):
        assert got[name] == ("EINVAL", "ok"), name
    assert got["cpu_none"] == ("ok", "ok")       # R12: 0, not an error
    assert got["getctl_after"] == ("EINVAL", "ok")   # refused enable left nothing
    assert got["setctl_gen_kept"] == ("ok", "ok")
    # A read's buffer: in place within a page, copied across two; a
    # refused read leaves either as it was.
    for name in ("read_nopid", "read_nopid_across"):
        assert got[name] == ("ESRCH", "ok"), name
    for name in ("read_nopid_kept", "read_nopid_across_kept", "read_inplace",
                 "read_across", "read_inplace_again", "read_across_counts"):
        assert got[name] == ("ok", "ok"), name
    # A full set's reads, through the arch's fast copy (the FPU's on
    # Malta) and a word at a time, come out whole and in order.
    for name in ("enable_full", "read_full", "read_full_whole"):
        assert got[name] == ("ok", "ok"), name
    assert re.search(r"^hwbad failures=0$", out, re.M)


def test_kernel_survives_and_pmu_is_free_after(hw):
    run(hw, "hwbad")
    out = hw.run("hwperf status")
    assert re.search(r"^mode FREE$", out, re.M), out
    assert hw.run("echo ok") == "ok\n"
