"""The installed package's version, looked up only when asked for (the metadata is slow to load)."""

from __future__ import annotations

DISTRIBUTION = "war-tui"


def version() -> str:
    """The installed package's version; from a source tree without metadata, its pyproject.toml's."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed_version

    try:
        return installed_version(DISTRIBUTION)
    except PackageNotFoundError:
        return _source_tree_version()


def _source_tree_version() -> str:
    import tomllib
    from pathlib import Path

    try:
        with (Path(__file__).resolve().parent.parent / "pyproject.toml").open("rb") as file:
            project = tomllib.load(file).get("project", {})
    except (OSError, tomllib.TOMLDecodeError):
        return "unknown"
    if project.get("name") != DISTRIBUTION or not isinstance(project.get("version"), str):
        return "unknown"
    return project["version"]
