"""Serving games to players who are not at this machine: what the SSH door and the web door share.

The game server (limits, identity, the shared tables, statistics, the preloaded game parent), the game
launcher (start a game on its own pty, wait for it, the crash line, the goodbye) and the narrow ``House``
a door's session is given. Nothing here speaks SSH or HTTP: each door is a package above this one.
"""
