"""What an environment's actions and observations are, for any game, with no rule here: an
action is an index into a list fixed for the game's parameters; the move it stands for, and
whether it is legal now, come from the engine.

- A game with the `encoding` capability (core/capabilities.py) says it all itself.
- Any other game is read from its view's envelope (core/envelope.py): one action per cell of
  the board where its moves act on cells, then one per edge (the border's included, in
  `all_edges` order) where they act on edges; which of the two it uses is read from the
  start position. Moves that act on no place are not actions. The observation is the game's
  own text board as its ASCII codes (a character outside printable ASCII reads as `?`), in a
  fixed-length array padded with zeros (a longer text is cut): the same in both kinds of
  environment, since PettingZoo wants arrays.
"""

from __future__ import annotations

import string
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import spaces

from gridgames.core.envelope import all_edges, grid_of_view
from gridgames.core.game import Game
from gridgames.core.params import Params
from gridgames.registry import default_games

TEXT_CHARSET = frozenset(string.printable) - set("\r\x0b\x0c")
UNKNOWN_CHAR = ord("?")
MIN_TEXT_LENGTH = 1024  # the text observation's length: this, or 16 times the start's text


class Encoder(ABC):
    """One game, with fixed parameters, as a learning agent sees it."""

    n_actions: int
    max_steps: int | None  # where a puzzle's episode is cut short (None: never)
    observation_space: spaces.Space

    def __init__(self, game: Game) -> None:
        self.game = game
        self._memo: dict[str, tuple[Any, Any]] = {}

    def seen(self, state: Any, what: str, read: Callable[[Any], Any]) -> Any:
        """read(state), computed once per state: an environment asks several times a step."""
        last = self._memo.get(what)
        if last is None or last[0] is not state:
            last = self._memo[what] = (state, read(state))
        return last[1]

    def legal(self, state: Any) -> list[str]:
        return self.seen(state, "legal", self.game.legal_moves)

    @abstractmethod
    def moves(self, state: Any) -> list[str | None]:
        """The move each action stands for in this position (None: none)."""

    @abstractmethod
    def observe(self, state: Any, seat: int | None = None) -> Any: ...

    def move(self, state: Any, action: Any) -> str | None:
        """The move an action stands for in this position; None when it stands for none."""
        if isinstance(action, np.integer):
            action = int(action)
        if not isinstance(action, int) or isinstance(action, bool) or \
                not 0 <= action < self.n_actions:
            return None
        return self.moves(state)[action]

    def mask(self, state: Any, legal: list[str] | None = None) -> np.ndarray:
        allowed = set(self.legal(state) if legal is None else legal)
        return np.array([m in allowed for m in self.moves(state)], dtype=np.int8)


class FromCapability(Encoder):
    """A game's own encoding capability."""

    def __init__(self, game: Game, params: Params) -> None:
        super().__init__(game)
        self.own = game.encoding
        self.n_actions = self.own.action_count(params)
        self.max_steps = self.own.max_steps(params, game.max_moves(params))
        self.observation_space = self.own.observation_space(params)

    def moves(self, state: Any) -> list[str | None]:
        return self.seen(state, "moves", self.own.action_moves)

    def observe(self, state: Any, seat: int | None = None) -> Any:
        return self.own.observe(state, seat)


class FromEnvelope(Encoder):
    """Any game, read from its view's envelope and its text board."""

    def __init__(self, game: Game, params: Params, start: Any) -> None:
        super().__init__(game)
        view = game.view(start)
        self.grid = grid_of_view(view)
        acts_on = {key for action in view["actions"] for key in action if key != "move"}
        self.cells = self.grid.size if "cell" in acts_on else 0
        edges = all_edges(self.grid) if "edge" in acts_on else []
        self.edge_action = {(e.cell, e.side): self.cells + i for i, e in enumerate(edges)}
        self.n_actions = self.cells + len(edges)
        if not self.n_actions:
            raise ValueError(f"{game.title}'s moves act on no cell or edge: the game needs an "
                             "encoding capability to have an environment")
        self.max_steps = game.max_moves(params)
        self.text_length = max(MIN_TEXT_LENGTH, 16 * len(game.text(start)))
        self.observation_space = spaces.Box(0, 127, (self.text_length,), np.uint8)

    def moves(self, state: Any) -> list[str | None]:
        return self.seen(state, "moves", self._moves)

    def _moves(self, state: Any) -> list[str | None]:
        named: list[str | None] = [None] * self.n_actions
        for action in self.game.view(state)["actions"]:
            if "cell" in action and self.cells:
                named[action["cell"]] = action["move"]
            elif "edge" in action and tuple(action["edge"]) in self.edge_action:
                named[self.edge_action[tuple(action["edge"])]] = action["move"]
        return named

    def observe(self, state: Any, seat: int | None = None) -> np.ndarray:
        codes = np.zeros(self.text_length, dtype=np.uint8)
        text = self.game.text(state)[:self.text_length]
        codes[:len(text)] = [ord(ch) if ch in TEXT_CHARSET else UNKNOWN_CHAR for ch in text]
        return codes


def encoder_for(game: Game, params: Params, start: Any) -> Encoder:
    if game.encoding is not None:
        return FromCapability(game, params)
    return FromEnvelope(game, params, start)


def find_game(game: str | Game) -> Game:
    """An installed game by name, or a game object as it is (a plugin being written)."""
    return game if isinstance(game, Game) else default_games().get_game(game)
