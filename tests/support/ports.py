"""Ports for servers a test starts on a port named before they listen (cluster routes, HAProxy's backends).

A port the kernel picks for ``bind(0)`` comes from its ephemeral range, where every outgoing connection and every
other test's ``port 0`` listener also lands: named first and bound later, it may be taken in between, and a
restarted server may find its own port taken. Ports are picked below that range, at random, and only if free now.
"""

from __future__ import annotations

import random
import socket

LOW, HIGH = 20000, 32000
"""Below Linux's default ephemeral range (32768-60999): the kernel hands none of these out by itself."""


def free_port() -> int:
    """A port on 127.0.0.1 nothing listens on now, outside the kernel's ephemeral range."""
    for _ in range(200):
        port = random.randint(LOW, HIGH)
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise AssertionError(f"no free port between {LOW} and {HIGH}")
