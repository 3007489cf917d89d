"""Multiplexing and wrap-around benchmarks, the hwperf rule scenarios in
`bench`/`selftest` (issue 5), and `hwperf soft`, the run-time reshaping of
the software PMU that the first two rest on.

One private boot per target under -icount (cpi=1, benchbreak=rules) runs
the three benchmarks once; its output is shared by the tests below.  The
rest uses the shared console (no icount), where cycle-exact checks SKIP.
Rules: R13 (multiplexing), R14 (wrap), R20 (EBUSY names the holder); the
rules benchmark's own checks are named R1..R20.
"""
import re

import pytest

from tally_console import CLOSING, Console

pytestmark = pytest.mark.kernel_only

CHECK = re.compile(r"^(PASS|FAIL|SKIP|INFO): bench: (\S+): (\S+) (.*)$", re.M)
COUNT = re.compile(r"count=(\d+)")
# A measured truth is printed as a NOTE: `INFO: bench: NAME: CHECK count=C`.
TOTAL = re.compile(r"^count=(\d+)$")
SOFT = re.compile(r"^soft counters=(\d+) width=(\d+)$", re.M)
EVENTS = 8
BENCH_TIMEOUT = 120


def checks(out, bench):
    """{check: (verdict, rest of line)} for one benchmark's lines."""
    found = {m.group(3): (m.group(1), m.group(4)) for m in CHECK.finditer(out)
             if m.group(2) == bench}
    assert found, out
    return found


def count(line):
    return int(COUNT.search(line).group(1))


@pytest.fixture(scope="module")
def icount_run(target):
    """One private -icount boot per target; every benchmark run once."""
    c = Console(target, append="cpi=1 benchbreak=rules", icount=True)
    try:
        return {name: c.run("bench run %s" % name, timeout=BENCH_TIMEOUT)
                for name in ("mux", "wrap", "rules")}
    finally:
        c.close()


def test_R13_mux_scaled_estimates_within_1pct_of_the_truth(icount_run):
    out = icount_run["mux"]
    got = checks(out, "mux")
    assert not [k for k, (v, _) in got.items() if v in ("FAIL", "SKIP")], out
    n = count(got["syscalls"][1]) - 1
    truth = {"syscalls:u": n + 1,
             "cycles:u": int(TOTAL.search(got["utime-cycles"][1]).group(1))}
    for i in range(EVENTS):
        event = "syscalls:u" if i % 2 == 0 else "cycles:u"
        verdict, rest = got["est@%d=%s" % (i, event)]
        assert verdict == "PASS" and "expected=[0.990,1.010]x" in rest, out
        assert abs(count(rest) - truth[event]) * 100 <= truth[event], (event, rest)


def test_R13_mux_shares_printed_and_near_two_of_eight(icount_run):
    got = checks(icount_run["mux"], "mux")
    shares = [count(got["share@%d=%s" % (i, "syscalls:u" if i % 2 == 0 else "cycles:u")][1])
              for i in range(EVENTS)]
    assert all(220 <= s <= 280 for s in shares), shares
    # Two counters are always busy: the shares add up to 2 (per mille,
    # each rounded down).
    assert 2000 - EVENTS <= sum(shares) <= 2000, shares
    assert CLOSING.search(icount_run["mux"]).group(2) == "0"


def test_R14_wrap_exact_over_1000_wraps_at_8_and_16_bits(icount_run):
    out = icount_run["wrap"]
    got = checks(out, "wrap")
    assert not [k for k, (v, _) in got.items() if v in ("FAIL", "SKIP")], out
    assert count(got["w8-wraps"][1]) >= 1000 and count(got["w16-wraps"][1]) >= 1000, out
    for w in ("w8", "w16"):
        truth = int(TOTAL.search(got["%s-utime-cycles" % w][1]).group(1))
        assert count(got["%s-cycles:u" % w][1]) == truth, out
    assert count(got["w16-syscalls:u"][1]) == 1, out


