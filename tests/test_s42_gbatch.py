"""Session 42, part gbatch: the global batch of a long-context fine-tune, and the question 'which global
batch?' (trial s42 #7:
'全参微调 Qwen2.5-7B，128k 上下文，数据 5亿 token，32张H100，要多久，全局批大小多少合适'
answered 128 sequences, 16.8M tokens a step, ~30 optimizer steps for the whole run).

1. A fine-tune's default global batch is at most a pre-training step's 4,194,304 tokens (Llama 2 §2.2; Llama 2
   Long kept that many tokens per batch at 32,768-token sequences, Xiong et al. 2023 §2): only sequences over
   32,768 tokens take fewer than 128 (131,072 → 4,194,304 / 131,072 = 32; 65,536 → 64). 128 × 32,768 is
   exactly the cap, so 32K and shorter keep Alpaca's 128.
2. The question for the global batch (bot.parse.batch_asked) sets ``global_batch_asked``; the batch line then
   gives the optimizer steps: 500M ÷ (32 × 131,072) = 119.2 → 119, and at 128 sequences 500M ÷ 16,777,216 =
   29.8 → 30.
"""

from __future__ import annotations

import json

import pytest

Q33_ZH = "全参微调 Qwen2.5-7B，128k 上下文，数据 5亿 token，32张H100，要多久，全局批大小多少合适"
Q33_EN = (
    "Full fine-tune Qwen2.5-7B at 128k context on 500M tokens with 32 H100s. How long, and what global "
    "batch should I use?"
)


def _ask(question: str, fmt: str = "text") -> str:
    from bot.cli import ask

    return ask(question, None, fmt)[0]


def _json(question: str) -> dict:
    return json.loads(_ask(question, "json"))


def _batch_assumption(d: dict) -> dict | None:
    return next((a for a in d["assumptions"] if a["field"] == "global_batch"), None)


# 1. the default batch of a long fine-tune -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "sequences", "why"),
    [
        (Q33_ZH, 32, "global_batch_finetune_long"),  # 4,194,304 / 131,072
        (Q33_EN, 32, "global_batch_finetune_long"),
        (
            "full fine-tune Qwen2.5-7B at 64k context on 500M tokens with 32 H100",
            64,
            "global_batch_finetune_long",
        ),
        ("全参微调 Qwen2.5-7B，64k 上下文，5亿 token，32 张 H100", 64, "global_batch_finetune_long"),
        # 128 × 32,768 = 4,194,304: at the cap, not over it — Alpaca's 128 stays
        (
            "full fine-tune Qwen2.5-7B at 32k context on 500M tokens with 32 H100",
            128,
            "global_batch_finetune",
        ),
        ("全参微调 Qwen2.5-7B，序列长度 2048，1亿 token，8 张 A100", 128, "global_batch_finetune"),
        # samples of 2,000 tokens unpacked: a sequence trains 2,000 tokens, 128 × 2,000 is far below the cap
        (
            "SFT Qwen2.5-7B, 128k context, 10k samples of 2000 tokens each, 8 H100",
            128,
            "global_batch_finetune",
        ),
    ],
)
def test_finetune_default_batch_capped_at_pretraining_step(question: str, sequences: int, why: str) -> None:
    d = _json(question)
    assert d["report"]["memory"]["plan"]["global_batch_sequences"] == sequences
    row = _batch_assumption(d)
    assert row is not None and row["why"] == why and row["value"] == sequences


def test_stated_batch_kept_at_long_context() -> None:
    d = _json("full fine-tune Qwen2.5-7B at 128k context on 500M tokens with 32 H100, global batch 64")
    assert d["report"]["memory"]["plan"]["global_batch_sequences"] == 64
    assert _batch_assumption(d) is None  # the user's, not assumed


def test_long_batch_assumption_cites_its_source_both_languages() -> None:
    zh, en = _ask(Q33_ZH), _ask(Q33_EN)
    assert "全局批大小（每步序列数）：32 — 每个优化步约 419万 token ÷ 每条序列 128K token" in zh
    assert "Xiong 等，2023，§2" in zh and "LongAlign" in zh
    assert "Global batch (sequences per step): 32 — about 4.2M tokens per optimizer step ÷ 128K tokens" in en
    assert "Xiong et al. 2023 §2" in en and "LongAlign" in en


