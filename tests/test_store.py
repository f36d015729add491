"""The games database, on a real SQLite file and a real PostgreSQL server: the schema is made
by the program, a change is written only over the version it was read at, idle games go,
backups restore."""

from __future__ import annotations

import sqlite3

import pytest

from gridgames.core.errors import BadInput
from gridgames.store import Conflict, GameRecord, NotFound, open_store
from gridgames.store.lobby import PlayerRecord
from gridgames.store.schema import LATEST
from gridgames.store.sqlite import restore


# PostgreSQL's own server starts with the first of these on each worker: slow.
@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def store(request, tmp_path):
    if request.param == "sqlite":
        opened = open_store(str(tmp_path / "games.db"))
    else:
        opened = open_store(request.getfixturevalue("postgres_url"))
    yield opened
    opened.close()


def record(game_id="g1234567", moves=("4", "4")):
    return GameRecord(game_id, "trilobite", "width=7,height=6,line=4", "7/7/7/7/7/7", None,
                      list(moves), len(moves), ["person", "person"])


def test_create_load_update(store):
    assert store.schema_version() == LATEST
    made = store.create(record())
    assert made.version == 1
    loaded = store.load("g1234567")
    assert (loaded.moves, loaded.cursor, loaded.seats) == (["4", "4"], 2, ["person"] * 2)
    loaded.moves, loaded.cursor = ["4", "4", "5"], 3
    assert store.update(loaded, first_changed=2) == 2
    loaded.moves, loaded.cursor = ["4", "3"], 2  # a new move after an undo drops the tail
    assert store.update(loaded, first_changed=1) == 3
    again = store.load("g1234567")
    assert (again.moves, again.cursor, again.version) == (["4", "3"], 2, 3)
    assert store.count() == 1 and list(store.ids()) == ["g1234567"]


def test_a_games_clock_survives_closing_the_database(tmp_path):
    """The page's elapsed time lives in the game's extra: written with a change, read back
    by a store opened afresh (a server restarted)."""
    path = str(tmp_path / "games.db")
    first = open_store(path)
    made = first.create(record())
    made.extra = {"clock_ms": 83_250}
    first.update(made, first_changed=2, stored_moves=2)
    first.close()
    again = open_store(path)
    try:
        assert again.load("g1234567").extra == {"clock_ms": 83_250}
    finally:
        again.close()


def test_a_change_over_an_old_version_is_refused(store):
    store.create(record())
    first, second = store.load("g1234567"), store.load("g1234567")
    first.moves, first.cursor = first.moves + ["1"], 3
    store.update(first, 2)
    second.moves, second.cursor = second.moves + ["7"], 3
    with pytest.raises(Conflict):
        store.update(second, 2)
    assert store.load("g1234567").moves == ["4", "4", "1"]  # the first change stands


def test_unknown_games(store):
    with pytest.raises(NotFound):
        store.load("nothere1")
    with pytest.raises(NotFound):
        store.version("nothere1")


def test_idle_games_are_removed(store):
    store.create(record("g0000001"))
    assert store.delete_idle(3600) == 0
    assert store.delete_idle(-1) == 1  # everything is older than a second from now
    with pytest.raises(NotFound):
        store.load("g0000001")


def test_migrating_twice_changes_nothing(store):
    store.create(record())
    store.migrate()
    assert store.load("g1234567").moves == ["4", "4"]


def test_backup_and_restore(tmp_path):
    store = open_store(str(tmp_path / "games.db"))
    store.create(record("g7654321"))
    store.backup(tmp_path / "backup.db")
    store.close()
    (tmp_path / "games.db").unlink()
    assert restore(tmp_path / "backup.db", tmp_path / "games.db") == 1
    back = open_store(str(tmp_path / "games.db"))
    assert back.load("g7654321").moves == ["4", "4"]
    back.close()
    (tmp_path / "junk.db").write_bytes(b"not a database at all" * 10)
    with pytest.raises(BadInput, match="not a gridgames database"):
        restore(tmp_path / "junk.db", tmp_path / "games.db")
    sqlite3.connect(tmp_path / "empty.db").close()
    with pytest.raises(BadInput, match="not a gridgames database"):
        restore(tmp_path / "empty.db", tmp_path / "games.db")


@pytest.mark.parametrize("url, message", [
    ("/proc/cannot/be/here.db", "cannot open the SQLite database"),
    ("postgresql://nobody@127.0.0.1:1/none", "cannot reach the PostgreSQL database"),
    ("mysql://x/y", "neither a file path"),
])
def test_a_database_that_cannot_be_opened_is_one_line(url, message):
    with pytest.raises(BadInput, match=message) as err:
        open_store(url)
    assert "\n" not in str(err.value)


