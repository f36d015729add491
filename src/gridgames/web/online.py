"""Online play between people: what holds between two players that the game's rules do not
say (the rules stay in the game; this is the players' etiquette).

Each seat gets a secret link and spectators one of their own; only a seat's link changes
the game, on its turn. Takebacks, draws, resigning, claiming a game and rematches are
offers between the players, one open at a time, kept in the game's `extra["online"]` so
every server process sees them. docs/server.md ("Online play") has the rules.
"""

from __future__ import annotations

import time
from typing import Any

from gridgames.core.errors import BadInput, IllegalMove
from gridgames.store import SPECTATOR, Link
from gridgames.web import clocks
from gridgames.web.rooms import Room

ONLINE = "online"
OFFERS = ("takeback", "draw", "rematch")
HEARTBEAT = 5.0  # seconds between two "still here" marks of a page's live connection


def is_online(room: Room) -> bool:
    return ONLINE in room.extra


def start(room: Room) -> None:
    game = room.session.game
    if game.players != 2:
        raise BadInput(f"{game.title} is played alone: share a spectator link instead")
    if is_online(room):
        raise IllegalMove("this game is online already")
    if game.status(room.session.state).over:
        raise IllegalMove("the game is over: start a new one to play it online")
    room.extra[ONLINE] = fresh(1)
    room.seats = ["person", "person"]


def fresh(round_number: int) -> dict[str, Any]:
    """The online state of a new game: `round` counts the rematches (a page orders what it
    is shown by round, then version)."""
    return {"round": round_number, "offer": None, "result": None, "next": None}


def rematch_of(old: dict[str, Any]) -> dict[str, Any]:
    """The online state of a rematch: the next round, a lobby game's players with the sides
    swapped (their ratings as they are after the game), rated as the game before."""
    new = fresh(old["round"] + 1)
    if old.get("clock"):
        new["clock"] = clocks.start(old["clock"], time.time())
    if "players" in old:
        new.update(rated=old["rated"], kind=old["kind"], players=[
            {**p, "rating": p.get("rating_after", p["rating"])} for p in reversed(
                old["players"])])
        for p in new["players"]:
            p.pop("rating_after", None)
    return new


def state(room: Room) -> dict[str, Any]:
    return room.extra[ONLINE]


def check_player(room: Room, link: Link) -> None:
    if link.seat == SPECTATOR:
        raise IllegalMove("a spectator link only watches")
    if not is_online(room):
        raise IllegalMove("this game is not online")
    if state(room)["next"]:
        raise IllegalMove("this game is over and a new one follows it: reload")


def over(room: Room) -> bool:
    return bool(state(room)["result"]) or \
        room.session.game.status(room.session.state).over


def play(room: Room, link: Link, move: str) -> None:
    check_player(room, link)
    if state(room)["result"]:
        raise IllegalMove("the game is over")
    game = room.session.game
    to_move = game.current_player(room.session.state)
    if to_move is not None and to_move != link.seat:
        raise IllegalMove(f"it is {game.player_names[to_move]}'s turn, not yours")
    play_as(room, link.seat, move)


def play_as(room: Room, seat: int, move: str) -> None:
    """`seat` plays `move` on its turn: its clock, if any, says whether it still may."""
    clock = state(room).get("clock")
    now = time.time()
    if clock and clocks.left(clock, seat, seat, now) < 0:
        end(room, 1 - seat, f"{_name(room, seat)} ran out of time")
        return  # the move came too late: the game is lost on time, the move not played
    room.session.play(move)
    if clock:
        clocks.moved(clock, seat, now)
    _withdraw(room, ("takeback", "draw"))


def ai_to_move(room: Room) -> str | None:
    """The AI level whose turn it is in a lobby game against it (None: a person's turn, or
    over)."""
    if not is_online(room) or over(room):
        return None
    to_move = room.session.game.current_player(room.session.state)
    players = state(room).get("players")
    return None if to_move is None or not players else players[to_move].get("ai")


def offer(room: Room, link: Link, kind: str) -> None:
    check_player(room, link)
    if kind not in OFFERS:
        raise BadInput(f"an offer is one of {', '.join(OFFERS)}")
    mine = state(room)
    if mine["offer"]:
        raise IllegalMove(f"a {mine['offer']['kind']} offer is open already")
    done = over(room)
    if kind == "rematch" and not done:
        raise IllegalMove("a rematch is for a game that is over")
    if kind != "rematch" and done:
        raise IllegalMove("the game is over")
    if kind == "takeback" and not _own_moves(room, link.seat):
        raise IllegalMove("you have no move to take back")
    mine["offer"] = {"kind": kind, "by": link.seat, "at": time.time()}


def reply(room: Room, link: Link, kind: str, accept: bool) -> str | None:
    """Accept or decline the opponent's open offer; the kind accepted (the caller makes the
    rematch's new game), or None."""
    check_player(room, link)
    mine = state(room)
    open_offer = mine["offer"]
    if not open_offer or open_offer["kind"] != kind:
        raise IllegalMove(f"there is no {kind} offer to answer")
    if open_offer["by"] == link.seat:
        raise IllegalMove("that is your own offer")
    mine["offer"] = None
    if not accept:
        mine["declined"] = {"kind": kind, "by": link.seat}
        return None
    if kind == "takeback":
        _take_back(room, open_offer["by"])
        if mine.get("clock"):
            clocks.turn_restarts(mine["clock"], time.time())
    elif kind == "draw":
        mine["result"] = {"kind": "draw", "winner": None, "message": "Draw agreed"}
    return kind


