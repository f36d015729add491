"""The lobby: open seeks, accepting one, quick pairing, and the rated game's result.

A seek stays while its player's page or bot stream looks at the lobby (each look marks it
seen) and for SEEK_SECONDS at most. Quick pairing pairs two quick seeks of the same game,
board and rating mode whose ratings differ by at most QUICK_RANGE, widened by QUICK_WIDEN
for every QUICK_STEP seconds the younger of the two has waited. A game from the lobby is an
online game (web/online.py) whose seats' links are held by the players. docs/server.md
("The lobby") has the rules.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any

from gridgames.core.errors import BadInput, IllegalMove, UnknownName
from gridgames.players import name_key
from gridgames.registry import Games
from gridgames.session import Session
from gridgames.store import SPECTATOR, Conflict, SqlStore, Unavailable
from gridgames.store.lobby import PlayerRecord, SeekRecord
from gridgames.web import clocks, online
from gridgames.web.ai_players import ANCHOR, AiPlayers, is_ai
from gridgames.web.rooms import PERSON, Room, Rooms, new_id

SEEK_SECONDS = 600.0  # a seek's longest life
UNSEEN_SECONDS = 15.0  # a seek whose page or stream has not looked for this long goes
MOST_SEEKS = 3  # open seeks a player may have at once
QUICK_RANGE, QUICK_WIDEN, QUICK_STEP = 200.0, 50.0, 10.0
PROVISIONAL = 110.0  # a rating this unsure (its deviation) is shown with a "?"
SWEEP_EVERY = 1.0  # seconds between two sweeps of stale seeks by one process
SEATS = {"first": 0, "second": 1, "any": -1}
log = logging.getLogger("gridgames")


def rating_kind(game_name: str, params_text: str) -> str:
    """What a rating is for: one game on one board ("trilobite:cols=7,rows=6,...")."""
    return f"{game_name}:{params_text}"


def link_url(game_name: str, token: str) -> str:
    return f"/play/{game_name}?link={token}"


def seek_view(seek: SeekRecord) -> dict[str, Any]:
    return {"id": seek.id, "player": seek.name, "bot": seek.bot, "game": seek.game,
            "params": seek.params, "quick": seek.quick, "rated": seek.rated,
            "seat": next(k for k, v in SEATS.items() if v == seek.seat),
            "rating": round(seek.rating), "clock": seek.clock, "to": seek.target_name,
            "age": int(max(0.0, time.time() - seek.created_at))}


def blocked(player: PlayerRecord, seek: SeekRecord) -> bool:
    """Whether either of the two blocked the other."""
    return seek.player_id in player.blocked or player.id in seek.seeker_blocks


def quick_window(seek: SeekRecord, now: float) -> float:
    return QUICK_RANGE + QUICK_WIDEN * ((now - seek.created_at) // QUICK_STEP)


def seating(seek: SeekRecord, other_id: str) -> tuple[str, str]:
    """(first, second): the seek's player where the seek asked to sit (either side when it
    did not say: chosen at random), its opponent in the other seat."""
    seat = seek.seat if seek.seat != -1 else secrets.randbelow(2)
    return (seek.player_id, other_id) if seat == 0 else (other_id, seek.player_id)


class Lobby:
    def __init__(self, store: SqlStore, rooms: Rooms, games: Games, ai: AiPlayers) -> None:
        self.store = store
        self.ai = ai
        self.rooms = rooms
        self.games = games
        self._swept = 0.0
        self._sweep_lock = threading.Lock()
        # Called with the players who have news once it is committed (a challenge to them,
        # or their seek became a game): the live hub wakes their event streams at once, in
        # every server process (Hub.lobby_news).
        self.announce: Callable[[list[str]], None] = lambda _players: None

    # --- seeks ---

    def seek(self, player: PlayerRecord, game_name: str, params_text: str, rated: bool,
             seat: str, quick: bool, clock: Any = None, opponent: str | None = None
             ) -> dict[str, Any]:
        """A new seek; with `opponent` (a name), a challenge only that player may accept."""
        game = self.games.get(game_name)
        if game is None:
            raise UnknownName(f"no game {game_name[:40]!r}")
        if game.players != 2:
            raise BadInput(f"{game.title} is played alone: there is nobody to seek")
        if seat not in SEATS:
            raise BadInput(f"seat is one of {', '.join(SEATS)}")
        params = game.parse_params(params_text).format()
        kind = rating_kind(game.name, params)
        rating = self.store.ratings([player.id], kind)[player.id][0].rating
        target = None
        if opponent is not None:
            target = self.store.player_named(name_key(opponent))
            if target is None:
                raise UnknownName(f"no player {opponent[:40]!r}")
            if target.id == player.id:
                raise BadInput("you cannot challenge yourself")
            if quick:
                raise BadInput("a challenge names its opponent: it is not quick pairing")
            self.check_blocks(player, target.id)
            if is_ai(target.id):  # the machine takes every challenge at once
                self.ai.check_offered(target.id, game.name, params)
                terms = SeekRecord("", player.id, player.name, player.bot, game.name, params,
                                   False, rated, SEATS[seat], rating, time.time(),
                                   clock=clocks.check(clock))
                tokens = self.make_game(terms, seating(terms, target.id), {})
                assert tokens is not None  # no seek to lose
                return {"seek": None, "paired": {
                    "game": game.name, "url": link_url(game.name, tokens[player.id]),
                    "link": tokens[player.id]}}
        made = SeekRecord(new_id(), player.id, player.name, player.bot, game.name, params,
                          quick, rated, SEATS[seat], rating, time.time(),
                          clock=clocks.check(clock), target=target and target.id,
                          target_name=target and target.name)
        if not self.store.add_seek(made, MOST_SEEKS):
            raise IllegalMove(f"you have {MOST_SEEKS} open seeks already: cancel one first")
        if target is not None:
            self.announce([target.id])
        paired = self.pair_quick(player) if quick else None
        return {"seek": seek_view(made), "paired": paired}

    def look(self, player: PlayerRecord | None) -> dict[str, Any]:
        """The open seeks, and for a player: theirs (marked seen), and the game one of them
        became (once: the seek then goes)."""
        self.sweep()
        seeks = self.store.seeks()
        public = [s for s in seeks if s.target is None]
        if player is None:
            return {"seeks": [seek_view(s) for s in public]}
        mine = [s for s in seeks if s.player_id == player.id]
        if mine:
            self.store.touch_seeks(player.id)
        paired = self.delivered(player) or (
            self.pair_quick(player) if any(s.quick for s in mine) else None)
        return {"seeks": [seek_view(s) for s in public if s.player_id != player.id and
                          not blocked(player, s)],
                "challenges": [seek_view(s) for s in seeks if s.target == player.id and
                               not blocked(player, s)],
                "mine": [seek_view(s) for s in mine], "paired": paired}

    def delivered(self, player: PlayerRecord) -> dict[str, Any] | None:
        for seek in self.store.seeks(player_id=player.id, game_id_set=True):
            self.store.drop_seeks(player.id, seek.id)
            return {"game": seek.game, "url": link_url(seek.game, seek.link or ""),
                    "link": seek.link}
        return None

    def cancel(self, player: PlayerRecord, seek_id: str | None) -> int:
        return self.store.drop_seeks(player.id, seek_id)

    def sweep(self) -> None:
        now = time.time()
        with self._sweep_lock:
            if now - self._swept < SWEEP_EVERY:
                return
            self._swept = now
        self.store.expire_seeks(now - UNSEEN_SECONDS, now - SEEK_SECONDS)

    # --- pairing ---

    def accept(self, player: PlayerRecord, seek_id: str) -> dict[str, Any]:
        self.sweep()
        seek = self.store.seek(seek_id) if isinstance(seek_id, str) else None
        if seek is None or seek.game_id is not None or seek.target not in (None, player.id):
            raise UnknownName("that seek is gone: it was taken, withdrawn or expired")
        if seek.player_id == player.id:
            raise IllegalMove("that is your own seek")
        self.check_blocks(player, seek.player_id)
        seats = seating(seek, player.id)
        made = self.make_game(seek, seats, {seek.id: seek})
        if made is None:
            raise IllegalMove("that seek was taken a moment ago")
        return {"game": seek.game, "url": link_url(seek.game, made[player.id]),
                "link": made[player.id]}

    def pair_quick(self, player: PlayerRecord) -> dict[str, Any] | None:
        """Pair one of this player's quick seeks with the closest one in range, if any; the
        game for this player (the other finds theirs on their next look)."""
        self.sweep()
        now = time.time()
        seeks = [s for s in self.store.seeks() if s.quick and s.target is None]
        for mine in (s for s in seeks if s.player_id == player.id):
            fits = [s for s in seeks if s.player_id != player.id and s.game == mine.game and
                    s.params == mine.params and s.rated == mine.rated and
                    s.clock == mine.clock and (s.seat == -1 or s.seat != mine.seat) and
                    abs(s.rating - mine.rating) <= min(quick_window(s, now),
                                                        quick_window(mine, now)) and
                    s.player_id not in player.blocked]
            for other in sorted(fits, key=lambda s: (abs(s.rating - mine.rating), s.created_at)):
                if not self.may_meet(player, other.player_id):
                    continue
                seats = seating(mine, other.player_id)
                made = self.make_game(mine, seats, {mine.id: mine, other.id: other})
                if made is not None:
                    self.store.drop_seeks(player.id, mine.id)
                    return {"game": mine.game, "url": link_url(mine.game, made[player.id]),
                            "link": made[player.id]}
        return None

    def may_meet(self, player: PlayerRecord, other_id: str) -> bool:
        other = self.store.player_by_id(other_id)
        return other is not None and other_id not in player.blocked and \
            player.id not in other.blocked

    def check_blocks(self, player: PlayerRecord, other_id: str) -> None:
        if not self.may_meet(player, other_id):
            raise IllegalMove("you cannot play this player")

    def make_game(self, terms: SeekRecord, seats: tuple[str, str],
                  seeks: dict[str, SeekRecord]) -> dict[str, str] | None:
        """An online game on a seek's terms between two players (seats: their ids, the first
        moves first); each player's seat link, or None when one of the seeks was taken
        first."""
        game_name, params = terms.game, terms.params
        names = {s.player_id: s.name for s in seeks.values()}
        for who in seats:
            if who not in names:
                found = self.store.player_by_id(who)
                names[who] = found.name if found else "?"
        kind = rating_kind(game_name, params)
        ratings = self.store.ratings(list(seats), kind)
        session = Session.new(game_name, params, None, self.games)
        start = online.fresh(1)
        if terms.clock:
            start["clock"] = clocks.start(terms.clock, time.time())
        start.update(rated=terms.rated, kind=kind, players=[
            {"id": who, "name": names[who], "rating": round(ratings[who][0].rating),
             "provisional": ratings[who][0].deviation > PROVISIONAL,
             **({"ai": names[who]} if is_ai(who) else {})} for who in seats])
        room = self.rooms.create(session, [PERSON, PERSON], {online.ONLINE: start})
        tokens = {who: new_id() for who in seats}
        self.store.add_player_links(room.id, [(tokens[seats[0]], 0, seats[0]),
                                              (tokens[seats[1]], 1, seats[1]),
                                              (new_id(), SPECTATOR, None)])
        # The game and its links exist before the seeks are claimed (a seeker who finds its
        # link opens it at once); a claim that fails takes them away again.
        if not self.store.claim_seeks(room.id, {s.id: tokens[s.player_id]
                                                for s in seeks.values()}):
            self.store.delete_game(room.id)
            return None
        self.store.set_deadline(room.id, online.deadline(room))
        self.announce(list(seats))
        return tokens

    # --- ratings ---

    def settle(self, room: Room) -> tuple[str, str, str, float] | None:
        """Run inside a change: a rated game that has just ended is marked settled, and what
        to rate is returned (kind, first player, second, the first's score); else None."""
        if not online.is_online(room):
            return None
        mine = online.state(room)
        if not mine.get("rated") or mine.get("settled") or not online.over(room):
            return None
        mine["settled"] = True
        ended = online.status_of(room) or room.session.game.status(room.session.state).as_json()
        winner = ended.get("winner")
        score = 0.5 if winner is None else 1.0 if winner == 0 else 0.0
        players = mine["players"]
        return mine["kind"], players[0]["id"], players[1]["id"], score

    def rate(self, game_id: str, settled: tuple[str, str, str, float]) -> None:
        """Write a settled game's ratings, and show them in the game."""
        kind, first, second, score = settled
        try:
            new = self.store.rate(kind, first, second, score, fixed=(ANCHOR,))
        except (Unavailable, Conflict) as err:  # the game's end stands; its rating is lost
            log.warning("game %s ended but could not be rated: %s", game_id, err)
            return
        if new is None:
            return  # a player deleted their data meanwhile

        def show(room: Room) -> None:
            for seat, rating in enumerate(new):
                online.state(room)["players"][seat]["rating_after"] = round(rating.rating)

        self.rooms.change(game_id, show)
