"""The command line: the same engines as the web app, for people at a terminal and scripts.

Every user error (bad arguments, game IDs, params, moves, files) prints one line on stderr and
exits with code 2; nothing is changed.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

from gridgames import __version__
from gridgames.core.errors import BadInput
from gridgames.core.game import describe
from gridgames.core.ids import GameId
from gridgames.core.result import Budget, Result
from gridgames.core.rng import Rng
from gridgames.core.text import check_text
from gridgames.registry import Games, default_games
from gridgames.session import Session

EXIT_USAGE = 2
# The default cap of one AI move or hint from the command line: with the program's own start
# (imports, loading the compiled solvers) the whole command stays under 10 s.
AI_SECONDS = 8.0


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # argparse prints a usage block; the contract is one clear line and exit code 2.
        raise BadInput(f"{message} (see {self.prog} --help)")


def _session_from(args: argparse.Namespace) -> Session:
    """The session of `id` after `--moves`, the moves read in the ID's game's notation."""
    game = args.registry.get_game(GameId.parse(args.id, args.registry).game)
    moves = game.split_moves(" ".join(args.moves)) if args.moves else []
    return Session.from_id(args.id, moves, args.registry)


def _seconds(value: float) -> float:
    if not 0 < value <= 86400:
        raise BadInput("--seconds must be above 0 and at most a day")
    return value


def state_report(session: Session) -> dict[str, Any]:
    """What `show --json` prints: enough for a script to drive a game."""
    game, state = session.game, session.state
    status = game.status(state)
    report: dict[str, Any] = {
        "id": session.game_id,
        "moves": session.moves,
        "text": game.text(state),
        "legal_moves": game.legal_moves(state),
        "status": status.outcome,
        "message": status.message,
    }
    if game.players == 2:
        report["to_move"] = game.current_player(state)
        report["winner"] = status.winner
    if status.score is not None:
        report["score"] = status.score
    return report


def result_line(found: Result[Any]) -> str:
    """The words of a machine-play result, with its note: 'proven' or 'best found in 0.2 s:
    searched 9 moves ahead, not to the end'."""
    return found.words() + (f": {found.note}" if found.note else "")


# --- commands ---


def cmd_list(args: argparse.Namespace, out: TextIO) -> None:
    games = args.registry
    if args.json:
        print(json.dumps([describe(g) for g in games.values()], indent=2), file=out)
        for name, why in games.failed.items():  # the JSON stays a list of games
            print(f"gridgames: {name} did not load: {why}", file=sys.stderr)
        return
    for game in games.values():
        print(f"{game.name:<10} {game.summary}", file=out)
        for p in game.params_type.describe():
            bounds = (f" ({p['lo']}..{p['hi']})" if "lo" in p else
                      f" ({'|'.join(p['choices'])})" if "choices" in p else "")
            print(f"{'':<12}{p['name']}={p['default']}{bounds}  {p.get('help', '')}", file=out)
        if game.ai:
            print(f"{'':<12}AI levels: {', '.join(game.ai.levels)}", file=out)
    for name, why in games.failed.items():
        print(f"{name:<10} did not load: {why}", file=out)


def cmd_new(args: argparse.Namespace, out: TextIO) -> None:
    session = Session.new(args.game, args.params, args.seed, args.registry)
    print(session.game_id, file=out)


def cmd_show(args: argparse.Namespace, out: TextIO) -> None:
    session = _session_from(args)
    if args.json:
        print(json.dumps(state_report(session)), file=out)
        return
    print(session.game.text(session.state), file=out)
    print(session.status().message, file=out)


def cmd_ai(args: argparse.Namespace, out: TextIO) -> None:
    """The AI's move on the first line, then what it is: proven, or best found (and why)."""
    session = _session_from(args)
    game = session.game
    if game.ai is None:
        raise BadInput(f"{game.title} has no AI player")
    level = game.ai.check_level(args.level or game.ai.levels[-1])
    if session.status().over:
        raise BadInput("the game is over")
    # Without --seed the choice is still repeatable: the seed is the position itself.
    seed = args.seed if args.seed is not None else session.game_id + " " + " ".join(session.moves)
    found = game.ai.choose(session.state, level, Rng(seed), Budget(seconds=_seconds(args.seconds)))
    if args.json:
        print(json.dumps({"move": found.value, "level": level, **found.to_dict()}), file=out)
        return
    print(found.value, file=out)
    print(f"{level}: {result_line(found)}", file=out)


