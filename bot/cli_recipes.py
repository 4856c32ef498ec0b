"""`sizing-bot ask --recipe` / `--recipe-dir`: the launch recipes after the reply, or written as files."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.core.pipeline import Answer


def _known_tools(wanted: list[str] | None) -> list[str] | None:
    """The tools asked for that have recipes; the others are named on stderr (axolotl, TRL, lmdeploy, TGI,
    Unsloth: their configs are read, not written). None (all) when none of those asked has one."""
    from bot.recipes import TOOLS

    if not wanted:
        return wanted
    unknown = [t for t in wanted if t not in TOOLS]
    if unknown:
        print(
            f"note: no launch recipe for {', '.join(unknown)} (recipes are written for {', '.join(TOOLS)}); "
            "showing the recipes for this answer",
            file=sys.stderr,
        )
    known = [t for t in wanted if t in TOOLS]
    return known or None


def write_recipes(result: Answer, tools: str | None, directory: str | None, show: bool = True) -> bool:
    """Print the answer's recipes (those of ``tools``, else those the question asked for, else all) after
    the reply, and write them into ``directory``. False when the files cannot be written."""
    from bot.recipes import build_recipes, matching
    from bot.recipes.present import as_text, write_files

    recipes = build_recipes(result.report, result.lang)
    wanted = None if tools in (None, "all") else [t.strip().lower() for t in tools.split(",")]
    if tools is None:
        wanted = result.parsed.recipe_tools
    wanted = _known_tools(wanted)
    recipes = matching(recipes, wanted)
    if not recipes:
        if result.understood:  # in the reply's language (s42 trial #12: English under a Chinese reply)
            from bot.recipes import TOOLS
            from bot.render.i18n import N_, translate

            note = N_(
                "note: no launch recipe for this answer: nothing fits as sized, or none of the tools I write "
                "recipes for (%(tools)s) runs this method or layout"
            )
            print(translate(result.lang, note, tools=", ".join(TOOLS)), file=sys.stderr)
        return True
    shown = show and (tools is not None or result.parsed.recipe_tools is not None)
    from bot.cli import write_answer

    if shown and write_answer("\n" + as_text(recipes), "text") is not None:  # one line said why
        return False
    if directory:
        try:
            paths = write_files(recipes, directory)
        except OSError as exc:
            print(f"error: cannot write the recipes to {directory}: {exc.strerror or exc}", file=sys.stderr)
            return False
        print("wrote " + ", ".join(str(p) for p in paths), file=sys.stderr)
    return True
