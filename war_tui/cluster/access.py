"""What signs a server in to the NATS cluster it is given, read from files at parse time.

A token (or a user and password) from ``--nats-token-file``, a NATS credentials file (a user JWT and its NKey
seed) from ``--nats-creds``, and the TLS files of ``--nats-tls-ca``, ``--nats-tls-cert`` and
``--nats-tls-key``. Files keep secrets off the command line, which every local user reads in ``ps``. Each
file is checked before anything starts (one line, exit 2), and no message says any part of what a secret
file holds: only its path and what is wrong with it. ``Secret`` keeps a value out of every ``repr``.

The signature a credentials file's seed makes is ``cryptography``'s Ed25519, as NATS's NKeys are: nats-py's
own reader of the file needs the ``nkeys`` package, and the signature is wanted here, where the connection
checks that it goes out over TLS (``war_tui.cluster.connection``). Nothing of NATS is imported here.
"""

from __future__ import annotations

import base64
import binascii
import os
import ssl
import stat
from dataclasses import dataclass, field
from pathlib import Path

MAX_FILE = 64 * 1024
"""Bytes a token, credentials or TLS file may have: any real one fits, a wrong file (a log, a disk image) not."""
MAX_TOKEN = 1024
"""Characters of a token, or of a user and password."""


class AccessError(ValueError):
    """A file of ``--nats-*`` that cannot be used; the message names the flag and the path, never its content."""


