"""Isolation between uids (issue 16, item 7), as an ordinary user sees it
through `as 100 ...`:

- hwperf (R8): uid 100 cannot read, set, enable, profile, release or
  save-child the counters of a task in another process group -- not even
  one of its own uid -- and cannot reach SYSTEM mode (k, s, x modes,
  `hwperf sys ...`, the root-only benchmarks) nor reshape the software
  PMU (`hwperf soft`).
- signals (POSIX, by uid): uid 100 cannot kill another user's task.
- identity: the console's `as` is the only way to change uid: a task of
  uid 100 cannot setuid(0), `as 100 spawn --uid 0` is refused, `as` does
  not nest, and the console is root again after every `as` command,
  whatever became of it.

Runs on x86_64 and Malta little-endian with the shared console.
"""
import re

import pytest

from tally_console import kill_and_reap, spawn_pid

QUICK_TARGETS = ("x86_64", "mips")      # conftest quick_console


@pytest.fixture
def c(quick_console):
    return quick_console


spawn, end = spawn_pid, kill_and_reap


def eperm(out):
    first = out.splitlines()[0] if out else ""
    assert first.startswith(("err EPERM", "error: EPERM", "error: kill: EPERM")), out
    return first


def mode(c):
    return re.search(r"^mode (\S+)", c.run("hwperf status"), re.M).group(1)


def console_uid(c):
    row = re.search(r"^\s*1\s+0\s+1\s+(\d+)\s", c.run("ps"), re.M)
    assert row, "the console's ps row"
    return int(row.group(1))


@pytest.fixture
def others(c):
    """root's task (own group), uid 200's task, and a uid-100 task in a
    group of its own; the first two count cycles:u."""
    root_task = spawn(c, "nap 100000")
    other_user = spawn(c, "--uid 200 nap 100000")
    same_uid = spawn(c, "--uid 100 nap 100000")
    for pid in (root_task, other_user):
        assert c.run("hwperf enable %d cycles:u" % pid).startswith("ok gen=")
    yield root_task, other_user, same_uid
    end(c, root_task, other_user, same_uid)
    assert mode(c) == "FREE"


@pytest.mark.parametrize("op", [
    "hwperf read %d", "hwperf read -r %d", "hwperf getctl %d",
    "hwperf setctl %d syscalls:u", "hwperf release %d", "hwperf savechild 1 %d",
])
def test_counters_of_another_group_are_closed(c, others, op):
    for pid in others[:2]:
        first = eperm(c.run("as 100 " + op % pid))
        assert "pid %d" % pid in first, first
    # Still counting, unchanged: root reads the same set.
    out = c.run("hwperf getctl %d" % others[0])
    assert out.startswith("ok gen=1") and "cycles:u" in out, out


@pytest.mark.parametrize("op", ["hwperf enable %d cycles:u", "hwperf profile %d cycles:u:thresh=1000"])
def test_another_groups_task_cannot_be_given_counters(c, others, op):
    # Even a task of one's own uid, when it leads a group of its own.
    eperm(c.run("as 100 " + op % others[2]))
    assert c.run("hwperf getctl %d" % others[2]).startswith("err EINVAL"), "never enabled"


def test_another_users_task_cannot_be_killed(c, others):
    for pid in others[:2]:
        eperm(c.run("as 100 kill -KILL %d" % pid))
    assert re.search(r"^\s*%d\s.*\bnap\b" % others[1], c.run("ps"), re.M)


@pytest.mark.parametrize("line", [
    "hwperf sys enable cycles:k", "hwperf sys force cycles:k",
    "hwperf sys setctl cycles:k", "hwperf sys release",
    "hwperf enable 1 cycles:k", "hwperf enable 1 cycles:x",
])
def test_system_mode_is_out_of_reach(c, line):
    assert mode(c) == "FREE"
    out = c.run("as 100 " + line)
    assert re.search(r"^(err|error:)( \S+:)? EPERM", out, re.M), out
    assert mode(c) == "FREE"


def test_the_forced_acquire_benchmark_skips_for_other_uids(c, others):
    """The benchmark would take SYSTEM mode from every holder (R5)."""
    out = c.run("as 100 bench run force_acquire")
    assert "SKIP: bench: force_acquire" in out and "needs root" in out, out
    assert "PASS: bench: force_acquire" not in out
    assert mode(c) == "USER", "root's and uid 200's counters are still theirs"
    assert c.run("hwperf getctl %d" % others[0]).startswith("ok gen=1")


def test_the_soft_pmu_shape_is_root_only(c):
    shape = c.run("hwperf soft")
    if not shape.startswith("ok 0"):
        pytest.skip("the active PMU is not the software PMU: " + shape.splitlines()[0])
    before = re.search(r"counters=(\d+) width=(\d+)", shape).groups()
    eperm(c.run("as 100 hwperf soft counters=3"))
    eperm(c.run("as 100 hwperf soft width=16"))
    assert re.search(r"counters=(\d+) width=(\d+)", c.run("hwperf soft")).groups() == before


def test_as_is_the_only_way_to_change_identity(c):
    out = c.run("as 100 spawn --wait ids")
    assert re.search(r"^pid=\d+ ppid=1 uid=100 ", out, re.M), out
    assert "setuid(0)=EPERM" in out, out
    assert c.run("as 100 spawn --uid 0 hello").startswith("error: spawn: only root"), "spawn --uid"
    assert c.run("as 100 as 0 echo x").startswith("error: as: cannot nest"), "as as"
    # The console is root again after each, and after a refused command.
    c.run("as 100 crash panic")
    assert console_uid(c) == 0
    out = c.run("spawn --wait ids")
    assert re.search(r"uid=0 ", out) and "setuid(0)=ok" in out, out
