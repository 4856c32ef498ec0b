"""Build hook: compile the Babel catalogs (locales/*/LC_MESSAGES/messages.po → .mo) when a wheel or an
editable install is built, so the installed bot never compiles catalogs at run time.

Hatchling runs :meth:`CatalogsHook.initialize` before collecting files; the ``.mo`` files are written
next to their ``.po`` (gitignored) and the wheel's force-include of ``locales`` ships them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CatalogsHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for po in sorted(Path(self.root, "locales").glob("*/LC_MESSAGES/*.po")):
            locale = po.parent.parent.name
            with po.open("rb") as fh:
                catalog = read_po(fh, locale=locale)
            with po.with_suffix(".mo").open("wb") as fh:
                write_mo(fh, catalog, use_fuzzy=False)
