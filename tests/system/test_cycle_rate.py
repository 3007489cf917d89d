"""The cycle counter's rate: boot's `cycle counter: N Hz ± E (source)` line,
the same in `info`, and the boot argument cyclehz=N (exact rates under
icount are checked in test_bench_cost.py, on its icount boot)."""
import re

import pytest

from tally_console import Console

RATE_LINE = re.compile(r"^cycle counter: (\d+) Hz \u00c2?\u00b1 (\d+) \((.+)\)$", re.M)


def test_boot_and_info_print_rate_and_bound(console):
    boot = RATE_LINE.search(console.text(console.boot_log))
    info = RATE_LINE.search(console.run("info"))
    assert boot and info
    assert boot.groups() == info.groups()
    hz, err = int(boot.group(1)), int(boot.group(2))
    assert hz > 1_000_000 and 0 < err < hz // 100


@pytest.mark.kernel_only
def test_cyclehz_gives_the_rate_outright(target):
    if target != "x86_64" and target != "mips":
        pytest.skip("one boot per arch")
    c = Console(target, append="cyclehz=2500000000")
    try:
        m = RATE_LINE.search(c.text(c.boot_log))
        assert m and m.groups() == ("2500000000", "0", "cyclehz"), c.text(c.boot_log)
        assert "cycles_hz: 2500000000" in c.run("info")
    finally:
        c.close()


@pytest.mark.kernel_only
def test_cyclehz_junk_is_an_error_that_changes_nothing(target):
    if target != "x86_64":
        pytest.skip("one boot suffices: the parsing is portable")
    c = Console(target, append="cyclehz=12abc")
    try:
        log = c.text(c.boot_log)
        assert re.search(r"^warning: boot argument cyclehz=12abc is not a number", log, re.M), log
        assert "cyclehz: ignored, measuring the rate instead" in log
        m = RATE_LINE.search(log)
        assert m and m.group(3) == "i8254", log
    finally:
        c.close()
