"""The command line's arguments: the parser of ``sizing-bot`` and its subcommands, and the reordering that
lets an ``ask`` question start with "-" (:func:`question_first`), and the arguments of a plain ``ask
QUESTION`` read without argparse (:func:`plain_ask`). Used by :mod:`bot.cli`."""

from __future__ import annotations

from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import argparse  # imported in parser(): a plain ``ask`` does not load argparse

LANG_CHOICES = ["zh", "zh-Hant", "zh-Hans", "en"]
"""``--lang``: the keys of bot.core.script.LANG_TAGS (zh-Hant: a Chinese reply in Traditional, s38)."""
ASK_DEFAULTS = {
    "command": "ask",
    "lang": None,
    "fmt": "text",
    "chart": None,
    "recipe": None,
    "recipe_dir": None,
    "config_path": None,
    "presales": None,
    "quote": None,
}
"""What :func:`parser` ("ask") gives every option of an ``ask`` line that names none (its defaults);
tests/test_startup_deferred.py compares :func:`plain_ask` with argparse over lines without options."""


def plain_ask(words: list[str]) -> SimpleNamespace | None:
    """The arguments of ``words`` (:func:`question_first`'s list) when it is an ``ask`` with a question and
    no option (``["ask", "--", *question]``, the "--" added by :func:`question_first`): the namespace
    argparse would give, built without importing argparse (its module, ``gettext``'s catalog search
    and ``locale``, and the parser: ~12M instructions of a plain ``sizing-bot ask``, measured
    2026-12-04, bench/RESULTS.md); None for any other line, which :func:`parser` reads."""
    if len(words) < 3 or words[0] != "ask" or words[1] != "--" or "--" in words[2:]:
        return None
    return SimpleNamespace(**ASK_DEFAULTS, question=words[2:])


def parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; ``command`` (the first argument): ``"ask"`` gives the parser with the
    ``ask`` subcommand only, which parses any ``ask …`` line as the full parser does (argparse hands
    everything after the subcommand's name to its own parser), without building the five others (~5M
    instructions of ``sizing-bot ask``'s start-up, measured 2026-12-04, bench/RESULTS.md)."""
    import argparse

    p = argparse.ArgumentParser(prog="sizing-bot", description="LLM compute sizing assistant")
    sub = p.add_subparsers(dest="command", required=True)
    ask = sub.add_parser("ask", help="answer one question (reads standard input when none is given)")
    ask.add_argument("question", nargs="*", help="the question, e.g. 7B模型1万亿token要多少A100")
    ask.add_argument(
        "--lang", choices=LANG_CHOICES, help="reply language (default: the question's; zh-Hant: Traditional)"
    )
    formats = ["text", "html", "json", "markdown", "plain", "telegram_html"]  # html/text: telegram_html/plain
    ask.add_argument("--format", choices=formats, default="text", dest="fmt", help="reply markup, or JSON")
    ask.add_argument("--chart", metavar="PATH", help="also write the answer's chart as a PNG to PATH")
    ask.add_argument(
        "--recipe",
        nargs="?",
        const="all",
        metavar="TOOLS",
        help="print the launch recipes after the reply (all, or e.g. deepspeed,vllm)",
    )
    ask.add_argument("--recipe-dir", metavar="DIR", help="write the launch recipes as files into DIR")
    ask.add_argument(
        "--config",
        metavar="PATH",
        dest="config_path",
        help="a model's config.json (Hugging Face format): size that exact architecture; or a training or "
        "serving config or command line (LLaMA-Factory/axolotl/TRL/torchtune YAML, DeepSpeed JSON, vLLM, "
        "SGLang, lmdeploy, TGI, llama.cpp, torchrun/Megatron, Ollama Modelfile): read as your settings",
    )
    ask.add_argument(
        "--presales",
        metavar="FILE",
        help="the provider's offer (TOML, see presales.example.toml); default: $SIZING_BOT_PRESALES",
    )
    ask.add_argument(
        "--quote", metavar="PATH", help="also write a one-page PDF quote to PATH (needs an offer)"
    )
    if command == "ask":
        return p
    sub.add_parser(
        "run", help="start the bots whose credentials are set (Telegram, Feishu/Lark, DingTalk, WeCom)"
    )
    _chat_parser(sub, formats)
    preview = sub.add_parser(
        "preview",
        help="print what the bot would send on Feishu/Lark, WeCom, DingTalk or Telegram (JSON), no account",
    )
    preview.add_argument("platform", choices=["feishu", "wecom", "dingtalk", "telegram"])
    preview.add_argument(
        "message", nargs="+", help="messages in one chat, e.g. 7B模型1万亿token要多少A100 那H100呢"
    )
    serve = sub.add_parser("serve", help="start the web page and the JSON API (bot.web)")
    serve.add_argument("--host", help="address to listen on (default $SIZING_BOT_WEB_HOST or 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (default $SIZING_BOT_WEB_PORT or 8000)")
    health_cmd = sub.add_parser(
        "health",
        help="exit 0 when an answer can be made (and, in webhook mode, the webhook port accepts connections)",
    )
    health_cmd.add_argument(
        "--heartbeat",
        nargs="?",
        const="",
        metavar="FILE",
        help="probe the running bot instead: its heartbeat file (default $SIZING_BOT_HEARTBEAT) is fresh",
    )
    health_cmd.add_argument(
        "--max-age", type=float, default=None, metavar="SECONDS", help="oldest healthy heartbeat (default 60)"
    )
    validate = sub.add_parser("validate", help="compare time estimates with published training runs")
    validate.add_argument(
        "--runs", metavar="FILE", help="training_runs.json-shaped file (default: the shipped one)"
    )
    return p


def _chat_parser(sub: Any, formats: list[str]) -> None:
    """``sizing-bot chat``'s arguments (bot.cli_chat)."""
    chat = sub.add_parser(
        "chat",
        help="a conversation on the terminal: one question a line, follow-ups change the one before; "
        "/reset starts over, Ctrl-D ends",
    )
    chat.add_argument(
        "--lang", choices=LANG_CHOICES, help="reply language (default: each question's; zh-Hant: Traditional)"
    )
    chat.add_argument(
        "--format", choices=formats, default="text", dest="fmt", help="reply markup, or JSON Lines"
    )
    chat.add_argument(
        "--presales", metavar="FILE", help="the provider's offer (TOML); default: $SIZING_BOT_PRESALES"
    )


_ASK_OPTIONS_WITH_VALUE = (
    "--lang",
    "--format",
    "--chart",
    "--recipe-dir",
    "--config",
    "--presales",
    "--quote",
)


def _recipe_value(token: str | None) -> bool:
    """Whether ``token`` after ``--recipe`` names tools ("all", "deepspeed,vllm") rather than starting the
    question ("--recipe 8卡A100全参微调13B")."""
    from bot.recipes import TOOLS
    from bot.recipes.flags import READ_ONLY

    if not token:
        return False
    names = [t.strip().lower() for t in token.split(",")]
    return all(n in (*TOOLS, *READ_ONLY, "unsloth", "all") for n in names)


def question_first(argv: list[str]) -> list[str]:
    """``ask "-8张卡 …"``: a question may start with "-"; keep the known options, pass the rest as the
    question after ``--`` so argparse does not take it for an unknown option."""
    if not argv or argv[0] != "ask" or "--" in argv:
        return argv
    options: list[str] = []
    question: list[str] = []
    i = 1
    while i < len(argv):
        token = argv[i]
        if token in _ASK_OPTIONS_WITH_VALUE and i + 1 < len(argv):
            options += argv[i : i + 2]
            i += 2
            continue
        if token == "--recipe":  # a value only when it names tools
            nxt = argv[i + 1] if i + 1 < len(argv) else None
            options += [f"--recipe={nxt}"] if _recipe_value(nxt) else ["--recipe=all"]
            i += 2 if _recipe_value(nxt) else 1
            continue
        if token.startswith("--recipe="):
            options.append(token)
            i += 1
            continue
        if token in ("-h", "--help") or token.split("=", 1)[0] in _ASK_OPTIONS_WITH_VALUE:
            options.append(token)
        else:
            question.append(token)
        i += 1
    return ["ask", *options, "--", *question] if question else ["ask", *options]
