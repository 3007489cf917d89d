"""`stat [-e SPEC] [--json] PROG [ARGS]`: run a program with counters in
user mode and print its counts, like perf stat (issue 4, item 9).

    ok gen=N                                 counters on before it ran
    ... the program's output ...
    NAME count=C enabled=E running=R [running_pct=P scaled=S]
    exit N | signal NAME

Counts the programs promise (user/NAME.c): `sys N` makes N + 1 system
calls (the loop, then exit); `touch N` makes 3 and takes N page faults.
"""
import json
import re

import pytest

pytestmark = pytest.mark.kernel_only

STAT_TIMEOUT = 120
SYS_CALLS = 1000
SYS_OTHER_SYSCALLS = 1      # exit
TOUCH_PAGES = 10
TOUCH_SYSCALLS = 3          # brk, brk, exit
SOFT_COUNTERS = 2           # the software PMU's default width of the PMU
CTR = re.compile(r"^(\S+) count=(\d+) enabled=(\d+) running=(\d+)"
                 r"(?: running_pct=(\d+\.\d\d) scaled=(\d+))?$", re.M)


@pytest.fixture
def st(console):
    if "unknown command" in console.run("help stat"):
        pytest.skip("no `stat` in this kernel yet")
    return console


def pids(c):
    return sorted(int(line.split()[0]) for line in c.run("ps").splitlines()[1:])


def stat(c, args):
    """stat with hwperf read's count lines (--kv), which these tests parse
    exactly; --json runs keep their own form."""
    kv = "" if args.startswith("--json") else "--kv "
    return c.run("stat " + kv + args, timeout=STAT_TIMEOUT)


def counters(out):
    return {m.group(1): dict(count=int(m.group(2)), enabled=int(m.group(3)),
                             running=int(m.group(4)), pct=m.group(5),
                             scaled=int(m.group(6)) if m.group(6) else None)
            for m in CTR.finditer(out)}


def test_stat_sys_counts_exactly_its_syscalls(st):
    """R2, R9: counting starts before the first instruction and ends with
    the exit call, so the count is exactly what the program makes."""
    out = stat(st, "-e syscalls:u sys %d" % SYS_CALLS)
    assert re.match(r"ok gen=\d+\n", out), out
    c = counters(out)
    assert c["syscalls:u"]["count"] == SYS_CALLS + SYS_OTHER_SYSCALLS
    assert re.search(r"^exit 0$", out, re.M)


def test_stat_default_events_are_exact(st):
    """The defaults fit the PMU at once: none is multiplexed (R13)."""
    out = stat(st, "sys %d" % SYS_CALLS)
    lines = out.splitlines()
    assert re.fullmatch(r"ok gen=\d+", lines[0]), out
    assert lines[-1] == "exit 0"
    c = counters(out)
    assert c["syscalls:u"]["count"] == SYS_CALLS + SYS_OTHER_SYSCALLS
    assert 1 <= len(c) <= SOFT_COUNTERS or "cycles:u" in c
    for name, v in c.items():
        assert v["running"] == v["enabled"] and v["pct"] is None, name


def test_stat_touch_faults(st):
    out = stat(st, "-e faults:u,syscalls:u touch %d" % TOUCH_PAGES)
    c = counters(out)
    assert c["faults:u"]["count"] == TOUCH_PAGES
    assert c["syscalls:u"]["count"] == TOUCH_SYSCALLS


def test_stat_multiplexed_events_are_scaled(st):
    """R9, R13: more events than counters rotate at ticks; each line then
    carries the share of time it ran and count * enabled / running."""
    out = stat(st, "-e syscalls:u,cycles:u,faults:u,tlb-refills:u,irqs:u spin 3000000")
    c = counters(out)
    assert len(c) == 5
    multiplexed = [v for v in c.values() if v["running"] < v["enabled"]]
    assert multiplexed, out
    for v in multiplexed:
        pct = float(v["pct"])
        assert 0 <= pct < 100
        assert abs(pct - 100.0 * v["running"] / v["enabled"]) < 0.01
        want = v["count"] * v["enabled"] // v["running"] if v["running"] else 0
        assert v["scaled"] == want


def test_stat_json_is_one_object(st):
    out = stat(st, "--json -e syscalls:u sys %d" % SYS_CALLS)
    obj = json.loads(out.strip().splitlines()[-1])
    assert obj["ok"] is True and obj["gen"] > 0 and obj["prog"] == "sys"
    assert obj["exit"] == 0
    ev = {e["name"]: e for e in obj["events"]}
    assert ev["syscalls:u"]["count"] == SYS_CALLS + SYS_OTHER_SYSCALLS
    assert ev["syscalls:u"]["scaled"] == SYS_CALLS + SYS_OTHER_SYSCALLS


