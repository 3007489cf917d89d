"""A system call's cut charges the TLB refills a task took since the last
cut, before the call reads anything (MIPS; x86_64 refills in hardware and
counts none).

Malta's fast system call asks one per-CPU word whether any refill came
since the word was cleared (arch/mips/pcpu.h `syscall_slow`, set by the refill
handler in arch/mips/tlbrefill.S), instead of comparing both refill
counters with the clock's.  `tlbcycle N self` takes N refills in a loop
with no system call and, being short, no tick in it, then reads its own
rusage: the refills are in that reading only if the getrusage call's own
cut charged them, which it does only if the handler set the word.
"""
import re

import pytest

pytestmark = pytest.mark.kernel_only

STORES = 640                # user/tlbcycle.c: one refill per store, at least
SPAWN_TIMEOUT = 120


def test_a_system_call_charges_the_refills_before_it(console, target):
    if target.startswith("x86_64"):
        pytest.skip("x86_64 refills its TLB in hardware: no refills to charge")
    out = console.run("spawn --wait tlbcycle %d self" % STORES, timeout=SPAWN_TIMEOUT)
    assert re.search(r"^exit 0$", out, re.M), out
    m = re.search(r"^tlbcycle self tlb_user=(\d+)$", out, re.M)
    assert m, out
    assert int(m.group(1)) >= STORES, out


def test_refills_are_charged_while_user_cycles_are_held(console, target):
    """The same under `stat -e cycles:u`: while the cycles alone are
    counted, Malta's calls take the held way (arch/mips/pcpu.h
    PCPU_SLOW_HELD: the span held for the soft PMU, the cut otherwise the
    short one's), and a refill's hint still sends the next call the slow
    way, which charges the refills; and the cycles were counted."""
    if target.startswith("x86_64"):
        pytest.skip("x86_64 refills its TLB in hardware: no refills to charge")
    out = console.run("stat -e cycles:u tlbcycle %d self" % STORES, timeout=SPAWN_TIMEOUT)
    m = re.search(r"^tlbcycle self tlb_user=(\d+)$", out, re.M)
    assert m, out
    assert int(m.group(1)) >= STORES, out
    assert re.search(r"^\s*[\d,]+\s+cycles:u\b", out, re.M), out
