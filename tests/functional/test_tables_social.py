"""A table that feels like playing a person: your packet, the other's requests, agreement, emotes, the house.

Pilot tests over a socketpair (table_support.TableServer): the screen is one player's (or a spectator's)
app; the other player is a plain member whose requests the test makes.
"""

from __future__ import annotations

from collections import Counter

import pytest
from screen_text import screen_rows, words_of
from support.board_text import log_text, requests, seats
from support.deals import FIVE_PLAIN, WAR_TEXTS
from table_support import PLAIN, TableServer, ann_and_bob, dealing, table_app
from war_ui_support import cut_footer_keys, footer_keys, footer_text, notices, until

from war_tui.core.rules import Result
from war_tui.tables import Emoted, TableOptions
from war_tui.ui.components.packet import Packet
from war_tui.ui.screens.game_over import GameOverScreen
from war_tui.ui.screens.help import HelpScreen

pytestmark = pytest.mark.app  # see pyproject.toml's markers

SIZE = (100, 30)


# ------------------------------------------------------------------ you and them


async def test_your_packet_is_marked_and_sits_at_the_bottom_for_either_seat():
    with TableServer(dealing(*PLAIN)) as server:
        fd, _ = server.connect("ann", table="oak")
        app = table_app(fd)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.query_one("#packet-p1", Packet).yours)
            packets = app.query_one("#table").query(Packet)
            assert [p.id for p in packets] == ["packet-p2", "packet-p1"]  # seat 1's own packet at the bottom
            assert app.query_one("#pile").flipped
            assert not app.query_one("#packet-p2", Packet).yours


async def test_the_other_players_request_shows_whole_and_as_a_toast_and_the_same_key_agrees():
    with TableServer(dealing(*PLAIN)) as server:
        app, bob, _ = ann_and_bob(server)
        async with app.run_test(size=(80, 24)) as pilot:
            said = notices(app)
            await until(pilot, lambda: "bob" in seats(app))
            bob.set_auto(True, 4)
            server.wake.set()
            wanted = "bob asks for auto-play at 4/s: press a to agree, n to decline"
            await until(pilot, lambda: wanted in requests(app))
            assert wanted in said
            await pilot.press("a")
            await until(pilot, lambda: app.board.auto or app.controller.game.battles > 0)
            assert "asks" not in requests(app)


async def test_your_own_request_shows_until_you_withdraw_it_with_the_same_key():
    with TableServer(dealing(*PLAIN)) as server:
        app, _bob, _ = ann_and_bob(server)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "bob" in seats(app))
            await pilot.press("w")
            await until(pilot, lambda: "you ask to stop at wars: waiting for bob (w withdraws)" in requests(app))
            await pilot.press("w")
            await until(pilot, lambda: "stop at wars" not in requests(app))


@pytest.mark.serial  # waits a second of wall clock for the request to lapse
async def test_an_unanswered_request_times_out_and_both_screens_say_so():
    with TableServer(dealing(*PLAIN), options=TableOptions(request_timeout=1.0)) as server:
        app, _bob, sink = ann_and_bob(server)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "bob" in seats(app))
            await pilot.press("r")
            await until(pilot, lambda: "you ask to stop this game and deal again" in requests(app))
            await until(pilot, lambda: "timed out" in log_text(app))
            assert "ann's request to stop this game and deal again timed out: no answer in 1 s" in log_text(app)
            assert requests(app) == "" or "you ask" not in requests(app)
            assert any("timed out" in getattr(u, "text", "") for u in sink.updates)


# ------------------------------------------------------------------ agreement


