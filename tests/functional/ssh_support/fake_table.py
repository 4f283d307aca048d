"""A stand-in for the game at a shared table, for testing the server's side: it says what the table says.

Prints ``TABLE <mode>`` at start (``TABLE none`` without a table socket), then one line per update from
the server: ``SNAPSHOT``, ``BATTLE <n> <p1>-<p2>``, ``DEAL <game>``, ``OVER <result>``, ``STATE``,
``NOTICE <code> <text>``, ``LOBBY``, ``TUNED <table or -> <why>`` (War TV), and ``TABLE END`` when the server
closes its side. Keys: f flips, a asks for auto-play at 4/s, m at the table's top speed, o stops it, r restarts,
l leaves, n asks War TV for the next table, g sends one malformed line, G twenty, q quits (status 0). With ``--notes DIR`` it also writes every notice it
receives to DIR/<pid>, so a test sees what reached a game after its screen stopped being forwarded.
With ``--deaf-table`` it never reads its table socket (a game that stopped taking updates).
"""

import os
import select
import socket
import sys
import termios
import tty

from war_tui.settings.served import TABLE_FD_VARIABLE, TABLE_MODE_VARIABLE
from war_tui.tables import (
    Auto,
    EventBatch,
    Flip,
    Join,
    Leave,
    Lobby,
    Notice,
    Request,
    Restart,
    Sit,
    Snapshot,
    TableState,
    encode,
)
from war_tui.tables.messages import BattleWon, GameOver, GameStarted, NextTable, Tuned
from war_tui.tables.protocol import update_reader


def say(text: str) -> None:
    os.write(1, (text + "\r\n").encode())


def seats(state: TableState) -> str:
    return ",".join(f"{s.name or '-'}:{s.status.value}" for s in state.seats)


def show(update) -> list[str]:
    if isinstance(update, Snapshot):
        seat = update.you.seat.index + 1 if update.you.seat is not None else "-"
        return [f"SNAPSHOT you={update.you.name} seat={seat} game={update.state.game} battles={update.battles} "
                f"counts={update.counts[0]}-{update.counts[1]} seats={seats(update.state)} log={len(update.log)}"]
    if isinstance(update, EventBatch):
        lines = []
        for event in update.events:
            if isinstance(event, BattleWon):
                lines.append(f"BATTLE {event.battle} {event.p1_count}-{event.p2_count}")
            elif isinstance(event, GameOver):
                lines.append(f"OVER {event.result.value} after {event.battles}")
            elif isinstance(event, GameStarted):
                lines.append(f"DEAL {update.game}")
        return lines
    if isinstance(update, TableState):
        waiting = ",".join(str(s.index + 1) for s in update.waiting_for)
        return [f"STATE seats={seats(update)} spectators={update.spectators} waiting={waiting or '-'} "
                f"auto={update.auto_speed}"]
    if isinstance(update, Notice):
        return [f"NOTICE {update.code.value} {update.text}"]
    if isinstance(update, Lobby):
        names = " ".join(f"{e.table}:{e.players[0] or '-'}/{e.players[1] or '-'}+{e.spectators}" for e in update.tables)
        return [f"LOBBY {len(update.tables)}/{update.max_tables} full={update.full} {names}".rstrip()]
    if isinstance(update, Tuned):
        return [f"TUNED {update.table or '-'} {update.why}"]
    return [f"UPDATE {type(update).__name__}"]


notes = sys.argv[sys.argv.index("--notes") + 1] if "--notes" in sys.argv else None
deaf = "--deaf-table" in sys.argv
fd_text = os.environ.get(TABLE_FD_VARIABLE, "")
tty.setraw(0)
say(f"PID {os.getpid()}")
if not fd_text.isdigit():
    say("TABLE none")
    sock = None
else:
    sock = socket.socket(fileno=int(fd_text))
    say(f"TABLE {os.environ.get(TABLE_MODE_VARIABLE, '?')}")
reader = update_reader()
KEYS: dict[bytes, Request] = {b"f": Flip(), b"a": Auto(True, 4.0), b"m": Auto(True, float("inf")), b"o": Auto(False, 4.0),
        b"r": Restart(), b"R": Restart(False), b"l": Leave(), b"J": Join("elm"), b"s": Sit(), b"n": NextTable()}

while True:
    watched = [0] + ([sock] if sock is not None and not deaf else [])
    try:
        ready, _, _ = select.select(watched, [], [], 0.5)
    except InterruptedError:
        continue
    if sock is not None and sock in ready:
        data = sock.recv(65536)
        if not data:
            say("TABLE END")
            sock.close()
            sock = None
        for update in reader.feed(data):
            for line in show(update):
                say(line)
            if notes is not None and isinstance(update, Notice):
                with open(os.path.join(notes, str(os.getpid())), "a") as file:
                    file.write(f"{update.code.value} {update.text}\n")
    if 0 in ready:
        key = os.read(0, 1)
        if not key or key == b"q":
            termios.tcdrain(1)
            sys.exit(0)
        if sock is None:
            continue
        if key in KEYS:
            sock.sendall(encode(KEYS[key]))
        elif key == b"g":
            sock.sendall(b"this is not json\n")
        elif key == b"G":
            sock.sendall(b"{not json}\n" * 20)
