"""The server's host key file: made once and kept, and the secret every door hashes identities with.

The key is made once (ed25519, OpenSSH format, mode 0600) and reused, so returning SSH players never
see "host key changed"; the same file seeds the identities of keyless players and browsers, whichever
door is open. Read and written with ``cryptography`` (what asyncssh itself is built on), so a server
with the web door alone loads no SSH library.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.types import PrivateKeyTypes

HOST_KEY_NAME = "ssh_host_ed25519_key"


class KeyFileError(Exception):
    """A key file that cannot be used; the message names the file and says why."""


@dataclass(frozen=True)
class HostKeyFile:
    """A host key as its file holds it, and what was drawn from it."""

    path: Path
    data: bytes = field(repr=False)
    """The file's bytes, for the SSH door to serve with."""
    created: bool
    """Made by this start (a start that fails removes it again)."""
    fingerprint: str
    """``SHA256:...``, as ``ssh-keygen -l`` and OpenSSH's prompts show it."""
    secret: bytes = field(repr=False)
    """What identities and cookies are hashed with: the private key in PKCS#8 DER, the same bytes however
    the file encodes the key, so it lasts as long as the key does."""


def default_host_key_path() -> Path:
    from platformdirs import user_data_path

    return user_data_path("war-tui", appauthor=False) / HOST_KEY_NAME


def reason_of(exc: BaseException) -> str:
    """The reason as the end of our sentence: "No such file" -> "no such file", "EOF ..." stays."""
    text = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc) or type(exc).__name__
    return text[0].lower() + text[1:] if text[1:2].islower() else text


def read_or_create_key_file(path: Path) -> tuple[bytes, bool]:
    """The bytes of the host key file at ``path``, made there if there is none yet; True if made.

    Nodes of a cluster started together on one folder race to make it: the key is written whole to a file of
    this start's own and linked into place, so ``path`` never holds half a key, and a start that loses the
    race reads the winner's.
    """
    if not path.exists():
        data = Ed25519PrivateKey.generate().private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.OpenSSH, serialization.NoEncryption()
        )
        draft = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)  # 0600 from the first byte
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            try:
                os.link(draft, path)  # fails if another start linked its key first: never overwritten
            except FileExistsError:
                pass
            else:
                return data, True
        except OSError as exc:
            raise KeyFileError(f"cannot create host key {path}: {reason_of(exc)}") from None
        finally:
            with contextlib.suppress(OSError):  # none was made, or its folder cannot be written: said above
                draft.unlink()
    try:
        return path.read_bytes(), False
    except OSError as exc:
        raise KeyFileError(f"cannot read host key {path}: {reason_of(exc)}") from None


def load_or_create_host_key(path: Path) -> HostKeyFile:
    """The host key at ``path`` (made there if there is none yet), its fingerprint and the identities' secret."""
    data, created = read_or_create_key_file(path)
    return host_key_file(path, data, created)


def host_key_file(path: Path, data: bytes, created: bool) -> HostKeyFile:
    """What is drawn from a key file's ``data``: its fingerprint and the identities' secret."""
    try:
        key = _private_key(data)
    except (ValueError, TypeError, UnsupportedAlgorithm) as exc:
        raise KeyFileError(f"cannot read host key {path}: {reason_of(exc)}") from None
    public = key.public_key().public_bytes(serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH)
    digest = hashlib.sha256(base64.b64decode(public.split()[1])).digest()
    fingerprint = "SHA256:" + base64.b64encode(digest).decode().rstrip("=")
    secret = key.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    return HostKeyFile(path, data, created, fingerprint, secret)


def _private_key(data: bytes) -> PrivateKeyTypes | serialization.SSHPrivateKeyTypes:
    """The private key in an OpenSSH, PEM (PKCS#1, SEC1, PKCS#8) or DER file; no passphrase, as sshd's."""
    if b"-----BEGIN OPENSSH PRIVATE KEY-----" in data:
        return serialization.load_ssh_private_key(data, None)
    if data.lstrip().startswith(b"-----BEGIN"):
        return serialization.load_pem_private_key(data, None)
    return serialization.load_der_private_key(data, None)
