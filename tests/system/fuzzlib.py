"""Fuzzing, stress and leak accounting over a Tally console (issue 16).

Shared by tests/system/test_fuzz.py (short, fixed seeds, in `make test`)
and scripts/soak (hours, fresh seeds, progress and a summary).

- figures / leaks / settle: `mem --json` before and after, and which
  figure did not come back once every task is reaped.
- run_sysfuzz: the user program sysfuzz (user/sysfuzz.c) and its summary.
- ConsoleGrammar: random console lines built from the commands' own
  grammar (seeded), and run_console_fuzz to type them.
- forced_takeover_stress: tasks with counters under repeated forced
  system acquires: no count backwards, every lost set frozen.
"""
import json
import random
import re
import time

# Figures that must be back at their start value once every task the run
# made is reaped.  Free pages are compared with what the one-time growths
# took from them added back: the heap keeps pages it carved (heap_pages)
# and x86_64 fills the kernel half's tables once (kernel_tables), so
# pages_free + heap_pages + kernel_tables is what a leak would lower.
LEAK_KEYS = ("heap_in_use", "page_tables", "tasks", "kstacks", "hwperf_sets",
             "hwperf_system", "hwperf_upages", "pages")


def figures(c):
    out = c.run("mem --json")
    f = json.loads(out.strip().splitlines()[-1])
    f["pages"] = f["pages_free"] + f["heap_pages"] + f["kernel_tables"]
    return f


def leaks(before, after):
    """{key: (before, after)} for every leak figure that moved."""
    return {k: (before[k], after[k]) for k in LEAK_KEYS if before[k] != after[k]}


def settle(c, before, timeout=20.0):
    """Figures once they are back at before's, or the last ones seen after
    timeout (orphans and zombies go a little after the last command)."""
    deadline = time.monotonic() + timeout
    while True:
        after = figures(c)
        if not leaks(before, after) or time.monotonic() > deadline:
            return after
        time.sleep(0.2)


# ---- the system-call fuzzer ------------------------------------------------------

SUMMARY = re.compile(r"^sysfuzz seed=(\d+) calls=(\d+) uid=(\d+) (.*) unexpected=(\d+)\s*$", re.M)
UNEXPECTED = re.compile(r"^sysfuzz unexpected .*$", re.M)


def run_sysfuzz(c, seed, calls, uid=None, timeout=900):
    """Run sysfuzz as root or as uid; its summary as a dict:
    seed, calls, uid, unexpected, errno -> count (and ok, forks, reaped,
    kills, signals), `lines` (the unexpected outcomes it printed), `exit`
    (its status line) and `seconds` (wall time)."""
    line = "spawn --wait sysfuzz %d %d" % (seed, calls)
    if uid is not None:
        line = "as %d %s" % (uid, line)
    t = time.monotonic()
    out = c.run(line, timeout=timeout)
    seconds = time.monotonic() - t
    m = SUMMARY.search(out)
    end = re.search(r"^(exit \d+|signal \S+)", out, re.M)
    if not m:
        return dict(summary=None, out=out[-4000:], exit=end and end.group(1),
                    seconds=seconds)
    r = dict(seed=int(m.group(1)), calls=int(m.group(2)), uid=int(m.group(3)),
             unexpected=int(m.group(5)), lines=UNEXPECTED.findall(out),
             exit=end and end.group(1), seconds=seconds, summary=m.group(0))
    for k, v in re.findall(r"(\w+)=(\d+)", m.group(4)):
        r[k] = int(v)
    return r


# ---- the console fuzzer -----------------------------------------------------------

PROGRAMS_SHORT = ["hello", "sys 50", "touch 8", "fault null", "fault kernel",
                  "fault divzero", "fault badptr", "nap 5", "forktree 2", "spin 20000",
                  "ids", "yield 20", "sig", "hwbad"]
EVENTS = ["cycles", "instructions", "syscalls", "faults", "ticks", "signals", "csw",
          "cycles:u", "cycles:k", "syscalls:uk", "nosuch", "r1234", "cpu/event=0x3c/"]
MODIFIERS = ["", ":u", ":k", ":uk", ":thresh=100000", ":thresh=0", ":thresh=-1",
             ":sig=12", ":bogus", ":"]
