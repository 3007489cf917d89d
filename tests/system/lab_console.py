"""A Tally console reached through labgrid instead of scripts/qemu-run.

The system tests talk to a Console (tally_console.py); this one gets its
bytes from a labgrid target's ConsoleProtocol driver and its power from the
target's PowerProtocol driver, so the same tests run on QEMU through
labgrid's QEMUDriver (tests/labgrid/qemu.yaml) or on a board on a serial
line behind a power switch (tests/labgrid/malta-board.yaml, pc-serial.yaml).

    pytest tests/system/test_console.py --lg-env tests/labgrid/qemu.yaml

The environment's target names are the system tests' target names
(x86_64, mips, mipsbe): they tell the tests which machine they talk to.
"""
import time

from labgrid.util import PtxExpect

from tally_console import BOOT_TIMEOUT, CMD_TIMEOUT, Console, ConsoleError, ReadChecker


class LabConsole(Console):
    """One boot of a labgrid target: power-cycled on creation, so every
    LabConsole starts from a fresh boot as a qemu-run Console does."""

    def __init__(self, env, target, wait=True, logfile=None):
        # Not Console.__init__: that starts QEMU through qemu-run.
        self.target = target
        self.lg_target = env.get_target(target)
        if self.lg_target is None:
            raise ConsoleError("labgrid environment %s has no target '%s'" % (
                env.config_file, target))
        self.power = self.lg_target.get_driver("PowerProtocol")
        self.port = self.lg_target.get_driver("ConsoleProtocol")
        self.started = time.monotonic()
        # QEMUDriver starts the emulator at on(); a board's power driver
        # switches it off and on, which is the reset a test run wants.
        self.power.cycle()
        # A pexpect object over the labgrid port: Console's expect, send
        # and before work on it unchanged.
        self.proc = PtxExpect(self.port)
        self.proc.timeout = CMD_TIMEOUT
        self.proc.logfile = logfile
        self.boot_log = b""
        self.boot_seconds = None
        self.reads = ReadChecker(target)
        if wait:
            self.wait_boot(timeout=BOOT_TIMEOUT)

    def _qemu(self):
        """The emulator process when the target is labgrid's QEMUDriver."""
        return getattr(self.power, "_child", None)

    def alive(self):
        child = self._qemu()
        if child is not None:
            return child.poll() is None
        # A board cannot be asked; a wedged one fails its next sync, and
        # the fixture then closes it, which powers it off.
        return self.power is not None

    def wait_exit(self, timeout=CMD_TIMEOUT):
        raise ConsoleError("%s: a labgrid target has no exit status to wait for" % self.target)

    def close(self):
        if self.power is None:
            return
        child = self._qemu()
        if child is not None and child.poll() is not None:
            # QEMU already left (poweroff, crash): nothing for QMP to quit.
            self.power.status = 0
            self.power._child = None
        try:
            self.power.off()
        finally:
            self.lg_target.deactivate(self.port)
            self.power = None
