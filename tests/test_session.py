"""session: history with a cursor, restart and solve as moves, game IDs, save files."""

import json

import pytest

from gridgames.core.errors import BadInput
from gridgames.core.ids import GameId
from gridgames.core.result import Budget
from gridgames.registry import default_games
from gridgames.session import Session

GAMES = default_games()


def test_game_id_forms_parse_and_print():
    gid = GameId.parse("trilobite:line=5,width=10,height=10:10/10/10/10/10/10/10/10/10/10", GAMES)
    assert gid.params == "width=10,height=10,line=5"  # canonical order, every name
    assert gid.format().startswith("trilobite:width=10,height=10,line=5:")
    seeded = GameId.parse("trilobite:#my seed", GAMES)
    assert (seeded.seed, seeded.desc) == ("my seed", None)
    assert seeded.format() == "trilobite:width=7,height=6,line=4#my seed"
    assert GameId.parse("tictactoe::3/3/3", GAMES).format() == "tictactoe::3/3/3"


@pytest.mark.parametrize("text, message", [
    ("", "game ID is"),
    ("chess::x", "unknown game"),
    ("trilobite", "not a game ID"),
    ("trilobite:width=7", "not a game ID"),
    ("trilobite:#", "empty seed"),
    ("trilobite:width=99:7/7", "width must be"),
    ("trilobite::7/7", "rows"),
    ("tictactoe::3/3/3/3", "rows"),
    ("x" * 20000, "too long"),
])
def test_bad_game_ids_are_refused(text, message):
    with pytest.raises(BadInput, match=message):
        Session.from_id(text)


def test_bad_moves_in_an_id_replay_name_the_move():
    with pytest.raises(BadInput, match=r"move 3 \('b1'\): b1 is already taken"):
        Session.from_id("tictactoe::3/3/3", ["a1", "b1", "b1"])


def test_a_new_move_drops_the_redo_tail():
    session = Session.from_id("tictactoe::3/3/3", ["a1", "b1", "c1"])
    session.undo()
    session.undo()
    assert session.can_redo
    session.play("b2")
    assert session.history == ["a1", "b2"] and not session.can_redo


def test_illegal_move_changes_nothing():
    session = Session.from_id("tictactoe::3/3/3", ["a1"])
    before = (session.history, session.cursor, session.state)
    with pytest.raises(BadInput):
        session.play("a1")
    assert (session.history, session.cursor, session.state) == before


def test_restart_is_a_move_that_can_be_undone():
    session = Session.from_id("tictactoe::3/3/3", ["a1", "b2"])
    played = session.state
    session.restart()
    assert session.state == session.initial
    assert session.history == ["a1", "b2", "!restart"]
    with pytest.raises(BadInput, match="already at the start"):
        session.restart()
    assert session.undo() == played
    loaded = Session.load(session.save())
    assert loaded.history[-1] == "!restart" and loaded.state == played


def test_solve_needs_a_solver():
    with pytest.raises(BadInput, match="no solver"):
        Session.new("tictactoe").solve(Budget())


def _save(**changes):
    data = Session.from_id("tictactoe::3/3/3", ["a1", "b2"]).to_dict()
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize("text, message", [
    ("not json", "not JSON"),
    ("[]", "not a gridgames save"),
    (_save(format="other"), "not a gridgames save"),
    (_save(version=99), "version"),
    (_save(game="chess"), "unknown game"),
    (_save(params=5), "'params'"),
    (_save(moves="a1"), "'moves'"),
    (_save(cursor=True), "'cursor'"),
    (_save(cursor=3), "cursor 3 is outside"),
    (_save(moves=["a1", "a1"]), "move 2"),
    (_save(moves=["a1", 7]), "move 2"),
    (_save(desc="3/3"), "rows"),
    (_save(seed=5), "seed"),
    (_save(seed="abc", desc="x2/3/3"), "does not match the seed"),
])
def test_bad_saves_are_refused_whole(text, message):
    with pytest.raises(BadInput, match=message):
        Session.load(text)


# Text no store can keep: a NUL (PostgreSQL's text columns refuse it) and a lone surrogate
# (a JSON \ud800 escape, or undecodable command-line bytes: UTF-8 has no encoding for it).
UNSTORABLE = [("a\x00b", "contains a NUL character"), ("\ud800", "is not valid text")]


@pytest.mark.parametrize("bad, words", UNSTORABLE)
@pytest.mark.parametrize("field", ["game", "params", "desc", "seed"])
def test_a_save_whose_text_no_store_keeps_is_refused(field, bad, words):
    with pytest.raises(BadInput, match=f"save file: '{field}' {words}"):
        Session.load(_save(**{field: f"tictactoe{bad}" if field == "game" else bad}))


