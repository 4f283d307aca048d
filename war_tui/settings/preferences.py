"""The preferences file: the names, speed, theme and house rules a player chose, kept between runs.

One TOML file whose keys are the play flags' names, checked by the flags' own parsers. A problem never
stops the game: it is named (file, line, key) and the default stands in. A file with problems is never
written; a good one changes a key at a time, the rest (comments too) kept as written.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import stat
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from platformdirs import user_config_path

from ..core.pace import MAX
from .file_values import Check
from .options import ANNOUNCE, MAX_PACE, MIN_PACE, per_run_reasons, preference_checks

APP_NAME = "war-tui"
FILE_NAME = "config.toml"
MAX_FILE_BYTES = 64 * 1024
"""A preferences file is a dozen lines: anything much larger is not one, and is not read."""


def default_path() -> Path:
    """``~/.config/war-tui/config.toml`` on Linux (``$XDG_CONFIG_HOME`` honoured), the platform's own elsewhere."""
    return user_config_path(APP_NAME) / FILE_NAME


# ------------------------------------------------------------------ the keys

KEYS: dict[str, Check] = preference_checks()
"""Every key the file may hold, each named like its flag, with the check its value must pass (the option table's)."""
NOT_KEYS: dict[str, str] = per_run_reasons()
"""The game's flags that are not keys, and why: said for a key the file has anyway."""
LINE_PACE = (MIN_PACE, MAX_PACE)
"""The line mode's seconds between auto-played battles (``war_tui.line.player``'s range, which a test holds to)."""
LINE_ANNOUNCE = ANNOUNCE
"""What the line mode says on auto-play (``--announce``'s choices)."""


def key_for(name: str) -> str:
    """``pause_on_war`` (a setting's name) is ``pause-on-war`` in the file."""
    return name.replace("_", "-")


# ------------------------------------------------------------------ reading


@dataclass(frozen=True)
class ConfigRead:
    """What a preferences file holds: its good values by key, and a message for each problem."""

    path: Path
    found: bool = False
    values: Mapping[str, object] = field(default_factory=dict)
    problems: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Parsed:
    found: bool
    text: str = ""
    document: Mapping[str, Any] = field(default_factory=dict)
    values: Mapping[str, object] = field(default_factory=dict)
    problems: tuple[str, ...] = ()


def read_config(path: Path, *, themes: Collection[str] | None = None) -> ConfigRead:
    """The file's preferences; a missing file is no problem (``found`` says which). ``themes``: the names a theme may take."""
    parsed = _parse(path, themes)
    return ConfigRead(path, parsed.found, parsed.values, parsed.problems)


_TOML_WHERE = re.compile(r"\s*\(at (?:line (\d+), column (\d+)|end of document)\)\s*$")


def _parse(path: Path, themes: Collection[str] | None) -> _Parsed:  # noqa: C901 - one check per kind of line the preferences file may hold
    import tomllib  # here: ``war-tui game`` imports this module but never reads the file

    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            return _Parsed(True, problems=(f"{path}: not a regular file, so not read; every preference has its default",))
        if info.st_size > MAX_FILE_BYTES:
            return _Parsed(True, problems=(
                f"{path}: larger than {MAX_FILE_BYTES // 1024} KiB, so not read; every preference has its default",
            ))
        with path.open("rb") as file:
            data = file.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        return _Parsed(False)
    except OSError as exc:
        return _Parsed(True, problems=(f"{path}: cannot be read ({exc.strerror or exc}); every preference has its default",))
    if len(data) > MAX_FILE_BYTES:  # it grew between the look and the read
        return _Parsed(True, problems=(
            f"{path}: larger than {MAX_FILE_BYTES // 1024} KiB, so not read; every preference has its default",
        ))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return _Parsed(True, problems=(f"{path}, line {line}: not UTF-8 text; every preference has its default",))
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        where = _TOML_WHERE.search(message)
        reason = message[: where.start()] if where else message
        if where and where[1]:
            place = f", line {where[1]}, column {where[2]}"
        elif where:  # an unclosed bracket or string runs to the end
            place, reason = f", line {text.count(chr(10)) + 1}", f"{reason} at the end of the file"
        else:
            place = ""
        return _Parsed(True, text, problems=(
            f"{path}{place}: not valid TOML ({reason[:1].lower() + reason[1:]}); every preference has its default",
        ))
    values: dict[str, object] = {}
    problems: list[str] = []
    for key, value in document.items():
        at = _where(path, text, key)
        check = KEYS.get(key)
        if key in NOT_KEYS:
            problems.append(f"{at}: '{key}' is a flag, not a preference: {NOT_KEYS[key]}")
            continue
        if check is None:
            import difflib

            close = difflib.get_close_matches(key, KEYS, n=1)
            hint = f"did you mean '{close[0]}'?" if close else "the keys are " + ", ".join(KEYS)
            problems.append(f"{at}: unknown key '{key}' ({hint})")
            continue
        try:
            values[key] = check(value, themes)
        except (ValueError, argparse.ArgumentTypeError) as exc:
            problems.append(f"{at}: {_about(key, str(exc))}; the default is used")
    return _Parsed(True, text, document, values, tuple(problems))


