"""Helpers the tests share: test modules import from here, never from one another."""
