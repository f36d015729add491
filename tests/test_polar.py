"""Polar, from its source (docs/rules/polar.md): the source's dispatch tables, level
codecs, the original levels (the game's `original` pack), dead hearts, the solver and the
CLI."""

import io
import json
import re
from pathlib import Path

import pytest

from gridgames.cli import main
from gridgames.core.errors import BadInput, IllegalMove
from gridgames.core.result import Budget
from gridgames.core.rng import Rng
from gridgames.games import polar
from gridgames.games.polar import make_game
from gridgames.games.polar.board import BOMB, EMPTY, HEART, HOUSE, ICE, MOUNTAIN, TREE
from gridgames.games.polar.board import step as GRID_STEP
from gridgames.games.polar.game import play
from gridgames.games.polar.lines import push
from gridgames.games.polar.packs import (
    Level,
    builtin_pack,
    format_level_rows,
    load_levels,
    parse_desc,
    read_original,
    read_pack,
    stge_decode,
    stge_encode,
    stge_from_hex,
    stge_to_hex,
    write_pack,
)
from gridgames.games.polar.rules import ORDER, dead_hearts
from gridgames.games.polar.solver import MOVES, PUSHES, solve
from gridgames.registry import default_games

ORIGINAL = Path(polar.__file__).parent / "levels" / "original.txt"
GAME = make_game()
# Level 1 as the Polar source prints it: 99 16-bit words in hex (docs/rules/polar.md has the
# same dump).
SEED_HEX_DUMP = (
    "0x0000 0x0000 0x0003 0x0001\n0x0000 0x0000 0x0000 0x0000\n0x0000 0x0000 0x0000 0x0000\n"
    "0x0000 0x0000 0x0000 0x0000\n0x0000 0x0000 0x0001 0x0000\n0x0000 0x0000 0x0000 0x0000\n"
    "0x0004 0x0000 0x0000 0x0001\n0x0000 0x0006 0x0000 0x0002\n0x0000 0x0005 0x0004 0x0005\n"
    "0x0000 0x0000 0x0000 0x0000\n0x0000 0x0000 0x0000 0x0000\n0x0000 0x0001 0x0000 0x0000\n"
    "0x0001 0x0000 0x0000 0x0001\n0x0000 0x0000 0x0000 0x0000\n0x0000 0x0000 0x0000 0x0000\n"
    "0x0000 0x0000 0x0000 0x0000\n0x0000 0x0000 0x0000 0x0005\n0x0000 0x0000 0x0000 0x0002\n"
    "0x0003 0x0000 0x0000 0x0001\n0x0001 0x0000 0x0000 0x0000\n0x0000 0x0001 0x0000 0x0000\n"
    "0x0000 0x0000 0x0000 0x0000\n0x0000 0x0000 0x0000 0x0000\n0x0000 0x0000 0x0000 0x0000\n"
    "0x0000 0x0000 0x0000\n")
PARAMS = GAME.parse_params("")
EMPTY_ROW = "." * 24


def state_of(rows):
    """A state from 4 rows in the level text (P marks the penguin), hearts counted."""
    return GAME.new_state(PARAMS, "/".join(rows))


def with_house(row):
    """The test rows: a house far away keeps hearts alive (rows 0 and 3 stay open)."""
    return [EMPTY_ROW, row, "." * 23 + "H", EMPTY_ROW]


# --- the source's dispatch tables (docs/rules/polar.md) ---

OTHERS = {".": EMPTY, "T": TREE, "M": MOUNTAIN, "H": HOUSE, "I": ICE, "+": HEART, "B": BOMB,
          "edge": None}
# (movable, other) -> what happens when pushed straight into it / after sliding into it.
# "crushed": the ice block vanishes; "stops": it ends next to the other; "home": the heart
# vanishes and the count goes down; "boom": bomb and mountain vanish; "nothing": no change
# (so the move is refused). The source: its collide and slide rules, and their prose.
TABLE = {
    "I": {o: ("crushed", "stops") for o in "THMIB+"} | {"edge": ("crushed", "stops")},
    "+": {o: ("nothing", "stops") for o in "TMIB+"} | {"H": ("home", "home"),
                                                       "edge": ("nothing", "stops")},
    "B": {o: ("nothing", "stops") for o in "THIB+"} | {"M": ("boom", "boom"),
                                                       "edge": ("nothing", "stops")},
}
CASES = [(m, o, mode) for m, row in TABLE.items() for o in row for mode in (0, 1)]


