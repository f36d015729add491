"""The command line: list, new, show, ai, play; errors are one line on stderr, exit code 2."""

import io
import json
import os
import re
import subprocess
import sys

import pytest

from gridgames.cli import main
from gridgames.registry import default_games
from gridgames.store import open_store

GAMES = default_games()


def run(*argv):
    out = io.StringIO()
    code = main(list(argv), out)
    return code, out.getvalue()


def test_list_names_every_game_and_param():
    code, out = run("list")
    assert code == 0
    assert "tictactoe" in out and "trilobite" in out and "width=7 (3..20)" in out
    code, out = run("list", "--json")
    assert [g["name"] for g in json.loads(out)] == list(GAMES)


def test_new_prints_a_game_id():
    code, out = run("new", "trilobite", "--params", "width=10,height=10,line=5", "--seed", "s")
    assert code == 0
    assert out.strip() == "trilobite:width=10,height=10,line=5:" + "/".join(["10"] * 10)


def test_show_json_fields():
    code, out = run("show", "tictactoe::3/3/3", "--moves", "a1", "b2", "--json")
    report = json.loads(out)
    assert code == 0
    assert report["status"] == "ongoing" and report["to_move"] == 0
    assert report["winner"] is None
    assert report["legal_moves"] == ["a2", "a3", "b1", "b3", "c1", "c2", "c3"]
    assert report["text"].splitlines()[2] == "2 . O ."
    code, out = run("show", "trilobite:#x", "--moves", "1122334", "--json")
    report = json.loads(out)
    assert (report["status"], report["winner"], report["to_move"]) == ("won", 0, None)
    assert report["legal_moves"] == []


def test_show_text():
    code, out = run("show", "trilobite::7/7/7/7/7/7", "--moves", "4453")
    assert code == 0
    assert out.splitlines()[-3:] == [". . . Y . . .", ". . Y R R . .", "It's Red's turn"]


def test_ai_prints_its_move():
    # X has 1, 2, 3 on the bottom row: O must block 4.
    code, out = run("ai", "trilobite::7/7/7/7/7/7", "--moves", "17273", "--level", "medium")
    assert (code, out.splitlines()[0]) == (0, "4")
    assert out.splitlines()[1].startswith("medium: best found in ")  # a heuristic proves nothing
    code, out = run("ai", "tictactoe::3/3/3", "--moves", "a1", "a2", "b1", "b2")
    assert (code, out.splitlines()) == (0, ["c1", "perfect: proven"])


@pytest.mark.parametrize("argv, message", [
    (["show", "nope::x"], "unknown game"),
    (["show", "tictactoe::3/3/3", "--moves", "a1", "a1"], "already taken"),
    (["new", "trilobite", "--params", "width=1"], "width must be"),
    (["ai", "tictactoe::3/3/3", "--level", "godlike"], "unknown AI level"),
    (["ai", "tictactoe::3/3/3", "--moves", "a1", "b1", "a2", "b2", "a3"], "over"),
    (["frobnicate"], "invalid choice"),
    (["show"], "required"),
    (["play", "tictactoe", "--ai", "Z"], "--ai must be"),
])
def test_user_errors_are_one_line_and_exit_2(argv, message, capsys):
    code, out = run(*argv)
    err = capsys.readouterr().err
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("gridgames: error: ") and message in err


def test_play_in_the_terminal_against_the_ai(monkeypatch):
    # Person plays X; the perfect AI answers; undo takes back both; the game ends in a draw or
    # a loss.
    typed = "zz\na1\nundo\nb2\nmoves\n" + "\n".join(["a1", "a3", "c1", "c3", "b1", "a2",
                                                      "c2", "b3"]) + "\nn\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    code, out = run("play", "tictactoe", "--level", "perfect", "--seed", "t")
    assert code == 0
    assert "'zz' is not a cell" in out or "not a move" in out
    assert "AI (perfect) plays" in out
    assert "  moves: " in out
    assert "Play again?" in out and "X wins!" not in out


