"""The environments for learning agents (gridgames.envs): PettingZoo's own API and seed tests
on the two-player games, Gymnasium's environment checker on the puzzles and on a game against
our AI, and the rules they promise (rewards, illegal actions, masks, ansi rendering). The
engines play every move: an environment's moves are the engine's."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from gridgames.core.game import DRAW, ONGOING, WON, Game, Status
from gridgames.core.params import Params
from gridgames.core.result import Budget
from gridgames.core.rng import Rng
from gridgames.envs import PuzzleEnv, TwoPlayerEnv, VsAiEnv
from gridgames.envs.puzzles import ILLEGAL_PENALTY, STEP_COST
from gridgames.registry import default_games
from gridgames.session import Session

ENVS = Path(__file__).resolve().parents[1] / "src" / "gridgames" / "envs"

TWO_PLAYER = [("tictactoe", ""), ("trilobite", ""), ("trilobite", "width=9,height=7,line=5"),
              ("trilobite", "width=4,height=4,line=3")]
PUZZLES = [("polar", ""), ("polar", "pack=original,level=3"), ("twomino", "n=4"),
           ("twomino", "n=5,gen=unique,level=basic"), ("ishido", "")]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("game, params", TWO_PLAYER)
def test_pettingzoo_api_and_seed_tests(game, params):
    api_test(TwoPlayerEnv(game, params, render_mode="ansi"), num_cycles=200)
    seed_test(lambda: TwoPlayerEnv(game, params), num_cycles=100)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("game, params", PUZZLES)
def test_gymnasium_env_checker_on_the_puzzles(game, params):
    check_env(PuzzleEnv(game, params, render_mode="ansi"))


INSTALLED = list(default_games())  # plugins included


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", INSTALLED)
def test_every_installed_game_has_an_environment(name):
    """A plugin gets these checks too: with its encoding capability, or without one."""
    game = default_games()[name]
    if game.players == 1:
        check_env(PuzzleEnv(name, render_mode="ansi"))
    else:
        api_test(TwoPlayerEnv(name, render_mode="ansi"), num_cycles=50)
    if game.encoding is None:
        return
    p = game.parse_params("")
    state = game.new_state(p, game.new_desc(p, Rng("encoding")))
    space = game.encoding.observation_space(p)
    rng = np.random.default_rng(0)
    for _ in range(30):  # the capability answers as it says, along a random game
        moves = game.encoding.action_moves(state)
        assert len(moves) == game.encoding.action_count(p)
        named = [m for m in moves if m is not None]
        assert len(named) == len(set(named))
        assert space.contains(game.encoding.observe(state, game.current_player(state)))
        legal = game.legal_moves(state)
        if not legal:
            break
        state = game.apply(state, legal[int(rng.integers(len(legal)))])


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_gymnasium_env_checker_against_our_ai():
    check_env(VsAiEnv("tictactoe", level="random", seat=1))
    check_env(VsAiEnv("trilobite", "width=5,height=4,line=3", level="easy"))


def test_a_win_a_loss_and_the_masks():
    env = TwoPlayerEnv("tictactoe", render_mode="ansi")
    env.reset(seed=1)
    x, o = env.possible_agents
    cell = {"a1": 0, "b1": 1, "c1": 2, "a2": 3, "b2": 4}  # cells read left to right
    for move in ("a1", "a2", "b1", "b2"):
        mask = env.observe(env.agent_selection)["action_mask"]
        assert mask.sum() == 9 - ["a1", "a2", "b1", "b2"].index(move)
        env.step(cell[move])
    planes = env.observe(x)["observation"]
    assert planes[0, :, 0].tolist() == [1, 1, 0] and planes[1, :, 1].tolist() == [1, 1, 0]
    assert env.observe(o)["observation"][0, :, 1].tolist() == [1, 1, 0]  # ego-centric
    env.step(cell["c1"])  # X completes the top row
    assert env.terminations == {x: True, o: True}
    assert env.rewards == {x: 1, o: -1}
    session = Session.new("tictactoe", "", seed="s")
    for move in ("a1", "a2", "b1", "b2", "c1"):
        session.play(move)
    assert env.render() == session.game.text(session.state)  # the engine's own text


def test_an_illegal_action_loses_as_in_pettingzoo():
    env = TwoPlayerEnv("trilobite", "width=4,height=4,line=3")
    env.reset()
    x, o = env.possible_agents
    for _ in range(4):
        env.step(0)  # column 1 fills up
    assert env.observe(x)["action_mask"].tolist() == [0, 1, 1, 1]
    env.step(0)  # a full column: illegal
    assert env.terminations[x] and env.rewards == {x: -1, o: 0}
    assert env.infos[x]["illegal"]


def test_puzzle_rewards_and_illegal_actions_change_nothing():
    env = PuzzleEnv("polar")  # level 1: the penguin can go down or right
    _, info = env.reset(seed=0)
    assert info["action_mask"].tolist() == [0, 1, 0, 1]  # U D L R
    before = env.state
    _, reward, terminated, _, info = env.step(0)  # up: a wall
    assert env.state is before and reward == ILLEGAL_PENALTY and info["illegal"]
    assert not terminated
    _, reward, _, _, _ = env.step(3)
    assert reward == STEP_COST and env.state is not before
    mino = PuzzleEnv("twomino", "n=3")
    mino.reset(seed=5)
    solution = mino.game.solver.solve(mino.state, Budget()).value  # the engine's solver
    rewards = []
    for move in solution:  # played through the environment: solved at the last move
        _, reward, terminated, _, _ = mino.step(mino.encoding.moves(mino.state).index(move))
        rewards.append(reward)
    assert terminated and rewards == [STEP_COST] * (len(solution) - 1) + [1.0]


def test_ishido_rewards_are_the_score():
    env = PuzzleEnv("ishido")
    _, info = env.reset(seed=7)
    total = 0.0
    for _ in range(20):
        legal = np.flatnonzero(info["action_mask"])
        _, reward, terminated, _, info = env.step(int(legal[0]))
        total += reward
        if terminated:
            break
    assert total == env.game.status(env.state).score


def test_against_perfect_tictactoe_never_wins():
    env = VsAiEnv("tictactoe", level="perfect", seat=0)
    rng = np.random.default_rng(0)
    for episode in range(10):
        _, info = env.reset(seed=episode)
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, reward, done, _, info = env.step(action)
        assert reward <= 0  # the perfect level never loses
    assert env.last_result.proven


def test_the_base_install_does_not_import_the_extras():
    probe = ("import sys, gridgames.cli, gridgames.web.app, gridgames.registry;"
             "gridgames.registry.default_games();"
             "print('gymnasium' in sys.modules or 'pettingzoo' in sys.modules)")
    answer = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=True)
    assert answer.stdout.strip() == "False"


@pytest.mark.slow
def test_the_worked_example_trains_an_agent_that_never_loses_to_random():
    """examples/rl_tictactoe.py as a user runs it, on 12,000 games of training (its default
    30,000 take twice as long): trained against "random", it loses none of 100 games to it,
    and none to "perfect" either (it draws)."""
    from pathlib import Path

    script = Path(__file__).resolve().parents[1] / "examples" / "rl_tictactoe.py"
    answer = subprocess.run([sys.executable, str(script), "--episodes", "12000"],
                            capture_output=True, text=True, timeout=600, check=True)
    lines = answer.stdout.splitlines()
    assert lines[1].startswith("against random: ") and lines[1].endswith(" 0 lost of 100")
    assert lines[2] == "against perfect: 0 won, 100 drawn, 0 lost of 100"


def test_the_environments_name_no_game():
    """They read a game's envelope and encoding capability, never which game it is."""
    games = default_games()
    names = {"stones"}  # the stone games' view kind, besides their names
    for game in games.values():
        start = game.new_state(game.parse_params(""), game.new_desc(game.parse_params(""),
                                                                     Rng("names")))
        names |= {game.name, game.title.lower(), game.view(start)["kind"]}
    for path in ENVS.glob("*.py"):
        text = path.read_text(encoding="utf-8").lower()
        named = sorted(name for name in names if name in text)
        assert not named, f"{path.name} names {named}"


