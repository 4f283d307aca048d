"""The web door's two pages: the terminal page (a name box over the game's terminal, a key bar for touch
screens) and the plain-text page (the line mode's sentences in a live list, for screen readers).

No inline script: the policy allows the package's files, xterm.js's own <style> elements (marked with
this response's nonce) and its style attributes, which run no code.
"""

from __future__ import annotations

from html import escape

from ..serving.commands import CAST_SIZE, CAST_SPEEDS, LARGEST_CAST, SMALLEST_CAST
from ..tables.messages import EMOTES

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="style-nonce" content="{nonce}">
<meta name="starts" content="{starts}">
<title>War</title>
<link rel="stylesheet" href="/static/xterm.css">
<link rel="stylesheet" href="/static/page.css">
<script src="/static/xterm.js" defer></script>
<script src="/static/addon-fit.js" defer></script>
<script src="/static/page.js" defer></script>
</head>
<body>
<header>
<a id="plain" href="{line}">Plain text for screen readers</a>
<form id="join">
<label for="name">Your name</label>
<input id="name" name="name" maxlength="24" autocomplete="nickname" spellcheck="false" placeholder="guest">
<button id="play" type="submit">Play</button>
</form>
<nav><a href="/">Solo game</a> <a href="/tables">Tables</a></nav>
{downloads}<p id="status" role="status"></p>
</header>
<main id="terminal"><p id="fit" role="status" hidden></p></main>
{keys}
</body>
</html>
"""


LINE_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>War, in plain text</title>
<link rel="stylesheet" href="/static/line.css">
<script src="/static/line.js" defer></script>
</head>
<body>
<header>
<h1>War, in plain text</h1>
<p>Each battle is one sentence in the list below; a screen reader reads it as it comes.</p>
<nav aria-label="Other ways to play"><a href="{screen}">Full-screen game</a> <a href="/line">Solo game</a></nav>
{downloads}</header>
<main>
<form id="join">
<label for="name">Your name</label>
<input id="name" name="name" maxlength="24" autocomplete="nickname" spellcheck="false" placeholder="guest">
<button id="play" type="submit">Play</button>
</form>
<h2 id="log-title">The game</h2>
<ul id="log" role="log" aria-live="polite" aria-labelledby="log-title"></ul>
<form id="keys" hidden>
{keys}
</form>
<p id="status" role="status"></p>
</main>
</body>
</html>
"""


KEY_BAR = """<nav id="keys" aria-label="Game keys">
<button type="button" data-key="&#x1b;[A" data-places="lobby" aria-label="Up (arrow key)">&uarr;</button>
<button type="button" data-key="&#x1b;[B" data-places="lobby" aria-label="Down (arrow key)">&darr;</button>
<button type="button" data-key="&#x0d;" data-places="lobby" aria-label="Sit (Enter)">Sit</button>
<button type="button" data-key=" " data-places="solo table lobby" aria-label="Flip (space)">Flip</button>
<button type="button" data-key="a" data-places="solo table lobby" aria-label="Auto-play (a)">Auto</button>
<button type="button" data-key="t" data-places="watch" aria-label="Take a seat (t)">Sit</button>
<button type="button" data-key="n" data-places="tv" aria-label="Next table (n)">Next</button>
<button type="button" data-key="&#x1b;[D" data-places="replay" aria-label="Previous battle (left arrow)">&larr;</button>
<button type="button" data-key=" " data-places="replay" aria-label="Play or pause (space)">Play</button>
<button type="button" data-key="&#x1b;[C" data-places="replay" aria-label="Next battle (right arrow)">&rarr;</button>
<button type="button" data-key="]" data-places="replay" aria-label="Next war (])">War</button>
<button type="button" id="emote" data-places="table lobby" aria-expanded="false" aria-controls="emotes">Emote</button>
<button type="button" data-key="?" aria-label="Help (?)">Help</button>
<button type="button" data-key="&#x1b;" aria-label="Back (Escape)">Back</button>
<button type="button" data-key="q" aria-label="Quit (q)">Quit</button>
<div id="emotes" role="group" aria-label="Emotes" hidden>
{emotes}
</div>
</nav>"""
"""The keys that matter, for a touch screen without a keyboard: each button sends its key's bytes
(``data-key``), on the pages it fits (``data-places``: solo, table, watch, lobby, replay, tv; every page if absent)."""


DOWNLOADS = """<details id="downloads">
<summary>Download this game</summary>
<a href="/export/{game}.json" download>JSON</a> <a href="/export/{game}.txt" download>Text</a>
<form action="/export/{game}.cast" method="get">
<label for="cast-speed">Recording at</label>
<select id="cast-speed" name="speed">{speeds}</select>
<label for="cast-size">battles a second, a terminal of</label>
<input id="cast-size" name="size" value="{size}" maxlength="7" pattern="[0-9]{{2,3}}x[0-9]{{2,3}}"
 title="COLSxROWS, {smallest} to {largest}" autocomplete="off" spellcheck="false">
<button type="submit">Download .cast</button>
</form>
</details>
"""
"""A replay's downloads (``web.downloads``): the game as JSON and text, and a recording at the speed and size
chosen (``/export/12.cast?speed=4&size=100x30``), as ``ssh HOST export`` writes them."""


