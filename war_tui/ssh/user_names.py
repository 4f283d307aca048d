"""A user name asyncssh would refuse is let in, to be reduced like any other name.

asyncssh (2.24) checks the user name of every authentication request with SASLprep (RFC 4013) and closes
the connection when the check fails, before the server hears the name. SASLprep's tables are Unicode
3.2's, so every emoji is an "unassigned character" there: ``ssh -l '🙂ann' HOST`` was refused at login.
Here a user name is only a name to show, and the tables package reduces it for every screen and the log
(controls, bidi overrides and unassigned code points go, at most 16 cells), so the server refuses none.

asyncssh has no option or hook for this: the check is the ``saslprep`` its connection module imported,
called as each authentication request arrives. ``let_in_any_user_name`` replaces that one name with a
check that keeps SASLprep's result when it has one and the name as sent otherwise. Passwords (which the
server never accepts) are checked in asyncssh's auth module, untouched. ``tests/unit/test_ssh_user_names.py``
fails if an asyncssh upgrade renames it.
"""

from __future__ import annotations

import asyncssh.connection
from asyncssh.saslprep import SASLPrepError, saslprep

ASYNCSSH_USER_NAME_CHECK = "saslprep"
"""The name in ``asyncssh.connection`` that checks a user name."""


def user_name_as_sent(name: str) -> str:
    """``name`` as SASLprep maps it, or as sent where SASLprep would refuse it (the tables reduce it)."""
    try:
        return saslprep(name)
    except SASLPrepError:
        return name


def let_in_any_user_name() -> bool:
    """From now on asyncssh's connections take any user name (UTF-8, under its length limit).

    False, and asyncssh's own check stays, where the installed asyncssh has no such name to replace.
    """
    if not callable(getattr(asyncssh.connection, ASYNCSSH_USER_NAME_CHECK, None)):
        return False
    setattr(asyncssh.connection, ASYNCSSH_USER_NAME_CHECK, user_name_as_sent)
    return True
