"""The cost benchmark: a table of per-operation costs, reported, never passed.

One private `-icount shift=0` boot per target (module fixture) runs
`bench run cost` and then `selftest`; both print the cost table, so the
two runs are compared for repeatability and selftest's summary is checked
for costs counted as passes.  Without cpi=1 (the shared console) every
cost SKIPs with its reason.
"""
import re

import pytest

from tally_console import SUMMARY, CLOSING, Console
import cost_budget

ROWS = ["null_syscall", "ctxsw_0", "ctxsw_2", "ctxsw_32", "hwread_32",
        "tick", "tick_mux", "boot"]
# Rows that need a second CPU: SKIP on one, budgeted under a pseudo-target
# that boots two (scripts/cost-budget x86_64-smp2; test_smp_hwperf.py).
SMP_ROWS = {"x86_64-smp2": ["ipi_roundtrip", "sysread_allcpus"]}
REPORTED = re.compile(r"^REPORTED: (\d+) costs, not counted as tests$", re.M)

# Linux 6.1 on the same QEMU under -icount shift=0, in instructions
# (docs/design/platforms.md): null syscall, process switch, perf read.
LINUX = {
    "x86_64": {"null_syscall": 310, "ctxsw": 1550, "hwread_32": 1200},
    "mips": {"null_syscall": 177, "ctxsw": 1990, "hwread_32": 2000},
}
# Tally is today well above Linux on these paths (docs/costs.md), so the
# sanity bound is 16x Linux, not 4x: it catches a wrapped subtraction or a
# tick inside a run, not a slow path.
LINUX_FACTOR = 16
# A tick costing 1% of its 10 ms period (10^5 instructions at hz=100 and
# one instruction per ns) would be a bug.
TICK_MAX = 100_000
# Boot to the shell within one emulated second (10^9 instructions).
BOOT_MAX = 1_000_000_000
# At this n every row but the null call takes more than one tick period
# (10^7 instructions at hz=100): 32-counter switches ~2.8*10^7 on x86_64
# (1,379 per switch, 2n switches), a 32-counter read ~2.9*10^7, so no run
# can be tick-free.  (3000 sufficed until the paths got leaner: at 2,899
# instructions a read of 3000 fitted in 8.7*10^6.)
TOO_LONG = 10000
# Malta's CP0 Count advances once per 6 instructions: a span read at both
# ends is exact to one Count tick at each end.
MIPS_INSNS_PER_TICK = 6
# Instructions a tick by which tick_mux may differ between runs
# (allowed_drift): x86_64's widest measured spread is 31.7 a tick; Malta
# keeps its earlier two link steps of 24.
ROTOR_SPREAD = {"x86_64": 40, "mips": 48}


def arch(target):
    return "x86_64" if target.startswith("x86_64") else "mips"


table = cost_budget.table


# What the private icount boot runs, in this order, named for the tests.
COMMANDS = {
    "run": "bench run cost",
    "selftest": "selftest",
    "too_long": "bench run cost -n %d" % TOO_LONG,
    "json": "bench run cost --json",
    "info": "info",
}


@pytest.fixture(scope="module")
def icount_runs(request):
    """target -> {name: output} for COMMANDS, from one `cpi=1` icount boot."""
    cache = {}

    def get(target):
        if target not in cache:
            c = Console(target, append="cpi=1", icount=True)
            try:
                cache[target] = {k: c.run(cmd, timeout=240) for k, cmd in COMMANDS.items()}
            finally:
                c.close()
        return cache[target]
    return get


@pytest.mark.kernel_only
def test_cost_table_has_every_row_in_instructions(target, icount_runs):
    out = icount_runs(target)["run"]
    rows = table(out)
    assert sorted(rows) == sorted(ROWS), out
    assert all(r["unit"] == "insns" and r["n"] > 0 for r in rows.values()), out
    # The table comes after the benchmark's own lines, one row per cost;
    # only the run's closing check of its reads (invariants) follows it.
    lines = out.splitlines()
    first_cost = min(i for i, l in enumerate(lines) if l.startswith("COST:"))
    assert all(not l.startswith(("INFO:", "PASS:", "FAIL:", "SKIP:"))
               or l.startswith("PASS: bench: invariants: reads ")
               for l in lines[first_cost:]), out
    assert rows["ctxsw_0"]["n"] == 2 * rows["null_syscall"]["n"]   # 2 switches a round
    assert rows["boot"]["n"] == 1


