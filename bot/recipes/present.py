"""Recipes as the CLI prints them (fenced blocks with their file names) and writes them (files)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from bot.recipes.model import Recipe


def as_text(recipes: Iterable[Recipe]) -> str:
    """Each recipe as ``### filename — title`` and a fenced block tagged with its language."""
    blocks = [f"### {r.filename} — {r.title}\n```{r.language}\n{r.text.rstrip()}\n```" for r in recipes]
    return "\n\n".join(blocks)


def write_files(recipes: Iterable[Recipe], directory: str | Path) -> list[Path]:
    """Write each recipe to ``directory/filename`` (the directory is created; shell scripts made
    executable). Returns the paths written."""
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for recipe in recipes:
        path = folder / Path(recipe.filename).name
        path.write_text(recipe.text, encoding="utf-8")
        if recipe.language == "bash":
            path.chmod(0o755)
        written.append(path)
    return written
