"""Kaggle's ConnectX agent interface, both ways, without kaggle-environments: our AI levels
as ConnectX agents, and any ConnectX agent as a player of Trilobite on any board.

An agent is `agent(observation, configuration) -> column` (0-based); `observation.board` is
a flat list, row 0 at the top, 0 empty, 1 and 2 the players (1 moves first), `.mark` the
agent's own; `configuration.rows`, `.columns`, `.inarow` the board. That list is Trilobite's
own cells (gridgames.core.stones), so a board is taken as it is and checked by the game's
rules. docs/python-api.md ("ConnectX") shows it in use.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from gridgames.core.errors import BadInput, IllegalMove
from gridgames.core.result import Budget
from gridgames.core.rng import Rng
from gridgames.core.stones import StoneState, encode_position
from gridgames.games.trilobite import make_game

Agent = Callable[[Any, Any], Any]


class Struct(dict):
    """A dict whose keys also read as attributes, as Kaggle's observation and configuration
    do (`observation.board` and `observation["board"]`)."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


@lru_cache(maxsize=1)
def _game():
    """The game with its AI, made once (its solver's tables are kept between moves)."""
    return make_game()


def _read(thing: Any, name: str) -> Any:
    """A field of an observation or configuration, given as an attribute or as a key."""
    if isinstance(thing, dict):
        if name in thing:
            return thing[name]
    elif hasattr(thing, name):
        return getattr(thing, name)
    raise BadInput(f"the ConnectX {'observation' if name in ('board', 'mark') else 'configuration'}"
                   f" has no {name!r}")


def _whole(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(f"ConnectX {name} must be a whole number, not {value!r}")
    return value


def state_of(observation: Any, configuration: Any) -> StoneState:
    """The Trilobite position a ConnectX observation shows (BadInput when it is not one)."""
    rows = _whole(_read(configuration, "rows"), "rows")
    columns = _whole(_read(configuration, "columns"), "columns")
    inarow = _whole(_read(configuration, "inarow"), "inarow")
    board = _read(observation, "board")
    if not isinstance(board, Sequence) or isinstance(board, str | bytes):
        raise BadInput("a ConnectX board is a flat list of the cells")
    if len(board) != rows * columns:
        raise BadInput(f"the board has {len(board)} cells, not rows x columns = "
                       f"{rows * columns}")
    cells = tuple(board)
    if any(isinstance(c, bool) or c not in (0, 1, 2) for c in cells):
        raise BadInput("a ConnectX cell is 0 (empty), 1 or 2")
    game = _game()
    params = game.parse_params(f"width={columns},height={rows},line={inarow}")
    grid = game.grid_of(params)
    return game.new_state(params, encode_position(grid, cells))


def observe(state: StoneState, seconds: float = 2.0) -> tuple[Struct, Struct]:
    """(observation, configuration) as Kaggle gives them to the agent whose turn it is in
    `state` (`seconds`: the time it is told it has a move)."""
    grid = state.grid
    game = _game()
    observation = Struct(board=list(state.cells), mark=state.to_move + 1,
                         step=sum(1 for c in state.cells if c))
    configuration = Struct(rows=grid.rows, columns=grid.cols,
                           inarow=game.line_length(state.params), actTimeout=seconds,
                           timeout=seconds)
    return observation, configuration


def agent_move(agent: Agent, state: StoneState, seconds: float = 2.0) -> str:
    """Ask a ConnectX agent for its move in `state`: our move name (IllegalMove when it
    answers something that is not a column it may play)."""
    column = agent(*observe(state, seconds))
    if isinstance(column, bool) or not isinstance(column, int):
        try:  # numpy integers and the like: whole numbers by another type
            whole = int(column)
        except (TypeError, ValueError):
            whole = None
        if whole is None or whole != column:
            raise IllegalMove(f"the agent answered {column!r}, not a column number")
        column = whole
    game = _game()
    if not 0 <= column < state.grid.cols:
        raise IllegalMove(f"the agent answered column {column}: columns are 0 to "
                          f"{state.grid.cols - 1}")
    cell = game.landing_cell(state, column)
    if cell is None:
        raise IllegalMove(f"the agent answered column {column}, which is full")
    return game.move_of_cell(state, cell)


def ai_agent(level: str = "hard", seconds: float = 1.0, seed: str = "connectx") -> Agent:
    """One of our AI levels (`gridgames list` names them: easy, medium, hard, perfect) as a
    ConnectX agent. It checks the observation (a mark that is not the side to move, a board
    that cannot be, are refused) and thinks for at most `seconds`, or the configuration's
    actTimeout when that is shorter."""
    game = _game()
    game.ai.check_level(level)

    def agent(observation: Any, configuration: Any) -> int:
        state = state_of(observation, configuration)
        mark = _read(observation, "mark")
        if mark != state.to_move + 1:
            raise BadInput(f"the observation's mark is {mark!r}, but the board has "
                           f"{state.to_move + 1} to move")
        if state.over:
            raise BadInput("the game on this board is over")
        limit = seconds
        if isinstance(configuration, dict) and "actTimeout" in configuration or \
                hasattr(configuration, "actTimeout"):
            given = _read(configuration, "actTimeout")
            if isinstance(given, int | float) and given > 0:
                limit = min(limit, float(given))
        position = encode_position(state.grid, state.cells)
        found = game.ai.choose(state, level, Rng(f"{seed} {position}"), Budget(seconds=limit))
        return game.column_of_move(state.grid, found.value)

    agent.__name__ = f"gridgames_{level}"
    return agent


def play(first: Agent, second: Agent, rows: int = 6, columns: int = 7, inarow: int = 4,
         seconds: float = 2.0) -> tuple[int, list[str]]:
    """A whole game between two ConnectX agents, by Trilobite's rules: (the winner's mark,
    1 or 2, or 0 for a draw; the moves, our names). An agent that answers a move it may not
    play loses at once, as on Kaggle."""
    game = _game()
    params = game.parse_params(f"width={columns},height={rows},line={inarow}")
    state = game.new_state(params, game.new_desc(params, Rng("connectx")))
    moves: list[str] = []
    agents = (first, second)
    while not state.over:
        mover = state.to_move
        try:
            move = agent_move(agents[mover], state, seconds)
        except IllegalMove:
            return 2 - mover, moves
        moves.append(move)
        state = game.apply(state, move)
    return (0 if state.winner is None else state.winner + 1), moves
