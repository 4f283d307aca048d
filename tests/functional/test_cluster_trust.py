"""The cluster's trust boundary, each attack of issue 39 tried again: the embedded server's files kept to
their owner, tls:// that means TLS, credentials that never show, markers that do not pile up, and a stranger's
failed sign-ins that do not fill the log."""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from nats.js.api import StreamConfig
from support.nats import NatsServer
from support.nkeys import Accounts
from support.tls import CertificateAuthority, Issued
from support.waiting import until

from war_tui.cluster.access import NatsAccess, TlsFiles, credentials_file
from war_tui.cluster.connection import connect
from war_tui.cluster.embedded import EmbeddedNats
from war_tui.cluster.errors import ClusterUnavailable
from war_tui.cluster.keys import table_key
from war_tui.cluster.leases import LeaseBucket, NodeLease, Owners
from war_tui.cluster.table_store import NatsTableStore, StoreUnavailable

TIMEOUT = 30.0


def mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


async def test_a_restart_tightens_a_loosened_cluster_folder_and_its_config(tmp_path):
    folder = tmp_path / "cluster"
    first = EmbeddedNats(folder, lambda line: None)
    await first.start()
    await first.stop()
    folder.chmod(0o755)
    (folder / "nats.conf").chmod(0o644)
    (folder / "run").chmod(0o755)
    again = EmbeddedNats(folder, lambda line: None)
    await again.start()
    try:
        assert mode(folder) == 0o700, "the token's folder is the server's user's alone"
        assert mode(folder / "nats.conf") == 0o600, "the fresh token is no other user's to read"
        assert mode(folder / "run") == 0o700
        assert again.token.encode() not in Path(f"/proc/{again.pid}/cmdline").read_bytes(), "nor does ps show it"
    finally:
        await again.stop()


# ------------------------------------------------------------------ tls:// means TLS


def tls_block(certs: Issued, ca: Path | None = None) -> str:
    """A nats-server's TLS: its certificate, and with ``ca`` a client's certificate signed by it required."""
    lines = [f"  cert_file: {json.dumps(str(certs.cert))}", f"  key_file: {json.dumps(str(certs.key))}"]
    if ca is not None:
        lines += [f"  ca_file: {json.dumps(str(ca))}", "  verify: true"]
    return "tls {\n" + "\n".join(lines) + "\n}\n"


@pytest.fixture
def ca(tmp_path):
    return CertificateAuthority(tmp_path / "ca")


@pytest.fixture
def tls_server(tmp_path, ca):
    server = NatsServer(tmp_path / "nats-tls", tls=tls_block(ca.issue("server"))).start()
    yield server
    server.kill()


async def test_tls_with_a_private_ca_keeps_the_tables(tls_server, ca):
    url = f"tls://{tls_server.token}@127.0.0.1:{tls_server.port}"
    client = await connect([url], lambda line: None, access=NatsAccess(tls=TlsFiles(ca=ca.cert)))
    try:
        assert client.connected_url is not None and client.connected_url.scheme == "tls"
        store = await NatsTableStore.open(client)
        revision = await store.save("oak", b"kept", None)
        assert [(table.name, table.data, table.revision) for table in await store.load_all()] == [
            ("oak", b"kept", revision)
        ]
        tls_server.restart()  # the reconnect goes over TLS too, the token behind a fresh handshake

        async def saved() -> bool:
            with contextlib.suppress(StoreUnavailable):  # until JetStream is back, as the keeper tries again
                return await store.save("oak", b"again", revision) > revision
            return False

        await until(saved, what="the client came back to the restarted TLS server and saved there")
    finally:
        await client.close()


async def test_a_certificate_of_another_ca_is_refused_before_the_token_is_sent(tls_server, tmp_path):
    stranger = CertificateAuthority(tmp_path / "other-ca", "someone else's CA")
    url = f"tls://{tls_server.token}@127.0.0.1:{tls_server.port}"
    with pytest.raises(ClusterUnavailable) as refused:
        await connect([url], lambda line: None, access=NatsAccess(tls=TlsFiles(ca=stranger.cert)), timeout=TIMEOUT)
    assert "certificate is refused" in str(refused.value)
    assert tls_server.token not in str(refused.value)