@pytest.mark.parametrize("bad, words", UNSTORABLE)
def test_moves_whose_text_no_store_keeps_are_refused(bad, words):
    with pytest.raises(BadInput, match=f"move 2 .*: move {words}"):
        Session.load(_save(moves=["a1", f"b2{bad}"]))
    with pytest.raises(BadInput, match=f"move 1 .*: move {words}"):
        Session.from_id("tictactoe::3/3/3", [bad])
    session = Session.from_id("tictactoe::3/3/3", ["a1"])
    with pytest.raises(BadInput, match=f"move {words}"):
        session.play(f"b2{bad}")
    assert session.history == ["a1"]


@pytest.mark.parametrize("bad, words", UNSTORABLE)
def test_new_games_and_ids_whose_text_no_store_keeps_are_refused(bad, words):
    with pytest.raises(BadInput, match=f"seed {words}"):
        Session.new("trilobite", seed=f"s{bad}")
    with pytest.raises(BadInput, match=f"params {words}"):
        Session.new("trilobite", f"width=5{bad}")
    for text in (f"trilobite:#s{bad}", f"tictactoe::3/3/3{bad}"):
        with pytest.raises(BadInput, match=f"game ID {words}"):
            Session.from_id(text)


def test_seed_ids_regenerate_the_same_game():
    a = Session.new("trilobite", "width=5,height=4,line=3", seed="s1")
    b = Session.from_id(a.seed_id)
    assert (a.game_id, a.state) == (b.game_id, b.state)


def test_markers_are_never_moves_from_outside():
    session = Session.from_id("trilobite::7/7/7/7/7/7", ["4"])
    for marker in ("!restart", "!solve 4 4 4", "!solve", "!jump", "!jump 4 4"):
        with pytest.raises(BadInput, match="is not a move"):
            session.play(marker)
    assert session.history == ["4"]


def test_a_jump_to_a_position_a_solve_reached_keeps_the_help():
    """Undo a Solve, then continue from its solved end (a jump): still solved with help, in
    a save too; a jump to before the Solve's moves, or a restart, is without it."""
    session = Session.new("twomino", "n=3", seed="help")
    first = session.game.legal_moves(session.state)[0]
    session.play(first)
    session.solve(Budget(seconds=10))
    assert session.helped and session.status().over
    solved_end = session.cursor
    session.undo()
    assert not session.helped
    session.jump(solved_end)
    assert session.helped and session.status().over
    assert session.history[-1].startswith(f"!jump {first} !solve ")
    assert Session.load(session.save()).helped
    session.jump(1)  # the position after `first`, before any move of the Solve
    assert not session.helped and session.history[-1] == f"!jump {first}"
    session.jump(solved_end)
    session.restart()
    assert not session.helped


def test_any_recorded_position_and_a_jump_back_to_it():
    """state_at reads any position (the redo tail too) without moving the cursor; a jump
    makes one current as a marker of its own moves from the start, undoable."""
    moves = ["4", "4", "5", "3", "2"]
    session = Session.from_id("trilobite::7/7/7/7/7/7", moves)
    session.restart()
    session.undo()
    for ply in range(len(moves) + 2):
        if ply <= len(moves):
            assert session.state_at(ply) == Session.from_id("trilobite::7/7/7/7/7/7",
                                                            moves[:ply]).state
    assert session.state_at(6) == session.initial and session.cursor == 5
    with pytest.raises(BadInput, match="no position 7"):
        session.state_at(7)
    session.jump(2)
    assert session.history[-1] == "!jump 4 4" and session.state == session.state_at(2)
    session.play("1")
    assert session.game_moves_to(len(session.history)) == ["4", "4", "1"]
    session.jump(0)  # the start: an empty jump
    assert session.history[-1] == "!jump" and session.state == session.initial
    session.undo()
    session.undo()
    session.undo()
    assert session.moves == moves
    with pytest.raises(BadInput, match="current position already"):
        session.jump(5)
    loaded = Session.load(json.dumps({**session.to_dict(), "moves": [*moves, "!jump 4 7"],
                                      "cursor": 6}))
    assert loaded.state == Session.from_id("trilobite::7/7/7/7/7/7", ["4", "7"]).state


@pytest.mark.parametrize("marker, words", [("!jump 4 x", "'x'"), ("!jumpy", "!jumpy"),
                                           ("!jump 1 1 1 1 1 1 1", "full")])
