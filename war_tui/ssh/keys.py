"""The host key as the SSH door serves with it, and the keys allowed in.

The host key file is made once and kept (``serving.host_key``), so returning players do not get
OpenSSH's "host key changed" alarm. The authorized-keys file is re-read when it changes, as sshd does: adding a player needs no
restart, and removing one (or emptying or deleting the file) takes effect at the next connection.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import asyncssh

from ..serving.host_key import KeyFileError, read_or_create_key_file, reason_of

# asyncssh's error when no line of an authorized-keys file holds a usable key.
NO_VALID_ENTRIES = "No valid entries found"


def default_authorized_keys_path() -> Path:
    return Path.home() / ".ssh" / "authorized_keys"


def load_or_create_host_key(path: Path) -> tuple[asyncssh.SSHKey, bool]:
    """The host key at ``path`` as the SSH door serves with it, made there if there is none yet; True if made.

    Read by asyncssh, so the door takes every key type asyncssh does; the file is ``host_key``'s.
    """
    data, created = read_or_create_key_file(path)
    try:
        return asyncssh.import_private_key(data), created
    except (asyncssh.KeyImportError, ValueError) as exc:
        raise KeyFileError(f"cannot read host key {path}: {reason_of(exc)}") from None


def host_secret(key: asyncssh.SSHKey) -> bytes:
    """The identities' secret drawn from ``key``: the same bytes ``host_key`` draws from its file (PKCS#8 DER)."""
    return key.export_private_key("pkcs8-der")


def fingerprint(key: asyncssh.SSHKey) -> str:
    return key.get_fingerprint("sha256")


REFUSED_OPTIONS = ("command", "no-pty", "restrict")
"""Options that say a key was meant for something else than an interactive game: such keys are refused."""
NO_DSA = "DSA keys are not accepted (too weak)"
# Signature algorithms that hash with SHA-1: refused, as OpenSSH does by default.
SHA1_SIGNATURES = frozenset({b"ssh-rsa", b"ssh-dss", b"x509v3-ssh-rsa", b"x509v3-ssh-dss"})


def key_options(line: str) -> dict[str, str | None]:
    """The options before the key on an authorized_keys line, names lowercased; empty if none.

    The same quoting rules as OpenSSH (double quotes, backslash escapes); asyncssh checks the key and
    ``from=`` itself, this only finds the options it does not act on.
    """
    options: dict[str, str | None] = {}
    if line.split(None, 1)[0] in KEY_TYPES:
        return options
    current, quoted, escaped = "", False, False
    for ch in line:
        if escaped:
            current, escaped = current + ch, False
        elif ch == "\\":
            escaped = True
        elif ch == '"':
            quoted = not quoted
        elif quoted:
            current += ch
        elif ch in " \t":
            break
        elif ch == ",":
            _add_option(options, current)
            current = ""
        else:
            current += ch
    _add_option(options, current)
    return options


def _add_option(options: dict[str, str | None], text: str) -> None:
    name, sep, value = text.partition("=")
    options[name.strip().lower()] = value if sep else None


KEY_TYPES = frozenset({
    "ssh-ed25519", "ssh-ed448", "ssh-rsa", "ssh-dss", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384",
    "ecdsa-sha2-nistp521", "sk-ssh-ed25519@openssh.com", "sk-ecdsa-sha2-nistp256@openssh.com",
})


def parse_expiry(value: str) -> datetime:
    """OpenSSH's ``expiry-time``: YYYYMMDD[HHMM[SS]], local time unless it ends in Z (UTC)."""
    utc = value.endswith(("Z", "z"))
    digits = value[:-1] if utc else value
    formats = {8: "%Y%m%d", 12: "%Y%m%d%H%M", 14: "%Y%m%d%H%M%S"}
    if not digits.isdigit() or len(digits) not in formats:
        raise ValueError(f"expiry-time '{value}' is not YYYYMMDD[HHMM[SS]][Z]")
    moment = datetime.strptime(digits, formats[len(digits)])
    return moment.replace(tzinfo=UTC) if utc else moment.astimezone()


@dataclass(frozen=True)
class KeyEntry:
    """One usable line: asyncssh checks the key and ``from=``; the rest is ours."""

    line: int
    keys: asyncssh.SSHAuthorizedKeys
    refused_options: tuple[str, ...]
    expires: datetime | None


@dataclass(frozen=True)
class Verdict:
    """What the file says about a key: allowed, or why not (None: the key is not listed for this address)."""

    allowed: bool
    refusal: str | None = None


@dataclass
class _State:
    stamp: tuple[int, int, int] | None
    entries: list[KeyEntry] = field(default_factory=list)
    problem: str | None = None  # why nobody can log in


