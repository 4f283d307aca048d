"""A server given one URL of a NATS cluster, its token in the URL, reconnects to the servers the cluster told
it of when that one dies, and signs in there with the same token."""

from __future__ import annotations

import asyncio

from war_tui.cluster.connection import connect

TIMEOUT = 30.0


async def test_given_one_url_it_reconnects_to_a_server_it_learnt_of(nats_cluster):
    first = nats_cluster.members[0]
    lines: list[str] = []
    comebacks: list[str] = []
    client = await connect(
        [f"nats://{nats_cluster.token}@127.0.0.1:{first.port}"], lines.append,
        reconnected=lambda: comebacks.append("back"),
    )
    try:
        for _ in range(int(TIMEOUT / 0.05)):  # the cluster's INFO names the other two soon after connecting
            if len(client.discovered_servers) >= 2:
                break
            await asyncio.sleep(0.05)
        first.kill()
        for _ in range(int(TIMEOUT / 0.05)):
            if client.is_connected and client.connected_url is not None and client.connected_url.port != first.port:
                break
            await asyncio.sleep(0.05)
        assert client.is_connected, f"never reconnected: {lines}"
        await asyncio.wait_for(client.flush(), TIMEOUT)
        assert not [line for line in lines if "Authorization" in line], lines
        assert comebacks == ["back"], "the relay is told at once, to send again what was not acknowledged"
    finally:
        await client.close()
