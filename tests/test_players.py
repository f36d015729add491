"""Players' names (players.py): the shape a name must have, and when two names are one."""

from __future__ import annotations

import pytest

from gridgames.core.errors import BadInput
from gridgames.players import check_name, name_key, secret_hash


@pytest.mark.parametrize("same", [("Bob_1", "bob 1", "B0B-l", "ＢＯＢ１", "bob.1"),
                                  ("Alice", "ALICE", "A1ice", "Аlice", "Alíce"),
                                  ("Zoë", "zoe", "Z0E")])
def test_look_alike_names_have_one_key(same):
    assert len({name_key(name) for name in same}) == 1, [name_key(n) for n in same]


def test_different_names_have_different_keys():
    names = ["Bob", "Rob", "Bobby", "Ann", "Anna", "Kim", "Kai", "Jo", "Yo"]
    assert len({name_key(n) for n in names}) == len(names)


@pytest.mark.parametrize("bad, why", [
    ("a", "2 to 20"), ("x" * 21, "2 to 20"), ("", "2 to 20"), (" Bob", "letters and digits"),
    ("Bob ", "letters and digits"), ("Bo  b", "letters and digits"), ("Bo__b", "letters"),
    ("<b>", "letters"), ("Bob\n", "letters"), ("Bo\u200bb", "letters"), ("_Bob", "letters"),
    ("Bob!", "letters"), ("😀😀", "letters"), (12, "text"), (None, "text")])
def test_malformed_names_are_refused_with_the_reason(bad, why):
    with pytest.raises(BadInput, match=why):
        check_name(bad, ())


@pytest.mark.parametrize("reserved", ["hard", "HARD", "Perfect", "r4nd0m", "Admin", "SYSTEM"])
def test_the_ai_levels_and_the_servers_names_are_reserved(reserved):
    with pytest.raises(BadInput, match="reserved"):
        check_name(reserved, ("random", "easy", "hard", "perfect"))


def test_a_good_name_is_kept_as_nfkc_and_the_secret_only_as_a_hash():
    assert check_name("Ｍaria José", ()) == ("Maria José", name_key("maria jose"))
    assert check_name("李小龙", ())[0] == "李小龙"
    digest = secret_hash("s3cret-token-abcdefgh")
    assert len(digest) == 64 and "s3cret" not in digest


@pytest.mark.parametrize("name", ["\u13aadmin", "\ua4eedmin", "Bob\u0431", "\u3164\u3164",
                                  "abab\u3164"])
def test_mixed_alphabets_and_invisible_letters_are_refused(name):
    with pytest.raises(BadInput, match="one alphabet|letters and digits"):
        check_name(name, ())


def test_whole_alphabets_that_spell_latin_names_fold_to_them():
    assert name_key("\ua4ee\ua4e1\ua4f0") == name_key("ALE") == name_key("\u13aa\u13de\u13ac")
    assert check_name("さくら桜", ())[0] == "さくら桜" and check_name("Al", ())[0] == "Al"
