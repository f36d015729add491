"""`gridgames ishido ...`: machine play from the command line."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import TextIO

from gridgames.core.capabilities import Commands, Subcommands, command_group
from gridgames.core.errors import BadInput
from gridgames.core.progress import progress
from gridgames.core.rng import Rng
from gridgames.games.ishido.ai import best_cell, greedy_cell
from gridgames.games.ishido.game import CLASSIC, GRID, SEED, Ishido, IshidoState

GAME = Ishido()
PLAYERS = ("ai", "greedy")


@dataclass(frozen=True)
class Deal:
    placed_all: bool
    score: int
    fourways: int
    tiles_left: int


def play_deal(seed: str, rules: str, player: str) -> Deal:
    params = GAME.parse_params(f"rules={rules}")
    state: IshidoState = GAME.new_state(params, GAME.new_desc(params, Rng(seed)))
    rng = Rng(f"greedy {seed}")
    while not state.over:
        if player == "ai":
            cell = best_cell(state.board, state.pouch, rules, state.fourways)
        else:
            cell = greedy_cell(state.board, state.pouch, rules, state.fourways, rng)
        state = GAME.apply(state, GRID.cell_name(cell))
    return Deal(not state.pouch, state.score, state.fourways, len(state.pouch))


def summary(deals: list[Deal]) -> tuple[float, float, float]:
    n = len(deals)
    return (sum(d.placed_all for d in deals) / n, sum(d.score for d in deals) / n,
            sum(d.fourways for d in deals) / n)


class IshidoCommands(Commands):
    def register(self, sub: Subcommands) -> None:
        commands = command_group(sub, "ishido", "Ishido machine play")
        auto = commands.add_parser("autoplay", help="let a player place every deal; print "
                                   "figures")
        auto.add_argument("--seed", default="autoplay", help="deal i uses seed SEED-i")
        auto.add_argument("--rules", default=SEED, help="seed or classic")
        auto.add_argument("--games", type=int, default=100, help="number of deals")
        auto.add_argument("--player", default="ai", help="ai or greedy")
        auto.set_defaults(run=autoplay)


def autoplay(args: argparse.Namespace, out: TextIO) -> None:
    if args.rules not in (SEED, CLASSIC):
        raise BadInput(f"--rules must be {SEED} or {CLASSIC}, not {args.rules!r}")
    if args.player not in PLAYERS:
        raise BadInput(f"--player must be one of {', '.join(PLAYERS)}")
    if not 1 <= args.games <= 1_000_000:
        raise BadInput("--games must be from 1 to 1000000")
    deals = [play_deal(f"{args.seed}-{i}", args.rules, args.player)
             for i in progress(range(args.games), args.games, "deals")]
    share, score, fourways = summary(deals)
    print(f"player {args.player}  rules {args.rules}  deals {len(deals)}", file=out)
    print(f"all 72 placed {share:.1%}  mean score {score:.1f}  mean 4-ways {fourways:.2f}",
          file=out)