# 2. 'which global batch?' read ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        Q33_ZH,
        "全参微调 Qwen2.5-7B，1亿 token，8 张 A100，全局 batch 设多少",
        "LoRA 微调 Llama-3-8B，batch size 设多大比较好",
        "预训练 1B 模型 100B token，批大小选多少",
        Q33_EN,
        "LoRA fine-tune Llama-3-8B on 20k samples, 8 A100, what batch size should I use?",
        "pretrain a 1B model on 100B tokens on 64 H100: how big should the global batch be?",
        "SFT Qwen2.5-7B on 100M tokens, recommended batch size?",
    ],
)
def test_batch_question_read(question: str) -> None:
    from bot.parse import parse

    assert parse(question).request.global_batch_asked is True


@pytest.mark.parametrize(
    "question",
    [
        "全参微调 Qwen2.5-7B，全局批大小 128，8 卡 A100，训多久",  # a stated batch
        "LoRA 微调 Llama-3-8B，batch size 8，要多久",
        "批量推理 Qwen2.5-7B，8 张 L4，每秒多少 token",  # batch inference, no batch asked
        "full fine-tune Qwen2.5-7B, global batch 256, 8 A100, how long?",
        "LoRA Llama-3-8B with batch size 8 on one A100, how much memory?",
        "what batch size of 8 gives on one A100 for Llama-3-8B LoRA",  # a batch with its number
        "batch inference of Llama-3-8B on 8 L4, how many requests per second?",
        "LoRA 微调 Llama-3-8B，8 张 A100，micro_batch_size 设多少",  # the per-GPU batch, not the step's
        "LoRA Llama-3-8B on 8 A100: what micro batch size fits?",
    ],
)
def test_stated_or_other_batch_not_a_batch_question(question: str) -> None:
    from bot.parse import parse

    assert parse(question).request.global_batch_asked is None


# 3. the answer on the first screen ----------------------------------------------------------------------


def test_batch_answer_zh() -> None:
    text = _ask(Q33_ZH)
    first = text.split("假设与来源")[0]
    assert "• 批大小：每步 32 条序列（419万 token）= 微批次 1 × 梯度累积 8 × DP 4" in first
    assert "→ 整个训练共 119 个优化步（5亿 token ÷ 每步 419万 token）" in first
    assert "按常用的 128 条序列，每步会是 1678万 token，只有 30 步" in first


def test_batch_answer_en() -> None:
    text = _ask(Q33_EN)
    first = text.split("Assumptions and sources")[0]
    assert "• Batch: 32 sequences per step (4.2M tokens) = micro-batch 1 × 8 accumulation × DP 4" in first
    assert "→ 119 optimizer steps over the run (500M tokens ÷ 4.2M tokens a step)" in first
    assert "the usual 128 sequences would be 16.8M tokens a step and 30 steps" in first


@pytest.mark.parametrize(
    ("question", "line"),
    [
        (
            "LoRA 微调 Qwen2.5-7B，2万条数据，每条 1000 token，8 张 A100，batch size 设多少",
            # 20,000 samples / 128 = 156.25; Alpaca's batch cited
            "→ 整个训练共 156 个优化步（2000万 token ÷ 每步 12.8万 token）。"
            "每步 128 条序列是 Stanford Alpaca",
        ),
        (
            "LoRA fine-tune Qwen2.5-7B on 20k samples of 1000 tokens, 8 A100, what batch size should I use?",
            "→ 156 optimizer steps over the run (20M tokens ÷ 128K tokens a step). "
            "128 sequences a step is the Stanford Alpaca",
        ),
        (
            "预训练 1B 模型，100B token，64 张 H100，全局 batch 设多少",
            # 100e9 / 4,194,304 = 23,841.9
            "→ 整个训练共 23,842 个优化步（1000亿 token ÷ 每步 419万 token）。每步约 400 万 token 是 Llama 2",
        ),
        (
            "pretrain a 1B model on 100B tokens with 64 H100, what global batch should I use?",
            "→ 23,842 optimizer steps over the run (100B tokens ÷ 4.2M tokens a step). "
            "About 4M tokens a step is Llama 2's global batch",
        ),
    ],
)
def test_steps_and_reason_at_ordinary_lengths(question: str, line: str) -> None:
    assert line in _ask(question)


@pytest.mark.parametrize(
    "question",
    [
        "全参微调 Qwen2.5-7B，128k 上下文，数据 5亿 token，32张H100，要多久",
        "Full fine-tune Qwen2.5-7B at 128k context on 500M tokens with 32 H100s. How long?",
    ],
)
def test_no_steps_line_unasked(question: str) -> None:
    text = _ask(question)
    assert "optimizer steps over the run" not in text and "整个训练共" not in text


def test_batch_question_is_a_cue_in_json() -> None:
    d = _json(Q33_EN)
    assert d["request"]["global_batch_asked"] is True
    assert not any("global_batch_asked" in str(row) for row in d["interpretation"]["ignored"])
