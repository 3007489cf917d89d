"""Events and hwperf agree on placement (issue 10, item 4).

`events EV...` places a set on the active PMU with the engine hwperf uses
(kernel/events/place.c); `hwperf status` shows, per CPU, which hardware
counter each virtual counter of the loaded set sits on.  For the same
events in the same order the two must say the same.

In QEMU the active PMU is the software one (no hardware PMU counts there),
whose counters are all alike and which has no fixed counters: these runs
check the whole path -- console, engine, switch-in placement, status --
but not constraints.  Constrained models (intel-arch fixed counters, 74K
odd/even, R10000 slots) are checked on the host, for every set of the
dispatch tests: tests/unit/kernel/events/test_agree.c.
"""
import re
import time

import pytest

pytestmark = pytest.mark.kernel_only

ASSIGN = re.compile(r"^assign (\d+) (\S+) hw=(\d+) ", re.M)
WAIT = re.compile(r"^wait (\d+) (\S+)$", re.M)
PLACED = re.compile(r"^placed cpu=(\d+) pid=(-?\d+) counter=(\d+) hw=(\d+) event=(\S+)$", re.M)
SOFT = re.compile(r"^soft counters=(\d+) width=(\d+)$", re.M)

SETS = [
    ["cycles"],
    ["syscalls", "cycles", "ticks"],
    ["csw", "csw", "irqs", "faults"],
]


def events_says(console, names):
    out = console.run("events " + " ".join(names))
    assert not out.startswith(("dispatch", "error: dispatch")), out
    got = {int(i): int(hw) for i, _, hw in ASSIGN.findall(out)}
    assert sorted(got) == list(range(len(names))), out
    return got


def hwperf_shows(console):
    """{cpu: {counter: hw}} of the sets loaded now, once a tick has loaded them."""
    for _ in range(50):
        placed = {}
        for cpu, _, ctr, hw, _ in PLACED.findall(console.run("hwperf status")):
            placed.setdefault(int(cpu), {})[int(ctr)] = int(hw)
        if placed:
            return placed
        time.sleep(0.05)
    raise AssertionError("hwperf status never showed a placed counter")


@pytest.fixture
def four_soft_counters(console):
    out = console.run("hwperf soft")
    before = SOFT.search(out).groups()
    assert console.run("hwperf soft counters=4").startswith("ok 0"), "reshape"
    yield console
    console.run("hwperf sys release")
    assert console.run("hwperf soft counters=%s width=%s" % before).startswith("ok 0")


@pytest.mark.parametrize("names", SETS, ids=["-".join(s) for s in SETS])
def test_events_and_hwperf_agree_on_placement(four_soft_counters, names):
    console = four_soft_counters
    want = events_says(console, names)
    spec = ",".join(n + ":k" for n in names)
    out = console.run("hwperf sys enable " + spec)
    assert out.startswith("ok gen="), out
    try:
        placed = hwperf_shows(console)
        # Unnumbered events take virtual counters 0, 1, ... in order.
        for cpu, got in placed.items():
            assert got == want, (cpu, console.run("hwperf status"))
    finally:
        assert console.run("hwperf sys release").startswith("ok")


def test_events_says_which_events_wait_when_the_set_does_not_fit(four_soft_counters):
    names = ["cycles", "syscalls", "csw", "irqs", "ticks", "faults"]
    out = four_soft_counters.run("events " + " ".join(names))
    assert out.startswith("error: dispatch TOOMANY: 6 events, 4 usable counters\n"), out
    assert [int(i) for i, _, _ in ASSIGN.findall(out)] == [0, 1, 2, 3], out
    assert [(int(i), n) for i, n in WAIT.findall(out)] == [(4, "ticks"), (5, "faults")], out
