"""Several values of one setting in one message, a row each (session 36, branch s36-lists, issue 24).

'finetune on 1, 2 or 4 A100?', '并发 10、20、50 分别要几张卡', 'at 8k, 32k and 128k context', 'batch
size 1, 2 or 4', 'A2000 6GB 能跑吗？12GB 可以吗？': every value listed gets a row (report.per_value,
bot/core/per_value.py) with the figures the same question asked about that value alone gets; a range, a
list of models and a count of images are not such a list. Sentences of our own, both languages."""

from __future__ import annotations

from typing import Any

import pytest

from tests.real_questions import answer_json, key_understood


def _rows(answer: dict[str, Any]) -> list[tuple[str, float]]:
    return [(r["setting"], r["value"]) for r in answer["report"]["per_value"]]


def _row(answer: dict[str, Any], value: float) -> dict[str, Any]:
    return next(r for r in answer["report"]["per_value"] if r["value"] == value)


def _ignored(answer: dict[str, Any]) -> list[str]:
    return [i["text"] for i in answer["interpretation"].get("ignored") or []]


# 1. must read: each value listed has a row, with the figures of that value asked alone


@pytest.mark.parametrize(
    ("text", "setting", "values"),
    [
        ("LoRA finetune Llama 3 8B on 1, 2 or 4 A100?", "gpu_count", [1, 2, 4]),
        ("llama 3 8B 推理 用 2 或 4 张 4090", "gpu_count", [2, 4]),
        ("Qwen2-7B 推理，并发 10、20、50 分别要几张 4090", "concurrency", [10, 20, 50]),
        ("serve Llama 3 70B on 4 H100 at concurrency 16 and 32", "concurrency", [16, 32]),
        ("serve Llama 3 8B on one L40S at 8k, 32k and 128k context", "seq_len", [8192, 32768, 131072]),
        ("Qwen2-7B 推理，上下文 8k、32k 分别要多少显存", "seq_len", [8192, 32768]),
        ("Qwen2-7B 推理，A2000 6GB 能跑吗？12GB 可以吗？", "gpu_memory_gib", [6, 12]),
        ("LoRA finetune Qwen2 7B with batch size 1, 2 or 4 on a 4090", "batch_size", [1, 2, 4]),
        ("LoRA 微调 Qwen2-7B，4090，batch size 1、2、4 分别要多少显存", "batch_size", [1, 2, 4]),
    ],
)
def test_each_value_listed_has_a_row(text: str, setting: str, values: list[float]) -> None:
    answer = answer_json(text)
    assert _rows(answer) == [(setting, v) for v in values]
    sized = answer["request"][setting]
    assert answer["request"]["values_listed"] == [v for v in values if v != sized]
    assert key_understood(setting, values, answer)  # the scorer's ROW_KEYS rule
    for v in values:  # no value listed is left as 'ask separately'
        assert not any(t in (str(v), f"{setting}: {v}") for t in _ignored(answer)), v


def test_a_concurrency_row_is_that_concurrency_asked_alone() -> None:
    rows = answer_json("Qwen2-7B 推理，并发 10、20、50 分别要几张 4090")
    for n in (10, 50):
        alone = answer_json(f"Qwen2-7B 推理，并发 {n} 要几张 4090")["report"]["inference"]
        row = _row(rows, n)
        assert row["gpus"] == alone["serving_gpus"]
        assert row["memory_gib"] == round(alone["bytes_per_gpu"] / 2**30, 1)
        assert row["tokens_per_s"] == round(alone["decode_tokens_per_s"]["per_sequence"], 1)
    assert _row(rows, 50)["gpus"] == 2 and _row(rows, 10)["gpus"] == 1  # 50 sequences need a second 4090


