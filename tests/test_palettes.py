"""Colour-blind safety of the palettes, read from the files the pages use (style.css, each
game's stylesheet and the renderers), so that a bad change to a colour there fails here.

Every pair of colours a player must tell apart is simulated for deuteranopia, protanopia and
tritanopia (Machado et al. 2009 at full severity, as colorspacious does it) and must stay at
least MIN_DE apart in CIEDE2000 under each, and without simulation too. Translucent fills
(color-mix with transparent) are composited over what they are drawn on.
"""

from __future__ import annotations

import itertools
import math
import re
from pathlib import Path

import pytest

colorspacious = pytest.importorskip("colorspacious")

SRC = Path(__file__).resolve().parents[1] / "src" / "gridgames"
STYLE = SRC / "web" / "static" / "css" / "style.css"
ISHIDO_JS = SRC / "games" / "ishido" / "ishido-look.js"
TICTACTOE_CSS = SRC / "games" / "tictactoe" / "tictactoe.css"
TWOMINO_CSS = SRC / "games" / "twomino" / "twomino.css"
MIN_DE = 10.0
VISIONS = [None, "deuteranomaly", "protanomaly", "tritanomaly"]
THEMES = ["light", "dark"]


# --- CIEDE2000 (Sharma, Wu and Dalal 2005) ---

