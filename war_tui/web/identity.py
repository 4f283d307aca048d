"""A browser's identity: a token the server made, signed with the server's secret, kept in a cookie.

The cookie is ``TOKEN.SIGNATURE`` (HMAC-SHA256 under a key derived from the SSH host key, so identities
last as the key does); an unsigned value is no identity. It is ``SameSite=Lax`` so a link keeps who you
are; a page reached from another site does not start a game by itself.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets

COOKIE = "war_tui_id"
COOKIE_SECONDS = 400 * 24 * 3600  # the most a browser keeps a cookie
VALUE = re.compile(r"([A-Za-z0-9_-]{43})\.([A-Za-z0-9_-]{43})")
OWN_SITE = ("same-origin", "none")
"""``Sec-Fetch-Site`` values of a navigation the visitor made here: from our own page, or typed or bookmarked."""


def _encoded(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class Identities:
    """Issues and checks the signed tokens; ``token`` of a cookie is what a seat and the statistics know."""

    def __init__(self, secret: bytes) -> None:
        self._key = hashlib.sha256(b"war-tui web identity signature\0" + secret).digest()

    def sign(self, token: str) -> str:
        """The cookie's value for ``token``."""
        signature = hmac.new(self._key, token.encode(), hashlib.sha256).digest()
        return f"{token}.{_encoded(signature)}"

    def issue(self) -> str:
        """A new identity's cookie value."""
        return self.sign(secrets.token_urlsafe(32))

    def token(self, value: str | None) -> str | None:
        """The token of a cookie value the server signed; None for anything else."""
        found = VALUE.fullmatch(value or "")
        if found is None:
            return None
        return found[1] if hmac.compare_digest(self.sign(found[1]), found[0]) else None


def starts_by_itself(fetch_site: str | None, known: bool) -> bool:
    """Whether a page may start its game as it opens: not when another site led here (``Sec-Fetch-Site``), nor
    when the browser sent no identity and did not say it came here by itself (an old browser, a stripped header)."""
    if fetch_site is not None and fetch_site.lower() not in OWN_SITE:
        return False
    return known or fetch_site is not None
