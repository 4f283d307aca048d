"""The host names a web door answers to by default, and the origin each stands for (no server needed)."""

from __future__ import annotations

import pytest

from war_tui.web.hosts import HostRules, web_host_value


@pytest.mark.parametrize(
    ("listening", "answered", "misdirected"),
    [
        ("127.0.0.1", ["127.0.0.1:8080", "localhost:8080", "LOCALHOST:8080"],
         ["evil.test:8080", "127.0.0.1", "127.0.0.1:80", "127.0.0.2:8080", "", None]),
        ("0.0.0.0", ["192.168.1.20:8080", "[fe80::1]:8080", "localhost:8080"],
         ["evil.test:8080", "192.168.1.20:8081", "fe80::1:8080", "[fe80::1]"]),
        ("::1", ["[::1]:8080", "localhost:8080"], ["::1:8080", "127.0.0.1:8080"]),
        ("War.LAN", ["war.lan:8080", "WAR.lan:8080"], ["war.lan", "127.0.0.1:8080"]),
    ],
)
def test_the_default_names_are_the_listening_address_and_localhost_at_the_port(listening, answered, misdirected):
    rules = HostRules((), listening, "http", 8080)
    for host in answered:
        assert rules.origin_of(host) is not None, host
    for host in misdirected:
        assert rules.origin_of(host) is None, host


def test_an_origin_is_the_exact_origin_of_the_name_asked_under():
    rules = HostRules((web_host_value("https://war.example.org"), web_host_value("war.lan:9000")), "0.0.0.0", "http", 80)
    assert rules.origin_allowed("https://war.example.org", "war.example.org")
    assert rules.origin_allowed("https://WAR.example.org:443", "war.example.org:443")
    assert rules.origin_allowed("http://war.lan:9000", "war.lan:9000")
    for origin, host in [
        ("http://war.example.org", "war.example.org"),  # the scheme
        ("https://war.example.org:8443", "war.example.org"),  # the port
        ("https://war.example.org/", "war.example.org"),  # a path
        ("http://war.lan:9000", "war.example.org"),  # another of the door's names
        ("https://war.example.org", "192.168.1.20"),  # named: the addresses are no longer answered to
        ("null", "war.lan:9000"),
        (None, "war.lan:9000"),
    ]:
        assert not rules.origin_allowed(origin, host), (origin, host)
