"""The outside witness (issue 10, item 3): Tally's counts against a QEMU TCG
plugin that counts the guest's instructions from outside it
(tests/witness/witness.c; docs/witness.md).

One icount boot per -kernel target with `cpi=1 witness` and the plugin:
`stat -e cycles:u,syscalls:u` runs each program (the kernel marks every
stat run as a witness interval and prints its id), then `bench run cost`
(every timed run is an interval; `witness cost row=... id=...` names the
ones each row used).  Then:

syscalls   Tally's syscalls:u must EQUAL the system-call instructions the
           witness saw executed at user PCs.
cycles:u   in instructions (x86: the TSC, 1 per instruction under icount;
           Malta: Count ticks times INSNS_PER_TICK, 6) must be within a
           bound of the user instructions the witness saw:
             x86_64  |cycles:u - user_insns| <= 32 * entries
             Malta   |6 cycles:u - user_insns| <= (48 + 6) * entries
           where entries are the witness's user->kernel transitions.  Each
           entry ends one stretch of user time; Tally cuts the cycle
           counter at kernel entry and exit, so each stretch may be off by
           the kernel instructions that run between the mode change and
           the cut (32 on x86, 48 on Malta, whose entry saves more
           registers by hand before it can read Count), and on Malta by
           one Count tick (6 instructions) of rounding, since each stretch
           is a difference of two Count readings.  An instruction that
           faults and is restarted counts in the witness at each start but
           once in icount: at most one per entry, inside the same bound.
           `loop` restarts its own counters after its start-up (user/
           loop.c), so Tally counts only its final stretch while the
           witness sees the whole program: loop is compared as the
           difference loop N - loop 0 on both sides (each run one counted
           stretch, so the bound is two stretches' worth).
costs      each COST row's total (the run at n less the run at 0, in
           instructions) against the witness's, from the intervals of the
           runs the row used: for the rows timed with the cycle counter
           (null_syscall, ctxsw_*, hwread_32), all instructions, user and
           kernel; the tolerance is one instruction per non-syscall entry
           that the two runs differ by (a restarted instruction), plus on
           Malta one Count tick at each end of each of the two runs.  For
           the tick rows (the spinning task's kernel time) the kernel
           instructions, with the per-entry bound above per extra entry.
           `boot` starts before any mark can run: reported, not checked.

test_witness_catches_a_broken_count boots with `countbreak=syscalls` (stat
reports one system call more than counted) and requires the same
comparison to report a mismatch: the check can fail.
"""
import os
import re
import subprocess

import pytest

from tally_console import ROOT, Console

pytestmark = pytest.mark.kernel_only

PLUGIN = os.path.join(ROOT, "build", "witness", "libwitness.so")
SPEC = "cycles:u,syscalls:u"
# Small enough that a target's whole module runs in well under 2 minutes.
PROGRAMS = [
    ("sys", "10000"),
    ("spin", "200000"),
    ("forktree", "3"),
    ("pingpong", "100"),
]
# loop N parses a fixed-width N (user/loop.c): zero-padded, both runs alike.
LOOP_N, LOOP_0 = "0000100000", "0000000000"
# Instructions between a mode change and Tally's cut of the cycle counter,
# per kernel entry (see the module docstring).
BOUNDARY = {"x86_64": 32, "mips": 48}
RUN_TIMEOUT = 300
COST_CYCLE_ROWS = ["null_syscall", "ctxsw_0", "ctxsw_2", "ctxsw_32", "hwread_32"]
COST_TICK_ROWS = ["tick", "tick_mux"]

INTERVAL = re.compile(r"^interval id=(\d+) (.*)$", re.M)
STAT_ID = re.compile(r"^witness id=(\d+)$", re.M)
COUNT = re.compile(r"^(\S+) count=(\d+) ", re.M)
COST_ID = re.compile(r"^witness cost row=(\w+) n=(\d+) id=(\d+)$", re.M)
COST = re.compile(r"^COST: bench: cost: (\w+) per_op=([\d.]+) unit=insns n=(\d+) total=(\d+)$",
                  re.M)


def arch_of(target):
    return "x86_64" if target == "x86_64" else "mips"


def read_witness(path):
    """{id: {field: int}} of the plugin's interval lines."""
    with open(path) as f:
        text = f.read()
    assert text.startswith("witness version=1 "), "not a witness log:\n" + text[:300]
    assert "\nerror " not in text, "the witness reported an error:\n" + text
    return {int(m.group(1)): {k: int(v) for k, v in
                              (f.split("=") for f in m.group(2).split())}
            for m in INTERVAL.finditer(text)}


def insns_per_tick(console):
    hz = int(re.search(r"^cycles_hz: (\d+)$", console.run("info"), re.M).group(1))
    ipt = round(1e9 / hz)
    assert ipt >= 1 and abs(ipt * hz - 1e9) <= 1e9 / 100, "cycles_hz %d is no whole ratio" % hz
    return ipt


