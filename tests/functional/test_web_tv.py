"""War TV through the web door: ``/tv`` and ``/line/tv``, the same TV as ``ssh HOST tv``."""

from __future__ import annotations

import pytest
from ssh_support import Seat, connect
from web_support import bob_seated, open_socket, read_screen, web_client

from war_tui.serving.commands import CommandRefused, LineCommand, TableMode
from war_tui.web.server import line_address, place_command, screen_address


def test_tv_has_a_page_and_a_plain_text_page():
    assert place_command("/tv").mode is TableMode.TV
    line = place_command("/line/tv")
    assert isinstance(line, LineCommand) and line.table is not None and line.table.mode is TableMode.TV
    assert (line_address("/tv"), screen_address("/line/tv")) == ("/line/tv", "/tv")
    with pytest.raises(CommandRefused, match="takes no table name"):
        place_command("/tv/oak")


async def test_the_tv_page_waits_then_tunes_in_to_the_table_a_game_is_under_way_at(tmp_path):
    async with bob_seated(tmp_path, "oak") as (door, bob), web_client() as client:
        ws = await open_socket(client, door, "/tv", name="lou")
        seen = bytearray()
        await read_screen(ws, r"TUNED - no table is playing now", seen)  # oak waits for a second player
        conn = await connect(door.server.port, None, username="ann")
        try:
            ann = Seat(conn, await conn.create_process("table oak", term_type="xterm-256color", term_size=(100, 30),
                                                       encoding=None))
            await ann.expect(r"SNAPSHOT you=ann seat=2 ")
            bob.type(b"f")
            ann.type(b"f")
            await ann.expect(r"BATTLE 1 ")
            await read_screen(ws, r"TUNED oak (.|\n)*SNAPSHOT you=lou seat=- game=1 battles=1 ", seen)
        finally:
            conn.close()
        await ws.close()