async def test_stop_at_wars_once_both_ask_holds_the_table_at_the_tie_and_the_others_space_lays_it():
    with TableServer(dealing(*WAR_TEXTS)) as server:
        app, bob, _ = ann_and_bob(server)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "bob" in seats(app))
            await pilot.press("w")
            bob.table.set_war_stop(bob, True)
            server.wake.set()
            await until(pilot, lambda: app.board.pause_on_war)
            await pilot.press("a")
            bob.set_auto(True, 4)
            server.wake.set()
            await until(pilot, lambda: app.board.table_state.held)
            assert app.board.laying and app.board.shown_steps == 1  # the tie on show, the war not told
            assert "stopped at a war: space lays it for everyone" in requests(app)
            bob.flip()
            server.wake.set()
            await until(pilot, lambda: not app.board.laying)
            assert "DOUBLE WAR" in log_text(app)


async def test_a_new_deal_mid_game_by_agreement_is_a_stopped_game_in_the_tally():
    with TableServer(dealing(*WAR_TEXTS)) as server:
        app, bob, _ = ann_and_bob(server)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "bob" in seats(app))
            await pilot.press("space")
            bob.flip()  # a game stopped before its first battle is no game: the tally leaves it out
            server.wake.set()
            await until(pilot, lambda: app.board.battle is not None)
            await pilot.press("r")
            await until(pilot, lambda: "you ask to stop this game and deal again" in requests(app))
            bob.restart()
            server.wake.set()
            await until(pilot, lambda: app.controller.game.game_number == 2)
            assert app.board.tally[Result.STOPPED] == 1
            assert "game stopped by agreement: a new deal" in log_text(app)


async def test_at_game_over_the_dialog_says_the_other_player_asked_to_deal_again():
    """Item 10: bob's result no longer says "once both players ask" after ann's r."""
    with TableServer(dealing(*PLAIN)) as server:
        ann, _ = server.seat("oak", "ann")
        fd, _ = server.connect("bob", table="oak")
        app = table_app(fd)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "bob (you)" in seats(app))
            for _ in range(3):
                if app.controller.game.over:
                    break
                ann.flip()
                await pilot.press("space")
                await until(pilot, lambda: "waiting for both" in seats(app) or app.controller.game.over)
            await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
            hint = lambda: str(app.screen.query_one("#result-hint").render())  # noqa: E731  # read again each time
            assert "once both players ask" in hint()
            ann.restart()
            server.wake.set()
            await until(pilot, lambda: "ann asks to deal again: r or space agrees" in hint())
            assert "once both players ask" not in hint()


# ------------------------------------------------------------------ emotes


async def test_an_emote_shows_beside_the_senders_name_in_the_log_and_reaches_the_other():
    # The table's clock stands still: the second emote is "within a second".
    with TableServer(dealing(*PLAIN), clock=lambda: 1000.0) as server:
        app, _bob, sink = ann_and_bob(server)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "bob" in seats(app) and "1-6 Emote" in footer_text(app))
            assert "q Quit" in footer_text(app)
            await pilot.press("4")
            await until(pilot, lambda: 'ann (you) "wow"' in seats(app))
            assert "ann: wow" in log_text(app)
            assert Emoted(app.controller.game.you.seat, "ann", 3) in sink.updates
            said = notices(app)
            await pilot.press("2")  # within a second: the table refuses it
            await until(pilot, lambda: any("emote a second, ten a minute" in s for s in said))


async def test_a_spectator_sees_the_emote_beside_the_name_and_has_no_emote_keys():
    with TableServer(dealing(*PLAIN)) as server:
        ann, _ = server.seat("oak", "ann")
        server.seat("oak", "bob")
        fd, _ = server.connect("eve", table="oak", watch=True)
        app = table_app(fd, mode="watch")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "you are watching" in seats(app) and "? Help" in footer_text(app))
            assert "Emote" not in footer_text(app)
            ann.table.emote(ann, 1)
            server.wake.set()
            await until(pilot, lambda: 'ann "what a war!"' in seats(app))
            assert "ann: what a war!" in log_text(app)


