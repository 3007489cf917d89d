"""The cost budget: the cost table's figures per target, kept in the tree.

tests/system/cost_budget.json holds, per `-kernel` target, every row of
`bench run cost` as per-operation instructions in thousandths (the
`per_op` column times 1000, as the JSON form prints it).  A row that
grows by more than BUDGET_SLACK over its figure fails
tests/system/test_bench_cost.py; a cost meant to change is updated in the
same change with

    scripts/cost-budget TARGET...

which boots each target under -icount shift=0 with cpi=1, runs the cost
benchmark and rewrites that target's entry.
"""
import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
BUDGET_FILE = os.path.join(HERE, "cost_budget.json")
# A row may grow by 2% before it fails: the Malta figures move by a Count
# tick (6 instructions) at either end of a span between boots, far less.
BUDGET_SLACK_PERCENT = 2

COST = re.compile(r"^COST: bench: cost(?:_smp)?: (\S+) per_op=(\d+)\.(\d{3}) unit=(\S+) "
                  r"n=(\d+) total=(\d+)$", re.M)


def table(out):
    """{row: {milli, unit, n, total}} from the text cost table in out."""
    rows = {m.group(1): m for m in COST.finditer(out)}
    return {name: {"milli": int(m.group(2)) * 1000 + int(m.group(3)), "unit": m.group(4),
                   "n": int(m.group(5)), "total": int(m.group(6))}
            for name, m in rows.items()}


def load(path=BUDGET_FILE):
    with open(path) as f:
        return json.load(f)


def save(budget, path=BUDGET_FILE):
    with open(path, "w") as f:
        json.dump(budget, f, indent=2, sort_keys=True)
        f.write("\n")


def entry(rows):
    """A target's budget entry from a parsed cost table."""
    return {name: r["milli"] for name, r in rows.items()}


def over_budget(budget_rows, measured_rows, slack_percent=BUDGET_SLACK_PERCENT):
    """Rows that grew past the budget by more than slack_percent, as
    (row, budget_milli, measured_milli, percent_over) tuples; a row
    missing from either side is reported with None for its figure."""
    bad = []
    for name in sorted(set(budget_rows) | set(measured_rows)):
        b, m = budget_rows.get(name), measured_rows.get(name)
        if b is None or m is None:
            bad.append((name, b, m, None))
        elif m * 100 > b * (100 + slack_percent):
            bad.append((name, b, m, (m - b) * 100.0 / b))
    return bad


def describe(target, bad):
    lines = []
    for name, b, m, pct in bad:
        if pct is None:
            lines.append("%s: %s: in budget %s, measured %s" % (target, name, b, m))
        else:
            lines.append("%s: %s grew %.2f%% over budget (%d.%03d -> %d.%03d per op, "
                         "more than %d%%)" % (target, name, pct, b // 1000, b % 1000,
                                               m // 1000, m % 1000, BUDGET_SLACK_PERCENT))
    return "\n".join(lines)


def format_rows(target, rows):
    """The figures as a person reads them, to update the budget by hand."""
    return "\n".join("%s %s per_op=%d.%03d" % (target, name, r["milli"] // 1000,
                                               r["milli"] % 1000)
                     for name, r in sorted(rows.items()))