def _about(key: str, reason: str) -> str:
    """A flag's message about its value ("--war-cards must be ..."), said of the file's key."""
    reason = reason.removeprefix("--")
    if reason.startswith(key):
        return reason
    if reason.startswith("must "):
        return f"{key} {reason}"
    return f"{key}: {reason}"


def _where(path: Path, text: str, key: str) -> str:
    """``path, line N`` for the line that sets ``key`` at the top level (or opens its table)."""
    name = "|".join(re.escape(form) for form in (key, f'"{key}"', f"'{key}'"))
    found = re.search(rf"^[ \t]*(?:\[\[?[ \t]*)?(?:{name})[ \t]*[=.\]]", text, re.M)
    if found is None:
        return str(path)
    return f"{path}, line {text.count(chr(10), 0, found.start()) + 1}"


# ------------------------------------------------------------------ writing


def _stored(name: str, value: object) -> object:
    """A setting's value as the file holds it: speed as a number or "max"."""
    if name == "speed" and isinstance(value, float):
        if value == MAX:
            return "max"
        return int(value) if value.is_integer() else value
    return value


def write_preferences(path: Path, changes: Mapping[str, object], *, themes: Collection[str] | None = None) -> str | None:
    """Set some keys in the file (made if missing), keeping everything else; a message instead if it has problems.

    Raises OSError when the file cannot be written.
    """
    parsed = _parse(path, themes)
    if parsed.problems:
        return f"{parsed.problems[0]} (preferences are not saved to a file with problems: see war-tui config --check)"
    text = parsed.text
    document = dict(parsed.document)
    for key, value in changes.items():
        text = _with_value(text, key, value)
        document[key] = value
    if not _holds(text, document):
        import tomli_w  # a layout line edits cannot follow: the whole file, rewritten

        text = tomli_w.dumps(document)
    _replace(path, text)
    return None


def _with_value(text: str, key: str, value: object) -> str:
    """``text`` with ``key``'s line set to ``value`` (its comment kept), or the line added at the end."""
    import tomli_w  # only when something is saved: reading needs only tomllib

    line_text = tomli_w.dumps({key: value}).rstrip("\n")
    name = "|".join(re.escape(form) for form in (key, f'"{key}"', f"'{key}'"))
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if re.match(rf"[ \t]*(?:{name})[ \t]*=", line):
            body = line.rstrip("\r\n")
            lines[i] = line_text + _comment(body) + line[len(body):]
            return "".join(lines)
    if text and not text.endswith("\n"):
        text += "\n"
    return text + line_text + "\n"


def _comment(line: str) -> str:
    """The comment closing a ``key = value`` line, with the spaces before it; "" if none."""
    import tomllib

    for found in re.finditer("#", line):
        try:
            tomllib.loads(line[: found.start()])
        except tomllib.TOMLDecodeError:
            continue  # that '#' is inside the value
        value_end = len(line[: found.start()].rstrip())
        return line[value_end:]
    return ""


def _holds(text: str, document: Mapping[str, Any]) -> bool:
    import tomllib

    try:
        return tomllib.loads(text) == document
    except tomllib.TOMLDecodeError:
        return False


def _replace(path: Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path``, then put it in place in one step.

    A symbolic link (a dotfiles folder) stays a link: the file it points to is the one replaced.
    """
    import tempfile

    target = Path(os.path.realpath(path))
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        with contextlib.suppress(FileNotFoundError):
            os.chmod(temporary, stat.S_IMODE(target.stat().st_mode))
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


class Preferences:
    """Where the game saves what a player changes while playing (the theme, the speed), when it changes.

    Built from the values the session started with: setting one back to what it
    already is writes nothing. A change that cannot be saved is said once a session.
    """

    def __init__(
        self, path: Path, start: Mapping[str, object], *, themes: Collection[str] | None = None
    ) -> None:
        self.path = path
        self._last = dict(start)
        self._themes = themes
        self._told = False

    def save(self, **changes: object) -> str | None:
        """Write the values that changed; a message, the first time only, when they cannot be written."""
        changed = {name: value for name, value in changes.items() if self._last.get(name) != value}
        if not changed:
            return None
        self._last.update(changed)
        stored = {key_for(name): _stored(name, value) for name, value in changed.items()}
        try:
            problem = write_preferences(self.path, stored, themes=self._themes)
        except OSError as exc:
            problem = f"{self.path}: preferences cannot be saved ({exc.strerror or exc})"
        if problem is None or self._told:
            return None
        self._told = True
        return problem
