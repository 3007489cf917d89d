"""The Malta boot flash (arch/mips/flash): the image QEMU runs from the
reset vector with -bios, on both byte orders, and the S-record for YAMON.

    make flash ARCH=mips [ENDIAN=big]   build/<t>/tally-flash.bin
    make srec ARCH=mips [ENDIAN=big]    build/<t>/tally.srec

The ASCII display is read from outside: QEMU 7.2's Malta prints it only to
a `vc` it creates itself (no option redirects it), so the boots here run
with `-trace memory_region_ops_write` and the test replays the writes to
the display registers (FPGA offsets 0x418..0x450, one character each).
"""
import os
import re
import struct
import subprocess
import time

import pexpect
import pytest

from tally_console import ROOT, PROMPT, BOOT_TIMEOUT, CMD_TIMEOUT, SUMMARY, CLOSING, \
    Console, ReadChecker, kv

QUICK_TARGETS = ["mips", "mipsbe"]
ENDIAN = {"mips": "little", "mipsbe": "big"}
SELFTEST_TIMEOUT = 600
BOOT_BUDGET_S = 5.0     # as test_boot.py's -kernel budget; measured 0.8-1.0 s

# The stub's stages, in order, then the kernel's own (arch_boot_progress).
FLASH_STAGES = ["CP0 OK", "GT64120", "SUPERIO", "SPD", "COPY", "ARGS", "KERNEL"]
KERNEL_STAGES = ["start", "CONSOLE", "TRAPS", "READY"]

FPGA_ASCIIPOS0, FPGA_ASCIIPOS7 = 0x418, 0x450
RESET_BRANCH = 0x1000013F      # b 0x500 from offset 0: beq $0,$0,(0x500-4)/4
FLASH_SWAP_LIMIT = 0x3E0000     # QEMU swaps (and YAMON's layout allows) this much


def _build(target, *goals, **extra):
    args = ["make", "-s", "ARCH=mips", "ENDIAN=" + ENDIAN[target]] + list(goals)
    args += ["%s=%s" % kv_ for kv_ in extra.items()]
    subprocess.run(args, cwd=ROOT, check=True, capture_output=True, timeout=600)


def _path(target, name):
    return os.path.join(ROOT, "build", target, name)


class FlashConsole(Console):
    """A Console booted from the flash image through qemu-run --boot flash."""

    def __init__(self, target, image=None, mem=None, icount=False, trace=None,
                 wait=True):
        self.target = target + "-flash"
        self.args = ["--console", "raw", "--no-reboot", "--arch", "mips",
                     "--endian", ENDIAN[target], "--boot", "flash"]
        if image:
            self.args += ["--image", image]
        if mem:
            self.args += ["--mem", mem]
        if icount:
            self.args += ["--icount"]
        if trace:
            self.args += ["--", "-trace", "memory_region_ops_write", "-D", trace]
        self.started = time.monotonic()
        self.proc = pexpect.spawn(os.path.join(ROOT, "scripts", "qemu-run"), self.args,
                                  cwd=ROOT, timeout=CMD_TIMEOUT, maxread=65536)
        self.boot_log = b""
        self.boot_seconds = None
        self.reads = ReadChecker(self.target)
        if wait:
            self.wait_boot()


