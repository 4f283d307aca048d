"""Decode terminal input with replacement: a byte that is not UTF-8 becomes U+FFFD, not the end of input.

Textual's ``LinuxDriver.run_input_thread`` builds its decoder with the module-level name
``getincrementaldecoder`` (from ``codecs``) and decodes strictly. ``replacing_input`` gives a
driver class its own copy of that method whose globals name a factory of replacing decoders:
nothing of Textual is changed, only the class given reads this way.
"""

from __future__ import annotations

import codecs
import functools
import types


def _loop() -> types.FunctionType:
    from textual.drivers.linux_driver import LinuxDriver

    return LinuxDriver.run_input_thread  # type: ignore[return-value]


def supported() -> bool:
    """The input loop is a plain function that takes its decoder from ``codecs.getincrementaldecoder``."""
    loop = _loop()
    return (
        isinstance(loop, types.FunctionType)
        and loop.__closure__ is None
        and "getincrementaldecoder" in loop.__code__.co_names
        and loop.__globals__.get("getincrementaldecoder") is codecs.getincrementaldecoder
    )


def _replacing_decoder(encoding: str) -> functools.partial[codecs.IncrementalDecoder]:
    return functools.partial(codecs.getincrementaldecoder(encoding), errors="replace")


def replacing_input(driver: type) -> None:
    """Give ``driver`` (a LinuxDriver subclass with a ``read_input`` hook) the input loop with replacement."""
    loop = _loop()
    names = dict(loop.__globals__, getincrementaldecoder=_replacing_decoder)
    copy = types.FunctionType(loop.__code__, names, loop.__name__, loop.__defaults__, loop.__closure__)
    copy.__kwdefaults__ = loop.__kwdefaults__
    driver.read_input = copy  # type: ignore[attr-defined]
