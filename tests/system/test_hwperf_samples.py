"""Sample records (issue 15 item 3): `prof -r N` keeps one record per
profile hit (pid, cpu, cycle counter, PC, event, user call chain) in a
ring of N, prints them after the histogram with the kept and dropped
counts and the program's symbols, and scripts/tally-folded turns them into
folded stacks.

user/fpchain.c is the known profile: main -> chain_a -> chain_b -> chain_c
-> hot_leaf does nearly all the work, built with frame pointers.  cycles:u
counts in QEMU (the software PMU's cycles are the cycle counter while the
task is in user mode), so these run wherever the kernel does.
"""
import json
import os
import re
import subprocess
import sys
import time

import pytest

from tally_console import ROOT

pytestmark = pytest.mark.kernel_only

RUN_TIMEOUT = 180
FOLDED = os.path.join(ROOT, "scripts", "tally-folded")
HOT_STACK = "_start;main;chain_a;chain_b;chain_c;hot_leaf"
RING_MAX = 2048
# Per architecture: a threshold and a run length that give some hundreds
# of hits (the cycle counter runs much slower on Malta than on the PC).
WORK = {"x86_64": ("cycles:u:thresh=1000000", 8000),
        "mips": ("cycles:u:thresh=50000", 30000),
        "mipsbe": ("cycles:u:thresh=50000", 30000)}
HITS = re.compile(r"^prof hits=(\d+) ", re.M)
SAMPLES = re.compile(r"^samples kept=(\d+) dropped=(\d+) capacity=(\d+) depth_max=(\d+)$", re.M)
SAMPLE = re.compile(r"^sample pid=(\d+) cpu=(\d+) cycles=(\d+) vctr=(\d+) event=(\S+) "
                    r"pc=(0x[0-9a-f]+) chain=(\S+)$", re.M)


@pytest.fixture
def c(console):
    if "unknown command" in console.run("help prof"):
        pytest.skip("no `prof` in this kernel")
    return console


def prof(c, target, ring, json_out=False):
    spec, n = WORK[target]
    out = c.run("prof -e %s -r %d%s fpchain %d" % (spec, ring, " --json" if json_out else "", n),
                timeout=RUN_TIMEOUT)
    assert re.search(r"^exit 0$", out, re.M), out
    return out


def folded(tmp_path, text, *args):
    capture = tmp_path / "capture.txt"
    capture.write_text(text)
    r = subprocess.run([sys.executable, FOLDED, str(capture)] + list(args),
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return [l.rsplit(" ", 1) for l in r.stdout.splitlines()]


def test_records_fold_with_the_hot_chain_first(c, target, tmp_path):
    out = prof(c, target, RING_MAX)
    hits = int(HITS.search(out).group(1))
    kept, dropped, cap, depth = (int(x) for x in SAMPLES.search(out).groups())
    assert 20 <= hits <= RING_MAX, "run length does not suit this machine: %d hits" % hits
    # One record per hit the histogram counted; none dropped in a big ring.
    assert (kept, dropped, cap) == (hits, 0, RING_MAX)
    recs = SAMPLE.findall(out)
    assert len(recs) == kept
    cycles = [int(r[2]) for r in recs]
    assert cycles == sorted(cycles), "records out of order"
    assert all(r[4] == "cycles:u" and r[3] == "0" for r in recs)
    assert len({r[0] for r in recs}) == 1      # the one program's pid
    stacks = folded(tmp_path, out)
    top, count = stacks[0]
    assert top == HOT_STACK, stacks[:3]
    assert int(count) * 2 > kept, stacks[:3]
    assert sum(int(n) for _, n in stacks) == kept
    # Every hit in hot_leaf walked its whole chain.  (cold_leaf's share
    # is not checked: software cycles are sampled at the next kernel
    # entry, so a phase shorter than a tick may land on the next call.)
    assert all(s == HOT_STACK for s, _ in stacks if s.endswith(";hot_leaf")), stacks


def test_json_records_say_the_same(c, target, tmp_path):
    out = prof(c, target, RING_MAX, json_out=True)
    start = out.index('{"program":')
    end = out.index("]}", start) + 2
    doc = json.loads(out[start:end])
    hits = int(HITS.search(out).group(1))
    assert doc["program"] == "fpchain"
    assert (doc["kept"], doc["dropped"], doc["capacity"]) == (hits, 0, RING_MAX)
    assert len(doc["records"]) == hits
    r = doc["records"][0]
    assert set(r) == {"pid", "cpu", "cycles", "vctr", "event", "pc", "chain", "truncated"}
    assert r["event"] == "cycles:u" and not r["truncated"]
    assert any(s["name"] == "hot_leaf" for s in doc["syms"])
    stacks = folded(tmp_path, out)
    assert stacks[0][0] == HOT_STACK
    assert sum(int(n) for _, n in stacks) == hits


def test_ring_is_bounded_and_counts_drops(c, target, tmp_path):
    ring = 8
    out = prof(c, target, ring)
    hits = int(HITS.search(out).group(1))
    kept, dropped, cap, _ = (int(x) for x in SAMPLES.search(out).groups())
    assert hits > ring
    assert (kept, cap) == (ring, ring)
    assert dropped == hits - ring
    assert len(SAMPLE.findall(out)) == ring
    # What was kept still folds.
    assert sum(int(n) for _, n in folded(tmp_path, out)) == ring


def test_bad_record_options(c):
    for line in ("prof -r 0 fpchain 1", "prof -r %d fpchain 1" % (RING_MAX + 1),
                 "prof --json fpchain 1", "prof -r fpchain 1"):
        out = c.run(line)
        assert out.startswith("err EINVAL"), (line, out)


def test_hwperf_profile_records_from_the_console(c, target, tmp_path):
    spec, n = WORK[target]
    out = c.run("spawn fpchain %d" % (n * 100))      # runs far longer than the test
    pid = int(re.search(r"^pid (\d+)$", out, re.M).group(1))
    try:
        assert re.match(r"^ok gen=\d+$", c.run("hwperf profile -r 16 %d %s" % (pid, spec)))
        time.sleep(2)           # the console sleeps on input: fpchain runs
        out = c.run("hwperf samples")
        assert out.startswith("ok 0"), out
        kept, dropped, cap, _ = (int(x) for x in SAMPLES.search(out).groups())
        recs = SAMPLE.findall(out)
        assert cap == 16 and 0 < kept <= 16 and len(recs) == kept
        assert all(int(r[0]) == pid for r in recs)
        stacks = folded(tmp_path, out)
        assert stacks[0][0] == HOT_STACK, stacks
        # Arming again takes the ring back; a refusal leaves none armed.
        err = c.run("hwperf profile -r 0 %d %s" % (pid, spec))
        assert err.startswith("err EINVAL"), err
        assert c.run("hwperf profile -r 8 30000 %s" % spec).startswith("err ESRCH")
        assert "samples none" in c.run("hwperf samples --json")
    finally:
        # Reaped too: a zombie keeps its profile buffers until waited for.
        c.run("kill -KILL %d" % pid)
        c.run("wait %d" % pid)
