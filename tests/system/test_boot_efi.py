"""UEFI without GRUB (tally.efi under OVMF) and USB sticks (issue 14, items 1, 3).

Each configuration boots once (module-scoped fixtures) and every test
reads that one boot:

  efi        build/x86_64/tally-esp.img as an IDE disk: `make run BOOT=efi`
  efi-kernel tally.efi given to OVMF by QEMU -kernel; -append arrives as
             the application's UEFI load options
  efi-file   an ESP whose EFI/BOOT/tally-cmdline.txt carries the arguments,
             makes the first memory map stale (efi.stalekey) and loads the
             kernel from a file on the ESP (efi.kernel=)
  efi-shell  an ESP without EFI/BOOT/BOOTX64.EFI: OVMF falls back to its
             UEFI shell, whose startup.nsh runs tally.efi with arguments;
             the shell passes the program's own name first
  efi-nokernel  efi.kernel= names a file that is not there: the firmware's
             EFI_NOT_FOUND must be printed by name, and nothing booted
  usb        the ESP image and the hybrid ISO as a usb-storage disk on xhci
"""
import os
import re
import shutil
import subprocess

import pexpect
import pytest

from tally_console import (BOOT_TIMEOUT, EXTRA_TARGETS, PROMPT, ROOT, SUMMARY,
                           Console, kv, launcher_args)

OVMF = "/usr/share/OVMF/OVMF_CODE.fd"
ESP = os.path.join(ROOT, "build/x86_64/tally-esp.img")
EFI_APP = os.path.join(ROOT, "build/x86_64/tally.efi")
KERNEL = os.path.join(ROOT, "build/x86_64/tally.elf")
ISO = os.path.join(ROOT, "build/x86_64/tally.iso")
TEST_ESP = "build/x86_64/test-esp"

EXTRA_TARGETS.update({
    "x86_64-efi": dict(arch="x86_64", boot="efi"),
    "x86_64-efi-kernel": dict(arch="x86_64", boot="efi-kernel"),
    "x86_64-efi-file": dict(arch="x86_64", boot="efi", image=TEST_ESP + "/file.img"),
    "x86_64-efi-shell": dict(arch="x86_64", boot="efi", image=TEST_ESP + "/shell.img"),
    "x86_64-efi-nokernel": dict(arch="x86_64", boot="efi", image=TEST_ESP + "/nokernel.img"),
    "x86_64-efi-usb": dict(arch="x86_64", boot="efi", usb=True),
    "x86_64-iso-usb-bios": dict(arch="x86_64", boot="iso", firmware="bios", usb=True),
    "x86_64-iso-usb-uefi": dict(arch="x86_64", boot="iso", firmware="uefi", usb=True),
})

FILE_ARGS = "hz=250 onpanic=exit"
OPTION_ARGS = "hz=500 onpanic=halt"


@pytest.fixture(scope="module", autouse=True)
def _x86_64_uefi_only(request):
    wanted = request.config.getoption("--target")
    if wanted and not any(t.startswith("x86_64") for t in wanted):
        pytest.skip("UEFI boots are x86_64 only; --target %s" % ",".join(wanted))
    if not os.path.exists(OVMF):
        pytest.skip("%s missing: no UEFI firmware to boot (scripts/install-deps)" % OVMF)
    for f, how in ((ESP, "make efi"), (EFI_APP, "make efi"), (ISO, "make iso")):
        assert os.path.exists(f), "%s not built (%s)" % (f, how)


def _booted(target, **kw):
    c = Console(target, **kw)
    yield c
    c.close()


def _mkesp(name, cmdline, files=()):
    """An ESP image like make efi's, with its own command line file and
    extra files (host path, ESP path)."""
    out = os.path.join(ROOT, TEST_ESP, name)
    subprocess.run([os.path.join(ROOT, "scripts/mkesp"), EFI_APP, out, cmdline],
                   check=True, capture_output=True)
    for src, dst in files:
        subprocess.run(["mmd", "-i", out, "::" + os.path.dirname(dst)],
                       check=True, capture_output=True)
        subprocess.run(["mcopy", "-i", out, src, "::" + dst], check=True,
                       capture_output=True)
    return out


@pytest.fixture(scope="module")
def efi():
    yield from _booted("x86_64-efi")


@pytest.fixture(scope="module")
def efi_kernel():
    yield from _booted("x86_64-efi-kernel", append=OPTION_ARGS)


@pytest.fixture(scope="module")
def efi_file():
    _mkesp("file.img", FILE_ARGS + " efi.stalekey efi.kernel=/EFI/tally/tally.elf",
           [(KERNEL, "/EFI/tally/tally.elf")])
    yield from _booted("x86_64-efi-file")


