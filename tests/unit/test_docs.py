"""The README and docs/ stay readable and whole: the README is short enough to be read at a
table, and every link in it and in docs/ leads somewhere (a file, and a heading when it names
one)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted(
    [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *(ROOT / "docs").glob("*.md")]
    + [ROOT / "scorekeeper" / "vision" / "README.md"]
)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def github_slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to dashes."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return {github_slug(m.group(1)) for m in re.finditer(r"^#+ (.+)$", text, re.M)}


def links(path: Path) -> list[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return LINK.findall(text) + re.findall(r'<img[^>]+src="([^"]+)"', text)


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_resolves(doc: Path) -> None:
    broken = []
    for target in links(doc):
        if re.match(r"^[a-z]+:", target):  # http:, https:, mailto: are not checked here
            continue
        file_part, _, anchor = target.partition("#")
        destination = (doc.parent / file_part).resolve() if file_part else doc
        if not destination.exists():
            broken.append(f"{target}: no such file")
        elif anchor and destination.suffix == ".md" and anchor not in anchors(destination):
            broken.append(f"{target}: no heading #{anchor}")
    assert not broken, f"{doc.relative_to(ROOT)}: {broken}"


def test_the_readme_is_short_enough_to_read_at_a_table() -> None:
    words = len(ROOT.joinpath("README.md").read_text(encoding="utf-8").split())
    assert words <= 1500, f"README.md has {words} words; move detail under docs/"


def test_the_checker_finds_a_broken_link(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# Title\n\n[b](b.md) [self](#title) [gone](#nothing)\n")
    (tmp_path / "b.md").write_text("# B\n")
    assert links(tmp_path / "a.md") == ["b.md", "#title", "#nothing"]
    assert anchors(tmp_path / "a.md") == {"title"}
    assert "nothing" not in anchors(tmp_path / "a.md")
