"""docs/python-api.md: every example runs, in order, in one namespace, as a reader would
paste them (the printed results in its comments are checked where they are exact)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[1] / "docs" / "python-api.md"


def blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)


def test_every_example_of_the_python_api_runs():
    found = blocks()
    assert len(found) >= 8
    namespace: dict = {}
    printed = io.StringIO()
    for number, code in enumerate(found, 1):
        with contextlib.redirect_stdout(printed):
            exec(compile(code, f"{DOC.name} example {number}", "exec"), namespace)
    out = printed.getvalue()
    from gridgames.registry import default_games

    for expected in (str(list(default_games())),
                     "width=9,height=6,line=5", "trilobite:width=7,height=6,line=4:7/7/7/7/7/7",
                     "It's Red's turn", "['a1', 'b2']", "refused:", "illegal:", "None None",
                     "True -1", "14 proven", "won", "(6, 7, 2) [1 1 1 1 1 1 1]", "-1.0"):
        assert expected in out, expected


# --- every page of docs/ and the README: links, commands and figures that can be checked ---

ROOT = DOC.parents[1]
PAGES = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").rglob("*.md"))]


def test_every_relative_link_and_named_file_exists():
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)#:]+)\)", text):
            assert (page.parent / target).exists(), f"{page.name}: link to {target}"
        for name in re.findall(r"\b((?:bench|tests|examples|docs)/[\w/.-]+\.(?:py|md))", text):
            assert (ROOT / name).exists(), f"{page.name} names {name}"


def test_every_benchmark_option_the_docs_give_exists():
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for script, args in re.findall(r"python (bench/\w+\.py)([^`\n]*)", text):
            source = (ROOT / script).read_text(encoding="utf-8")
            for option in re.findall(r"--[\w-]+", args):
                assert f'"{option}"' in source, f"{page.name}: {script} has no {option}"


FIGURE = r"\d[\d.,]*\s*(?:%|s|ms|us|ns|MB|GB|KB|kB|M|k)?"


def test_no_page_narrates_before_and_after_outside_the_changelog():
    """Figures are stated as today's facts; how they changed is CHANGELOG.md's job."""
    arrow = re.compile(rf"{FIGURE}\s*(?:->|→)\s*{FIGURE}")
    for page in PAGES:
        if page.name == "CHANGELOG.md":
            continue
        text = re.sub(r"\s+", " ", page.read_text(encoding="utf-8"))
        assert not arrow.search(text), f"{page.name}: {arrow.search(text)[0]!r}"
        before = re.search(rf"\(before[:,]? {FIGURE}|{FIGURE} before[),;.]", text)
        assert not before, f"{page.name}: {before[0]!r}"


MACHINE = ROOT / "docs" / "machine-play.md"


def test_the_polar_lines_in_machine_play_win_with_the_pushes_and_moves_stated():
    from gridgames.games.polar.game import line_pushes
    from gridgames.games.polar.packs import builtin_pack

    levels = builtin_pack("original")
    lines = re.findall(r"^level (\d) \((\d+) pushes, (\d+) moves\): ([UDLR]+)$",
                       MACHINE.read_text(encoding="utf-8"), re.M)
    assert len(lines) >= 8
    for number, pushes, moves, line in lines:
        assert line_pushes(levels[int(number) - 1], line) == int(pushes), number
        assert len(line) == int(moves), number


def test_the_polar_table_agrees_with_the_original_pack():
    from gridgames.games.polar.packs import builtin_pack

    rows = re.findall(r"^\| (\d) \| (\d+), proven \|", MACHINE.read_text(encoding="utf-8"),
                      re.M)
    assert [number for number, _ in rows] == ["1", "2", "3", "4"]
    levels = builtin_pack("original")
    for number, pushes in rows:
        assert levels[int(number) - 1].info.get("pushes") == pushes, number


def test_the_trilobite_book_is_as_machine_play_describes_it():
    from gridgames.games.trilobite.book import Book

    book = Book.load(ROOT / "src/gridgames/games/trilobite/books/7x6-4.book")
    text = re.sub(r"\s+", " ", MACHINE.read_text(encoding="utf-8"))
    assert f"{len(book):,} positions, {round(len(book.to_bytes()) / 1000)} kB" in text
    scores = " ".join(map(str, book.column_scores(0, 0, 0)))
    assert f"The empty board's scores are {scores}." in text
