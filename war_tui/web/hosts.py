"""The host names the web door answers to, and the one origin each stands for.

Against DNS rebinding (another site's page asking our address under its own name), the door answers
only to the names it was given (``--web-host``), and a websocket opens only when its ``Origin`` is the
very origin of the name it was asked under. No aiohttp here: the command line parses ``--web-host``.
"""

from __future__ import annotations

import argparse
import ipaddress
import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from ..settings.values import shown

DEFAULT_PORTS = {"http": 80, "https": 443}
MAX_NAME = 253
LABEL = re.compile(r"(?!-)[a-z0-9-]{1,63}(?<!-)")
WILDCARDS = ("0.0.0.0", "::", "")
"""Listening addresses that stand for every address of the machine."""


@dataclass(frozen=True)
class WebHost:
    """One ``--web-host`` as given: a name, and the scheme and port browsers use if not the door's own (a scheme
    given without a port means its usual port: ``https://war.example.org`` is port 443, behind a proxy)."""

    name: str
    scheme: str | None = None
    port: int | None = None


@dataclass(frozen=True)
class Origin:
    """What a browser calls a site: scheme, host name (lower case; an IPv6 address without brackets), port."""

    scheme: str
    name: str
    port: int

    def host(self) -> str:
        """The name as a URL writes it (an IPv6 address in brackets)."""
        return f"[{self.name}]" if ":" in self.name else self.name

    def host_headers(self) -> tuple[str, ...]:
        """The ``Host`` values a browser sends for it: with the port, and without when the port is the scheme's."""
        with_port = f"{self.host()}:{self.port}"
        return (with_port, self.host()) if DEFAULT_PORTS[self.scheme] == self.port else (with_port,)

    def __str__(self) -> str:
        port = "" if DEFAULT_PORTS[self.scheme] == self.port else f":{self.port}"
        return f"{self.scheme}://{self.host()}{port}"


def _ip(text: str) -> str | None:
    """``text`` as an IP address, written the one way Python writes it; None if it is not one."""
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        return None


def host_name(text: str) -> str | None:
    """A host name (DNS labels) or an IP address, lower case; None if it is neither."""
    name = text.lower().removesuffix(".")
    found = _ip(name)
    if found is not None:
        return found
    if not name or len(name) > MAX_NAME or not all(LABEL.fullmatch(label) for label in name.split(".")):
        return None
    return name


def web_host_value(text: str) -> WebHost:
    """An argparse type for ``--web-host``: ``NAME``, ``NAME:PORT`` or ``SCHEME://NAME[:PORT]`` (http or https);
    an IPv6 address in brackets. Anything else (a path, a user, a bad name or port) is one line."""
    wrong = f"--web-host must be a host name, NAME:PORT or https://NAME[:PORT], not '{shown(text)}'"
    given = text.strip()
    scheme = None
    if "://" in given:
        scheme = given.split("://", 1)[0].lower()
        if scheme not in DEFAULT_PORTS:
            raise argparse.ArgumentTypeError(f"--web-host takes http:// or https://, not '{shown(text)}'")
    bad_port = f"--web-host's port must be from 1 to 65535, not '{shown(text)}'"
    try:
        parts = urlsplit(given if scheme else f"//{given}")
        port = parts.port
    except ValueError as error:
        raise argparse.ArgumentTypeError(bad_port if "out of range" in str(error) else wrong) from None
    if parts.path or parts.query or parts.fragment or "@" in parts.netloc or parts.hostname is None:
        raise argparse.ArgumentTypeError(wrong)
    if port == 0:
        raise argparse.ArgumentTypeError(bad_port)
    name = host_name(parts.hostname)
    if name is None or (":" in name) != parts.netloc.startswith("["):
        raise argparse.ArgumentTypeError(wrong)
    return WebHost(name, scheme, port)


class HostRules:
    """The origins of the door: each ``--web-host``, or by default the listening address and ``localhost``.

    Listening on every address (0.0.0.0, ::), the default takes any IP address the browser asked by, since
    a rebinding page needs a name of its own and an address is none.
    """

    def __init__(self, given: tuple[WebHost, ...], listening: str, scheme: str, port: int) -> None:
        listening = listening.strip("[]")
        self.any_address = not given and listening in WILDCARDS
        if not given:
            names = (host_name(listening) or listening.lower(), "localhost")
            given = tuple(WebHost(name) for name in names if name not in WILDCARDS)
        self.scheme = scheme
        self.port = port
        self.origins = tuple(dict.fromkeys(
            Origin(host.scheme or scheme, host.name, host.port or (DEFAULT_PORTS[host.scheme] if host.scheme else port))
            for host in given
        ))
        self._by_host = {header: origin for origin in self.origins for header in origin.host_headers()}

    def origin_of(self, host: str | None) -> Origin | None:
        """The origin a request's ``Host`` names, or None when the door does not answer to it."""
        if host is None:
            return None
        host = host.strip().lower()
        found = self._by_host.get(host)
        if found is not None or not self.any_address:
            return found
        address = host if host.endswith("]") or ":" not in host else host.rpartition(":")[0]
        name = _ip(address.removeprefix("[").removesuffix("]"))
        if name is None or (":" in name) != address.startswith("["):
            return None
        own = Origin(self.scheme, name, self.port)
        return own if host in own.host_headers() else None

    def origin_allowed(self, origin: str | None, host: str | None) -> bool:
        """A websocket's ``Origin`` is exactly the origin of the name it was asked under: scheme, name, port, no path."""
        expected = self.origin_of(host)
        if expected is None or origin is None:
            return False
        try:
            parts = urlsplit(origin.strip())
            port = parts.port
        except ValueError:
            return False
        if parts.path or parts.query or parts.fragment or parts.username is not None or parts.hostname is None:
            return False
        scheme = parts.scheme.lower()
        if scheme not in DEFAULT_PORTS:
            return False
        name = host_name(parts.hostname)
        return Origin(scheme, name or "", port or DEFAULT_PORTS[scheme]) == expected

    def describe(self) -> str:
        """The names answered to, for the start-up banner."""
        names = [str(origin) for origin in self.origins]
        if self.any_address:
            names.append(f"any address of this machine at port {self.port}")
        return ", ".join(names)
