"""Comments and docstrings in src/ say what the code is and does, not its history: no
before -> after figure, no "before" figure, no citation of an issue; a module docstring says
what the module is for in a few lines (the detail lives in docs/); and a pointer from a
docstring to a docs page section names one that exists."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "gridgames"
MAX_MODULE_DOCSTRING = 12

# What still fails here, in files another part of the same change is rewriting (their
# rewrite shortens or rewords them): (test, file).
FIGURE = r"\d[\d.,]*\s*(?:%|s|ms|us|µs|ns|MB|GB|KB|kB|KiB|M|k|x)?"
HISTORY = {
    "a before -> after figure": re.compile(rf"{FIGURE}\s*(?:->|→)\s*{FIGURE}"),
    "a figure from before": re.compile(
        rf"\(before[:,]? {FIGURE}|{FIGURE} before[),;.]|\bbefore: {FIGURE}"),
    "an issue": re.compile(r"\bissues?\b", re.I),
}


def python_texts(path: Path) -> list[tuple[int, str]]:
    """(line, text) of every comment and docstring of a Python file."""
    source = path.read_text(encoding="utf-8")
    found = [(tok.start[0], tok.string)
             for tok in tokenize.generate_tokens(io.StringIO(source).readline)
             if tok.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                found.append((node.body[0].lineno, doc))
    return found


def script_texts(path: Path) -> list[tuple[int, str]]:
    """(line, text) of every comment of a JavaScript or CSS file (// and /* */)."""
    source = path.read_text(encoding="utf-8")
    pattern = r"/\*.*?\*/" if path.suffix == ".css" else r"/\*.*?\*/|(?<![:\"'\\])//[^\n]*"
    return [(source.count("\n", 0, m.start()) + 1, m[0])
            for m in re.finditer(pattern, source, re.S)]


def name(path: Path) -> str:
    return path.relative_to(SRC).as_posix()


def cases(paths: list[Path]) -> list:
    return [pytest.param(path, id=name(path)) for path in paths]


PYTHON = sorted(SRC.rglob("*.py"))
SCRIPTS = sorted([*SRC.rglob("*.js"), *SRC.rglob("*.css")])


def history_in(texts: list[tuple[int, str]]) -> list[str]:
    found = []
    for line, text in texts:
        flat = re.sub(r"\s+", " ", text)
        for what, pattern in HISTORY.items():
            hit = pattern.search(flat)
            if hit:
                found.append(f"line {line}: {what}: {hit[0]!r}")
    return found


@pytest.mark.parametrize("path", cases(PYTHON))
def test_no_python_comment_or_docstring_tells_history(path):
    assert not history_in(python_texts(path))


@pytest.mark.parametrize("path", cases(SCRIPTS))
def test_no_script_comment_tells_history(path):
    assert not history_in(script_texts(path))


@pytest.mark.parametrize("path", cases(PYTHON))
def test_module_docstrings_are_a_few_lines(path):
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    lines = len(doc.strip().splitlines())
    assert lines <= MAX_MODULE_DOCSTRING, f"{lines} lines: move the detail into docs/"


def test_the_history_patterns_catch_what_they_are_for():
    for text in ("proven in 64 s -> 28 s", "a distance of 10 (8.6 before)", "as in the issue",
                 "p99 260-300 → 75-85 ms", "(before: 36 ms)"):
        assert history_in([(1, text)]), text
    for text in ("ends 5% before its seconds", "A -> B", "the cell before it"):
        assert not history_in([(1, text)]), text


POINTER = re.compile(r"(docs/[\w/-]+\.md) \(\"([^\"]+)\"\)")


def test_every_pointer_to_a_docs_section_finds_it():
    pointers = 0
    for path in PYTHON:
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        for page, section in POINTER.findall(re.sub(r"\s+", " ", doc)):
            pointers += 1
            headings = re.findall(r"^#+ (.+)$", (ROOT / page).read_text(encoding="utf-8"),
                                  re.M)
            assert section in headings, f"{name(path)}: {page} has no section {section!r}"
    assert pointers >= 10


# Written so that this file does not name them itself: [N], [e], [s] match one letter.
OUTSIDE = re.compile(r"\b\d{3}_[0-9a-f]{16}\.txt\b|\bDESIG[N]\.md\b|\.\./shar[e]d\b"
                     r"|/work/shar[e]d\b|\bseed[s]? README\b|\bthe data README\b")


def test_nothing_cites_a_document_outside_the_repository():
    """The games' sources are described in docs/rules/<game>.md: code, tests and benchmarks
    cite that, not the documents the project started from."""
    made_up = "123_" + "0123456789abcdef" + ".txt"  # a name of the seeds' shape, no seed's
    assert OUTSIDE.search(f"from the source `{made_up}`")
    for named in ("DESIG" + "N.md", "../" + "shar" + "ed/x", "/work/" + "shar" + "ed",
                  "the se" + "eds README"):
        assert OUTSIDE.search(named), named
    found = []
    for folder in ("src", "tests", "bench", "examples", "docs"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in {".py", ".js", ".css", ".md", ".txt", ".html"}:
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if OUTSIDE.search(line) and path != Path(__file__):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)
