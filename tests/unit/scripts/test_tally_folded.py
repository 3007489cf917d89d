"""Host tests of scripts/tally-folded: sample records (docs/hwperf.md, "Sample
records") to folded stacks, on made-up input whose answer is known and on
records captured from `prof -r` in QEMU (tests/unit/scripts/data; the live
capture-and-fold runs in tests/system/test_hwperf_samples.py)."""

import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[2]
SCRIPT = ROOT / "scripts" / "tally-folded"
CAPTURE = HERE / "data" / "prof_fpchain_x86_64.txt"

LINES = """\
ok gen=1
fpchain n=1 r=2
prof hits=4 buckets=8 bucket_bytes=4 base=0x400000
samples kept=4 dropped=0 capacity=16 depth_max=12
sample pid=3 cpu=0 cycles=10 vctr=0 event=cycles:u pc=0x400054 chain=0x400104,0x400204
sample pid=3 cpu=0 cycles=11 vctr=0 event=cycles:u pc=0x400058 chain=0x400104,0x400204
sample pid=3 cpu=0 cycles=12 vctr=0 event=cycles:u pc=0x400300 chain=-
sample pid=3 cpu=0 cycles=13 vctr=0 event=cycles:u pc=0x400054 chain=0x400104,...
sym 0x400000 _start
sym 0x400050 leaf
sym 0x400100 mid
sym 0x400200 main
exit 0
"""

JSON = """\
junk before
{"program":"x","kept":3,"dropped":5,"capacity":3,"depth_max":12,"records":[
{"pid":3,"cpu":0,"cycles":1,"vctr":0,"event":"cycles:u","pc":"0x400054","chain":["0x400104","0x400204"],"truncated":false},
{"pid":3,"cpu":0,"cycles":2,"vctr":0,"event":"cycles:u","pc":"0x400054","chain":["0x400104","0x400204"],"truncated":false},
{"pid":3,"cpu":0,"cycles":3,"vctr":0,"event":"cycles:u","pc":"0x400999","chain":["0x400204"],"truncated":false}
],"syms":[
{"addr":"0x400050","name":"leaf"},
{"addr":"0x400100","name":"mid"},
{"addr":"0x400200","name":"main"}
]}
exit 0
"""


def run(text=None, *args, path=None):
    cmd = [sys.executable, str(SCRIPT)] + ([str(path)] if path else []) + list(args)
    r = subprocess.run(cmd, input=text, capture_output=True, text=True, timeout=60)
    return r.returncode, r.stdout.splitlines(), r.stderr


def test_line_records_fold_hottest_first():
    rc, out, _ = run(LINES)
    assert rc == 0
    assert out == ["main;mid;leaf 2", "[truncated];mid;leaf 1", "main 1"]


def test_json_records_fold_the_same_way():
    rc, out, _ = run(JSON)
    assert rc == 0
    assert out == ["main;mid;leaf 2", "main;main 1"]


def test_return_address_is_looked_up_one_byte_back():
    # A call as the last instruction of mid returns to the first byte of
    # the next function: it still belongs to mid.
    text = "sample pid=1 cpu=0 cycles=1 vctr=0 event=e pc=0x400054 chain=0x400200\n" \
           "sym 0x400050 leaf\nsym 0x400100 mid\nsym 0x400200 main\n"
    assert run(text)[1] == ["mid;leaf 1"]


def test_addresses_without_symbols_and_addrs_option(tmp_path):
    text = "sample pid=1 cpu=0 cycles=1 vctr=0 event=e pc=0x400054 chain=0x400104\n"
    assert run(text)[1] == ["0x400104;0x400054 1"]
    syms = tmp_path / "prog.syms"
    syms.write_text("0000000000400050 leaf\n0000000000400100 T mid\n")
    assert run(text, "--syms", str(syms))[1] == ["mid;leaf 1"]
    assert run(text, "--syms", str(syms), "--addrs")[1] == ["0x400104;0x400054 1"]


def test_no_records_is_an_error():
    rc, out, err = run("ok gen=1\nexit 0\n")
    assert rc == 1 and out == [] and "no sample records" in err
    rc, _, err = run('{"program":"x","records":[\n')
    assert rc == 2 and "never end" in err


def test_records_captured_from_qemu():
    rc, out, _ = run(path=CAPTURE)
    assert rc == 0
    stack, count = out[0].rsplit(" ", 1)
    assert stack == "_start;main;chain_a;chain_b;chain_c;hot_leaf"
    kept = int(next(l for l in CAPTURE.read_text().splitlines()
                    if l.startswith("samples ")).split()[1].split("=")[1])
    assert sum(int(l.rsplit(" ", 1)[1]) for l in out) == kept
    assert int(count) * 2 > kept