def test_stat_reports_a_killing_signal(st):
    out = stat(st, "-e syscalls:u fault null")
    assert re.search(r"^signal SIGSEGV$", out, re.M), out
    assert counters(out)["syscalls:u"]["count"] == 0


def test_stat_bad_input_changes_nothing(st):
    """R4, R20: refusals are `err ENAME: reason` and start nothing."""
    before = pids(st)
    assert re.match(r"err EINVAL: unknown event 'bogus'", stat(st, "-e bogus:u hello"))
    assert re.match(r"err EINVAL: stat counts the program in user mode",
                    stat(st, "-e syscalls:k sys 1"))
    assert re.match(r"err EINVAL: no program named", stat(st, ""))
    assert re.match(r"err EINVAL: --bogus", stat(st, "--bogus sys 1"))
    assert re.match(r"err ENOENT: cannot start 'nosuch'", stat(st, "nosuch"))
    obj = json.loads(stat(st, "--json -e bogus:u hello").strip())
    assert obj["ok"] is False and obj["error"] == "EINVAL"
    assert pids(st) == before
    assert re.search(r"^mode FREE$", st.run("hwperf status"), re.M)


def test_stat_as_ordinary_user(st):
    """R8: a non-root console may count the program it starts."""
    out = stat(st, "-e syscalls:u sys 5")
    out_user = st.run("as 100 stat --kv -e syscalls:u sys 5", timeout=STAT_TIMEOUT)
    assert counters(out_user)["syscalls:u"]["count"] == counters(out)["syscalls:u"]["count"]


# ---- prof: the profile of user PCs at each threshold (R15) ----------------------

PROF_LINE = re.compile(r"^pc=(0x[0-9a-f]+) count=(\d+) pct=(\d+\.\d\d) sym=(\S+)\+(0x[0-9a-f]+|0)$",
                       re.M)


def test_prof_one_hit_per_syscall_in_the_syscall_stub(st):
    """R15: threshold 1 on syscalls:u adds one hit per system call, at the
    PC of the trap, which is in the library's wrapper for that call (the
    system-call instruction is inline in each: user_machdep.h).  The
    histogram's buckets are named by their first byte, and getppid may
    share one with its neighbour, so the exact PCs are read from the
    sample records."""
    out = st.run("prof -r 200 -e syscalls:u:thresh=1 sys 100", timeout=STAT_TIMEOUT)
    assert re.match(r"ok gen=\d+\n", out), out
    m = re.search(r"^prof hits=(\d+) buckets=(\d+) bucket_bytes=(\d+) base=(0x[0-9a-f]+)$",
                  out, re.M)
    assert m, out
    assert int(m.group(1)) == 100 + SYS_OTHER_SYSCALLS
    rows = PROF_LINE.findall(out)
    assert int(rows[0][1]) == 100, out         # getppid's bucket, then exit's
    pcs = re.findall(r"^sample pid=\d+ .* pc=(0x[0-9a-f]+)", out, re.M)
    assert len(pcs) == 100 + SYS_OTHER_SYSCALLS, out
    # Every getppid hit at the same instruction; the exit's elsewhere.
    assert len(set(pcs[:100])) == 1 and pcs[100] != pcs[0], out
    assert out.splitlines()[-1] == "exit 0"


def test_prof_default_names_user_functions(st):
    """The default (cycles:u with a threshold) lands in spin's loop, and
    buckets come hottest first with the program's own function names.
    Cycles are credited where user mode is left, so the loop must span
    many timer ticks (a short one is left only by its exit call)."""
    out = st.run("prof spin 30000000", timeout=STAT_TIMEOUT)
    rows = PROF_LINE.findall(out)
    assert rows, out
    counts = [int(r[1]) for r in rows]
    assert counts == sorted(counts, reverse=True)
    assert rows[0][3] == "main", out


def test_prof_bad_input(st):
    assert re.match(r"err EINVAL: profiling needs a threshold",
                    st.run("prof -e syscalls:u sys 1"))
    assert re.match(r"err EINVAL: -n", st.run("prof -n 0 sys 1"))
    assert re.match(r"err ENOENT: cannot start 'nosuch'", st.run("prof nosuch"))
    assert re.search(r"heap_in_use=0\b", st.run("mem"))
