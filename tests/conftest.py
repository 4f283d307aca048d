"""Shared by every test: the user's own folders stay out of reach."""

from __future__ import annotations

import pytest


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