def test_a_bad_jump_in_a_save_is_refused_whole(marker, words):
    data = {**Session.from_id("trilobite::7/7/7/7/7/7", ["4"]).to_dict(),
            "moves": ["4", marker], "cursor": 2}
    with pytest.raises(BadInput, match="move 2") as refused:
        Session.load(json.dumps(data))
    assert words in str(refused.value)


def test_memory_keeps_checkpoints_not_every_state():
    """A long Polar walk: the session keeps one state every CHECKPOINT moves, and undo or
    redo anywhere gives the same state as replaying from the start."""
    from gridgames.session import CHECKPOINT

    session = Session.new("polar", "level=1", seed="x")
    walk = ["R", "L"] * 150  # the penguin walks right and back: 300 moves
    for move in walk:
        session.play(move)
    assert session.checkpoints == len(walk) // CHECKPOINT + 1
    replay = Session.new("polar", "level=1", seed="x")
    states = [replay.state]
    for move in walk:
        replay.play(move)
        states.append(replay.state)
    for target in (299, 200, 129, 128, 127, 64, 1, 0):
        while session.cursor > target:
            session.undo()
        assert session.state == states[target]
    for target in (5, 64, 65, 300):
        while session.cursor < target:
            session.redo()
        assert session.state == states[target]
    while session.cursor > 100:
        session.undo()
    session.play("R")  # a new move drops the redo tail and checkpoints beyond the cursor
    assert session.checkpoints == 2  # states 0 and 64


@pytest.mark.slow
def test_a_game_keeps_at_most_max_history_moves_solutions_included():
    """Replaying any game is bounded work: a recorded solution's moves count too."""
    from gridgames.session import MAX_HISTORY

    session = Session.new("polar", "level=1", seed="long")
    for number in range(MAX_HISTORY - 10):
        session.play("RL"[number % 2])
    data = session.to_dict()
    data["moves"].append("!solve " + " ".join(["R", "L"] * 6))  # 12 more: 2 too many
    data["cursor"] += 1
    with pytest.raises(BadInput, match=f"at most {MAX_HISTORY} moves"):
        Session.from_dict(data)
    data["moves"][-1] = "!solve " + " ".join(["R", "L"] * 5)  # exactly MAX_HISTORY
    full = Session.from_dict(data)
    assert full.cursor == MAX_HISTORY - 9
    with pytest.raises(BadInput, match=f"at most {MAX_HISTORY} moves"):
        full.play("R")
    full.undo()  # room again once the solve is undone
    full.play("R")


@pytest.mark.parametrize("text", ["!restart", "!solve", "!solve 4 4 5", "!jump", "!jump 4",
                                  "!jump 4 !solve 5 6", "!jump !solve 4"])
def test_a_marker_reads_and_writes_its_text(text):
    from gridgames.markers import Marker

    assert str(Marker.parse(text)) == text


@pytest.mark.parametrize("text", ["!", "!restart 4", "!jumpy", "!solve  4", "4", "!Solve 4",
                                  "!jump 4 !solve 5 !solve 6", "!solve 4 !solve 5",
                                  "!jump 4 !restart"])
def test_text_that_is_no_marker_is_refused(text):
    from gridgames.markers import Marker

    with pytest.raises(BadInput, match="is not a marker"):
        Marker.parse(text)


def test_a_stored_game_is_restored_at_its_cursor():
    played = Session.from_id("trilobite::7/7/7/7/7/7", ["4", "4", "5"])
    played.restart()
    played.undo()
    played.undo()
    restored = Session.restore(played.game, played.params.format(), played.desc, None,
                               played.history, played.cursor)
    assert restored.history == ["4", "4", "5", "!restart"] and restored.cursor == 2
    assert restored.recorded == 4
    assert restored.state == played.state and restored.can_redo
    with pytest.raises(BadInput, match="no position 9"):
        Session.restore(played.game, "", played.desc, None, played.history, 9)


def test_new_takes_the_start_a_caller_generated():
    other = Session.new("ishido", seed="other")
    given = Session.new("ishido", seed="s", desc=other.desc)  # not made again from "s"
    assert given.desc == other.desc != Session.new("ishido", seed="s").desc
    assert given.seed == "s"


def test_a_long_marker_takes_about_the_memory_of_its_text():
    """A recorded solution of thousands of moves stays about as small as its text: the
    rooms' cache counts 8 bytes a move."""
    import tracemalloc

    from gridgames.markers import Marker

    text = "!solve " + " ".join(f"a{i % 9 + 1}-b{i % 9 + 1}" for i in range(20_000))
    tracemalloc.start()
    try:
        marker = Marker.parse(text)
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert len(marker.moves) == 20_000 and held < 12 * 20_000