def test_benchbreak_makes_the_rules_fail(icount_run):
    out = icount_run["rules"]
    got = checks(out, "rules")
    failed = [k for k, (v, rest) in got.items() if v == "FAIL" and "benchbreak" in rest]
    assert "R4-ebusy" in failed and "R5-force" in failed, out
    assert int(CLOSING.search(out).group(2)) == len(failed), out


def test_rules_pass_in_kernel_and_leave_the_pmu_free(console):
    out = console.run("bench run rules", timeout=BENCH_TIMEOUT)
    got = checks(out, "rules")
    assert not [k for k, (v, _) in got.items() if v in ("FAIL", "SKIP")], out
    for rule in ("R4-ebusy", "R5-force", "R6-lost-gen", "R7-setctl-gen", "R8-eperm",
                 "R12-cpu-read-0", "R16-fork-zero", "R20-ebusy-names-holder"):
        assert got[rule][0] == "PASS", out
    assert count(got["R4-ebusy"][1]) == 16          # EBUSY
    assert re.search(r"^mode FREE$", console.run("hwperf status"), re.M)
    assert "nap" not in console.run("ps")


def test_without_icount_mux_skips_and_nothing_fails(console):
    out = console.run("bench run mux -n 20000", timeout=BENCH_TIMEOUT)
    got = checks(out, "mux")
    assert got["syscalls"][0] == "PASS", out
    skipped = [k for k, (v, rest) in got.items() if v == "SKIP" and "cpi=1" in rest]
    assert len(skipped) == 2 * EVENTS, out
    assert CLOSING.search(out).group(2) == "0", out


def soft_shape(console):
    out = console.run("hwperf soft")
    assert out.startswith("ok 0\n"), out
    m = SOFT.search(out)
    return int(m.group(1)), int(m.group(2))


def test_hwperf_soft_reshapes_and_restores(console):
    before = soft_shape(console)
    out = console.run("hwperf soft counters=3 width=16")
    assert out.splitlines()[0] == "ok 0", out
    assert soft_shape(console) == (3, 16)
    assert re.search(r"^driver soft counters=3 width=16 ", console.run("hwperf status"), re.M)
    assert console.run("hwperf soft counters=%d width=%d" % before).startswith("ok 0")
    assert soft_shape(console) == before


@pytest.mark.parametrize("args,why", [
    ("counters=0", "EINVAL: soft PMU takes 1..16 counters of 8..64 bits"),
    ("width=65", "EINVAL: soft PMU takes 1..16 counters of 8..64 bits"),
    ("width=x", "EINVAL: bad or repeated argument 'width=x'"),
    ("counters=2 counters=3", "EINVAL: bad or repeated argument 'counters=3'"),
    ("depth=4", "EINVAL: expected counters=N or width=W, not 'depth=4'"),
])
def test_hwperf_soft_refuses_bad_input_and_changes_nothing(console, args, why):
    before = soft_shape(console)
    out = console.run("hwperf soft " + args)
    assert out.splitlines()[0].startswith("err " + why), out
    assert soft_shape(console) == before


def test_R20_hwperf_soft_ebusy_names_the_holder(console):
    before = soft_shape(console)
    pid = int(re.search(r"pid (\d+)", console.run("spawn nap 100000")).group(1))
    try:
        assert console.run("hwperf enable %d syscalls:u" % pid).startswith("ok gen=")
        out = console.run("hwperf soft width=8")
        assert out.splitlines()[0] == ("err EBUSY: pid %d holds the counters in USER mode "
                                       "(not running; 1 holder)" % pid), out
        assert soft_shape(console) == before
        assert console.run("as 100 hwperf soft width=8").startswith(
            "err EPERM: reconfiguring the PMU needs root"), "uid 100"
    finally:
        console.run("kill -9 %d" % pid)
        console.run("wait %d" % pid, timeout=30)
    assert console.run("hwperf soft width=8").startswith("ok 0")
    assert console.run("hwperf soft counters=%d width=%d" % before).startswith("ok 0")
