"""The registry: games load through their entry points alone, in the order the games set, and a
plugin that fails to load is reported while the others still load. The entry points here are
fakes put in place of importlib's."""

from __future__ import annotations

import io
import logging
from importlib.metadata import EntryPoint

import pytest

from gridgames import registry
from gridgames.cli import main
from gridgames.core.game import Game
from gridgames.games.polar.game import Polar
from gridgames.games.tictactoe import make_game as make_tictactoe
from gridgames.registry import ENTRY_POINT_GROUP, Games


class FakePoint:
    """An entry point whose load() answers a given callable (or raises)."""

    def __init__(self, name: str, made: object, value: str = "fake.module:make_game") -> None:
        self.name, self.value, self.made = name, value, made

    def load(self) -> object:
        if isinstance(self.made, BaseException):
            raise self.made
        return self.made


def broken() -> object:
    raise RuntimeError("the plugin's database is missing")


GOOD = FakePoint("tictactoe", make_tictactoe)
POINTS = [
    FakePoint("missing", ImportError("No module named 'numpy_extra'")),
    GOOD,
    FakePoint("broken", broken),
    FakePoint("notagame", lambda: object()),
    FakePoint("chess", make_tictactoe),  # makes a game named tictactoe
    # A real entry point into a module that does not exist: importlib's own ImportError.
    EntryPoint("ghost", "gridgames_no_such_plugin:make_game", ENTRY_POINT_GROUP),
]


@pytest.fixture
def fake_points(monkeypatch):
    def entry_points(group):
        assert group == ENTRY_POINT_GROUP
        return list(POINTS)

    monkeypatch.setattr(registry, "entry_points", entry_points)
    registry.default_games.cache_clear()
    yield
    registry.default_games.cache_clear()


def test_a_plugin_that_fails_to_load_stops_no_other(fake_points, caplog):
    with caplog.at_level(logging.ERROR, logger="gridgames.registry"):
        games = Games.installed()
    assert list(games) == ["tictactoe"]
    assert set(games.failed) == {"missing", "broken", "notagame", "chess", "ghost"}
    assert games.failed["missing"] == "ImportError: No module named 'numpy_extra'"
    assert "the plugin's database is missing" in games.failed["broken"]
    assert "not a gridgames Game" in games.failed["notagame"]
    assert "makes a game named 'tictactoe'" in games.failed["chess"]
    assert games.failed["ghost"].startswith("ModuleNotFoundError")
    logged = {record.args[0] for record in caplog.records}
    assert logged == set(games.failed)


def test_gridgames_list_says_which_failed_and_why(fake_points):
    out = io.StringIO()
    assert main(["list"], out) == 0
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("tictactoe ")
    assert "broken     did not load: RuntimeError: the plugin's database is missing" in lines
    assert sum("did not load" in line for line in lines) == 5


def test_level_files_keep_the_failures(fake_points):
    games = Games.installed()
    assert games.with_level_files([])[0].failed == games.failed


def test_the_games_set_their_own_order():
    class Early(Polar):
        name = "early"
        order = 1

    class Late(Polar):
        name = "late"
        order = Game.order  # what a game that says nothing gets: after every built-in

    games = list(registry.default_games().values())
    ordered = Games([Late(), *games, Early()])
    assert list(ordered) == ["early", *(g.name for g in games), "late"]
    assert [g.order for g in games] == sorted(g.order for g in games)
    assert max(g.order for g in games) < Late.order


def test_a_game_that_writes_its_own_view_is_refused():
    with pytest.raises(TypeError, match="own_view"):
        class Stale(Polar):
            def view(self, state):
                return {}
