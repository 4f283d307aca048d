"""Serving the game over SSH (``war-tui serve-ssh``).

Each SSH connection that asks for a terminal gets its own game process on its own pseudo-terminal;
everything else an SSH server usually offers (commands, sftp, forwarding) is refused. This package
imports ``asyncssh`` but nothing of the UI: the game runs in a child process, never in the server.
What the web door shares with it (the game server, the launcher, the pty) is ``war_tui.serving``.
"""

import warnings

# asyncssh names cryptography's DSA classes at import, and cryptography 48+ warns on each name (ten lines on
# stderr at every start). war-tui never offers or accepts a DSA key; only this one warning, only from asyncssh.
warnings.filterwarnings("ignore", message=r"DSA is deprecated", module=r"asyncssh(\.|$)")
