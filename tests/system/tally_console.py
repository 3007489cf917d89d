"""Drive a Tally console in QEMU through scripts/qemu-run, as a person would.

One Console is one QEMU process. `run()` types a command line and returns
what the kernel printed before the next prompt, the way U-Boot's test/py
drives a board.
"""
import os
import re
import time

import pexpect

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROMPT = b"tally> "
BOOT_TIMEOUT = float(os.environ.get("TALLY_BOOT_TIMEOUT", "60"))
CMD_TIMEOUT = float(os.environ.get("TALLY_CMD_TIMEOUT", "30"))
# Long input goes out in pieces of this size, never blocking, with the
# guest's output read whenever the input cannot go, as a terminal does.  A
# blocked writer stops reading; the guest's echo then fills the other
# direction and its polled transmit gives up and drops output.
SEND_PIECE = 256

# Every target `make test` boots. Targets booted from the ISO take no
# kernel arguments (GRUB's config is fixed), so tests that need boot
# arguments use only the `-kernel` targets.
TARGETS = {
    "x86_64": dict(arch="x86_64", boot="kernel"),
    "x86_64-iso-bios": dict(arch="x86_64", boot="iso", firmware="bios"),
    "x86_64-iso-uefi": dict(arch="x86_64", boot="iso", firmware="uefi"),
    "mips": dict(arch="mips", endian="little"),
    "mipsbe": dict(arch="mips", endian="big"),
}
KERNEL_TARGETS = ["x86_64", "mips", "mipsbe"]
# Boots that only their own module makes (test_boot_efi.py adds them):
# never parametrized into every test.  Extra keys: usb, image (from ROOT).
EXTRA_TARGETS = {}
# -kernel targets booted with several CPUs (issue 13).  Only modules that
# name them in SMP_TARGETS run there (conftest.py): the console, task and
# hwperf tests, not every module, to keep `make test`'s time in bounds.
SMP_VARIANTS = {
    "x86_64-smp2": dict(arch="x86_64", boot="kernel", smp=2),
    "x86_64-smp4": dict(arch="x86_64", boot="kernel", smp=4),
}


def launcher_args(target, append="", icount=False, cpu=None, extra_qemu=(), smp=1):
    t = TARGETS.get(target) or SMP_VARIANTS.get(target) or EXTRA_TARGETS[target]
    if smp == 1:
        smp = t.get("smp", 1)
    args = ["--console", "raw", "--no-reboot", "--arch", t["arch"]]
    if t.get("usb"):
        args += ["--usb"]
    if "image" in t:
        args += ["--image", os.path.join(ROOT, t["image"])]
    if "endian" in t:
        args += ["--endian", t["endian"]]
    if "boot" in t:
        args += ["--boot", t["boot"]]
    if "firmware" in t:
        args += ["--firmware", t["firmware"]]
    if append:
        args += ["--append", append]
    if icount:
        args += ["--icount"]
    if cpu:
        args += ["--cpu", cpu]
    if smp != 1:
        args += ["--smp", str(smp)]
    if extra_qemu:
        args += ["--"] + list(extra_qemu)
    return args


class ConsoleError(Exception):
    pass


class InvariantError(AssertionError):
    pass


# One count line of hwperf read, stat and prof: NAME count=C enabled=E running=R
COUNT_LINE = re.compile(r"^(\S+) count=(\d+) enabled=(\d+) running=(\d+)", re.M)
GEN_LINE = re.compile(r"^ok gen=(\d+)", re.M)
# The reads whose counts belong to one place over time: a task's set, the
# system block, one CPU's block.  stat and prof runs are one-shot.
READ_CMD = re.compile(r"^(?:as \d+ )?hwperf (?:read(?: -r)? (\S+)|sys read(?: --cpu (\d+))?)\s*$")


