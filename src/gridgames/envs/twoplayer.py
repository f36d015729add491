"""PettingZoo AEC environments for the two-player games, any installed game included, shaped
like PettingZoo's own classic board-game environments:

- agents "player_0" (moves first) and "player_1"; the agent to act is the game's
  `current_player`, so a game where a player may move twice in a row is followed as it is;
- `Discrete` actions and observations from the game's encoding (encoding.py), as
  {"observation": ..., "action_mask": which actions are legal};
- rewards +1 / -1 at a win, 0 at a draw; an illegal action ends the game as a loss (-1) for
  its player, as PettingZoo's TerminateIllegalWrapper does;
- render_mode "ansi": `render()` returns the game's own text board.

The engine plays every move (`game.apply`); this module only translates.
"""

from __future__ import annotations

from typing import Any

from gymnasium import spaces
from pettingzoo import AECEnv

from gridgames.core.game import DRAW, Game
from gridgames.core.rng import Rng
from gridgames.envs.encoding import encoder_for, find_game


class TwoPlayerEnv(AECEnv):
    """`TwoPlayerEnv(name, "param=value,...")`: any two-player game, by name or as a game
    object."""

    metadata = {"render_modes": ["ansi"], "name": "gridgames_v0", "is_parallelizable": False}

    def __init__(self, game: str | Game, params: str = "",
                 render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.game = find_game(game)
        if self.game.players != 2:
            raise ValueError(f"{self.game.title} is not a two-player game")
        self.params = self.game.parse_params(params)
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"gridgames_{self.game.name}_v0"}
        start = self.game.new_state(self.params, self.game.new_desc(self.params, Rng("start")))
        self.encoding = encoder_for(self.game, self.params, start)
        self.possible_agents = ["player_0", "player_1"]
        observation = spaces.Dict({
            "observation": self.encoding.observation_space,
            "action_mask": spaces.Box(0, 1, (self.encoding.n_actions,), dtype="int8")})
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.encoding.n_actions)
                              for a in self.possible_agents}
        self.state: Any = start

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        desc = self.game.new_desc(self.params, Rng(str(seed)))  # a fixed start: seed unused
        self.state = self.game.new_state(self.params, desc)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[self.game.current_player(self.state) or 0]

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self.possible_agents.index(agent)
        legal = None if agent == self.agent_selection else []
        return {"observation": self.encoding.observe(self.state, seat),
                "action_mask": self.encoding.mask(self.state, legal)}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        seat = self.possible_agents.index(agent)
        other = self.possible_agents[1 - seat]
        move = self.encoding.move(self.state, action)
        if move is None or move not in self.encoding.legal(self.state):
            self.rewards = {agent: -1, other: 0}  # an illegal action loses, and ends it
            self.terminations = {a: True for a in self.agents}
            self.infos[agent] = {"illegal": True}
        else:
            self.state = self.game.apply(self.state, move)
            status = self.game.status(self.state)
            if status.over:
                if status.kind == DRAW or status.winner is None:
                    self.rewards = {agent: 0, other: 0}
                else:
                    winner = self.possible_agents[status.winner]
                    self.rewards = {winner: 1, [a for a in self.agents if a != winner][0]: -1}
                self.terminations = {a: True for a in self.agents}
            else:
                self.rewards = {agent: 0, other: 0}
                self.agent_selection = self.possible_agents[self.game.current_player(self.state)]
        self._accumulate_rewards()

    def encoding_action(self, move: str) -> int:
        """The action that stands for a move of this position (for opponents that name
        moves, such as the game's own AI)."""
        named = self.encoding.moves(self.state)
        if move not in named:
            raise ValueError(f"{move!r} is no action here")
        return named.index(move)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return self.game.text(self.state)

    def close(self) -> None:
        pass


def env(game: str | Game, params: str = "", render_mode: str | None = None) -> TwoPlayerEnv:
    """A two-player game as a PettingZoo AEC environment."""
    return TwoPlayerEnv(game, params, render_mode)
