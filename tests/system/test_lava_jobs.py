"""The LAVA job definitions (tests/lava/*.yaml): valid by the schema of
Debian's lava-common, and their monitors turn a real one-shot selftest boot
into exactly the results its SUMMARY line counts."""
import copy
import glob
import os
import re

import pytest
import yaml

from tally_console import ROOT, SUMMARY

schemas = pytest.importorskip("lava_common.schemas",
                              reason="Debian's lava-common is not installed (scripts/install-deps)")

JOBS = sorted(glob.glob(os.path.join(ROOT, "tests", "lava", "*.yaml")))
# The machine each job's selftest runs on, as a system-test target.
JOB_TARGET = {"x86_64-qemu.yaml": "x86_64", "x86_64-pc.yaml": "x86_64",
              "malta-board.yaml": "mips"}


def _load(path):
    with open(path) as f:
        return yaml.safe_load(f)


def test_every_job_names_its_machine():
    assert JOBS, "no job definitions in tests/lava"
    assert sorted(map(os.path.basename, JOBS)) == sorted(JOB_TARGET)


@pytest.mark.parametrize("path", JOBS, ids=os.path.basename)
def test_job_is_valid_by_lavas_schema(path):
    job = _load(path)
    schemas.validate(job, strict=True)
    # The validator is live: the same job with a boot method LAVA does
    # not have is refused.
    bad = copy.deepcopy(job)
    for action in bad["actions"]:
        if "boot" in action:
            action["boot"]["method"] = "no-such-method"
    with pytest.raises(Exception):
        schemas.validate(bad, strict=True)


def _monitor_results(monitor, out):
    """What LAVA's monitor makes of the console output: the text between
    start and end, each pattern match a case (the id lowercased, each run
    of non-word characters one underscore), its result through fixupdict."""
    start = out.index(monitor["start"])
    end = out.index(monitor["end"], start)
    results = {}
    for m in re.finditer(monitor["pattern"], out[start:end]):
        case = re.sub(r"\W+", "_", m.group("test_case_id").strip().lower())
        assert case not in results, "two results for case %s" % case
        results[case] = monitor["fixupdict"].get(m.group("result"), m.group("result"))
    return results


@pytest.mark.parametrize("path", JOBS, ids=os.path.basename)
def test_monitor_reads_every_selftest_line(path, selftest_boot, request):
    target = JOB_TARGET[os.path.basename(path)]
    wanted = request.config.getoption("--target")
    if wanted and target not in wanted:
        pytest.skip("target %s not selected" % target)
    job = _load(path)
    monitors = [m for a in job["actions"] if "test" in a for m in a["test"]["monitors"]]
    assert len(monitors) == 1
    # The jobs boot with `selftest` and no -icount, as this boot does.
    status, out = selftest_boot(target, append="selftest", icount=False)
    out = out.replace("\r", "")
    results = _monitor_results(monitors[0], out)
    total, failures, skipped = map(int, SUMMARY.search(out).groups())
    assert len(results) == total, out
    assert set(results.values()) <= {"fail", "pass", "skip"}
    assert list(results.values()).count("fail") == failures
    assert list(results.values()).count("skip") == skipped
