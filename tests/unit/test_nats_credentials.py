"""The credentials of ``--nats`` URLs are given to the client once, for every server it reaches."""

from __future__ import annotations

from war_tui.cluster.connection import lift_credentials


def test_a_token_all_urls_carry_is_lifted_out_of_them():
    urls = ["nats://tok@127.0.0.1:4222", "nats://tok@[::1]:4223", "nats://10.0.0.3:4224"]
    assert lift_credentials(urls) == (
        ["nats://127.0.0.1:4222", "nats://[::1]:4223", "nats://10.0.0.3:4224"], "tok", None, None,
    )


def test_a_user_and_password_are_lifted_and_unquoted():
    assert lift_credentials(["nats://ann:p%40ss@h:1"]) == (["nats://h:1"], None, "ann", "p@ss")


def test_urls_without_credentials_or_with_different_ones_are_left_as_they_are():
    assert lift_credentials(["nats://h:1"]) == (["nats://h:1"], None, None, None)
    mixed = ["nats://a@h:1", "nats://b@h:2"]
    assert lift_credentials(mixed) == (mixed, None, None, None)
