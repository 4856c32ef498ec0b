"""A module's logger, got from :mod:`logging` on first use.

``sizing-bot ask`` logs nothing on a normal answer, yet importing :mod:`logging` (with ``traceback``,
``string``, ``textwrap``…) took ~4-5 ms CPU of its ~290 ms start-up (measured 2026-12-02,
bench/RESULTS.md). ``log = lazy_logger("bot.render")`` stands for ``logging.getLogger("bot.render")``:
every attribute (``warning``, ``exception``, ``isEnabledFor``…) is the real logger's, so records,
levels, handlers and ``caplog`` are the same; the call site stays the caller (``findCaller``).
"""

from __future__ import annotations

from typing import Any


class LazyLogger:
    """``logging.getLogger(name)``, imported and got when an attribute is first asked for."""

    __slots__ = ("_logger", "name")

    def __init__(self, name: str) -> None:
        self.name = name
        self._logger: Any = None

    def __getattr__(self, attr: str) -> Any:
        if self._logger is None:
            import logging

            self._logger = logging.getLogger(self.name)
        return getattr(self._logger, attr)


def lazy_logger(name: str) -> Any:
    """The logger ``name`` (a :class:`LazyLogger`; typed as ``logging.Logger`` for callers)."""
    return LazyLogger(name)
