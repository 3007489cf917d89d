"""Exact kernel-event benchmarks (issue 5, item 2): system calls, faults,
voluntary switches, signals, TLB refills (MIPS), overflow signals,
inheritance through fork and wait (R17), and the forced system acquire
(R5/R6).  See kernel/bench/events_bench.c and its neighbours for how each
expectation is derived.

One private QEMU per target under `-icount shift=0` with `cpi=1` runs every
benchmark once, with `benchbreak` aimed at one of them; the shared console
(no icount) runs them again, where nothing may FAIL and checks that need
exact cycles SKIP with their reason.
"""
import re

import pytest

from tally_console import Console

pytestmark = pytest.mark.kernel_only

BENCH_TIMEOUT = 120
BROKEN = "sys_calls"

# Every check of every benchmark of this issue, by benchmark.
CHECKS = {
    "sys_calls": ["syscalls", "acct_syscalls"],
    "page_faults": ["faults", "syscalls", "acct_faults"],
    "csw_vol": ["csw_vol", "acct_vcsw"],
    "signals": ["signals", "acct_signals"],
    "tlb_refills": ["tlb_refills", "acct_tlb_user"],
    "overflow_faults": ["faults", "handled", "acct_signals", "first_at"],
    "overflow_cycles": ["signals", "overshoot_millitick", "crossings"],
    "inherit_forktree": ["tree_syscalls", "acct_root_own_syscalls"],
    "force_acquire": ["acquired", "gen_bump", "lost", "root_sees_gen_bump"],
}
X86_SKIPS = {"tlb_refills"}

# The same expectations derived here, at each benchmark's default n, from
# the programs' own promises (user/NAME.c), so that a kernel-side constant
# tuned to an observed count would not go unnoticed.
SYS_N, TOUCH_N, YIELD_N, SIGS_N = 1000, 100, 100, 50
TLB_ROUNDS, TLB_RING = 10, 16           # tlbcycle: ring stores + 1 code refetch per round
OVF_THRESH, OVF_ROUNDS = 10, 4
TREES, TREE_DEPTH = 2, 3
FORCE_N = 3
TREE_CALLS = 2 ** TREE_DEPTH * 1 + (2 ** TREE_DEPTH - 1) * 5 + 1   # leaves exit; inner fork x2, wait x2, exit; root prints
DERIVED = {
    ("sys_calls", "syscalls"): SYS_N + 1,                  # + exit
    ("sys_calls", "acct_syscalls"): SYS_N + 1,
    ("page_faults", "faults"): TOUCH_N,
    ("page_faults", "syscalls"): 3,                        # brk, brk, exit
    ("page_faults", "acct_faults"): TOUCH_N,
    ("csw_vol", "csw_vol"): YIELD_N,
    ("csw_vol", "acct_vcsw"): YIELD_N,
    ("signals", "signals"): SIGS_N,
    ("signals", "acct_signals"): SIGS_N,
    ("tlb_refills", "tlb_refills"): TLB_ROUNDS * (TLB_RING + 1),
    ("tlb_refills", "acct_tlb_user"): TLB_ROUNDS * (TLB_RING + 1),
    ("overflow_faults", "faults"): OVF_ROUNDS * OVF_THRESH,
    ("overflow_faults", "handled"): OVF_ROUNDS,
    ("overflow_faults", "acct_signals"): OVF_ROUNDS,
    ("overflow_faults", "first_at"): OVF_THRESH,
    ("overflow_cycles", "signals"): 1,
    ("overflow_cycles", "crossings"): 1,
    ("inherit_forktree", "tree_syscalls"): TREES * TREE_CALLS,
    ("inherit_forktree", "acct_root_own_syscalls"): TREES * 6,   # fork x2, wait x2, print, exit
    ("force_acquire", "acquired"): FORCE_N,
    ("force_acquire", "gen_bump"): 1,
    ("force_acquire", "lost"): 1,
    ("force_acquire", "root_sees_gen_bump"): 1,
}
NEEDS_CPI1 = {"overflow_cycles": ["overshoot_millitick", "crossings"]}   # SKIP without cpi=1
RANGES = {("overflow_cycles", "overshoot_millitick")}           # expected=[MIN,MAX]
# Expected is a truth measured alongside (the thresholds the final count
# crossed, R15: a signal each): DERIVED's value only under cpi=1, where
# `crossings` proves it; a host that stretches a user span past two
# thresholds without -icount makes it 2 (seen in CI).
SAME_WITHOUT_ICOUNT = {("overflow_cycles", "signals")}

LINE = re.compile(r"^(PASS|FAIL|SKIP): bench: (\S+): (\S+)(?: count=(\d+) expected=(\S+))?(?: \((.*)\))?$")


def parse(out):
    """{(bench, check): (verdict, count, expected, reason)}"""
    found = {}
    for line in out.splitlines():
        m = LINE.match(line)
        if m:
            verdict, bench, check, count, expected, reason = m.groups()
            found[(bench, check)] = (verdict, count, expected, reason)
    return found


def run_all(console):
    out = ""
    for bench in CHECKS:
        out += console.run("bench run %s" % bench, timeout=BENCH_TIMEOUT)
    return out


def is_x86(target):
    return target.startswith("x86_64")