def test_the_live_game_cache_is_bounded_in_count_and_bytes(tmp_path):
    """Rooms are cached with a bound (the database is the truth): the least recently
    used game goes first, whether the count or the bytes run over."""
    from gridgames.session import Session
    from gridgames.web.rooms import Room, RoomCache

    def room(name, moves=0):
        session = Session.new("polar", "level=1", seed=name)
        for number in range(moves):
            session.play("RL"[number % 2])
        return Room(f"{name:0>8}", session, ["person"])

    small = room("a").approx_bytes()
    cache = RoomCache(max_games=3, max_bytes=10 * small)
    for name in "abcd":
        cache.put(room(name))
        assert cache.get("0000000a") is not None or name == "d"  # a stays: recently used
    assert len(cache) == 3 and cache.get("0000000b") is None  # b was the least recent
    big = room("e", moves=2000)
    assert big.approx_bytes() > 10 * small
    cache.put(big)  # over the bytes by itself: nothing else may stay beside it
    assert len(cache) <= 1 and cache.bytes <= max(big.approx_bytes(), 10 * small)
    grown = room("f", moves=200)
    cache = RoomCache(max_games=100, max_bytes=3 * grown.approx_bytes())
    for name in "fghij":
        cache.put(room(name, moves=200))
    assert len(cache) == 3 and cache.bytes <= 3 * grown.approx_bytes()


def test_a_reader_never_sees_a_change_still_being_stored(store):
    """A change is applied to the room under its lock and stored before the lock is
    let go; a reader waits for it, and sees the stored game (the test found a page shown a
    move whose version was not written yet)."""
    import threading

    from gridgames.registry import default_games
    from gridgames.session import Session
    from gridgames.web.rooms import Rooms

    rooms = Rooms(store, default_games())
    room = rooms.create(Session.new("tictactoe", "", seed="r"), ["person", "person"])
    playing, go = threading.Event(), threading.Event()

    def slow_move(t):
        t.session.play("b2")
        playing.set()
        go.wait(5)

    changer = threading.Thread(target=rooms.change, args=(room.id, slow_move))
    changer.start()
    playing.wait(5)
    seen = []
    reader = threading.Thread(target=lambda: seen.append(
        rooms.read(room.id, lambda t: (t.session.moves, t.version))))
    reader.start()
    reader.join(0.3)
    assert reader.is_alive() and not seen  # the move is applied, not yet stored: it waits
    go.set()
    changer.join(5)
    reader.join(5)
    assert seen == [(["b2"], store.version(room.id))]


def test_a_database_from_a_newer_program_is_refused_in_one_line(store, tmp_path):
    with store.transaction() as cur:
        store._run(cur, "UPDATE schema_version SET version = ?", (LATEST + 1,))
    url = store.url
    store.close()
    with pytest.raises(BadInput, match=f"schema is version {LATEST + 1}, newer than"):
        open_store(url)


def test_a_backup_is_for_its_owner_only(tmp_path):
    import stat

    store = open_store(str(tmp_path / "games.db"))
    try:
        store.backup(tmp_path / "copy.db")
    finally:
        store.close()
    assert stat.S_IMODE((tmp_path / "copy.db").stat().st_mode) == 0o600


def test_a_backup_changes_nothing_in_the_database_it_copies(tmp_path):
    """`db backup` is run with whatever program is at hand: it must not upgrade the schema
    of a database a server of another version is using."""
    from gridgames.store.sqlite import backup

    path = tmp_path / "games.db"
    store = open_store(str(path))
    store.create(record())
    with store.transaction() as cur:  # as an older program left it
        store._run(cur, "UPDATE schema_version SET version = ?", (LATEST - 1,))
    try:
        assert backup(path, tmp_path / "copy.db") == 1
        assert store.schema_version() == LATEST - 1
    finally:
        store.close()


def test_a_daily_start_is_kept_once(store):
    """Insert-if-absent: the first start kept for a date's puzzle is every caller's."""
    assert store.daily("2026-11-27", "polar") is None
    assert store.keep_daily("2026-11-27", "polar", "first") == "first"
    assert store.keep_daily("2026-11-27", "polar", "second") == "first"
    assert store.daily("2026-11-27", "polar") == "first"
    assert store.daily("2026-11-26", "polar") is None


def test_a_database_of_schema_3_gets_the_dailies_and_the_lobbys_tables(tmp_path):
    path = str(tmp_path / "games.db")
    store = open_store(path)
    store.create(record())
    with store.transaction() as cur:  # as gridgames before the daily puzzles left it
        for statement in ("DROP TABLE dailies", "DROP TABLE seeks", "DROP TABLE ratings",
                          "DROP TABLE deadlines", "DROP TABLE players",
                          "DROP INDEX links_by_player",
                          "ALTER TABLE links DROP COLUMN player_id",
                          "UPDATE schema_version SET version = 3"):
            store._run(cur, statement)
    store.close()
    again = open_store(path)
    try:
        assert again.schema_version() == LATEST == 5
        assert again.keep_daily("2026-11-27", "polar", "kept") == "kept"
        assert again.add_player(PlayerRecord("p1", "Ann"), "hash", "ann")
        assert again.load("g1234567").moves == ["4", "4"]
    finally:
        again.close()