async def test_the_help_lists_the_emotes_and_the_request_keys():
    with TableServer(dealing(*PLAIN)) as server:
        app, _bob, _ = ann_and_bob(server)
        async with app.run_test(size=(100, 40)) as pilot:
            await until(pilot, lambda: "bob" in seats(app))
            await pilot.press("question_mark")
            await until(pilot, lambda: isinstance(app.screen, HelpScreen))
            keys = dict(app.controller.help_keys())
            assert "1 good game" in keys["1-6"] and "6 thanks" in keys["1-6"]
            assert "withdraw" in keys["w"]


# ------------------------------------------------------------------ the house and empty seats


async def test_the_house_countdown_shows_before_it_flips_for_the_idle_player():
    with TableServer(dealing(*PLAIN), options=TableOptions(seat_timeout=15.0)) as server:
        app, _bob, _ = ann_and_bob(server)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "bob" in seats(app))
            await pilot.press("space")
            await until(pilot, lambda: "the house flips for bob in 15 s" in requests(app))


async def test_alone_at_a_table_a_player_can_play_the_house_now():
    with TableServer(dealing(*PLAIN)) as server:
        fd, _ = server.connect("ann", table="oak")
        app = table_app(fd)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "alone at the table: h plays the house now" in requests(app))
            await pilot.press("h")
            await until(pilot, lambda: "the house plays seat 2" in seats(app))
            await pilot.press("space")
            await until(pilot, lambda: app.board.battle is not None)
            assert "alone" not in requests(app)
            await until(pilot, lambda: "waiting for ann to flip" in seats(app))  # never for the house


@pytest.mark.serial  # waits a second of wall clock for the seat timeout
async def test_a_newcomer_is_told_whose_away_seat_it_is_and_takes_it_with_t_after_the_seat_timeout():
    with TableServer(dealing(*PLAIN), options=TableOptions(seat_timeout=1.0, short_stay=0.0)) as server:
        ann, _ = server.seat("oak", "ann")
        bob = server.registry.join("oak", "bob", lambda update: None, identity="key:bob")
        ann.flip()
        bob.leave()
        fd, _ = server.connect("cy", table="oak")
        app = table_app(fd)
        said = notices(app)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "you are watching" in seats(app))
            await until(pilot, lambda: any("eat 2 is kept for bob, who is away: t takes it in" in s for s in said))
            await pilot.pause(1.1)
            await pilot.press("t")
            await until(pilot, lambda: "cy (you)" in seats(app))
            assert "cy takes seat 2, bob's until now" in log_text(app)


# ------------------------------------------------------------------ one truth per table


async def test_a_late_spectator_sees_the_tables_tally_and_the_games_time():
    with TableServer(dealing(*PLAIN)) as server:
        ann, _ = server.seat("oak", "ann")
        bob, _ = server.seat("oak", "bob")
        for _ in range(3):
            ann.flip()
            bob.flip()
        assert ann.table.game.over
        ann.restart()
        bob.restart()
        fd, _ = server.connect("eve", table="oak", watch=True)
        app = table_app(fd, mode="watch")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "you are watching" in seats(app))
            assert +app.board.tally == Counter({Result.P1: 1})
            assert "ann 1" in app.board.tally_line()


async def test_a_line_the_table_adds_while_a_war_is_laid_comes_after_the_war_in_the_log():
    """Item 15: "bob left seat 2" never comes before the battle both had flipped."""
    with TableServer(dealing(*WAR_TEXTS)) as server:
        ann, _ = server.seat("oak", "ann")
        bob, _ = server.seat("oak", "bob")
        fd, _ = server.connect("eve", table="oak", watch=True)
        app = table_app(fd, mode="watch", war_step=5.0)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "bob sits at seat 2" in log_text(app))
            ann.flip()
            bob.flip()
            server.wake.set()
            await until(pilot, lambda: app.board.laying)
            bob.leave()
            server.wake.set()
            await until(pilot, lambda: "bob left seat 2" in log_text(app))
            log = log_text(app)
            assert log.index("ann takes 10 cards") < log.index("bob left seat 2")


