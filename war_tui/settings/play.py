"""Everything the command line decides about a session at the table, as one plain value.

The full-screen app takes a ``PlaySettings``; the command line builds it
without importing Textual, so ``war-tui game`` stays fast and bad flags fail
before any screen opens. A field named like an option of ``war_tui.settings.options``
takes that option's default (a unit test holds the two together).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..core.cards import Card
from ..core.rules import Rules
from ..presentation.result_hold import RESULT_HOLD
from ..presentation.unfolding import WAR_STEP
from .options import DEFAULT_NAMES, OPTIONS

if TYPE_CHECKING:
    from .preferences import Preferences

SCREENSAVER_PAUSE = 5.0
"""Seconds the screensaver shows a finished game before dealing the next."""


@dataclass(frozen=True)
class PlaySettings:
    seed: int | None = OPTIONS["seed"].default
    rules: Rules = field(default_factory=Rules)
    auto: bool = OPTIONS["auto"].default
    speed: float = OPTIONS["speed"].default
    screensaver: bool = OPTIONS["screensaver"].default
    pause_on_war: bool = OPTIONS["pause_on_war"].default
    time_limit: float | None = OPTIONS["time_limit"].default  # minutes per game
    session_minutes: float | None = OPTIONS["session_minutes"].default  # the server's limit on the whole session
    names: tuple[str, str] = DEFAULT_NAMES
    ascii: bool = OPTIONS["ascii"].default
    packets: tuple[tuple[Card, ...], tuple[Card, ...]] | None = None  # a hand-made deal (tests, replays)
    screensaver_pause: float = SCREENSAVER_PAUSE
    war_step: float = WAR_STEP  # seconds each step of a war stays on the pile; 0 shows wars whole
    result_hold: float = RESULT_HOLD  # seconds of no key a finished game's result waits for before dealing again
    theme: str | None = OPTIONS["theme"].default  # a Textual theme's name; None keeps Textual's default
    deck: str = OPTIONS["deck"].default  # one of settings.values.DECKS: "four-colour" colours diamonds and clubs
    config_problems: tuple[str, ...] = ()  # what was wrong in the preferences file, shown once at start
    preferences: Preferences | None = None  # where changes made in the game are saved; None: nowhere
    top_speed: float = OPTIONS["top_speed"].default  # auto-play's fastest; what "max" means (served games)
    served: bool = OPTIONS["served"].default  # played over SSH: the player is not the machine's user
    player: str | None = OPTIONS["player"].default  # served: who plays, recorded with each game; their stats only
    notice: str | None = OPTIONS["notice"].default  # said once the board is up (what the SSH server refused)
    ssh_at: str | None = OPTIONS["ssh_at"].default  # served: ssh's arguments that reach this server
    web_at: str | None = OPTIONS["web_at"].default  # served: the web door's origin as the browser named it
    replay: str | None = OPTIONS["replay"].default  # served: ssh HOST replay's GAME_ID[@BATTLE], no game
    export: str | None = OPTIONS["export"].default  # served: ssh HOST export's GAME_ID --format F, no game
    two_players: bool = OPTIONS["two_players"].default  # a local table, both seats at this keyboard
    table_fd: int | None = OPTIONS["table_fd"].default  # served at a shared table: the socket to the server
    table_mode: str | None = OPTIONS["table_mode"].default  # one of TABLE_MODES when table_fd is set
    leaderboard: bool = OPTIONS["leaderboard"].default  # served: the lobby's s shows the server's leaderboard
    line_input: str | None = OPTIONS["line_input"].default  # served in the line mode: "keys" or "lines" (LINE_INPUTS)
    error_fd: int | None = OPTIONS["error_fd"].default  # served: where crash reports go (the server's log)
    accessible: bool = OPTIONS["accessible"].default  # served: the SSH client asked for the line mode