def stat(console, prog, args):
    """(counts by event, witness id) of one stat run."""
    out = console.run("stat --kv -e %s %s %s" % (SPEC, prog, args), timeout=RUN_TIMEOUT)
    assert re.search(r"^exit 0$", out, re.M), out
    m = STAT_ID.search(out)
    assert m, "no witness id (boot argument `witness`):\n" + out
    return {name: int(c) for name, c in COUNT.findall(out)}, int(m.group(1))


def boot_witnessed(target, tmp_path, append="cpi=1 witness"):
    log = str(tmp_path / ("witness-%s.log" % target))
    c = Console(target, append=append, icount=True,
                extra_qemu=["-plugin", "%s,arg=out=%s" % (PLUGIN, log)])
    return c, log


# ---- the comparisons, shared with the broken-count test -------------------------

def compare_stat(arch, ipt, tally, wit):
    """Mismatches of one program: tally and wit are dicts with cycles,
    syscalls (Tally) and user_insns, syscalls, entries, stretches (the
    witness; stretches = the user stretches Tally counted)."""
    bad = []
    if tally["syscalls"] != wit["syscalls"]:
        bad.append("syscalls:u %d != witness syscall instructions %d"
                   % (tally["syscalls"], wit["syscalls"]))
    insns = tally["cycles"] * ipt
    bound = (BOUNDARY[arch] + (ipt if ipt > 1 else 0)) * wit["stretches"]
    excess = insns - wit["user_insns"]
    if abs(excess) > bound:
        bad.append("cycles:u %d insns vs witness user_insns %d: off by %d > %d "
                   "(%.1f per entry, %d entries)"
                   % (insns, wit["user_insns"], excess, bound,
                      excess / max(wit["stretches"], 1), wit["stretches"]))
    return bad


# ---- one witnessed boot per target ------------------------------------------------

_runs = {}


@pytest.fixture
def witnessed(target, tmp_path_factory):
    """Everything the checks read, from one boot of target under the witness."""
    if target in _runs:
        return _runs[target]
    if not os.path.exists(PLUGIN):
        pytest.fail("%s not built (make witness)" % PLUGIN)
    c, log = boot_witnessed(target, tmp_path_factory.mktemp("witness"))
    try:
        ipt = insns_per_tick(c)
        stats = {p: stat(c, p, a) for p, a in PROGRAMS}
        stats["loop N"] = stat(c, "loop", LOOP_N)
        stats["loop 0"] = stat(c, "loop", LOOP_0)
        cost_out = c.run("bench run cost", timeout=RUN_TIMEOUT)
    finally:
        c.close()
    _runs[target] = dict(ipt=ipt, stats=stats, cost=cost_out, intervals=read_witness(log))
    return _runs[target]


def program_cases(run):
    """(name, Tally's counts, the witness's) per program compared."""
    iv = run["intervals"]
    cases = []
    for p, _ in PROGRAMS:
        counts, wid = run["stats"][p]
        w = iv[wid]
        cases.append((p, dict(cycles=counts["cycles:u"], syscalls=counts["syscalls:u"]),
                      dict(user_insns=w["user_insns"], syscalls=w["syscalls"],
                           stretches=w["entries"])))
    (cn, wn), (c0, w0) = run["stats"]["loop N"], run["stats"]["loop 0"]
    cases.append(("loop N - loop 0",
                  dict(cycles=cn["cycles:u"] - c0["cycles:u"],
                       syscalls=cn["syscalls:u"] - c0["syscalls:u"]),
                  dict(user_insns=iv[wn]["user_insns"] - iv[w0]["user_insns"],
                       syscalls=iv[wn]["syscalls"] - iv[w0]["syscalls"],
                       stretches=2)))
    return cases


def test_stat_syscalls_equal_the_witness(target, witnessed):
    for name, tally, wit in program_cases(witnessed):
        print("%-16s syscalls:u=%d witness=%d" % (name, tally["syscalls"], wit["syscalls"]))
    bad = ["%s: syscalls:u %d != witness %d" % (n, t["syscalls"], w["syscalls"])
           for n, t, w in program_cases(witnessed) if t["syscalls"] != w["syscalls"]]
    assert not bad, "\n".join(bad)


def test_stat_cycles_within_the_entry_bound(target, witnessed):
    arch, ipt = arch_of(target), witnessed["ipt"]
    bad = []
    for name, tally, wit in program_cases(witnessed):
        excess = tally["cycles"] * ipt - wit["user_insns"]
        print("%-16s cycles:u=%d (%d insns) witness user_insns=%d entries=%d "
              "excess=%d per_entry=%.1f" % (name, tally["cycles"], tally["cycles"] * ipt,
                                            wit["user_insns"], wit["stretches"], excess,
                                            excess / max(wit["stretches"], 1)))
        bad += ["%s: %s" % (name, b) for b in compare_stat(arch, ipt, tally, wit)
                if b.startswith("cycles")]
    assert not bad, "\n".join(bad)