async def test_two_players_at_one_keyboard_w_stops_at_the_tie_and_a_flip_key_lays_it():
    """Item 1: at one keyboard a second w agrees to the first, so the table stops at the war's tie."""
    from table_support import two_player_app

    app = two_player_app(dealing(*WAR_TEXTS), names=("Ann", "Bob"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("w", "w")
        await until(pilot, lambda: app.board.pause_on_war)
        await pilot.press("a")
        await until(pilot, lambda: app.board.laying)
        assert app.board.battle.battle == 1
        await pilot.press("j")
        await until(pilot, lambda: not app.board.laying)
        assert "DOUBLE WAR" in log_text(app)
        await until(pilot, lambda: app.controller.game.over)  # the table laid it for both: auto-play carries on


async def test_the_footer_follows_the_table_keys_in_play_as_people_arrive():
    with TableServer(dealing(*PLAIN)) as server:
        fd, _ = server.connect("ann", table="oak")
        app = table_app(fd)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "1-6 Emote" in footer_text(app))
            assert app.controller.allows("play_house")
            server.seat("oak", "bob")
            await until(pilot, lambda: "bob" in seats(app))
            assert not app.controller.allows("play_house")
            await pilot.press("h")
            assert "the house plays" not in seats(app)


# ------------------------------------------------------------------ leaving, told before it happens


def last_state(sink):
    from war_tui.tables import TableState

    return [u for u in sink.updates if isinstance(u, TableState)][-1]


async def test_q_mid_game_asks_first_and_the_other_player_hears_of_it_and_another_key_stays():
    from war_tui.presentation.requests import LEAVE_PROMPT

    with TableServer(dealing(*FIVE_PLAIN)) as server:
        app, _bob, sink = ann_and_bob(server)
        async with app.run_test(size=SIZE) as pilot:
            said = notices(app)
            await until(pilot, lambda: "bob" in seats(app))
            await pilot.press("q")
            await until(pilot, lambda: LEAVE_PROMPT in requests(app))
            assert app.is_running and last_state(sink).seats[0].leaving
            assert any(LEAVE_PROMPT in text.lower() for text in said)
            await pilot.press("space")  # stays, and flips nothing
            await until(pilot, lambda: "leave" not in requests(app))
            assert app.is_running and not last_state(sink).seats[0].leaving
            assert app.controller.game.state.seats[0].flipped is False
            await pilot.press("q")
            await until(pilot, lambda: LEAVE_PROMPT in requests(app))
            await pilot.press("y")
            await until(pilot, lambda: not app.is_running)


async def test_ctrl_l_while_q_asks_draws_the_screen_again_and_leaves_the_question_open():
    """ctrl+l is no answer: the question stays, and q still leaves."""
    from war_tui.presentation.requests import LEAVE_PROMPT

    with TableServer(dealing(*FIVE_PLAIN)) as server:
        app, _bob, sink = ann_and_bob(server)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "bob" in seats(app))
            await pilot.press("q")
            await until(pilot, lambda: LEAVE_PROMPT in requests(app))
            await pilot.press("ctrl+l")
            await pilot.pause()
            assert app.controller.leave_asked and LEAVE_PROMPT in requests(app) and last_state(sink).seats[0].leaving
            await pilot.press("q")
            await until(pilot, lambda: not app.is_running)


async def test_q_q_mid_game_at_a_table_from_the_lobby_goes_back_to_the_lobby():
    from war_tui.ui.screens.lobby import LobbyScreen

    with TableServer(dealing(*FIVE_PLAIN)) as server:
        server.seat("oak", "bob")
        fd, link = server.connect("ann")
        app = table_app(fd, mode="lobby")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.chosen_table() == "oak")
            await pilot.press("enter")
            await until(pilot, lambda: link.member is not None and "bob" in seats(app))
            await pilot.press("q")
            await until(pilot, lambda: "leave the table?" in requests(app))
            assert link.member is not None and not isinstance(app.screen, LobbyScreen)
            await pilot.press("q")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and link.member is None)


