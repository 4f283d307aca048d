"""Shared by every test: the user's own folders stay out of reach, and a test that runs the app says so."""

from __future__ import annotations

import functools
import os
import subprocess

import pytest
import pytest_asyncio
from hypothesis import HealthCheck, settings

# No deadline: on a loaded machine an example is slow, not wrong.
settings.register_profile(
    "war-tui", settings.get_profile("default"), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
# CI=true: the same examples every run, none replayed, a failure's blob printed; else at random.
settings.register_profile(
    "ci", settings.get_profile("war-tui"), derandomize=True, database=None, print_blob=True
)
IN_CI = os.environ.get("CI", "").lower() not in ("", "0", "false", "no")
settings.load_profile("ci" if IN_CI else "war-tui")


@pytest.fixture(autouse=True)
def private_home(tmp_path_factory, monkeypatch):
    """HOME and the XDG folders point into pytest's tmp for each test and every process it starts,
    so no test reads the user's config or writes into their ~/.local/share/war-tui."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    for name, folder in (
        ("XDG_DATA_HOME", ".local/share"),
        ("XDG_CONFIG_HOME", ".config"),
        ("XDG_STATE_HOME", ".local/state"),
        ("XDG_CACHE_HOME", ".cache"),
    ):
        monkeypatch.setenv(name, str(home / folder))
    return home


@pytest.fixture
def own_config_folder(private_home):
    """The test's own XDG_CONFIG_HOME (empty until a test writes there)."""
    folder = private_home / ".config"
    folder.mkdir(exist_ok=True)
    return folder


# ------------------------------------------------------------------ what a test runs, and its markers

# .ci/run picks tests by marker: running the app unmarked `app` (or `terminal`) fails the test.
RUNS = pytest.StashKey[set]()
NO_SERVER_VARIABLE = "WAR_TUI_TEST_NO_SERVER"  # read by tests/functional/ssh_support
PRELOAD_VARIABLE = "WAR_TUI_TEST_PRELOAD"  # read by tests/functional/ssh_support


@functools.cache
def _commands() -> frozenset[str]:
    """war-tui's commands that are not the game, as its parser names them."""
    from war_tui.cli import build_parser

    return frozenset(build_parser().commands)


def _is_the_game(argv) -> bool:
    """``python -m war_tui`` with no command (the full-screen game; a launcher may come first), or
    serve-ssh's start-up code for it."""
    words = [str(word) for word in argv] if not isinstance(argv, (str, bytes)) else str(argv).split()
    if "-m" in words[:-1] and words[words.index("-m") + 1] == "war_tui":
        return not _commands() & set(words[words.index("-m") + 2:])
    if "-c" in words[:-1]:
        return "war_tui" in words[words.index("-c") + 1] and not _commands() & set(words)
    return False


def _a_tty(stream) -> bool:
    return isinstance(stream, int) and stream >= 0 and os.isatty(stream)


TOAST_STAYS = 24 * 3600.0
"""A day: longer than any test, shorter than what Textual's timers take (not infinity)."""


@pytest.fixture
def toasts_stay(monkeypatch):
    """A toast stays on the screen until the app replaces or takes it back (a timeout of 0), however long the
    machine takes between raising it and the test reading it: Textual counts a toast's seconds on the wall clock,
    so on a loaded machine a 5-second toast can be gone before the screenshot an idle machine takes at once."""
    from textual.notifications import Notification

    monkeypatch.setattr(Notification, "time_left", property(lambda self: TOAST_STAYS if self.timeout > 0 else 0.0))


@pytest.fixture(autouse=True)
def snapshots_keep_toasts(request):
    """A snapshot shows the toasts raised before it, as an idle machine takes it (see ``toasts_stay``)."""
    if "snap_compare" in request.fixturenames:
        request.getfixturevalue("toasts_stay")


@pytest.fixture(autouse=True)
def what_the_test_runs(request, monkeypatch):
    """Notes what the test starts: the app (under run_test, run or a snapshot) or the game on a pty."""
    from textual.app import App

    from war_tui.serving.pty_process import PtyProcess

    runs: set[str] = request.node.stash.setdefault(RUNS, set())
    if "snap_compare" in request.fixturenames:
        runs.add("app")
    run_test, run_async, popen, pty_start = App.run_test, App.run_async, subprocess.Popen.__init__, PtyProcess.start

    def noted_run_test(self, *args, **kwargs):
        runs.add("app")
        return run_test(self, *args, **kwargs)

    def noted_run_async(self, *args, **kwargs):
        runs.add("app")
        return run_async(self, *args, **kwargs)

    def noted_popen(self, args, *more, **kwargs):
        if _is_the_game(args) and _a_tty(kwargs.get("stdout")):
            runs.update(("app", "terminal"))
        popen(self, args, *more, **kwargs)

    async def noted_pty_start(argv, *more, **kwargs):
        if _is_the_game(argv):
            runs.add("app")
        return await pty_start(argv, *more, **kwargs)

    monkeypatch.setattr(App, "run_test", noted_run_test)
    monkeypatch.setattr(App, "run_async", noted_run_async)
    monkeypatch.setattr(subprocess.Popen, "__init__", noted_popen)
    monkeypatch.setattr(PtyProcess, "start", staticmethod(noted_pty_start))
    return runs


@pytest.fixture(autouse=True)
def no_server_marked(request, monkeypatch):
    """A test marked ``no_server`` says so to ssh_support, whose servers then refuse to start (see pyproject)."""
    if request.node.get_closest_marker("no_server"):
        monkeypatch.setenv(NO_SERVER_VARIABLE, "1")


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(items):
    """A snapshot and a `terminal` test can differ between Textual versions: the oldest Textual's pass runs them."""
    for item in items:
        if "snap_compare" in getattr(item, "fixturenames", ()) or item.get_closest_marker("terminal"):
            item.add_marker(pytest.mark.version_sensitive)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    result = yield
    missing = sorted(item.stash.get(RUNS, set()) - {mark.name for mark in item.iter_markers()})
    if missing:
        pytest.fail(
            f"this test runs {'the game on a terminal' if 'terminal' in missing else 'the app'}: mark it "
            + " and ".join(f"@pytest.mark.{name}" for name in missing)
            + " (pyproject.toml says what each marker is for; .ci/run picks its passes by them)",
            pytrace=False,
        )
    return result


# ------------------------------------------------------------------ the variants of a test

# `terminal` tests run again with the fast path off, server tests with --no-preload: marked `variant`.
AS_SHIPPED, PUBLIC_API, NO_PRELOAD = "as shipped", "public API", "no preload"


def _variants(definition, module_name: str) -> list[str]:
    marks = {mark.name for mark in definition.iter_markers()}
    variants = []
    if "terminal" in marks:
        variants.append(PUBLIC_API)
    serve_ssh = module_name.startswith("test_serve_ssh_") and module_name != "test_serve_ssh_preload"
    if serve_ssh and not marks & {"serial", "long_wait", "no_server"}:
        variants.append(NO_PRELOAD)
    return variants


def pytest_generate_tests(metafunc):
    variants = _variants(metafunc.definition, metafunc.module.__name__.rpartition(".")[2])
    if variants:
        metafunc.parametrize(
            "variant",
            [AS_SHIPPED, *(pytest.param(name, marks=pytest.mark.variant) for name in variants)],
            indirect=True,
        )


@pytest.fixture(autouse=True)
def variant(request, monkeypatch) -> str:
    """The setting this run of the test is in (see ``pytest_generate_tests``)."""
    from war_tui.ui.fastpath import ENV as FASTPATH_VARIABLE

    name = getattr(request, "param", AS_SHIPPED)
    if name == PUBLIC_API:
        monkeypatch.setenv(FASTPATH_VARIABLE, "0")
    elif name == NO_PRELOAD:
        monkeypatch.setenv(PRELOAD_VARIABLE, "0")
    return name


# ------------------------------------------------------------------ NATS


@pytest_asyncio.fixture
async def nats_server(tmp_path):
    """A real nats-server from the pinned wheel, on 127.0.0.1, its store in tmp_path. After the test every
    connection made by its ``client()`` is closed, then the server is ended by its pid."""
    from support.nats import NatsServer

    server = NatsServer(tmp_path / "nats").start()
    try:
        yield server
    finally:
        await server.close_clients()
        server.kill()


@pytest_asyncio.fixture
async def nats_cluster(tmp_path):
    """Three nats-servers routed to one another (JetStream on each, its own store in tmp_path), 127.0.0.1 only,
    ready once JetStream has a leader. After the test every connection made by a ``client()`` of theirs is
    closed, then each server is ended by its pid."""
    from support.nats import NatsCluster

    cluster = NatsCluster(tmp_path / "nats-cluster")
    try:
        await cluster.start().ready()
        yield cluster
    finally:
        await cluster.close_clients()
        cluster.kill()


# ------------------------------------------------------------------ the browser


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def chromium():
    """Debian's chromium through Playwright, started once for the tests of a module a worker runs (their
    ``asyncio`` loop is the module's): a test's pages live in its own contexts, which share no cookies, storage
    or cache. The modules that ask for it skip themselves where Playwright or chromium is missing."""
    from playwright.async_api import async_playwright
    from web_support import CHROMIUM, CHROMIUM_ARGS

    async with async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            await browser.close()