def read_text(codes):
    """A generic observation back as text: ASCII codes padded with zeros."""
    return bytes(codes[codes > 0].tolist()).decode("ascii")


def without_encoding(name):
    """An installed game as a plugin without the encoding capability would be."""
    return default_games()[name].replaced(encoding=None)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_a_game_without_an_encoding_gets_one_from_its_envelope():
    cells = PuzzleEnv(without_encoding("ishido"), render_mode="ansi")
    assert cells.action_space.n == 8 * 12 and cells.max_steps == 66  # its max_moves
    observation, info = cells.reset(seed=7)
    assert read_text(observation) == cells.game.text(cells.state)
    legal = cells.game.legal_moves(cells.state)
    assert [cells.encoding.move(cells.state, int(a)) for a in np.flatnonzero(
        info["action_mask"])] == sorted(legal, key=lambda m: cells.game.view(
            cells.state)["actions"][legal.index(m)]["cell"])
    check_env(cells)
    edges = PuzzleEnv(without_encoding("twomino"), "n=3")
    assert edges.action_space.n == (4 + 1) * 3 + 4 * (3 + 1)  # every edge of 4 rows x 3 cols
    edges.reset(seed=5)
    solution = edges.game.solver.solve(edges.state, Budget()).value
    for move in solution:  # `clear` is no action, but the bars are
        _, reward, terminated, _, _ = edges.step(edges.encoding.moves(edges.state).index(move))
    assert terminated and reward == 1.0
    check_env(edges)
    with pytest.raises(ValueError, match="no cell or edge"):
        PuzzleEnv(without_encoding("polar"))  # its moves are directions


