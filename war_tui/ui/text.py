"""Words reach a widget as text, never as markup.

Textual reads a ``str`` given to a ``Static``, a ``Label``, a ``DataTable`` cell, a Rich ``Table`` cell, a
border title or a notification as markup. Much of what the screens show holds what a person typed: a
player's name (an SSH user name, a name typed in the browser), a table's name, an emote, a path in a
settings problem. Read as markup, a name such as ``[/]`` ends the game (``MarkupError``), ``[link=…]``
sends a hyperlink to other people's terminals and ``[reverse]`` restyles the screen. So every string
goes to a widget through ``plain``, and the app's notifications never read markup (``WarApp.notify``).
The widgets that draw their own rows (``LineWidget``, the battle log) put text in segments, which are
never read as markup either.
"""

from __future__ import annotations

from rich.console import JustifyMethod
from rich.text import Text


def plain(words: str, style: str = "", *, justify: JustifyMethod | None = None) -> Text:
    """``words`` as the text they are, in ``style``: a ``[`` is a bracket, never the start of a tag."""
    return Text(words, style=style, justify=justify)
