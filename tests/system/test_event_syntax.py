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


# ---- the Skylake-era model: a table without its hardware -------------------

def test_skylake_model_lists_unit_masks(console):
    out = console.run("events --model skylake")
    # The architectural events first, then the model's own (table skl).
    assert re.search(r"^event inst-retired code=0xc0 counters=0xf ", out,
                     re.M), out
    assert re.search(r"^event mem-load-retired code=0xd1 counters=0xf ",
                     out, re.M), out
    assert re.search(r"^event cycle-activity\.stalls-total code=0x40004a3 "
                     r"counters=0xf ", out, re.M), out
    for um in (r"inst-retired:any-p bits=0x0", r"mem-load-retired:l1-miss "
               r"bits=0x8", r"mem-inst-retired:all-loads bits=0x81",
               r"br-inst-retired:near-taken bits=0x20",
               r"l2-rqsts:miss bits=0x3f"):
        assert re.search(r"^umask " + um + " ", out, re.M), (um, out)
    assert "skylake" in console.run("events --models")


def test_skylake_model_resolves_libpfm_and_perf_forms(console):
    out = console.run("events --model skylake --resolve "
                      "INST_RETIRED:ANY_P,MEM_LOAD_RETIRED:L1_MISS:k,"
                      "cpu/event=0xc0,umask=0x0/")
    lines = out.splitlines()
    assert lines[0] == "ok 3", out
    assert re.search(r"^resolve 0 inst-retired code=0xc0 counters=0xf "
                     r"modes=u$", out, re.M), out
    assert re.search(r"^resolve 1 mem-load-retired code=0x8d1 counters=0xf "
                     r"modes=k$", out, re.M), out
    assert re.search(r"^resolve 2 raw code=0xc0 counters=0xf modes=u$", out,
                     re.M), out
    out = console.run("events --model skylake --resolve "
                      "cpu/event=0x3c,umask=0x0,cmask=1,inv,edge/")
    assert re.search(r"^resolve 0 raw code=0x184003c ", out, re.M), out


def test_skylake_model_refuses_naming_the_part(console):
    out = console.run("events --model skylake --resolve MEM_LOAD_RETIRED")
    assert out.startswith("err EINVAL: event MEM_LOAD_RETIRED needs a unit "
                          "mask; it has: l1-hit, l2-hit"), out
    out = console.run("events --model skylake --resolve INST_RETIRED:ANY_Q")
    assert out.startswith("err EINVAL: unit mask 'ANY_Q' of INST_RETIRED: "
                          "unknown; INST_RETIRED has: any-p"), out
    out = console.run("events --model skylake --resolve cpu/event=0x1c0/")
    assert out.startswith("err EINVAL: ") and "event=0x1c0" in out, out


def test_amd_fam19h_model_encodes_high_event_selects(console):
    out = console.run("events --model amd-fam19h --resolve "
                      "IC_TAG_HIT_MISS:IC_MISS,ls-dispatch:ld-dispatch")
    assert re.search(r"^resolve 0 ic-tag-hit-miss code=0x1188e ", out,
                     re.M), out
    assert re.search(r"^resolve 1 ls-dispatch code=0x129 ", out, re.M), out


def test_soft_pmu_refuses_skylake_names_in_stat(soft):
    out = soft.run("stat -e INST_RETIRED:ANY_P sys 10")
    assert out.startswith("err EINVAL: unknown event 'INST_RETIRED' (pmu "
                          "soft); soft has: cycles"), out
    out = soft.run("stat -e MEM_LOAD_RETIRED:L1_MISS sys 10")
    assert out.startswith("err EINVAL: unknown event 'MEM_LOAD_RETIRED' "
                          "(pmu soft); soft has: cycles"), out
    out = soft.run("stat -e cpu/event=0xc0,umask=0x0/ sys 10")
    assert out.startswith("err EINVAL: event= of cpu/../: pmu soft has no "
                          "event-select numbers"), out


def test_skylake_client_cpu_gets_no_counting_pmu(target, boot):
    """QEMU's Skylake-Client has the model number of a Skylake (06_5EH) but
    CPUID.0AH version 0: the intel-arch driver, which would add the skl
    table, is not present, so the active PMU stays the software one and
    the Skylake names are refused there; the model is still resolvable."""
    if target != "x86_64":
        pytest.skip("an x86 CPU model")
    c = boot(cpu="Skylake-Client")
    info = c.run("info")
    assert re.search(r"pmu: intel-arch v0: not present \(CPUID\.0AH "
                     r"version 0\)", info), info
    assert "pmu=soft" in c.run("events")
    out = c.run("events INST_RETIRED:ANY_P")
    assert out.startswith("error: dispatch NOTFOUND: no event "
                          "'INST_RETIRED' here"), out
    out = c.run("events --model skylake --resolve INST_RETIRED:ANY_P")
    assert re.search(r"^resolve 0 inst-retired code=0xc0 ", out, re.M), out
