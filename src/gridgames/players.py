"""Players without accounts: a player is a random secret a browser (or a bot) keeps and a
name they choose. The server keeps only the secret's hash.

Names are checked here: 2 to 20 characters after NFKC, letters of one alphabet, digits, and
single spaces, `_`, `-` or `.` between them. Two names are the same name when their keys are
equal: NFKC, case-folded, accents dropped, look-alike letters and digits folded to one
letter, and the separators left out ("Bob_1", "bob 1" and "B0B-l" are one name).
docs/server.md ("Players") has the rules.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import unicodedata
from collections.abc import Iterable

from gridgames.core.errors import BadInput

MIN_NAME, MAX_NAME = 2, 20
SECRET_BYTES = 24  # 192 bits: a player's secret, and a bot's API token
_SEPARATORS = " _-."
_SHAPE = re.compile(r"[^\W_]+(?:[ _.\-][^\W_]+)*")  # words joined by single separators
# Characters people mistake for one another, folded to one of them (after case-folding).
_LOOK_ALIKE = str.maketrans({
    "0": "o", "1": "l", "i": "l", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b",
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o",
    "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "і": "l", "ј": "j", "ѕ": "s",
    "һ": "h", "ԁ": "d", "ո": "n", "ԛ": "q", "ԝ": "w",
    # Greek
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "l", "κ": "k", "ν": "v", "ο": "o",
    "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ϲ": "c",
    # Latin letters that are not a-z, and whole alphabets that can spell Latin-looking names
    "ı": "l", "ȷ": "j", "ꭵ": "l", "ꞵ": "b",
    # Cherokee, as case-folding leaves it (its capitals)
    **{small.upper(): latin for small, latin in (
        ("ꭺ", "a"), ("ꮟ", "b"), ("ꮯ", "c"), ("ꭼ", "e"), ("ꮐ", "g"), ("ꮋ", "h"), ("ꮖ", "t"),
        ("ꮶ", "k"), ("ꮮ", "l"), ("ꮇ", "m"), ("ꮲ", "p"), ("ꮪ", "s"), ("ꮃ", "w"), ("ꮩ", "v"),
        ("ꮓ", "z"), ("ꭻ", "j"))},
    "ꓮ": "a", "ꓐ": "b", "ꓚ": "c", "ꓓ": "d", "ꓰ": "e", "ꓝ": "f", "ꓖ": "g", "ꓧ": "h",
    "ꓲ": "l", "ꓙ": "j", "ꓗ": "k", "ꓡ": "l", "ꓟ": "m", "ꓠ": "n", "ꓳ": "o", "ꓑ": "p",
    "ꓣ": "r", "ꓢ": "s", "ꓔ": "t", "ꓴ": "u", "ꓦ": "v", "ꓪ": "w", "ꓫ": "x", "ꓬ": "y",
    "ꓜ": "z",
})
# Letters that show as nothing (Hangul fillers): a name of them would look blank.
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0")
# Scripts that are written together in one name (Japanese mixes these).
_SCRIPT_GROUPS = {"HIRAGANA": "CJK", "KATAKANA": "CJK", "HANGUL": "CJK",
                  "KATAKANA-HIRAGANA": "CJK"}
# Names nobody may take: the machine's and the server's own.
SYSTEM_NAMES = ("admin", "administrator", "anonymous", "bot", "gridgames", "moderator",
                "system", "server", "nobody", "player", "spectator", "me")


def clean_name(name: object) -> str:
    """The name as it is kept (NFKC), or BadInput saying what is wrong with it."""
    if not isinstance(name, str):
        raise BadInput("a name is text")
    name = unicodedata.normalize("NFKC", name)
    if not MIN_NAME <= len(name) <= MAX_NAME:
        raise BadInput(f"a name has {MIN_NAME} to {MAX_NAME} characters")
    if not _SHAPE.fullmatch(name) or _INVISIBLE & set(name):
        raise BadInput("a name is letters and digits, with single spaces, '_', '-' or '.' "
                       "between them")
    if len({_script(c) for c in name if c.isalpha()}) > 1:
        raise BadInput("a name's letters are of one alphabet (Latin, Cyrillic, Greek, ...), "
                       "not mixed")
    return name


def _script(letter: str) -> str:
    """A letter's alphabet, from its Unicode name ("CYRILLIC SMALL LETTER A" -> CYRILLIC;
    the Chinese, Japanese and Korean ones one group)."""
    word = unicodedata.name(letter, "UNKNOWN").split()[0]
    return _SCRIPT_GROUPS.get(word, word)


def name_key(name: str) -> str:
    """What makes two names the same (see the module's notes)."""
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name).casefold())
    text = "".join(c for c in text if not unicodedata.combining(c))
    return "".join(c for c in text.translate(_LOOK_ALIKE) if c not in _SEPARATORS)


def check_name(name: object, reserved: Iterable[str]) -> tuple[str, str]:
    """(the name as kept, its key); BadInput when it is malformed or reserved."""
    kept = clean_name(name)
    key = name_key(kept)
    if key in {name_key(r) for r in (*SYSTEM_NAMES, *reserved)}:
        raise BadInput(f"{kept!r} is reserved")
    return kept, key


def new_secret() -> str:
    return secrets.token_urlsafe(SECRET_BYTES)


def secret_hash(secret: str) -> str:
    """What the server keeps of a secret: enough to recognise it, not to give it away."""
    return hashlib.sha256(secret.encode()).hexdigest()
