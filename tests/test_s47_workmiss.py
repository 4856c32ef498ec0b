"""Session 47, workmiss: the working splits' remaining misses of rounds 1–42 by fault kind (issue 24
items 2, 4).

Kind 1 — an earlier-setup word AFTER its count ('We used 2 A100s before and now have 8 A100s',
'2 张 A100 是之前的配置，现在有 8 张'): the count sized was the earlier one
(bot.parse.earlier_counts.TRAILING_RE). The current count is sized; the past one is named ``other_setup``.

Kind 2 — a RoPE scaling method (YaRN, Peng et al. 2023, arXiv:2309.00071; LongRoPE; NTK-aware scaling) named
after 'with' was named as an unknown serving runtime ('runtime: YaRN'); it is a context-extension setting of
the model (Qwen2.5 config.json ``rope_scaling`` {"type": "yarn", "factor": 4}), never a tool.
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def _ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", "--", question])
    return json.loads(capsys.readouterr().out)


def _named(answer: dict) -> list[tuple[str, str]]:
    return [(i["text"], i["reason"]) for i in answer["interpretation"]["ignored"]]


# ---- kind 1: a past count after its 'before' word --------------------------------------------------------

_FT = "How long to fine-tune Llama-3-8B on 100M tokens?"
PAST_AFTER = [
    (f"We used 2 A100s before and now have 8 A100s. {_FT}", 8, "2"),
    (f"We used 2 A100s before and now have 8 of them. {_FT}", 8, "2"),
    ("We had 4 GPUs previously, now 16 H100s: how long to pretrain a 1B model on 20B tokens?", 16, "4"),
    ("I trained on 2 RTX 4090s earlier, but now I have 6 RTX 4090s. LoRA Qwen2.5-7B on 50M tokens?", 6, "2"),
    ("2 张 A100 是之前的配置，现在有 8 张，全参微调 Qwen2.5-7B 100M tokens 要多久？", 8, "2"),
    ("4 张 4090 是以前的机器，现在有 8 张 4090，LoRA 微调 Qwen2.5-7B 50M tokens 要多久？", 8, "4"),
    ("我们 2 台 A800 是原来的，现在有 6 张 A800，全参微调 Qwen2.5-7B 100M tokens 要多久？", 6, "2"),
]  # fmt: skip


@pytest.mark.parametrize(("question", "count", "past"), PAST_AFTER)
def test_past_count_after_its_word_is_named(capsys, question, count, past):
    a = _ask(capsys, question)
    assert a["request"]["gpu_count"] == count
    assert (past, "other_setup") in _named(a)


SAME_NOW = [
    ("We need 8 A100s before the deadline to fine-tune Llama-3-8B on 100M tokens, how long?", 8),
    ("Fine-tune Llama-3-8B on 8 A100s as before, 100M tokens, how long?", 8),
    ("Can 8 A100s fine-tune Llama-3-8B on 100M tokens before Friday?", 8),
    ("月底之前要在 8 张 A100 上全参微调 Qwen2.5-7B，100M tokens，要多久？", 8),
    ("和以前一样用 8 张 A100 全参微调 Qwen2.5-7B，100M tokens 要多久？", 8),
    ("8 张 A100 是现在的配置，全参微调 Qwen2.5-7B 100M tokens 要多久？", 8),
]


@pytest.mark.parametrize(("question", "count"), SAME_NOW)
def test_time_clause_or_same_setup_keeps_the_count(capsys, question, count):
    a = _ask(capsys, question)
    assert a["request"]["gpu_count"] == count
    assert not [t for t, why in _named(a) if why == "other_setup"]
