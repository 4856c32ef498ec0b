"""An active parameter count written into a model's name ('Foo-A13B', 'Bar-30B-A3B'; session 30 fixe #3).

An MoE release names its active parameters per token with 'A' ('Hunyuan-A13B', 'Qwen3-30B-A3B'): for a
name the catalog lacks and whose total is not typed, that count is not the model's size, and the help
says so and asks for the total instead of a generic parameter count."""

from __future__ import annotations

from bot.parse.regex import rc

ACTIVE_IN_NAME_RE = rc(r"(?i)(?:^|[-_\s])a(\d{1,4}(?:\.\d{1,2})?)b$")
"""'…-A13B' at the end of the name: the active count, in billions."""


def active_in_name(name: str) -> str | None:
    """The active count the name states ('13B' for 'Foo-A13B'), or None."""
    m = ACTIVE_IN_NAME_RE.search(name.strip())
    return f"{m.group(1)}B" if m else None
