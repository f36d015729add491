"""docs/rules/<game>.md: one for every built-in game the registry finds, each naming its source
and the facts the code takes from it; the facts cheap to compute are checked against the code
here, so a change to either side that breaks the other fails."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gridgames.registry import default_games

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules"
BUILTINS = [name for name, game in default_games().items()
            if type(game).__module__.startswith("gridgames.games.")]
SECTIONS = ("## Source", "## The rules", "## Facts taken from the source",
            "## Where the code differs from the source")


def doc(name: str) -> str:
    return (RULES / f"{name}.md").read_text(encoding="utf-8")


def flat(text: str) -> str:
    """The text with runs of white space as one space (the docs wrap their lines)."""
    return re.sub(r"\s+", " ", text)


def test_the_registry_has_the_built_ins():
    assert len(BUILTINS) >= 5


@pytest.mark.parametrize("name", BUILTINS)
def test_each_built_in_game_has_its_rules_page(name):
    path = RULES / f"{name}.md"
    assert path.is_file(), f"{path.relative_to(ROOT)} is missing"
    text = doc(name)
    for section in SECTIONS:
        assert section in text, f"{name}: no {section!r}"
    assert f"src/gridgames/games/{name}/" in text
    source = text.split("## Source", 1)[1].split("\n## ", 1)[0]
    assert len(source.split()) >= 25, f"{name}: the source is not described"


def test_no_rules_page_for_a_game_that_does_not_exist():
    pages = {path.stem for path in RULES.glob("*.md")}
    assert pages <= set(BUILTINS), pages - set(BUILTINS)


def test_tictactoe_facts():
    from gridgames.core.stones import DRAW_MESSAGE
    from gridgames.games.tictactoe.game import GRID

    game = default_games()["tictactoe"]
    text = flat(doc("tictactoe"))
    assert f"{GRID.rows} rows x {GRID.cols} columns" in text
    assert game.line_length(None) == 3 and "3 in a row" in text
    state = game.new_state(game.params_type(), game.new_desc(game.params_type(), None))
    assert game.status(state).message == "It's X's turn" and "`It's X's turn`" in text
    for move in ("a1", "b1", "a2", "b2", "a3"):
        state = game.apply(state, move)
    assert game.status(state).message == "X wins!" and "`X wins!`" in text
    assert f"`{DRAW_MESSAGE}`" in text


def test_trilobite_facts():
    from gridgames.core.grid import RAY_DIRECTIONS, Grid

    text = doc("trilobite")
    names = {(0, -1): "left", (0, 1): "right", (-1, 0): "up", (1, 0): "down",
             (-1, -1): "left-up", (1, 1): "right-down", (1, -1): "left-down",
             (-1, 1): "right-up"}
    assert ", ".join(names[d] for d in RAY_DIRECTIONS) in flat(text)
    grid = Grid(10, 10)
    for cell in (44, 32, 29):
        rays = " | ".join(" ".join(map(str, ray)) for ray in grid.rays(cell, 4))
        assert f"| {cell} | {rays} |".replace("|  |", "| |") in text, cell
    params = default_games()["trilobite"].params_type()
    assert f"{params.width} columns x {params.height} rows, line {params.line}" in flat(text)


def test_ishido_facts():
    from gridgames.games.ishido import game as ishido

    text = flat(doc("ishido"))
    assert f"{ishido.ROWS} rows x {ishido.COLS} columns" in text
    assert f"{ishido.COLOURS} colours x {ishido.IMAGES} images = {ishido.KINDS} kinds, " \
           f"{ishido.COPIES} of each: {ishido.POUCH_SIZE}" in text
    cells = [ishido.GRID.row_col(c) for c in ishido.OPENING_CELLS]
    assert ", ".join(f"({col},{row})" for row, col in cells) in text
    assert ", ".join(ishido.GRID.cell_name(c) for c in ishido.OPENING_CELLS) in text
    points = [ishido.placement_points(ishido.SEED, 0, n, 0) for n in (1, 2, 3, 4)]
    assert f"{', '.join(map(str, points))} for 1, 2, 3, 4 neighbours" in text
    game = default_games()["ishido"]
    done = ishido.make_state(game.params_type(), (ishido.EMPTY,) * ishido.GRID.size, ())
    # The source's end words, kept at the start of the status (the score follows).
    assert "`Game Over. You Win!`" in text and "`Game Over`" in text
    assert game.status(done).message.startswith("Game Over. You Win!")


def test_ishido_colours_and_birds_are_the_pages():
    page = (ROOT / "src/gridgames/games/ishido/ishido-look.js").read_text(encoding="utf-8")
    text = doc("ishido")
    tol = re.findall(r"#[0-9A-F]{6}", text.split("Paul Tol's", 1)[1].split("|", 1)[0])
    assert len(tol) == 6
    bright = re.search(r"bright: \{[^}]*colours: \[([^\]]*)\]", page)[1]
    used = re.findall(r"#[0-9A-F]{6}", bright)
    # One colour is changed on purpose, and the doc says which.
    changed = [(a, b) for a, b in zip(tol, used, strict=True) if a != b]
    assert len(changed) == 1 and f"`{changed[0][1]}`" in text
    birds = re.search(r"birds: \{[^}]*glyphs: \[([^\]]*)\]", page)[1]
    codes = [f"U+{c.upper()}" for c in re.findall(r"\\u\{([0-9A-Fa-f]+)\}", birds)]
    assert ", ".join(codes) in text


def test_polar_facts():
    from gridgames.games.polar import board, packs

    text = flat(doc("polar"))
    assert f"{board.ROWS} rows x {board.COLS} columns ({board.GRID.size} cells)" in text
    assert ", ".join(f"{board.NAMES[c]} {c}" for c in range(7)) in text
    assert f"{packs.STGE_WORDS} 16-bit words" in text
    level = packs.builtin_pack("original")[0]
    row, col = divmod(level.penguin, board.COLS)
    assert f"penguin at column {col}, row {row} (on a tree), {level.hearts} hearts" in text
    assert level.board[level.penguin] == board.TREE
    dump, rows = re.findall(r"```\n(.*?)```", doc("polar"), re.S)
    assert len(dump.split()) == packs.STGE_WORDS
    decoded = packs.stge_from_hex(dump)
    assert (decoded.board, decoded.penguin, decoded.hearts) == \
        (level.board, level.penguin, level.hearts)
    assert rows.split() == packs.format_level_rows(level.board, level.penguin)


def test_twomino_facts():
    from gridgames.games.twomino import layout as board

    text = flat(doc("twomino"))
    names = [board.pair_name(i) for i in range(board.pair_count(3))]
    assert ", ".join(names) in text
    assert f"N from {board.MIN_N} to {board.MAX_N}" in text
    lay = board.layout(5)
    assert (lay.grid.rows, lay.grid.cols) == (6, 5) and "N+1 rows x N columns" in text
    assert "N²/4" in text


def test_polar_original_levels_facts():
    from gridgames.games.polar import board, packs

    text = flat(doc("polar"))
    levels = packs.builtin_pack("original")
    assert ", ".join(str(lv.hearts) for lv in levels) + "." in text
    assert all(lv.hearts == lv.board.count(board.HEART) for lv in levels)
    fifth = levels[4]
    assert divmod(fifth.penguin, board.COLS) == (1, 0) and "Level 5 has 0, 1" in text


def test_ishido_classic_scoring_is_as_the_page_says():
    from gridgames.games.ishido import game as ishido

    text = flat(doc("ishido"))
    assert ", ".join(map(str, ishido.FOURWAY_BONUS)) + "." in text
    bonus = ishido.END_BONUS
    assert (f"{bonus[0]} points when every tile was placed, {bonus[1]} with one left, "
            f"{bonus[2]} with two") in text
    edge = next(iter(ishido.EDGE))
    assert ishido.placement_points(ishido.CLASSIC, edge, 2, 0) == 0
    inner = ishido.GRID.index(3, 3)
    assert ishido.placement_points(ishido.CLASSIC, inner, 3, 1) == 8
