"""`gridgames arena`: AI levels and ConnectX agents play each other in worker processes,
round robin or a gauntlet, each pairing from both seats; then a cross-table, Glicko-2
ratings and each player's mistakes: moves the game's analyzer proves threw away a win or a
draw (elsewhere "unknown"). docs/machine-play.md ("The arena") says how to read it.
"""

from __future__ import annotations

import importlib.util
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gridgames.core.errors import BadInput, IllegalMove
from gridgames.core.glicko import Rating, update
from gridgames.core.progress import progress
from gridgames.core.result import Budget
from gridgames.core.rng import Rng
from gridgames.registry import default_games

FORMATS = ("round-robin", "gauntlet")
CONNECTX = "connectx:"  # connectx:PATH:FUNCTION, a Kaggle ConnectX agent (Trilobite)
AI = "ai:"
RANDOM = "random"  # a uniformly random legal move: the fixed point ratings are anchored to


@dataclass(frozen=True)
class Job:
    game: str
    params: str
    seats: tuple[str, str]  # player specs, seat 0 first
    seed: str
    seconds: float
    analysis_seconds: float  # 0: no analysis
    period: int  # the rating period: the pairing's game number


@dataclass
class Record:
    job: Job
    score: float  # seat 0's: 1 a win, 0.5 a draw, 0 a loss
    moves: list[str]
    mistakes: list[int] = field(default_factory=lambda: [0, 0])  # by seat
    proven: list[int] = field(default_factory=lambda: [0, 0])  # moves judged, by seat
    forfeit: str = ""  # why a seat lost without the game's end (an illegal answer)


def check_player(spec: str, game: Any, params: Any) -> str:
    """The spec if it names a player of this game; BadInput says why not."""
    if spec == RANDOM:
        return spec
    if spec.startswith(AI):
        if game.ai is None:
            raise BadInput(f"{game.title} has no AI levels")
        level = spec[len(AI):]
        if level not in game.ai.offered(params):
            raise BadInput(f"{spec!r}: the AI levels here are "
                           f"{', '.join(AI + name for name in game.ai.offered(params))}")
        return spec
    if spec.startswith(CONNECTX):
        if game.name != "trilobite":
            raise BadInput("ConnectX agents play Trilobite only")
        path, _, function = spec[len(CONNECTX):].rpartition(":")
        if not path or not function or not Path(path).is_file():
            raise BadInput(f"{spec!r}: give connectx:PATH:FUNCTION, PATH a Python file")
        return spec
    raise BadInput(f"{spec!r} is not a player: random, ai:LEVEL or connectx:PATH:FUNCTION")


def pairings(players: list[str], style: str, games: int) -> list[tuple[str, str, int]]:
    """(seat 0, seat 1, game number) for every game: each pairing plays `games` games, the
    seats swapped every game."""
    if style == "gauntlet":
        pairs = [(players[0], other) for other in players[1:]]
    else:
        pairs = [(a, b) for i, a in enumerate(players) for b in players[i + 1:]]
    return [((a, b) if number % 2 == 0 else (b, a)) + (number,)
            for number in range(games) for a, b in pairs]


def _load_agent(spec: str) -> Callable[[Any, Any], Any]:
    path, _, function = spec[len(CONNECTX):].rpartition(":")
    module_spec = importlib.util.spec_from_file_location(f"arena_agent_{abs(hash(path))}", path)
    if module_spec is None or module_spec.loader is None:
        raise BadInput(f"cannot load {path}")
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    agent = getattr(module, function, None)
    if not callable(agent):
        raise BadInput(f"{path} has no function {function!r}")
    return agent


def play_game(job: Job) -> Record:
    """One game (in a worker process)."""
    from gridgames.games.trilobite.connectx import agent_move

    games = default_games()
    game = games.get_game(job.game)
    params = game.parse_params(job.params)
    state = game.new_state(params, game.new_desc(params, Rng(job.seed)))
    agents = [_load_agent(s) if s.startswith(CONNECTX) else None for s in job.seats]
    record = Record(job, 0.5, [])
    while not game.status(state).over:
        seat = game.current_player(state)
        spec = job.seats[seat]
        try:
            if agents[seat] is not None:
                move = agent_move(agents[seat], state, job.seconds)
            elif spec == RANDOM:
                move = Rng(f"{job.seed} {len(record.moves)}").choice(game.legal_moves(state))
            else:
                rng = Rng(f"{job.seed} {len(record.moves)}")
                move = game.ai.choose(state, spec[len(AI):], rng,
                                      Budget(seconds=job.seconds)).value
        except (IllegalMove, BadInput) as err:
            record.score, record.forfeit = float(seat), f"{spec}: {err}"
            return record
        if job.analysis_seconds > 0 and game.analyzer is not None:
            _judge(game, state, move, seat, job.analysis_seconds, record)
        record.moves.append(move)
        state = game.apply(state, move)
    winner = game.status(state).winner
    record.score = 0.5 if winner is None else float(winner == 0)
    return record


