"""Words reach a widget as text, never as markup.

Much of what the screens show is what a person typed (a name, a table, an emote), and Textual reads a
``str`` as markup: ``[/]`` would end the game, ``[link=…]`` reach other people's terminals. So every
string goes to a widget through ``plain``, and the app's notifications never read markup. ``plain`` also drops
what a terminal would act on (``war_tui.untrusted.plain_text``: escapes, controls, bidi overrides), so text from
a record another process wrote (a game in the statistics file, a table in the lobby) never reaches a terminal
as anything but letters.
"""

from __future__ import annotations

from rich.console import JustifyMethod
from rich.text import Text

from ..untrusted import plain_text


def plain(words: str, style: str = "", *, justify: JustifyMethod | None = None) -> Text:
    """``words`` as the text they are, in ``style``: a ``[`` is a bracket, never the start of a tag, and an
    escape is never sent."""
    return Text(plain_text(words), style=style, justify=justify)