def row_for(movable, other, slid):
    """Penguin, movable, then the other tile: adjacent (pushed) or 3 cells on (slid)."""
    gap = 3 if slid else 0
    if other == "edge":
        start = 23 - gap
        return "." * (start - 1) + "P" + movable + "." * gap, start
    return ("P" + movable + "." * gap + other).ljust(24, "."), 1


@pytest.mark.parametrize("movable, other, slid", CASES)
def test_dispatch_table(movable, other, slid):
    text, at = row_for(movable, other, slid)
    # Row 2 ends with a heart beside a house, so every level has a heart and none is dead.
    rows = [EMPTY_ROW, text.ljust(24, "."), "." * 22 + "+H", EMPTY_ROW]
    state = state_of(rows)
    outcome = TABLE[movable][other][slid]
    if outcome == "nothing":
        with pytest.raises(IllegalMove, match="does not move"):
            GAME.apply(state, "R")
        return
    after = GAME.apply(state, "R")
    end = 24 + at + (3 if slid else 0)  # where a sliding movable stops: next to the other
    expected = list(state.board)
    expected[24 + at] = EMPTY
    if outcome == "stops":
        expected[end] = OTHERS_CODE[movable]
    elif outcome == "boom":
        expected[end + 1] = EMPTY  # the mountain
    assert list(after.board) == expected
    assert after.hearts == state.hearts - (outcome == "home")
    assert after.penguin == state.penguin  # pushing never moves the penguin


OTHERS_CODE = {"I": ICE, "+": HEART, "B": BOMB}


def test_penguin_walks_on_empty_and_trees_not_through_fixed_tiles():
    state = state_of([EMPTY_ROW, "PT.M" + "." * 20, "." * 22 + "+H", EMPTY_ROW])
    after = GAME.apply(state, "R")
    assert after.penguin == 25 and after.board[25] == TREE  # on the tree
    after = GAME.apply(after, "R")
    with pytest.raises(IllegalMove, match="mountain in the way"):
        GAME.apply(after, "R")
    edge = state_of(["P" + "." * 23, EMPTY_ROW, "." * 22 + "+H", EMPTY_ROW])
    with pytest.raises(IllegalMove, match="edge in the way"):
        GAME.apply(edge, "U")


def test_trees_block_sliding_objects():
    state = state_of(with_house("P+...T" + "." * 18))
    after = GAME.apply(state, "R")
    assert after.board[24 + 4] == HEART and after.board[24 + 1] == EMPTY


def test_heart_slides_into_a_house_and_the_level_is_won():
    state = state_of([EMPTY_ROW, "P+.....H" + "." * 16, EMPTY_ROW, EMPTY_ROW])
    after = GAME.apply(state, "R")
    assert after.hearts == 0
    assert GAME.status(after).outcome == "won"
    assert GAME.status(after).message == "Level solved in 1 move!"
    assert GAME.legal_moves(after) == []


# --- dead hearts ---

def test_a_heart_on_a_border_row_without_a_house_is_dead():
    # docs/rules/polar.md: a heart on a border row can never leave it.
    state = state_of(["...+" + "." * 20, "P" + "." * 23, "." * 10 + "H" + "." * 13, EMPTY_ROW])
    assert dead_hearts(state.board) == [3]
    assert GAME.status(state).outcome == "lost"
    assert "can no longer reach a house" in GAME.status(state).message


def test_border_heart_with_a_house_in_line_lives_unless_a_tree_is_between():
    alive = state_of(["...+......H" + "." * 13, "P" + "." * 23, EMPTY_ROW, EMPTY_ROW])
    assert dead_hearts(alive.board) == []
    walled = state_of(["...+..T...H" + "." * 13, "P" + "." * 23, EMPTY_ROW, EMPTY_ROW])
    assert dead_hearts(walled.board) == [3]
    corner = state_of(["+" + "." * 23, "P" + "." * 23, "." * 5 + "H" + "." * 18, EMPTY_ROW])
    assert dead_hearts(corner.board) == [0]


