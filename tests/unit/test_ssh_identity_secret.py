"""A keyless player's identity is the same wherever the host key is the same: after a restart, on another node."""

from __future__ import annotations

import asyncssh

from war_tui.ssh.server import ServerConfig, SshServer


def test_a_keyless_identity_is_the_same_on_every_server_started_from_one_host_key(tmp_path):
    path = tmp_path / "host_key"
    asyncssh.generate_private_key("ssh-ed25519").write_private_key(str(path))
    servers = [
        SshServer(ServerConfig(host_key=asyncssh.read_private_key(str(path)), session_argv=("true",), port=0, authorized_keys=None),
                  log=lambda line: None)
        for _ in range(2)
    ]
    first, second = (server.address_identity("127.0.0.1", "ann") for server in servers)
    assert first == second
    other = SshServer(ServerConfig(host_key=asyncssh.generate_private_key("ssh-ed25519"), session_argv=("true",), authorized_keys=None,
                                   port=0), log=lambda line: None)
    assert other.address_identity("127.0.0.1", "ann") != first
