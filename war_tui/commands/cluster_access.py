"""The values of the servers' NATS flags, and what they mean together: ``--nats`` URLs, the credentials and
TLS files beside them, checked before anything starts (one line, exit 2; no message says any part of a
secret). The files themselves are read by ``war_tui.cluster.access``."""

from __future__ import annotations

import argparse
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from ..cluster.access import (
    AccessError,
    NatsAccess,
    TlsFiles,
    TokenFile,
    UserCredentials,
    credentials_file,
    read_private,
    token_file,
)
from ..cluster.config import ClusterConfig
from .common import UsageError

T = TypeVar("T")


def _file_flag(flag: str, read: Callable[[Path], T]) -> Callable[[str], T]:
    """An argparse type reading a file of ``flag``; its error names the flag and the path, never the content
    (argparse's own message for a ValueError would repeat the value)."""

    def parse(text: str) -> T:
        if not text.strip():
            raise argparse.ArgumentTypeError(f"{flag} needs a file's path")
        try:
            return read(Path(text).expanduser())
        except AccessError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return parse


def _readable(flag: str) -> Callable[[Path], tuple[Path, str]]:
    def read(path: Path) -> tuple[Path, str]:
        return path, read_private(flag, path)[1]

    return read


token_file_value: Callable[[str], TokenFile] = _file_flag("--nats-token-file", token_file)
creds_value: Callable[[str], UserCredentials] = _file_flag("--nats-creds", credentials_file)
tls_ca_value = _file_flag("--nats-tls-ca", _readable("--nats-tls-ca"))
tls_cert_value = _file_flag("--nats-tls-cert", _readable("--nats-tls-cert"))
tls_key_value = _file_flag("--nats-tls-key", _readable("--nats-tls-key"))

TLS_FLAGS = ("nats_tls_ca", "nats_tls_cert", "nats_tls_key")
SIGN_IN_FLAGS = ("nats_token_file", "nats_creds")


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def cluster_config(args: argparse.Namespace) -> tuple[ClusterConfig, list[str]]:
    """The cluster the flags name, and the warnings to log once (a secret file other users may read)."""
    urls = tuple(args.nats or ())
    given = [name for name in (*SIGN_IN_FLAGS, *TLS_FLAGS) if getattr(args, name) is not None]
    if not urls:
        if given:
            raise UsageError(f"{_flag(given[0])} is for a cluster given with --nats (the embedded nats-server"
                             " makes a token of its own)")
        return ClusterConfig(lease_seconds=args.node_lease), []
    parts = [urllib.parse.urlsplit(url) for url in urls]
    if len({part.scheme for part in parts}) > 1:
        raise UsageError("--nats: give every server as tls:// or every one as nats://, not both")
    secure = parts[0].scheme == "tls"
    in_urls = any(part.username is not None or part.password is not None for part in parts)
    carried = {(part.username, part.password) for part in parts if part.username is not None or part.password is not None}
    if len(carried) > 1:
        raise UsageError("--nats: the URLs carry different credentials; a cluster has one set: give it once,"
                         " in --nats-token-file")
    sign_in = [name for name in SIGN_IN_FLAGS if getattr(args, name) is not None]
    if in_urls and sign_in:
        raise UsageError(f"--nats: credentials in a URL and in {_flag(sign_in[0])}: give them once, in the file")
    tls_given = [name for name in TLS_FLAGS if getattr(args, name) is not None]
    if tls_given and not secure:
        raise UsageError(f"{_flag(tls_given[0])} is for tls:// URLs; these are nats://")
    if (args.nats_tls_cert is None) != (args.nats_tls_key is None):
        raise UsageError("--nats-tls-cert and --nats-tls-key go together: the certificate and its key")
    warnings: list[str] = []
    for name in (*SIGN_IN_FLAGS, "nats_tls_key"):
        value = getattr(args, name)
        warning = value[1] if isinstance(value, tuple) else getattr(value, "warning", "")
        if warning:
            warnings.append(warning)
    tls = None
    if secure:
        ca, cert, key = (None if getattr(args, name) is None else getattr(args, name)[0] for name in TLS_FLAGS)
        tls = TlsFiles(ca=ca, cert=cert, key=key)
        try:
            tls.context()  # a file that is not what its flag needs stops the start, not the first connection
        except AccessError as exc:
            raise UsageError(str(exc)) from None
    token: TokenFile | None = args.nats_token_file
    access = NatsAccess(
        token=token.token if token is not None else None,
        user=token.user if token is not None else None,
        password=token.password if token is not None else None,
        credentials=args.nats_creds, tls=tls,
    )
    return ClusterConfig(urls=urls, lease_seconds=args.node_lease, access=access), warnings
