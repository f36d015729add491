"""Polar levels: the original 'STGE' record, the original levels' text, and our readable
level packs.

- STGE: 99 big-endian 16-bit words (docs/rules/polar.md): the penguin's column and row, the
  heart count, then the 96 cells row by row; as 198 raw bytes or as hex words.
- The original levels' text (levels/original.txt): `level N stge ID header W1 W2 W3` lines,
  each followed by 4 rows of 24 digits.
- Our packs: `level: NAME`, optional `key: value` lines, then 4 rows of 24 characters (the
  characters of board.py's CHARS, `P`/`p` for the penguin); `#` starts a comment. A game's
  desc is the same 4 rows joined by `/`.
- Levels a person makes in the page's editor: a draft checked, then written in a format.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from gridgames.core.capabilities import LevelPacks
from gridgames.core.errors import BadInput
from gridgames.core.files import read_limited
from gridgames.core.text import check_text
from gridgames.games.polar.board import (
    BOMB,
    CHARS,
    CODES,
    COLS,
    HEART,
    HOUSE,
    NAMES,
    PENGUIN_ON,
    ROWS,
    TREE,
    WALKABLE,
)

STGE_WORDS = 3 + ROWS * COLS  # 99
STGE_BYTES = 2 * STGE_WORDS  # 198
BUILTIN = Path(__file__).parent / "levels" / "gridgames.txt"


@dataclass(frozen=True)
class Level:
    name: str
    board: tuple[int, ...]
    penguin: int
    hearts: int
    info: dict[str, str] = field(default_factory=dict, compare=False, hash=False)

    def desc(self) -> str:
        return "/".join(format_level_rows(self.board, self.penguin))


def format_level_rows(board: tuple[int, ...], penguin: int) -> list[str]:
    chars = [CHARS[code] for code in board]
    chars[penguin] = "p" if board[penguin] == TREE else "P"
    return ["".join(chars[r * COLS:(r + 1) * COLS]) for r in range(ROWS)]


def _check(board: tuple[int, ...], penguin: int, hearts: int, where: str) -> None:
    if board[penguin] not in (0, TREE):
        raise BadInput(f"{where}: the penguin must start on an empty cell or a tree")
    on_board = board.count(HEART)
    if hearts != on_board:
        raise BadInput(f"{where}: heart count {hearts} but {on_board} hearts on the board")
    if hearts == 0:
        raise BadInput(f"{where}: a level needs at least one heart")


def level_from_rows(rows: list[str], name: str = "", where: str = "level") -> Level:
    if len(rows) != ROWS:
        raise BadInput(f"{where}: a level has {ROWS} rows of {COLS}, not {len(rows)} rows")
    board: list[int] = []
    penguins = []
    for number, row in enumerate(rows, 1):
        if len(row) != COLS:
            raise BadInput(f"{where}: row {number} has {len(row)} cells, not {COLS}")
        for ch in row:
            if ch in PENGUIN_ON:
                penguins.append(len(board))
                board.append(PENGUIN_ON[ch])
            elif ch in CODES:
                board.append(CODES[ch])
            else:
                raise BadInput(f"{where}: row {number} has {ch!r}; use . T M H I + B P p")
    if len(penguins) != 1:
        raise BadInput(f"{where}: a level has one penguin (P or p), not {len(penguins)}")
    level = Level(name, tuple(board), penguins[0], board.count(HEART))
    _check(level.board, level.penguin, level.hearts, where)
    return level


def parse_desc(desc: str) -> Level:
    if not isinstance(desc, str) or len(desc) > 200:
        raise BadInput("a Polar desc is 4 rows of 24 cells joined by /")
    return level_from_rows(desc.split("/"), where="desc")


# --- STGE ---


def stge_decode(data: bytes, name: str = "") -> Level:
    if len(data) != STGE_BYTES:
        raise BadInput(f"an STGE record is {STGE_BYTES} bytes, not {len(data)}")
    words = [int.from_bytes(data[i:i + 2], "big") for i in range(0, STGE_BYTES, 2)]
    return _from_words(words, name)


def _from_words(words: list[int], name: str) -> Level:
    x, y, hearts, cells = words[0], words[1], words[2], words[3:]
    if not (0 <= x < COLS and 0 <= y < ROWS):
        raise BadInput(f"STGE penguin position ({x}, {y}) is off the {COLS}x{ROWS} board")
    bad = [c for c in cells if c > 6]
    if bad:
        raise BadInput(f"STGE cell code {bad[0]} is not a tile (codes are 0-6)")
    board = tuple(cells)
    penguin = y * COLS + x
    _check(board, penguin, hearts, "STGE")
    return Level(name, board, penguin, hearts)


def stge_encode(level: Level) -> bytes:
    row, col = divmod(level.penguin, COLS)
    words = [col, row, level.hearts, *level.board]
    return b"".join(w.to_bytes(2, "big") for w in words)


def stge_from_hex(text: str, name: str = "") -> Level:
    words = re.findall(r"0x([0-9a-fA-F]{1,4})\b", text)
    if len(words) != STGE_WORDS:
        raise BadInput(f"STGE hex text has {len(words)} words, not {STGE_WORDS}")
    return _from_words([int(w, 16) for w in words], name)


def stge_to_hex(level: Level) -> str:
    data = stge_encode(level)
    words = [f"0x{int.from_bytes(data[i:i + 2], 'big'):04X}" for i in range(0, STGE_BYTES, 2)]
    return "\n".join(" ".join(words[i:i + 4]) for i in range(0, len(words), 4))


# --- text files ---


def read_original(text: str) -> list[Level]:
    """The original-levels text (levels/original.txt): header lines with the STGE words, then
    digit rows, then optionally our best line (`solution`) and, where proven, `pushes`."""
    levels = []
    lines = [ln.strip() for ln in text.splitlines()]
    lines = [ln for ln in lines if ln and not ln.startswith("#")]
    i = 0
    while i < len(lines):
        match = re.fullmatch(r"level (\d+) stge (-?\d+) header (\d+) (\d+) (\d+)", lines[i])
        if not match:
            raise BadInput(f"original levels: expected a 'level N stge ID header ...' line, "
                           f"got {lines[i][:40]!r}")
        rows = lines[i + 1:i + 1 + ROWS]
        if len(rows) != ROWS or not all(re.fullmatch(r"[0-6]{24}", r) for r in rows):
            raise BadInput(f"original levels: level {match[1]} needs {ROWS} rows of 24 digits")
        words = [int(match[3]), int(match[4]), int(match[5])]
        words += [int(ch) for row in rows for ch in row]
        # The name players see; the STGE resource ID stays in the file, not in the name.
        level = _from_words(words, f"Original level {match[1]}")
        i += 1 + ROWS
        info = {}  # our findings after the rows: "pushes N" (proven fewest), "solution LINE"
        while i < len(lines) and (found := re.fullmatch(r"(pushes|solution) (\w+)", lines[i])):
            info[found[1]] = found[2]
            i += 1
        levels.append(Level(level.name, level.board, level.penguin, level.hearts, info))
    return levels


def read_pack(text: str, where: str = "level pack") -> list[Level]:
    levels: list[Level] = []
    name: str | None = None
    info: dict[str, str] = {}
    rows: list[str] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        key, colon, value = line.partition(":")
        if colon and key.strip().isidentifier() and key == key.strip():
            if key == "level":
                if name is not None:
                    levels.append(_finish(name, info, rows, where))
                name, info, rows = value.strip(), {}, []
            elif name is not None and not rows:
                info[key] = value.strip()
            elif name is None:
                continue  # pack-level metadata (title: ...)
            else:
                raise BadInput(f"{where}, line {number}: '{key}:' after the rows of a level")
        elif name is None:
            raise BadInput(f"{where}, line {number}: rows before any 'level: NAME' line")
        else:
            rows.append(line.strip())
    if name is not None:
        levels.append(_finish(name, info, rows, where))
    if not levels:
        raise BadInput(f"{where}: no levels found")
    return levels


def _finish(name: str, info: dict[str, str], rows: list[str], where: str) -> Level:
    level = level_from_rows(rows, name, f"{where}, level {name!r}")
    return Level(level.name, level.board, level.penguin, level.hearts, dict(info))


def write_pack(levels: list[Level], title: str = "") -> str:
    out = [f"title: {title}", ""] if title else []
    for level in levels:
        out.append(f"level: {level.name}")
        out.extend(f"{key}: {value}" for key, value in level.info.items())
        out.extend(format_level_rows(level.board, level.penguin))
        out.append("")
    return "\n".join(out)


def load_levels(path: str | Path) -> list[Level]:
    """Levels from a file of any of our formats, told apart by their content."""
    file = Path(path)
    data = read_limited(path, "level file")
    if len(data) == STGE_BYTES and b"\x00" in data:  # 16-bit words: text has no NUL bytes
        return [stge_decode(data, file.stem)]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        if len(data) == STGE_BYTES:
            return [stge_decode(data, file.stem)]
        raise BadInput(f"{path}: not a level file (not text, not a {STGE_BYTES}-byte STGE "
                       "record)") from err
    if re.search(r"^\s*level \d+ stge", text, re.MULTILINE):
        return read_original(text)
    if re.search(r"0x[0-9a-fA-F]{4}", text):
        return [stge_from_hex(text, file.stem)]
    return read_pack(text, str(path))


# --- levels a person makes (the page's editor) ---
#
# A draft is the view's own shape, {"cells": [96 tile codes], "penguin": cell or null}, so
# that the editor draws it as the board is drawn and holds no file format; {"desc": ...}
# reads a level the packs already have. This is the one place that says what a made level
# needs; every refusal is BadInput with the reason.

CELLS = ROWS * COLS
# format -> (file extension, media type): pack text, the original binary record, its hex.
FORMATS = {"pack": ("txt", "text/plain; charset=utf-8"),
           "stge": ("stge", "application/octet-stream"),
           "stge-hex": ("txt", "text/plain; charset=utf-8")}
# A name goes on a pack's `level:` line: no `#` (a comment there) and no line break.
NAME = re.compile(r"[\w .,'!?()+-]{1,60}")
DEFAULT_NAME = "My level"


def read_draft(draft: Any) -> tuple[tuple[int, ...], int | None]:
    """(cells, penguin) of a draft; BadInput for anything that is not one."""
    if not isinstance(draft, dict):
        raise BadInput("draft: give {\"cells\": [...], \"penguin\": N} or {\"desc\": ...}")
    if "desc" in draft:
        if set(draft) != {"desc"}:
            raise BadInput("draft: a desc comes alone")
        level = parse_desc(check_text(draft["desc"], "desc"))
        return level.board, level.penguin
    if set(draft) - {"cells", "penguin"} or "cells" not in draft:
        raise BadInput("draft: give cells (and penguin), or a desc")
    cells, penguin = draft["cells"], draft.get("penguin")
    if not isinstance(cells, list) or len(cells) != CELLS:
        raise BadInput(f"cells: a list of {CELLS} tile codes ({ROWS} rows of {COLS})")
    if not all(type(c) is int and 0 <= c <= BOMB for c in cells):
        raise BadInput(f"cells: each is a tile code from 0 to {BOMB}")
    if penguin is not None and not (type(penguin) is int and 0 <= penguin < CELLS):
        raise BadInput(f"penguin: a cell from 0 to {CELLS - 1}, or null")
    return tuple(cells), penguin


def problems(cells: tuple[int, ...], penguin: int | None) -> list[str]:
    """Why these cells are not yet a level, in a player's words ([] when they are). One
    house takes any number of hearts (a heart that goes home leaves the board), so only one
    is needed."""
    found = []
    if penguin is None:
        found.append("No penguin: place one")
    elif cells[penguin] not in WALKABLE:
        found.append(f"The penguin is on a {NAMES[cells[penguin]]}: it starts on empty "
                     "ice or on a tree")
    if HEART not in cells:
        found.append("No heart: place at least one")
    if HOUSE not in cells:
        found.append("No house: place at least one for the hearts to go home to")
    return found


def check(draft: Any) -> dict[str, Any]:
    """The draft as the server reads it, what it still needs, and its desc once it needs
    nothing."""
    cells, penguin = read_draft(draft)
    missing = problems(cells, penguin)
    desc = None if missing else "/".join(format_level_rows(cells, penguin))
    return {"cells": list(cells), "penguin": penguin, "problems": missing, "desc": desc}


def checked_level(desc: Any, name: str = DEFAULT_NAME) -> Level:
    """The level a desc describes, refused with the first problem a draft would show."""
    level = parse_desc(desc)
    missing = problems(level.board, level.penguin)
    if missing:
        raise BadInput(missing[0])
    if not isinstance(name, str) or not NAME.fullmatch(name) or not name.strip():
        raise BadInput("name: up to 60 letters, digits, spaces and . , ' ! ? ( ) + -")
    return Level(name.strip(), level.board, level.penguin, level.hearts)


def level_file(desc: Any, fmt: str, name: str = DEFAULT_NAME) -> tuple[str, str, bytes]:
    """(file name, media type, content) of a level in a format of FORMATS; each reads back
    (packs.load_levels, so `gridgames serve --levels` and `gridgames polar verify`) to the
    same board."""
    if fmt not in FORMATS:
        raise BadInput(f"format must be one of {', '.join(FORMATS)}, not {str(fmt)[:20]!r}")
    level = checked_level(desc, name)
    extension, media = FORMATS[fmt]
    stem = re.sub(r"[^a-z0-9]+", "-", level.name.lower()).strip("-") or "level"
    if fmt == "stge":
        data = stge_encode(level)
    elif fmt == "stge-hex":
        data = (stge_to_hex(level) + "\n").encode()
    else:
        data = write_pack([level]).encode()
    return f"{stem}.{extension}", media, data

# The packs that ship with the game (levels/README.md says where each comes from).
PACKS = {
    "gridgames": ("gridgames.txt", "Original level 1, then levels made by gridgames", ""),
    "original": ("original.txt", "Polar (1990): the original six levels",
                 "by Go Endo, 1990; transcribed by Paul R. Potts"),
    "expert": ("expert.txt", "Expert: levels made by gridgames, 15 pushes or more (proven)",
               ""),
}
DEFAULT_PACK = "gridgames"


@lru_cache(maxsize=len(PACKS))
def builtin_pack(name: str = DEFAULT_PACK) -> tuple[Level, ...]:
    """A shipped pack's levels (package data; read once, immutable)."""
    file, title, _ = PACKS[name]
    text = (resources.files(__package__) / "levels" / file).read_text(encoding="utf-8")
    return tuple(read_original(text) if name == "original" else read_pack(text, title))