def ciede2000(lab1, lab2) -> float:
    L1, a1, b1 = lab1
    L2, a2, b2 = lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    dh = 0.0
    if c1p * c2p:
        dh = h2p - h1p
        dh -= 360 if dh > 180 else -360 if dh < -180 else 0
    d_l, d_c = L2 - L1, c2p - c1p
    d_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (L1 + L2) / 2, (c1p + c2p) / 2
    if not c1p * c2p:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    else:
        h_mean = (h1p + h2p + (360 if h1p + h2p < 360 else -360)) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6))
         - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    rotation = (-math.sin(math.radians(60 * math.exp(-(((h_mean - 275) / 25) ** 2))))
                * 2 * math.sqrt(cp_mean**7 / (cp_mean**7 + 25**7)))
    return math.sqrt((d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2
                     + rotation * (d_c / s_c) * (d_h / s_h))


@pytest.mark.parametrize("lab1, lab2, expected", [
    # Pairs 1, 7, 17 and 25 of Sharma, Wu and Dalal's published test data.
    ((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425),
    ((50, 0, 0), (50, -1, 2), 2.3669),
    ((50, 2.5, 0), (73, 25, -18), 27.1492),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
])
def test_ciede2000_matches_the_published_test_data(lab1, lab2, expected):
    assert ciede2000(lab1, lab2) == pytest.approx(expected, abs=1e-4)


def seen(rgb, vision):
    """An sRGB colour (0..1) as a person with that colour vision sees it, in CIELab."""
    from colorspacious import cspace_convert

    if vision:
        cvd = {"name": "sRGB1+CVD", "cvd_type": vision, "severity": 100}
        rgb = [min(1.0, max(0.0, v)) for v in cspace_convert(rgb, cvd, "sRGB1")]
    return cspace_convert(rgb, "sRGB1", "CIELab")


def closest_pair(colours: dict[str, tuple]) -> tuple[float, str, str, str]:
    """The smallest CIEDE2000 distance between two of the named colours under any vision."""
    return min((ciede2000(seen(colours[a], v), seen(colours[b], v)), a, b, v or "normal")
               for v in VISIONS for a, b in itertools.combinations(colours, 2))


# --- colours as the CSS and the renderers give them ---

def hex_rgba(text: str) -> tuple:
    text = text.lstrip("#")
    if len(text) == 3:
        text = "".join(ch * 2 for ch in text)
    return tuple(int(text[i:i + 2], 16) / 255 for i in (0, 2, 4)) + (1.0,)


def css_rules(text: str) -> list[tuple[str, dict[str, str]]]:
    """(selector, declarations) of every innermost rule; media queries are not looked at."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    rules = []
    for match in re.finditer(r"([^{}]+)\{([^{}]*)\}", text):
        body = {}
        for declaration in match.group(2).split(";"):
            if ":" in declaration:
                name, value = declaration.split(":", 1)
                body[name.strip()] = value.strip()
        rules.append((" ".join(match.group(1).split()), body))
    return rules


class Stylesheet:
    """Resolves colours of style.css, and of a game's stylesheet after it, for a theme: var(),
    hex, transparent and color-mix(in srgb, ...), as far as our own stylesheets use them."""

    def __init__(self, path: Path, theme: str, game: Path | None = None):
        self.rules = css_rules(path.read_text(encoding="utf-8"))
        if game is not None:
            self.rules += css_rules(game.read_text(encoding="utf-8"))
        self.variables: dict[str, str] = {}
        roots = [":root"] + ([':root[data-theme="dark"]'] if theme == "dark" else [])
        for root in roots:
            for selector, body in self.rules:
                if selector == root:
                    self.variables.update({k: v for k, v in body.items() if k.startswith("--")})

    def declared(self, selector: str, prop: str) -> str:
        values = [body[prop] for sel, body in self.rules if sel == selector and prop in body]
        assert values, f"no {prop} for {selector}"
        return values[-1]

    def colour(self, value: str) -> tuple:
        value = value.strip()
        var = re.fullmatch(r"var\((--[\w-]+)\)", value)
        if var:
            return self.colour(self.variables[var.group(1)])
        if value.startswith("#"):
            return hex_rgba(value)
        if value == "transparent":
            return (0.0, 0.0, 0.0, 0.0)
        mix = re.fullmatch(r"color-mix\(in srgb,\s*(.+?)\s+([\d.]+)%\s*,\s*(.+)\)", value)
        assert mix, f"cannot read the colour {value!r}"
        return mixed(self.colour(mix.group(1)), self.colour(mix.group(3)),
                     float(mix.group(2)) / 100)

    def fill(self, selector: str, over: tuple) -> tuple:
        """The colour a selector's fill shows when drawn over an opaque colour."""
        return over_background(self.colour(self.declared(selector, "fill")), over)


def mixed(first: tuple, second: tuple, share: float) -> tuple:
    """color-mix in srgb: premultiplied by alpha, as CSS Color 5 says."""
    alpha = first[3] * share + second[3] * (1 - share)
    if alpha == 0:
        return (0.0, 0.0, 0.0, 0.0)
    rgb = tuple((first[i] * first[3] * share + second[i] * second[3] * (1 - share)) / alpha
                for i in range(3))
    return rgb + (alpha,)


def over_background(colour: tuple, background: tuple) -> tuple:
    a = colour[3]
    return tuple(colour[i] * a + background[i] * (1 - a) for i in range(3))


def opaque(colour: tuple) -> tuple:
    assert colour[3] == 1.0, "expected an opaque colour"
    return colour[:3]


def ishido_palettes() -> dict[str, list[str]]:
    text = ISHIDO_JS.read_text(encoding="utf-8")
    found = re.findall(r"(\w+): \{ name: \"[^\"]+\", colours: \[([^\]]+)\]", text)
    assert found, "no palette found in ishido-look.js"
    return {name: re.findall(r"\"(#[0-9A-Fa-f]{6})\"", colours) for name, colours in found}


# --- the palettes a player must tell apart ---

def palette_ishido(name: str, theme: str) -> dict[str, tuple]:
    colours = ishido_palettes()[name]
    assert len(colours) == 6
    return {f"colour {i}": hex_rgba(c)[:3] for i, c in enumerate(colours)}


def palette_stones(theme: str, game: str) -> dict[str, tuple]:
    """The two players' colours (Trilobite uses the defaults; tic-tac-toe has its own)."""
    sheet = Stylesheet(STYLE, theme, TICTACTOE_CSS if game == "tictactoe" else None)
    if game == "tictactoe":
        scoped = '[data-game="tictactoe"]'
        for selector in ([scoped] + ([f':root[data-theme="dark"] {scoped}']
                                      if theme == "dark" else [])):
            for sel, body in sheet.rules:
                if sel == selector:
                    sheet.variables.update({k: v for k, v in body.items() if k.startswith("--")})
    return {"player 1": opaque(sheet.colour("var(--p0)")),
            "player 2": opaque(sheet.colour("var(--p1)"))}


MINO = '[data-game="twomino"] '


def palette_twomino_board(theme: str) -> dict[str, tuple]:
    sheet = Stylesheet(STYLE, theme, TWOMINO_CSS)
    background = opaque(sheet.colour("var(--bg)")) + (1.0,)
    return {"not found": background[:3],
            "found once": sheet.fill(MINO + ".mino-found", background),
            "found twice or more": sheet.fill(MINO + ".mino-found.twice", background)}


def palette_twomino_samples(theme: str) -> dict[str, tuple]:
    sheet = Stylesheet(STYLE, theme, TWOMINO_CSS)
    page = opaque(sheet.colour("var(--bg)")) + (1.0,)
    background = sheet.fill(MINO + ".mino-samples-bg", page) + (1.0,)
    assert sheet.declared(MINO + ".mino-sample", "fill") == "none"
    return {"not found": background[:3],
            "found once": sheet.fill(MINO + ".mino-sample.once", background),
            "found twice or more": sheet.fill(MINO + ".mino-sample.more", background)}


PALETTES = {
    "ishido bright": lambda theme: palette_ishido("bright", theme),
    "ishido contrast": lambda theme: palette_ishido("contrast", theme),
    "trilobite players": lambda theme: palette_stones(theme, "trilobite"),
    "tic-tac-toe players": lambda theme: palette_stones(theme, "tictactoe"),
    "2mino board": palette_twomino_board,
    "2mino samples": palette_twomino_samples,
}


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("palette", PALETTES)
def test_every_pair_stays_apart_under_colour_blindness(palette, theme):
    colours = PALETTES[palette](theme)
    distance, a, b, vision = closest_pair(colours)
    each = {v or "normal": min(ciede2000(seen(colours[x], v), seen(colours[y], v))
                               for x, y in itertools.combinations(colours, 2)) for v in VISIONS}
    print(f"{palette} ({theme}): closest {a} / {b} under {vision}: {distance:.1f}; "
          + ", ".join(f"{v} {d:.1f}" for v, d in each.items()))
    assert distance >= MIN_DE, (
        f"{palette} ({theme}): {a} and {b} are only {distance:.1f} apart (CIEDE2000) "
        f"under {vision}; at least {MIN_DE} needed")


def test_the_stylesheet_reader_reads_what_the_page_shows():
    """The reader resolves variables per theme and composites translucent fills."""
    light, dark = Stylesheet(STYLE, "light"), Stylesheet(STYLE, "dark")
    assert light.colour("var(--bg)") != dark.colour("var(--bg)")
    half = mixed(hex_rgba("#ff0000"), (0.0, 0.0, 0.0, 0.0), 0.5)
    assert half == pytest.approx((1.0, 0.0, 0.0, 0.5))
    assert over_background(half, (0.0, 0.0, 1.0, 1.0)) == pytest.approx((0.5, 0.0, 0.5))