def cmd_play(args: argparse.Namespace, out: TextIO) -> None:
    games: Games = args.registry
    if args.levels:
        if args.game and games.get_game(args.game).levels is None:
            raise BadInput(f"{games.get_game(args.game).title} has no level files")
        games, said = games.with_level_files([args.levels])
        for line in said:
            print(line, file=out)
    game_name = args.game or _ask_game(games, out)
    if game_name is None:
        return
    session = Session.new(game_name, args.params, args.seed, games)
    game = session.game
    ai_sides = _ai_sides(game, args.ai)
    level = game.ai.check_level(args.level or game.ai.levels[-1]) if ai_sides else ""
    rng = Rng(session.seed or Rng.new_seed())
    budget = Budget(seconds=_seconds(args.seconds))
    print(f"{game.title}. Type moves (several at once where the game allows), or: "
          f"{', '.join(TERMINAL_WORDS)}.", file=out)
    while True:
        print("\n" + game.text(session.state), file=out)
        status = session.status()
        print(status.message, file=out)
        if status.over:
            answer = _read("Play again? [y/N] ", out)
            if answer is None or answer.lower() not in ("y", "yes"):
                return
            session = Session.new(game_name, args.params, games=games)
            continue
        player = game.current_player(session.state)
        if player is not None and player in ai_sides:
            found = game.ai.choose(session.state, level, rng, budget)
            print(f"AI ({level}) plays {found.value} ({result_line(found)})", file=out)
            session.play(found.value)
            continue
        line = _read("> ", out)
        if line is None or line.lower() in ("q", "quit"):
            return
        _terminal_command(session, line, out, ai_sides, budget)


# Terminal play: commands are whole words, so that no move of any game is taken for one
# (Polar's moves are U, D, L, R).
TERMINAL_WORDS = ("undo", "redo", "restart", "hint", "moves", "quit")


def _terminal_command(session: Session, line: str, out: TextIO, ai_sides: set[int],
                      budget: Budget) -> None:
    game = session.game

    def undo() -> None:
        session.undo()
        # Against the AI, undo takes back the AI's reply and the person's move together.
        if session.can_undo and game.current_player(session.state) in ai_sides:
            session.undo()

    def hint() -> None:
        if game.hints is None:
            raise BadInput(f"{game.title} has no hints")
        found = game.hints.hint(session.state, budget)
        shown = found.value.move if found.value else "none"
        why = f" ({found.value.why})" if found.value and found.value.why else ""
        print(f"  hint: {shown}{why}; {result_line(found)}", file=out)

    commands: dict[str, Callable[[], Any]] = {
        "undo": undo, "redo": session.redo, "restart": session.restart, "hint": hint,
        "moves": lambda: print("  moves: " + " ".join(game.legal_moves(session.state)),
                               file=out),
    }
    word = line.strip().lower()
    try:
        if word in commands:
            commands[word]()
        elif word in ("?", "help"):
            print(f"  type a move ({' '.join(game.legal_moves(session.state)[:8])} ...), or "
                  f"one of: {', '.join(TERMINAL_WORDS)}", file=out)
        else:
            for move in game.split_moves(line):
                session.play(move)
    except BadInput as err:
        print(f"  {err}", file=out)


def _ai_sides(game: Any, choice: str | None) -> set[int]:
    if game.players != 2 or game.ai is None:
        if choice not in (None, "none"):
            raise BadInput(f"{game.title} has no AI opponent")
        return set()
    names = [n.lower() for n in game.player_names]
    if choice is None:
        return {1}
    choice = choice.lower()
    if choice == "none":
        return set()
    if choice == "both":
        return {0, 1}
    if choice in names:
        return {names.index(choice)}
    raise BadInput(f"--ai must be none, both or one of {', '.join(game.player_names)}")


