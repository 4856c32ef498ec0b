"""Patterns compiled on first use: importing the parser stays cheap (``sizing-bot ask`` start-up).

Every pattern of the parser is ASCII-mode (``\\b``, ``\\w``, ``\\d`` never match CJK characters: a
Chinese character must not count as a word character next to "7b").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from bot.parse.regex_gate import gate, gate_literals

GATED_CHARS = 4000
"""Longer patterns (the alternations of every GPU or model name) are not analysed for a gate
(:mod:`bot.parse.regex_gate`): too many literals."""

_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "split", "sub")


class LazyPattern:
    """A ``re.Pattern`` stand-in that compiles its source the first time it is used.

    On that first use the compiled pattern's bound methods are put on the instance, so every later
    ``.search(...)`` is the C method itself: no Python frame per call (a parse makes ~200 such calls;
    the wrapper's two frames cost more than the searches, bench/latency.py); from the second message
    on, behind a presence gate when it has one (:func:`add_gates`)."""

    __slots__ = ("_compiled", "_flags", "pattern", *_METHODS)

    def __init__(self, pattern: str, flags: int = re.ASCII) -> None:
        self.pattern = pattern
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            compiled = re.compile(self.pattern, self._flags)
            for name in _METHODS:  # slots shadow nothing: __getattr__ below runs only until this
                object.__setattr__(self, name, getattr(compiled, name))
            if len(self.pattern) <= GATED_CHARS:
                _UNGATED.append(self)
            self._compiled = compiled
        return self._compiled

    def __getattr__(self, name: str) -> Any:
        """Only reached for a method before the first compile (an unset slot): compile, then it is set."""
        if name not in _METHODS:
            raise AttributeError(name)
        return getattr(self.compiled, name)

    if TYPE_CHECKING:  # the methods as the type checker sees them (at run time: the slots above)

        def search(self, string: str, *args: Any) -> re.Match[str] | None: ...
        def match(self, string: str, *args: Any) -> re.Match[str] | None: ...
        def fullmatch(self, string: str, *args: Any) -> re.Match[str] | None: ...
        def finditer(self, string: str, *args: Any) -> Iterator[re.Match[str]]: ...
        def findall(self, string: str, *args: Any) -> list[Any]: ...
        def split(self, string: str, maxsplit: int = 0) -> list[str]: ...
        def sub(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str: ...


_UNGATED: list[LazyPattern] = []
"""Patterns compiled since the last :func:`add_gates`."""


def add_gates() -> None:
    """Put a presence gate (:mod:`bot.parse.regex_gate`) in front of each pattern compiled since the
    last call that has no fast scan of its own. Analysing a pattern parses it again (~0.1 ms), so the
    parse calls this from its second message on: ``sizing-bot ask`` (one message) never pays it, a bot
    pays it once (~20 ms) and then on a message that compiled a pattern no earlier one used."""
    while _UNGATED:
        try:
            pattern = _UNGATED.pop()
        except IndexError:  # another thread (the bot parses on worker threads) took the last one
            return
        lits = gate_literals(pattern.pattern, pattern._flags)
        if lits:
            for name in _METHODS:
                object.__setattr__(pattern, name, gate(pattern.compiled, name, lits))


def rc(pattern: str) -> LazyPattern:
    """An ASCII-mode pattern, compiled when first used."""
    return LazyPattern(pattern)
