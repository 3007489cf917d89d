"""Reading one's own counters without a system call (issue 6, item 8): the
read page of HWPERF_OP_MAP, read by user/uread.c through hwp_uread and
compared with the read system call.  Every -kernel target; the software
PMU (all QEMU has), whose cycles:u user mode reads from the cycle counter
(rdtsc on x86, RDHWR $2 on MIPS).

    uread map gen=G
    uread fault_retry retries=1
    uread run rounds=N reads=R retries=T fails=F
    uread hammer reads=H retries=T kernel_exits=K
    uread last fast=CYC,SYS sys=CYC,SYS
    uread cycles gap_max=G read_min=D null_min=U exact=E
    uread cost fast=X syscall=Y
    uread sched ivcsw=I
"""
import re

import pytest

from tally_console import Console, fields, ints

pytestmark = pytest.mark.kernel_only

RUN_TIMEOUT = 180
ROUNDS = 300                # shared console, no icount: checks of order only
EXACT_ROUNDS = 1000         # private icount boot, under a competitor
MUX_ROUNDS = 200
# A busy competitor that outlives uread: it only has to keep the CPU
# wanted, so that ticks preempt uread; it is killed afterwards.
SPIN = 4000000000
# Syscalls uread makes before its first round, after enabling: the map
# call, the write of its "uread map" line, two brk calls (ask, grow) for
# the fresh page and the write of the "fault_retry" line.  Each round
# makes two (the read and a getpid), the cost measurement one per round,
# the final read one.
SYSCALLS_BEFORE_ROUNDS = 5
SYSCALLS_PER_ROUND = 2
ROUNDING_TICKS = 1          # MIPS Count ticks once per 6 instructions
HAMMER_EXITS = 16           # uread reads back to back until it saw these
# The guarded read without the page: x86 rdpmc with CR4.PCE clear raises
# #GP (SIGSEGV), MIPS RDHWR $2 with HWREna.CC clear a reserved instruction
# exception (SIGILL).
GUARDED_SIGNAL = {"x86_64": ("SIGSEGV", 11), "mips": ("SIGILL", 4),
                  "mipsbe": ("SIGILL", 4)}
GUARDED_FAULT = {"x86_64": "#GP general protection", "mips": "reserved instruction",
                 "mipsbe": "reserved instruction"}




def pair(s):
    a, b = s.split(",")
    return int(a), int(b)


def run_ok(c, line):
    out = c.run("spawn --wait " + line, timeout=RUN_TIMEOUT)
    assert re.search(r"^exit 0$", out, re.M), out
    return out


def check_common(out, rounds, mux=False):
    """What holds with or without icount: every check in the program
    passed, the last fast read is at or below the system call read that
    followed it, and (one event per counter) syscalls:u is exact."""
    r = ints(fields(out, "uread run"))
    assert r["fails"] == 0 and r["rounds"] == rounds, out
    # A page fault inside one read's window: exactly one retry.
    assert ints(fields(out, "uread fault_retry"))["retries"] == 1, out
    h = ints(fields(out, "uread hammer"))
    assert HAMMER_EXITS <= h["kernel_exits"], out
    assert h["retries"] <= h["kernel_exits"], out
    last = fields(out, "uread last")
    fast_cyc, fast_sys = pair(last["fast"])
    sys_cyc, sys_sys = pair(last["sys"])
    assert fast_cyc <= sys_cyc, out
    if not mux:
        assert fast_sys == SYSCALLS_BEFORE_ROUNDS + SYSCALLS_PER_ROUND * rounds, out
        # the cost loop's reads, then the final read counting itself
        assert sys_sys == fast_sys + rounds + 1, out
    cost = ints(fields(out, "uread cost"))
    assert 0 < cost["fast"] < cost["syscall"], out
    return r, h