@pytest.fixture(scope="module")
def efi_shell(tmp_path_factory):
    """tally.efi in EFI/tally/ beside its tally-cmdline.txt, started by the
    shell's startup.nsh with more arguments."""
    tmp = tmp_path_factory.mktemp("shell")
    img = os.path.join(ROOT, TEST_ESP, "shell.img")
    os.makedirs(os.path.dirname(img), exist_ok=True)
    (tmp / "tally-cmdline.txt").write_text("# from the file\nhz=250\n")
    (tmp / "startup.nsh").write_text("fs0:\\EFI\\tally\\tally.efi onpanic=exit\r\n")
    if os.path.exists(img):
        os.remove(img)
    for cmd in (["truncate", "-s", "16M", img],
                ["mformat", "-i", img, "-h", "16", "-s", "32", "-t", "64", "::"],
                ["mmd", "-i", img, "::/EFI", "::/EFI/tally"],
                ["mcopy", "-i", img, EFI_APP, "::/EFI/tally/tally.efi"],
                ["mcopy", "-i", img, str(tmp / "tally-cmdline.txt"), "::/EFI/tally/"],
                ["mcopy", "-i", img, str(tmp / "startup.nsh"), "::/startup.nsh"]):
        subprocess.run(cmd, check=True, capture_output=True)
    c = Console("x86_64-efi-shell", wait=False)
    try:
        # The shell counts down 5 s before startup.nsh; any key but ESC
        # goes on at once.
        c.expect("startup.nsh", timeout=BOOT_TIMEOUT)
        c.send(" ")
        c.wait_boot()
    except Exception:
        c.close()
        raise
    yield c
    c.close()


def _info(c):
    return kv(c.run("info"))


# ---- the ESP boot: what `make run BOOT=efi` boots --------------------------

def test_efi_boot_reaches_prompt_without_grub(efi):
    log = efi.text(efi.boot_log)
    assert "tally.efi: Tally's UEFI loader" in log
    assert re.search(r"BdsDxe: starting Boot\d+ .*HARDDISK", log), log
    assert "GRUB" not in log and "Booting `Tally'" not in log
    assert re.search(r"^Tally \S+ \(x86_64\) booting via uefi", log, re.M), log
    info = _info(efi)
    assert info["loader"] == "uefi"
    assert info["cmdline"] == ""


def test_efi_reports_uefi_memory(efi):
    """The kernel's RAM is what the EFI map calls usable after the exit."""
    log = efi.text(efi.boot_log)
    m = re.search(r"^uefi: memory map (\d+) descriptors, usable (\d+) KiB: "
                  r"conventional (\d+) KiB, boot services (\d+) KiB, loader (\d+) KiB",
                  log, re.M)
    assert m, log
    ndesc, usable, conv, bs, loader = map(int, m.groups())
    assert ndesc > 10
    assert usable == conv + bs + loader
    # QEMU runs with -m 256M; firmware keeps some for itself.
    assert 200 << 10 < usable <= 256 << 10
    assert bs > 0 and loader > 0
    reported = re.search(r"^memory: (\d+) MiB reported, (\d+) pages free", log, re.M)
    assert reported and int(reported.group(1)) == usable >> 10
    total = re.search(r"total=(\d+)KiB", _info(efi)["memory"])
    assert total and int(total.group(1)) == usable


def test_efi_finds_acpi_and_exits_once(efi):
    log = efi.text(efi.boot_log)
    assert re.search(r"^uefi: firmware EDK II rev 0x[0-9a-f]+, UEFI 2\.\d+", log, re.M), log
    # OVMF installs ACPI 2.0 tables; the kernel checks the RSDP's checksums.
    assert re.search(r"^uefi: acpi rsdp 0x[0-9a-f]+ \(ACPI 2\.0 table, revision 2\): ok$",
                     log, re.M), log
    assert re.search(r"^uefi: boot services exited after 1 attempt$", log, re.M), log


def test_efi_selftest_passes(efi):
    out = efi.run("selftest", timeout=300)
    m = SUMMARY.search(out)
    assert m, out
    assert not re.search(r"^FAIL:", out, re.M), out
    assert int(m.group(2)) == 0


def test_efi_selftest_boot_mode_exits_zero():
    """`selftest` as a boot argument (here a load option) runs the suite
    and leaves QEMU with 0: the exit device works after tally.efi too."""
    c = Console("x86_64-efi-kernel", append="selftest", wait=False)
    try:
        status, out = c.wait_exit(timeout=300)
    finally:
        c.close()
    m = SUMMARY.search(out)
    assert m and "booting via uefi" in out, out
    assert int(m.group(2)) == 0 and not re.search(r"^FAIL:", out, re.M), out
    assert status == 0


# ---- the command line: load options, then the file on the ESP -------------