def _outcome(score: int) -> int:
    return (score > 0) - (score < 0)


def _judge(game: Any, state: Any, move: str, seat: int, seconds: float,
           record: Record) -> None:
    """Count the move as a mistake when the analysis proves it throws away a win or a draw
    (the analyzer's scores: above 0 a win for the side to move, 0 a draw, below a loss)."""
    found = game.analyzer.analyze(state, Budget(seconds=seconds))
    scores = found.value or {}
    played = scores.get(move)
    if not found.proven or played is None:
        return
    record.proven[seat] += 1
    best = max(score for score in scores.values() if score is not None)
    record.mistakes[seat] += _outcome(played) < _outcome(best)


def run(jobs: list[Job], workers: int) -> list[Record]:
    if workers <= 1:
        return [play_game(job) for job in progress(jobs, len(jobs), "games")]
    with ProcessPoolExecutor(workers) as pool:
        return list(progress(pool.map(play_game, jobs), len(jobs), "games"))


def anchored(rated: dict[str, Rating], anchor: tuple[str, float] | None
             ) -> dict[str, Rating]:
    """The ratings moved together so that the anchor player has the anchor's rating (a
    Glicko-2 rating says only how much stronger one is than another: the scale's zero is a
    choice)."""
    if anchor is None:
        return rated
    shift = anchor[1] - rated[anchor[0]].rating
    return {p: Rating(r.rating + shift, r.deviation, r.volatility) for p, r in rated.items()}


def ratings(records: list[Record], players: list[str]) -> dict[str, Rating]:
    """Glicko-2 from 1500, one rating period for each round of the pairings' games."""
    current = {player: Rating() for player in players}
    by_period: dict[int, list[Record]] = defaultdict(list)
    for record in records:
        by_period[record.job.period].append(record)
    for period in sorted(by_period):
        games: dict[str, list[tuple[Rating, float]]] = defaultdict(list)
        for record in by_period[period]:
            a, b = record.job.seats
            games[a].append((current[b], record.score))
            games[b].append((current[a], 1.0 - record.score))
        current = {player: update(current[player], games.get(player, []))
                   for player in players}
    return current


def short_name(spec: str) -> str:
    """ai:hard -> hard; connectx:PATH:FUNCTION -> FUNCTION."""
    return spec[len(AI):] if spec.startswith(AI) else spec.rpartition(":")[2]


def table(records: list[Record], players: list[str], analysed: bool,
          anchor: tuple[str, float] | None = None) -> str:
    """The cross-table: each row's wins-draws-losses against each column, its score, rating
    (anchored, if given) and mistakes."""
    results: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    mistakes = dict.fromkeys(players, 0)
    judged = dict.fromkeys(players, 0)
    moves = dict.fromkeys(players, 0)
    for record in records:
        a, b = record.job.seats
        outcome = {1.0: 0, 0.5: 1, 0.0: 2}[record.score]
        results[(a, b)][outcome] += 1
        results[(b, a)][2 - outcome] += 1
        for seat, player in enumerate((a, b)):
            mistakes[player] += record.mistakes[seat]
            judged[player] += record.proven[seat]
            moves[player] += (len(record.moves) + 1 - seat) // 2
    rated = anchored(ratings(records, players), anchor)
    names = {p: short_name(p) for p in players}
    if len(set(names.values())) < len(players):  # two agents of one name: their specs
        names = {p: p for p in players}
    width = max(len(name) for name in names.values())
    column = max(9, width)
    head = " " * width + "".join(f" | {names[p]:>{column}}" for p in players) + \
        " | score | rating (95%)      | mistakes"
    lines = [head, "-" * len(head)]
    for row in sorted(players, key=lambda p: -rated[p].rating):
        cells, won, played = [], 0.0, 0
        for other in players:
            if row == other or (row, other) not in results:
                cells.append(f" | {'':>{column}}")
                continue
            w, d, lost = results[(row, other)]
            won += w + d / 2
            played += w + d + lost
            cells.append(f" | {f'{w}-{d}-{lost}':>{column}}")
        low, high = rated[row].interval()
        share = f"{won / played:.0%}" if played else "-"
        if not analysed:
            judged_text = "not analysed"
        elif judged[row]:
            judged_text = (f"{mistakes[row]} in {judged[row]} moves proven"
                           f" ({moves[row] - judged[row]} unknown)")
        else:
            judged_text = f"unknown ({moves[row]} moves, none proven)"
        lines.append(f"{names[row]:<{width}}{''.join(cells)} | {share:>5} | "
                     f"{rated[row].rating:5.0f} ({low:.0f}-{high:.0f}) | {judged_text}")
    forfeits = [r.forfeit for r in records if r.forfeit]
    if forfeits:
        lines.append(f"forfeits: {len(forfeits)}, the first: {forfeits[0]}")
    return "\n".join(lines)
