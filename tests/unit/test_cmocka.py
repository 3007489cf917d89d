"""Host unit tests: each cmocka binary is one pytest test.

`make unit-build` builds every tests/unit/test_NAME.c into
build/host/unit/test_NAME; this module runs them.  A test source without a
binary, or no binaries at all, is a failure, never a skip: CI must not pass
by running nothing.
"""

import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SRC_DIR = ROOT / "tests" / "unit"
BIN_DIR = ROOT / "build" / "host" / "unit"
TIMEOUT_S = 300


def _test_names():
    """Names from both sides, so a missing build and a stray binary show."""
    sources = {p.stem for p in SRC_DIR.glob("test_*.c")}
    binaries = {
        p.name
        for p in BIN_DIR.glob("test_*")
        if p.is_file() and os.access(p, os.X_OK)
    }
    return sorted(sources | binaries)


NAMES = _test_names()


def test_some_unit_tests_exist():
    if not NAMES:
        pytest.fail(
            f"no unit tests: nothing in {SRC_DIR}/test_*.c or {BIN_DIR}; "
            "run `make unit-build`"
        )


def _env():
    env = dict(os.environ)
    # Sanitizer reports name the source line that went wrong.
    env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1")
    return env


@pytest.mark.parametrize("name", NAMES)
def test_unit(name):
    binary = BIN_DIR / name
    if not binary.is_file():
        pytest.fail(f"{binary} was not built; run `make unit-build`")
    proc = subprocess.run(
        [str(binary)],
        cwd=ROOT,
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        timeout=TIMEOUT_S,
        check=False,
    )
    output = proc.stdout.decode(errors="replace")
    if proc.returncode != 0:
        pytest.fail(f"{name} exited with status {proc.returncode}:\n{output}")