@pytest.fixture(scope="module")
def exact(target):
    """One private icount boot per target: uread under a competitor, then
    with three events multiplexed on two counters."""
    c = Console(target, append="cpi=1", icount=True)
    try:
        if "no program 'uread'" in c.run("spawn --wait uread bad"):
            pytest.skip("uread is not in this kernel")
        spin = c.run("spawn spin %d" % SPIN)
        pid = re.search(r"^pid (\d+)$", spin, re.M).group(1)
        busy = c.run("spawn --wait uread %d exact" % EXACT_ROUNDS, timeout=RUN_TIMEOUT)
        c.run("kill %s" % pid)
        mux = c.run("spawn --wait uread %d exact mux" % MUX_ROUNDS, timeout=RUN_TIMEOUT)
        alive = c.run("echo alive")
    finally:
        c.close()
    return {"busy": busy, "mux": mux, "alive": alive}


def test_uread_exact_under_preemption(exact):
    out = exact["busy"]
    assert re.search(r"^exit 0$", out, re.M), out
    r, h = check_common(out, EXACT_ROUNDS)
    # The competitor took the CPU from uread, and every value stayed in
    # order across those switches (fails=0 above).
    assert ints(fields(out, "uread sched"))["ivcsw"] >= 1, out
    cyc = ints(fields(out, "uread cycles"))
    assert cyc["exact"] == 1
    # The fast read after the system call is ahead of it by less than a
    # null call's share of user time (user/uread.c explains the bound).
    assert 0 < cyc["read_min"] < cyc["null_min"], out
    assert cyc["gap_max"] <= cyc["null_min"] + ROUNDING_TICKS, out


def test_uread_exact_multiplexed(exact):
    out = exact["mux"]
    assert re.search(r"^exit 0$", out, re.M), out
    check_common(out, MUX_ROUNDS, mux=True)
    assert "alive" in exact["alive"]


def test_uread_without_icount(console):
    out = run_ok(console, "uread %d" % ROUNDS)
    check_common(out, ROUNDS)
    assert ints(fields(out, "uread cycles"))["exact"] == 0


def test_guarded_read_without_map_is_killed(console, target):
    name, _ = GUARDED_SIGNAL[target]
    out = console.run("spawn --wait uread fault", timeout=RUN_TIMEOUT)
    assert re.search(r"^signal %s$" % name, out, re.M), out
    assert GUARDED_FAULT[target] in out, out
    assert "survived" not in out
    assert "alive" in console.run("echo alive")


def test_guarded_read_after_map_is_allowed(console, target):
    """MIPS: RDHWR $2 works once mapped.  x86: CR4.PCE is set, so rdpmc
    no longer raises #GP; QEMU 7.2 implements no rdpmc and raises #UD
    instead (SIGILL), which shows the permission changed."""
    out = console.run("spawn --wait uread guarded", timeout=RUN_TIMEOUT)
    if target == "x86_64":
        assert re.search(r"#UD invalid opcode.*SIGILL$", out, re.M), out
        assert "#GP" not in out
        assert re.search(r"^signal SIGILL$", out, re.M), out
    else:
        assert re.search(r"^uread guarded survived value=\d+$", out, re.M), out
        assert re.search(r"^exit 0$", out, re.M), out


def test_forked_child_has_no_page(console, target):
    _, num = GUARDED_SIGNAL[target]
    out = run_ok(console, "uread fork")
    f = fields(out, "uread fork")
    assert f["child"] == "signal" and int(f["sig"]) == num, out
    assert f["parent_read"] == "1", out


def test_bad_map_calls_change_nothing(console):
    out = run_ok(console, "uread bad")
    for name, want in [("uread_unmapped", "EINVAL"), ("map_id", "EINVAL"),
                       ("map_arg", "EINVAL"), ("map_arg2", "EINVAL"),
                       ("gen_same", "ok"), ("page_unmapped", "ok")]:
        assert re.search(r"^uread bad %s=%s ok$" % (name, want), out, re.M), out
    assert "uread bad failures=0" in out