async def test_mutual_tls_needs_the_client_certificate(tmp_path, ca):
    server = NatsServer(tmp_path / "nats-mtls", tls=tls_block(ca.issue("server"), ca=ca.cert)).start()
    try:
        url = f"tls://{server.token}@127.0.0.1:{server.port}"
        with pytest.raises(ClusterUnavailable):
            await connect([url], lambda line: None, access=NatsAccess(tls=TlsFiles(ca=ca.cert)), timeout=TIMEOUT)
        mine = ca.issue("war-tui-node", client=True)
        client = await connect([url], lambda line: None,
                               access=NatsAccess(tls=TlsFiles(ca=ca.cert, cert=mine.cert, key=mine.key)))
        try:
            await client.jetstream().account_info()
        finally:
            await client.close()
    finally:
        server.kill()


class PlainServer:
    """A stranger's server on 127.0.0.1 that greets as a NATS server without TLS and keeps what it is sent."""

    def __init__(self, greeting: dict, port: int = 0) -> None:
        self.greeting = greeting
        self.received = bytearray()
        self.port = port
        self._server: asyncio.Server | None = None

    async def __aenter__(self) -> PlainServer:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc) -> None:
        assert self._server is not None
        self._server.close()
        await self._server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(b"INFO " + json.dumps(self.greeting).encode() + b"\r\n")
        await writer.drain()
        with contextlib.suppress(OSError):
            while data := await reader.read(4096):
                self.received += data
                if b"PING" in data:
                    writer.write(b"PONG\r\n")
                    await writer.drain()
        writer.close()


GREETINGS = {
    "no TLS at all": {"server_id": "x", "version": "2.11.0", "max_payload": 1048576, "headers": True,
                      "auth_required": True, "nonce": "bm9uY2U"},
    "TLS offered but not required": {"server_id": "x", "version": "2.11.0", "max_payload": 1048576,
                                     "headers": True, "auth_required": True, "tls_available": True},
}


@pytest.mark.parametrize("greeting", list(GREETINGS))
@pytest.mark.parametrize("credential", ["token", "user and password", "credentials file"])
async def test_a_tls_url_answered_without_tls_is_refused_before_any_credential_is_sent(greeting, credential, tmp_path):
    secret = "s3cret-token-" + "x" * 20
    signed = {"token": f"{secret}@", "user and password": f"ann:{secret}@"}.get(credential, "")
    access = None
    if credential == "credentials file":
        accounts = Accounts()
        secret = accounts.user_jwt
        access = NatsAccess(credentials=credentials_file(accounts.creds(tmp_path / "node.creds")))
    async with PlainServer(GREETINGS[greeting]) as stranger:
        url = f"tls://{signed}127.0.0.1:{stranger.port}"
        with pytest.raises(ClusterUnavailable) as refused:
            await connect([url], lambda line: None, access=access, timeout=TIMEOUT)
    assert "answered without TLS" in str(refused.value)
    assert secret not in str(refused.value)
    assert bytes(stranger.received) == b"", "nothing at all goes to a tls:// server that answers in clear"


async def test_a_plain_server_in_the_place_of_a_tls_one_gets_nothing_at_the_reconnect(tls_server, ca):
    lines: list[str] = []
    url = f"tls://{tls_server.token}@127.0.0.1:{tls_server.port}"
    client = await connect([url], lines.append, access=NatsAccess(tls=TlsFiles(ca=ca.cert)))
    try:
        tls_server.kill()
        async with PlainServer(GREETINGS["no TLS at all"], port=tls_server.port) as stranger:
            async def tried() -> bool:
                return bool(stranger.received) or any("answered without TLS" in line for line in lines)

            await until(tried, what="the client tried the stranger")
            assert bytes(stranger.received) == b"", "the token never leaves in clear, at a reconnect either"
        assert not client.is_connected
    finally:
        await client.close()


async def test_a_tls_url_without_credentials_is_refused_too(tmp_path):
    async with PlainServer(GREETINGS["no TLS at all"]) as stranger:
        with pytest.raises(ClusterUnavailable, match="answered without TLS"):
            await connect([f"tls://127.0.0.1:{stranger.port}"], lambda line: None, timeout=TIMEOUT)
    assert bytes(stranger.received) == b"", "not even the tables: their first CONNECT never leaves"


# ------------------------------------------------------------------ credentials off the command line

SECRET = "s3cretTOKENs3cret"


def serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "war_tui", "serve-ssh", "--public", "--port", "0", "--no-preload", *args],
        capture_output=True, text=True, timeout=TIMEOUT * 2, stdin=subprocess.DEVNULL,
    )


def refused_in_one_line(result: subprocess.CompletedProcess[str], *words: str) -> str:
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.splitlines()) == 1, result.stderr
    for word in words:
        assert word in result.stderr, result.stderr
    assert "s3cret" not in result.stderr + result.stdout, "no part of a secret in any message"
    return result.stderr


