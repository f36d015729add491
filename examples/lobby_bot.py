"""A bot that plays the lobby of a gridgames server: it becomes a player (a bot), seeks a
game, accepts every challenge, and plays every game it is given, all through the JSON API
and one event stream.

Trilobite moves come from a ConnectX agent (Kaggle's interface): your own, from a file that
defines `agent(observation, configuration)`, or one of our AI levels as such an agent.
Other games get a random legal move. docs/server.md ("Bots") describes the API.

    python examples/lobby_bot.py --server http://127.0.0.1:8000 --name MyBot --games 3
    python examples/lobby_bot.py --name Kaggler --connectx my_agent.py --params width=8,height=7
"""

from __future__ import annotations

import argparse
import json
import random
import runpy
import urllib.error
import urllib.request

from gridgames.games.trilobite.connectx import agent_move, ai_agent
from gridgames.session import Session


def call(args, method, path, body=None):
    request = urllib.request.Request(
        f"{args.server}/api/v1{path}", method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {args.secret}"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


def events(args):
    """(kind, data) of each server-sent event on the player's stream."""
    request = urllib.request.Request(f"{args.server}/api/v1/players/me/events",
                                     headers={"Authorization": f"Bearer {args.secret}"})
    with urllib.request.urlopen(request, timeout=60) as stream:
        kind = None
        for raw in stream:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                kind = line[len("event: "):]
            elif line.startswith("data: "):
                yield kind, json.loads(line[len("data: "):])


def choose(payload, agent):
    if payload["game"] != "trilobite":
        return random.choice(payload["legal_moves"])
    state = Session.from_id(payload["id"], payload["moves"][:payload["cursor"]]).state
    return agent_move(agent, state)


def main():
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--server", default="http://127.0.0.1:8000")
    options.add_argument("--name", default="LobbyBot")
    options.add_argument("--secret", help="a bot's secret (its API token); default: a new bot")
    options.add_argument("--game", default="trilobite")
    options.add_argument("--params", default="", help="the board, e.g. width=8,height=7")
    options.add_argument("--casual", action="store_true", help="seek unrated games")
    options.add_argument("--level", default="easy", help="our AI level as the agent")
    options.add_argument("--connectx", help="a Python file defining agent(obs, config)")
    options.add_argument("--games", type=int, default=1, help="games to play, then stop")
    args = options.parse_args()
    if not args.secret:
        args.secret = call(args, "POST", "/players", {"name": args.name, "bot": True})["secret"]
        print(f"bot {args.name}: its secret (API token) is {args.secret}")
    agent = runpy.run_path(args.connectx)["agent"] if args.connectx else ai_agent(args.level)
    seek = {"game": args.game, "params": args.params, "rated": not args.casual}
    played, done = 0, set()
    for kind, data in events(args):
        if kind == "hello":
            print("seeking:", call(args, "POST", "/seeks", seek)["seek"]["params"])
        elif kind == "challenge":  # a seek only this bot may take: take it
            print("challenged by", data["player"])
            call(args, "POST", f"/seeks/{data['id']}/accept")
        elif kind == "game" and data["game_id"] not in done:
            payload = data["payload"]
            if payload["status"]["over"]:
                done.add(data["game_id"])
                played += 1
                print(f"game {played}: {payload['status']['message']}")
                if played >= args.games:
                    return
                call(args, "POST", "/seeks", seek)
            elif payload["to_move"] == payload["online"]["you"]:
                try:
                    call(args, "POST", f"/links/{payload['link']}/move",
                         {"move": choose(payload, agent)})
                except urllib.error.HTTPError as refused:  # the game changed meanwhile
                    print("move refused:", json.load(refused)["error"])


if __name__ == "__main__":
    main()
