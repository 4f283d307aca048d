"""The NATS JetStream a war-tui server keeps its tables in: the embedded nats-server, the connection, the
table store on a KV bucket, and the leases that say which node owns which table.

Only ``war_tui.serving`` and ``war_tui.commands`` import it; it knows no door (no SSH, no HTTP, no screen).
"""