def display_history(trace_path):
    """The ASCII display's text each time its last position was written."""
    text = [" "] * 8
    shown = []
    pat = re.compile(r"addr (0x[0-9a-f]+) value (0x[0-9a-f]+) size \d+ name 'malta-fpga'")
    with open(trace_path, errors="replace") as f:
        for line in f:
            m = pat.search(line)
            if not m:
                continue
            addr, value = int(m.group(1), 16), int(m.group(2), 16)
            if FPGA_ASCIIPOS0 <= addr <= FPGA_ASCIIPOS7 and (addr - FPGA_ASCIIPOS0) % 8 == 0:
                text[(addr - FPGA_ASCIIPOS0) // 8] = chr(value & 0xFF)
                if addr == FPGA_ASCIIPOS7:
                    shown.append("".join(text).rstrip())
    return shown


def is_subsequence(wanted, seen):
    it = iter(seen)
    return all(any(w == s for s in it) for w in wanted)


# ---- S-records ---------------------------------------------------------------

class SrecError(ValueError):
    pass


ADDR_BYTES = {"0": 2, "1": 2, "2": 3, "3": 4, "5": 2, "6": 3, "7": 4, "8": 3, "9": 2}


def parse_srec(text):
    """Check every record of an S-record file; return (header, data, start).

    data is {address: bytes} for S1/S2/S3 records; start the S7/S8/S9
    address.  Raises SrecError naming the line for a bad type, length,
    checksum, hex digit, an S5/S6 count that disagrees, or a missing or
    misplaced terminator."""
    header, data, start, ndata = None, {}, None, 0
    lines = text.splitlines()
    if not lines:
        raise SrecError("empty file")
    for n, line in enumerate(lines, 1):
        if len(line) < 4 or line[0] != "S" or line[1] not in ADDR_BYTES:
            raise SrecError("line %d: not an S-record: %r" % (n, line[:20]))
        if start is not None:
            raise SrecError("line %d: record after the terminator" % n)
        try:
            raw = bytes.fromhex(line[2:])
        except ValueError:
            raise SrecError("line %d: bad hex" % n) from None
        count = raw[0]
        if count != len(raw) - 1:
            raise SrecError("line %d: count %d but %d bytes follow" % (n, count, len(raw) - 1))
        if (sum(raw[:-1]) + raw[-1]) & 0xFF != 0xFF:
            raise SrecError("line %d: checksum 0x%02x wrong" % (n, raw[-1]))
        alen = ADDR_BYTES[line[1]]
        if count < alen + 1:
            raise SrecError("line %d: too short for its address" % n)
        addr = int.from_bytes(raw[1:1 + alen], "big")
        payload = raw[1 + alen:-1]
        kind = line[1]
        if kind == "0":
            if n != 1:
                raise SrecError("line %d: S0 header not first" % n)
            header = payload
        elif kind in "123":
            data[addr] = payload
            ndata += 1
        elif kind in "56":
            if addr != ndata & (0xFFFF if kind == "5" else 0xFFFFFF):
                raise SrecError("line %d: count record says %d, %d data records seen"
                                % (n, addr, ndata))
        elif kind in "789":
            start = addr
        else:
            raise SrecError("line %d: reserved record type S4" % n)
    if start is None:
        raise SrecError("no S7/S8/S9 terminator")
    return header, data, start


def flatten(data):
    """The data records as one contiguous block: (base, bytes)."""
    base = min(data)
    out = bytearray()
    for addr in sorted(data):
        if addr != base + len(out):
            raise SrecError("gap or overlap at 0x%08x" % addr)
        out += data[addr]
    return base, bytes(out)


def elf_entry(path):
    with open(path, "rb") as f:
        ident = f.read(52)
    order = "<" if ident[5] == 1 else ">"
    return struct.unpack(order + "I", ident[24:28])[0]


def elf_symbol(path, name):
    out = subprocess.run(["llvm-nm", path], capture_output=True, text=True, check=True).stdout
    m = re.search(r"^([0-9a-f]+) \S %s$" % re.escape(name), out, re.M)
    assert m, name
    return int(m.group(1), 16)


def srec_record(kind, addr, alen, payload):
    """One record, built by the rules parse_srec checks."""
    body = bytes([alen + len(payload) + 1]) + addr.to_bytes(alen, "big") + payload
    return "S%s%s%02X" % (kind, body.hex().upper(), 0xFF - (sum(body) & 0xFF))


def _sample_srec():
    return [srec_record("0", 0, 2, b"hdr"),
            srec_record("3", 0x80100000, 4, b"\x01\x02\x03\x04"),
            srec_record("3", 0x80100004, 4, b"\x05\x06"),
            srec_record("5", 2, 2, b""),
            srec_record("7", 0x80100000, 4, b"")]


def test_srec_checker_rejects_bad_files():
    """The checker below must be able to fail: each kind of damage is caught."""
    good = _sample_srec()
    header, data, start = parse_srec("\n".join(good))
    assert header == b"hdr" and start == 0x80100000
    assert flatten(data) == (0x80100000, b"\x01\x02\x03\x04\x05\x06")
    bad_checksum = good[:1] + [good[1][:-2] + "%02X" % (int(good[1][-2:], 16) ^ 1)] + good[2:]
    bad_count = good[:1] + ["S316" + good[1][4:]] + good[2:]
    bad_type = good[:1] + ["S4" + good[1][2:]] + good[2:]
    no_end = good[:-1]
    bad_s5 = good[:3] + [srec_record("5", 3, 2, b"")] + good[4:]
    for lines in (bad_checksum, bad_count, bad_type, no_end, good[1:2] + good[:1] + good[2:]):
        with pytest.raises(SrecError):
            parse_srec("\n".join(lines))
    with pytest.raises(SrecError):
        parse_srec("\n".join(bad_s5))
    with pytest.raises(SrecError):
        flatten({0x100: b"ab", 0x103: b"c"})


def test_srec_is_the_kernel_for_yamon_load(target):
    """tally.srec: well formed, S3 data records holding exactly the kernel's
    flat image at its load address (KSEG0), and an S7 start at its entry."""
    _build(target, "srec")
    with open(_path(target, "tally.srec")) as f:
        text = f.read()
    header, data, start = parse_srec(text)
    assert all(line.startswith(("S0", "S3", "S7")) for line in text.splitlines())
    elf = _path(target, "tally.elf")
    base, image = flatten(data)
    assert base == elf_symbol(elf, "__kernel_start") == 0x80100000
    with open(_path(target, "flash/kernel.bin"), "rb") as f:
        assert image == f.read()
    assert start == elf_entry(elf)


# ---- the image --------------------------------------------------------------

def _cpu_words(target, path):
    """The image as the CPU fetches it: big-endian words for mipsbe; for
    mips the file holds each word byte-swapped (QEMU swaps them back), so
    it too reads as big-endian words."""
    with open(path, "rb") as f:
        raw = f.read()
    assert len(raw) % 4 == 0
    return raw, struct.unpack(">%dI" % (len(raw) // 4), raw)


def test_flash_image_layout(target):
    _build(target, "flash")
    raw, words = _cpu_words(target, _path(target, "tally-flash.bin"))
    assert len(raw) <= FLASH_SWAP_LIMIT
    assert words[0] == RESET_BRANCH, hex(words[0])     # first instruction: b reset_main
    assert words[0x10 // 4] == 0                         # the REVISION register's word
    # The kernel's flat image is inside, in the CPU's byte order.
    with open(_path(target, "flash/kernel.bin"), "rb") as f:
        kernel = f.read()
    order = "<" if target == "mips" else ">"
    native = struct.pack(order + "%dI" % len(words), *words)
    assert kernel[:4096] in native and kernel[-4096:] in native


# ---- booting from the reset vector ---------------------------------------------

def test_flash_boot_reaches_prompt_with_stages(target, tmp_path):
    trace = str(tmp_path / "trace.log")
    c = FlashConsole(target, trace=trace)
    try:
        assert c.boot_seconds < BOOT_BUDGET_S, c.boot_seconds
        log = c.boot_log.decode("latin-1")
        assert "tally-flash: reset, caches initialised, system controller at 0x1be00000" in log
        assert "tally-flash: RAM 256 MiB from SPD" in log
        assert "tally-flash: starting the kernel at 0x80100000 (semihosting)" in log
        assert re.search(r"Tally \S+ \(mips\) booting via flash", log), log
        assert "memory: 256 MiB reported" in log
        info = kv(c.run("info"))
        assert info["loader"] == "flash"
        assert info["arch"] == "mips"
    finally:
        c.close()
    shown = display_history(trace)
    assert is_subsequence(FLASH_STAGES + KERNEL_STAGES, shown), shown


def test_flash_ram_size_comes_from_spd(target):
    """QEMU writes the SPD for -m; 100 MiB is three rows (64 + 32 + 4)."""
    c = FlashConsole(target, mem="100M")
    try:
        log = c.boot_log.decode("latin-1")
        assert "tally-flash: RAM 100 MiB from SPD (SDRAM, 3 rows)" in log
        assert "memory: 100 MiB reported" in log
    finally:
        c.close()


def test_flash_refuses_without_ram_size(target, tmp_path):
    """-m 2M: QEMU's SPD has no rows, so there is no RAM size to trust."""
    trace = str(tmp_path / "trace.log")
    c = FlashConsole(target, mem="2M", trace=trace, wait=False)
    status, out = c.wait_exit(timeout=BOOT_TIMEOUT)
    assert status == 1, out
    assert "tally-flash: error: cannot find the RAM size: SPD reports no rows" in out
    assert "not starting the kernel" in out
    assert "booting via" not in out
    shown = display_history(trace)
    assert shown and shown[-1] == "NO RAM?", shown


def test_flash_builtin_cmdline_runs_selftest(target):
    """APPEND is built into the image: `selftest cpi=1` boots, runs every
    check and leaves QEMU with 0."""
    d = os.path.join("build", target, "flash-selftest")
    image = os.path.join(d, "tally-flash.bin")
    _build(target, "flash", FLASH_DIR=d, FLASH_BIN=image, APPEND="selftest cpi=1")
    c = FlashConsole(target, image=os.path.join(ROOT, image), icount=True, wait=False)
    try:
        status, out = c.wait_exit(timeout=SELFTEST_TIMEOUT)
    finally:
        c.close()
    assert 'tally-flash: command line "selftest cpi=1"' in out
    assert "booting via flash" in out and "cmdline: selftest cpi=1" in out
    m = SUMMARY.search(out)
    assert m and int(m.group(2)) == 0, out[-3000:]
    assert CLOSING.search(out)
    assert status == 0


def test_make_run_boot_flash(target):
    """docs/building-and-booting.md's command: make run ARCH=mips BOOT=flash
    [ENDIAN=big] APPEND=..., which rebuilds the image with APPEND built in."""
    p = pexpect.spawn("make", ["-s", "run", "ARCH=mips", "ENDIAN=" + ENDIAN[target],
                               "BOOT=flash", "APPEND=hz=250 onpanic=halt"],
                      cwd=ROOT, timeout=BOOT_TIMEOUT + 300)
    try:
        p.expect(PROMPT)
        assert b"booting via flash" in p.before
        assert b"cmdline: hz=250 onpanic=halt" in p.before
        p.sendline("info")
        p.expect(PROMPT)
        assert b"hz: 250" in p.before
        p.send("poweroff\r")
        p.expect(pexpect.EOF)
    finally:
        p.close()
        _build(target, "flash")     # the default image again, no command line
    assert p.exitstatus == 0


def test_qemu_run_refuses_append_with_flash():
    r = subprocess.run([os.path.join(ROOT, "scripts", "qemu-run"), "--arch", "mips",
                        "--boot", "flash", "--append", "hz=250", "--dry-run"],
                       capture_output=True, text=True)
    assert r.returncode == 125
    assert "make flash APPEND=" in r.stderr