async def test_q_alone_with_the_house_leaves_at_once():
    with TableServer(dealing(*FIVE_PLAIN)) as server:
        fd, _ = server.connect("ann", table="oak")
        app = table_app(fd)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "ann (you)" in seats(app))
            await pilot.press("q")
            await until(pilot, lambda: not app.is_running)


async def test_the_other_player_and_a_spectator_see_a_player_leaving_then_what_the_table_does():
    with TableServer(dealing(*FIVE_PLAIN)) as server:
        app, bob, _ = ann_and_bob(server)
        eve_fd, _ = server.connect("eve", table="oak", watch=True)
        eve = table_app(eve_fd, mode="watch")
        async with app.run_test(size=SIZE) as pilot, eve.run_test(size=SIZE) as eve_pilot:
            said, eve_said = notices(app), notices(eve)
            await until(pilot, lambda: "bob" in seats(app))
            await until(eve_pilot, lambda: "bob" in seats(eve))
            await pilot.press("space")
            bob.flip()  # a battle played: bob's seat is kept for him
            bob.table.set_leaving(bob, True)
            server.wake.set()
            await until(pilot, lambda: "bob is leaving the table" in requests(app))
            await until(eve_pilot, lambda: "bob is leaving the table" in requests(eve))
            assert "bob is leaving the table" in said and "bob is leaving the table" in eve_said
            bob.leave()
            server.wake.set()
            left = "bob left seat 2: the house plays it"  # nobody to keep it for: bob came with no key
            await until(pilot, lambda: left in said and "leaving" not in requests(app))
            await until(eve_pilot, lambda: left in eve_said and left in log_text(eve))


def toast_text(app) -> str:
    """The words of the toasts on the glass, each read from the screen within its own region."""
    rows = screen_rows(app)
    found = []
    for toast in app.screen.query("Toast"):
        x, y, width, height = toast.region
        found += [rows[row][x:x + width].lstrip("▌") for row in range(y, y + height) if row < len(rows)]
    return " ".join(words_of(" ".join(found)))


@pytest.mark.usefixtures("toasts_stay")  # read while it is on show
async def test_at_40x12_a_player_leaving_is_one_note_at_a_time_below_the_pile():
    from war_tui.ui.app import SHORT_SCREEN_NOTE

    with TableServer(dealing(*FIVE_PLAIN)) as server:
        app, bob, _ = ann_and_bob(server)
        async with app.run_test(size=(40, 12), notifications=True) as pilot:
            await until(pilot, lambda: "bob" in seats(app))
            await pilot.press("space")
            bob.flip()
            bob.table.set_leaving(bob, True)
            server.wake.set()
            await until(pilot, lambda: toast_text(app).startswith("bob is leaving the table"))
            bob.leave()
            server.wake.set()
            left = "bob left seat 2: the house plays it"
            await until(pilot, lambda: left in toast_text(app))
            rows = screen_rows(app)
            assert toast_text(app) == left and "is leaving" not in "\n".join(rows)  # the note before gave way
            pile = rows[2:8]  # the battle's box, whole: no toast over it
            assert all("▌" not in row for row in pile), "\n".join(rows)
            assert "ann takes 2 cards" in "\n".join(pile)
            assert app.screen.has_class("-short") and app._said["table"].timeout <= SHORT_SCREEN_NOTE