def _ask_game(games: Games, out: TextIO) -> str | None:
    names = list(games)
    for number, name in enumerate(names, 1):
        print(f"{number}. {games[name].title}: {games[name].summary}", file=out)
    while True:
        answer = _read("Which game? ", out)
        if answer is None or answer in ("q", "quit"):
            return None
        if answer.isdigit() and 1 <= int(answer) <= len(names):
            return names[int(answer) - 1]
        if answer in games:
            return answer
        print(f"  type 1 to {len(names)}, or q", file=out)


def _read(prompt: str, out: TextIO) -> str | None:
    print(prompt, end="", file=out, flush=True)
    line = sys.stdin.readline()
    return line.strip() if line else None


def cmd_serve(args: argparse.Namespace, out: TextIO) -> None:
    from gridgames.web.serve import serve

    games, said = args.registry.with_level_files(args.levels or [])
    for line in said:
        print(line, file=out)
    serve(args, games, out=out)


def cmd_warm(args: argparse.Namespace, out: TextIO) -> None:
    from gridgames.compute.warm import warm_all

    print("machine play's kernels: compiling those not on disk yet (the first time, about "
          "half a minute)...", file=out, flush=True)
    try:
        seconds = warm_all()
    except Exception as err:  # a process that died, no shared memory for its locks...
        raise BadInput(f"machine play's kernels could not be compiled now ({err}): they "
                       "compile where they are first needed") from None
    print(f"machine play's compiled kernels are ready ({seconds:.1f} s)", file=out)


def _sqlite_file(url: str | None, postgres: str) -> Path:
    """The file of the SQLite database at url (default: the server's); BadInput saying
    `postgres` for a PostgreSQL URL."""
    from gridgames.store import default_db

    url = url or default_db()
    if url.startswith(("postgresql://", "postgres://")):
        raise BadInput(postgres)
    path = Path(url.removeprefix("sqlite:///")).expanduser()
    if path.exists() and not path.is_file():
        raise BadInput(f"{path} is not a database file")
    return path


def _same_file(a: str | Path, b: Path) -> bool:
    try:
        return Path(a).samefile(b)
    except OSError:  # one of them is not there (or cannot be looked at): not the same
        return False


def cmd_db_backup(args: argparse.Namespace, out: TextIO) -> None:
    from gridgames.store.sqlite import backup

    db = _sqlite_file(args.db, "backup copies an SQLite database; for PostgreSQL use pg_dump")
    if not db.exists():  # opening it would make an empty one, and back that up
        raise BadInput(f"no database at {db} (--db names an existing one)")
    if Path(args.path).is_dir():
        raise BadInput(f"{args.path} is a directory: give the backup file's path")
    if _same_file(args.path, db):
        raise BadInput(f"{args.path} is the database itself: give another file")
    try:
        games = backup(db, args.path)
    except (sqlite3.Error, OSError) as err:
        raise BadInput(f"cannot write the backup {args.path}: {err}") from None
    print(f"backed up {games} games from {db} to {args.path}", file=out)


def cmd_db_restore(args: argparse.Namespace, out: TextIO) -> None:
    from gridgames.store.sqlite import restore

    target = _sqlite_file(args.db, "restore puts back an SQLite backup; for PostgreSQL use "
                          "pg_restore")
    if _same_file(args.path, target):  # its write-ahead log would be lost
        raise BadInput(f"{args.path} is the database itself: give its backup")
    try:
        games = restore(args.path, target)
    except OSError as err:
        raise BadInput(f"cannot restore into {target}: {err.strerror or err}") from None
    print(f"restored {games} games from {args.path} into {target} (start the server again)",
          file=out)


# --- wiring ---


def _start_arguments(p: argparse.ArgumentParser, optional: bool = False) -> None:
    """A new game: which, its params and the seed of its start."""
    if optional:
        p.add_argument("game", nargs="?", help="which game (asks when omitted)")
    else:
        p.add_argument("game")
    p.add_argument("--params", default="", help="name=value pairs joined by commas")
    p.add_argument("--seed", help="seed for the start position (random when omitted)")


