"""The console reference's command table (docs/console.md, linked from the
README) says what `help` says: no more, no less.

A command that exists on one machine only is marked in that table with
"(x86_64 only)" or "(mips only)" after its summary; one that exists on
both with different summaries has a row for each machine.
"""
import os
import re

from tally_console import ROOT

ONLY = re.compile(r"^(.*?) \((x86_64|mips) only\)$")


def readme_commands():
    text = open(os.path.join(ROOT, "docs", "console.md")).read()
    block = text.split("<!-- commands:")[1].split("<!-- end commands -->")[0]
    return re.findall(r"^\| `([^`]+)` \| (.+?) \|$", block, re.M)


def test_readme_lists_exactly_the_help_commands(console, target):
    arch = "mips" if target.startswith("mips") else "x86_64"
    out = console.run("help")
    helped = {n: s.strip() for n, s in re.findall(r"^  (\S+)\s+(.+)$", out, re.M)}
    expected = {}
    for name, summary in readme_commands():
        m = ONLY.match(summary)
        if m and m.group(2) != arch:
            continue
        assert name not in expected, "two rows for %s on %s" % (name, arch)
        expected[name] = m.group(1) if m else summary
    assert sorted(expected) == sorted(helped)
    for name, summary in helped.items():
        assert expected[name] == summary, name
