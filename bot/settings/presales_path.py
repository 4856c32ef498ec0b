"""Where the provider's offer (pre-sales TOML) is named, and the error its reading raises, without the
offer's models: ``sizing-bot ask`` with no ``--presales`` and no ``SIZING_BOT_PRESALES`` (the plain
question) answers without importing :mod:`bot.settings.presales` and its five pydantic models (~10M
instructions of start-up, ~0.9 % of ``ask``: measured 2026-12-04 with callgrind, bench/RESULTS.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

    from bot.settings.presales import PresalesConfig


class PresalesError(ValueError):
    """The pre-sales file is missing, not TOML, or fails validation; the message names file and field."""


def presales_path_from_env() -> Path | None:
    """The pre-sales file named by ``SIZING_BOT_PRESALES`` (``AppSettings.presales_path``), or None when
    it is unset or no variable of ours is set."""
    from bot.config import current_if_set

    settings = current_if_set()
    return settings.presales_path if settings is not None else None


def load_offer(path: str | Path | None = None) -> PresalesConfig | None:
    """The offer from ``path`` (``--presales FILE``), else from ``SIZING_BOT_PRESALES``, else None: the one
    env → path → load step of ``sizing-bot ask``, ``sizing-bot preview``, the health check and the web
    server (review s25 item 8). Raises :class:`PresalesError` (naming the file and the field) for a bad
    file. With neither, :mod:`bot.settings.presales` (its five models) is not imported."""
    named = path or presales_path_from_env()
    if not named:
        return None
    from pathlib import Path

    from bot.settings.presales import load_presales

    return load_presales(Path(named).expanduser())
