"""The renderer contract (docs/adding-a-game.md, section 5) is what the page uses: every
member of the board object and every createBoard option the page's modules use is
documented, every documented one is used, and every renderer has the members the page calls."""

from __future__ import annotations

import re
from pathlib import Path

from gridgames.registry import default_games

ROOT = Path(__file__).resolve().parents[1]
JS = ROOT / "src" / "gridgames" / "web" / "static" / "js"
DOC = ROOT / "docs" / "adding-a-game.md"
# The page's own modules; stones*.js and svg.js are renderer code the page serves.
PAGE = [p for p in sorted(JS.glob("*.js")) if not p.name.startswith(("stones", "svg"))]
REQUIRED = ["render", "setEnabled", "moveCursor", "activate", "pressKey", "destroy"]


def section_5() -> str:
    text = DOC.read_text(encoding="utf-8")
    return text[text.index("## 5. The renderer"):text.index("## 6.")]


def documented_members() -> set[str]:
    rows = re.findall(r"^\| `(\w+)", section_5(), re.M)
    assert rows, "no member table in section 5"
    return set(rows)


def documented_options() -> set[str]:
    paragraph = section_5().split("- `createBoard(container, options)`", 1)[1].split("\n- ")[0]
    return set(re.findall(r"`(\w+)(?:\([^`]*\))?`", paragraph)) - {"options", "container",
                                                                   "analyzer"}


def used_members() -> set[str]:
    text = "\n".join(p.read_text(encoding="utf-8") for p in PAGE)
    return set(re.findall(r"\bboard\??\.(\w+)", text))


def used_options() -> set[str]:
    text = "\n".join(p.read_text(encoding="utf-8") for p in PAGE)
    call = re.search(r"createBoard\(\$\(\"board\"\), \{(.*?)\n  \}\);", text, re.S)
    assert call, "the page's createBoard call was not found"
    return set(re.findall(r"(\w+):", call.group(1)))


def test_every_member_the_page_uses_is_documented_and_no_other():
    used, documented = used_members(), documented_members()
    assert {"render", "claims", "digitKeys", "extraKeys", "layout"} <= used
    assert used == documented, (f"used, not documented: {sorted(used - documented)}; "
                                f"documented, not used: {sorted(documented - used)}")


def test_every_option_the_page_passes_is_documented_and_no_other():
    used, documented = used_options(), documented_options()
    assert "onMove" in used
    assert used == documented, (f"passed, not documented: {sorted(used - documented)}; "
                                f"documented, not passed: {sorted(documented - used)}")


def renderer_sources() -> dict[str, str]:
    """name -> the text of the module that makes its board (a re-export followed)."""
    sources = {}
    for name, game in default_games().items():
        text = (ROOT / "src" / "gridgames" / "games" / name / game.renderer).read_text(
            encoding="utf-8")
        shared = re.search(r'export \{[^}]*\} from "/static/js/([\w-]+\.js)"', text)
        sources[name] = (JS / shared.group(1)).read_text(encoding="utf-8") if shared else text
    sources["lightsout"] = (ROOT / "examples" / "lightsout" / "src" / "gridgames_lightsout"
                            / "lightsout.js").read_text(encoding="utf-8")
    return sources


def test_every_renderer_has_what_the_page_calls():
    for name, text in renderer_sources().items():
        assert re.search(r"^export (async )?function createBoard\b", text, re.M), name
        assert re.search(r"^export function drawPreview\b", text, re.M), name
        board = text[text.rindex("\n  return {"):]  # the board object createBoard returns
        for member in REQUIRED:
            assert re.search(rf"^\s+(get )?{member}\b", board, re.M), f"{name}: no {member}"
        assert "focus" not in board, f"{name}: focus() is not part of the contract"
