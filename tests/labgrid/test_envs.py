"""The labgrid environment files: each builds, names only system-test
targets, and gives every target a console and a power switch, which is all
tests/system/lab_console.py asks of a target.  The QEMU one is run for real
by `make lab-test`; the board ones are checked here only (no board)."""
import glob
import os

import pytest

labgrid = pytest.importorskip("labgrid", reason="python3-labgrid is not installed (scripts/install-deps)")

HERE = os.path.dirname(os.path.abspath(__file__))
ENVS = sorted(glob.glob(os.path.join(HERE, "*.yaml")))
# The names tests/system/tally_console.py knows as -kernel or board targets.
MACHINES = {"x86_64", "mips", "mipsbe"}


def test_the_three_environments_are_there():
    assert sorted(map(os.path.basename, ENVS)) == ["malta-board.yaml", "pc-serial.yaml", "qemu.yaml"]


@pytest.mark.parametrize("path", ENVS, ids=os.path.basename)
def test_every_target_has_a_console_and_power(path):
    env = labgrid.Environment(config_file=path)
    names = list(env.config.get_targets())
    assert names and set(names) <= MACHINES, names
    for name in names:
        target = env.get_target(name)
        # Binding only: nothing is opened or switched.
        assert target.get_driver("ConsoleProtocol", activate=False)
        assert target.get_driver("PowerProtocol", activate=False)
        target.cleanup()


def test_qemu_environment_boots_what_make_builds():
    env = labgrid.Environment(config_file=os.path.join(HERE, "qemu.yaml"))
    root = os.path.dirname(os.path.dirname(HERE))
    for key, built in [("tally_x86_64", "build/x86_64/tally32.elf"),
                       ("tally_mips", "build/mips/tally.elf")]:
        assert os.path.realpath(env.config.get_image_path(key)) == os.path.join(root, built)