def _position_arguments(p: argparse.ArgumentParser) -> None:
    """A position: a game ID and the moves played from its start; answered as text or
    JSON."""
    p.add_argument("id", help="game:params:desc or game:params#seed (or a Dominosa ID)")
    p.add_argument("--moves", nargs="*", metavar="M", help="moves played from the start")
    p.add_argument("--json", action="store_true", help="one JSON object")


def _ai_arguments(p: argparse.ArgumentParser, seconds_help: str) -> None:
    p.add_argument("--level", help="AI level (the strongest when omitted)")
    p.add_argument("--seconds", type=float, default=AI_SECONDS,
                   help=f"{seconds_help} (default {AI_SECONDS:g})")


def cmd_arena(args: argparse.Namespace, out: TextIO) -> None:
    from gridgames import arena

    game = args.registry.get_game(args.game)
    if game.players != 2 or game.ai is None:
        raise BadInput(f"{game.title} is not a two-player game with AI levels")
    params = game.parse_params(args.params)
    if not 1 <= args.games <= 10_000:
        raise BadInput("--games must be from 1 to 10000")
    if not 0.01 <= args.seconds <= 600 or not 0 <= args.analysis_seconds <= 600:
        raise BadInput("--seconds must be from 0.01 to 600, --analysis-seconds 0 to 600")
    if not 1 <= args.workers <= 256:
        raise BadInput("--workers must be from 1 to 256")
    players = [arena.check_player(spec, game, params) for spec in args.players]
    if len(set(players)) != len(players) or len(players) < 2:
        raise BadInput("name at least two different players")
    jobs = [arena.Job(game.name, params.format(), (a, b), f"{args.seed} {a} {b} {number}",
                      args.seconds, args.analysis_seconds, number)
            for a, b, number in arena.pairings(players, args.format, args.games)]
    anchor = None
    if args.anchor:
        who, _, rating = args.anchor.partition("=")
        try:
            anchor = (who, float(rating))
        except ValueError:
            anchor = None
        if anchor is None or who not in players:
            raise BadInput("--anchor is PLAYER=RATING, PLAYER one of --players")
    records = arena.run(jobs, args.workers)
    analysed = args.analysis_seconds > 0 and game.analyzer is not None
    print(arena.table(records, players, analysed, anchor), file=out)


