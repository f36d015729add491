"""The lobby's tables: players, their seeks and their ratings (a mixin of SqlStore).

A seek is open until a game is made from it: claiming one sets its `game_id` and the seeker's
`link`, in a transaction that only succeeds while it is still open, so two processes (or two
players) never pair one seek twice. The seeker's next look at the lobby finds the link and the
seek is gone. Ratings are Glicko-2 (core/glicko.py), one a player and kind of game, updated
one game at a time under the rows' locks."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from gridgames.core.glicko import Rating, update
from gridgames.store.records import NotFound

PLAYER_COLUMNS = "id, name, bot, blocked, created_at"
SEEK_COLUMNS = ("s.id, s.player_id, p.name, p.bot, s.game, s.params, s.quick, s.rated, "
                "s.seat, s.rating, s.created_at, s.game_id, s.link, s.clock, s.target, t.name, "
                "p.blocked")

SEEK_TABLES = ("seeks s JOIN players p ON p.id = s.player_id LEFT JOIN players t ON "
               "t.id = s.target")


@dataclass(frozen=True)
class PlayerRecord:
    id: str
    name: str
    bot: bool = False
    blocked: tuple[str, ...] = ()  # the ids of players this one will not meet
    created_at: float = 0.0


@dataclass(frozen=True)
class SeekRecord:
    id: str
    player_id: str
    name: str  # the seeker's
    bot: bool
    game: str
    params: str
    quick: bool  # quick pairing: the server pairs it; an open seek waits to be accepted
    rated: bool
    seat: int  # the side the seeker plays: 0, 1, or -1 either
    rating: float  # the seeker's rating at this kind of game when it was made
    created_at: float
    game_id: str | None = None  # set when it is paired
    link: str | None = None  # the seeker's seat link in that game
    clock: dict[str, Any] | None = None  # {"kind": "game" or "move", "seconds"} (web/clocks.py)
    target: str | None = None  # a challenge: the only player who may accept it
    target_name: str | None = None
    seeker_blocks: tuple[str, ...] = ()  # the players the seeker blocked


class _Unpaired(Exception):
    """A seek was taken by someone else first: the claim's transaction rolls back."""