def test_a_mountain_no_bomb_can_meet_walls_a_heart_in():
    # The border heart's only line home crosses a mountain: with no bomb it stands for ever,
    # so the game is lost at once; a bomb that can reach the mountain keeps the level alive.
    no_bomb = state_of(["...+..M...H" + "." * 13, "P" + "." * 23, EMPTY_ROW, EMPTY_ROW])
    assert dead_hearts(no_bomb.board) == [3]
    assert GAME.status(no_bomb).outcome == "lost"
    bomb = state_of(["...+..M...H" + "." * 13, "P" + "." * 23, "." * 6 + "B" + "." * 17,
                     EMPTY_ROW])
    assert dead_hearts(bomb.board) == []


# --- levels and codecs ---

SEED_LEVEL_1 = [  # the source's level 1, 24 codes a row (codes 0-6, docs/rules/polar.md)
    "1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 0 0 0 0 0 4 0 0",
    "1 0 6 0 2 0 5 4 5 0 0 0 0 0 0 0 0 0 1 0 0 1 0 0",
    "1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 5 0 0 0 2 3 0 0",
    "1 1 0 0 0 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0",
]


def seed_hex_dump():
    return SEED_HEX_DUMP


def test_level_1_from_the_seed_hex_dump():
    level = stge_from_hex(seed_hex_dump())
    expected = tuple(int(v) for row in SEED_LEVEL_1 for v in row.split())
    assert level.board == expected
    assert level.penguin == 0 and level.hearts == 3  # words 0, 0 and the count 3
    assert builtin_pack()[0].board == expected  # the game ships it as level 1
    # with its shortest solution (99 moves, proven by the solver's moves search)
    assert replays_to_a_win(builtin_pack()[0].desc(), list(builtin_pack()[0].info["solution"]))
    assert len(builtin_pack()[0].info["solution"]) == 99


def test_stge_round_trips():
    level = stge_from_hex(seed_hex_dump())
    data = stge_encode(level)
    assert len(data) == 198 and stge_decode(data) == level
    assert stge_from_hex(stge_to_hex(level)) == level
    assert stge_to_hex(level).startswith("0x0000 0x0000 0x0003 0x0001")


def test_original_levels_load_with_column_then_row():
    levels = read_original(ORIGINAL.read_text(encoding="utf-8"))
    assert len(levels) == 6
    assert [lv.hearts for lv in levels] == [3, 4, 2, 7, 8, 5]  # docs/rules/polar.md's counts
    assert levels[4].penguin == 1 * 24 + 0  # level 5: words 0, 1 = column 0, row 1
    assert levels[0].board[levels[0].penguin] == TREE  # level 1 starts on a tree
    assert load_levels(ORIGINAL) == levels


def test_original_level_1_is_named_so_and_keeps_its_pack():
    """Original level 1 is in two packs, under one name for players (no STGE ID in it): the
    pack chosen is the one the game says it is, and each figure it shows has its level's
    fewest moves and pushes."""
    assert builtin_pack()[0].name == "Original level 1"
    assert [lv.name for lv in builtin_pack("original")] == \
        [f"Original level {n}" for n in range(1, 7)]
    desc = builtin_pack()[0].desc()
    for pack, best in (("gridgames", "99"), ("original", None)):
        view = GAME.view(GAME.new_state(GAME.parse_params(f"pack={pack},level=1"), desc))
        assert (view["pack"], view["level"], view["name"]) == (pack, 1, "Original level 1")
        assert (view["best"], view["fewest_pushes"]) == (best, "14")
    # A level from elsewhere still finds its pack by its board.
    state = GAME.new_state(GAME.parse_params("pack=expert,level=3"), desc)
    assert (state.pack, state.number) == ("gridgames", 1)


def test_packs_and_descs_round_trip():
    levels = list(builtin_pack())
    again = read_pack(write_pack(levels))
    assert [lv.board for lv in again] == [lv.board for lv in levels]
    assert [lv.name for lv in again] == [lv.name for lv in levels]
    for level in levels:
        assert parse_desc(level.desc()) == level.__class__("", level.board, level.penguin,
                                                           level.hearts)


