"""The test cluster of three nats-servers starts even when a port it named is taken before its server binds it
(by another test's server on a loaded machine): its members are started again on other ports."""

from __future__ import annotations

import socket
from pathlib import Path

from support.nats import NatsCluster
from support.ports import HIGH, free_port


def test_ports_for_named_servers_are_below_the_kernels_ephemeral_range() -> None:
    low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    assert all(free_port() <= HIGH < low for _ in range(50))


def test_a_cluster_whose_port_was_taken_starts_on_other_ports(tmp_path: Path) -> None:
    cluster = NatsCluster(tmp_path)
    taken = cluster.members[1].port
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as squatter:
        squatter.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        squatter.bind(("127.0.0.1", taken))
        squatter.listen()
        try:
            cluster.start()
            assert all(member.process is not None and member.process.poll() is None for member in cluster.members)
            assert taken not in [member.port for member in cluster.members]
        finally:
            cluster.kill()
