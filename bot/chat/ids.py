"""Chat and user identities: opaque strings scoped by platform (``telegram:123``, ``feishu:oc_ab``).

The settings store, the conversation memory and the shown-messages map key on these strings, so a
Feishu ``oc_…`` id and a Telegram integer id never collide and never need a cast. An ``int`` is
taken as a Telegram id (what every caller passed before ids were strings).
"""

from __future__ import annotations

import re

TELEGRAM = "telegram"
MAX_ID_CHARS = 256
"""Longest accepted scoped id (Feishu open ids are ~35 characters; SQLite keys are unbounded)."""

_SCOPED = re.compile(r"[a-z][a-z0-9_-]{0,31}:\S+")


def scoped(platform: str, raw: object) -> str:
    """``platform:raw`` -- e.g. ``scoped("telegram", 123) == "telegram:123"``."""
    return scope_key(f"{platform}:{raw}")


def scope_key(value: str | int) -> str:
    """The scoped string for ``value``: an ``int`` is a Telegram id (``123`` → ``telegram:123``); a
    string must already be ``platform:id``. ValueError for anything else (a bare ``"123"``, an
    empty id, whitespace, over :data:`MAX_ID_CHARS`)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{TELEGRAM}:{value}"
    if isinstance(value, str) and len(value) <= MAX_ID_CHARS and _SCOPED.fullmatch(value):
        return value
    raise ValueError(f"not a scoped id (platform:id): {value!r}")


def platform_of(key: str) -> str:
    """The platform part of a scoped id (``telegram:123`` → ``telegram``)."""
    return key.partition(":")[0]


def raw_of(key: str, platform: str, name: str) -> str:
    """The ``platform`` id behind a scoped id (``raw_of("feishu:oc_ab", "feishu", "Feishu")`` →
    ``oc_ab``); ValueError naming ``name`` for another platform's id or an empty one."""
    scope, _, raw = key.partition(":")
    if scope != platform or not raw:
        raise ValueError(f"not a {name} id: {key!r}")
    return raw