def cmd_player(args: argparse.Namespace, out: TextIO) -> None:
    import json
    import urllib.error
    import urllib.request

    request = urllib.request.Request(
        f"{args.server.rstrip('/')}/api/v1/players", method="POST",
        data=json.dumps({"name": args.name, "bot": args.bot}).encode(),
        headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            made = json.load(answer)
    except urllib.error.HTTPError as err:
        try:
            said = json.load(err)["error"]
        except (ValueError, KeyError, TypeError):
            said = f"the server answered {err.code}"
        raise BadInput(said) from None
    except (urllib.error.URLError, OSError, ValueError) as err:
        raise BadInput(f"cannot reach {args.server[:80]}: {err}") from None
    kind = "bot" if made["bot"] else "player"
    print(f"{kind} {made['name']} on {args.server}\nsecret (its API token; shown once, keep "
          f"it): {made['secret']}\nuse it as: Authorization: Bearer {made['secret']}",
          file=out)


def build_parser(games: Games) -> argparse.ArgumentParser:
    parser = _Parser(prog="gridgames", description="Play and script grid-board games.")
    parser.add_argument("--version", action="version", version=f"gridgames {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("list", help="the games and their parameters")
    p.add_argument("--json", action="store_true", help="as JSON")
    p.set_defaults(run=cmd_list)

    p = sub.add_parser("new", help="start a game and print its game ID")
    _start_arguments(p)
    p.set_defaults(run=cmd_new)

    p = sub.add_parser("show", help="print the board of a game ID after some moves")
    _position_arguments(p)
    p.set_defaults(run=cmd_show)

    p = sub.add_parser("ai", help="print the AI's move in a position, and whether it is proven")
    _position_arguments(p)
    _ai_arguments(p, "cap on the time to think")
    p.add_argument("--seed", help="seed for breaking ties (default: the position)")
    p.set_defaults(run=cmd_ai)

    p = sub.add_parser("play", help="play in the terminal")
    _start_arguments(p, optional=True)
    p.add_argument("--ai", help="who the AI plays: none, both, or a side (default: second)")
    _ai_arguments(p, "cap on the AI's time a move, and on hints")
    p.add_argument("--levels", metavar="PATH", help="games with level files (Polar): add "
                   "this file's levels after the built-in ones (choose with --params level=N)")
    p.set_defaults(run=cmd_play)

    p = sub.add_parser("arena", help="AI levels and ConnectX agents play each other: a "
                       "cross-table, ratings and proven mistakes")
    p.add_argument("game", help="a two-player game with AI levels")
    p.add_argument("--params", default="", help="the board, as for `new`")
    p.add_argument("--players", nargs="+", required=True, metavar="P",
                   help="random, ai:LEVEL or connectx:PATH:FUNCTION (a Kaggle ConnectX "
                   "agent)")
    p.add_argument("--format", choices=("round-robin", "gauntlet"), default="round-robin",
                   help="every pair, or the first player against each other (default "
                   "round-robin)")
    p.add_argument("--games", type=int, default=2, help="games a pairing, seats swapped each "
                   "game (default 2)")
    p.add_argument("--seconds", type=float, default=1.0, help="cap on a move's time (default 1)")
    p.add_argument("--analysis-seconds", type=float, default=0.5, help="cap on judging a "
                   "move with the game's analyzer (0: none; default 0.5)")
    p.add_argument("--workers", type=int, default=max(1, (os.cpu_count() or 1)),
                   help="worker processes (default: one a core)")
    p.add_argument("--seed", default="arena", help="seed of the games (default 'arena')")
    p.add_argument("--anchor", metavar="PLAYER=RATING", help="give this player this rating "
                   "and the others theirs beside it (e.g. random=1000)")
    p.set_defaults(run=cmd_arena)

    p = sub.add_parser("player", help="become a player of a server (a bot: its API token)")
    p.add_argument("name", help="2-20 letters and digits")
    p.add_argument("--bot", action="store_true", help="a program that plays through the API")
    p.add_argument("--server", default="http://127.0.0.1:8000", help="the server's address")
    p.set_defaults(run=cmd_player)

    p = sub.add_parser("warm", help="compile machine play's kernels now, once, and keep them "
                       "on disk (a fresh install otherwise compiles them at first use)")
    p.set_defaults(run=cmd_warm)

    from gridgames.web.serve import add_serve_options

    p = sub.add_parser("serve", help="start the web app")
    add_serve_options(p)
    p.set_defaults(run=cmd_serve)

    p = sub.add_parser("db", help="the games database: backup and restore (SQLite)")
    db = p.add_subparsers(dest="db_command", metavar="COMMAND", required=True,
                          parser_class=_Parser)
    for name, run, what in (("backup", cmd_db_backup, "copy the database, while it is in use, "
                             "to PATH"),
                            ("restore", cmd_db_restore, "replace the database with the backup "
                             "at PATH (stop the server first)")):
        p = db.add_parser(name, help=what)
        p.add_argument("path", metavar="PATH")
        p.add_argument("--db", default=None, metavar="URL",
                       help="the database (default: env GRIDGAMES_DB, else the user's data "
                       "directory)")
        p.set_defaults(run=run)

    for game in games.values():  # game-specific commands: gridgames ishido autoplay ...
        if game.commands:
            game.commands.register(sub)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        for arg in argv:  # undecodable bytes arrive as lone surrogates: nothing could keep
            check_text(arg, f"the argument {arg[:60]!r}")  # or print them
        games = default_games()
        parser = build_parser(games)
        args = parser.parse_args(argv)
        if not getattr(args, "run", None):
            parser.print_help(out)
            return 0
        args.registry = games
        args.run(args, out)
    except BadInput as err:
        print(f"gridgames: error: {err}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `gridgames ... | head`: the reader has gone
        sys.stderr.close()
        return 0
    return 0
