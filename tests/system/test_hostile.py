"""Hostile console input (issue 16): the findings, each as a test, and a
sweep of every console command with missing and junk arguments.

Runs on x86_64 and Malta little-endian (the other targets boot the same
kernel code; the sweep alone is ~100 commands per target).  Every test
uses the shared console and leaves it as it found it.
"""
import re
import time

import pytest

from tally_console import kill_and_reap, spawn_pid

QUICK_TARGETS = ("x86_64", "mips")      # conftest quick_console
# An error's first line; `stat --json` answers with its JSON error object.
ERROR = re.compile(r'^(error: |err |\{"ok":false,)')
PANIC = re.compile(r"^panic:", re.M)  # a panic also never gives the prompt back


@pytest.fixture
def c(quick_console):
    return quick_console


spawn, end = spawn_pid, kill_and_reap


def free_pages(c):
    """Free pages as a leak would lower them (docs/hostile.md): pages the
    heap carved and keeps, and the kernel tables made once, count as free."""
    out = c.run("mem")
    return sum(int(re.search(r"%s=(\d+)" % key, out).group(1))
               for key in ("pages_free", "heap_pages", "kernel_tables"))


def status(c):
    out = c.run("hwperf status")
    mode = re.search(r"^mode (\S+)", out, re.M).group(1)
    holders = re.findall(r"^holder pid=(\d+)", out, re.M)
    return mode, holders


# ---- findings ------------------------------------------------------------------

def test_bench_run_without_a_name_is_a_usage_error(c):
    out = c.run("bench run -n 5")
    assert out.startswith("error: usage: bench run"), out
    assert "panic" not in out


BURSTS_MAX = 10


def hammer_enable_during_exit(c):
    pid = spawn(c, "touch 16000")
    # Typed every few ms, not one per prompt (and without pexpect's own
    # 50 ms pause before each send, see c): the exit's window (freeing
    # 16000 pages) is a few ms.  Bursts of 300 until the task is gone, so
    # a slow host (the exit taking longer than one burst) still ends here.
    answers = []
    for burst in range(BURSTS_MAX):
        for _ in range(300):
            c.send("hwperf enable %d cycles:u\r" % pid)
            time.sleep(0.004)
        c.send("echo __typed%d__\r" % burst)
        typed = c.expect(r"\n__typed%d__\r*\n" % burst, timeout=30)
        c.expect("tally> ")
        answers += re.findall(r"(ok gen=\d+|err E[A-Z]+: [^\n]*)", typed)
        if any(a.startswith("err ESRCH") for a in answers):
            break
    gone = [i for i, a in enumerate(answers) if a.startswith("err ESRCH")]
    assert gone, "the burst ended before pid %d did: %s" % (pid, answers[-1:])
    # Counters are enabled once; a second `ok` came while it exited.
    assert len([a for a in answers if a.startswith("ok")]) <= 1, answers
    assert re.search(r"^exit 0", c.run("wait %d" % pid, timeout=30), re.M)
    assert status(c) == ("FREE", [])


def test_exit_race_leaves_no_phantom_holder_and_force_ends(c):
    """`hwperf enable P` typed while P exits used to answer `ok gen=1`
    and leave P on the holders list after its slot was freed: status said
    USER with no holders, `hwperf soft` blamed a dead pid, and a forced
    system acquire then hung the console."""
    # Before the fix each round hit the window (4 of 4 on x86_64); two
    # for margin.  The host test (test_hwperf_exit_race) is exact.
    for _ in range(2):
        hammer_enable_during_exit(c)
    assert status(c) == ("FREE", [])
    soft = c.run("hwperf soft")
    if soft.startswith("ok 0"):
        shape = re.search(r"counters=(\d+) width=(\d+)", soft).groups()
        assert c.run("hwperf soft counters=4").startswith("ok 0")
        assert c.run("hwperf soft counters=%s width=%s" % shape).startswith("ok 0")
    spin = spawn(c, "spin 4000000000")
    try:
        assert c.run("hwperf enable %d cycles:u" % spin).startswith("ok gen=")
        assert c.run("hwperf sys force cycles:k", timeout=10).startswith("ok gen=")
        assert c.run("hwperf sys release").startswith("ok")
    finally:
        end(c, spin)
    assert status(c) == ("FREE", [])


@pytest.mark.parametrize("line", [
    "crash panic", "crash list", "poweroff 7", "poweroff", "reboot",
])
def test_root_only_commands_refuse_other_uids(c, line):
    out = c.run("as 100 " + line)
    assert out.startswith("error: EPERM: "), out
    assert "uid 100" in out
    assert c.run("echo alive") == "alive\n"