class PolarPacks(LevelPacks):
    """The level packs a Polar game offers (the `levels` entry): the shipped ones, and the
    levels of files a user added (numbered after the default pack's own levels)."""

    def __init__(self, packs: dict[str, tuple[Level, ...]] | None = None) -> None:
        self.packs = packs if packs is not None else {n: builtin_pack(n) for n in PACKS}

    def pack(self, name: str) -> tuple[Level, ...]:
        return self.packs[name]

    def adding(self, path: str) -> PolarPacks:
        packs = dict(self.packs)
        packs[DEFAULT_PACK] = packs[DEFAULT_PACK] + tuple(load_levels(path))
        return PolarPacks(packs)

    def find(self, desc: str, pack: str = "", number: int = 0) -> tuple[str, int, Level] | None:
        """The pack and number of a level with this desc, if one of ours has it: `pack`'s
        level `number` first (original level 1 is in two packs: the one chosen is kept)."""
        chosen = self.packs.get(pack, ())
        if 0 < number <= len(chosen) and chosen[number - 1].desc() == desc:
            return pack, number, chosen[number - 1]
        for name, levels in self.packs.items():
            for number, level in enumerate(levels, 1):
                if level.desc() == desc:
                    return name, number, level
        return None

    def catalogue(self) -> list[dict[str, Any]]:
        return [{"name": name, "title": PACKS[name][1], "credit": PACKS[name][2],
                 "levels": [{"number": i, "name": lv.name, "best": lv.info.get("best"),
                             "pushes": lv.info.get("pushes"), "desc": lv.desc()}
                            for i, lv in enumerate(levels, 1)]}
                for name, levels in self.packs.items()]

    # The page's level editor (editor.py): the one place that says what a made level needs.
    formats = tuple(FORMATS)

    def check_draft(self, draft: Any) -> dict[str, Any]:
        return check(draft)

    def level_file(self, desc: str, fmt: str, name: str) -> tuple[str, str, bytes]:
        return level_file(desc, fmt, name)

    def known_solutions(self) -> list[tuple[Level, list[str]]]:
        """Levels that ship with a stored solution."""
        return [(level, list(level.info["solution"])) for levels in self.packs.values()
                for level in levels if "solution" in level.info]
