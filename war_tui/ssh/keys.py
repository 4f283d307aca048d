"""The server's host key and the keys allowed in.

The host key is made once and kept, so returning players do not get OpenSSH's "host key changed"
alarm. The authorized-keys file is re-read when it changes, as sshd does, so adding a player needs no
restart.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import asyncssh

HOST_KEY_NAME = "ssh_host_ed25519_key"
# What asyncssh says when no line of an authorized-keys file holds a key it can use.
NO_VALID_ENTRIES = "No valid entries found"


class KeyFileError(Exception):
    """A key file that cannot be used; the message names the file and says why."""


def default_host_key_path() -> Path:
    from platformdirs import user_data_path

    return user_data_path("war-tui", appauthor=False) / HOST_KEY_NAME


def default_authorized_keys_path() -> Path:
    return Path.home() / ".ssh" / "authorized_keys"


def _reason(exc: BaseException) -> str:
    """The reason as the end of our sentence: "No such file" -> "no such file", "EOF ..." stays."""
    text = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc) or type(exc).__name__
    return text[0].lower() + text[1:] if text[1:2].islower() else text


def load_or_create_host_key(path: Path) -> tuple[asyncssh.SSHKey, bool]:
    """The host key at ``path``, made there (ed25519, mode 0600) if there is none yet; True if made."""
    if not path.exists():
        key = asyncssh.generate_private_key("ssh-ed25519", comment="war-tui host key")
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            # O_EXCL: never overwrite a key another server start wrote meanwhile; 0600 from the first byte.
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        except OSError as exc:
            raise KeyFileError(f"cannot create host key {path}: {_reason(exc)}") from None
        else:
            with os.fdopen(fd, "wb") as out:
                out.write(key.export_private_key())
            return key, True
    try:
        return asyncssh.read_private_key(path), False
    except (OSError, asyncssh.KeyImportError, ValueError) as exc:
        raise KeyFileError(f"cannot read host key {path}: {_reason(exc)}") from None


def fingerprint(key: asyncssh.SSHKey) -> str:
    return key.get_fingerprint("sha256")


@dataclass
class _Loaded:
    stamp: tuple[int, int, int]
    keys: asyncssh.SSHAuthorizedKeys


class AuthorizedKeys:
    """The public keys in an OpenSSH authorized_keys file, re-read whenever the file changes.

    Of the per-key options only ``from=`` is honoured: there is no shell, so ``command=`` and the
    forwarding options have nothing to act on (everything but the game is refused for every key).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._loaded = self._load()

    def _stamp(self) -> tuple[int, int, int]:
        st = self.path.stat()
        return st.st_mtime_ns, st.st_size, st.st_ino

    def _load(self) -> _Loaded:
        try:
            stamp = self._stamp()
            text = self.path.read_text(encoding="utf-8")
            if not any(line.strip() and not line.lstrip().startswith("#") for line in text.splitlines()):
                raise KeyFileError(f"no keys in authorized keys {self.path}: nobody could log in")
            keys = asyncssh.import_authorized_keys(text)
        except ValueError as exc:  # asyncssh's KeyImportError and UnicodeDecodeError too
            if str(exc) == NO_VALID_ENTRIES:
                raise KeyFileError(f"no valid keys in authorized keys {self.path}: nobody could log in") from None
            raise KeyFileError(f"cannot read authorized keys {self.path}: {_reason(exc)}") from None
        except OSError as exc:
            raise KeyFileError(f"cannot read authorized keys {self.path}: {_reason(exc)}") from None
        return _Loaded(stamp, keys)

    def refresh(self) -> None:
        """Re-read the file if it changed; raises KeyFileError if it no longer can be read."""
        try:
            stamp = self._stamp()
        except OSError as exc:
            raise KeyFileError(f"cannot read authorized keys {self.path}: {_reason(exc)}") from None
        if stamp != self._loaded.stamp:
            self._loaded = self._load()

    def allows(self, key: asyncssh.SSHKey, client_host: str, client_addr: str) -> bool:
        return self._loaded.keys.validate(key, client_host, client_addr) is not None