JUNK = ["", "-1", "0", "4294967296", "18446744073709551616", "99999", "--", "-",
        "''", '""', "'unterminated", "x" * 40, "%s%n", "\\", "-e", "--json", "--wait",
        "--uid", "--pgid", "1,2,3", ",,", "=", "a=b"]
# Never typed: they change the machine for everyone (or run for minutes).
NEVER = ("poweroff", "reboot", "crash", "selftest", "bench run")


class ConsoleGrammar:
    """Random console lines, most of them well formed, from a seed.

    Each word is drawn from what the command takes (its subcommands,
    pids it knows, event specs, programs) or, now and then, junk.  pids:
    the tasks the fuzzer itself spawned, the console (1) and the idle
    task (0) -- the only tasks a line may name, so nothing outside them
    changes (the console and idle refuse what would)."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.pids = []

    def pick(self, seq):
        return self.rng.choice(seq)

    def maybe_junk(self, word, p=0.08):
        return self.pick(JUNK) if self.rng.random() < p else word

    def pid(self, changes=False):
        """A pid to name; never the console or idle for a line that
        would change its target (root's console may change its own)."""
        r = self.rng.random()
        if self.pids and r < 0.7:
            return str(self.pick(self.pids))
        if r < 0.8 and not changes:
            return self.pick(["0", "1"])
        return self.pick(["99999", "-1", "zz", "32768"])

    def spec(self):
        n = 1 + self.rng.randrange(3)
        return ",".join(self.pick(EVENTS) + self.pick(MODIFIERS) for _ in range(n))

    def hwperf(self):
        op = self.pick(["status", "read", "read -r", "enable", "setctl", "profile",
                        "getctl", "release", "savechild", "sys read", "sys read --cpu",
                        "sys enable", "sys force", "sys setctl", "sys getctl",
                        "sys release", "parse", "soft", "nosuch"])
        if op in ("read", "read -r", "getctl"):
            return "hwperf %s %s" % (op, self.pid())
        if op == "release":
            return "hwperf release %s" % self.pid(True)
        if op in ("enable", "setctl", "profile"):
            return "hwperf %s %s %s" % (op, self.pid(True), self.spec())
        if op == "savechild":
            return "hwperf savechild %s %s" % (self.pid(True), self.pid(True))
        if op in ("sys enable", "sys force", "sys setctl", "parse"):
            return "hwperf %s %s" % (op, self.spec())
        if op == "sys read --cpu":
            return "hwperf sys read --cpu %s" % self.pick(["0", "1", "99", "zz"])
        if op == "soft":
            # Reading the shape only: changing it is root's, and it
            # would change every later count.
            return "hwperf soft"
        return "hwperf " + op

    def command(self):
        kind = self.rng.randrange(100)
        if kind < 25:
            return self.hwperf()
        if kind < 35:
            prog = self.pick(PROGRAMS_SHORT)
            opts = self.pick(["", "--pgid 0 ", "--uid 100 ", "--pgid 1 ", "--uid zz "])
            return "spawn %s%s" % (opts, prog)
        if kind < 42:
            return "stat -e %s %s" % (self.spec(), self.pick(PROGRAMS_SHORT))
        if kind < 45:
            return "prof %s" % self.pick(["hello", "spin 20000", "sys 100"])
        if kind < 55:
            return "kill %s%s" % (self.pick(["", "-KILL ", "-TERM ", "-0 ", "-99 ", "-zz "]),
                                  self.pid())
        if kind < 62:
            return "wait %s" % self.pid()
        if kind < 70:
            return "as %s %s" % (self.pick(["100", "0", "65535", "65536", "-1", "zz"]),
                                 self.command())
        if kind < 80:
            return self.pick(["mem", "mem --json", "ps", "uptime", "sched", "irqs",
                              "info", "programs", "bootargs", "help", "help hwperf",
                              "events", "echo hi", "mem -m"])
        if kind < 88:
            return "%s %s" % (self.pick(["events", "help", "echo", "programs", "mem",
                                         "ps", "uptime"]),
                              " ".join(self.pick(JUNK) for _ in range(self.rng.randrange(4))))
        # Words that are no command at all.
        return " ".join(self.pick(JUNK + ["hwperf", "spawn", "kill"])
                        for _ in range(1 + self.rng.randrange(4)))

    def line(self):
        words = self.command().split(" ")
        return " ".join(self.maybe_junk(w) for w in words).strip() or "echo empty"


PANIC = re.compile(r"^panic:", re.M)


def run_console_fuzz(c, seed, lines, timeout=60):
    """Type `lines` grammar lines; every one must give the prompt back, none
    may panic.  Afterwards every task it spawned is killed and reaped.
    Returns counts: lines, errors (lines answered with an error), spawned.
    Raises AssertionError naming the seed and line index on a panic."""
    g = ConsoleGrammar(seed)
    errors = spawned = 0
    for i in range(lines):
        line = g.line()
        if any(line.startswith(n) or (" " + n) in line for n in NEVER):
            continue
        out = c.run(line, timeout=timeout)
        assert not PANIC.search(out), "seed %d line %d `%s`: %s" % (seed, i, line, out)
        if re.match(r"(error: |err |\{\"ok\":false)", out):
            errors += 1
        for m in re.finditer(r"^pid (\d+)$", out, re.M):
            g.pids.append(int(m.group(1)))
            spawned += 1
    reap_all(c, g.pids)
    return dict(lines=lines, errors=errors, spawned=spawned)


def reap_all(c, pids):
    """Kill and reap every pid a run spawned from the console (those it
    already reaped answer an error); give back system mode, and the
    console's own counters (`hwperf sys enable` without k mode is an
    enable of the console's user-mode counters, R4)."""
    for pid in pids:
        c.run("kill -KILL %d" % pid)
    for pid in pids:
        c.run("wait %d" % pid, timeout=60)
    c.run("hwperf sys release")
    c.run("hwperf release 1")


# ---- forced-takeover stress ---------------------------------------------------------

COUNT = re.compile(r"^(\S+) count=(\d+)", re.M)


def status(c):
    out = c.run("hwperf status")
    mode = re.search(r"^mode (\w+)$", out, re.M).group(1)
    holders = {int(p): dict(gen=int(g), lost=int(lost)) for p, g, lost in
               re.findall(r"^holder pid=(\d+) cpu=-?\d+ gen=(\d+) lost=(\d)$", out, re.M)}
    return mode, holders


def counts(out):
    return {k: int(v) for k, v in COUNT.findall(out)}


def forced_takeover_stress(c, tasks=64, rounds=3, sample=8, seed=0, spec="cycles:u,syscalls:u",
                           prog="yield 100000000"):
    """`tasks` tasks with counters; each round a forced system acquire
    takes them all (R5/R6), `sample` of them are read twice and must not
    move (a lost set is frozen), system mode is released and every set
    restarted with setctl (R7: a new generation).  The console's own read
    checker (tally_console.ReadChecker) fails any count that goes
    backwards within a generation.  Returns dict(tasks, takeovers,
    frozen_reads, reads)."""
    rng = random.Random(seed)
    pids = []
    for _ in range(tasks):
        out = c.run("spawn " + prog)
        m = re.match(r"pid (\d+)", out)
        assert m, out
        pids.append(int(m.group(1)))
    reads = frozen = 0
    try:
        for pid in pids:
            out = c.run("hwperf enable %d %s" % (pid, spec))
            assert out.startswith("ok gen="), out
        for rnd in range(rounds):
            for pid in rng.sample(pids, sample):
                c.run("hwperf read %d" % pid)
                reads += 1
            out = c.run("hwperf sys force cycles:k")
            assert out.startswith("ok gen="), out
            mode, holders = status(c)
            assert mode == "SYSTEM", mode
            lost = [p for p in pids if holders.get(p, {}).get("lost") != 1]
            assert not lost, "round %d: not marked lost: %s" % (rnd, lost)
            time.sleep(0.05)
            for pid in rng.sample(pids, sample):
                first = counts(c.run("hwperf read %d" % pid))
                time.sleep(0.02)
                again = counts(c.run("hwperf read %d" % pid))
                reads += 2
                assert first == again, "round %d pid %d: a lost set moved: %s -> %s" % (
                    rnd, pid, first, again)
                frozen += 1
            assert c.run("hwperf sys release").startswith("ok"), "sys release"
            for pid in pids:
                out = c.run("hwperf setctl %d %s" % (pid, spec))
                assert out.startswith("ok gen="), out
    finally:
        c.run("hwperf sys release")
        reap_all(c, pids)
    return dict(tasks=tasks, takeovers=rounds, frozen_reads=frozen, reads=reads)
