"""One module per command-line subcommand; each has ``register(subparsers)`` and ``run(args)``."""
