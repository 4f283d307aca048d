"""The floor for the UI speed benchmark: a bare Textual app doing the least a game screen does.

A Header, one Static updated ``--rate`` times a second by ``set_interval``
(0: never, the app just sits there), and a Footer. ``ui_speed.py`` runs it in
the same pseudo-terminal, side by side with war-tui, and reports war-tui's
figures as ratios of this one's.
"""

from __future__ import annotations

import argparse

from textual.app import App, ComposeResult
from textual.widgets import Footer, Header, Static


class BareApp(App[None]):
    BINDINGS = [("q", "quit", "Quit"), ("space", "tick", "Tick")]

    def __init__(self, rate: float) -> None:
        super().__init__()
        self.rate = rate
        self.ticks = 0

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("Tick 0", id="ticker")
        yield Footer()

    def on_mount(self) -> None:
        if self.rate > 0:
            self.set_interval(1 / self.rate, self.action_tick)

    def action_tick(self) -> None:
        self.ticks += 1
        self.query_one("#ticker", Static).update(f"Tick {self.ticks:,}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rate", type=float, default=0.0, help="updates of the Static per second (0: none)")
    BareApp(parser.parse_args().rate).run()


if __name__ == "__main__":
    main()
