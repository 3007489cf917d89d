"""Host unit tests: each cmocka binary is one pytest test.

`make unit-build` builds every tests/unit/PATH/test_X.c (PATH mirrors the
code under test, e.g. kernel/hwperf/test_cmd.c) into
build/host/unit/PATH/test_X; this module runs them, one pytest test each,
named by that relative path.  A test source without a binary, or no
binaries at all, is a failure, never a skip: CI must not pass by running
nothing.  A binary without a source (a test renamed or removed since the
last build) fails too, rather than running a test that no longer exists.
"""

import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SRC_DIR = ROOT / "tests" / "unit"
BIN_DIR = ROOT / "build" / "host" / "unit"
OBJ_SUBDIR = "obj"  # UNIT_OBJ in unit.mk
TIMEOUT_S = 300


def _sources():
    return {
        p.relative_to(SRC_DIR).with_suffix("").as_posix()
        for p in SRC_DIR.rglob("test_*.c")
    }


def _binaries():
    # Objects live under build/host/unit/obj; only executables are tests.
    return {
        p.relative_to(BIN_DIR).as_posix()
        for p in BIN_DIR.rglob("test_*")
        if p.is_file()
        and os.access(p, os.X_OK)
        and p.relative_to(BIN_DIR).parts[0] != OBJ_SUBDIR
    }


def _test_names():
    """Names from both sides, so a missing build and a stray binary show."""
    return sorted(_sources() | _binaries())


NAMES = _test_names()


def test_some_unit_tests_exist():
    if not NAMES:
        pytest.fail(
            f"no unit tests: no {SRC_DIR}/**/test_*.c nor binaries in "
            f"{BIN_DIR}; run `make unit-build`"
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
    if not (SRC_DIR / f"{name}.c").is_file():
        pytest.fail(
            f"{binary} has no source {SRC_DIR}/{name}.c (renamed or "
            "removed); `make unit-build` removes such binaries"
        )
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