@dataclass(frozen=True)
class NoParams(Params):
    pass


class Corners(Game):
    """A two-player game for the test: take the cells of a 2x2 board in turn; whoever takes
    the corner a1 moves again. The one with more cells wins."""

    name, title, summary, renderer = "corners", "Corners", "a test game", "corners.js"
    params_type = NoParams
    players, player_names = 2, ("A", "B")

    def new_desc(self, params, rng):
        return "----"

    def new_state(self, params, desc):
        return (desc, 0)

    def max_moves(self, params):
        return 4

    def legal_moves(self, state):
        cells, _ = state
        return [] if "-" not in cells else [
            "ab"[i % 2] + str(i // 2 + 1) for i, c in enumerate(cells) if c == "-"]

    def apply(self, state, move):
        cells, mover = state
        index = self.legal_moves(state).index(move)  # ValueError for any other
        cell = [i for i, c in enumerate(cells) if c == "-"][index]
        cells = cells[:cell] + "AB"[mover] + cells[cell + 1:]
        return (cells, mover if cell == 0 else 1 - mover)

    def status(self, state):
        cells, mover = state
        if "-" in cells:
            return Status(ONGOING, f"{'AB'[mover]} to move")
        a, b = cells.count("A"), cells.count("B")
        return Status(DRAW, "a draw") if a == b else Status(WON, "won", winner=int(b > a))

    def current_player(self, state):
        return None if "-" not in state[0] else state[1]

    def text(self, state):
        cells = state[0].replace("-", "·")  # not ASCII: the generic observation shows ?
        return cells[:2] + "\n" + cells[2:]

    def own_view(self, state):
        return {"kind": "corners", "rows": 2, "cols": 2, "cells": list(state[0])}


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_any_two_player_game_and_a_player_who_moves_twice():
    api_test(TwoPlayerEnv(Corners(), render_mode="ansi"), num_cycles=50)
    env = TwoPlayerEnv(Corners())
    env.reset()
    a, b = env.possible_agents
    assert read_text(env.observe(a)["observation"]) == "??\n??"
    env.step(0)  # A takes the corner a1: A again
    assert env.agent_selection == a and env.observe(b)["action_mask"].sum() == 0
    env.step(1)  # A takes b1: B's turn
    assert env.agent_selection == b
    env.step(2)
    env.step(3)
    assert env.terminations == {a: True, b: True} and env.rewards == {a: 1, b: -1}
