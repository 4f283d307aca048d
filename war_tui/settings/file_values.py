"""How a preferences file's value is checked: its TOML type first, then the very parser of the flag.

Each maker takes the option (``war_tui.settings.options.Option``) and returns the check of its key, so a key
and its flag share one range and one message. A check raises ``ValueError`` (or argparse's type error)
with a sentence; ``war_tui.settings.preferences`` adds the file, the line and the key.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Collection
from typing import Any, Protocol

from .values import names_value

Check = Callable[[Any, "Collection[str] | None"], object]
"""A key's check: the file's value and the theme names there are (None: not checked) in, the setting out."""

MAX_THEME_LENGTH = 64


class Declared(Protocol):
    """What a check is made from: an option's name, its flag's parser and its choices."""

    @property
    def name(self) -> str: ...
    @property
    def parse(self) -> Callable[[str], Any] | None: ...
    @property
    def choices(self) -> tuple[str, ...] | None: ...


Maker = Callable[[Declared], Check]


def shown(value: object) -> str:
    """A value as it looks in the file, short enough for a message."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + (value if len(value) <= 40 else value[:39] + "…") + '"'
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return str(value)


def _parse(option: Declared) -> Callable[[str], object]:
    if option.parse is None:
        raise TypeError(f"{option.name}: this check needs the flag's parser")
    return option.parse


def switch(_option: Declared) -> Check:
    def check(value: Any, _themes: Collection[str] | None) -> bool:
        if not isinstance(value, bool):
            raise ValueError(f"must be true or false, not {shown(value)}")
        return value

    return check


def whole(option: Declared) -> Check:
    """A whole number, then the flag's own check (its range)."""
    parse = _parse(option)

    def check(value: Any, _themes: Collection[str] | None) -> object:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"must be a whole number, not {shown(value)}")
        return parse(str(value))

    return check


def number(unit: str, example: str) -> Maker:
    """A number (``unit`` like ``example``), then the flag's own check."""

    def make(option: Declared) -> Check:
        parse = _parse(option)

        def check(value: Any, _themes: Collection[str] | None) -> object:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"must be {unit} (like {example}), not {shown(value)}")
            return parse(str(value))

        return check

    return make


def speed(option: Declared) -> Check:
    """Battles per second as a number, or the word "max"."""
    parse = _parse(option)

    def check(value: Any, _themes: Collection[str] | None) -> object:
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise ValueError(f'must be battles per second (like 0.5 or 4) or "max", not {shown(value)}')
        return parse(str(value))

    return check


def word(what: str) -> Maker:
    """A string (``what``), then the flag's own check."""

    def make(option: Declared) -> Check:
        parse = _parse(option)

        def check(value: Any, _themes: Collection[str] | None) -> object:
            if not isinstance(value, str):
                raise ValueError(f"must be {what}, not {shown(value)}")
            return parse(value)

        return check

    return make


def one_of(option: Declared) -> Check:
    """One of the option's choices, spelt as the flag takes it."""
    choices = tuple(option.choices or ())
    parse = option.parse

    def check(value: Any, _themes: Collection[str] | None) -> object:
        if isinstance(value, str) and parse is not None:
            try:
                return parse(value)
            except argparse.ArgumentTypeError:
                pass
        elif value in choices:
            return str(value)
        said = " or ".join(repr(c) for c in choices) if parse is None else " or ".join(choices)
        raise ValueError(f"must be {said}, not {shown(value)}")

    return check


def names(_option: Declared) -> Check:
    def check(value: Any, _themes: Collection[str] | None) -> tuple[str, str]:
        if not isinstance(value, list):
            raise ValueError(f'must be two names, like ["Ann", "Bob"], not {shown(value)}')
        return names_value(value)

    return check


def theme(_option: Declared) -> Check:
    """A theme's name; one there is, when the names there are are known."""

    def check(value: Any, themes: Collection[str] | None) -> str:
        if not isinstance(value, str) or not value.isprintable() or not 0 < len(value) <= MAX_THEME_LENGTH:
            raise ValueError(f"must be a theme's name, not {shown(value)}")
        if themes is not None and value not in themes:
            import difflib

            close = difflib.get_close_matches(value, themes, n=1)
            hint = f"did you mean '{close[0]}'?" if close else "the command palette's 'Change theme' lists them"
            raise ValueError(f"there is no theme called '{value}' ({hint})")
        return value

    return check
