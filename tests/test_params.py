"""core.params: parsing, printing and validation of `name=value` parameter strings."""

import pytest

from gridgames.core.errors import BadInput
from gridgames.games.trilobite.game import TrilobiteParams


def test_defaults_and_round_trip():
    assert TrilobiteParams.parse("").format() == "width=7,height=6,line=4"
    p = TrilobiteParams.parse("line=5, width=10,height=10")
    assert (p.width, p.height, p.line) == (10, 10, 5)
    assert TrilobiteParams.parse(p.format()) == p


@pytest.mark.parametrize("text, message", [
    ("width", "name=value"),
    ("=3", "name=value"),
    ("depth=3", "unknown parameter"),
    ("width=3,width=4", "twice"),
    ("width=seven", "whole number"),
    ("width=2", "from 3 to 20"),
    ("width=21", "from 3 to 20"),
    ("width=5,height=4,line=6", "line must be from 3 to 5"),
    ("width=" + "9" * 50, "whole number"),
    ("x" * 500, "too long"),
])
def test_bad_params_are_refused_with_a_reason(text, message):
    with pytest.raises(BadInput, match=message):
        TrilobiteParams.parse(text)


def test_describe_lists_bounds():
    described = {p["name"]: p for p in TrilobiteParams.describe()}
    assert described["width"] == {"name": "width", "type": "int", "default": 7, "lo": 3,
                                  "hi": 20, "help": "columns", "label": "Columns"}


def test_describe_gives_a_players_words_and_when_a_field_applies():
    from gridgames.games.twomino.game import TwoMinoParams

    described = {p["name"]: p for p in TwoMinoParams.describe()}
    assert described["gen"]["label"] == "Puzzle"
    assert described["gen"]["choice_labels"]["unique"] == "Exactly one solution, no bars given"
    assert described["level"]["when"] == {"gen": "unique"}  # no difficulty for shuffled boards
    assert "when" not in described["n"]