@pytest.mark.usefixtures("toasts_stay")  # read while it is on show
async def test_at_40x12_a_player_about_to_leave_is_asked_in_one_line_and_a_one_line_note():
    """The note repeated the requests line's question in four rows over the board: on a short screen it is short."""
    with TableServer(dealing(*FIVE_PLAIN)) as server:
        app, bob, _ = ann_and_bob(server)
        async with app.run_test(size=(40, 12), notifications=True) as pilot:
            await until(pilot, lambda: "bob" in seats(app))
            await pilot.press("space")
            bob.flip()
            await until(pilot, lambda: app.board.battle is not None)
            await pilot.press("q")
            await until(pilot, lambda: "leave the table?" in requests(app) and toast_text(app))
            await pilot.pause()
            assert toast_text(app) == "Leave? q or y"
            assert [toast.region.height for toast in app.screen.query("Toast")] == [1]
            rows = screen_rows(app)
            assert "leave the table? q or y leaves, any other key stays" in " ".join(words_of(" ".join(rows[:4])))
            assert all("▌" not in row for row in rows[:10]), "\n".join(rows)  # the board above the count bar is clear


# ------------------------------------------------------------------ the seats line on the glass


@pytest.mark.parametrize("names", [("annabelle-longna", "bartholomew-16ch"), ("山田太郎山田太郎", "Ünïcødé山田")],
                         ids=["long", "wide"])
@pytest.mark.parametrize("size", [(40, 12), (60, 20), (80, 24)])
async def test_the_seats_line_shows_both_seats_whole_at_every_size(names, size):
    from rich.cells import cell_len
    from screen_text import screen_rows

    from war_tui.presentation.cells import cut_cells

    ann, bob = names
    with TableServer(dealing(*PLAIN)) as server:
        fd, _ = server.connect(ann, table="oak")
        _bob, _sink = server.seat("oak", bob)
        app = table_app(fd)
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: "to flip" in seats(app) and bob[:2] in seats(app))
            await pilot.press("space")
            await until(pilot, lambda: "flipped" in seats(app))
            await pilot.pause()
            rows = [row for row in screen_rows(app) if " flipped · " in row]
        assert len(rows) == 1, rows
        row = rows[0].strip()
        assert cell_len(rows[0]) <= size[0]
        assert row.endswith("to flip") or "to flip · " in row, row  # the other seat's words, whole
        assert row.startswith(("you flipped", "oak · ", f"{ann} (you)")), row
        shortened = [cut_cells(bob, n) + "…" for n in range(2, cell_len(bob))]
        assert bob in row or any(short in row for short in shortened), row


@pytest.mark.parametrize("seated", [("ann",), ("ann", "bob")], ids=["a seat free", "both seats taken"])
async def test_a_spectators_footer_lists_only_what_a_spectators_keys_do(seated):
    with TableServer(dealing(*PLAIN)) as server:
        for name in seated:
            server.seat("oak", name)
        fd, _ = server.connect("eve", table="oak", watch=True)
        app = table_app(fd, mode="watch")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "you are watching" in seats(app) and "? Help" in footer_text(app))
            await pilot.pause()
            shown = footer_text(app)
            for players_key in ("Flip", "Auto", "Speed", "War stop", "Restart", "Emote"):
                assert players_key not in shown, shown
            assert "? Help" in shown and "q Quit" in shown
            assert ("t Sit" in shown) is (len(seated) == 1), shown


@pytest.mark.parametrize("who", ["seat", "spectator"])
@pytest.mark.parametrize("width", [100, 73, 40])
async def test_a_tables_footer_shows_whole_keys_only_at_every_width(width, who):
    with TableServer(dealing(*PLAIN)) as server:
        if who == "seat":
            app, _bob, _ = ann_and_bob(server)
        else:
            server.seat("oak", "ann")
            server.seat("oak", "bob")
            fd, _ = server.connect("eve", table="oak", watch=True)
            app = table_app(fd, mode="watch")
        async with app.run_test(size=(width, 24)) as pilot:
            await until(pilot, lambda: "bob" in seats(app) and "Quit" in footer_text(app))
            await pilot.pause()
            assert not cut_footer_keys(app), f"cut at {width} columns: {footer_text(app)}"
            assert "Quit" in {key.description for key in footer_keys(app)[0]}
