"""Every test runs with its own empty config folder: none reads or writes the real user's preferences."""

import pytest


@pytest.fixture(autouse=True)
def own_config_folder(tmp_path_factory, monkeypatch):
    folder = tmp_path_factory.mktemp("config-home")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder))  # subprocesses inherit it
    return folder
