"""How a person reaches a finished game again: the command that replays it from this computer's statistics."""

from __future__ import annotations


def replay_command(game_id: int) -> str:
    """``war-tui replay 12``: what the game-over screen and the replay show beside the game's id."""
    return f"war-tui replay {game_id}"
