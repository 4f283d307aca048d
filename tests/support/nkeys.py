"""NATS's decentralised accounts for a test, made with cryptography: an operator, an account with JetStream,
and a user whose credentials file ``--nats-creds`` reads (NKeys are Ed25519 keys, base32 with a CRC-16)."""

from __future__ import annotations

import base64
import hashlib
import json
import time
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from war_tui.cluster.access import crc16

SEED = 18 << 3
OPERATOR, ACCOUNT, USER = 14 << 3, 0, 20 << 3


def _b32(raw: bytes) -> str:
    return base64.b32encode(raw + crc16(raw).to_bytes(2, "little")).decode().rstrip("=")


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


class NKey:
    def __init__(self, prefix: int) -> None:
        self.prefix = prefix
        self.key = Ed25519PrivateKey.generate()
        raw = self.key.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                     serialization.NoEncryption())
        self.seed = _b32(bytes([SEED | prefix >> 5, (prefix & 31) << 3]) + raw)
        public = self.key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        self.public = _b32(bytes([prefix]) + public)

    def jwt(self, subject: str, name: str, nats: dict) -> str:
        """A JWT this key issues about ``subject``."""
        header = _b64(json.dumps({"typ": "JWT", "alg": "ed25519-nkey"}).encode())
        claims = {"iat": int(time.time()), "iss": self.public, "name": name, "sub": subject, "nats": nats, "jti": ""}
        claims["jti"] = base64.b32encode(hashlib.sha256(json.dumps(claims).encode()).digest()).decode().rstrip("=")
        body = _b64(json.dumps(claims).encode())
        return f"{header}.{body}.{_b64(self.key.sign(f'{header}.{body}'.encode()))}"


UNLIMITED = {"subs": -1, "data": -1, "payload": -1, "imports": -1, "exports": -1, "wildcards": True, "conn": -1,
             "leaf": -1, "mem_storage": -1, "disk_storage": -1, "streams": -1, "consumer": -1}


class Accounts:
    """An operator, one account with JetStream, one user: ``config`` for nats-server, ``creds`` for war-tui."""

    def __init__(self) -> None:
        self.operator, self.account, self.user = NKey(OPERATOR), NKey(ACCOUNT), NKey(USER)
        self.system = NKey(ACCOUNT)
        self.system_jwt = self.operator.jwt(self.system.public, "SYS", {"type": "account", "version": 2})
        self.operator_jwt = self.operator.jwt(self.operator.public, "test operator",
                                              {"type": "operator", "version": 2})
        self.account_jwt = self.operator.jwt(self.account.public, "war-tui",
                                             {"type": "account", "version": 2, "limits": UNLIMITED})
        self.user_jwt = self.account.jwt(self.user.public, "war-tui node",
                                         {"type": "user", "version": 2, "pub": {}, "sub": {},
                                          "subs": -1, "data": -1, "payload": -1})

    def config(self) -> str:
        return (
            f"operator: {json.dumps(self.operator_jwt)}\n"
            f"system_account: {self.system.public}\n"
            "resolver: MEMORY\n"
            f"resolver_preload: {{ {self.account.public}: {json.dumps(self.account_jwt)},"
            f" {self.system.public}: {json.dumps(self.system_jwt)} }}\n"
        )

    def creds(self, path: Path) -> Path:
        path.write_text(
            "-----BEGIN NATS USER JWT-----\n" f"{self.user_jwt}\n" "------END NATS USER JWT------\n\n"
            "************************* IMPORTANT *************************\n"
            "NKEY Seed printed below can be used to sign and prove identity.\n\n"
            "-----BEGIN USER NKEY SEED-----\n" f"{self.user.seed}\n" "------END USER NKEY SEED------\n",
            encoding="ascii",
        )
        path.chmod(0o600)
        return path