@pytest.mark.slow  # a second or more (make test runs it)
def test_python_dash_m_runs_the_same_cli():
    result = subprocess.run([sys.executable, "-m", "gridgames", "show", "tictactoe::3/3/3",
                             "--moves", "b2", "--json"], capture_output=True, text=True)
    assert result.returncode == 0
    assert json.loads(result.stdout)["to_move"] == 1
    bad = subprocess.run([sys.executable, "-m", "gridgames", "show", "tictactoe:x"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


@pytest.mark.parametrize("name, params", [
    (name, params) for name, game in GAMES.items() for params in ("", *game.sample_params)])
def test_show_moves_on_every_id_form(name, params):
    """Both forms of every game's ID, with a move in its own notation."""
    from gridgames.session import Session

    session = Session.new(name, params, seed="ids")
    move = session.game.legal_moves(session.state)[0]
    for game_id in (session.game_id, session.seed_id):
        code, out = run("show", game_id, "--moves", move, "--json")
        assert code == 0, game_id
        assert json.loads(out)["moves"] == [move]


def test_show_moves_on_a_dominosa_id():
    """Simon Tatham's Dominosa IDs are 2mino games: moves are read in 2mino's notation."""
    code, out = run("show", "6:35260464532412040323410036565151115165522464026630041233",
                    "--moves", "a1-b1")
    assert code == 0
    assert out.splitlines()[0] == "  a b c d e f g"  # column letters, as the moves name them
    assert out.splitlines()[1].startswith("1 3|5")  # row numbers; the bar a1-b1 is on


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert re.fullmatch(r"gridgames \d+\.\d+\.\d+\n", capsys.readouterr().out)


@pytest.mark.slow
def test_ai_with_default_options_answers_within_its_cap():
    """The perfect level on a board the solver cannot prove quickly: it says so, within the
    cap (the one-time compile aside: the first call is not timed here)."""
    import time

    run("ai", "trilobite::7/7/7/7/7/7", "--moves", "4444", "--seconds", "1")  # warm up
    started = time.monotonic()
    code, out = run("ai", "trilobite:width=10,height=10,line=5:" + "/".join(["10"] * 10),
                    "--seconds", "3")
    assert code == 0 and time.monotonic() - started < 6
    move, words = out.splitlines()
    assert move in "123456789a"
    assert words.startswith("perfect: best found in ") and "not proven within the budget" in words


# --- hostile input: one line on stderr, exit code 2, nothing changed ---


def gridgames(*argv, stdin=b"", env=None):
    """The real command in a process of its own: argv may hold bytes that are not UTF-8."""
    return subprocess.run([sys.executable, "-m", "gridgames", *argv], input=stdin,
                          capture_output=True, timeout=60, env={**os.environ, **(env or {})})


def refused(result, words):
    err = result.stderr.decode(errors="replace")
    assert result.returncode == 2 and "Traceback" not in err, err
    assert err.count("\n") == 1 and err.startswith("gridgames: error: ") and words in err, err


@pytest.mark.parametrize("argv, words", [
    (["new", "trilobite", "--seed", b"\xff\xfe"], "'\\udcff\\udcfe' is not valid text"),
    (["show", b"trilobite:#\xff"], "not valid text"),
    (["ai", "tictactoe::3/3/3", "--seed", b"s\xff"], "not valid text"),
    (["polar", "generate", "--name", b"Ice\xff"], "not valid text"),
    (["serve", "--no-browser", "--host", "x" * 1000], "cannot serve on"),
    (["serve", "--no-browser", "--host", "\n"], "cannot serve on '\\n'"),
])
def test_hostile_arguments_are_one_line(argv, words):
    refused(gridgames(*argv), words)


def test_a_nul_in_an_argument_is_one_line(capsys):
    code, out = run("new", "trilobite", "--seed", "a\x00b")
    err = capsys.readouterr().err
    assert code == 2 and out == "" and "contains a NUL character" in err


@pytest.mark.slow  # a second or more (make test runs it)
def test_undecodable_standard_input_is_refused_without_a_traceback():
    """In a locale whose standard streams are strict (en_US.UTF-8, unlike C.UTF-8)."""
    strict = {"PYTHONIOENCODING": "utf-8:strict"}
    solved = gridgames("trilobite", "solve", stdin=b"44\xff\n", env=strict)
    assert solved.returncode == 2 and b"Traceback" not in solved.stderr
    assert solved.stderr.decode().splitlines()[0] == \
        "line 1: '44\\udcff': character 3 ('\\udcff') is not a column"
    played = gridgames("play", "trilobite", "--ai", "none", stdin=b"4\xff\nq\n", env=strict)
    assert played.returncode == 0 and b"Traceback" not in played.stderr


def test_db_backup_refuses_a_database_that_does_not_exist(tmp_path):
    typo = tmp_path / "typo.db"
    refused(gridgames("db", "backup", str(tmp_path / "out.db"), "--db", str(typo)),
            "no database at")
    assert not typo.exists() and not (tmp_path / "out.db").exists()


@pytest.mark.slow  # seconds of commands or searching: `make test`, not `make check`
def test_db_backup_and_restore_refuse_paths_they_cannot_use(tmp_path):
    db = str(tmp_path / "games.db")
    open_store(db).close()
    for target, words in [("/proc/x", "cannot write the backup /proc/x"),
                          (str(tmp_path), "is a directory"),
                          (db, "is the database itself"),
                          ("/dev/full", "cannot write the backup")]:
        refused(gridgames("db", "backup", target, "--db", db), words)
    refused(gridgames("db", "backup", "out.db", "--db", "/proc"), "not a database file")
    backup = str(tmp_path / "backup.db")
    assert gridgames("db", "backup", backup, "--db", db).returncode == 0
    for target, words in [(backup, "is the database itself"),
                          (str(tmp_path), "not a database file"),
                          ("/proc/x/games.db", "cannot restore into /proc/x/games.db")]:
        refused(gridgames("db", "restore", backup, "--db", target), words)


@pytest.mark.slow  # seconds of commands or searching: `make test`, not `make check`
def test_trilobite_books_that_are_no_files_or_no_books_are_one_line(tmp_path):
    header = b'{"format": "gridgames-trilobite-book", "version": 1, "width": 1e999}\n'
    for content, words in [(b"[" * 100_000, "not a valid book"),
                           (b"[]\n", "not a valid book"), (header, "not a valid book")]:
        (tmp_path / "bad.book").write_bytes(content)
        refused(gridgames("trilobite", "book", "info", "--book", str(tmp_path / "bad.book")),
                words)
    refused(gridgames("trilobite", "book", "info", "--book", "/dev/zero"), "not a book file")
    refused(gridgames("trilobite", "book", "build", "--params", "width=4,height=4,line=3",
                      "--depth", "1", "--workers", "1", "--out", "/proc/x"),
            "cannot write the book /proc/x")


@pytest.mark.slow  # seconds of commands or searching: `make test`, not `make check`
def test_a_table_larger_than_the_memory_allowed_is_one_line(tmp_path):
    """--memory within its bounds, on a machine (here: an address-space limit) that cannot
    give it: the solver says so; a book build's process that could not start its table
    ended and the build waited for it for ever."""
    import resource

    def small() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))

    def limited(*argv):
        return subprocess.run([sys.executable, "-m", "gridgames", *argv], input=b"4\n",
                              capture_output=True, timeout=120, preexec_fn=small)

    refused(limited("trilobite", "solve", "--memory", "16384"), "not enough memory")
    built = limited("trilobite", "book", "build", "--depth", "0", "--workers", "1",
                    "--memory", "16384", "--out", str(tmp_path / "x.book"))
    err = built.stderr.decode()
    assert built.returncode == 2 and "Traceback" not in err  # the lines before: its progress
    # (Once in about twenty runs on a busy machine, multiprocessing's resource tracker then
    # warns of a leaked semaphore of the build's queues, after the error.)
    ends = [line for line in err.splitlines() if line.startswith("gridgames: error: ")]
    assert ends == ["gridgames: error: a build process ended early (not enough memory for "
                    "its table? try a smaller --memory)"], err


@pytest.mark.slow  # a second or more (make test runs it)
def test_an_output_that_cannot_be_written_is_one_line():
    with open("/dev/full", "wb") as full:
        for argv in (["list"], ["new", "trilobite"]):
            result = subprocess.run([sys.executable, "-m", "gridgames", *argv], stdout=full,
                                    stderr=subprocess.PIPE, timeout=60)
            assert result.returncode == 2, argv
            assert result.stderr.decode() == \
                "gridgames: error: [Errno 28] No space left on device\n"
