"""`gridgames arena` (arena.py): AI levels and a ConnectX agent from a file play each other
in worker processes; the cross-table, the ratings, the proven mistakes (the perfect level
makes none) and the refusals of players that are not."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from gridgames.arena import Job, Record, pairings, ratings
from gridgames.cli import main

AGENTS = '''
def leftmost(observation, configuration):
    return next(c for c in range(configuration.columns) if observation.board[c] == 0)


def nonsense(observation, configuration):
    return "left"
'''
SMALL = "width=5,height=4,line=4"


def test_pairings_swap_seats_and_cover_every_pair():
    games = pairings(["a", "b", "c"], "round-robin", 4)
    assert len(games) == 12
    ab = [(x, y) for x, y, _ in games if {x, y} == {"a", "b"}]
    assert ab.count(("a", "b")) == ab.count(("b", "a")) == 2
    assert {(x, y) for x, y, _ in pairings(["a", "b", "c"], "gauntlet", 1)} == \
        {("a", "b"), ("a", "c")}


def test_the_winner_rates_higher():
    job = Job("trilobite", "", ("a", "b"), "s", 1.0, 0.0, 0)
    rated = ratings([Record(job, 1.0, []), Record(Job(**{**job.__dict__, "period": 1}),
                                                  1.0, [])], ["a", "b"])
    assert rated["a"].rating > 1500 > rated["b"].rating


@pytest.mark.slow
def test_an_arena_of_levels_and_an_agent_file(tmp_path):
    agents = tmp_path / "agents.py"
    agents.write_text(AGENTS)
    result = subprocess.run(
        [sys.executable, "-m", "gridgames", "arena", "trilobite", "--params", SMALL,
         "--players", "ai:perfect", "ai:easy", f"connectx:{agents}:leftmost",
         f"connectx:{agents}:nonsense", "--games", "2", "--seconds", "3",
         "--analysis-seconds", "3", "--workers", "2"],
        capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    rows = {line.split("|")[0].strip(): line for line in result.stdout.splitlines()[2:]
            if "|" in line}
    assert set(rows) == {"perfect", "easy", "leftmost", "nonsense"}
    perfect = rows["perfect"].split("|")
    # On this board every position is solved well within the caps (3 s, for a loaded
    # machine; a move takes milliseconds): the perfect
    # level throws nothing away and wins all six games (the others make mistakes).
    assert perfect[5].strip() == "100%" and perfect[-1].strip().startswith("0 in ")
    assert int(rows["easy"].split("|")[-1].split()[0]) > 0
    assert rows["nonsense"].split("|")[5].strip() == "0%"
    assert rows["perfect"] == result.stdout.splitlines()[2]  # the highest rating first
    assert "forfeits: 6, the first: connectx:" in result.stdout
    assert "'left', not a column number" in result.stdout


@pytest.mark.parametrize("args, message", [
    (["polar", "--players", "ai:hard", "ai:easy"], "not a two-player game"),
    (["trilobite", "--players", "ai:hard", "ai:godlike"], "the AI levels here are"),
    (["trilobite", "--players", "ai:hard", "bot"], "not a player"),
    (["trilobite", "--players", "ai:hard", "connectx:/nowhere.py:f"], "PATH a Python file"),
    (["tictactoe", "--players", "ai:perfect", "connectx:x.py:f"], "play Trilobite only"),
    (["trilobite", "--players", "ai:hard"], "at least two different players"),
    (["trilobite", "--players", "ai:hard", "ai:easy", "--games", "0"], "--games must be"),
    (["tictactoe", "--players", "random", "ai:easy", "--anchor", "ai:hard=900"], "--anchor"),
    (["tictactoe", "--players", "random", "ai:easy", "--anchor", "random"], "--anchor"),
])
def test_players_that_are_not_are_refused(args, message, capsys):
    assert main(["arena", *args], io.StringIO()) == 2
    assert message in capsys.readouterr().err


def test_ratings_are_anchored_to_the_random_player():
    out = io.StringIO()
    assert main(["arena", "tictactoe", "--players", "random", "ai:perfect", "--games", "4",
                 "--workers", "1", "--analysis-seconds", "0", "--anchor", "random=1000"],
                out) == 0
    rows = {line.split("|")[0].strip(): line for line in out.getvalue().splitlines()[2:]}
    assert rows["random"].split("|")[-2].split()[0] == "1000"
    assert int(rows["perfect"].split("|")[-2].split()[0]) > 1100
