"""``replay GAME_ID[@BATTLE]`` and ``export GAME_ID --format F`` as the doors read them."""

from __future__ import annotations

import pytest

from war_tui.commands.export import MOST_EXPORT_BYTES, Held, TooLarge
from war_tui.serving.commands import (
    CommandRefused,
    ExportCommand,
    GameRefused,
    ReplayCommand,
    parse_command,
    way_to_play,
)
from war_tui.web.server import place_command


def test_an_id_and_a_battle_become_a_replay_way():
    assert parse_command("replay 12") == ReplayCommand(12, None)
    assert parse_command("replay 12@40") == ReplayCommand(12, 40)
    assert place_command("/replay/12@40") == ReplayCommand(12, 40)
    way = way_to_play(ReplayCommand(12, 40))
    assert way.replay == ReplayCommand(12, 40) and way.table is None and not way.line
    assert way_to_play(ReplayCommand(12), line=True).line
    assert ReplayCommand(12, 40).words() == "12@40" and ReplayCommand(12).words() == "12"


@pytest.mark.parametrize("bad", [
    "replay", "replay 1 2", "replay 0", "replay -1", "replay x", "replay 1@", "replay 1@0", "replay @3",
    "replay 1@1000001", "replay 9223372036854775808", "replay ١٢", "replay 1@2@3", "replay [red]1",
])
def test_a_malformed_replay_is_refused_without_echoing_it(bad):
    with pytest.raises(CommandRefused) as refused:
        parse_command(bad)
    said = str(refused.value)
    assert said.endswith(": ssh -t HOST replay GAME_ID or replay GAME_ID@BATTLE")
    assert said.split(":")[0] in (
        "'replay' takes one game",
        "a game's id is a whole number from 1 to 9223372036854775807, or a table game's id as its result shows it"
        " (TABLE.NONCE.NUMBER)",
        "a battle is a whole number from 1 to 1,000,000 after the '@'",
    )  # never what was sent


@pytest.mark.parametrize("path", ["/replay", "/replay/1/2", "/line/replay/1/2", "/line/replay/x", "/replay/x"])
def test_a_bad_replay_page_is_refused(path):
    with pytest.raises(CommandRefused):
        place_command(path)


def test_export_takes_an_id_and_a_format_json_by_default():
    assert parse_command("export 12") == ExportCommand(12, "json")
    assert parse_command("export 12 --format cast") == ExportCommand(12, "cast")
    assert parse_command("export 12 --format=text") == ExportCommand(12, "text")
    way = way_to_play(ExportCommand(12, "text"))
    assert way.export == ExportCommand(12, "text") and way.line and way.table is None  # text out, no terminal
    assert parse_command(ExportCommand(12, "cast").words().join(("export ", ""))) == ExportCommand(12, "cast")


@pytest.mark.parametrize("bad", ["export", "export x", "export 1 --format", "export 1 --format pdf", "export 1 json",
                                 "export 1 --format json --format text", "export 0"])
def test_a_malformed_export_is_refused(bad):
    with pytest.raises(CommandRefused) as refused:
        parse_command(bad)
    assert str(refused.value).endswith(": ssh HOST export GAME_ID --format json, text or cast"
                                       " (cast: --speed 1|2|4|8, --size COLSxROWS)")


def test_a_recording_takes_a_speed_and_a_size_in_any_order():
    assert parse_command("export 12 --format cast --speed 4 --size 100x30") == ExportCommand(12, "cast", 4, (100, 30))
    assert parse_command("export 12 --size=40x12 --format=cast") == ExportCommand(12, "cast", 1, (40, 12))
    assert parse_command("export 12 --format cast --size 300X100 --speed 8") == ExportCommand(12, "cast", 8, (300, 100))
    command = ExportCommand(12, "cast", 2, (120, 40))
    assert command.words() == "12 --format cast --speed 2 --size 120x40"
    assert parse_command("export " + command.words()) == command  # as the game is told it
    assert ExportCommand(12, "json").words() == "12 --format json"


@pytest.mark.parametrize(("bad", "said"), [
    ("export 1 --format cast --speed 3", "a recording's speed is 1, 2, 4 or 8 (battles a second)"),
    ("export 1 --format cast --speed 16", "a recording's speed is 1, 2, 4 or 8 (battles a second)"),
    ("export 1 --format cast --speed -1", "a recording's speed is 1, 2, 4 or 8 (battles a second)"),
    ("export 1 --format cast --size 39x12", "a recording's size is COLSxROWS from 40x12 to 300x100"),
    ("export 1 --format cast --size 80x101", "a recording's size is COLSxROWS from 40x12 to 300x100"),
    ("export 1 --format cast --size 80", "a recording's size is COLSxROWS from 40x12 to 300x100"),
    ("export 1 --format cast --size ８0x24", "a recording's size is COLSxROWS from 40x12 to 300x100"),
    ("export 1 --speed 4", "--speed and --size are for --format cast"),
    ("export 1 --format text --size 80x24", "--speed and --size are for --format cast"),
    ("export 1 --format cast --speed 4 --speed 8", "'export' takes a game's id, --format json, text or cast, and for"),
    ("export 1 --format cast --speed", "'export' takes a game's id, --format json, text or cast, and for"),
])
def test_a_bad_speed_or_size_is_one_line_that_never_echoes_it(bad, said):
    with pytest.raises(GameRefused) as refused:
        parse_command(bad)
    assert str(refused.value).startswith(said) and "\n" not in str(refused.value)