def secret_file(folder: Path, name: str, text: str, mode: int = 0o600) -> Path:
    path = folder / name
    path.write_text(text, encoding="ascii")
    path.chmod(mode)
    return path


@pytest.mark.parametrize("url", [
    f"nats://{SECRET}@10.0.0.5:99999", f"nats://ann:{SECRET}@10.0.0.5", f"{SECRET}", f"nats://{SECRET}@:4222",
    f"tls://ann:{SECRET}@10.0.0.5:4222/x", f"nats://{SECRET} @10.0.0.5:4222", "nats://" + SECRET * 200 + "@h:1",
])
def test_a_malformed_url_is_refused_without_a_word_of_its_secret(tmp_path, url):
    refused_in_one_line(serve("--host-key", str(tmp_path / "hk"), "--nats", url), "--nats must be a nats://")


def test_bad_credential_files_are_one_line_naming_the_file_never_its_content(tmp_path):
    hk = ("--host-key", str(tmp_path / "hk"), "--nats", "nats://10.0.0.5:4222")
    missing = tmp_path / "none"
    refused_in_one_line(serve(*hk, "--nats-token-file", str(missing)), "--nats-token-file", str(missing), "No such file")
    two = secret_file(tmp_path, "two", f"{SECRET}\n{SECRET}\n")
    refused_in_one_line(serve(*hk, "--nats-token-file", str(two)), str(two), "not one line")
    spaced = secret_file(tmp_path, "spaced", f"{SECRET} {SECRET}\n")
    refused_in_one_line(serve(*hk, "--nats-token-file", str(spaced)), "not a token")
    empty_password = secret_file(tmp_path, "user", f"{SECRET}:\n")
    refused_in_one_line(serve(*hk, "--nats-token-file", str(empty_password)), "empty user or password")
    creds = secret_file(tmp_path, "creds", f"-----BEGIN NATS USER JWT-----\n{SECRET}\n------END NATS USER JWT------\n")
    refused_in_one_line(serve(*hk, "--nats-creds", str(creds)), "--nats-creds", "not a NATS credentials file")
    bad_seed = secret_file(tmp_path, "seed", (
        "-----BEGIN NATS USER JWT-----\na.b.c\n------END NATS USER JWT------\n"
        f"-----BEGIN USER NKEY SEED-----\nSU{SECRET.upper()}\n------END USER NKEY SEED------\n"
    ))
    refused_in_one_line(serve(*hk, "--nats-creds", str(bad_seed)), "USER NKEY SEED", "not")
    refused_in_one_line(serve(*hk, "--nats-tls-ca", str(missing)), "--nats-tls-ca", "No such file")


def test_credential_flags_are_checked_together(tmp_path, ca):
    hk = ("--host-key", str(tmp_path / "hk"))
    token = secret_file(tmp_path, "token", SECRET + "\n")
    refused_in_one_line(serve(*hk, "--nats-token-file", str(token)), "is for a cluster given with --nats")
    refused_in_one_line(
        serve(*hk, "--nats", f"nats://{SECRET}@h:1", "--nats-token-file", str(token)), "give them once, in the file"
    )
    refused_in_one_line(serve(*hk, "--nats", "nats://h:1", "--nats", "tls://h:2"), "not both")
    refused_in_one_line(
        serve(*hk, "--nats", f"tls://{SECRET}@h:1", "--nats", f"tls://{SECRET}x@h:2"), "different credentials"
    )
    refused_in_one_line(serve(*hk, "--nats", "nats://h:1", "--nats-tls-ca", str(ca.cert)), "is for tls:// URLs")
    mine = ca.issue("node", client=True)
    refused_in_one_line(serve(*hk, "--nats", "tls://h:1", "--nats-tls-cert", str(mine.cert)), "go together")
    refused_in_one_line(
        serve(*hk, "--nats", "tls://h:1", "--nats-tls-ca", str(token)), "--nats-tls-ca", "no CA certificate"
    )
    refused_in_one_line(
        serve(*hk, "--nats", "tls://h:1", "--nats-tls-cert", str(mine.key), "--nats-tls-key", str(mine.key)),
        "not a certificate",
    )


def test_the_server_refuses_a_plain_answer_to_tls_in_one_line_and_sends_it_no_token(tmp_path):
    token = secret_file(tmp_path, "token", SECRET + "\n")

    async def run() -> tuple[subprocess.CompletedProcess[str], bytes]:
        async with PlainServer(GREETINGS["no TLS at all"]) as stranger:
            result = await asyncio.to_thread(
                serve, "--host-key", str(tmp_path / "hk"), "--nats", f"tls://127.0.0.1:{stranger.port}",
                "--nats-token-file", str(token),
            )
        return result, bytes(stranger.received)

    result, received = asyncio.run(run())
    refused_in_one_line(result, "cannot reach NATS at tls://127.0.0.1:", "answered without TLS")
    assert received == b""


