"""What a server signs in to NATS with stays out of every repr, log line and message."""

from __future__ import annotations

import base64

from support.nkeys import Accounts

from war_tui.cluster.access import NatsAccess, Secret, credentials_file, token_file
from war_tui.cluster.config import ClusterConfig

TOKEN = "s3cret-token"


def test_a_config_holding_secrets_shows_none_of_them(tmp_path):
    path = tmp_path / "token"
    path.write_text(f"ann:{TOKEN}\n")
    read = token_file(path)
    assert (read.token, read.user, read.password) == (None, "ann", Secret(TOKEN))
    accounts = Accounts()
    creds = credentials_file(accounts.creds(tmp_path / "node.creds"))
    config = ClusterConfig(urls=("nats://h:1",), access=NatsAccess(user=read.user, password=read.password,
                                                                    credentials=creds))
    shown = repr(config) + str(config)
    assert TOKEN not in shown and accounts.user.seed not in shown and accounts.user_jwt not in shown


def test_a_credentials_file_signs_the_nonce_with_its_users_key(tmp_path):
    accounts = Accounts()
    creds = credentials_file(accounts.creds(tmp_path / "node.creds"))
    signature = creds.sign("a-nonce")
    accounts.user.key.public_key().verify(base64.urlsafe_b64decode(signature + b"=" * (-len(signature) % 4)),
                                          b"a-nonce")
    assert creds.jwt == accounts.user_jwt
