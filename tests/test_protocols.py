"""The server's connections (web/protocols.py): WebSocket handshakes take turns."""

from gridgames.web.protocols import UpgradeGate


def test_handshakes_take_turns_and_a_gone_client_passes_its_turn_on():
    gate = UpgradeGate(2)
    started: list[str] = []

    def waiting(name: str, still_there: bool = True):
        def start() -> bool:
            if still_there:
                started.append(name)
            return still_there
        return start

    assert gate.enter(waiting("a")) and gate.enter(waiting("b"))  # two at once
    assert not gate.enter(waiting("c"))
    assert not gate.enter(waiting("gone", still_there=False))
    assert not gate.enter(waiting("d"))
    gate.leave()  # a's handshake is over: c's turn
    assert started == ["c"]
    gate.leave()  # the next one left meanwhile: d's turn
    assert started == ["c", "d"]
    gate.leave()
    gate.leave()
    assert gate.free == 2 and gate.enter(waiting("e"))  # nobody waits: a turn is free