def test_joining_another_users_group_is_refused(c):
    before = c.run("ps")
    out = c.run("as 100 spawn --pgid 1 spin 10")
    assert out.startswith("error: spawn: EPERM: "), out
    assert c.run("ps").count("\n") == before.count("\n"), "no task was started"
    # A group that holds a task of one's own uid may be joined (POSIX).
    mine = spawn(c, "--uid 100 --pgid 77 nap 100000")
    out = c.run("as 100 spawn --pgid 77 nap 100000")
    m = re.match(r"pid (\d+)", out)
    assert m, out
    joined = int(m.group(1))
    row = re.search(r"^\s*%d\s+1\s+77\s+100 " % joined, c.run("ps"), re.M)
    assert row, "joined pgid 77 as uid 100"
    end(c, mine)
    end(c, joined)


def test_reboot_with_arguments_is_a_usage_error(c):
    out = c.run("reboot now please")
    assert out.startswith("error: usage: reboot"), out


def test_events_dispatch_errors_have_the_error_prefix(c):
    out = c.run("events --model r10000 bogus")
    assert out.startswith("error: dispatch NOTFOUND: "), out


def test_savechild_for_a_console_child(c):
    pid = spawn(c, "nap 100000")
    try:
        assert re.search(r"^\s*%d\s+1\s" % pid, c.run("ps"), re.M)
        out = c.run("hwperf savechild 1 %d" % pid)
        assert out.startswith("ok gen="), out
    finally:
        end(c, pid)


def test_backspace_under_the_limit_after_a_long_line(c):
    c.send("echo " + "x" * 520 + "\x7f" * 20 + "\r")
    c.expect("tally> ")
    out = c.run("echo done")
    assert out == "done\n"
    # The same in one go, checked by its output.
    c.send("echo " + "y" * 515 + "\x7f" * 10 + "\r")
    text = c.expect("tally> ")
    assert "line too long" not in text, text
    assert "y" * 490 in text


# ---- Ctrl-C (item 5) -------------------------------------------------------------

def ctrl_c(c, line, settle=1.0):
    """Type line, then Ctrl-C after settle seconds; the prompt must come
    back within a few seconds.  Returns what the command printed."""
    c.send(line + "\r")
    time.sleep(settle)
    t0 = time.monotonic()
    c.send("\x03")
    text = c.expect("tally> ", timeout=8)
    assert time.monotonic() - t0 < 5, "prompt took too long"
    return text


def test_ctrl_c_leaves_a_waited_task_running(c):
    text = ctrl_c(c, "spawn --wait nap 60000")
    pid = int(re.search(r"pid (\d+)", text).group(1))
    assert "interrupted: pid %d left running" % pid in text, text
    assert re.search(r"^\s*%d\s+1\s.*\bnap\b" % pid, c.run("ps"), re.M)
    text = ctrl_c(c, "wait %d" % pid, settle=0.5)
    assert "interrupted: pid %d left running" % pid in text, text
    end(c, pid)


def test_ctrl_c_kills_a_stat_or_prof_child(c):
    for line in ("stat nap 60000", "prof spin 4000000000"):
        text = ctrl_c(c, line)
        m = re.search(r"interrupted: pid (\d+) killed", text)
        assert m, text
        assert not re.search(r"^\s*%s\s" % m.group(1), c.run("ps"), re.M)


def test_ctrl_c_returns_the_console_from_an_endless_overflow_loop(c):
    """hwovf with threshold 1 takes a signal at every system call,
    sigreturn included, so it never ends."""
    text = ctrl_c(c, "spawn --wait hwovf 1 10")
    pid = int(re.search(r"pid (\d+)", text).group(1))
    assert "left running" in text, text
    end(c, pid)
    assert status(c)[1] == []


def test_ctrl_c_stops_selftest_after_the_benchmark_under_way(c):
    c.send("selftest\r")
    time.sleep(1.0)
    c.send("\x03")
    text = c.expect("tally> ", timeout=60)
    m = re.search(r"interrupted: stopped after benchmark (\S+);", text)
    assert m, text[-500:]
    assert re.search(r"^SUMMARY: ", text, re.M), "the partial summary"
    assert status(c) == ("FREE", [])


def test_ctrl_c_with_nothing_running_still_cancels_the_line(c):
    c.send("echo never\x03")
    text = c.expect("tally> ")
    assert "never\r" not in text.replace("echo never", "")
    assert c.run("echo ok") == "ok\n"


# ---- siblings: every command, arguments missing and junk -----------------------