class AuthorizedKeys:
    """The public keys in an OpenSSH authorized_keys file, re-read whenever the file changes.

    The file as it is now is the truth: empty, comment-only, missing or unreadable means nobody gets in.
    Honoured options: ``from=`` and ``expiry-time=``. A key with ``command=``, ``no-pty`` or ``restrict``
    is refused: it was set up for something else than an interactive game. Everything but the game is
    refused for every key anyway, so the forwarding options have nothing to act on.
    """

    def __init__(self, path: Path, clock=None) -> None:
        self.path = path
        self._now = clock or (lambda: datetime.now().astimezone())
        self._pending: list[str] = []
        self._state = self._load()
        if self._state.problem is not None:
            raise KeyFileError(self._state.problem)

    def _stamp(self) -> tuple[int, int, int]:
        st = self.path.stat()
        return st.st_mtime_ns, st.st_size, st.st_ino

    def _load(self) -> _State:
        """Read the file; warnings for skipped lines go to ``take_warnings``."""
        try:
            stamp = self._stamp()
            text = self.path.read_text(encoding="utf-8")
        except (OSError, ValueError) as exc:
            return _State(None, problem=f"cannot read authorized keys {self.path}: {reason_of(exc)}")
        entries: list[KeyEntry] = []
        skipped: list[str] = []
        for number, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            try:
                entries.append(self._entry(number, line))
            except ValueError as exc:  # asyncssh's KeyImportError too
                reason = "not a public key" if str(exc) == NO_VALID_ENTRIES else reason_of(exc)
                skipped.append(f"line {number}: {reason}")
        for reason in skipped:
            self._pending.append(f"authorized keys {self.path}, {reason}: line skipped")
        for entry in entries:
            if entry.refused_options:
                shown = ", ".join(entry.refused_options)
                self._pending.append(
                    f"authorized keys {self.path}, line {entry.line}: a key with {shown} is refused "
                    "(it was not meant for an interactive game)"
                )
        if not entries:
            if not skipped:
                return _State(stamp, problem=f"no keys in authorized keys {self.path}: nobody could log in")
            return _State(
                stamp, problem=f"no valid keys in authorized keys {self.path}: nobody could log in ({skipped[0]})"
            )
        return _State(stamp, entries)

    def _entry(self, number: int, line: str) -> KeyEntry:
        options = key_options(line)
        if "ssh-dss" in line.split():
            raise ValueError(NO_DSA)
        expires = None
        if options.get("expiry-time"):
            expires = parse_expiry(options["expiry-time"] or "")
        keys = asyncssh.import_authorized_keys(line)
        refused = tuple(f"{name}=" if options[name] is not None else name for name in REFUSED_OPTIONS if name in options)
        return KeyEntry(number, keys, refused, expires)

    def take_warnings(self) -> list[str]:
        """Lines for the server log about the last reading of the file (skipped or refused lines)."""
        pending, self._pending = self._pending, []
        return pending

    def refresh(self) -> list[str]:
        """Re-read the file if it changed; returns what to log about the change (loud when nobody can log in)."""
        try:
            stamp: tuple[int, int, int] | None = self._stamp()
        except OSError:
            stamp = None
        state = self._state
        if stamp is not None and stamp == state.stamp:
            return []
        if stamp is None and state.stamp is None:
            return []  # still missing or unreadable: said once already
        self._state = self._load()
        lines = self.take_warnings()
        if self._state.problem is not None:
            lines.append(f"WARNING: {self._state.problem} until the file holds a key again")
        elif state.problem is not None:
            lines.append(f"authorized keys {self.path} holds keys again: players can log in")
        return lines

    @property
    def problem(self) -> str | None:
        return self._state.problem

    def check(self, key: asyncssh.SSHKey, client_host: str, client_addr: str) -> Verdict:
        """Whether ``key`` may log in from this address, or the option that refuses it."""
        if key.algorithm == b"ssh-dss":
            return Verdict(False, "DSA key")
        now = None
        refusal = None
        for entry in self._state.entries:
            if entry.keys.validate(key, client_host, client_addr) is None:
                continue
            if entry.refused_options:
                refusal = refusal or f"key with {', '.join(entry.refused_options)}"
                continue
            if entry.expires is not None:
                now = now or self._now()
                if entry.expires <= now:
                    refusal = refusal or "expired key"
                    continue
            return Verdict(True)
        return Verdict(False, refusal)

    def allows(self, key: asyncssh.SSHKey, client_host: str, client_addr: str) -> bool:
        return self.check(key, client_host, client_addr).allowed


def without_sha1(key: asyncssh.SSHKey) -> asyncssh.SSHKey:
    """The key as asyncssh verifies its signature, but refusing SHA-1 ones (``ssh-rsa``).

    asyncssh verifies whatever algorithm a client's signature names; its public ``all_sig_algorithms``
    is what it accepts, so this key object gets a set of its own without SHA-1.
    """
    key.all_sig_algorithms = set(key.all_sig_algorithms) - SHA1_SIGNATURES
    return key
