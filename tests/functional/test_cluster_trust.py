"""The cluster's trust boundary, each attack of issue 39 tried again: the embedded server's files kept to
their owner, tls:// that means TLS, credentials that never show, markers that do not pile up, and a stranger's
failed sign-ins that do not fill the log."""

from __future__ import annotations

import stat

from war_tui.cluster.embedded import EmbeddedNats


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
    finally:
        await again.stop()
