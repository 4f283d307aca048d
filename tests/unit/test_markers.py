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