@pytest.fixture(scope="module")
def icount_results():
    """One icount boot per target, shared by the tests of this module."""
    made, results = [], {}

    def get(target):
        if target not in results:
            c = Console(target, append="cpi=1 benchbreak=%s" % BROKEN, icount=True)
            made.append(c)
            out = run_all(c)
            results[target] = (out, parse(out))
        return results[target]
    yield get
    for c in made:
        c.close()


def assert_met(bench, check, count, expected, out):
    """Exact checks: count == expected; range checks: MIN <= count <= MAX."""
    if (bench, check) in RANGES:
        lo, hi = map(int, expected.strip("[]").split(","))
        assert lo <= int(count) <= hi, out
    else:
        assert count == expected, out
        assert int(expected) == DERIVED[(bench, check)], out


def expected_skip(target, bench):
    return is_x86(target) and bench in X86_SKIPS


def test_every_check_passes_exactly_under_icount(target, icount_results):
    out, found = icount_results(target)
    for bench, checks in CHECKS.items():
        if bench == BROKEN or expected_skip(target, bench):
            continue
        for check in checks:
            assert (bench, check) in found, "%s/%s missing:\n%s" % (bench, check, out)
            verdict, count, expected, _ = found[(bench, check)]
            assert verdict == "PASS", out
            assert_met(bench, check, count, expected, out)


def test_benchbreak_makes_the_broken_benchmark_fail(target, icount_results):
    out, found = icount_results(target)
    for check in CHECKS[BROKEN]:
        verdict, count, expected, reason = found[(BROKEN, check)]
        assert verdict == "FAIL" and "benchbreak" in reason, out
        assert int(expected) == int(count) + 1, out


def test_tlb_refills_skip_on_x86_pass_on_mips(target, icount_results):
    out, found = icount_results(target)
    for check in CHECKS["tlb_refills"]:
        verdict, count, expected, reason = found[("tlb_refills", check)]
        if is_x86(target):
            assert verdict == "SKIP", out
            assert "walks page tables in hardware" in reason, out
        else:
            assert verdict == "PASS" and count == expected, out


def test_without_icount_nothing_fails(target, console):
    out = run_all(console)
    found = parse(out)
    for bench, checks in CHECKS.items():
        for check in checks:
            verdict, count, expected, reason = found[(bench, check)]
            if check in NEEDS_CPI1.get(bench, ()):
                assert verdict == "SKIP" and "cpi=1" in reason, out
            elif expected_skip(target, bench):
                assert verdict == "SKIP", out
            elif (bench, check) in SAME_WITHOUT_ICOUNT:
                assert verdict == "PASS", out
                assert count == expected and int(expected) >= 1, out
            else:
                assert verdict == "PASS", out
                assert_met(bench, check, count, expected, out)


def test_bad_count_argument_is_refused(console):
    out = console.run("bench run signals -n x")
    assert out.startswith("error: "), out
    assert console.run("echo ok") == "ok\n"


def test_system_wide_counts_skip_while_another_task_lives(console):
    """csw_vol and signals count system-wide: with another user task alive
    the count would include its events, so they SKIP and say why."""
    m = re.search(r"^pid (\d+)$", console.run("spawn nap 60000"), re.M)
    assert m
    pid = m.group(1)
    try:
        found = parse(console.run("bench run csw_vol") + console.run("bench run signals"))
        for bench in ("csw_vol", "signals"):
            for check in CHECKS[bench]:
                verdict, _, _, reason = found[(bench, check)]
                assert verdict == "SKIP" and "other user task" in reason, found
    finally:
        console.run("kill %s" % pid)
        console.run("wait %s" % pid)
    assert "PASS: bench: csw_vol: csw_vol " in console.run("bench run csw_vol")


def test_multiplexed_counts_skip(target, boot):
    """With one soft counter for page_faults' two events the counts are
    scaled, not exact: SKIP with the reason, never FAIL."""
    c = boot(append="softpmu_counters=1")
    found = parse(c.run("bench run page_faults", timeout=BENCH_TIMEOUT))
    for check in CHECKS["page_faults"]:
        verdict, _, _, reason = found[("page_faults", check)]
        assert verdict == "SKIP" and "multiplexed" in reason, found


def test_system_mode_benchmarks_skip_for_non_root(console):
    """R3/R5: SYSTEM mode needs root, and `as UID` makes the console a user."""
    found = parse(console.run("as 5 bench run force_acquire") +
                  console.run("as 5 bench run signals"))
    for bench in ("force_acquire", "signals"):
        for check in CHECKS[bench]:
            verdict, _, _, reason = found[(bench, check)]
            assert verdict == "SKIP" and "needs root" in reason, found


def test_system_mode_benchmarks_skip_while_the_pmu_is_held(console):
    """A forced acquire would take the counters of whoever holds them."""
    assert console.run("hwperf sys enable syscalls:k").startswith("ok"), "sys enable"
    try:
        found = parse(console.run("bench run force_acquire") + console.run("bench run csw_vol"))
    finally:
        assert console.run("hwperf sys release").startswith("ok")
    for bench in ("force_acquire", "csw_vol"):
        for check in CHECKS[bench]:
            verdict, _, _, reason = found[(bench, check)]
            assert verdict == "SKIP" and "SYSTEM mode" in reason, found
