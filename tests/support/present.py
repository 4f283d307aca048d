"""A value a test expects to be there: None fails the test at once, and the type checker knows the rest."""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


def present(value: T | None) -> T:
    """``value``, which must not be None."""
    assert value is not None
    return value