class Secret:
    """A value that no ``repr``, ``str`` or f-string shows: only ``reveal`` hands it over."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "Secret(***)"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)


def read_private(flag: str, path: Path) -> tuple[bytes, str]:
    """A secret file's bytes and, when other users may read it, the warning to log once ("" if none)."""
    try:
        with open(path, "rb") as file:
            info = os.fstat(file.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise AccessError(f"{flag} {path}: not a file")
            data = file.read(MAX_FILE + 1)
    except OSError as exc:
        raise AccessError(f"{flag} {path}: {exc.strerror or type(exc).__name__}") from None
    if len(data) > MAX_FILE:
        raise AccessError(f"{flag} {path}: larger than {MAX_FILE // 1024} KiB, not such a file")
    mode = stat.S_IMODE(info.st_mode)
    warning = ""
    if mode & 0o077:
        warning = (f"warning: {flag} {path} may be read by other users (mode {mode:04o}): "
                   f"chmod 600 it, it holds a secret")
    return data, warning


@dataclass(frozen=True)
class TokenFile:
    """``--nats-token-file``: one line, a token or ``user:password`` (a token has no colon)."""

    path: Path
    token: Secret | None
    user: str | None
    password: Secret | None
    warning: str = ""


def _private_text(flag: str, path: Path, not_ascii: str) -> tuple[str, str]:
    """The ASCII text of the private file ``path`` and ``read_private``'s warning; ``AccessError`` saying
    ``not_ascii`` when it is not ASCII."""
    data, warning = read_private(flag, path)
    try:
        return data.decode("ascii"), warning
    except UnicodeDecodeError:
        raise AccessError(f"{flag} {path}: {not_ascii}") from None


def token_file(path: Path, flag: str = "--nats-token-file") -> TokenFile:
    text, warning = _private_text(flag, path, "not ASCII text (a token, or user:password, on one line)")
    wrong = f"{flag} {path}: "
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(lines) != 1:
        raise AccessError(wrong + "not one line (a token, or user:password)")
    line = lines[0]
    if len(line) > MAX_TOKEN or not line.isprintable() or any(c.isspace() for c in line):
        raise AccessError(wrong + f"not a token (printable, no spaces, at most {MAX_TOKEN} characters)")
    if ":" not in line:
        return TokenFile(path, Secret(line), None, None, warning)
    user, _, password = line.partition(":")
    if not user or not password:
        raise AccessError(wrong + "user:password with an empty user or password")
    return TokenFile(path, None, user, Secret(password), warning)


JWT_BLOCK = "NATS USER JWT"
SEED_BLOCK = "USER NKEY SEED"
SEED_PREFIX = 18 << 3
"""The first five bits of a decoded NKey seed (``S``)."""
USER_PREFIX = 20 << 3
"""The type bits of a user's key (``U``): a credentials file's seed is a user's."""


@dataclass(frozen=True)
class UserCredentials:
    """``--nats-creds``: the user JWT the server is shown and the seed that signs its nonce."""

    path: Path
    jwt: str = field(repr=False)
    seed: Secret = field(repr=False)
    warning: str = ""

    def sign(self, nonce: str) -> bytes:
        """The nonce signed with the seed, as the server reads a signature (URL-safe base64, no padding)."""
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        key = Ed25519PrivateKey.from_private_bytes(_seed_bytes(self.seed.reveal()))
        return base64.urlsafe_b64encode(key.sign(nonce.encode())).rstrip(b"=")


def _block(text: str, name: str) -> str | None:
    """The one line between ``-----BEGIN name-----`` and its end, as nats-py and the nats tool read it."""
    lines = text.splitlines()
    for number, line in enumerate(lines):
        if line.strip().startswith("-") and f"BEGIN {name}" in line:
            for inner in lines[number + 1:]:
                if inner.strip():
                    return None if inner.strip().startswith("-") else inner.strip()
    return None


def _seed_bytes(seed: str) -> bytes:
    """The 32 bytes of a user's NKey seed; ValueError (naming no part of it) when it is not one."""
    try:
        raw = base64.b32decode(seed + "=" * (-len(seed) % 8))
    except (binascii.Error, ValueError):
        raise ValueError("not an NKey seed") from None
    if len(raw) != 36 or raw[0] & 0xF8 != SEED_PREFIX or ((raw[0] & 7) << 5 | (raw[1] & 0xF8) >> 3) != USER_PREFIX:
        raise ValueError("not a user's NKey seed")
    if int.from_bytes(raw[-2:], "little") != crc16(raw[:-2]):
        raise ValueError("an NKey seed whose checksum is wrong")
    return raw[2:34]


def crc16(data: bytes) -> int:
    """CRC-16/XMODEM, the checksum at the end of an NKey."""
    crc = 0
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = (crc << 1) ^ 0x1021 if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def credentials_file(path: Path, flag: str = "--nats-creds") -> UserCredentials:
    text, warning = _private_text(flag, path, "not a NATS credentials file (it is not ASCII text)")
    wrong = f"{flag} {path}: "
    jwt, seed = _block(text, JWT_BLOCK), _block(text, SEED_BLOCK)
    if jwt is None or seed is None:
        missing = " and ".join(name for name, part in ((JWT_BLOCK, jwt), (SEED_BLOCK, seed)) if part is None)
        raise AccessError(wrong + f"not a NATS credentials file (no {missing} block)")
    if jwt.count(".") != 2 or not jwt.isprintable() or len(jwt) > MAX_FILE:
        raise AccessError(wrong + f"its {JWT_BLOCK} block is not a JWT")
    try:
        _seed_bytes(seed)
    except ValueError as exc:
        raise AccessError(wrong + f"its {SEED_BLOCK} block is {exc}") from None
    return UserCredentials(path, jwt, Secret(seed), warning)


@dataclass(frozen=True)
class TlsFiles:
    """``--nats-tls-ca`` (the CA the servers' certificates are checked against; the system's if None),
    ``--nats-tls-cert`` and ``--nats-tls-key`` (this server's certificate, for servers that ask for one)."""

    ca: Path | None = None
    cert: Path | None = None
    key: Path | None = None
    warning: str = ""

    def context(self) -> ssl.SSLContext:
        """A client context that checks the server's certificate and name; AccessError (one line) if a file
        is not what its flag needs."""
        try:
            context = ssl.create_default_context(cafile=str(self.ca) if self.ca is not None else None)
        except (ssl.SSLError, OSError, ValueError):
            raise AccessError(f"--nats-tls-ca {self.ca}: no CA certificate in it (PEM)") from None
        if self.cert is not None and self.key is not None:
            try:
                context.load_cert_chain(str(self.cert), str(self.key), password=_no_passphrase)
            except (ssl.SSLError, OSError, ValueError):
                raise AccessError(
                    f"--nats-tls-cert {self.cert} and --nats-tls-key {self.key}: not a certificate (PEM) and its"
                    " unencrypted private key"
                ) from None
        context.minimum_version = ssl.TLSVersion.TLSv1_2
        return context


def _no_passphrase() -> str:
    raise ValueError("an encrypted key: a server starts unattended, give it an unencrypted key (mode 0600)")


@dataclass(frozen=True)
class NatsAccess:
    """How a server signs in to the cluster of ``--nats``: at most one of a token, a user and password, or a
    credentials file (``--nats-creds``), and the TLS files for ``tls://`` URLs."""

    token: Secret | None = None
    user: str | None = None
    password: Secret | None = None
    credentials: UserCredentials | None = None
    tls: TlsFiles | None = None

    @property
    def signs_in(self) -> bool:
        return self.token is not None or self.user is not None or self.credentials is not None
