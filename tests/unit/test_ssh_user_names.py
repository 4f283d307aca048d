"""The asyncssh check of user names the server replaces, so a name with an emoji is reduced, not refused."""

from __future__ import annotations

import asyncssh.connection
import pytest
from asyncssh.saslprep import SASLPrepError

from war_tui.ssh.user_names import ASYNCSSH_USER_NAME_CHECK, let_in_any_user_name, user_name_as_sent


def test_asyncssh_still_checks_user_names_by_the_name_the_server_replaces(monkeypatch):
    # asyncssh has no option for this: if an upgrade renames its check, this says so.
    check = getattr(asyncssh.connection, ASYNCSSH_USER_NAME_CHECK, None)
    assert callable(check)
    monkeypatch.setattr(asyncssh.connection, ASYNCSSH_USER_NAME_CHECK, check)  # put back at the end
    assert let_in_any_user_name() is True
    assert getattr(asyncssh.connection, ASYNCSSH_USER_NAME_CHECK) is user_name_as_sent


@pytest.mark.parametrize("name", ["\U0001f642ann", "\U0001f3fb", "ann\u202e", "a\x1bb"])
def test_a_name_saslprep_refuses_is_kept_as_sent_for_the_tables_to_reduce(name):
    from asyncssh.saslprep import saslprep

    with pytest.raises(SASLPrepError):
        saslprep(name)
    assert user_name_as_sent(name) == name


def test_a_name_saslprep_takes_is_mapped_as_asyncssh_maps_it():
    assert user_name_as_sent("ann\u00ad") == "ann"  # a soft hyphen is mapped to nothing
    assert user_name_as_sent("Jos\u00e9") == "Jos\u00e9"


def test_without_the_check_to_replace_asyncssh_keeps_its_own(monkeypatch):
    # The probe: an asyncssh without that name still refuses such names.
    monkeypatch.delattr(asyncssh.connection, ASYNCSSH_USER_NAME_CHECK)
    assert let_in_any_user_name() is False
    assert not hasattr(asyncssh.connection, ASYNCSSH_USER_NAME_CHECK)
