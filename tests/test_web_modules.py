"""The page's JavaScript modules (web/static/js) and the games' renderers: each small, with
one job; the game page's state in one object (page.js) and no other module-level state (a
renderer keeps its board's in the board); every import names something its module exports."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

JS = Path(__file__).resolve().parents[1] / "src" / "gridgames" / "web" / "static" / "js"
GAMES = Path(__file__).resolve().parents[1] / "src" / "gridgames" / "games"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
MODULES = sorted(JS.glob("*.js"))
RENDERERS = sorted([*GAMES.glob("*/*.js"), *EXAMPLES.glob("*/src/*/*.js")])
MAX_LINES = 300
STATE = "page.js"
WORKER = "sw.js"
IMPORT = re.compile(r'^import\s*\{([^}]*)\}\s*from\s*"\./([\w-]+\.js)";', re.M)


def top_level_state(text: str) -> list[str]:
    """Top-level statements that hold state: `let`, `var`, or a container made at load time.
    The modules' style puts nothing but top-level code in column one."""
    return [line for line in text.splitlines()
            if re.match(r"(export\s+)?(let|var)\b", line)
            or re.match(r"(export\s+)?const\s+\w+\s*=\s*new\s+(Map|Set|WeakMap|WeakSet)\b", line)]


def exported(text: str) -> set[str]:
    names = set(re.findall(r"^export\s+(?:async\s+)?(?:function|class|const|let)\s+([\w$]+)",
                           text, re.M))
    for group in re.findall(r"^export\s*\{([^}]*)\}", text, re.M):
        names |= {part.split(" as ")[-1].strip() for part in group.split(",") if part.strip()}
    return names


def test_the_modules_are_found():
    assert {"shell.js", STATE, "stones.js"} <= {p.name for p in MODULES}
    assert {"ishido.js", "ishido-look.js", "lightsout.js", "dotsandboxes.js"} <= \
        {p.name for p in RENDERERS}


@pytest.mark.parametrize("path", MODULES + RENDERERS, ids=[p.name for p in MODULES + RENDERERS])
def test_no_module_is_over_300_lines(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.name}: {lines} lines"


# The service worker runs apart from every page: what it holds is its own.
PAGE_MODULES = [p for p in MODULES + RENDERERS if p.name not in (STATE, WORKER)]


@pytest.mark.parametrize("path", PAGE_MODULES, ids=[p.name for p in PAGE_MODULES])
def test_no_module_keeps_state_of_its_own(path):
    held = top_level_state(path.read_text(encoding="utf-8"))
    assert not held, f"{path.name}: module-level state {held} (the page's belongs in {STATE})"


def test_the_page_state_is_one_object():
    text = (JS / STATE).read_text(encoding="utf-8")
    assert top_level_state(text) == []
    assert re.findall(r"^export const (\w+) = \{", text, re.M) == ["page"]


def test_the_state_check_sees_state():
    """The check above is not blind: it finds each kind of module-level state."""
    assert top_level_state("let a = 1;\n  let inner = 2;\nvar b;\nexport let c = 3;\n"
                           "const d = new Map();\nconst E = 4;\n") == [
        "let a = 1;", "var b;", "export let c = 3;", "const d = new Map();"]


@pytest.mark.parametrize("path", MODULES + RENDERERS, ids=[p.name for p in MODULES + RENDERERS])
def test_every_import_is_exported(path):
    for names, source in IMPORT.findall(path.read_text(encoding="utf-8")):
        target = path.parent / source
        assert target.exists(), f"{path.name} imports {source}, which is not there"
        have = exported(target.read_text(encoding="utf-8"))
        for name in (n.split(" as ")[0].strip() for n in names.split(",") if n.strip()):
            assert name in have, f"{path.name} imports {name} from {source}: not exported"
