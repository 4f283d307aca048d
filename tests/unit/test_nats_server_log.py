"""The embedded nats-server's lines reach the log on a budget of their own, the rest summarised."""

from __future__ import annotations

from war_tui.cluster.server_log import LogBudget, kind

FAILED = "127.0.0.1:{port} - cid:{cid} - authentication error - Token \"[REDACTED]\""


class Timers:
    def __init__(self) -> None:
        self.pending: list[tuple[float, object]] = []

    def __call__(self, delay, call):
        timer = Timer(call)
        self.pending.append((delay, timer))
        return timer


class Timer:
    def __init__(self, call) -> None:
        self.call = call
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


def test_a_strangers_sign_ins_cost_ten_lines_and_a_summary_a_minute():
    lines: list[str] = []
    now = [100.0]
    timers = Timers()
    budget = LogBudget(lines.append, timers, clock=lambda: now[0])
    for cid in range(500):
        budget(FAILED.format(port=40000 + cid, cid=cid))
        now[0] += 0.01
    budget("Readiness check failed")
    assert len(lines) == 10
    assert [round(delay, 6) for delay, _ in timers.pending] == [59.9], "the summary comes as the minute ends"
    (_, timer), = timers.pending
    timer.call()
    assert lines[-1] == ("nats-server: 491 more lines held back within 60 s "
                         "(490 authentication error; 1 Readiness check failed)")
    now[0] = 161.0
    budget("JetStream is fine again")
    assert lines[-1] == "nats-server: JetStream is fine again", "a new window writes again"


def test_a_line_after_the_window_writes_the_summary_first():
    lines: list[str] = []
    now = [0.0]
    budget = LogBudget(lines.append, Timers(), lines=1, window=10, clock=lambda: now[0])
    budget("one")
    budget("two")
    now[0] = 10.0
    budget("three")
    assert lines == ["nats-server: one", "nats-server: 1 more lines held back within 10 s (1 two)",
                     "nats-server: three"]


def test_what_a_line_says_leaves_out_whom_it_is_about():
    assert kind(FAILED.format(port=1, cid=2)) == "authentication error"
    assert kind("Readiness check failed") == "Readiness check failed"