def test_cmdline_from_load_options(efi_kernel):
    log = efi_kernel.text(efi_kernel.boot_log)
    assert "tally.efi: command line: " + OPTION_ARGS in log
    info = _info(efi_kernel)
    assert info["loader"] == "uefi"
    assert info["cmdline"] == OPTION_ARGS
    assert info["hz"] == "500"


def test_cmdline_from_esp_file(efi_file):
    log = efi_file.text(efi_file.boot_log)
    assert "tally.efi: command line file \\EFI\\BOOT\\tally-cmdline.txt" in log, log
    info = _info(efi_file)
    # The loader's own options are taken out; the kernel gets the rest.
    assert info["cmdline"] == FILE_ARGS
    assert info["hz"] == "250"
    assert "unknown boot argument" not in log


def test_cmdline_from_file_and_shell_arguments(efi_shell):
    """The file's words first, then the load options; the shell's first
    word (the program's own path) is dropped."""
    log = efi_shell.text(efi_shell.boot_log)
    assert "tally.efi: command line file \\EFI\\tally\\tally-cmdline.txt" in log, log
    assert "tally.efi: command line: hz=250 onpanic=exit" in log, log
    info = _info(efi_shell)
    assert info["cmdline"] == "hz=250 onpanic=exit"
    assert info["hz"] == "250" and info["loader"] == "uefi"


def test_stale_map_key_is_retried(efi_file):
    """efi.stalekey takes a page after the first GetMemoryMap: the firmware
    must refuse that key, and the loader must read the map again."""
    log = efi_file.text(efi_file.boot_log)
    assert re.search(r"^uefi: boot services exited after 2 attempts$", log, re.M), log


def test_kernel_from_esp_file(efi_file):
    log = efi_file.text(efi_file.boot_log)
    m = re.search(r"tally\.efi: kernel from \\EFI\\tally\\tally\.elf \((\d+) bytes\)", log)
    assert m, log
    assert int(m.group(1)) == os.path.getsize(KERNEL)
    assert _info(efi_file)["loader"] == "uefi"


def test_firmware_error_is_named_and_stops():
    _mkesp("nokernel.img", "efi.kernel=/EFI/tally/missing.elf")
    c = Console("x86_64-efi-nokernel", wait=False)
    try:
        c.expect(r"tally\.efi: error: reading the kernel \\EFI\\tally\\missing\.elf: "
                 r"EFI_NOT_FOUND", timeout=BOOT_TIMEOUT)
        c.expect(r"tally\.efi: not started; back to the firmware")
        # The firmware gets its status back and moves on to its next option.
        after = c.expect(r"BdsDxe: failed to start Boot\d+ .*: Not Found")
        assert "booting via" not in after
    finally:
        c.close()


def test_make_run_boot_efi():
    """`make run BOOT=efi`, as docs/building-and-booting.md says, to the prompt and out."""
    p = pexpect.spawn("make", ["-s", "run", "BOOT=efi"], cwd=ROOT, timeout=BOOT_TIMEOUT)
    try:
        p.expect(PROMPT)
        p.send("info\r")
        p.expect(PROMPT)
        assert "loader: uefi" in p.before.decode("latin-1")
        p.send("poweroff\r")
        p.expect(pexpect.EOF)
    finally:
        p.close()
    assert p.exitstatus == 0


# ---- USB sticks ------------------------------------------------------------

@pytest.mark.parametrize("usb_target,loader", [
    ("x86_64-efi-usb", "uefi"),
    ("x86_64-iso-usb-uefi", "multiboot2"),
    ("x86_64-iso-usb-bios", "multiboot2"),
])
def test_usb_stick_boots(usb_target, loader):
    """The ESP image and the hybrid ISO, written to a stick as they are,
    boot from a usb-storage disk on xhci: the only disk the machine has."""
    qemu = subprocess.run([os.path.join(ROOT, "scripts/qemu-run"), "--dry-run"] +
                          launcher_args(usb_target), capture_output=True, text=True, check=True).stdout
    assert "usb-storage,bus=xhci.0" in qemu and "qemu-xhci" in qemu
    assert "cdrom" not in qemu and "ide-hd" not in qemu and "-kernel" not in qemu
    c = Console(usb_target)
    try:
        log = c.text(c.boot_log)
        if usb_target != "x86_64-iso-usb-bios":     # SeaBIOS says nothing on COM1
            assert re.search(r"BdsDxe: starting Boot\d+ .*USB", log), log
        assert _info(c)["loader"] == loader
    finally:
        c.close()


@pytest.fixture(scope="module", autouse=True)
def _clean_test_esps():
    yield
    shutil.rmtree(os.path.join(ROOT, TEST_ESP), ignore_errors=True)
