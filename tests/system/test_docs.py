"""The documentation holds together on the host, with no QEMU: every
relative link in README.md and docs/**/*.md names a file of this repository
(and, with #anchor, a heading or an explicit anchor of that file), none
leaves the repository, and the README stays short and starts with the map
of the tree.  The checker is run against a broken copy too, so it is known
to fail when a link breaks."""
import glob
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

README_MAX_LINES = 160

FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.M | re.S)
# A code span: a run of backticks up to the same run, not across a blank line.
CODE_SPAN = re.compile(r"(`+)(?:(?!\n[ \t]*\n).)*?\1", re.S)
LINK = re.compile(r"!?\[([^\]]*)\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REF_DEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$", re.M)
HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$", re.M)
HTML_ANCHOR = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"", re.I)
EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def _blank(match):
    """Keep newlines (for line numbers) and drop everything else."""
    return re.sub(r"[^\n]", " ", match.group(0))


def strip_code(text):
    return CODE_SPAN.sub(_blank, FENCE.sub(_blank, text))


def slug(heading):
    """GitHub's anchor for a heading: its text without markup, lower case,
    punctuation other than - and _ dropped, spaces made hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.replace("`", "").replace("*", "")
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    text = FENCE.sub(_blank, open(path, encoding="utf-8").read())
    seen = {}
    found = set(HTML_ANCHOR.findall(text))
    for _, title in HEADING.findall(text):
        base = slug(title)
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else "%s-%d" % (base, n))
    return found


def doc_files(root):
    files = [os.path.join(root, "README.md")]
    files += glob.glob(os.path.join(root, "docs", "**", "*.md"), recursive=True)
    return sorted(f for f in files if os.path.isfile(f))


def links(path):
    """(line, target) of every link in the file outside code."""
    text = strip_code(open(path, encoding="utf-8").read())
    for m in list(LINK.finditer(text)) + list(REF_DEF.finditer(text)):
        target = m.group(2) if m.re is LINK else m.group(1)
        yield text.count("\n", 0, m.start()) + 1, target


def problems(root):
    """One line per broken link, naming the file, line and why."""
    root = os.path.realpath(root)
    out = []
    cache = {}
    for path in doc_files(root):
        rel = os.path.relpath(path, root)
        for line, target in links(path):
            where = "%s:%d: (%s)" % (rel, line, target)
            if EXTERNAL.match(target):
                continue
            if not target:
                out.append(where + " empty link")
                continue
            name, _, anchor = target.partition("#")
            dest = path if not name else os.path.realpath(
                os.path.join(os.path.dirname(path), name))
            if dest != root and not dest.startswith(root + os.sep):
                out.append(where + " leaves the repository")
                continue
            if not os.path.exists(dest):
                out.append(where + " no such file")
                continue
            if anchor:
                if not dest.endswith(".md") or os.path.isdir(dest):
                    out.append(where + " anchor into a file that is not markdown")
                    continue
                if dest not in cache:
                    cache[dest] = anchors(dest)
                if anchor not in cache[dest]:
                    out.append(where + " no heading for #" + anchor)
    return out


def readme_problems(root):
    text = open(os.path.join(root, "README.md"), encoding="utf-8").read()
    out = []
    lines = text.count("\n") + (0 if text.endswith("\n") else 1)
    if lines > README_MAX_LINES:
        out.append("README.md has %d lines, more than %d" % (lines, README_MAX_LINES))
    sections = [t for level, t in HEADING.findall(FENCE.sub(_blank, text)) if len(level) == 2]
    if not sections or "map" not in sections[0].lower():
        out.append("README.md does not start with the map of the tree (first section: %r)"
                   % (sections[0] if sections else None))
    return out


def test_every_doc_link_resolves():
    assert len(doc_files(ROOT)) > 1, "no docs/*.md found"
    assert problems(ROOT) == []


def test_readme_is_short_and_starts_with_the_map():
    assert readme_problems(ROOT) == []


def test_no_doc_cites_design_notes_outside_the_repository():
    for path in doc_files(ROOT):
        text = open(path, encoding="utf-8").read()
        assert "shared/design" not in text, os.path.relpath(path, ROOT)


def test_the_checker_fails_on_a_broken_tree(tmp_path):
    docs = tmp_path / "docs"
    (docs / "design").mkdir(parents=True)
    (docs / "a.md").write_text(
        "# A\n\n## Two words, `code` (x)\n\n## Same\n\n## Same\n\n"
        "[ok](#two-words-code-x) [ok](#same-1) [ok](design/b.md#b)\n"
        "[ok, over\ntwo lines](../README.md#map-of-the-tree) [web](https://example.org/x)\n"
        "`[not a link](missing.md)`\n\n```\n[not a link](missing.md)\n```\n")
    (docs / "design" / "b.md").write_text("# B\n\n[up](../a.md#same)\n")
    good = "# T\n\n## Map of the tree\n\n[a](docs/a.md)\n"
    (tmp_path / "README.md").write_text(good)
    assert problems(str(tmp_path)) == []
    assert readme_problems(str(tmp_path)) == []

    (docs / "c.md").write_text(
        "[gone](nothing.md)\n[bad anchor](a.md#nowhere)\n[dup](a.md#same-2)\n"
        "[out](../../elsewhere.md)\n[empty]()\n")
    found = problems(str(tmp_path))
    assert found == ["docs/c.md:1: (nothing.md) no such file",
                     "docs/c.md:2: (a.md#nowhere) no heading for #nowhere",
                     "docs/c.md:3: (a.md#same-2) no heading for #same-2",
                     "docs/c.md:4: (../../elsewhere.md) leaves the repository",
                     "docs/c.md:5: () empty link"]

    (tmp_path / "README.md").write_text("# T\n\n## Other\n\n" + "x\n" * README_MAX_LINES)
    found = readme_problems(str(tmp_path))
    assert len(found) == 2
    assert found[0].startswith("README.md has %d lines" % (README_MAX_LINES + 4))
    assert found[1].startswith("README.md does not start with the map")
