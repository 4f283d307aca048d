"""How long the line mode's sentences take to speak: espeak-ng at 175 and 300 words a minute.

The sentences are the line mode's own for real battles of seed 3 (an ordinary battle, a war, the
terse wordings, the score, the end of the game), spoken to a WAV file by espeak-ng and timed by its
length (sox's ``soxi -D``). What it tells: whether auto-play's default pace (one battle every 3 s) can
be followed by ear. Needs ``espeak-ng`` and ``sox`` (``apt-get install -y espeak-ng sox``).

    python benchmarks/line_speech.py
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from war_tui.core.engine import Game
from war_tui.core.events import BattleWon, GameOver
from war_tui.line.sentences import BattleTeller, Voice, score

WPM = (175, 300)


def sentences(seed: int = 3) -> dict[str, str]:
    """One sentence of each kind from the game of ``seed``, full and terse."""
    found: dict[str, str] = {}
    for terse in (False, True):
        game = Game.deal(seed)
        teller = BattleTeller(Voice(terse=terse))
        suffix = " (terse)" if terse else ""

        def listen(event, suffix=suffix, teller=teller):
            said = teller.on_event(event)
            if said is None:
                return
            if isinstance(event, BattleWon):
                kind = "double war" if event.wars >= 2 else "war" if event.wars else "battle"
                found.setdefault(kind + suffix, said)
            elif isinstance(event, GameOver):
                found.setdefault("game over" + suffix, said)

        game.subscribe(listen)
        game.play()
        found.setdefault("score", score(game.battles, game.wars, game.counts, Voice()))
    return found


def spoken_seconds(text: str, wpm: int, folder: Path) -> float:
    wav = folder / "said.wav"
    subprocess.run(["espeak-ng", "-s", str(wpm), "-w", str(wav), text], check=True, capture_output=True)
    length = subprocess.run(["soxi", "-D", str(wav)], check=True, capture_output=True, text=True).stdout
    return float(length)


def main() -> int:
    if not (shutil.which("espeak-ng") and shutil.which("soxi")):
        sys.stderr.write("needs espeak-ng and sox: apt-get install -y espeak-ng sox\n")
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        print(f"{'sentence':<22}" + "".join(f"{w:>8} wpm" for w in WPM) + "  words  text")
        for kind, text in sentences().items():
            times = [spoken_seconds(text, wpm, folder) for wpm in WPM]
            print(f"{kind:<22}" + "".join(f"{t:>10.1f} s" for t in times) + f"  {len(text.split()):>5}  {text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
