"""Pydantic's plugin search, answered without importing ``importlib.metadata`` when it finds nothing.

Pydantic looks for plugins (the ``pydantic`` entry-point group) when it builds its first validator:
``pydantic.plugin._loader`` imports ``importlib.metadata`` (which imports ``email``, ``zipfile``,
``csv``, ``socket``: ~12 ms CPU) and reads the entry points of every installed distribution
(~3-5 ms): ~15-17 ms of a ~300 ms ``sizing-bot ask``, measured 2026-12-02 (bench/RESULTS.md).

:func:`skip_plugin_search_when_none_declared` does the same search over the same places first —
the ``entry_points.txt`` of every ``*.dist-info`` / ``*.egg-info`` folder on ``sys.path``, which is
where ``importlib.metadata``'s path finder looks — and only when no distribution declares a
``pydantic`` entry point does it register, as ``pydantic.plugin._loader``, a module whose
``get_plugins()`` returns what pydantic's own would (no plugins). When any file names a ``pydantic``
section (or mentions the word in a section header), or when the search could differ from pydantic's
(a zip or egg on ``sys.path``, another metadata finder on ``sys.meta_path``, an unreadable file),
nothing is registered and pydantic loads its plugins itself, ``PYDANTIC_DISABLE_PLUGINS`` included.
So an installed plugin sees our models exactly as before; only the empty search got cheaper.
"""

from __future__ import annotations

import os
import sys
import types

LOADER = "pydantic.plugin._loader"
"""The module pydantic imports (inside ``create_schema_validator``) to find its plugins."""


def _declares_pydantic(folder: str) -> bool:
    """Whether the distribution metadata ``folder`` may declare a ``pydantic`` entry point (True when
    its ``entry_points.txt`` has a section header naming pydantic, or cannot be read)."""
    path = os.path.join(folder, "entry_points.txt")
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
    except FileNotFoundError:
        return False
    except OSError:
        return True
    return any(line.lstrip().startswith("[") and "pydantic" in line.lower() for line in text.splitlines())


def _entry_point_may_exist(entry: str) -> bool:
    """Whether the ``sys.path`` entry may hold a distribution with a ``pydantic`` entry point (True
    for anything this search does not read the way ``importlib.metadata`` does: zips, eggs)."""
    root = entry or "."
    if root.lower().endswith(".egg") or (os.path.exists(root) and not os.path.isdir(root)):
        return True
    try:
        names = os.listdir(root)
    except OSError:
        return False  # importlib.metadata skips a missing or unreadable folder as well
    for name in names:
        if name.lower().endswith((".dist-info", ".egg-info")):
            folder = os.path.join(root, name)
            if os.path.isdir(folder) and _declares_pydantic(folder):
                return True
    return False


def _other_metadata_finders() -> bool:
    """Whether ``sys.meta_path`` has a distribution finder besides the standard path finder."""
    from importlib.machinery import PathFinder

    return any(finder is not PathFinder and hasattr(finder, "find_distributions") for finder in sys.meta_path)


def _no_plugins() -> tuple[()]:
    """What ``pydantic.plugin._loader.get_plugins`` returns when no plugin is installed."""
    return ()


def skip_plugin_search_when_none_declared() -> bool:
    """Register the no-plugin loader when no distribution on ``sys.path`` declares a pydantic plugin;
    returns whether it did. Does nothing once pydantic's own loader is imported."""
    if LOADER in sys.modules or _other_metadata_finders():
        return False
    if any(_entry_point_may_exist(entry) for entry in sys.path if isinstance(entry, str)):
        return False
    loader = types.ModuleType(LOADER, "No pydantic plugin is installed (estimator._pydantic_plugins).")
    loader.PYDANTIC_ENTRY_POINT_GROUP = "pydantic"  # type: ignore[attr-defined]
    loader.get_plugins = _no_plugins  # type: ignore[attr-defined]
    loader._plugins = {}  # type: ignore[attr-defined]
    loader._loading_plugins = False  # type: ignore[attr-defined]
    sys.modules[LOADER] = loader
    return True