def withdraw(room: Room, link: Link) -> None:
    check_player(room, link)
    mine = state(room)
    if not mine["offer"] or mine["offer"]["by"] != link.seat:
        raise IllegalMove("you have no open offer")
    mine["offer"] = None


def resign(room: Room, link: Link) -> None:
    check_player(room, link)
    if over(room):
        raise IllegalMove("the game is over")
    end(room, 1 - link.seat, f"{_name(room, link.seat)} resigned")


def claim(room: Room, link: Link, opponent: Link | None, claim_seconds: float) -> None:
    check_player(room, link)
    if over(room):
        raise IllegalMove("the game is over")
    if state(room).get("clock"):
        raise IllegalMove("this game has a clock: a player who has gone loses on time")
    gone = gone_for(opponent)
    if gone is None or gone < claim_seconds:
        raise IllegalMove(f"you can claim the game once your opponent has been gone for "
                          f"{claim_seconds:g} s")
    end(room, link.seat, f"{_name(room, 1 - link.seat)} left the game")


def deadline(room: Room) -> float | None:
    """When the server must look at this game by itself: now, for an AI level's move; when
    the side to move runs out of time, with a clock (None: neither, or the game is over)."""
    if ai_to_move(room):
        return time.time()
    clock = state(room).get("clock") if is_online(room) else None
    to_move = room.session.game.current_player(room.session.state)
    if not clock or to_move is None or over(room):
        return None
    return clocks.deadline(clock, to_move)


def flag(room: Room) -> bool:
    """End the game if the side to move has run out of time; whether it did."""
    clock = state(room).get("clock") if is_online(room) else None
    to_move = room.session.game.current_player(room.session.state)
    if not clock or to_move is None or over(room) or \
            time.time() < clocks.deadline(clock, to_move):
        return False
    loser = room.session.game.current_player(room.session.state)
    end(room, 1 - loser, f"{_name(room, loser)} ran out of time")
    return True


def gone_for(link: Link | None) -> float | None:
    """Seconds since the page of this seat went away; None while it is there (or never
    came)."""
    if link is None or link.seen_at is None or connected(link):
        return None
    return max(0.0, time.time() - link.seen_at)


def connected(link: Link) -> bool:
    return link.connected and time.time() - link.seen_at < 3 * HEARTBEAT


def status_of(room: Room) -> dict[str, Any] | None:
    """The status an online ending sets over the rules' own (None: the rules' stands)."""
    if not is_online(room) or not state(room)["result"]:
        return None
    result = state(room)["result"]
    return {"kind": result["kind"], "message": result["message"], "winner": result["winner"],
            "score": None, "over": True}


def view(room: Room, link: Link, links: list[Link], claim_seconds: float) -> dict[str, Any]:
    """What a page holding `link` is told about the online game (never another's token)."""
    players = [next((x for x in links if x.seat == seat), None) for seat in (0, 1)]
    mine = state(room) if is_online(room) else {}
    lobby = mine.get("players") or [{}, {}]  # a lobby game's players: names and ratings
    return {
        "round": mine.get("round", 1),
        "you": None if link.seat == SPECTATOR else link.seat,
        "offer": mine.get("offer"),
        "declined": mine.get("declined"),
        "next": bool(mine.get("next")),
        "claim_seconds": claim_seconds,
        "players": [{"joined": bool(who.get("ai")) or p is not None and p.seen_at is not None,
                     "connected": bool(who.get("ai")) or p is not None and
                     p.seen_at is not None and connected(p),
                     "gone_for": _whole(gone_for(p)),
                     **{k: v for k, v in who.items() if k != "id"}}
                    for p, who in zip(players, lobby, strict=True)],
        "rated": bool(mine.get("rated")),
        "clock": clocks.view(mine["clock"], None if over(room) else
                             room.session.game.current_player(room.session.state),
                             time.time()) if mine.get("clock") else None,
        "watchers": sum(1 for x in links if x.seat == SPECTATOR and x.seen_at is not None
                        and connected(x)),
    }


def _whole(seconds: float | None) -> int | None:
    return None if seconds is None else int(seconds)


def end(room: Room, winner: int, why: str) -> None:
    state(room)["offer"] = None
    name = room.session.game.player_names[winner]
    state(room)["result"] = {"kind": "won", "winner": winner, "message": f"{name} wins: {why}"}


def _name(room: Room, seat: int) -> str:
    return room.session.game.player_names[seat]


def _withdraw(room: Room, kinds: tuple[str, ...]) -> None:
    mine = state(room)
    if mine["offer"] and mine["offer"]["kind"] in kinds:
        mine["offer"] = None
    mine.pop("declined", None)


def _own_moves(room: Room, seat: int) -> bool:
    """Whether `seat` has a move on the board to take back (the sides alternate)."""
    session = room.session
    to_move = session.game.current_player(session.state)
    last_mover = None if to_move is None else 1 - to_move
    return session.cursor >= 2 or (session.cursor == 1 and last_mover == seat)


def _take_back(room: Room, seat: int) -> None:
    """Undo the requester's last move and any reply after it: their turn again."""
    session = room.session
    game = session.game
    while session.can_undo:
        session.undo()
        if game.current_player(session.state) == seat:
            return