@pytest.mark.kernel_only
def test_costs_positive_and_sane(target, icount_runs):
    out = icount_runs(target)["run"]
    rows = table(out)
    ref = LINUX[arch(target)]
    bounds = {"null_syscall": ref["null_syscall"], "hwread_32": ref["hwread_32"],
              "ctxsw_0": ref["ctxsw"], "ctxsw_2": ref["ctxsw"], "ctxsw_32": ref["ctxsw"]}
    for name, r in rows.items():
        assert r["total"] > 0 and r["milli"] > 0, (name, out)
        if name in bounds:
            assert r["milli"] < bounds[name] * LINUX_FACTOR * 1000, (name, out)
    assert rows["tick"]["milli"] < TICK_MAX * 1000, out
    assert rows["tick_mux"]["milli"] < TICK_MAX * 1000, out
    assert rows["boot"]["total"] < BOOT_MAX, out
    # More counters never make a switch cheaper; multiplexing a tick is work.
    assert rows["ctxsw_0"]["total"] < rows["ctxsw_2"]["total"] < rows["ctxsw_32"]["total"]
    assert rows["tick"]["total"] < rows["tick_mux"]["total"]


def allowed_drift(target, name, row):
    """Totals are exact on x86 (1 TSC tick per instruction).  On Malta each
    cycle-counter span is exact to one Count tick at each end, for the run
    at n and the zero run; the tick rows add one span per tick."""
    # docs/costs.md, "Where tick_mux's spread comes from": the rotor
    # orders events by time running, and in the set's first rounds the
    # spans it compares are a few cycles apart.  The tick's period is not
    # constant (x86_64 under -icount: 10,000,150 or 10,000,153 cycles, in
    # a pattern that follows the tick's number), so which order, how many
    # link steps and which repeated placement checks a run meets depends
    # on the tick it starts at.  Measured: x86_64 13,792 to 14,172 over
    # 12 ticks (27 runs, 9 boots), Malta 288 apart in 25,098.  tick_mux
    # may differ by ROTOR_SPREAD a tick; every other x86_64 row is exact.
    rotor = row["n"] * ROTOR_SPREAD[arch(target)] if name == "tick_mux" else 0
    if arch(target) == "x86_64":
        return rotor
    spans = 2 if name not in ("tick", "tick_mux") else row["n"] + 1
    drift = spans * 2 * MIPS_INSNS_PER_TICK
    if name == "ctxsw_32":
        # docs/costs.md: on Malta only, switching a multiplexed 32-counter
        # set takes one of two costs, because the multiplexing sort's step
        # count follows how time-running values tie, which the Count phase
        # of every earlier path sets: 10,493.1 and 9,381.7 instructions per
        # switch in the two runs of one boot (make test, this build), 11%
        # apart.  Since the kernel-event hooks are skipped while nothing
        # wants them (pmu_kevent.h) the paths differ by what is loaded, and
        # the earlier ~1.5% became this; 12% covers both values.
        drift = max(drift, row["total"] * 12 // 100)
    return drift + rotor


@pytest.mark.kernel_only
def test_costs_repeat_under_icount(target, icount_runs):
    runs = icount_runs(target)
    out, selftest = runs["run"], runs["selftest"]
    first, second = table(out), table(selftest)
    assert sorted(second) == sorted(ROWS), selftest
    for name in ROWS:
        a, b = first[name], second[name]
        assert a["n"] == b["n"], name
        assert abs(a["total"] - b["total"]) <= allowed_drift(target, name, a), (name, a, b)


@pytest.mark.kernel_only
def test_costs_are_reported_never_passed(target, icount_runs):
    runs = icount_runs(target)
    out, selftest = runs["run"], runs["selftest"]
    m, r, c = SUMMARY.search(out), REPORTED.search(out), CLOSING.search(out)
    assert m and r and c, out
    # The one test of a cost run is that its reads kept the invariants.
    assert (int(m.group(1)), int(m.group(2)), int(m.group(3))) == (1, 0, 0)
    assert re.search(r"^PASS: bench: invariants: reads ", out, re.M), out
    assert int(r.group(1)) == len(ROWS)
    assert int(c.group(1)) == 1
    # In selftest, passes are the other benchmarks' checks only.
    checks = re.findall(r"^(PASS|FAIL|SKIP): bench: ", selftest, re.M)
    m, r, c = SUMMARY.search(selftest), REPORTED.search(selftest), CLOSING.search(selftest)
    assert m and r and c, selftest
    assert int(m.group(1)) == len(checks)
    assert int(r.group(1)) >= len(ROWS)
    assert int(c.group(1)) == checks.count("PASS")
    assert not re.search(r"^(PASS|FAIL): bench: cost: ", selftest, re.M)


def test_costs_skip_without_cpi1(console):
    out = console.run("bench run cost", timeout=60)
    skips = re.findall(r"^SKIP: bench: cost: (\S+) \((.*)\)$", out, re.M)
    assert sorted(s[0] for s in skips) == sorted(ROWS), out
    assert all("cpi=1" in s[1] for s in skips), out
    assert "COST:" not in out and "FAIL" not in out, out
    assert re.search(r"^SUMMARY: 8 tests, 0 failures, 8 skipped$", out, re.M), out


@pytest.mark.kernel_only
def test_runs_longer_than_a_tick_skip_with_reason(target, icount_runs):
    out = icount_runs(target)["too_long"]
    skips = re.findall(r"^SKIP: bench: cost: (\S+) \((.*)\)$", out, re.M)
    assert sorted(s[0] for s in skips) == sorted(ROWS), out
    assert all("fits between two ticks at hz=100" in s[1] for s in skips), out
    assert "COST:" not in out and "FAIL" not in out, out


@pytest.mark.kernel_only
def test_cost_rows_in_json(target, icount_runs):
    runs = icount_runs(target)
    rows = dict(re.findall(r'^\{"cost":"(\w+)","bench":"cost","per_op_milli":(\d+),'
                           r'"unit":"insns","n":\d+,"total":\d+\}$', runs["json"], re.M))
    assert sorted(rows) == sorted(ROWS), runs["json"]
    text = table(runs["run"])
    if arch(target) == "x86_64":    # exact there: the text table's numbers again
        # tick_mux may differ by the rotor's steps (allowed_drift), the rest not.
        for k in ROWS:
            drift = allowed_drift(target, k, text[k]) * 1000 // text[k]["n"]
            assert abs(int(rows[k]) - text[k]["milli"]) <= drift, (k, rows[k], text[k])
    assert '{"summary":{"tests":1,"failures":0,"skipped":0}}' in runs["json"]
    assert '{"reported":8}' in runs["json"]


@pytest.mark.kernel_only
def test_costs_within_budget(target, icount_runs):
    """No row more than 2% over tests/system/cost_budget.json.  The
    figures are printed (pytest -s shows them) to update the file; see
    docs/costs.md and scripts/cost-budget."""
    rows = table(icount_runs(target)["run"])
    print("\n" + cost_budget.format_rows(target, rows))
    budget = cost_budget.load()
    if target not in budget:
        pytest.skip("no budget for %s in %s" % (target, cost_budget.BUDGET_FILE))
    bad = cost_budget.over_budget(budget[target], cost_budget.entry(rows))
    assert not bad, "\n" + cost_budget.describe(target, bad) + \
        "\nmeasured now:\n" + cost_budget.format_rows(target, rows) + \
        "\n(a cost meant to change: scripts/cost-budget %s)" % target


# Issue 12's targets ("Quieter than Linux"), per arch: a row's ceiling,
# as a number or as (another row, what may be added to it).
TARGETS = {
    "x86_64": {"null_syscall": 100, "ctxsw_0": 400, "ctxsw_2": ("ctxsw_0", 250),
               "ctxsw_32": ("ctxsw_0", 1500), "hwread_32": 700, "tick": 250,
               "tick_mux": ("tick", 1000), "boot": 2000000},
    "mips": {"null_syscall": 150, "ctxsw_0": 600, "ctxsw_2": ("ctxsw_0", 350),
             "ctxsw_32": ("ctxsw_0", 2000), "hwread_32": 1000, "tick": 450,
             "tick_mux": ("tick", 1500), "boot": 2500000},
}


@pytest.mark.kernel_only
def test_costs_meet_the_lean_path_targets(target, icount_runs):
    """Every row within issue 12's targets, below Linux's costs where it
    has them (docs/costs.md): the budget lets a row grow by 2%, which a
    row at its target may not.  Rows to one decimal, as the targets and
    docs/costs.md give them: a loop's operations cost whole instructions,
    and the rest is the run's fixed residue over n (x86_64 null_syscall:
    total 30,002 over 300 calls, 100.006 a call)."""
    rows = {name: round(r["milli"] / 1000, 1)
            for name, r in table(icount_runs(target)["run"]).items()}
    bad = []
    for name, ceiling in TARGETS[arch(target)].items():
        if isinstance(ceiling, tuple):
            base, extra = ceiling
            ceiling = rows[base] + extra
        if rows[name] > ceiling:
            bad.append("%s %.3f > %.3f" % (name, rows[name], ceiling))
    assert not bad, "%s: %s" % (target, "; ".join(bad))


def test_budget_check_names_the_row_and_growth():
    """The comparison itself: at 2% a row passes, past it the row is named
    with its growth; a row gone or new is named too."""
    budget = {"null_syscall": 100000, "boot": 1000000000}
    assert cost_budget.over_budget(budget, {"null_syscall": 102000, "boot": 900000000}) == []
    bad = cost_budget.over_budget(budget, {"null_syscall": 102001, "boot": 1000000000})
    assert [b[0] for b in bad] == ["null_syscall"]
    text = cost_budget.describe("x86_64", bad)
    assert "x86_64: null_syscall grew 2.00% over budget (100.000 -> 102.001 per op" in text
    bad = cost_budget.over_budget(budget, {"null_syscall": 1, "tick": 5})
    assert [(b[0], b[3]) for b in bad] == [("boot", None), ("tick", None)]


def test_budget_file_covers_every_row():
    budget = cost_budget.load()
    assert {"x86_64", "mips"} <= set(budget)
    for target, rows in budget.items():
        assert sorted(rows) == sorted(SMP_ROWS.get(target, ROWS)), target
        assert all(isinstance(v, int) and v > 0 for v in rows.values()), target


# The calibration's rate under -icount shift=0: the counter ticks every
# 1 ns (TSC) or 6 ns (Malta's Count), and the bound must contain it.
ICOUNT_RATE = {"x86_64": 1_000_000_000, "mips": 166_666_667}
RATE_LINE = re.compile(r"^cycle counter: (\d+) Hz \u00c2?\u00b1 (\d+) \((.+)\)$", re.M)


@pytest.mark.kernel_only
def test_icount_rate_exact_with_bound(target, icount_runs):
    info = icount_runs(target)["info"]
    m = RATE_LINE.search(info)
    assert m, info
    hz, err, source = int(m.group(1)), int(m.group(2)), m.group(3)
    assert source == "i8254", info
    assert hz == ICOUNT_RATE[arch(target)], info
    assert 0 < err < hz // 1000, info        # a 1 ms window: well under 0.1%
    assert re.search(r"^cycles_hz: %d$" % hz, info, re.M), info
    assert re.search(r"^cycles_hz_err: %d$" % err, info, re.M), info
