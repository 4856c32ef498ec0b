"""Shell command lines as recipes print them: one flag per line, ``\\`` continuations, safe quoting."""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

Arg = tuple[str, object | None]
"""A flag and its value (None: a switch without a value)."""

_PLAIN_RE = re.compile(r"[\w.,:/@=+\-{}$]+")


def quote(value: object) -> str:
    """A shell word: left as is when it is plain (paths, numbers, ``${VAR}``), else single-quoted."""
    text = _value(value)
    return text if _PLAIN_RE.fullmatch(text) else shlex.quote(text)


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def command(head: Sequence[str], args: Sequence[Arg] = (), tail: Sequence[str] = ()) -> str:
    """``head`` words, then one ``flag value`` per continuation line, then ``tail`` words (each on a
    line: a script and its own arguments, or ``key=value`` overrides)."""
    parts = [" ".join(head)]
    parts += [f"{flag} {quote(value)}" if value is not None else flag for flag, value in args]
    parts += list(tail)
    return " \\\n  ".join(parts)


def script(comments: Sequence[str], *commands: str) -> str:
    """A bash file: comment lines, then the commands, separated by blank lines."""
    return "\n".join([*comments, *("\n" + c if i else c for i, c in enumerate(commands))]) + "\n"
