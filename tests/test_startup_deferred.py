"""Issue 23 item 7, start-up (session 18): bot and estimator modules that a plain ``sizing-bot ask`` runs
nothing of are imported where they are used, so that they do not creep back into every start: the
typed render contexts (for the type checker only), the launch recipes' model (a recipe is built only
for ``--recipe`` and the JSON contract), the config.json reader (only for a given config) and the
standard library's ``html`` (its entity table: only for a message with an '&', a Telegram length or
cut). Each stays reachable where it is used: the names, a recipe, a read config.json, an entity."""

from __future__ import annotations

import os
import subprocess
import sys
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
    "babel.support",  # session 24: the catalogs are bot.render.catalog_store.Catalog (no babel.dates)
    "babel.dates",
    "importlib.metadata",
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


# Session 19 (part s19-sp-boot): ``ask`` builds the parser of its own subcommand only, and the console
# script ends without the interpreter's teardown once its output is flushed.

ASK_LINES = (
    ["ask", "7B模型1万亿token要多少A100"],
    ["ask", "--lang", "en", "--format", "json", "--", "serve", "Llama-3-70B"],
    [
        "ask",
        "--recipe",
        "--recipe-dir",
        "out",
        "--config",
        "c.json",
        "--presales",
        "p.toml",
        "--quote",
        "q.pdf",
    ],
    ["ask", "--chart", "x.png", "--recipe=deepspeed,vllm", "--", "-8张卡A100训练7B"],
    ["ask"],
)


@pytest.mark.parametrize("line", ASK_LINES)
def test_the_ask_parser_reads_an_ask_line_as_the_full_parser_does(line: list[str]) -> None:
    from bot.cli_args import parser

    assert parser("ask").parse_args(line) == parser().parse_args(line)


def test_only_ask_gets_the_ask_only_parser() -> None:
    from bot.cli_args import parser

    def commands(p):  # the subcommands a parser knows
        [sub] = [a for a in p._actions if a.dest == "command"]
        return sorted(sub.choices)

    full = ["ask", "chat", "health", "preview", "run", "serve", "validate"]  # chat: s35-left2 #2
    assert commands(parser("ask")) == ["ask"]
    assert commands(parser()) == full and commands(parser("validate")) == full
    assert parser("validate").parse_args(["validate", "--runs", "r.json"]).runs == "r.json"


# Session 26 (part s26-spstart): a plain ``ask QUESTION`` (no option) is read without argparse.

PLAIN_LINES = (  # a line, and whether it is plain (read without argparse)
    (["ask", "7B模型1万亿token要多少A100"], True),
    (["ask", "serve", "Llama-3-70B", "on", "4", "H100"], True),
    (["ask", "-8张卡A100训练7B"], True),
    (["ask", "--", "--lang", "en"], True),
    (["ask", "--", "a", "--", "b"], False),
    (["ask", "--lang", "en", "7B"], False),
    (["ask", "--recipe", "7B"], False),
    (["ask", "-h"], False),
    (["ask"], False),
    (["validate"], False),
)


@pytest.mark.parametrize(("line", "plain"), PLAIN_LINES)
def test_a_plain_ask_line_reads_as_argparse_reads_it(line: list[str], plain: bool) -> None:
    from bot.cli_args import parser, plain_ask, question_first

    words = question_first(line)
    read = plain_ask(words)
    assert (read is not None) == plain
    if read is not None:
        assert vars(read) == vars(parser("ask").parse_args(words))


def test_a_plain_ask_imports_no_argparse_and_an_option_still_does() -> None:
    later = ("argparse", "locale")
    reply, loaded = ask_loaded(later, "7B模型1万亿token要多少A100")
    assert "A100" in reply and loaded == []
    reply, loaded = ask_loaded(later, "--lang", "en", "7B模型1万亿token要多少A100")
    assert "A100" in reply and "argparse" in loaded


def _console(question: str) -> subprocess.CompletedProcess[str]:
    """``sizing-bot ask QUESTION`` (``main()``, argv from sys.argv) with an ``atexit`` hook that would
    write TEARDOWN to stderr if the interpreter's teardown ran."""
    code = (
        "import atexit, sys\n"
        "atexit.register(lambda: print('TEARDOWN', file=sys.stderr))\n"
        f"sys.argv = ['sizing-bot', 'ask', {question!r}]\n"
        "from bot.cli import main\n"
        "sys.exit(main())\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SIZING_BOT_", "TELEGRAM_", "FEISHU_"))}
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def test_the_console_script_ends_without_teardown_its_answer_and_exit_code_whole() -> None:
    done = _console("7B模型1万亿token要多少A100")
    assert done.returncode == 0 and "TEARDOWN" not in done.stderr
    assert "A100" in done.stdout.splitlines()[0] and done.stdout.endswith("\n")
    assert "FLOPs" in done.stdout  # the last sections too: the buffer was flushed
    missed = _console("hello there")
    assert missed.returncode == 2 and "TEARDOWN" not in missed.stderr and missed.stdout.strip()
