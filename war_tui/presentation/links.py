"""How a person reaches a finished game again: the command that replays it from this computer's statistics, or
from a server's, over SSH and in a browser."""

from __future__ import annotations


def replay_command(game_id: int | str) -> str:
    """``war-tui replay 12``: what the game-over screen and the replay show beside the game's id."""
    return f"war-tui replay {game_id}"


def served_replay_links(game_id: int | str, battle: int | None, ssh_at: str | None, web_at: str | None) -> str | None:
    """``ssh -t -p 2222 192.0.2.7 replay 12@40`` and ``https://war.example.org/replay/12#b=40``: what a served
    game-over screen and replay show, for the doors the server named; None when it named neither."""
    links = []
    if ssh_at:
        links.append(f"ssh -t {ssh_at} replay {game_id}" + ("" if battle is None else f"@{battle}"))
    if web_at:
        links.append(f"{web_at}/replay/{game_id}" + ("" if battle is None else f"#b={battle}"))
    return " or ".join(links) or None
