"""The schema, created and upgraded by the program: each version is a list of statements
that upgrades the one before. `schema_version` holds the version a database is at.

A link's `seat` is the player's index, or -1 for a spectator; `seen_at` and `connected` say
when a page last held the link's live connection (a player's presence). `health` holds one
row that the readiness probe writes afresh (BYTEA: a blob in both databases). `dailies`
holds the start made for a daily puzzle (daily.py), one row a date and puzzle, written once
(insert-if-absent: the first process to make it wins, the others read it). `players`,
`seeks` and `ratings` are the lobby's (store/lobby.py); a link's `player_id` says which
player holds it, when a lobby made the game; `deadlines` holds when the side to move of a
game with a clock runs out of time (web/clocks.py)."""

from __future__ import annotations

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (  # version 1
        """CREATE TABLE games (
            id TEXT PRIMARY KEY,
            game TEXT NOT NULL,
            params TEXT NOT NULL,
            start_desc TEXT NOT NULL,
            seed TEXT,
            cursor INTEGER NOT NULL,
            move_count INTEGER NOT NULL,
            seats TEXT NOT NULL,
            extra TEXT NOT NULL,
            version BIGINT NOT NULL,
            created_at DOUBLE PRECISION NOT NULL,
            updated_at DOUBLE PRECISION NOT NULL)""",
        "CREATE INDEX games_by_update ON games (updated_at)",
        """CREATE TABLE moves (
            game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            ply INTEGER NOT NULL,
            move TEXT NOT NULL,
            PRIMARY KEY (game_id, ply))""",
    ),
    (  # version 2: links to a game, for online play (a seat's secret, or a spectator's)
        """CREATE TABLE links (
            token TEXT PRIMARY KEY,
            game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            seen_at DOUBLE PRECISION,
            connected INTEGER NOT NULL DEFAULT 0)""",
        "CREATE INDEX links_by_game ON links (game_id)",
    ),
    (  # version 3: the readiness probe's scratch row (store/sql.py: check)
        """CREATE TABLE health (
            id INTEGER PRIMARY KEY,
            filler BYTEA NOT NULL)""",
    ),
    (  # version 4: the daily puzzles' starts made once (Polar's generated level)
        """CREATE TABLE dailies (
            day TEXT NOT NULL,
            puzzle TEXT NOT NULL,
            start_desc TEXT NOT NULL,
            created_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (day, puzzle))""",
    ),
    (  # version 5: players, the lobby's seeks, ratings; who holds a link
        """CREATE TABLE players (
            id TEXT PRIMARY KEY,
            secret_hash TEXT NOT NULL UNIQUE,
            name TEXT NOT NULL,
            name_key TEXT NOT NULL UNIQUE,
            bot INTEGER NOT NULL DEFAULT 0,
            blocked TEXT NOT NULL DEFAULT '[]',
            created_at DOUBLE PRECISION NOT NULL,
            seen_at DOUBLE PRECISION NOT NULL)""",
        """CREATE TABLE seeks (
            id TEXT PRIMARY KEY,
            player_id TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
            game TEXT NOT NULL,
            params TEXT NOT NULL,
            quick INTEGER NOT NULL,
            rated INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            rating DOUBLE PRECISION NOT NULL,
            created_at DOUBLE PRECISION NOT NULL,
            seen_at DOUBLE PRECISION NOT NULL,
            clock TEXT,
            target TEXT,
            game_id TEXT,
            link TEXT)""",
        "CREATE INDEX seeks_by_player ON seeks (player_id)",
        """CREATE TABLE deadlines (
            game_id TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            deadline DOUBLE PRECISION NOT NULL)""",
        "CREATE INDEX deadlines_by_time ON deadlines (deadline)",
        """CREATE TABLE ratings (
            player_id TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
            kind TEXT NOT NULL,
            rating DOUBLE PRECISION NOT NULL,
            deviation DOUBLE PRECISION NOT NULL,
            volatility DOUBLE PRECISION NOT NULL,
            games INTEGER NOT NULL,
            updated_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (player_id, kind))""",
        "ALTER TABLE links ADD COLUMN player_id TEXT",
        "CREATE INDEX links_by_player ON links (player_id)",
    ),
)
LATEST = len(MIGRATIONS)
