"""Command line: ``sizing-bot ask …`` answers one question; ``sizing-bot run`` starts the Telegram bot."""

from __future__ import annotations

import argparse
import json
import sys

EXIT_OK = 0
EXIT_NOT_UNDERSTOOD = 2


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="sizing-bot", description="LLM compute sizing assistant")
    sub = p.add_subparsers(dest="command", required=True)
    ask = sub.add_parser("ask", help="answer one question (reads standard input when none is given)")
    ask.add_argument("question", nargs="*", help="the question, e.g. 7B模型1万亿token要多少A100")
    ask.add_argument("--lang", choices=["zh", "en"], help="reply language (default: the question's)")
    ask.add_argument("--format", choices=["text", "html", "json"], default="text", dest="fmt")
    sub.add_parser("run", help="start the Telegram bot (needs TELEGRAM_BOT_TOKEN)")
    return p


def ask(question: str, lang: str | None, fmt: str) -> tuple[str, int]:
    """Answer ``question``; returns (output text, exit code)."""
    from bot.answer import answer
    from bot.render import render

    result = answer(question, lang=lang)  # type: ignore[arg-type]
    code = EXIT_OK if result.understood else EXIT_NOT_UNDERSTOOD
    if fmt == "json":
        from bot.contract import to_json

        return json.dumps(to_json(result, render(result, "text")), ensure_ascii=False, indent=2), code
    return render(result, fmt), code  # type: ignore[arg-type]


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "run":
        from bot.config import BotSettings
        from bot.telegram import run

        return run(BotSettings())
    question = " ".join(args.question) if args.question else sys.stdin.read()
    out, code = ask(question, args.lang, args.fmt)
    print(out)
    return code


if __name__ == "__main__":
    sys.exit(main())
