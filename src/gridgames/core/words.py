"""Words the games print, written once."""


def count(number: int, word: str, plural: str | None = None) -> str:
    """'1 move', '2 moves', '0 moves' ('1 press', '2 presses' with plural='presses')."""
    return f"{number} {word if number == 1 else (plural or word + 's')}"
