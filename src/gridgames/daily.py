"""Daily puzzles: one start a game per UTC date, the same for every player.

2mino (one-solution boards, each difficulty) and Ishido start from a seed made of the date.
Polar plays a level generated for the date (`polar_level`: a budget in states, the date as
its seed), which the server makes once in the compute pool and keeps in the database.
Trilobite (7x6, line 4) sets up a position of the shipped opening book that the side to
move wins against perfect play (`trilobite_position`). A date is `YYYY-MM-DD`, from
FIRST_DAY to today (UTC): `parse_day` refuses anything else with the reason. docs/playing.md
("Daily puzzles") has the player's view.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from dataclasses import dataclass
from functools import lru_cache

from gridgames.core.errors import BadInput, UnknownName
from gridgames.core.grid import Grid
from gridgames.core.stones import encode_position

FIRST_DAY = dt.date(2000, 1, 1)
DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
TWOMINO_LEVELS = ("trivial", "basic", "hard", "extreme")
POLAR = "polar"
TRILOBITE_PARAMS = "width=7,height=6,line=4"
# The set-up positions a Trilobite daily chooses among: the mover wins, not at once nor in
# two moves (a score of 15 or more), nor only at the very end (a score under 5); with at
# least 8 stones on the board, where the perfect AI answers in well under a second.
TRILOBITE_SCORES = (5, 14)
TRILOBITE_MIN_STONES = 8
# Polar's daily level: a modest target (a few hundred ms to 2 s of one core); its budget is
# in states, so the same date gives the same level on any machine.
POLAR_MIN_PUSHES = 6
POLAR_STATES = 20_000


@dataclass(frozen=True)
class Daily:
    """One daily puzzle: which game (and, for 2mino, which difficulty) on which date."""
    day: dt.date
    game: str
    level: str | None = None

    @property
    def path(self) -> str:
        """The page that plays it."""
        tail = f"/{self.level}" if self.level else ""
        return f"/daily/{self.day.isoformat()}/{self.game}{tail}"

    @property
    def seed(self) -> str:
        return f"daily-{self.day.isoformat()}"

    @property
    def key(self) -> str:
        return f"{self.game}/{self.level}" if self.level else self.game


def today() -> dt.date:
    return dt.datetime.now(dt.UTC).date()


def parse_day(text: str, now: dt.date | None = None) -> dt.date:
    """The date of `YYYY-MM-DD`; BadInput saying why for a malformed, impossible, early or
    future date (the dailies of today, UTC, and of every day before it are played)."""
    now = now or today()
    if not isinstance(text, str) or not DAY.fullmatch(text):
        raise BadInput(f"{str(text)[:20]!r} is not a date: write YYYY-MM-DD, e.g. "
                       f"{now.isoformat()}")
    try:
        day = dt.date.fromisoformat(text)
    except ValueError:
        raise BadInput(f"{text} is not a date of the calendar") from None
    if day > now:
        raise BadInput(f"{text} is in the future: the latest daily is today's, "
                       f"{now.isoformat()} (UTC)")
    if day < FIRST_DAY:
        raise BadInput(f"{text} is too early: the dailies start on {FIRST_DAY.isoformat()}")
    return day


def daily_games() -> tuple[str, ...]:
    return ("polar", "twomino", "ishido", "trilobite")


def find_daily(day: dt.date, game: str, level: str | None) -> Daily:
    """The daily of a game (and 2mino's difficulty); UnknownName saying what there is."""
    if game not in daily_games():
        raise UnknownName(f"there is no daily {str(game)[:40]!r}: the dailies are "
                          f"{', '.join(daily_games())}")
    if game == "twomino":
        if level not in TWOMINO_LEVELS:
            raise UnknownName(f"2mino's daily has a difficulty: {', '.join(TWOMINO_LEVELS)} "
                              f"(as in /daily/{day.isoformat()}/twomino/basic)")
    elif level is not None:
        raise UnknownName(f"the {game} daily has no difficulty levels: "
                          f"/daily/{day.isoformat()}/{game}")
    return Daily(day, game, level)


def all_dailies(day: dt.date) -> list[Daily]:
    """Every daily of a date, in the order the pages list them."""
    return [Daily(day, POLAR), *(Daily(day, "twomino", level) for level in TWOMINO_LEVELS),
            Daily(day, "ishido"), Daily(day, "trilobite")]


def pick(day: dt.date, what: str, count: int) -> int:
    """A number in range(count), the same for a date on every machine and Python."""
    digest = hashlib.sha256(f"gridgames daily {day.isoformat()} {what}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % count


def polar_level(day: dt.date) -> str:
    """Polar's level of a date as a desc (4 rows joined by `/`): generated from the date's
    seed at a modest target. Seconds of CPU at most: run it in the compute pool."""
    from gridgames.core.rng import Rng
    from gridgames.games.polar.generator import Target, generate

    made = generate(Rng(f"daily {day.isoformat()} polar"),
                    Target(min_pushes=POLAR_MIN_PUSHES, states=POLAR_STATES))
    return made.level.desc()


def make_start(game: str, day_text: str) -> str:
    """A daily start that takes long to make (the compute pool's `daily` job): Polar's."""
    if game != POLAR:
        raise BadInput(f"the {game} daily is not made by the compute pool")
    return polar_level(parse_day(day_text))


@lru_cache(maxsize=1)
def _trilobite_choices() -> tuple[int, ...]:
    """The book's keys the Trilobite daily chooses among, sorted (see TRILOBITE_SCORES)."""
    from gridgames.games.trilobite.book import BookShelf, decode_key

    book = BookShelf().get(7, 6, 4)
    lo, hi = TRILOBITE_SCORES
    return tuple(sorted(key for key, score in book.entries().items()
                        if lo <= score <= hi and
                        decode_key(key, book.g)[2] >= TRILOBITE_MIN_STONES))


def trilobite_position(day: dt.date) -> tuple[str, int]:
    """(the position's desc, the side to move: 0 Red, 1 Yellow) of a date's Trilobite daily:
    a position of the opening book the side to move wins against perfect play."""
    from gridgames.games.trilobite.bitboard import geometry
    from gridgames.games.trilobite.book import decode_key

    choices = _trilobite_choices()
    if not choices:
        raise UnknownName("the Trilobite daily needs the 7x6 opening book, which is missing")
    g = geometry(7, 6, 4)
    current, mask, moves = decode_key(choices[pick(day, "trilobite", len(choices))], g)
    mover = moves % 2  # Red (x, stone 1) moves first
    cells = []  # row by row from the top, as a desc lists them
    for row in range(g.height - 1, -1, -1):
        for col in range(g.width):
            bit = 1 << (col * g.h1 + row)
            cells.append(0 if not mask & bit else
                         1 + (mover if current & bit else 1 - mover))
    return encode_position(Grid(g.height, g.width), tuple(cells)), mover
