"""How long the visible part of common answers is on a phone (issue #22, item 10).

The visible part is what Telegram shows before the reader taps the collapsed details: the reply's HTML
outside ``<blockquote expandable>``. Wrapped lines are counted for a 390 px wide phone screen: about
40 Latin or 24 CJK characters per line (a CJK character is 40/24 Latin widths); a blank line is one
line. One phone screen is about 18–20 such lines (:data:`SCREEN_LINES`).

    python bench/visible_length.py          # prints a table: question, characters, wrapped lines
"""

from __future__ import annotations

import html
import math
import re
import sys
import unicodedata

LINE_WIDTH = 40.0
"""Latin characters per wrapped line on a 390 px phone screen (Telegram's default text size)."""
CJK_WIDTH = LINE_WIDTH / 24
"""Width of one CJK (full-width) character in Latin widths: 24 fit a line."""
SCREEN_LINES = 20
"""Wrapped lines that fit one phone screen (≈ 18–20 lines of text above the keyboard/buttons)."""

QUESTIONS: dict[str, list[tuple[str, str]]] = {
    "zh": [
        ("pre-training", "7B模型1万亿token要多少A100"),
        ("fine-tune memory", "全参微调Qwen2.5-14B要多少显存"),
        ("QLoRA consumer", "QLoRA微调Qwen2.5-32B，一张4090够吗"),
        ("serving GPUs", "部署Qwen2.5-72B推理需要几张A100，100并发"),
        ("serving cost", "用H20部署Qwen2.5-32B，每百万token多少钱？"),
        ("tokens/s", "Qwen2.5-7B在一张4090上每秒能生成多少token"),
        ("concurrency", "2张A100部署Qwen2.5-32B能支持多少并发"),
        ("budget → model", "10万元预算能训多大的模型"),
        ("deadline → GPUs", "30天内预训练7B模型1万亿token，需要多少张H800"),
        ("rental price", "租8张H100一个月多少钱"),
    ],
    "en": [
        ("pre-training", "How many A100s to pre-train a 7B model on 1T tokens?"),
        ("fine-tune memory", "How much GPU memory to fully fine-tune Qwen2.5-14B?"),
        ("QLoRA consumer", "Can I QLoRA fine-tune Qwen2.5-32B on one RTX 4090?"),
        ("serving GPUs", "How many A100s to serve Llama-3.1-70B for 100 users?"),
        ("serving cost", "What does it cost per million tokens to serve Qwen2.5-72B on H100?"),
        ("tokens/s", "How many tokens/s does Qwen2.5-7B generate on one RTX 4090?"),
        ("concurrency", "How many concurrent users can 2 A100 serve Qwen2.5-32B?"),
        ("budget → model", "What is the largest model I can train with a $20,000 budget?"),
        ("deadline → GPUs", "How many H100s to pre-train a 7B model on 1T tokens in 30 days?"),
        ("rental price", "How much does it cost to rent 8 H100 for 30 days?"),
    ],
}
"""Ten common questions per language: pre-training, fine-tune memory, QLoRA on a consumer card,
serving GPUs, serving cost per million tokens, tokens/s, concurrency, budget → model,
deadline → GPUs, rental price."""

_QUOTE_RE = re.compile(r"<blockquote expandable>.*?</blockquote>", re.S)
_TAG_RE = re.compile(r"<[^>]*>")


def visible_text(reply_html: str) -> str:
    """The reply as the reader sees it before expanding the details: tags dropped, entities decoded."""
    text = html.unescape(_TAG_RE.sub("", _QUOTE_RE.sub("", reply_html)))
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def char_width(ch: str) -> float:
    """Width of one character in Latin widths (full-width and wide characters count 40/24)."""
    return CJK_WIDTH if unicodedata.east_asian_width(ch) in ("W", "F") else 1.0


def wrapped_lines(text: str) -> int:
    """Lines the text takes on a 390 px screen: each line wrapped at :data:`LINE_WIDTH`."""
    total = 0
    for line in text.splitlines():
        width = sum(char_width(ch) for ch in line)
        total += max(1, math.ceil(width / LINE_WIDTH))
    return total


def measure(question: str, lang: str) -> tuple[str, int, int]:
    """(first visible line, characters, wrapped lines) of the HTML reply to ``question``."""
    from bot.core.pipeline import Context, answer
    from bot.render.renderer import render

    reply = render(answer(question, Context(fixed_lang=lang)), "html")
    text = visible_text(reply)
    return text.splitlines()[0], len(text), wrapped_lines(text)


def main() -> int:
    print("| lang | question | visible chars | wrapped lines (390 px) | line 1 |")
    print("|---|---|---|---|---|")
    worst = 0
    for lang, questions in QUESTIONS.items():
        for kind, question in questions:
            first, chars, lines = measure(question, lang)
            worst = max(worst, lines)
            print(f"| {lang} | {kind}: {question} | {chars} | {lines} | {first} |")
    print(f"\nmost wrapped lines: {worst} (one phone screen: {SCREEN_LINES})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