def downloads_html(game_id: int | str | None) -> str:
    """The downloads of game ``game_id`` (a replay's page), or nothing (every other page)."""
    if game_id is None:
        return ""
    speeds = "".join(f'<option value="{speed}">{speed}</option>' for speed in CAST_SPEEDS)
    return DOWNLOADS.format(
        game=game_id, speeds=speeds, size=f"{CAST_SIZE[0]}x{CAST_SIZE[1]}",
        smallest=f"{SMALLEST_CAST[0]}x{SMALLEST_CAST[1]}", largest=f"{LARGEST_CAST[0]}x{LARGEST_CAST[1]}",
    )


def page_html(nonce: str, line: str = "/line", *, starts: bool = True, game_id: int | str | None = None) -> str:
    """The terminal page; ``line``: the address of the plain-text page of the same place, linked first.
    Unless ``starts``, the page waits for Play before it starts a game (it was reached from another site).
    ``game_id``: a replay's page, which offers the game's downloads."""
    emotes = "\n".join(
        f'<button type="button" data-key="{n}" aria-label="{escape(word)} ({n})">{escape(word)}</button>'
        for n, word in enumerate(EMOTES, 1)
    )
    return PAGE.format(nonce=nonce, line=escape(line), starts="now" if starts else "on-play",
                       keys=KEY_BAR.format(emotes=emotes), downloads=downloads_html(game_id))


PLAYER_KEYS = """<label for="say">Your move: Enter flips; or type a word (flip, auto, score, help, quit)</label>
<input id="say" name="say" maxlength="200" autocomplete="off" spellcheck="false">
<button type="submit">Flip (Enter)</button>
<button type="button" data-line="a">Auto-play (a)</button>
<button type="button" data-line="s">Score (s)</button>
<button type="button" data-line="h">Help (h)</button>
<button type="button" data-line="q">Quit (q)</button>"""
SEAT_KEYS = """<label for="say">Your move: Enter flips; or type a word (flip, auto, war, again, no, score, help, quit)
or 1 to 6 to emote</label>
<input id="say" name="say" maxlength="200" autocomplete="off" spellcheck="false">
<button type="submit">Flip (Enter)</button>
<button type="button" data-line="a">Auto-play (a)</button>
<button type="button" data-line="w">Stop at wars (w)</button>
<button type="button" data-line="r">Deal again (r)</button>
<button type="button" data-line="n">Decline (n)</button>
<button type="button" data-line="s">Score (s)</button>
<button type="button" data-line="h">Help (h)</button>
<button type="button" data-line="q">Leave (q)</button>"""
"""A seat's keys at a table: what needs both players is asked, agreed (the same key) or declined."""
WATCHER_KEYS = """<label for="say">You are watching: type t to take a free seat, s for the score, h for help, q to leave
</label>
<input id="say" name="say" maxlength="200" autocomplete="off" spellcheck="false">
<button type="button" data-line="t">Take a seat (t)</button>
<button type="button" data-line="s">Score (s)</button>
<button type="button" data-line="h">Help (h)</button>
<button type="button" data-line="q">Leave (q)</button>"""
"""A spectator's keys: flipping and auto-play are the players' (the line mode says so if typed anyway)."""


REPLAY_KEYS = """<label for="say">A replay: Enter says the next battle; or type p (previous), ] or [ (next or previous
war), a battle's number, play, + or - (faster or slower), q to leave</label>
<input id="say" name="say" maxlength="200" autocomplete="off" spellcheck="false">
<button type="submit">Next battle (Enter)</button>
<button type="button" data-line="p">Previous (p)</button>
<button type="button" data-line="]">Next war (])</button>
<button type="button" data-line="play">Play or pause</button>
<button type="button" data-line="q">Leave (q)</button>"""
"""A replay's keys, as the line mode's replay reads them (``line.replay``)."""


def line_page_html(
    screen: str = "/", watching: bool = False, seated: bool = False, replaying: bool = False,
    game_id: int | str | None = None,
) -> str:
    """The plain-text page; ``screen``: the address of the terminal page of the same place (``seated``: a table's
    seat, ``replaying``: a replay, ``game_id``: its game, whose downloads it offers)."""
    keys = REPLAY_KEYS if replaying else WATCHER_KEYS if watching else SEAT_KEYS if seated else PLAYER_KEYS
    return LINE_PAGE.format(screen=escape(screen), keys=keys, downloads=downloads_html(game_id))


def page_policy(nonce: str) -> str:
    """The Content-Security-Policy of the page: this site's files only, and the game's websocket."""
    return (
        "default-src 'none'; script-src 'self'; "
        f"style-src 'self' 'nonce-{nonce}'; style-src-attr 'unsafe-inline'; "
        "connect-src 'self'; img-src 'self'; font-src 'self'; "
        "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )


def line_page_policy() -> str:
    """The plain-text page's policy: its own script and style sheet, its websocket, and nothing else."""
    return (
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
        "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )
