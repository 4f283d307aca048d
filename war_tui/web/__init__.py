"""Serving the game to browsers (``war-tui serve --web``).

Each websocket gets its own game process on its own pseudo-terminal, as an SSH session does; the page
draws it with xterm.js, shipped in ``static/`` (no CDN); the plain-text page plays the line mode in
sentences for screen readers. This package imports ``aiohttp`` and the SSH
package's door-neutral parts, never the UI.
"""