class LobbyStore:
    """Mixed into SqlStore: uses its transaction, reading and _run."""

    lock_rows = ""  # PostgreSQL locks the rows a rating update reads (SQLite: one writer)
    share_rows = ""  # ...and keeps the players from going meanwhile

    # --- players ---

    def add_player(self, player: PlayerRecord, secret_hash: str, key: str) -> bool:
        """Keep a new player; False when the name is taken."""
        now = time.time()
        with self.transaction() as cur:
            done = self._run(cur, "INSERT INTO players (id, secret_hash, name, name_key, bot, "
                             "blocked, created_at, seen_at) VALUES (?, ?, ?, ?, ?, '[]', ?, ?) "
                             "ON CONFLICT DO NOTHING",
                             (player.id, secret_hash, player.name, key, int(player.bot), now,
                              now)).rowcount
        return done == 1

    def player(self, secret_hash: str) -> PlayerRecord | None:
        return self._one_player("secret_hash", secret_hash)

    def player_named(self, key: str) -> PlayerRecord | None:
        return self._one_player("name_key", key)

    def player_by_id(self, player_id: str) -> PlayerRecord | None:
        return self._one_player("id", player_id)

    def _one_player(self, column: str, value: str) -> PlayerRecord | None:
        with self.reading() as cur:
            row = self._run(cur, f"SELECT {PLAYER_COLUMNS} FROM players WHERE {column} = ?",
                            (value,)).fetchone()
        return None if row is None else _player(row)

    def rename_player(self, player_id: str, name: str, key: str) -> bool:
        """False when another player has the name."""
        with self.transaction() as cur:
            taken = self._run(cur, "SELECT 1 FROM players WHERE name_key = ? AND id <> ?",
                              (key, player_id)).fetchone()
            if taken:
                return False
            self._run(cur, "UPDATE players SET name = ?, name_key = ? WHERE id = ?",
                      (name, key, player_id))
        return True

    def set_player(self, player_id: str, *, bot: bool | None = None,
                   blocked: list[str] | None = None) -> None:
        with self.transaction() as cur:
            if bot is not None:
                self._run(cur, "UPDATE players SET bot = ? WHERE id = ?", (int(bot), player_id))
            if blocked is not None:
                self._run(cur, "UPDATE players SET blocked = ? WHERE id = ?",
                          (json.dumps(blocked), player_id))

    def delete_player(self, player_id: str) -> None:
        """The player, their seeks and ratings go; their games stay, held by no one."""
        with self.transaction() as cur:
            self._run(cur, "DELETE FROM seeks WHERE player_id = ? OR target = ?",
                      (player_id, player_id))
            self._run(cur, "DELETE FROM ratings WHERE player_id = ?", (player_id,))
            self._run(cur, "UPDATE links SET player_id = NULL WHERE player_id = ?",
                      (player_id,))
            self._run(cur, "DELETE FROM players WHERE id = ?", (player_id,))

    def player_links(self, player_id: str, since: float) -> list[tuple[str, str, int, int]]:
        """(token, game_id, seat, version) of the games this player holds a link to that
        changed since `since`."""
        with self.reading() as cur:
            rows = self._run(cur, "SELECT l.token, l.game_id, l.seat, g.version FROM links l "
                             "JOIN games g ON g.id = l.game_id WHERE l.player_id = ? AND "
                             "g.updated_at >= ? ORDER BY g.updated_at", (player_id, since)
                             ).fetchall()
        return [(t, g, int(seat), int(v)) for t, g, seat, v in rows]

    def add_player_links(self, game_id: str, links: list[tuple[str, int, str | None]]) -> None:
        """New links (token, seat, the player who holds it or None) to a game."""
        with self.transaction() as cur:
            cur.executemany(self._sql("INSERT INTO links (token, game_id, seat, player_id) "
                                      "VALUES (?, ?, ?, ?)"),
                            [(t, game_id, seat, who) for t, seat, who in links])

    def delete_game(self, game_id: str) -> None:
        """A game nobody will play (its pairing failed): it goes, with its links."""
        with self.transaction() as cur:
            self._run(cur, "DELETE FROM links WHERE game_id = ?", (game_id,))
            self._run(cur, "DELETE FROM games WHERE id = ?", (game_id,))

    # --- seeks ---

    def add_seek(self, seek: SeekRecord, most: int) -> bool:
        """Keep an open seek; False when the player has `most` open already."""
        now = time.time()
        with self.transaction() as cur:
            open_now = self._run(cur, "SELECT COUNT(*) FROM seeks WHERE player_id = ? AND "
                                 "game_id IS NULL", (seek.player_id,)).fetchone()[0]
            if open_now >= most:
                return False
            # Only while the player (and the challenged one) are there: a deletion that
            # commits first leaves nothing to pair with.
            done = self._run(
                cur, "INSERT INTO seeks (id, player_id, game, params, quick, rated, seat, "
                "rating, created_at, seen_at, clock, target) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                "?, ? WHERE EXISTS (SELECT 1 FROM players WHERE id = ?) AND (CAST(? AS TEXT) IS "
                "NULL OR EXISTS (SELECT 1 FROM players WHERE id = ?))",
                (seek.id, seek.player_id, seek.game, seek.params, int(seek.quick),
                 int(seek.rated), seek.seat, seek.rating, now, now,
                 None if seek.clock is None else json.dumps(seek.clock), seek.target,
                 seek.player_id, seek.target, seek.target))
            if not done.rowcount:
                raise NotFound("that player is gone (deleted a moment ago)")
        return True

    def seeks(self, *, player_id: str | None = None, target: str | None = None,
              game_id_set: bool = False) -> list[SeekRecord]:
        """The open seeks (or, with `game_id_set`, the paired ones), oldest first; only one
        player's with `player_id`, only the challenges to one player with `target`."""
        where = "s.game_id IS NOT NULL" if game_id_set else "s.game_id IS NULL"
        args: tuple = ()
        for column, value in (("s.player_id", player_id), ("s.target", target)):
            if value is not None:
                where += f" AND {column} = ?"
                args += (value,)
        with self.reading() as cur:
            rows = self._run(cur, f"SELECT {SEEK_COLUMNS} FROM {SEEK_TABLES} WHERE {where} "
                             "ORDER BY s.created_at, s.id", args).fetchall()
        return [_seek(row) for row in rows]

    def seek(self, seek_id: str) -> SeekRecord | None:
        with self.reading() as cur:
            row = self._run(cur, f"SELECT {SEEK_COLUMNS} FROM {SEEK_TABLES} WHERE s.id = ?",
                            (seek_id,)).fetchone()
        return None if row is None else _seek(row)

    def touch_seeks(self, player_id: str) -> None:
        """The player's page or bot stream is there: its seeks stay open."""
        with self.transaction() as cur:
            self._run(cur, "UPDATE seeks SET seen_at = ? WHERE player_id = ?",
                      (time.time(), player_id))

    def drop_seeks(self, player_id: str, seek_id: str | None = None) -> int:
        """Remove a player's seek (or all of them, paired ones included), or decline a
        challenge made to the player (open ones only)."""
        with self.transaction() as cur:
            if seek_id is None:
                return self._run(cur, "DELETE FROM seeks WHERE player_id = ?",
                                 (player_id,)).rowcount
            return self._run(cur, "DELETE FROM seeks WHERE id = ? AND (player_id = ? OR "
                             "(target = ? AND game_id IS NULL))",
                             (seek_id, player_id, player_id)).rowcount

    def expire_seeks(self, unseen_since: float, made_before: float) -> int:
        """Seeks whose page went away, or that are too old, go (paired ones too)."""
        with self.transaction() as cur:
            return self._run(cur, "DELETE FROM seeks WHERE seen_at < ? OR created_at < ?",
                             (unseen_since, made_before)).rowcount

    def claim_seeks(self, game_id: str, links: dict[str, str]) -> bool:
        """Pair these seeks (seek id -> the seeker's link token) with a game, all or none:
        False when one of them was paired or withdrawn first."""
        try:
            with self.transaction() as cur:
                for seek_id, token in links.items():
                    if self._run(cur, "UPDATE seeks SET game_id = ?, link = ? WHERE id = ? AND "
                                 "game_id IS NULL", (game_id, token, seek_id)).rowcount != 1:
                        raise _Unpaired
        except _Unpaired:
            return False
        return True

    # --- clocks ---

    def set_deadline(self, game_id: str, deadline: float | None) -> None:
        """When the side to move of this game runs out of time (None: no clock runs)."""
        with self.transaction() as cur:
            if deadline is None:
                self._run(cur, "DELETE FROM deadlines WHERE game_id = ?", (game_id,))
            else:
                self._run(cur, "INSERT INTO deadlines (game_id, deadline) VALUES (?, ?) ON "
                          "CONFLICT (game_id) DO UPDATE SET deadline = excluded.deadline",
                          (game_id, deadline))

    def due(self, now: float, most: int = 100) -> list[str]:
        """Games whose side to move has run out of time by `now`, the longest out first."""
        with self.reading() as cur:
            rows = self._run(cur, "SELECT game_id FROM deadlines WHERE deadline <= ? ORDER BY "
                             f"deadline LIMIT {int(most)}", (now,)).fetchall()
        return [game_id for (game_id,) in rows]

    # --- ratings ---

    def ratings(self, player_ids: list[str], kind: str) -> dict[str, tuple[Rating, int]]:
        """Each player's rating at this kind of game and their rated games (a new player's
        is the start rating and 0)."""
        found = {p: (Rating(), 0) for p in player_ids}
        if not player_ids:
            return found
        marks = ", ".join("?" * len(player_ids))
        with self.reading() as cur:
            rows = self._run(cur, "SELECT player_id, rating, deviation, volatility, games FROM "
                             f"ratings WHERE kind = ? AND player_id IN ({marks})",
                             (kind, *player_ids)).fetchall()
        for who, rating, deviation, volatility, games in rows:
            found[who] = (Rating(rating, deviation, volatility), int(games))
        return found

    def player_ratings(self, player_id: str) -> list[tuple[str, Rating, int]]:
        """(kind, rating, games) of each kind of game the player has a rating at."""
        with self.reading() as cur:
            rows = self._run(cur, "SELECT kind, rating, deviation, volatility, games FROM "
                             "ratings WHERE player_id = ? ORDER BY games DESC, kind",
                             (player_id,)).fetchall()
        return [(kind, Rating(r, d, v), int(g)) for kind, r, d, v, g in rows]

    def keep_players(self, players: list[tuple[PlayerRecord, str, str]],
                     ratings: list[tuple[str, str, Rating]]) -> None:
        """Players (record, secret hash, name key) and their ratings (player id, kind,
        rating), each unless kept already: one transaction, none when all are there."""
        ids = [player.id for player, _, _ in players]
        marks = ", ".join("?" * len(ids))
        with self.reading() as cur:
            there = self._run(cur, f"SELECT COUNT(*) FROM players WHERE id IN ({marks})",
                              tuple(ids)).fetchone()[0]
        if there == len(ids):
            return
        now = time.time()
        with self.transaction() as cur:
            for player, hashed, key in players:
                self._run(cur, "INSERT INTO players (id, secret_hash, name, name_key, bot, "
                          "blocked, created_at, seen_at) VALUES (?, ?, ?, ?, ?, '[]', ?, ?) "
                          "ON CONFLICT DO NOTHING",
                          (player.id, hashed, player.name, key, int(player.bot), now, now))
            for player_id, kind, rating in ratings:
                self._run(cur, "INSERT INTO ratings (player_id, kind, rating, deviation, "
                          "volatility, games, updated_at) VALUES (?, ?, ?, ?, ?, 0, ?) ON "
                          "CONFLICT (player_id, kind) DO NOTHING",
                          (player_id, kind, rating.rating, rating.deviation,
                           rating.volatility, now))

    def rate(self, kind: str, first: str, second: str, score: float,
             fixed: tuple[str, ...] = ()) -> tuple[Rating, Rating] | None:
        """One rated game's result (score: the first player's, 1, 0.5 or 0) in both
        players' ratings (but not of the `fixed` players: the scale's anchor); their new
        ratings (None: a player was deleted, nothing rated)."""
        now = time.time()
        with self.transaction() as cur:
            there = self._run(cur, "SELECT id FROM players WHERE id IN (?, ?)"
                              f"{self.share_rows}", (first, second)).fetchall()
            if len(there) != 2:
                return None
            rows = self._run(cur, "SELECT player_id, rating, deviation, volatility, games FROM "
                             "ratings WHERE kind = ? AND player_id IN (?, ?)"
                             f"{self.lock_rows}", (kind, first, second)).fetchall()
            have = {r[0]: (Rating(r[1], r[2], r[3]), int(r[4])) for r in rows}
            a, games_a = have.get(first, (Rating(), 0))
            b, games_b = have.get(second, (Rating(), 0))
            new_a = a if first in fixed else update(a, [(b, score)])
            new_b = b if second in fixed else update(b, [(a, 1.0 - score)])
            for who, new, games in ((first, new_a, games_a), (second, new_b, games_b)):
                self._run(cur, "INSERT INTO ratings (player_id, kind, rating, deviation, "
                          "volatility, games, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) "
                          "ON CONFLICT (player_id, kind) DO UPDATE SET rating = excluded.rating, "
                          "deviation = excluded.deviation, volatility = excluded.volatility, "
                          "games = excluded.games, updated_at = excluded.updated_at",
                          (who, kind, new.rating, new.deviation, new.volatility, games + 1,
                           now))
        return new_a, new_b


def _player(row: Any) -> PlayerRecord:
    return PlayerRecord(row[0], row[1], bool(row[2]), tuple(json.loads(row[3])), row[4])


def _seek(row: Any) -> SeekRecord:
    return SeekRecord(row[0], row[1], row[2], bool(row[3]), row[4], row[5], bool(row[6]),
                      bool(row[7]), int(row[8]), float(row[9]), row[10], row[11], row[12],
                      None if row[13] is None else json.loads(row[13]), row[14], row[15],
                      tuple(json.loads(row[16])))
