"""The NATS JetStream a war-tui server keeps its tables in: the embedded nats-server, the connection, the
table store on a KV bucket, the leases that say which node owns which table, this server as one node among
many (the lobby of all, takeovers, the relay to a table's owner) and the finished games every node records.

The server (``war_tui.serving``) sees it only through ``seam``, the commands that start one its settings and
errors; what it needs of the server's tables are the Protocols of ``served``, so it imports no server module.
It knows no door (no SSH, no HTTP, no screen). Nothing outside it speaks NATS.
"""