# Per command: argument lists to try ("" = none).  Every command `help`
# lists must be here, so a new command joins the sweep.  Left out by
# design: `poweroff`/`reboot` with valid arguments, `crash` with a valid
# kind (they leave), and `selftest`/`bench run all` without junk (they
# run every benchmark; test_bench covers them).
SWEEP = {
    "as": ["", "100", "zz echo x", "100 zz", "70000 echo x", "100 as 0 echo x", "-1 echo"],
    "bench": ["", "zz", "run", "run -n 5", "run zz", "run -n", "run -n zz loop",
              "run -n 0 loop", "list zz"],
    "bootargs": ["", "zz"],
    "cp0": ["", "zz"],
    "cpus": ["", "zz", "--ping", "--ping zz", "--ping 99", "--ping -1", "--ping 1 2",
             "--resched", "--resched zz", "--resched 0", "--resched 99"],
    "crash": ["", "zz", "panic zz", "list zz"],
    "echo": [""],
    "events": ["", "zz", "--model", "--model zz", "--model r10000 zz", "--models zz"],
    "help": ["", "zz", "help help"],
    "hwperf": ["", "zz", "enable", "enable 2", "enable zz cycles", "enable 99999 cycles",
               "enable -1 cycles", "profile", "profile 1 cycles", "read", "read -r",
               "read zz", "getctl", "getctl 99999", "setctl 1", "setctl zz zz", "release",
               "release zz", "savechild", "savechild 1", "savechild zz zz",
               "savechild 1 99999", "sys", "sys zz", "sys enable", "sys force",
               "sys force zz", "sys read --cpu", "sys read --cpu 99", "sys read --cpu zz",
               "sys getctl", "sys setctl", "sys setctl zz", "sys release", "parse", "parse zz:q",
               "soft zz", "soft counters=zz", "soft counters=99", "status zz"],
    "info": ["", "zz"],
    "irqs": ["", "zz"],
    "kill": ["", "zz", "-ZZ 2", "-9", "99999", "-9 0", "1 2 3"],
    "lockcheck": ["", "zz", "twice", "sleep", "twice zz"],
    "mem": ["", "zz"],
    "pin": ["", "zz", "1", "99999 0", "zz 0", "1 zz", "1 99", "1 -1", "1 2 3"],
    "poweroff": ["zz", "999", "1 2", "-1"],
    "prof": ["", "zz", "-e", "-e zz hello", "-n", "-n zz hello", "-n 999 hello"],
    "programs": ["", "zz"],
    "ps": ["", "zz"],
    "reboot": ["zz", "now please"],
    "sched": ["", "zz"],
    "selftest": ["zz", "-n", "-n zz"],
    "spawn": ["", "zz", "--uid", "--uid zz hello", "--uid 99999 hello", "--pgid",
              "--pgid zz hello", "--pgid -1 hello", "--wait", "--zz hello"],
    "stall": ["", "zz", "1", "1 zz", "zz 100", "0 100", "99 100", "1 0", "1 99999", "1 -1",
              "1 2 3"],
    "stat": ["", "zz", "-e", "-e zz hello", "-e cycles:k hello", "--json"],
    "uart": ["", "zz", "1 2"],
    "uptime": ["", "zz"],
    "wait": ["", "zz", "99999", "0", "1 2"],
}
# Invocations whose normal output is not an error.
NORMAL = {("bootargs", ""), ("cp0", ""), ("cpus", ""), ("echo", ""), ("events", ""), ("help", ""),
          ("help", "help help"), ("info", ""), ("irqs", ""), ("mem", ""), ("programs", ""),
          ("ps", ""), ("sched", ""), ("uart", ""), ("uptime", ""), ("hwperf", ""),
          # R12: a CPU that does not exist reads as `ok 0`, like IRIX.
          ("hwperf", "sys read --cpu 99")}


def test_every_command_survives_missing_and_junk_arguments(c):
    names = re.findall(r"^  (\S+)\s", c.run("help"), re.M)
    missing = [n for n in names if n not in SWEEP]
    assert not missing, "commands not in the sweep: %s" % missing
    pages = free_pages(c)
    bad = []
    for name in names:
        for args in SWEEP[name]:
            line = (name + " " + args).strip()
            out = c.run(line, timeout=20)
            if PANIC.search(out):
                bad.append((line, out))
            elif (name, args) not in NORMAL and not ERROR.match(out):
                bad.append((line, out[:200]))
    assert not bad, "\n".join("%s -> %r" % b for b in bad)
    assert free_pages(c) == pages, "free pages changed across the sweep"
