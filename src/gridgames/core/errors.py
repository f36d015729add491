"""Errors for input from outside. Their message is shown to the user as it is: one clear line."""


class BadInput(ValueError):
    """Malformed input: a params string, game ID, save file, level file, HTTP body, CLI argument."""


class IllegalMove(BadInput):
    """A well-formed request that the rules forbid in this position (or a move string that is
    not a move of this game at all). The state it was tried on is unchanged."""


class UnknownName(BadInput):
    """A game, session or level that does not exist (HTTP 404)."""
