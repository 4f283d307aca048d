"""A test that runs the app without saying so fails: .ci/run picks its passes by these markers."""

from __future__ import annotations

from pathlib import Path

pytest_plugins = ("pytester",)

CONFTEST = Path(__file__).parents[1] / "conftest.py"


def test_running_the_app_without_the_app_marker_fails_the_test(pytester):
    pytester.makeconftest(CONFTEST.read_text())
    pytester.makepyfile(
        """
        import pytest
        from textual.app import App

        async def test_unmarked():
            async with App().run_test():
                pass

        @pytest.mark.app
        async def test_marked():
            async with App().run_test():
                pass

        def test_no_app():
            pass
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-o", "asyncio_mode=auto")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["*test_unmarked*", "*this test runs the app: mark it @pytest.mark.app*"])


def test_terminal_tests_run_again_on_public_api_and_server_tests_with_games_started_afresh(pytester):
    pytester.makeconftest(CONFTEST.read_text())
    pytester.makeini('[pytest]\nmarkers =\n    terminal\n    serial\n    no_server\n    variant\n')
    body = """
        import os
        import pytest

        @pytest.mark.terminal
        def test_screen():
            print("FASTPATH", os.environ.get("WAR_TUI_FASTPATH", "on"))

        def test_server():
            print("PRELOAD", os.environ.get("WAR_TUI_TEST_PRELOAD", "1"))

        @pytest.mark.no_server
        def test_flags():
            pass

        @pytest.mark.serial
        def test_wall_clock():
            pass
        """
    pytester.makepyfile(test_serve_ssh_cases=body, test_screens=body.replace("test_server", "test_plain"))
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-v", "-s")
    result.assert_outcomes(passed=12)
    result.stdout.fnmatch_lines_random([
        "*test_screens.py::test_screen?as shipped? FASTPATH on*",
        "*test_screens.py::test_screen?public API? FASTPATH 0*",
        "*test_serve_ssh_cases.py::test_server?as shipped? PRELOAD 1*",
        "*test_serve_ssh_cases.py::test_server?no preload? PRELOAD 0*",
    ])
    variants = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--collect-only", "-q", "-m", "variant")
    assert sorted(line for line in variants.stdout.lines if "::" in line) == [
        "test_screens.py::test_screen[public API]",
        "test_serve_ssh_cases.py::test_screen[no preload]",
        "test_serve_ssh_cases.py::test_screen[public API]",
        "test_serve_ssh_cases.py::test_server[no preload]",
    ]


def test_snapshots_and_terminal_tests_are_version_sensitive_and_others_only_when_marked(pytester):
    """The oldest Textual's pass (.ci/run: `-m version_sensitive`) picks snapshots and terminal tests unasked."""
    pytester.makeconftest(CONFTEST.read_text())
    pytester.makeini(
        "[pytest]\nmarkers =\n    app\n    terminal\n    serial\n    no_server\n    variant\n    version_sensitive\n"
    )
    pytester.makepyfile(
        test_screens="""
        import pytest

        @pytest.fixture
        def snap_compare():
            pass

        def test_snapshot(snap_compare):
            pass

        @pytest.mark.terminal
        def test_output():
            pass

        @pytest.mark.version_sensitive
        def test_pilot():
            pass

        def test_decision():
            pass
        """
    )
    picked = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--collect-only", "-q", "-m", "version_sensitive and not variant"
    )
    assert sorted(line for line in picked.stdout.lines if "::" in line) == [
        "test_screens.py::test_output[as shipped]",
        "test_screens.py::test_pilot",
        "test_screens.py::test_snapshot",
    ]