@pytest.mark.parametrize("data, message", [
    (b"\x00" * 10, "198 bytes"),
    (b"\x00\x30" + b"\x00" * 196, "off the 24x4 board"),
    (b"\x00\x00\x00\x00\x00\x01" + b"\x00\x09" + b"\x00" * 190, "not a tile"),
    (b"\x00\x00\x00\x00\x00\x02" + b"\x00\x00\x00\x05" + b"\x00" * 188,
     "heart count 2 but 1"),
    (b"\x00\x00\x00\x00\x00\x01" + b"\x00\x02" + b"\x00\x05" + b"\x00" * 188, "penguin"),
])
def test_bad_stge_records(data, message):
    with pytest.raises(BadInput, match=message):
        stge_decode(data)


@pytest.mark.parametrize("text, message", [
    ("", "no levels"),
    ("P" + "." * 23, "rows before any 'level: NAME'"),
    ("level: a\nP...\n", "4 rows of 24, not 1 rows"),
    ("level: a\n" + "P+" + "." * 20 + "\n" + ("." * 24 + "\n") * 3, "row 1 has 22 cells"),
    ("level: a\n" + ("." * 24 + "\n") * 4, "one penguin"),
    ("level: a\n" + "P" + "." * 23 + "\n" + ("." * 24 + "\n") * 3, "at least one heart"),
    ("level: a\n" + "P+" + "X" * 22 + "\n" + ("." * 24 + "\n") * 3, "has 'X'"),
    ("level: a\n" + ("." * 24 + "\n") * 3, "4 rows"),
])
def test_bad_packs(text, message):
    with pytest.raises(BadInput, match=message):
        read_pack(text)


def test_load_levels_formats(tmp_path):
    level = stge_from_hex(seed_hex_dump())
    (tmp_path / "one.stge").write_bytes(stge_encode(level))
    (tmp_path / "one.hex").write_text(stge_to_hex(level))
    (tmp_path / "pack.txt").write_text(write_pack([level]))
    for name in ("one.stge", "one.hex", "pack.txt"):
        assert load_levels(tmp_path / name)[0].board == level.board
    with pytest.raises(BadInput, match="cannot read"):
        load_levels(tmp_path / "missing.txt")
    (tmp_path / "junk.bin").write_bytes(bytes(range(256)))
    with pytest.raises(BadInput, match="not a level file"):
        load_levels(tmp_path / "junk.bin")


def test_builtin_levels_are_solvable_and_ordered():
    levels = builtin_pack()
    assert len(levels) >= 21
    ours = levels[1:]  # level 1 is the original's; ours follow, easiest first
    difficulty = [(int(lv.info["pushes"]), int(lv.info["best"].rstrip("+"))) for lv in ours]
    assert difficulty == sorted(difficulty)  # ordered by difficulty
    for level in ours:  # every stored solution really solves its level
        assert replays_to_a_win(level.desc(), list(level.info["solution"]))
        assert len(level.info["solution"]) == int(level.info["best"].rstrip("+"))
    for level in ours[:6]:  # and the solver finds the recorded figures again
        found = solve(level.board, level.penguin, PUSHES, max_seconds=30)
        assert found.pushes == int(level.info["pushes"]) and found.optimal


# --- solver ---

def replays_to_a_win(desc, moves):
    state = GAME.new_state(PARAMS, desc)
    for move in moves:
        state = GAME.apply(state, move)
    return GAME.status(state).outcome == "won"


