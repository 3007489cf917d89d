"""pytest fixtures: one QEMU per target, kept running across tests.

    pytest tests/system                   every target
    pytest tests/system --target mips     one target (repeatable option)
    pytest tests/system --lg-env tests/labgrid/qemu.yaml
                                          the shared consoles through labgrid
                                          (lab_console.py): its targets only
"""
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tally_console  # noqa: E402
from tally_console import TARGETS, KERNEL_TARGETS, Console  # noqa: E402


def _lab_env(config):
    """The labgrid environment that labgrid's own pytest plugin read from
    --lg-env or LG_ENV, or None when the consoles come from qemu-run."""
    return getattr(config, "_labgrid_env", None)


def pytest_addoption(parser):
    parser.addoption("--target", action="append", default=[],
                     help="limit system tests to these targets: " + ", ".join(TARGETS))


def _selected(config, names):
    wanted = config.getoption("--target")
    return [n for n in names if not wanted or n in wanted]


def pytest_generate_tests(metafunc):
    if "target" in metafunc.fixturenames:
        names = TARGETS if not metafunc.definition.get_closest_marker("kernel_only") \
            else KERNEL_TARGETS
        # A module of portable-code checks names its targets (quick_console).
        only = getattr(metafunc.module, "QUICK_TARGETS", None)
        if only:
            names = [n for n in names if n in only]
        # ... and may run on the SMP variants of a target as well.
        names = list(names) + list(getattr(metafunc.module, "SMP_TARGETS", []))
        env = _lab_env(metafunc.config)
        if env is not None:
            names = [n for n in names if n in env.config.get_targets()]
        metafunc.parametrize("target", _selected(metafunc.config, list(names)),
                             scope="session")


def pytest_configure(config):
    config.addinivalue_line("markers", "kernel_only: needs boot arguments, so -kernel targets only")
    config.addinivalue_line("markers", "slow_smp: minutes of several-CPU selftest or stress: "
                            "`make test-smp`, not `make test`")


# `make test` runs pytest on two workers (pytest-xdist, --dist loadgroup).
# A module's tests stay together on one worker, in order, because they
# share its console; the modules that read the one-shot selftest boots
# share a group as well, so each such boot still runs once.
SELFTEST_READERS = {"test_bench", "test_bench_cycles", "test_count_truth",
                    "test_lava_jobs", "test_boot_efi"}


def pytest_collection_modifyitems(config, items):
    here = os.path.dirname(os.path.abspath(__file__))
    for item in items:
        if os.path.dirname(str(item.fspath)) != here:
            continue
        module = item.module.__name__
        group = "selftest" if module in SELFTEST_READERS else module
        item.add_marker(pytest.mark.xdist_group(group))


def pytest_sessionstart(session):
    if _lab_env(session.config) is not None:
        tally_console.private_boots_refused = (
            "a labgrid target boots only as its environment file says; "
            "this test needs a QEMU of its own (boot arguments, -icount or a CPU model)")


_consoles = {}


@pytest.fixture(scope="session")
def _console_pool():
    yield _consoles
    for c in _consoles.values():
        c.close()


@pytest.fixture
def console(target, _console_pool, request):
    """A booted console for target, shared by the tests that leave it usable."""
    c = _console_pool.get(target)
    if c is None or not c.alive():
        env = _lab_env(request.config)
        if env is not None:
            from lab_console import LabConsole
            c = LabConsole(env, target)
        else:
            c = Console(target)
        _console_pool[target] = c
    yield c
    # A test that powered off, crashed or wedged the guest must not
    # poison the next one.
    if c.alive():
        try:
            c.sync(timeout=10)
        except Exception:
            c.close()
            _console_pool.pop(target, None)
    else:
        _console_pool.pop(target, None)


@pytest.fixture
def quick_console(target, request):
    """The shared console without pexpect's 50 ms pause before each send,
    for modules of many short commands (nothing there races the echo).
    Such a module may name QUICK_TARGETS: its checks are of portable
    kernel code, and only those targets are parametrized (above)."""
    console = request.getfixturevalue("console")
    delay, console.proc.delaybeforesend = console.proc.delaybeforesend, None
    yield console
    console.proc.delaybeforesend = delay


@pytest.fixture
def boot(target):
    """Boot a private QEMU with extra options: boot(append=..., icount=...)."""
    made = []

    def _boot(**kw):
        c = Console(target, **kw)
        made.append(c)
        return c
    yield _boot
    for c in made:
        c.close()


SELFTEST_TIMEOUT = 600
_selftests = {}


@pytest.fixture(scope="session")
def selftest_boot():
    """selftest_boot(target, append=..., icount=...) -> (exit status, output).

    The one-shot `selftest` boot is the slowest thing a test can ask for, so
    each distinct boot (target, arguments, icount) runs once per session and
    every test that reads its lines shares the result."""
    def get(target, append="selftest cpi=1", icount=True):
        key = (target, append, icount)
        if key not in _selftests:
            c = Console(target, append=append, icount=icount, wait=False)
            try:
                _selftests[key] = c.wait_exit(timeout=SELFTEST_TIMEOUT)
            finally:
                c.close()
        return _selftests[key]
    return get