def starting(tmp_path: Path, *args: str, command_lines: list[bytes] | None = None) -> list[str]:
    """What ``serve-ssh ARGS`` logs until it listens (or cannot start); then it is stopped. ``command_lines``
    gets what ``ps`` shows of it while it runs."""
    server = subprocess.Popen(
        [sys.executable, "-m", "war_tui", "serve-ssh", "--public", "--port", "0", "--no-preload",
         "--host-key", str(tmp_path / "hk"), "--session-command", "true", *args],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    lines: list[str] = []
    try:
        assert server.stderr is not None
        for line in server.stderr:
            lines.append(line.rstrip("\n"))
            if "listening on" in line or "cannot" in line:
                break
        if command_lines is not None:
            command_lines.append(Path(f"/proc/{server.pid}/cmdline").read_bytes())
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(TIMEOUT)
    return lines


def test_the_server_keeps_its_tables_over_mutual_tls_with_its_files(tmp_path, ca):
    server = NatsServer(tmp_path / "nats-mtls", tls=tls_block(ca.issue("server"), ca=ca.cert)).start()
    try:
        mine = ca.issue("node", client=True)
        token = secret_file(tmp_path, "token", server.token + "\n")
        lines = starting(tmp_path, "--nats", f"tls://127.0.0.1:{server.port}", "--nats-token-file", str(token),
                         "--nats-tls-ca", str(ca.cert), "--nats-tls-cert", str(mine.cert), "--nats-tls-key", str(mine.key))
    finally:
        server.kill()
    text = "\n".join(lines)
    assert f"tables kept in NATS: tls://127.0.0.1:{server.port}" in text and "listening on" in text, text
    assert "warning" not in text, "files of mode 0600 are no one else's"


def test_a_token_file_signs_in_and_a_loose_one_is_warned_of_once(tmp_path, nats_server):
    token = secret_file(tmp_path, "token", nats_server.token + "\n", mode=0o644)
    shown: list[bytes] = []
    lines = starting(tmp_path, "--nats", f"nats://127.0.0.1:{nats_server.port}", "--nats-token-file", str(token),
                     command_lines=shown)
    assert shown and nats_server.token.encode() not in shown[0], "ps shows every local user no token"
    text = "\n".join(lines)
    assert "listening on" in text, text
    assert f"tables kept in NATS: nats://127.0.0.1:{nats_server.port}" in text
    assert [line for line in lines if "warning:" in line] == [
        next(line for line in lines if f"--nats-token-file {token} may be read by other users (mode 0644)" in line)
    ]
    assert nats_server.token not in text


class OperatorServer(NatsServer):
    """A nats-server in operator mode: decentralised JWT accounts, no token; JetStream on."""

    def __init__(self, folder: Path, accounts: Accounts) -> None:
        super().__init__(folder)
        self.accounts = accounts

    def config(self) -> str:
        return (
            f'listen: "127.0.0.1:{self.port}"\n'
            f"ports_file_dir: {json.dumps(str(self.ports))}\n"
            f"jetstream {{ store_dir: {json.dumps(str(self.store))} }}\n"
            + self.accounts.config()
        )


def test_a_credentials_file_signs_in_to_an_operator_mode_server(tmp_path):
    accounts = Accounts()
    server = OperatorServer(tmp_path / "nats-operator", accounts).start()
    try:
        creds = accounts.creds(tmp_path / "node.creds")

        async def run() -> None:
            client = await connect([f"nats://127.0.0.1:{server.port}"], lambda line: None,
                                   access=NatsAccess(credentials=credentials_file(creds)), timeout=TIMEOUT)
            try:
                store = await NatsTableStore.open(client)
                assert await store.save("oak", b"kept", None) > 0
            finally:
                await client.close()
            with pytest.raises(ClusterUnavailable, match="Authorization Violation"):
                await connect([f"nats://127.0.0.1:{server.port}"], lambda line: None,
                              access=NatsAccess(credentials=credentials_file(Accounts().creds(tmp_path / "other"))),
                              timeout=5)

        asyncio.run(run())
        both = serve("--host-key", str(tmp_path / "hk"), "--nats", "nats://h:1", "--nats-creds", str(creds),
                     "--nats-token-file", str(secret_file(tmp_path, "token", SECRET)))
        assert both.returncode == 2 and "not allowed with" in both.stderr, both.stderr
    finally:
        server.kill()


# ------------------------------------------------------------------ a stranger's sign-ins and the log


async def sign_in_with(port: int, token: str) -> bytes:
    """One sign-in as a local stranger would try it, by hand: the greeting, a CONNECT with a guessed token."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        await reader.readline()
        writer.write(b"CONNECT " + json.dumps({"auth_token": token, "verbose": False}).encode() + b"\r\nPING\r\n")
        await writer.drain()
        return await asyncio.wait_for(reader.readline(), TIMEOUT)
    finally:
        writer.close()


async def test_a_strangers_failed_sign_ins_are_summarised_not_copied_into_the_log(tmp_path):
    lines: list[str] = []
    server = EmbeddedNats(tmp_path / "cluster", lines.append, log_window=3600)  # the whole attack in one window
    await server.start()
    attempts = 40
    try:
        for guess in range(attempts):
            assert b"Authorization Violation" in await sign_in_with(server.port, f"guess-{guess}")
    finally:
        await server.stop()
    copied = [line for line in lines if "authentication error" in line and "held back" not in line]
    summaries = [line for line in lines if "held back" in line]
    assert len(copied) == 10, "ten lines, then the rest is summarised"
    assert len(summaries) == 1, lines
    held = int(summaries[0].split("nats-server: ")[1].split()[0])
    assert len(copied) + held == attempts
    assert "authentication error" in summaries[0]


# ------------------------------------------------------------------ delete markers do not pile up


async def keys_in(client, bucket: str) -> int:
    info = await client.jetstream().stream_info(f"KV_{bucket}", subjects_filter=">")
    return len(info.state.subjects or {})


async def test_tables_opened_and_closed_leave_no_marker_behind(nats_server):
    client = await nats_server.client()
    store = await NatsTableStore.open(client, bucket="tables-test", marker_ttl=1)
    leases = await LeaseBucket.open(client, bucket="leases-test", marker_ttl=1)
    lease = NodeLease(leases, "n1", 60)
    await lease.take()
    owners = Owners(leases, lease)
    for number in range(102):
        name = f"table {number}"
        revision = await store.save(name, b"a checkpoint", None)
        owned = await owners.claim(name)
        assert owned is not None
        if number >= 98:
            continue  # four tables stay open
        await store.delete(name, revision)
        await owners.release(name, owned)

    async def bounded() -> bool:
        return await keys_in(client, "tables-test") == 4 and await keys_in(client, "leases-test") == 5

    await until(bounded, what="the markers of 98 closed tables went: four tables and their owners, one node lease")
    assert sorted(table.name for table in await store.load_all()) == sorted(f"table {n}" for n in range(98, 102))
    assert await store.save("table 7", b"again", None) > 0, "a closed table's name is free again"


async def test_markers_a_bucket_kept_from_before_are_swept_at_start(nats_server):
    client = await nats_server.client()
    store = await NatsTableStore.open(client, bucket="tables-old", marker_ttl=1)
    for number in range(20):
        await store.save(f"old {number}", b"x", None)
        await store.kv.delete(table_key(f"old {number}"))  # a marker kept for ever, as before
    await store.save("kept", b"x", None)
    assert await keys_in(client, "tables-old") == 21
    await asyncio.sleep(1.1)  # older than the store's marker time
    await NatsTableStore.open(client, bucket="tables-old", marker_ttl=1)
    assert await keys_in(client, "tables-old") == 1
    assert [table.name for table in await store.load_all()] == ["kept"]


async def test_a_bucket_made_without_per_message_expiry_still_deletes(nats_server):
    client = await nats_server.client()
    js = client.jetstream()
    await js.add_stream(StreamConfig(  # as an operator might make it by hand: no per-message expiry
        name="KV_tables-by-hand", subjects=["$KV.tables-by-hand.>"], max_msgs_per_subject=1,
        allow_rollup_hdrs=True, deny_delete=True, allow_direct=True,
    ))
    store = await NatsTableStore.open(client, bucket="tables-by-hand", marker_ttl=1)
    revision = await store.save("oak", b"x", None)
    await store.delete("oak", revision)
    assert await store.load_all() == []
    assert await keys_in(client, "tables-by-hand") == 1, "its marker stays until a start sweeps it"
    await asyncio.sleep(1.1)
    await NatsTableStore.open(client, bucket="tables-by-hand", marker_ttl=1)
    assert await keys_in(client, "tables-by-hand") == 0
