"""`selftest --tap` and `bench run NAME --tap`: TAP version 13 that a TAP
consumer Tally did not write (Perl's TAP::Parser, behind `prove`) reads
as the same tests, passes, failures and skips as Tally's own SUMMARY."""
import os
import re
import subprocess

import pytest

from tally_console import SUMMARY

PARSER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tap_check.pl")


def parse(tap):
    """What TAP::Parser makes of the TAP part of a console output."""
    start = tap.index("TAP version 13")
    r = subprocess.run(["perl", PARSER], input=tap[start:], capture_output=True,
                       text=True, check=True)
    first, *errors = r.stdout.splitlines()
    return dict(kv.split("=", 1) for kv in first.split()), errors


def tally_summary(out):
    m = re.search(r"^# SUMMARY: (\d+) tests, (\d+) failures, (\d+) skipped$", out, re.M)
    assert m, out
    return tuple(int(g) for g in m.groups())


@pytest.mark.kernel_only
def test_selftest_tap_reads_as_tallys_summary(console):
    out = console.run("selftest --tap", timeout=300)
    got, errors = parse(out)
    tests, failures, skipped = tally_summary(out)
    assert not errors and got["parse_errors"] == "0", errors
    assert got["version"] == "13"
    assert got["plan"] == "1..%d" % tests
    assert int(got["tests_run"]) == tests and got["failed"] == "-" and failures == 0
    assert int(got["skipped"]) == skipped > 0
    # Every SKIP directive carries its reason.
    assert all(re.search(r" # SKIP \S", l) for l in out.splitlines() if "# SKIP" in l)


@pytest.mark.kernel_only
def test_tap_failures_are_not_ok(target, boot):
    c = boot(append="benchbreak=sys_calls")
    out = c.run("bench run sys_calls --tap", timeout=120)
    got, errors = parse(out)
    assert not errors, errors
    assert got["failed"] == "1,2", out           # both checks broken on purpose
    assert tally_summary(out)[1] == 2


def test_tap_and_json_are_exclusive(console):
    out = console.run("bench run sys_calls --tap --json")
    assert out.startswith("error: bench: --json and --tap"), out