def test_a_download_takes_a_recordings_speed_and_size_in_its_query():
    from war_tui.web.downloads import BadQuery, export_named, file_name

    assert export_named("12.cast", {"speed": "4", "size": "100x30"}) == ExportCommand(12, "cast", 4, (100, 30))
    assert export_named("12.cast", {}) == ExportCommand(12, "cast")
    assert file_name(ExportCommand(12, "cast", 4, (100, 30))) == "12-4x-100x30.cast"
    assert file_name(ExportCommand(12, "cast")) == "12.cast" and file_name(ExportCommand(12, "text")) == "12.txt"
    for name, query in (("12.cast", {"speed": "3"}), ("12.cast", {"size": "10x10"}), ("12.json", {"speed": "4"}),
                        ("12.cast", {"colour": "red"})):
        with pytest.raises(BadQuery):
            export_named(name, query)


def test_an_export_is_held_up_to_its_bound_and_no_further():
    held = Held()
    held.write("x" * MOST_EXPORT_BYTES)
    with pytest.raises(TooLarge):
        held.write("x")
    assert MOST_EXPORT_BYTES == 16 * 1024 * 1024


def test_the_line_mode_replays_too_and_each_page_links_the_other():
    from war_tui.serving.commands import LineCommand
    from war_tui.web.server import line_address, screen_address

    assert parse_command("line replay 12@3") == LineCommand(replay=ReplayCommand(12, 3))
    assert place_command("/line/replay/12") == LineCommand(replay=ReplayCommand(12))
    way = way_to_play(LineCommand(replay=ReplayCommand(12, 3)))
    assert way.line and way.replay == ReplayCommand(12, 3) and way.table is None
    assert line_address("/replay/12") == "/line/replay/12" and screen_address("/line/replay/12") == "/replay/12"
    with pytest.raises(CommandRefused):
        parse_command("line replay")


def test_a_table_games_own_id_names_it_on_every_node():
    """A table game's id as its result shows it (table, nonce, number): the same on every node of a cluster,
    where each node's row numbers are its own."""
    assert parse_command("replay oak.5eed01.3") == ReplayCommand("oak.5eed01.3", None)
    assert parse_command("replay oak.5eed01.3@40") == ReplayCommand("oak.5eed01.3", 40)
    assert place_command("/replay/oak.5eed01.3@40") == ReplayCommand("oak.5eed01.3", 40)
    assert parse_command("export oak.5eed01.3 --format text") == ExportCommand("oak.5eed01.3", "text")
    assert ReplayCommand("oak.5eed01.3", 40).words() == "oak.5eed01.3@40"


@pytest.mark.parametrize("bad", [
    "replay oak.5eed", "replay oak..3", "replay .5eed.3", "replay oak.5eed.0", "replay Oak.5eed.3", "replay oak.xyz.3",
    "replay oak.5eed.3.4", "replay " + "a" * 25 + ".5eed.3", "replay oak." + "f" * 65 + ".3", "replay oak.5eed.-3",
    "replay [b]oak[/b].5eed.3", "export oak.5eed",
])
def test_a_malformed_table_game_id_is_refused_without_echoing_it(bad):
    with pytest.raises(GameRefused) as refused:
        parse_command(bad)
    assert "a game's id is a whole number from 1 to 9223372036854775807, or a table game's id" in str(refused.value)
    assert bad.split()[1].split("@")[0] not in str(refused.value)


def test_a_table_game_is_found_by_its_own_id_whatever_its_row(tmp_path):
    """Two nodes' files hold the same table game under different row numbers: its own id finds it in both."""
    from war_tui.core.engine import Game
    from war_tui.core.rules import Rules
    from war_tui.stats import GameRecord, Source, StatsStore

    def finished(seed: int, game_id: str | None) -> GameRecord:
        game = Game.deal(seed, Rules(max_battles=5))
        game.start()
        game.play(5)
        return GameRecord.from_game(game, ("ann", "bob"), 1.0, Source.TABLE if game_id else Source.INTERACTIVE,
                                    game_id=game_id)

    a, b = StatsStore.open(tmp_path / "a.sqlite3"), StatsStore.open(tmp_path / "b.sqlite3")
    b.record(finished(1, None))  # b's rows are one ahead of a's
    for store in (a, b):
        store.record(finished(7, "oak.5eed01.1"))
    found = [store.game("oak.5eed01.1") for store in (a, b)]
    assert [[record.seed for record in rows or []] for rows in found] == [[7], [7]]
    assert a.game(1) != b.game(1) and a.game("oak.5eed01.2") == []
