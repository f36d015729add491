"""The command line: the same engines as the web app, for people at a terminal and scripts.

Every user error (bad arguments, game IDs, params, moves) prints one line on stderr and exits
with code 2; nothing is changed.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TextIO

from gridgames.core.errors import BadInput
from gridgames.core.rng import Rng
from gridgames.registry import GAMES, get_game
from gridgames.session import Session

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # argparse prints a usage block; the contract is one clear line and exit code 2.
        raise BadInput(f"{message} (see {self.prog} --help)")


def _moves(session_game_text: str, words: Sequence[str] | None) -> list[str]:
    return [] if not words else _split(session_game_text, " ".join(words))


def _split(game_name: str, text: str) -> list[str]:
    return get_game(game_name).split_moves(text)


def _session_from(args: argparse.Namespace) -> Session:
    name = args.id.partition(":")[0]
    return Session.from_id(args.id, _moves(name, args.moves))


def state_report(session: Session) -> dict[str, Any]:
    """What `show --json` prints: enough for a script to drive a game."""
    game, state = session.game, session.state
    status = game.status(state)
    report: dict[str, Any] = {
        "id": session.game_id,
        "moves": session.moves,
        "text": game.text(state),
        "legal_moves": game.legal_moves(state),
        "status": status.kind,
        "message": status.message,
    }
    if game.players == 2:
        report["to_move"] = game.current_player(state)
        report["winner"] = status.winner
    if status.score is not None:
        report["score"] = status.score
    return report


# --- commands ---


def cmd_list(args: argparse.Namespace, out: TextIO) -> None:
    if args.json:
        print(json.dumps([g.describe() for g in GAMES.values()], indent=2), file=out)
        return
    for game in GAMES.values():
        print(f"{game.name:<10} {game.summary}", file=out)
        for p in game.params_type.describe():
            bounds = (f" ({p['lo']}..{p['hi']})" if "lo" in p else
                      f" ({'|'.join(p['choices'])})" if "choices" in p else "")
            print(f"{'':<12}{p['name']}={p['default']}{bounds}  {p.get('help', '')}", file=out)
        if game.ai_levels:
            print(f"{'':<12}AI levels: {', '.join(game.ai_levels)}", file=out)


def cmd_new(args: argparse.Namespace, out: TextIO) -> None:
    session = Session.new(args.game, args.params, args.seed)
    print(session.game_id, file=out)


def cmd_show(args: argparse.Namespace, out: TextIO) -> None:
    session = _session_from(args)
    if args.json:
        print(json.dumps(state_report(session)), file=out)
        return
    print(session.game.text(session.state), file=out)
    print(session.status().message, file=out)


def cmd_ai(args: argparse.Namespace, out: TextIO) -> None:
    session = _session_from(args)
    game = session.game
    level = args.level or (game.ai_levels[-1] if game.ai_levels else "")
    # Without --seed the choice is still repeatable: the seed is the position itself.
    seed = args.seed if args.seed is not None else session.game_id + " " + " ".join(session.moves)
    print(game.choose(session.state, game.check_level(level), Rng(seed)), file=out)


def cmd_play(args: argparse.Namespace, out: TextIO) -> None:
    game_name = args.game or _ask_game(out)
    if game_name is None:
        return
    if args.levels:
        get_game(game_name).add_levels(args.levels)
    session = Session.new(game_name, args.params, args.seed)
    game = session.game
    ai_sides = _ai_sides(game, args.ai)
    level = game.check_level(args.level or game.ai_levels[-1]) if ai_sides else ""
    rng = Rng(session.seed or Rng.new_seed())
    print(f"{game.title}. Type a move, u to undo, r to redo, restart, q to quit, ? for help.",
          file=out)
    while True:
        print("\n" + game.text(session.state), file=out)
        status = session.status()
        print(status.message, file=out)
        if status.over:
            answer = _read("Play again? [y/N] ", out)
            if answer is None or answer.lower() not in ("y", "yes"):
                return
            session = Session.new(game_name, args.params)
            continue
        player = game.current_player(session.state)
        if player is not None and player in ai_sides:
            move = game.choose(session.state, level, rng)
            print(f"AI ({level}) plays {move}", file=out)
            session.play(move)
            continue
        line = _read("> ", out)
        if line is None or line in ("q", "quit"):
            return
        _terminal_command(session, line, out, ai_sides)


def _terminal_command(session: Session, line: str, out: TextIO, ai_sides: set[int]) -> None:
    commands: dict[str, Callable[[], Any]] = {
        "u": session.undo, "r": session.redo, "restart": session.restart,
    }
    game = session.game
    try:
        if line in commands:
            commands[line]()
            # Against the AI, undo takes back the AI's reply and the person's move together.
            if line == "u" and session.can_undo and \
                    session.game.current_player(session.state) in ai_sides:
                session.undo()
        elif line in ("?", "help"):
            print("Moves: " + " ".join(game.legal_moves(session.state)), file=out)
        else:
            for move in game.split_moves(line):
                session.play(move)
    except BadInput as err:
        print(f"  {err}", file=out)


def _ai_sides(game: Any, choice: str | None) -> set[int]:
    if game.players != 2 or not game.ai_levels:
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


def _ask_game(out: TextIO) -> str | None:
    names = list(GAMES)
    for number, name in enumerate(names, 1):
        print(f"{number}. {GAMES[name].title}: {GAMES[name].summary}", file=out)
    while True:
        answer = _read("Which game? ", out)
        if answer is None or answer in ("q", "quit"):
            return None
        if answer.isdigit() and 1 <= int(answer) <= len(names):
            return names[int(answer) - 1]
        if answer in GAMES:
            return answer
        print(f"  type 1 to {len(names)}, or q", file=out)


def _read(prompt: str, out: TextIO) -> str | None:
    print(prompt, end="", file=out, flush=True)
    line = sys.stdin.readline()
    return line.strip() if line else None


def cmd_serve(args: argparse.Namespace, out: TextIO) -> None:
    from gridgames.web.serve import serve

    for path in args.levels or []:
        added = get_game("polar").add_levels(path)
        print(f"Polar: {added} levels added from {path}", file=out)
    serve(args.host, args.port, open_browser=not args.no_browser, out=out)


# --- wiring ---


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="gridgames", description="Play and script grid-board games.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("list", help="the games and their parameters")
    p.add_argument("--json", action="store_true", help="as JSON")
    p.set_defaults(run=cmd_list)

    p = sub.add_parser("new", help="start a game and print its game ID")
    p.add_argument("game")
    p.add_argument("--params", default="", help="name=value pairs joined by commas")
    p.add_argument("--seed", help="seed for the start position (random when omitted)")
    p.set_defaults(run=cmd_new)

    p = sub.add_parser("show", help="print the board of a game ID after some moves")
    p.add_argument("id", help="game:params:desc or game:params#seed")
    p.add_argument("--moves", nargs="*", metavar="M", help="moves played from the start")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(run=cmd_show)

    p = sub.add_parser("ai", help="print the AI's move in a position")
    p.add_argument("id")
    p.add_argument("--moves", nargs="*", metavar="M")
    p.add_argument("--level", help="AI level (the strongest when omitted)")
    p.add_argument("--seed", help="seed for breaking ties (default: the position)")
    p.set_defaults(run=cmd_ai)

    p = sub.add_parser("play", help="play in the terminal")
    p.add_argument("game", nargs="?", help="which game (asks when omitted)")
    p.add_argument("--params", default="")
    p.add_argument("--seed")
    p.add_argument("--ai", help="who the AI plays: none, both, or a side (default: second)")
    p.add_argument("--level", help="AI level (the strongest when omitted)")
    p.add_argument("--levels", metavar="PATH", help="games with level files (Polar): add "
                   "this file's levels after the built-in ones (choose with --params level=N)")
    p.set_defaults(run=cmd_play)

    p = sub.add_parser("serve", help="start the web app")
    p.add_argument("--host", default=os.environ.get("GRIDGAMES_HOST", "127.0.0.1"),
                   help="address to bind (default 127.0.0.1, env GRIDGAMES_HOST)")
    p.add_argument("--port", type=int, default=_env_port(),
                   help="port (default 8000, env GRIDGAMES_PORT)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")
    p.add_argument("--levels", metavar="PATH", action="append",
                   help="a Polar level file to add to the level select (repeatable)")
    p.set_defaults(run=cmd_serve)

    for game in GAMES.values():  # game-specific commands: gridgames ishido autoplay ...
        if game.cli_module:
            importlib.import_module(game.cli_module).register(sub)
    return parser


def _env_port() -> int:
    raw = os.environ.get("GRIDGAMES_PORT", "8000")
    if not raw.isdigit() or not 0 < int(raw) < 65536:
        raise BadInput(f"GRIDGAMES_PORT must be a port number, not {raw!r}")
    return int(raw)


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    try:
        args = build_parser().parse_args(argv)
        if not getattr(args, "run", None):
            build_parser().print_help(out)
            return 0
        args.run(args, out)
    except BadInput as err:
        print(f"gridgames: error: {err}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    return 0
