"""The ``env`` requests a client may send: the few variables a game reads, each short, before the game starts.

asyncssh (2.24) keeps every ``env`` request in its channel, at any time and of any size (up to a packet,
256 KiB), and offers no public hook to refuse one: ``SSHServerSession`` has no ``env_requested``. The
only place to decide is the channel's request handler, ``_process_env_request``, which asyncssh looks
up on the channel by name for each request. ``refuse_unwanted_env`` replaces it on our own channels
(an instance attribute, so asyncssh itself is untouched); ``tests/unit/test_ssh_env_requests.py`` fails
if an asyncssh upgrade renames it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import asyncssh

ASYNCSSH_ENV_HANDLER = "_process_env_request"
MAX_VALUE = 64
"""Characters of an accepted variable's value: a locale or a colour setting is far shorter."""
MAX_KEPT = 20
"""Distinct variables kept per session: COLORTERM, NO_COLOR, ACCESSIBLE, LANG, LANGUAGE and the LC_* there are."""
# OpenSSH sends LANG and LC_* by default: taken quietly; LC_ALL, LC_CTYPE and LANG say whether the game draws
# in UTF-8 or ASCII (``serving.environment.client_locale``), the others are unused.
# ACCESSIBLE asks for the line mode (ssh -o SetEnv=ACCESSIBLE=1 HOST), as it does locally.
WANTED_NAME = re.compile(r"COLORTERM|NO_COLOR|ACCESSIBLE|LANG|LANGUAGE|LC_[A-Z][A-Z_]{0,20}")
VALUE = re.compile(r"[\x20-\x7e]*")


class ClientEnvironment:
    """What a client said in ``env`` requests, bounded: ``refused(what)`` is told of every request not kept."""

    def __init__(self, refused: Callable[[str], None]) -> None:
        self.variables: dict[str, str] = {}
        self._refused: Callable[[str], None] | None = refused
        self._closed = False

    def offer(self, name: bytes, value: bytes) -> bool:
        """One ``env`` request: True if kept (the client is told success), False if refused and counted."""
        text = self._wanted(name, value)
        if text is None:
            if self._refused is not None:
                self._refused("environment")
            return False
        key = name.decode("ascii")
        if key not in self.variables and len(self.variables) >= MAX_KEPT:
            if self._refused is not None:
                self._refused("environment")
            return False
        self.variables[key] = text
        return True

    def _wanted(self, name: bytes, value: bytes) -> str | None:
        if self._closed or len(name) > 24 or len(value) > MAX_VALUE:
            return None
        try:
            key, text = name.decode("ascii"), value.decode("ascii")
        except UnicodeDecodeError:
            return None
        if not WANTED_NAME.fullmatch(key) or not VALUE.fullmatch(text):
            return None
        return text

    def close(self) -> None:
        """The game started (its environment is fixed) or the session ended: every later request is refused."""
        self._closed = True

    def release(self) -> None:
        """Forget the session's refusal counter, so nothing here keeps the connection alive."""
        self._closed = True
        self._refused = None


def refuse_unwanted_env(chan: asyncssh.SSHServerChannel, environment: ClientEnvironment) -> None:
    """Route ``chan``'s ``env`` requests to ``environment`` instead of asyncssh's keep-everything handler."""

    def env_request(packet: Any) -> bool:
        name = packet.get_string()
        value = packet.get_string()
        packet.check_end()
        return environment.offer(name, value)

    setattr(chan, ASYNCSSH_ENV_HANDLER, env_request)


def env_hook_missing() -> str | None:
    """A line for the server's log when this asyncssh no longer has the handler replaced here, else None.

    Then asyncssh keeps every ``env`` request again: the operator is told at start, not left to find out.
    """
    if callable(getattr(asyncssh.SSHServerChannel, ASYNCSSH_ENV_HANDLER, None)):
        return None
    return (
        f"warning: asyncssh {asyncssh.__version__} has no {ASYNCSSH_ENV_HANDLER}: env requests are not bounded "
        "by war-tui; use the asyncssh version pyproject.toml names"
    )


def _refuse(packet: Any) -> bool:
    return False


def forget_environment(chan: asyncssh.SSHServerChannel) -> None:
    """The session is over: refuse whatever still comes, and let the channel no longer point at the session."""
    setattr(chan, ASYNCSSH_ENV_HANDLER, _refuse)
