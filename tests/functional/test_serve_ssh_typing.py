"""A name typed fast over SSH into the lobby's new-table box names the table as typed.

Over a slow link, or from a fast typist, the game's pty hands it many keys in one read; here each burst
is one write on the SSH channel, backspaces (7F) among the letters.
"""

from __future__ import annotations

import pytest
from ssh_support.players import served, take_a_seat

pytestmark = pytest.mark.app  # see pyproject.toml's markers

WAIT = 60.0
"""Seconds a screen is waited for: the real game starts in a few seconds, more on a busy machine."""
BACK = b"\x7f"


async def test_a_name_cleared_and_retyped_in_one_burst_names_the_table(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # the games' data folder, not the user's
    async with served(tmp_path) as (srv, people):
        lobby = await take_a_seat(srv.port, "lou", "tables")
        people.append(lobby)
        await lobby.until(r"n New", WAIT)
        lobby.type(b"n")
        await lobby.until(r"Type a name and press enter", WAIT)
        lobby.type(b"My Table!")
        await lobby.until(r"My Table!", WAIT)
        lobby.type(BACK * len(b"My Table!") + b"my-table\r")  # cleared fast and typed anew, in one write
        await lobby.until(r"Table my-table · lou \(you\)", WAIT)
