"""What the tests of ``--metrics`` share: one HTTP request to the listener, and a scrape read as Prometheus reads it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from prometheus_client.parser import text_string_to_metric_families

from war_tui.serving.metrics_http import MetricsListener

TIMEOUT = 30.0


@asynccontextmanager
async def metrics_of(server) -> AsyncIterator[MetricsListener]:
    """``--metrics`` on a free port of 127.0.0.1 for ``server`` (a ``GameServer``), listening; stopped at the end."""
    listener = MetricsListener(server, "127.0.0.1", 0)
    try:
        await listener.start()
        yield listener
    finally:
        await listener.stop()


async def get(port: int, path: str, method: str = "GET") -> tuple[int, str]:
    """One request to 127.0.0.1:``port``, as a probe makes it: the status and the body."""

    async def ask() -> tuple[int, str]:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            writer.write(f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            answer = await reader.read()
        finally:
            writer.close()
        if not answer:
            raise ConnectionResetError("closed unanswered (the listener is closing)")
        head, _, body = answer.partition(b"\r\n\r\n")
        return int(head.split(b" ", 2)[1]), body.decode()

    return await asyncio.wait_for(ask(), TIMEOUT)


Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


async def scrape(port: int) -> Samples:
    """Every sample of ``/metrics``: its name and labels, and its value."""
    status, body = await get(port, "/metrics")
    assert status == 200, body
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(body)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples[name, tuple(sorted(labels.items()))]
