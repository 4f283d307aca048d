"""The host key file both doors draw on: the web door alone makes and reads it without the SSH library,
and the identities' secret drawn from it is the same whichever door draws it."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import asyncssh
import pytest

from war_tui.cli import build_parser
from war_tui.commands.serve_ssh import prepare_server
from war_tui.serving import host_key
from war_tui.ssh import keys
from war_tui.web.identity import Identities

TIMEOUT = 60.0


def served(*argv: str) -> list[str]:
    """The start-up lines of ``war-tui ARGV`` (with Python's import times), up to its first "listening on"."""
    server = subprocess.Popen(
        [sys.executable, "-X", "importtime", "-m", "war_tui", *argv],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    assert server.stderr is not None
    try:
        lines: list[str] = []
        while not any("listening on" in line for line in lines):
            line = server.stderr.readline()
            assert line, "".join(lines)
            lines.append(line)
        server.terminate()
        assert server.wait(TIMEOUT) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    return lines


def banner_fingerprint(lines: list[str]) -> str:
    found = re.search(r"host key (SHA256:\S+) \((made now at|from) ", "".join(lines))
    assert found is not None, "".join(lines)
    return found[1]


@pytest.mark.long_wait  # server processes' start-up and shutdown; each state waited for
def test_the_web_door_alone_loads_no_ssh_library_and_makes_a_key_serve_ssh_serves_with(tmp_path):
    key_path = tmp_path / "keys" / "host_key"
    lines = served("serve", "--web", "0", "--public", "--host-key", str(key_path), "--no-preload")
    imported = [line.rsplit("|", 1)[-1].strip() for line in lines if line.startswith("import time:")]
    assert "war_tui.serving.server" in imported  # the import times are there to read
    assert not [name for name in imported if name.split(".")[0] == "asyncssh" or name.startswith("war_tui.ssh")]
    assert "made now at" in "".join(lines)
    # An OpenSSH host key, private to the server's user, that the SSH library and serve-ssh read as it is.
    assert key_path.stat().st_mode & 0o777 == 0o600
    assert key_path.read_bytes().startswith(b"-----BEGIN OPENSSH PRIVATE KEY-----")
    fingerprint = banner_fingerprint(lines)
    assert asyncssh.read_private_key(key_path).get_fingerprint("sha256") == fingerprint
    again = served("serve-ssh", "--port", "0", "--public", "--host-key", str(key_path), "--no-preload")
    assert banner_fingerprint(again) == fingerprint and f"(from {key_path})" in "".join(again)


KEY_FILES = [
    (kind, encoding) for kind in ("ssh-ed25519", "ecdsa-sha2-nistp256", "ssh-rsa")
    for encoding in ("openssh", "pkcs8-pem", "pkcs1-pem") if (kind, encoding) != ("ssh-ed25519", "pkcs1-pem")
]
"""Key files an operator may give ``--host-key`` (ed25519 has no PKCS#1 form)."""


@pytest.mark.parametrize(("kind", "encoding"), KEY_FILES)
def test_the_identity_secret_is_drawn_alike_without_and_with_the_ssh_library(tmp_path, kind, encoding):
    path = tmp_path / "host_key"
    key = asyncssh.generate_private_key(kind)
    path.write_bytes(key.export_private_key(encoding))
    drawn = host_key.load_or_create_host_key(path)
    served_key, created = keys.load_or_create_host_key(path)
    assert not created and not drawn.created
    assert drawn.secret == keys.host_secret(served_key) == keys.host_secret(key)
    assert drawn.fingerprint == keys.fingerprint(served_key)
    assert host_key.load_or_create_host_key(path).secret == drawn.secret  # read again: the same bytes


async def test_a_keyless_identity_and_a_cookie_stay_valid_across_doors_and_restarts(tmp_path):
    path = str(tmp_path / "host_key")
    starts = [
        ["serve", "--web", "0", "--public", "--host-key", path],
        ["serve-ssh", "--public", "--host-key", path],
        ["serve", "--ssh", "0", "--web", "0", "--public", "--host-key", path],
        ["serve", "--web", "0", "--public", "--host-key", path],
    ]
    servers = [prepare_server(build_parser().parse_args(argv), 0, ssh=argv[0] == "serve-ssh" or "--ssh" in argv)[0]
               for argv in starts]
    secrets = {server.config.secret() for server in servers}
    assert len(secrets) == 1
    assert len({server.address_identity("10.0.0.1", "ann") for server in servers}) == 1
    cookie = Identities(servers[0].config.secret()).issue()
    assert all(Identities(server.config.secret()).token(cookie) is not None for server in servers)


def test_a_start_reading_the_folder_while_another_writes_its_key_gets_that_whole_key(tmp_path, monkeypatch):
    """Two nodes started at once on one folder: the second looks while the first is writing its new key."""
    path = tmp_path / "host_key"
    fdopen = os.fdopen
    second = []

    def first_writing(fd, *args, **kwargs):
        monkeypatch.setattr(os, "fdopen", fdopen)
        second.append(host_key.load_or_create_host_key(path))  # the other start, in the middle of this write
        return fdopen(fd, *args, **kwargs)

    monkeypatch.setattr(os, "fdopen", first_writing)
    first = host_key.load_or_create_host_key(path)
    assert second[0].fingerprint == first.fingerprint
    assert [first.created, second[0].created].count(True) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["host_key"]
    assert path.stat().st_mode & 0o777 == 0o600
