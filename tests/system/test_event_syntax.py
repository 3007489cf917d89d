"""Event syntax (issue 15 item 2): libpfm4 EVENT:UMASK names and perf's
cpu/event=..,umask=../ terms.  QEMU's PMU does not count, so the active
PMU here is the software one, which has neither unit masks nor event
selects: the forms must be refused there with the part named, while a
model's table (`events --model intel-arch`) lists and places them.
"""
import re

import pytest

pytestmark = pytest.mark.kernel_only


@pytest.fixture
def soft(console):
    if "pmu=soft" not in console.run("events"):
        pytest.skip("the active PMU is not the software PMU")
    return console


def test_intel_model_lists_unit_masks(console):
    out = console.run("events --model intel-arch")
    assert re.search(r"^umask inst-retired:any-p bits=0x0 ", out, re.M), out
    assert re.search(r"^umask longest-lat-cache:miss bits=0x41 ", out, re.M)
    assert re.search(r"^umask cpu-clk-unhalted:ref-xclk bits=0x1 ", out, re.M)


def test_intel_model_places_libpfm_names(console):
    out = console.run("events --model intel-arch INST_RETIRED:ANY_P "
                      "LONGEST_LAT_CACHE:MISS")
    assert re.search(r"^assign 0 INST_RETIRED:ANY_P hw=\d code=0xc0 "
                     r"name=inst-retired$", out, re.M), out
    assert re.search(r"^assign 1 LONGEST_LAT_CACHE:MISS hw=\d code=0x412e ",
                     out, re.M), out


def test_soft_pmu_refuses_with_the_part_named(soft):
    out = soft.run("stat -e INST_RETIRED:ANY_P hello")
    assert out.startswith("err EINVAL: unknown event 'INST_RETIRED' (pmu "
                          "soft); soft has: cycles"), out
    out = soft.run("stat -e cpu/event=0xc0,umask=0x0/ hello")
    assert out.startswith("err EINVAL: event= of cpu/../: pmu soft has no "
                          "event-select numbers"), out
    out = soft.run("hwperf parse cycles:c=1")
    assert "cmask= of cycles: pmu soft has no counter mask" in out, out


def test_soft_pmu_keeps_the_old_forms(soft):
    out = soft.run("hwperf parse soft::cycles:uk,syscalls")
    assert "@0=cycles:uk" in out and "syscalls:u" in out, out
