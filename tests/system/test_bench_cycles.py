"""Cycle-exact loop benchmarks (kloop, uloop) and hardware-event benchmarks
(hwevents, hwloadstore): kernel/bench/cycles_bench.c, hwevents_bench.c.

Under `-icount shift=0` with `cpi=1` the cycle checks PASS with the count
the loop's shape gives; without cpi=1 they SKIP and say why; the hardware
checks SKIP with the PMU probe's own reason (QEMU counts nothing); and
`benchbreak=` turns each benchmark's PASS into a FAIL.  One icount boot per
target and purpose, its output shared by the assertions that need it.
"""
import re

import pytest

from tally_console import SUMMARY, Console

RESULT = re.compile(r"^(PASS|FAIL|SKIP): bench: (\w+): (\S+) (.*)$", re.M)
EXPECT = re.compile(r"count=(\d+) expected=(?:(\d+)|\[(\d+),(\d+)\])")

# Cycle-counter ticks per loop iteration at cpi=1, from the loops' shapes
# (arch/x86_64/bench_loop.asm, arch/mips/bench_loop.S, user/loop.c):
# x86_64 runs 5 instructions a turn and its TSC ticks once per instruction;
# MIPS runs 6 and Count ticks once per 6 instructions.
TICKS_PER_ITER = {"x86_64": 5, "mips": 1, "mipsbe": 1}
# MIPS's Count truncates at both ends of uloop's user-mode stretch, which
# starts at a Count phase that differs from run to run: uloop is exact on
# x86_64 and within one tick on MIPS.
KLOOP_N, ULOOP_N = 200000, 50000  # the benchmarks' default n (bench list)
CYCLE_BENCHES = ("kloop", "uloop")
HW_BENCHES = {"hwevents": ("instructions", "branches", "branch-misses", "cache-misses"),
              "hwloadstore": ("loads", "stores")}
HW_REASON = re.compile(r"not present|not counting")


def results(out):
    """{(bench, check): (verdict, rest of line)} for every check line."""
    return {(m.group(2), m.group(3)): (m.group(1), m.group(4)) for m in RESULT.finditer(out)}


def count_and_expected(rest):
    m = EXPECT.match(rest)
    assert m, rest
    count = int(m.group(1))
    if m.group(2) is not None:
        return count, int(m.group(2)), int(m.group(2))
    return count, int(m.group(3)), int(m.group(4))


@pytest.fixture
def selftest_cpi1(target, selftest_boot):
    """`selftest cpi=1` at boot under icount (shared by the session): the
    exit status and every line."""
    return selftest_boot(target, append="selftest cpi=1", icount=True)


@pytest.mark.kernel_only
def test_selftest_with_cpi1_passes_and_exits_zero(target, selftest_cpi1):
    status, out = selftest_cpi1
    m = SUMMARY.search(out)
    assert m and m.group(2) == "0", out
    assert status == 0, out


@pytest.mark.kernel_only
def test_kloop_cycles_exact(target, selftest_cpi1):
    r = results(selftest_cpi1[1])
    verdict, rest = r[("kloop", "cycles")]
    count, lo, hi = count_and_expected(rest)
    assert verdict == "PASS", rest
    assert lo == hi == KLOOP_N * TICKS_PER_ITER[target]
    assert count == lo


@pytest.mark.kernel_only
def test_uloop_cycles_u_and_no_tick(target, selftest_cpi1):
    r = results(selftest_cpi1[1])
    verdict, rest = r[("uloop", "cycles:u")]
    count, lo, hi = count_and_expected(rest)
    want = ULOOP_N * TICKS_PER_ITER[target]
    assert verdict == "PASS", rest
    # MIPS's Count ticks once per 6 instructions and the stretch starts at
    # a Count phase that varies from run to run (kernel/bench/cycles_bench.c
    # uloop_expect): one tick of truncation either way, never more.
    slack = 0 if TICKS_PER_ITER[target] == 5 else 1
    assert (lo, hi) == (want - slack, want + slack), rest
    assert lo <= count <= hi
    verdict, rest = r[("uloop", "ticks:u")]
    assert verdict == "PASS" and rest.startswith("count=0 expected=0"), rest


@pytest.mark.kernel_only
def test_hardware_checks_skip_with_the_probe_reason(target, selftest_cpi1):
    r = results(selftest_cpi1[1])
    for bench, checks in HW_BENCHES.items():
        for check in checks:
            verdict, rest = r[(bench, check)]
            assert verdict == "SKIP", (bench, check, rest)
            assert HW_REASON.search(rest), (bench, check, rest)


def test_without_cpi1_cycle_checks_skip(console):
    out = console.run("bench run kloop") + console.run("bench run uloop")
    r = results(out)
    for key in (("kloop", "cycles"), ("uloop", "cycles:u"), ("uloop", "ticks:u")):
        verdict, rest = r[key]
        assert verdict == "SKIP" and "needs boot argument cpi=1" in rest, (key, rest)
    assert not [k for k, v in r.items() if v[0] == "FAIL"], out


def test_hardware_benches_skip_on_qemu(console):
    out = console.run("bench run hwevents") + console.run("bench run hwloadstore")
    r = results(out)
    assert len(r) == sum(len(c) for c in HW_BENCHES.values()), out
    assert all(v[0] == "SKIP" and HW_REASON.search(v[1]) for v in r.values()), out


def test_n_beyond_what_the_checks_cover_skips(console):
    out = console.run("bench run kloop -n 4000000000")
    assert re.search(r"^SKIP: bench: kloop: cycles \(n=4000000000: .*use n <= \d+\)$",
                     out, re.M), out
    out = console.run("bench run uloop -n 4000000000")
    assert re.search(r"^SKIP: bench: uloop: cycles:u \(n=4000000000: the loop must fit "
                     r"in half a timer period", out, re.M), out


def test_loop_program_runs_and_refuses_bad_n(console):
    out = console.run("spawn --wait loop 1000")
    assert re.search(r"^exit 0$", out, re.M), out
    out = console.run("spawn --wait loop 5000000000")
    assert re.search(r"^exit 2$", out, re.M), out
    out = console.run("spawn --wait loop x")
    assert "usage: loop N" in out and re.search(r"^exit 2$", out, re.M), out


@pytest.mark.kernel_only
@pytest.mark.parametrize("bench", CYCLE_BENCHES)
def test_benchbreak_makes_the_cycle_checks_fail(target, bench):
    c = Console(target, append="cpi=1 benchbreak=" + bench, icount=True)
    try:
        out = c.run("bench run " + bench, timeout=60)
    finally:
        c.close()
    r = results(out)
    mine = {k: v for k, v in r.items() if k[0] == bench}
    assert mine, out
    for key, (verdict, rest) in mine.items():
        assert verdict == "FAIL" and "benchbreak" in rest, (key, rest)
