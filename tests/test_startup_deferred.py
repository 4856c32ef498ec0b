"""Issue 23 item 7, start-up (session 18): bot and estimator modules that a plain ``sizing-bot ask`` runs
nothing of are imported where they are used, so that they do not creep back into every start: the
typed render contexts (for the type checker only), the launch recipes' model (a recipe is built only
for ``--recipe`` and the JSON contract), the config.json reader (only for a given config) and the
standard library's ``html`` (its entity table: only for a message with an '&', a Telegram length or
cut). Each stays reachable where it is used: the names, a recipe, a read config.json, an entity."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.startup_probe import ask_loaded

ROOT = Path(__file__).resolve().parents[1]
DEFERRED = (
    "bot.render.contexts",
    "bot.recipes.model",
    "estimator.hf_config",
    "estimator.hf_families",
    "html",
    "html.entities",
)


def _ask(*args: str) -> tuple[str, list[str]]:
    return ask_loaded(DEFERRED, *args)


@pytest.mark.parametrize(
    ("question", "seen"),
    [
        ("7B模型1万亿token要多少A100", "A100"),
        ("serve Llama-3-70B on 4 H100 with vLLM, 32 users", "H100"),
    ],
)
def test_a_plain_question_imports_none_of_them(question: str, seen: str) -> None:
    reply, loaded = _ask(question)
    assert seen in reply and loaded == []


def test_a_json_answer_still_carries_its_recipes() -> None:
    reply, loaded = _ask("--format", "json", "7B模型1万亿token要多少A100")
    assert '"recipes"' in reply and "bot.recipes.model" in loaded


def test_the_deferred_names_are_still_there() -> None:
    from bot.core.configfile import read_config
    from bot.recipes import TOOLS, Recipe, build_recipes

    assert "deepspeed" in TOOLS and Recipe.__module__ == "bot.recipes.model"
    info = read_config(b'{"model_type": "llama"}')
    assert info.error == "missing_fields" and info.model_type == "llama"
    assert build_recipes(None) == []


def test_entities_are_still_read() -> None:
    from bot.parse.normalize import prepare
    from bot.render.html import truncate_html, visible_length

    assert prepare("7B &amp; 8&times;A100")[0] == prepare("7B & 8×A100")[0]
    assert visible_length("<b>a&amp;b</b>") == 3 and truncate_html("&lt;" * 10, 5) == "&lt;" * 4 + "…"
