"""war-tui: the card game War, in the terminal."""

from __future__ import annotations

DISTRIBUTION = "war-tui"


def run() -> int:
    """The ``war-tui`` command. A Ctrl-C while the program is still loading ends it quietly (exit 130)."""
    try:
        from .cli import main
    except KeyboardInterrupt:
        return 130
    return main()


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


def __getattr__(name: str) -> str:
    """``war_tui.__version__``, computed when first read, not on every start."""
    if name == "__version__":
        return version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