def check_counts(text, previous=None):
    """The invariants every read must satisfy (kernel/hwperf/invariant.c
    checks the same inside the kernel): running <= enabled; the software
    PMU's cycles, which count the cycle counter itself, <= running; and,
    given the previous read of the same place in the same generation
    (name -> count), no count below it.  Returns name -> count; raises
    InvariantError naming the line that breaks one."""
    counts = {}
    for m in COUNT_LINE.finditer(text):
        name, count, enabled, running = m.group(1), *map(int, m.groups()[1:])
        if running > enabled:
            raise InvariantError("running > enabled: %s" % m.group(0))
        if re.match(r"cycles(:|$)", name) and count > running:
            raise InvariantError("a cycle count above the time it ran: %s" % m.group(0))
        if previous is not None and name in previous and count < previous[name]:
            raise InvariantError("count went backwards from %d: %s" % (previous[name], m.group(0)))
        counts[name] = count
    return counts


class ReadChecker:
    """Applies check_counts to every command a Console runs, remembering
    each read place's last counts per generation."""

    def __init__(self, target):
        self.target = target
        self.last = {}

    # Commands that may start tasks: a pid read before may be a new task.
    NEW_TASKS = re.compile(r"\b(spawn|stat|prof|bench|selftest)\b")

    def check(self, line, out):
        if self.NEW_TASKS.search(line):
            self.last.clear()
        m = READ_CMD.match(line.strip())
        g = GEN_LINE.search(out)
        key = None
        if m and g:
            key = (m.group(1), m.group(2), int(g.group(1)))
        try:
            counts = check_counts(out, self.last.get(key))
        except InvariantError as e:
            raise InvariantError("%s: `%s`: %s" % (self.target, line, e)) from None
        if key is not None:
            self.last[key] = counts


# Set (to the reason) while the shared consoles come from labgrid
# (lab_console.py): a test that wants a QEMU of its own, with boot arguments,
# -icount or another CPU model, cannot have one on a board, so it skips.
private_boots_refused = None


