"""2mino: find every domino pair on a shuffled board (docs/rules/twomino.md).

N symbols on N+1 rows x N columns, every unordered pair once. The player toggles bars
between adjacent cells; a pair is formed where the bar between two cells is off and the six
around them are on. Won when every pair value is found exactly once. `clear` turns every
unlocked bar off. A pair move, `a1=a2`, encloses two cells side by side in one step: the bar
between them off, the bars around them on (the bar moves it stands for reach the same
positions, so `legal_moves` lists bar moves and `clear` only, one move a place). Params: n
(symbols), gen (`seed`: the source's shuffle with N^2/4 locked hint bars, board.py;
`unique`: one solution, generator.py), level (for `unique`). The desc is
the symbols row by row (0-9, a, b, c), a dot, and the locked bars as a hex mask; Simon
Tatham's Dominosa IDs are read too (dominosa.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from gridgames.core.envelope import Edge, edge_between
from gridgames.core.errors import BadInput, IllegalMove
from gridgames.core.game import ONGOING, WON, Game, Status, check_move_text
from gridgames.core.grid import Grid
from gridgames.core.params import Params, param
from gridgames.core.rng import Rng
from gridgames.games.twomino.board import hint_bars, samples, shuffled
from gridgames.games.twomino.layout import (
    LEVELS,
    MAX_N,
    MIN_N,
    SYMBOLS,
    Layout,
    layout,
    pair_index,
)

CLEAR = "clear"
PAIR = "="  # between a pair move's two cells: `a1=a2`
SEED_GEN, UNIQUE_GEN = "seed", "unique"


@dataclass(frozen=True)
class TwoMinoParams(Params):
    n: int = param(6, lo=MIN_N, hi=MAX_N, help="symbols (board N+1 x N)",
                   label="Numbers on the dominoes")
    gen: str = param(SEED_GEN, choices=(SEED_GEN, UNIQUE_GEN),
                     help="seed: the devlog's shuffle with hint bars; unique: one solution",
                     label="Puzzle",
                     choice_labels={SEED_GEN: "Shuffled, with some bars given",
                                    UNIQUE_GEN: "Exactly one solution, no bars given"})
    level: str = param("basic", choices=LEVELS, help="difficulty of unique puzzles",
                       label="Difficulty", when=("gen", UNIQUE_GEN),
                       choice_labels={level: level.capitalize() for level in LEVELS})

    def check(self) -> None:
        # Below 5 symbols set analysis is rarely the hardest step a board needs: generating
        # such a puzzle takes seconds (n=4) or never succeeds (n=3).
        if self.gen == UNIQUE_GEN and LEVELS.index(self.level) >= LEVELS.index("hard") \
                and self.n < 5:
            raise BadInput(f"{self.level} unique puzzles need n of 5 or more")


@dataclass(frozen=True)
class TwoMinoState:
    params: TwoMinoParams
    n: int
    symbols: tuple[int, ...]
    locked: frozenset[int]
    on: frozenset[int]  # bars that are on (the locked ones included)
    found: tuple[int, ...] = field(default=(), compare=False)  # middle bars of found pairs
    counts: tuple[int, ...] = field(default=(), compare=False)  # per pair value

    @property
    def won(self) -> bool:
        return all(c == 1 for c in self.counts)


def encode_desc(n: int, symbols: tuple[int, ...], locked: frozenset[int] | list[int]) -> str:
    mask = sum(1 << bar for bar in locked)
    return "".join(SYMBOLS[s] for s in symbols) + "." + format(mask, "x")


def decode_desc(n: int, desc: str) -> tuple[tuple[int, ...], frozenset[int]]:
    lay = layout(n)
    text, dot, mask_text = desc.partition(".")
    if not dot or len(text) != lay.grid.size:
        raise BadInput(f"a 2mino desc for N={n} is {lay.grid.size} symbols, a dot, and a "
                       "hexadecimal mask of locked bars")
    if any(ch not in SYMBOLS[:n] for ch in text):
        raise BadInput(f"2mino symbols for N={n} are {SYMBOLS[:n]}")
    if not re.fullmatch(r"[0-9a-f]{1,200}", mask_text):
        raise BadInput("the locked-bar mask must be hexadecimal")
    mask = int(mask_text, 16)
    if mask >> len(lay.bars):
        raise BadInput("the locked-bar mask names bars that are not on this board")
    symbols = tuple(SYMBOLS.index(ch) for ch in text)
    for symbol in range(n):
        if symbols.count(symbol) != n + 1:
            raise BadInput(f"a 2mino board holds every pair once, so each symbol appears "
                           f"{n + 1} times; {SYMBOLS[symbol]} appears {symbols.count(symbol)}")
    return symbols, frozenset(b for b in range(len(lay.bars)) if mask >> b & 1)


def find_pairs(lay: Layout, on: frozenset[int]) -> tuple[int, ...]:
    """Middle bars of every formed pair: that bar off, its six outline bars on."""
    return tuple(bar for bar in range(len(lay.bars))
                 if bar not in on and on.issuperset(lay.outline(bar)))


def with_pairs(state: TwoMinoState) -> TwoMinoState:
    lay = layout(state.n)
    found = find_pairs(lay, state.on)
    counts = [0] * lay.pairs
    for bar in found:
        a, b = lay.bars[bar]
        counts[pair_index(state.symbols[a], state.symbols[b])] += 1
    return TwoMinoState(state.params, state.n, state.symbols, state.locked, state.on, found,
                        tuple(counts))


def _move_key(move: str) -> Any:
    """Bars in reading order of their first cell, then `clear`."""
    return (1, ()) if move == CLEAR else (0, tuple(
        (int(part.lstrip("abcdefghijklmnopqrstuvwxyz")), part.rstrip("0123456789"))
        for part in move.split("-")))


# --- the game ---


class TwoMino(Game):
    name = "twomino"
    title = "2mino"
    summary = "Find every domino pair on a shuffled board by drawing the bars between them."
    rules = ("The board holds a full set of dominoes, every pair of symbols once, with the "
             "lines between them rubbed out. Click between two cells to draw or erase a bar. "
             "Two neighbouring cells fenced in by bars make a domino, and the counter of "
             "its pair goes up. Win by finding every pair exactly once.")
    params_type = TwoMinoParams
    renderer = "twomino.js"
    order = 50
    sample_params = ("n=3", "n=4,gen=unique,level=trivial")

    def new_desc(self, params: TwoMinoParams, rng: Rng) -> str:
        if params.gen == UNIQUE_GEN:
            if self.generator is None:
                raise BadInput("unique puzzles need the 2mino generator")
            return self.generator.new_desc(params, rng)
        board = shuffled(params.n, rng)
        return encode_desc(params.n, board.symbols, hint_bars(board, rng))

    def new_state(self, params: TwoMinoParams, desc: str) -> TwoMinoState:
        symbols, locked = decode_desc(params.n, desc)
        return with_pairs(TwoMinoState(params, params.n, symbols, locked, locked))

    def max_moves(self, params: TwoMinoParams) -> int | None:
        return None  # bars may be toggled for ever

    def legal_moves(self, state: TwoMinoState) -> list[str]:
        if state.won:
            return []
        lay = layout(state.n)
        moves = [lay.bar_name(b) for b in range(len(lay.bars)) if b not in state.locked]
        if state.on != state.locked:
            moves.append(CLEAR)
        return sorted(moves, key=_move_key)

    def apply(self, state: TwoMinoState, move: str) -> TwoMinoState:
        check_move_text(move)
        if state.won:
            raise IllegalMove("the puzzle is solved")
        if move == CLEAR:
            if state.on == state.locked:
                raise IllegalMove("there is nothing to clear")
            on = state.locked
        elif PAIR in move:
            on = self._paired(state, move)
        else:
            lay = layout(state.n)
            try:
                bar = lay.parse_bar(move)
            except BadInput as err:
                raise IllegalMove(str(err)) from err
            if bar in state.locked:
                raise IllegalMove(f"{move} is locked")
            on = state.on ^ {bar}
        return with_pairs(TwoMinoState(state.params, state.n, state.symbols, state.locked,
                                       frozenset(on)))

    def _paired(self, state: TwoMinoState, move: str) -> frozenset[int]:
        """The bars with the two cells of a pair move enclosed as one domino."""
        lay = layout(state.n)
        try:
            bar = lay.parse_bar(move, PAIR, "pair")
        except BadInput as err:
            raise IllegalMove(str(err)) from err
        if bar in state.locked:
            raise IllegalMove(f"{move}: a locked bar lies between the two cells")
        on = (state.on - {bar}) | set(lay.outline(bar))
        if on == state.on:
            raise IllegalMove(f"{move} is a domino already")
        return frozenset(on)

    def move_words(self, move: str) -> str:
        if move == CLEAR:
            return "clear every bar you turned on"
        if PAIR in move:
            first, _, second = move.partition(PAIR)
            return f"{first} and {second} as one domino"
        first, _, second = move.partition("-")
        return f"the bar between {first} and {second}"

    def status(self, state: TwoMinoState) -> Status:
        total = len(state.counts)
        once = sum(1 for c in state.counts if c == 1)
        if state.won:
            return Status(WON, f"All {total} pairs found!", score=total)
        extra = sum(1 for c in state.counts if c > 1)
        more = f" · {extra} found twice or more" if extra else ""
        return Status(ONGOING, f"{once} of {total} pairs found{more}", score=once)

    def text(self, state: TwoMinoState) -> str:
        """Symbols with | and - for bars that are on (# for locked ones), under column
        letters and beside row numbers (the cell names of moves: a1-b1)."""
        lay = layout(state.n)
        grid = lay.grid
        rows, cols = grid.rows, grid.cols
        pad = len(str(rows))

        def bar(a: int, b: int, on: str, locked: str) -> str:
            index = lay.bar_index[(a, b)]
            return locked if index in state.locked else on if index in state.on else " "

        out = [" " * (pad + 1) + " ".join(grid.cell_name(c)[0] for c in range(cols))]
        for r in range(rows):
            line = ""
            for c in range(cols):
                cell = r * cols + c
                line += SYMBOLS[state.symbols[cell]]
                if c + 1 < cols:
                    line += bar(cell, cell + 1, "|", "#")
            out.append(f"{r + 1:>{pad}} {line}")
            if r + 1 < rows:
                out.append(" " * (pad + 1) + " ".join(
                    bar(r * cols + c, (r + 1) * cols + c, "-", "#") for c in range(cols)))
        return "\n".join(line.rstrip() for line in out)

    def place(self, state: TwoMinoState, move: str, grid: Grid) -> Edge | None:
        """A bar lies on the edge between its two cells; `clear` acts on no place."""
        if move == CLEAR:
            return None
        lay = layout(state.n)
        return edge_between(grid, *lay.bars[lay.parse_bar(move)])

    def own_view(self, state: TwoMinoState) -> dict[str, Any]:
        lay = layout(state.n)
        sample = samples(state.n)
        return {
            "kind": "twomino",
            "n": state.n,
            "rows": lay.grid.rows,
            "cols": lay.grid.cols,
            "symbols": list(state.symbols),
            "bars": [{"cells": list(lay.bars[b]), "move": lay.bar_name(b),
                      "pair": lay.bar_name(b, PAIR),
                      "on": b in state.on, "locked": b in state.locked}
                     for b in range(len(lay.bars))],
            "found": [list(lay.bars[b]) for b in state.found],
            "counts": list(state.counts),
            "won": state.won,
            # The source's samples board: every pair in order, for the counters' colours.
            "sample_symbols": list(sample.symbols),
            "sample_pairs": [[a, sample.partner[a], pair_index(sample.symbols[a],
                                                                 sample.symbols[sample.partner[a]])]
                             for a in range(len(sample.symbols)) if a < sample.partner[a]],
        }
