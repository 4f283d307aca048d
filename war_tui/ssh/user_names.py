"""A user name asyncssh would refuse is let in, to be reduced like any other name.

asyncssh (2.24) checks user names with SASLprep, whose Unicode 3.2 tables call every emoji unassigned,
and closes the connection; it has no option for this. ``let_in_any_user_name`` replaces the ``saslprep``
its connection module imported with a check that keeps SASLprep's result when it has one and the name as
sent otherwise (passwords, never accepted, keep asyncssh's). tests/unit/test_ssh_user_names.py fails if
an asyncssh upgrade renames it.
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
