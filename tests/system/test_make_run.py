"""`make run`, the README's boot command, as a person types it."""
import os

import pexpect
import pytest

from tally_console import ROOT, PROMPT, BOOT_TIMEOUT


def _make_run(args):
    p = pexpect.spawn("make", ["-s", "run"] + args, cwd=ROOT, timeout=BOOT_TIMEOUT)
    p.expect(PROMPT)
    return p


@pytest.mark.parametrize("args", [[], ["ARCH=mips"], ["ARCH=mips", "ENDIAN=big"],
                                  ["ICOUNT=1", "APPEND=hz=250"]],
                         ids=["x86_64", "mips", "mipsbe", "x86_64-icount"])
def test_make_run_boots_and_poweroff_exits_zero(args):
    p = _make_run(args)
    p.sendline("info")
    p.expect(PROMPT)
    info = p.before.decode("latin-1")
    if "ICOUNT=1" in args:
        assert "hz: 250" in info
    p.send("poweroff\r")
    p.expect(pexpect.EOF)
    p.close()
    assert p.exitstatus == 0


def test_make_run_ctrl_c_goes_to_guest():
    """In the interactive console Ctrl-C cancels the line; it does not kill QEMU."""
    p = _make_run([])
    p.send("echo half\x03")
    p.expect(r"\^C")
    p.expect(PROMPT)
    p.send("poweroff\r")
    p.expect(pexpect.EOF)
    p.close()
    assert p.exitstatus == 0


def test_make_run_reports_guest_failure():
    p = _make_run([])
    p.send("poweroff 7\r")
    p.expect(pexpect.EOF)
    out = p.before.decode("latin-1")
    p.close()
    # make itself can only exit 0 or 2; it names the guest's status.
    assert p.exitstatus == 2
    assert "Error 7" in out


def test_make_run_iso_takes_append():
    p = _make_run(["BOOT=iso", "APPEND=hz=200"])
    p.sendline("info")
    p.expect(PROMPT)
    info = p.before.decode("latin-1")
    assert "hz: 200" in info and "loader: multiboot2" in info
    p.send("poweroff\r")
    p.expect(pexpect.EOF)
    p.close()
    assert p.exitstatus == 0
    # Leave the ISO as `make test` built it, without arguments.
    assert os.system("cd %s && make -s iso >/dev/null" % ROOT) == 0