def cost_rows(run):
    """{row: (Tally's COST total, n)} and {(row, n): witness interval}."""
    tally = {m.group(1): (int(m.group(4)), int(m.group(3))) for m in COST.finditer(run["cost"])}
    ids = {(m.group(1), int(m.group(2))): run["intervals"][int(m.group(3))]
           for m in COST_ID.finditer(run["cost"])}
    return tally, ids


def test_cost_table_confirmed_by_the_witness(target, witnessed):
    arch, ipt = arch_of(target), witnessed["ipt"]
    tally, ids = cost_rows(witnessed)
    rounding = 2 * 2 * ipt if ipt > 1 else 0        # one tick at each end of two runs
    bad = []
    print("%-12s %8s %14s %14s %10s %8s" % ("row", "ops", "tally/op", "witness/op",
                                             "diff", "tol"))
    for row in COST_CYCLE_ROWS + COST_TICK_ROWS:
        assert row in tally, "no COST line for %s:\n%s" % (row, witnessed["cost"])
        total, ops = tally[row]
        at_n = [v for (r, n), v in ids.items() if r == row and n != 0]
        at_0 = ids.get((row, 0))
        assert len(at_n) == 1 and at_0, "no witness ids for %s:\n%s" % (row, witnessed["cost"])
        wn, w0 = at_n[0], at_0
        d_entries = wn["entries"] - w0["entries"]
        if row in COST_CYCLE_ROWS:
            wtotal = (wn["user_insns"] + wn["kernel_insns"]) - \
                     (w0["user_insns"] + w0["kernel_insns"])
            tol = abs(d_entries - (wn["syscalls"] - w0["syscalls"])) + rounding
        else:
            wtotal = wn["kernel_insns"] - w0["kernel_insns"]
            tol = (BOUNDARY[arch] + (ipt if ipt > 1 else 0)) * abs(d_entries) + rounding
        diff = total - wtotal
        print("%-12s %8d %14.3f %14.3f %10d %8d" % (row, ops, total / ops, wtotal / ops,
                                                     diff, tol))
        if abs(diff) > tol:
            bad.append("%s: Tally total %d, witness %d: off by %d > %d"
                       % (row, total, wtotal, diff, tol))
    boot = re.search(r"^COST: bench: cost: boot per_op=([\d.]+) ", witnessed["cost"], re.M)
    print("boot         %s (not seen by the witness: it starts before any mark)"
          % (boot.group(1) if boot else "?"))
    assert not bad, "\n".join(bad)


def test_witness_catches_a_broken_count(target, tmp_path):
    """countbreak=syscalls: stat says one system call more than ran, and
    the comparison must say so."""
    c, log = boot_witnessed(target, tmp_path, append="cpi=1 witness countbreak=syscalls")
    try:
        ipt = insns_per_tick(c)
        tally, wit_id = stat(c, "sys", "20")
    finally:
        c.close()
    w = read_witness(log)[wit_id]
    bad = compare_stat(arch_of(target), ipt,
                       dict(cycles=tally["cycles:u"], syscalls=tally["syscalls:u"]),
                       dict(user_insns=w["user_insns"], syscalls=w["syscalls"],
                            stretches=w["entries"]))
    assert tally["syscalls:u"] == w["syscalls"] + 1, (tally, w)
    assert any(b.startswith("syscalls:u %d != witness" % tally["syscalls:u"]) for b in bad), bad


# ---- the per-address profile (arg=prof=PATH, scripts/tally-insnprof) ------------

INSNPROF = os.path.join(ROOT, "scripts", "tally-insnprof")
PROF_CALLS = 3000


