"""Patterns compiled on first use: importing the parser stays cheap (``sizing-bot ask`` start-up).

Every pattern of the parser is ASCII-mode (``\\b``, ``\\w``, ``\\d`` never match CJK characters: a
Chinese character must not count as a word character next to "7b").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any


class LazyPattern:
    """A ``re.Pattern`` stand-in that compiles its source the first time it is used."""

    __slots__ = ("_compiled", "_flags", "pattern")

    def __init__(self, pattern: str, flags: int = re.ASCII) -> None:
        self.pattern = pattern
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self._flags)
        return self._compiled

    def search(self, string: str, *args: Any) -> re.Match[str] | None:
        return self.compiled.search(string, *args)

    def match(self, string: str, *args: Any) -> re.Match[str] | None:
        return self.compiled.match(string, *args)

    def fullmatch(self, string: str, *args: Any) -> re.Match[str] | None:
        return self.compiled.fullmatch(string, *args)

    def finditer(self, string: str, *args: Any) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(string, *args)

    def findall(self, string: str, *args: Any) -> list[Any]:
        return self.compiled.findall(string, *args)

    def split(self, string: str, maxsplit: int = 0) -> list[str]:
        return self.compiled.split(string, maxsplit)

    def sub(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str:
        return self.compiled.sub(repl, string, count)


def rc(pattern: str) -> LazyPattern:
    """An ASCII-mode pattern, compiled when first used."""
    return LazyPattern(pattern)