def test_a_context_row_is_that_context_asked_alone() -> None:
    rows = answer_json("serve Llama 3 8B on one L40S at 8k, 32k and 128k context")
    alone = answer_json("serve Llama 3 8B on one L40S at 32k context")
    assert _row(rows, 32768)["memory_gib"] == round(alone["report"]["inference"]["bytes_per_gpu"] / 2**30, 1)
    # 16 sequences assumed, as alone: the weights fit, 6 of them at 32K (the reply's headline)
    assert _row(rows, 32768)["fits"] == alone["report"]["feasible"] == "yes"
    assert _row(rows, 32768)["memory_gib"] > 48  # all 16 sequences' KV cache: more than the card
    assert _row(rows, 8192)["memory_gib"] < _row(rows, 32768)["memory_gib"] < _row(rows, 131072)["memory_gib"]


def test_a_count_row_is_that_count_asked_alone() -> None:
    rows = answer_json("full finetune Llama 2 7B on 2, 4 or 8 A100 80GB")
    for n in (2, 8):
        alone = answer_json(f"full finetune Llama 2 7B on {n} A100 80GB")["report"]
        assert _row(rows, n)["fits"] == alone["feasible"]
        assert _row(rows, n)["memory_gib"] == round(alone["memory"]["per_gpu_bytes"] / 2**30, 1)
        assert _row(rows, n)["gpus"] == n


def test_the_rows_follow_the_headline_in_both_languages() -> None:
    en = answer_json("LoRA finetune Qwen2 7B with batch size 1, 2 or 4 on a 4090")["reply"].splitlines()
    assert en[1] == "Each value you listed:"
    assert en[2].startswith("• batch size 1: ") and en[4].startswith("• batch size 4: does not fit")
    zh = answer_json("Qwen2-7B 推理，并发 10、20、50 分别要几张 4090")["reply"]
    assert "你列出的每个取值：" in zh and "• 并发 50：需要 2 张卡" in zh
    assert "另一套配置" not in zh  # no value sent away to be asked separately


# 2. must not misread: a range, a list of models, a count of images, one value


@pytest.mark.parametrize(
    "text",
    [
        "finetune Llama 3 8B on 2–8 A100",  # a range of counts, not a list
        "用 2 到 8 张 A100 微调 llama 3 8B",
        "Llama 3 8B, Qwen2 7B or Mistral 7B on one 4090?",  # a list of models
        "Qwen2-7B、Qwen2-14B 和 Qwen2-72B 推理要几张 A100",
        "8 张 A100 训练 LLaVA 7B，100 万张图片",  # a count of cards beside a count of images
        "fine-tune LLaVA 7B on 2 A100 with 50,000 images",
        "Qwen2-7B 推理，并发 10 要几张 4090",  # one value
        "serve Llama 3 8B on one L40S at 32k context",
    ],
)
def test_no_rows_without_a_list_of_one_setting(text: str) -> None:
    answer = answer_json(text)
    assert answer["report"]["per_value"] == []
    assert answer["request"]["values_listed"] is None
    assert "Each value you listed" not in answer["reply"] and "你列出的每个取值" not in answer["reply"]


def test_a_list_without_its_rows_is_not_understood_by_rows() -> None:
    answer = answer_json("Qwen2-7B 推理，并发 10 要几张 4090")
    assert not key_understood("concurrency", [10, 20], answer)  # 20 has no row and is not named


def test_a_serving_row_says_how_many_of_the_load_fit() -> None:
    rows = answer_json("serve Llama 3 8B on one L40S at 8k, 32k and 128k context")
    alone = answer_json("serve Llama 3 8B on one L40S at 32k context")["report"]["inference"]
    row = _row(rows, 32768)
    assert (row["sequences_fit"], row["load"]) == (alone["max_concurrency"], alone["concurrency"]) == (6, 16)
    assert "• 32,768-token context: fits, holds 6 of the 16 sequences, " in rows["reply"]
    assert "holds" not in next(x for x in rows["reply"].splitlines() if x.startswith("• 8,192"))  # 24 fit


def test_markdown_rows_keep_their_line_breaks() -> None:
    from bot.core.pipeline import Context, answer
    from bot.render.renderer import render

    md = render(answer("LoRA finetune Qwen2 7B with batch size 1, 2 or 4 on a 4090", Context()), "markdown")
    assert "Each value you listed:\\\n• batch size 1: " in md
