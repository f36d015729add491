"""Game parameters: a frozen dataclass per game, written as `name=value` pairs joined by commas.

A game declares its parameters once, with bounds, and gets parsing, printing, validation and a
description for menus and settings panels from this module:

    @dataclass(frozen=True)
    class TrilobiteParams(Params):
        width: int = param(7, lo=3, hi=20, help="columns")

`Params.parse("width=10")` fills omitted names with their defaults; `format()` prints every
name in declaration order, so the printed string is canonical and round-trips.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar, Self

from gridgames.core.errors import BadInput


def param(default: Any, *, lo: int | None = None, hi: int | None = None,
          choices: tuple[str, ...] | None = None, help: str = "", label: str | None = None,
          choice_labels: dict[str, str] | None = None,
          when: tuple[str, str] | None = None) -> Any:
    """Declare one parameter field: its default, bounds (ints) or choices (strings), and
    `help` for the command line. A page shows `label` and `choice_labels` (a player's words)
    and the field only `when` another field has a value (`("gen", "unique")`)."""
    meta = {"lo": lo, "hi": hi, "choices": choices, "help": help, "label": label,
            "choice_labels": choice_labels, "when": when}
    return dataclasses.field(default=default, metadata=meta)


@dataclasses.dataclass(frozen=True)
class Params:
    """Base class: subclasses are frozen dataclasses whose fields are declared with `param`."""

    # Longest params string we read: guards parsing against absurd input from outside.
    MAX_TEXT: ClassVar[int] = 200

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            meta = f.metadata
            if isinstance(f.default, bool) or not isinstance(value, type(f.default)):
                raise BadInput(f"parameter {f.name} must be a {type(f.default).__name__}")
            if meta.get("choices") and value not in meta["choices"]:
                raise BadInput(f"{f.name} must be one of {', '.join(meta['choices'])}, "
                               f"not {value!r}")
            lo, hi = meta.get("lo"), meta.get("hi")
            if lo is not None and hi is not None and not lo <= value <= hi:
                raise BadInput(f"{f.name} must be from {lo} to {hi}, not {value}")
        self.check()

    def check(self) -> None:
        """Cross-field rules of a game (override); raise BadInput with a clear reason."""

    @classmethod
    def parse(cls, text: str) -> Self:
        """Read `name=value,name=value`; omitted names keep their defaults."""
        if not isinstance(text, str):
            raise BadInput("parameters must be a string of name=value pairs")
        if len(text) > cls.MAX_TEXT:
            raise BadInput("parameter string is too long")
        fields = {f.name: f for f in dataclasses.fields(cls)}
        values: dict[str, Any] = {}
        for item in filter(None, (part.strip() for part in text.split(","))):
            name, eq, raw = item.partition("=")
            name, raw = name.strip(), raw.strip()
            if not eq or not name:
                raise BadInput(f"parameter {item!r} is not of the form name=value")
            if name not in fields:
                known = ", ".join(fields) or "none"
                raise BadInput(f"unknown parameter {name!r} (this game has: {known})")
            if name in values:
                raise BadInput(f"parameter {name!r} is given twice")
            values[name] = _convert(name, raw, fields[name].default)
        return cls(**values)

    def format(self) -> str:
        return ",".join(f"{f.name}={getattr(self, f.name)}" for f in dataclasses.fields(self))

    @classmethod
    def describe(cls) -> list[dict[str, Any]]:
        """Each parameter with its default, bounds and help: for `list`, menus and settings."""
        out = []
        for f in dataclasses.fields(cls):
            entry = {"name": f.name, "type": type(f.default).__name__, "default": f.default}
            entry.update({k: v for k, v in f.metadata.items() if v is not None})
            if "choices" in entry:
                entry["choices"] = list(entry["choices"])
            if "when" in entry:
                entry["when"] = dict([entry["when"]])
            out.append(entry)
        return out


def _convert(name: str, raw: str, default: Any) -> Any:
    if isinstance(default, int):
        if not raw.isascii() or not raw.lstrip("-").isdigit() or len(raw) > 6:
            raise BadInput(f"{name} must be a whole number, not {raw!r}")
        return int(raw)
    return raw
