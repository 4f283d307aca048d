"""The one page of the web door: a name box, and the game's terminal under it.

No inline script: the script and styles are files of the package, so the policy allows only those.
xterm.js draws with <style> elements of its own; the page's script marks them with this response's
nonce, the only style elements the policy lets through. Its rows carry style attributes (colours,
widths), which no policy can tell from ours, so those are allowed: they run no code.
"""

from __future__ import annotations

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="style-nonce" content="{nonce}">
<title>War</title>
<link rel="stylesheet" href="/static/xterm.css">
<link rel="stylesheet" href="/static/page.css">
<script src="/static/xterm.js" defer></script>
<script src="/static/addon-fit.js" defer></script>
<script src="/static/page.js" defer></script>
</head>
<body>
<header>
<form id="join">
<label for="name">Your name</label>
<input id="name" name="name" maxlength="24" autocomplete="nickname" spellcheck="false" placeholder="guest">
<button id="play" type="submit">Play</button>
</form>
<nav><a href="/">Solo game</a> <a href="/tables">Tables</a></nav>
<p id="status" role="status"></p>
</header>
<main id="terminal"></main>
</body>
</html>
"""


def page_html(nonce: str) -> str:
    return PAGE.format(nonce=nonce)


def page_policy(nonce: str) -> str:
    """The Content-Security-Policy of the page: this site's files only, and the game's websocket."""
    return (
        "default-src 'none'; script-src 'self'; "
        f"style-src 'self' 'nonce-{nonce}'; style-src-attr 'unsafe-inline'; "
        "connect-src 'self'; img-src 'self'; font-src 'self'; "
        "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )
