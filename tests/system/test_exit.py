"""Leaving QEMU: poweroff statuses, panics, reported by the launcher."""
import pytest

from tally_console import Console


def test_poweroff_exits_zero(target):
    c = Console(target)
    c.send("poweroff\r")
    status, out = c.wait_exit()
    assert "poweroff: status 0" in out
    assert status == 0


@pytest.mark.kernel_only
def test_poweroff_status_is_reported_faithfully(target):
    for code in (1, 7, 111):
        c = Console(target)
        c.send("poweroff %d\r" % code)
        status, _ = c.wait_exit()
        assert status == code


@pytest.mark.kernel_only
def test_poweroff_bad_status_changes_nothing(console):
    assert "error: usage: poweroff" in console.run("poweroff 112")
    assert "error: usage: poweroff" in console.run("poweroff x")
    assert console.run("echo alive") == "alive\n"


@pytest.mark.kernel_only
def test_crash_unknown_kind(console):
    assert "error: crash: unknown kind 'nope'" in console.run("crash nope")
    assert console.run("echo alive") == "alive\n"


def _crash_kinds(target):
    return ["ud", "pf", "de", "gp"] if target == "x86_64" else ["ade", "tlbl", "ri", "bp"]


@pytest.mark.kernel_only
def test_kernel_exceptions_dump_and_panic(target):
    """Every CPU exception in the kernel prints a register dump and panics."""
    for kind in _crash_kinds(target):
        c = Console(target, append="onpanic=exit")
        c.send("crash %s\r" % kind)
        status, out = c.wait_exit()
        assert "panic:" in out, (kind, out)
        if target == "x86_64":
            assert "RIP" in out and "CR2" in out, out
        else:
            assert "EPC" in out and "BadVAddr" in out and "Cause" in out, out
        assert status == 3, (kind, status, out)


@pytest.mark.kernel_only
def test_panic_halts_by_default(target):
    c = Console(target)
    c.send("crash panic\r")
    c.expect("panic: requested from the console")
    c.expect("system halted")
    assert c.alive()
    c.close()


@pytest.mark.kernel_only
def test_reboot_resets_the_machine(target):
    """QEMU runs with -no-reboot in tests, so a reset ends it."""
    c = Console(target)
    c.send("reboot\r")
    status, out = c.wait_exit()
    assert "reboot" in out
    assert status == 0
