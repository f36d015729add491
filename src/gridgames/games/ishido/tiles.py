"""Ishido tiles, the pouch, and which tiles may sit next to which (seed 000_25e6ec847822079f).

A tile is a colour (the seed's "material") and an image (its "sigil"), each 0..5; we number
it `colour * 6 + image` (0..35) and write it as two digits, colour then image (`03`). The
seed's colours are Paul Tol's "bright" scheme in this order: blue, cyan, green, yellow, red,
purple; its images are six birds: peacock, parrot, flamingo, owl, duck, eagle.
"""

from __future__ import annotations

from functools import cache

from gridgames.core.bits import bits
from gridgames.core.errors import BadInput
from gridgames.core.rng import Rng

COLOURS = 6
IMAGES = 6
KINDS = COLOURS * IMAGES  # 36 distinct tiles
COPIES = 2
POUCH_SIZE = KINDS * COPIES  # 72
OPENING = 6  # tiles on the board at the start
ALL_KINDS = (1 << KINDS) - 1

SEED, CLASSIC = "seed", "classic"


def colour(tile: int) -> int:
    return tile // IMAGES


def image(tile: int) -> int:
    return tile % IMAGES


def code(tile: int) -> str:
    return f"{colour(tile)}{image(tile)}"


def parse_pouch(desc: str) -> tuple[int, ...]:
    """The desc is the whole pouch in order, two digits a tile; the first six start on the
    board. BadInput unless it is 72 tiles, every tile twice, the first six unique in colour
    and in image (the seed's guarantee that the first tile can always be placed)."""
    if not isinstance(desc, str) or len(desc) != 2 * POUCH_SIZE or not desc.isascii() \
            or not desc.isdigit():
        raise BadInput(f"an Ishido desc is {POUCH_SIZE} tiles of two digits (colour 0-5, "
                       f"image 0-5): {2 * POUCH_SIZE} digits")
    tiles = []
    for i in range(0, len(desc), 2):
        c, s = int(desc[i]), int(desc[i + 1])
        if c >= COLOURS or s >= IMAGES:
            raise BadInput(f"tile {i // 2 + 1} ({desc[i:i + 2]}): colour and image are 0-5")
        tiles.append(c * IMAGES + s)
    for kind in range(KINDS):
        if tiles.count(kind) != COPIES:
            raise BadInput(f"tile {code(kind)} appears {tiles.count(kind)} times, not twice")
    opening = tiles[:OPENING]
    if len({colour(t) for t in opening}) != COLOURS or len({image(t) for t in opening}) != IMAGES:
        raise BadInput("the first six tiles must show every colour and every image once")
    return tuple(tiles)


def format_pouch(tiles: tuple[int, ...] | list[int]) -> str:
    return "".join(code(t) for t in tiles)


def make_pouch(rng: Rng) -> list[int]:
    """Every tile twice, shuffled, then the opening six brought to the front."""
    return opening_first(rng.shuffled([kind for _ in range(COPIES) for kind in range(KINDS)]))


def opening_first(shuffled: list[int]) -> list[int]:
    """The seed's loop over the shuffled tiles: walking them, a tile
    whose colour and image are both unseen joins `head`, any other joins `tail`, until all six
    colours and images are seen; the pouch is head + tail + the rest. The seed conses onto
    head and tail (Racket lists), so both come out in reverse order of the walk: so do ours."""
    head: list[int] = []
    tail: list[int] = []
    colours, images = set(range(COLOURS)), set(range(IMAGES))
    walked = 0
    while walked < len(shuffled) and (colours or images):
        tile = shuffled[walked]
        walked += 1
        if colour(tile) in colours and image(tile) in images:
            head.insert(0, tile)
            colours.discard(colour(tile))
            images.discard(image(tile))
        else:
            tail.insert(0, tile)
    return head + tail + shuffled[walked:]


@cache
def matches(tile: int) -> int:
    """Kinds sharing a colour or an image with tile, as a bitmask over the 36 kinds."""
    mask = 0
    for kind in range(KINDS):
        if colour(kind) == colour(tile) or image(kind) == image(tile):
            mask |= 1 << kind
    return mask


@cache
def allowed_kinds(neighbours: tuple[int, ...], rules: str) -> int:
    """Bitmask of the kinds that may be placed next to these neighbour tiles (sorted tuple).

    Both rule sets: at least one neighbour, and every neighbour matches in colour or image.
    Classic ("Ishido: The Way of Stones", 1990) also wants, with 2 or 3 neighbours, at least
    one colour match and one image match, and with 4 at least two of each (an identical twin
    counts on both sides)."""
    if not neighbours:
        return 0
    mask = ALL_KINDS
    for tile in neighbours:
        mask &= matches(tile)
    if rules == SEED or len(neighbours) == 1:
        return mask
    need = 2 if len(neighbours) == 4 else 1
    out = 0
    for kind in bits(mask):
        by_colour = sum(colour(t) == colour(kind) for t in neighbours)
        by_image = sum(image(t) == image(kind) for t in neighbours)
        if by_colour >= need and by_image >= need:
            out |= 1 << kind
    return out


