"""Words reach a widget as text, never as markup.

Much of what the screens show is what a person typed (a name, a table, an emote), and Textual reads a
``str`` as markup: ``[/]`` would end the game, ``[link=…]`` reach other people's terminals. So every
string goes to a widget through ``plain``, and the app's notifications never read markup.
"""

from __future__ import annotations

from rich.console import JustifyMethod
from rich.text import Text


def plain(words: str, style: str = "", *, justify: JustifyMethod | None = None) -> Text:
    """``words`` as the text they are, in ``style``: a ``[`` is a bracket, never the start of a tag."""
    return Text(words, style=style, justify=justify)