def test_fast_push_agrees_with_the_seed_rules():
    rng = Rng("push")
    for level in [*builtin_pack(), *read_original(ORIGINAL.read_text())]:
        board = level.board
        for _ in range(200):
            cell = rng.below(96)
            if board[cell] not in (ICE, HEART, BOMB):
                continue
            d = rng.below(4)
            behind = {0: 24, 1: -24, 2: 1, 3: -1}[d] + cell
            if not 0 <= behind < 96 or (d >= 2 and behind // 24 != cell // 24):
                continue
            new_board, _, _, _ = play(board, behind, 1, ORDER[d])
            fast = push(bytes(board), cell, d)
            assert (bytes(new_board) if new_board != board else None) == fast


def test_walking_distances_by_bit_masks_match_a_plain_search():
    from collections import deque

    from gridgames.games.polar.lines import walk_layers

    for level in [*builtin_pack(), *read_original(ORIGINAL.read_text())]:
        board = bytes(level.board)
        dist = {level.penguin: 0}
        queue = deque([level.penguin])
        while queue:
            cell = queue.popleft()
            for d in "UDLR":
                near = GRID_STEP(cell, d)
                if near is not None and near not in dist and board[near] in (EMPTY, TREE):
                    dist[near] = dist[cell] + 1
                    queue.append(near)
        layers = walk_layers(board, level.penguin)
        assert {c: k for k, layer in enumerate(layers) for c in range(96) if layer >> c & 1} \
            == dist


def test_original_level_1_fewest_pushes_is_14():
    # docs/rules/polar.md: level 1 needs at least 14 pushes (an exhaustive search over pushes).
    level = read_original(ORIGINAL.read_text())[0]
    found = solve(level.board, level.penguin, PUSHES, max_seconds=120)
    assert found.pushes == 14 and found.optimal
    assert replays_to_a_win(level.desc(), found.moves)


@pytest.mark.slow
def test_improving_width_search_proves_level_1s_14_pushes():
    # The width search's first solution is long; going on below it, it ends with 14 pushes
    # and nothing cheaper left: the same proof as A*'s.
    level = read_original(ORIGINAL.read_text())[0]
    first = solve(level.board, level.penguin, PUSHES, width=True, max_seconds=120)
    found = solve(level.board, level.penguin, PUSHES, width=True, improve=True,
                  max_seconds=120, max_states=10**8)
    assert first.pushes > 14 and not first.optimal
    assert found.pushes == 14 and found.optimal
    assert replays_to_a_win(level.desc(), found.moves)


@pytest.mark.slow
def test_original_level_1_shortest_is_99_moves():
    # A* over moves with an admissible bound: the first solution it takes is a shortest one.
    level = read_original(ORIGINAL.read_text())[0]
    found = solve(level.board, level.penguin, MOVES, max_seconds=300, max_states=10**8)
    assert len(found.moves) == 99 and found.optimal
    assert replays_to_a_win(level.desc(), found.moves)


@pytest.mark.slow
@pytest.mark.parametrize("number", [2, 3, 4, 5, 6])
def test_original_levels_2_to_6_are_solved_by_the_width_search(number):
    # docs/rules/polar.md: all six levels can be won (a best-first search found 23 to 40
    # pushes). A* does not finish on these; the width search does, without a proof.
    level = read_original(ORIGINAL.read_text())[number - 1]
    found = solve(level.board, level.penguin, PUSHES, width=True, max_seconds=300,
                  max_states=10**8)
    assert found.moves is not None and not found.optimal
    assert replays_to_a_win(level.desc(), found.moves)
    assert found.pushes == sum(1 for _ in _pushes_in(level, found.moves))


def _pushes_in(level, moves):
    """The moves of a solution that push something (the penguin does not move)."""
    state = GAME.new_state(PARAMS, level.desc())
    for move in moves:
        after = GAME.apply(state, move)
        if after.penguin == state.penguin:
            yield move
        state = after


def test_session_solve_and_hint():
    from gridgames.session import Session

    session = Session.new("polar", "level=2")
    hint = GAME.hints.hint(session.state, Budget(seconds=20))
    assert hint.value.move in GAME.legal_moves(session.state)
    assert hint.proven and hint.value.why.startswith("on an optimal line")
    solved = session.solve(Budget(seconds=20))
    assert solved.proven
    assert session.status().outcome == "won"
    assert session.history[-1].startswith("!solve ")
    session.undo()
    assert session.status().outcome == "ongoing"


def test_cli_solve_prints_moves_and_length(tmp_path):
    level = builtin_pack()[1]
    (tmp_path / "l.txt").write_text(write_pack([level]))
    out = io.StringIO()
    assert main(["polar", "solve", "--levels", str(tmp_path / "l.txt"), "--seconds", "20"],
                out) == 0
    first, second = out.getvalue().splitlines()[:2]
    moves = first.split(": ")[1]
    assert re.fullmatch("[UDLR]+", moves)
    assert second.strip().startswith(f"{len(moves)} moves")
    assert "proven fewest moves" in second
    assert replays_to_a_win(level.desc(), list(moves))
    assert main(["polar", "solve", "--levels", str(tmp_path / "nope")], io.StringIO()) == 2
    assert main(["polar", "solve", "--level", "999"], io.StringIO()) == 2


def test_text_shows_the_board():
    state = GAME.new_state(PARAMS, GAME.new_desc(PARAMS, Rng("x")))
    assert GAME.text(state).splitlines()[:4] == format_level_rows(state.board, state.penguin)


# --- a user's level file in play and serve (--levels) ---


def test_play_with_a_level_file(monkeypatch):
    import sys

    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    built_in = len(builtin_pack())
    out = io.StringIO()
    code = main(["play", "polar", "--levels", str(ORIGINAL), "--params",
                 f"level={built_in + 2}"], out)
    assert code == 0
    assert out.getvalue().startswith(f"Polar: 6 levels added from {ORIGINAL}")
    original_2 = read_original(ORIGINAL.read_text())[1]
    assert "\n".join(format_level_rows(original_2.board, original_2.penguin)) in out.getvalue()
    # The levels belong to that command's registry, not to the game everyone else uses.
    assert len(GAME.levels.pack("gridgames")) == built_in


def test_levels_added_to_a_registry():
    games, said = default_games().with_level_files([str(ORIGINAL)])
    packs = {p["name"]: p["levels"] for p in games["polar"].levels.catalogue()}
    built_in = len(builtin_pack())
    assert len(packs["gridgames"]) == built_in + 6
    assert packs["gridgames"][built_in]["name"].startswith("Original level 1")
    assert said == [f"Polar: 6 levels added from {ORIGINAL}"]


def test_a_bad_level_file_is_refused_whole(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text(write_pack([builtin_pack()[1]]) + "\nlevel: broken\n" + "." * 24 + "\n")
    assert main(["play", "polar", "--levels", str(bad)], io.StringIO()) == 2
    assert "broken" in capsys.readouterr().err  # names the level at fault
    with pytest.raises(BadInput, match="broken"):
        default_games().with_level_files([str(bad)])
    assert main(["play", "tictactoe", "--levels", str(ORIGINAL)], io.StringIO()) == 2
    assert "Tic-tac-toe has no level files" in capsys.readouterr().err


@pytest.mark.parametrize("path, message", [
    ("/dev/zero", "larger than 1024 KB"),
    ("/nonexistent/levels.txt", "cannot read"),
    ("/", "is a directory"),
])
def test_level_files_are_checked_before_they_are_read(path, message, capsys):
    assert main(["polar", "solve", "--levels", path], io.StringIO()) == 2
    assert message in capsys.readouterr().err


def test_web_level_select_lists_added_levels(tmp_path):
    from fastapi.testclient import TestClient

    from gridgames.web.app import create_app
    from gridgames.web.config import ServerConfig

    games, _ = default_games().with_level_files([str(ORIGINAL)])
    with TestClient(create_app(ServerConfig(db=str(tmp_path / "g.db")),
                               games=games)) as client:
        check_added_levels(client)


def check_added_levels(client):
    packs = {p["name"]: p["levels"] for p in client.get("/api/v1/games/polar/levels").json()}
    listed = packs["gridgames"]
    assert listed[-1]["name"].startswith("Original level 6")
    created = client.post("/api/v1/sessions", json={"game": "polar",
                                                 "params": f"level={len(listed)}"}).json()
    assert created["view"]["name"].startswith("Original level 6")
    assert created["view"]["level"] == len(listed)


def test_cli_solve_json_says_what_was_proven():
    out = io.StringIO()
    assert main(["polar", "solve", "--pack", "original", "--level", "1", "--objective",
                 "pushes", "--json", "--seconds", "30"], out) == 0
    report = json.loads(out.getvalue())
    assert {"level", "pushes", "moves", "objective", "proven", "seconds"} <= set(report)
    assert (report["level"], report["pushes"], report["objective"]) == (1, 14, "pushes")
    assert report["proven"] is True and report["words"] == "proven fewest pushes"
    assert (report["lower_bound"], report["gap"]) == (14, 0)
    assert replays_to_a_win(builtin_pack("original")[0].desc(), list(report["moves"]))


@pytest.mark.slow
def test_cli_solve_proves_a_stored_line_or_finds_a_shorter_one():
    """Our pack's level 1 is the original level 1 with a stored line of 17 pushes (its fewest
    moves, 99); asked for the fewest pushes, A* below 17 finds 14 and proves it (the
    original pack stores that line: then it is proven as it stands)."""
    out = io.StringIO()
    assert main(["polar", "solve", "--level", "1", "--objective", "pushes", "--json"], out) == 0
    report = json.loads(out.getvalue())
    assert (report["pushes"], report["proven"], report["gap"]) == (14, True, 0)
    assert replays_to_a_win(builtin_pack()[0].desc(), list(report["moves"]))
    out = io.StringIO()
    assert main(["polar", "solve", "--pack", "original", "--level", "1", "--objective",
                 "pushes", "--json"], out) == 0
    report = json.loads(out.getvalue())
    assert report["moves"] == builtin_pack("original")[0].info["solution"]
    assert (report["pushes"], report["proven"], report["lower_bound"]) == (14, True, 14)


@pytest.mark.parametrize("solution", ["RRRR", "RXL", "R" * 30])
def test_cli_solve_trusts_no_stored_line_that_does_not_win(tmp_path, solution):
    """A level file's `solution` that does not win (too short, not U/D/L/R, past the win or
    going nowhere) is not taken as a line to prove: the search runs as for a level with
    none, and its answer is its own."""
    level = builtin_pack("original")[0]
    bad = Level(level.name, level.board, level.penguin, level.hearts, {"solution": solution})
    (tmp_path / "l.txt").write_text(write_pack([bad]))
    out = io.StringIO()
    assert main(["polar", "solve", "--levels", str(tmp_path / "l.txt"), "--objective",
                 "pushes", "--json", "--seconds", "30"], out) == 0
    report = json.loads(out.getvalue())
    assert report["moves"] != solution and report["pushes"] == 14 and report["proven"]
    assert replays_to_a_win(level.desc(), list(report["moves"]))


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["fast", "python"])
def test_an_astar_stopped_early_proves_a_lower_bound_only(engine):
    # Level 3 needs 25 pushes: stopped after a few states (the compiled engine looks at the
    # limit after each slice of 20,000), A* knows less, and never more.
    level = read_original(ORIGINAL.read_text())[2]
    found = solve(level.board, level.penguin, PUSHES, max_states=2000, engine=engine)
    assert found.moves is None and not found.complete
    assert 8 <= found.lower_bound < 25  # 8: the start's own bound


@pytest.mark.slow
def test_cli_solve_gives_the_gap_when_it_proves_nothing():
    out = io.StringIO()
    assert main(["polar", "solve", "--pack", "original", "--level", "3", "--objective",
                 "pushes", "--json", "--states", "100000", "--seconds", "60"], out) == 0
    report = json.loads(out.getvalue())
    assert report["proven"] is False and report["moves"] is not None
    assert 8 <= report["lower_bound"] <= 25  # 25: proven fewest (docs/machine-play.md)
    assert report["gap"] == report["pushes"] - report["lower_bound"] > 0
    assert f"proven at least {report['lower_bound']} pushes" in report["words"]


@pytest.mark.slow
def test_cli_solve_never_claims_a_proof_it_did_not_finish():
    """Fewest moves on original level 2 is beyond 30,000 states: the auto search falls back
    to the width search over pushes, and says only what that proves."""
    out = io.StringIO()
    assert main(["polar", "solve", "--pack", "original", "--level", "2", "--json",
                 "--states", "30000", "--seconds", "60"], out) == 0
    report = json.loads(out.getvalue())
    assert report["objective"] == "moves" and report["proven"] is False
    assert "proven fewest moves" not in report["words"]
    assert report["status"] in ("best found", "none within budget")


def test_cli_verify_replays_a_solution():
    solution = builtin_pack()[0].info["solution"]
    out = io.StringIO()
    assert main(["polar", "verify", "--level", "1", solution], out) == 0
    assert out.getvalue().strip() == (f"1 {builtin_pack()[0].name}: solved in 99 moves, "
                                      "17 pushes")  # the shortest walk pushes 17 times
    assert main(["polar", "verify", "--level", "1", solution[:-1]], io.StringIO()) == 2
    assert main(["polar", "verify", "--level", "1", "RX"], io.StringIO()) == 2