def test_insn_profile_adds_up_and_names_the_syscall_path(target, tmp_path):
    """The profile's per-address counts sum to the witness's own total, and
    folded into functions they charge getppid's handler at least once per
    call: the per-function costs in docs/costs.md rest on both."""
    prof = str(tmp_path / "prof")
    log = str(tmp_path / "witness.log")
    kernel = os.path.join(ROOT, "build", target, "tally.elf")
    c = Console(target, append="cpi=1", icount=True,
                extra_qemu=["-plugin", "%s,arg=out=%s,arg=prof=%s" % (PLUGIN, log, prof)])
    try:
        out = c.run("spawn --wait sys %d" % PROF_CALLS, timeout=RUN_TIMEOUT)
        assert "syscalls=%d " % (PROF_CALLS + 1) in out, out
        c.send("poweroff\r")
        c.wait_exit(timeout=60)
    finally:
        c.close()
    with open(log) as f:
        total = re.search(r"^total user_insns=(\d+) kernel_insns=(\d+) ", f.read(), re.M)
    assert total, "the witness wrote no total line"
    with open(prof) as f:
        text = f.read()
    assert text.startswith("witness-prof version=1 "), text[:200]
    counts = [int(n) for n in re.findall(r"^pc 0x[0-9a-f]+ n=(\d+)$", text, re.M)]
    assert sum(counts) == int(total.group(1)) + int(total.group(2))
    folded = subprocess.run([INSNPROF, kernel, prof, "--all"], check=True,
                            capture_output=True, text=True).stdout
    rows = dict((f[0], float(f[1])) for f in (line.split() for line in folded.splitlines()))
    assert rows["total"] == sum(counts)
    assert rows.get("sys_getppid", 0) >= PROF_CALLS, folded


# ---- the kernel's event gates are per CPU (issue 12 item 1) ----------------

GATE_CALLS = 3000
KEVENTS = re.compile(r"^kevents cpu=(\d+) kinds=(\S+)$", re.M)


def test_counters_on_one_cpu_leave_the_others_calls_bare(target, tmp_path):
    """Each CPU's hooks test that CPU's word (kernel/pmu_kevent.h): with a
    task counting syscalls:u on CPU 1, `hwperf status` says CPU 1 passes
    system calls on and CPU 0 nothing, and from outside, CPU 0's calls
    take the uncounted entry: the counted one (`syscall_enter_counted`)
    runs for none of GATE_CALLS uncounted calls pinned there, and once
    for each of as many counted ones and their exit (stat), so the check
    can fail.  A
    shared word sent both sets of calls the counted way (2 x GATE_CALLS).
    Two CPUs: x86_64 -smp 2, the Malta's 34Kf with two VPEs, under
    -icount, whose round robin lets the plugin count both (arg=rr=on)."""
    prof = str(tmp_path / "prof")
    log = str(tmp_path / "witness.log")
    kernel = os.path.join(ROOT, "build", target, "tally.elf")
    cpu = None if target == "x86_64" else "34Kf"
    c = Console(target, append="cpi=1", icount=True, cpu=cpu, smp=2,
                extra_qemu=["-plugin", "%s,arg=out=%s,arg=prof=%s,arg=rr=on" %
                            (PLUGIN, log, prof)])
    try:
        out = c.run("spawn --cpu 1 spin 4000000000")
        m = re.search(r"^pid (\d+)$", out, re.M)
        assert m, out
        pid = int(m.group(1))
        assert re.match(r"^ok gen=\d+", c.run("hwperf enable %d syscalls:u" % pid))
        kinds = {}
        for _ in range(50):         # until CPU 1 has loaded the set
            kinds = dict(KEVENTS.findall(c.run("hwperf status")))
            if kinds.get("1") == "syscalls":
                break
        assert kinds == {"0": "none", "1": "syscalls"}, kinds
        out = c.run("spawn --wait --cpu 0 sys %d" % GATE_CALLS, timeout=RUN_TIMEOUT)
        assert re.search(r"^exit 0$", out, re.M), out
        out = c.run("stat -e syscalls:u sys %d" % GATE_CALLS, timeout=RUN_TIMEOUT)
        assert re.search(r"^exit 0$", out, re.M), out
        c.run("kill -KILL %d" % pid)
        c.send("poweroff\r")
        c.wait_exit(timeout=60)
    finally:
        c.close()
    with open(log) as f:
        text = f.read()
    assert re.match(r"witness version=1 target=\S+ vcpus=2 rr\n", text), text[:200]
    total = re.search(r"^total user_insns=(\d+) kernel_insns=(\d+) syscalls=\d+ "
                      r"kernel_syscalls=\d+$", text, re.M)
    assert total, text[-400:]
    with open(prof) as f:
        runs = [int(n) for n in re.findall(r"^pc 0x[0-9a-f]+ n=(\d+)$", f.read(), re.M)]
    assert sum(runs) == int(total.group(1)) + int(total.group(2))
    # How often each function was entered: its first instruction's count.
    folded = subprocess.run([INSNPROF, kernel, prof, "--entries", "--all"], check=True,
                            capture_output=True, text=True).stdout
    rows = dict((f[0], float(f[1])) for f in (line.split() for line in folded.splitlines()))
    calls = rows.get("sys_getppid", 0)
    counted = rows.get("syscall_enter_counted", 0)
    assert calls == 2 * GATE_CALLS, folded
    # stat's GATE_CALLS and its exit; none of the pinned task's (nor of
    # the spinner's: it makes no call).
    assert counted == GATE_CALLS + 1, (counted, calls)