class Console:
    def __init__(self, target, append="", icount=False, cpu=None, extra_qemu=(),
                 wait=True, logfile=None, smp=1):
        if private_boots_refused:
            import pytest
            pytest.skip(private_boots_refused)
        self.target = target
        self.args = launcher_args(target, append, icount, cpu, extra_qemu, smp)
        self.started = time.monotonic()
        self.proc = pexpect.spawn(os.path.join(ROOT, "scripts", "qemu-run"),
                                  self.args, cwd=ROOT, timeout=CMD_TIMEOUT,
                                  maxread=65536, logfile=logfile)
        self.boot_log = b""
        self.boot_seconds = None
        self.reads = ReadChecker(target)
        if wait:
            self.wait_boot()

    # -- boot -------------------------------------------------------------
    def wait_boot(self, timeout=BOOT_TIMEOUT):
        try:
            self.proc.expect(PROMPT, timeout=timeout)
        except (pexpect.TIMEOUT, pexpect.EOF) as e:
            raise ConsoleError("%s: no prompt after %.0fs; output:\n%s" % (
                self.target, timeout, self._text(self.proc.before))) from e
        self.boot_seconds = time.monotonic() - self.started
        self.boot_log = self.proc.before
        return self.text(self.boot_log)

    # -- commands -----------------------------------------------------------
    def send(self, data):
        if isinstance(data, str):
            data = data.encode()
        if len(data) <= SEND_PIECE:
            self._write_all(data)
            return
        # Only our own pty is made non-blocking; labgrid's socket has
        # buffers far larger than any paste the tests send.
        pty = type(self.proc) is pexpect.spawn
        saved, self.proc.delaybeforesend = self.proc.delaybeforesend, None
        if pty:
            os.set_blocking(self.proc.child_fd, False)
        try:
            for at in range(0, len(data), SEND_PIECE):
                self._write_all(data[at:at + SEND_PIECE])
                self._take_output(0)
        finally:
            if pty:
                os.set_blocking(self.proc.child_fd, True)
            self.proc.delaybeforesend = saved

    def _write_all(self, data):
        deadline = time.monotonic() + CMD_TIMEOUT
        while data:
            try:
                n = self.proc.send(data)    # a socket may take part of it
            except BlockingIOError:
                n = 0
            data = data[n:]
            if data:
                if time.monotonic() > deadline:
                    raise ConsoleError("%s: the guest took no input for %.0fs" % (
                        self.target, CMD_TIMEOUT))
                self._take_output(0.01)

    def _take_output(self, wait):
        """Read what the guest has printed into pexpect's buffer, waiting at
        most `wait` seconds; later expects still see all of it."""
        try:
            self.proc.expect([pexpect.TIMEOUT], timeout=wait)
        except pexpect.EOF:
            pass        # QEMU left; the caller's next expect reports it

    def run(self, line, timeout=CMD_TIMEOUT):
        """Type one command line; return its output (echo removed) as text."""
        self.send(line + "\r")
        try:
            self.proc.expect(PROMPT, timeout=timeout)
        except (pexpect.TIMEOUT, pexpect.EOF) as e:
            raise ConsoleError("%s: `%s` did not return to the prompt; output:\n%s" % (
                self.target, line, self._text(self.proc.before))) from e
        out = self.text(self.proc.before)
        # The first line is the editor's echo of what we typed.
        first, _, rest = out.partition("\n")
        self.reads.check(line, rest)
        return rest

    def expect(self, pattern, timeout=CMD_TIMEOUT):
        if isinstance(pattern, str):
            pattern = pattern.encode()
        try:
            self.proc.expect(pattern, timeout=timeout)
        except (pexpect.TIMEOUT, pexpect.EOF) as e:
            raise ConsoleError("%s: %r not seen; output:\n%s" % (
                self.target, pattern, self._text(self.proc.before))) from e
        return self.text(self.proc.before)

    def sync(self, timeout=CMD_TIMEOUT):
        """Get back in step after unknown output: cancel any half-typed line,
        run a uniquely numbered echo and skip everything before its result."""
        self._sync_n = getattr(self, "_sync_n", 0) + 1
        mark = "__sync%d__" % self._sync_n
        self.send("\x03echo %s\r" % mark)
        self.expect(r"\n%s\r*\n" % mark, timeout=timeout)
        self.expect(PROMPT, timeout=timeout)

    def wait_exit(self, timeout=CMD_TIMEOUT):
        """Wait for QEMU to leave; return (launcher status, remaining output)."""
        try:
            self.proc.expect(pexpect.EOF, timeout=timeout)
        except pexpect.TIMEOUT as e:
            raise ConsoleError("%s: QEMU did not exit; output:\n%s" % (
                self.target, self._text(self.proc.before))) from e
        out = self.text(self.proc.before)
        self.proc.close()
        return self.proc.exitstatus, out

    def alive(self):
        return self.proc.isalive()

    def close(self):
        if self.proc.isalive():
            self.proc.terminate(force=True)
        self.proc.close()

    # -- helpers --------------------------------------------------------------
    @staticmethod
    def text(b):
        return b.decode("latin-1").replace("\r\n", "\n").replace("\r", "")

    def _text(self, b):
        return self.text(b if isinstance(b, bytes) else b"")


def spawn_pid(console, args):
    """`spawn ARGS` on console; the new task's pid."""
    out = console.run("spawn " + args)
    m = re.match(r"pid (\d+)", out)
    assert m, out
    return int(m.group(1))


def kill_and_reap(console, *pids):
    for pid in pids:
        console.run("kill -KILL %d" % pid)
        console.run("wait %d" % pid, timeout=30)


def kv(output):
    """Parse `key: value` lines into a dict."""
    d = {}
    for line in output.splitlines():
        m = re.match(r"^([A-Za-z0-9_]+): (.*)$", line)
        if m:
            d[m.group(1)] = m.group(2)
    return d


def fields(out, prefix):
    """key=value pairs of the line that starts with prefix, as strings: the
    shape of every report line a user program prints."""
    m = re.search(r"^%s (\w+=.*)$" % re.escape(prefix), out, re.M)
    assert m, "no `%s` line in:\n%s" % (prefix, out)
    return dict(f.split("=", 1) for f in m.group(1).split())


def ints(d):
    """The integer-valued fields of d, as ints."""
    return {k: int(v) for k, v in d.items() if re.fullmatch(r"-?\d+", v)}


# The benchmark framework's summary lines (kernel/bench/run.c), shared by
# every test that reads a `bench` or `selftest` run.
SUMMARY = re.compile(r"^SUMMARY: (\d+) tests, (\d+) failures, (\d+) skipped$", re.M)
CLOSING = re.compile(r"^(\d+) passed, (\d+) failed, (\d+) skipped$", re.M)
