"""Several values of one setting in one message, a row each (session 39, branch s39-lists, issue 24;
docs/design.md §8: several options in one question get one row each).

Session 36 gave GPU counts, loads, contexts, batch sizes and card memories a row per value
(report.per_value). This part adds the lists those rows did not read: a count list joined by 还是 / 或者
('1、2 还是 4 张卡'), weight formats ('fp16 / int8 / int4', 'fp16、int8 还是 int4'), model sizes with no
model named ('7B/13B/70B 分别', 'a 7B, 13B or 70B model'), one family's sizes ('Qwen2.5-7B、14B、32B',
'Qwen2.5-7B vs 14B': the catalog's models compared, report.compared_models), and a LoRA said to need
QLoRA ('据说要用 QLoRA 才跑得动'). Must not misread: a range ('2~4 张', '7-8B'), a repository path
('Qwen/Qwen2.5-7B'), a refused value ('不要 fp16，int8 就够了'). Sentences of our own, both languages."""

from __future__ import annotations

from typing import Any

import pytest

from tests.real_questions import answer_json, key_understood


def _rows(answer: dict[str, Any]) -> list[tuple[str, Any]]:
    return [(r["setting"], r["value"]) for r in answer["report"]["per_value"]]


def _row(answer: dict[str, Any], value: Any) -> dict[str, Any]:
    return next(r for r in answer["report"]["per_value"] if r["value"] == value)


def _ignored(answer: dict[str, Any]) -> list[str]:
    return [i["text"] for i in answer["interpretation"].get("ignored") or []]


# 1. counts joined by 还是 / 或者: the written list, a row per count


@pytest.mark.parametrize(
    "text",
    ["LoRA 微调 Qwen2-7B 用 1、2 还是 4 张 A100", "LoRA 微调 Qwen2-7B 用 1、2 或者 4 张 A100"],
)
def test_a_zh_count_list_joined_by_haishi_has_a_row_each(text: str) -> None:
    answer = answer_json(text)
    assert _rows(answer) == [("gpu_count", 1), ("gpu_count", 2), ("gpu_count", 4)]
    assert key_understood("gpu_count", [1, 2, 4], answer)
    assert not any(t in ("1", "2") for t in _ignored(answer))  # no count left unread


def test_two_counts_joined_by_haishi_are_the_range() -> None:
    req = answer_json("LoRA 微调 Qwen2-7B 用 2 还是 4 张 A100")["request"]
    assert (req["gpu_count"], req["gpu_count_max"]) == (2, 4)  # as '2 或 4 张' is


# 2. weight formats: a row per format, each the format asked alone


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("Llama 3 70B 推理用 fp16、int8 还是 int4，各要多少显存", ["fp16", "int8", "int4"]),
        ("how much VRAM to serve Llama 3 70B at fp16 / int8 / int4?", ["fp16", "int8", "int4"]),
        ("serve Qwen2.5-32B on H100 in bf16 or fp8?", ["bf16", "fp8"]),
        ("Qwen2.5-72B 用 int4 和 int8 分别要几张 4090", ["int4", "int8"]),
        ("run Qwen2.5-14B on a 4090 with llama.cpp at Q4_K_M or Q8_0?", ["q4_k_m", "q8_0"]),
        ("4-bit or 8-bit Llama 3 70B on 2 3090s?", ["int4", "int8"]),  # a width read as its format
    ],
)
def test_each_weight_format_listed_has_a_row(text: str, values: list[str]) -> None:
    answer = answer_json(text)
    assert _rows(answer) == [("precision", v) for v in values]
    assert answer["request"]["values_listed"] == [v for v in values if v != answer["request"]["precision"]]
    assert key_understood("precision", values, answer)
    assert not any(t.startswith("precision:") for t in _ignored(answer))  # each used in its row


def test_a_format_row_is_that_format_asked_alone() -> None:
    rows = answer_json("how much VRAM to serve Llama 3 70B at fp16 / int8 / int4?")
    for fmt in ("int8", "int4"):
        alone = answer_json(f"how much VRAM to serve Llama 3 70B at {fmt}?")["report"]["inference"]
        row = _row(rows, fmt)
        assert row["gpus"] == alone["serving_gpus"]
        assert row["memory_gib"] == round(alone["bytes_per_gpu"] / 2**30, 1)
    # the weights alone, 70.6e9 parameters: 2 bytes at fp16 = 131.5 GiB, 1 byte at int8 = 65.8 GiB
    fp16, int8 = _row(rows, "fp16"), _row(rows, "int8")
    assert fp16["memory_gib"] * fp16["gpus"] > 70.6e9 * 2 / 2**30
    assert int8["memory_gib"] * int8["gpus"] > 70.6e9 / 2**30
    assert int8["memory_gib"] * int8["gpus"] < fp16["memory_gib"] * fp16["gpus"]


def test_format_rows_are_written_in_the_reply() -> None:
    zh = answer_json("Llama 3 70B 推理用 fp16、int8 还是 int4，各要多少显存")["reply"]
    en = answer_json("how much VRAM to serve Llama 3 70B at fp16 / int8 / int4?")["reply"]
    assert "INT8 权重" in zh and "INT4 权重" in zh
    assert "INT8 weights" in en and "INT4 weights" in en


# 3. model sizes with no model named: a row per size


@pytest.mark.parametrize(
    ("text", "sizes"),
    [
        ("7B/13B/70B 的模型推理分别需要多少显存", [7e9, 13e9, 70e9]),
        ("serve a 7B, 13B or 70B model on A100, how many GPUs?", [13e9, 7e9, 70e9]),
        ("8B 和 70B 模型用 4090 推理分别要几张卡", [8e9, 70e9]),
    ],
)
def test_each_model_size_listed_has_a_row(text: str, sizes: list[float]) -> None:
    answer = answer_json(text)
    assert sorted(_rows(answer)) == sorted(("params_total", s) for s in sizes)
    assert _rows(answer)[0] == ("params_total", answer["request"]["params_total"])  # the sized one first
    labels = [f"{s / 1e9:g}B" for s in sizes]
    assert key_understood("model", labels, answer)
    assert not any(t.startswith("model:") for t in _ignored(answer))  # each sized in its row


def test_a_size_row_is_that_size_asked_alone() -> None:
    rows = answer_json("7B/13B/70B 的模型推理分别需要多少显存")
    alone = answer_json("13B 的模型推理需要多少显存")["report"]["inference"]
    assert _row(rows, 13e9)["memory_gib"] == round(alone["bytes_per_gpu"] / 2**30, 1)
    assert _row(rows, 13e9)["gpus"] == alone["serving_gpus"]
    # 70e9 parameters × 2 bytes (bf16) = 130.4 GiB of weights: more than one 80 GB card holds
    big = _row(rows, 70e9)
    assert big["gpus"] >= 2 and big["memory_gib"] * big["gpus"] > 70e9 * 2 / 2**30


def test_size_rows_are_written_in_the_reply() -> None:
    zh = answer_json("7B/13B/70B 的模型推理分别需要多少显存")["reply"]
    en = answer_json("serve a 7B, 13B or 70B model on A100, how many GPUs?")["reply"]
    assert "70B 模型" in zh and "13B 模型" in zh
    assert "a 70B model" in en and "a 7B model" in en


# 4. one family's sizes: the catalog's models, compared side by side


@pytest.mark.parametrize(
    ("text", "models"),
    [
        ("Qwen2.5-7B vs 14B, which fits on a 4090?", ["Qwen2.5-7B", "Qwen2.5-14B"]),
        ("Qwen2.5-7B、14B、32B 推理各要几张 4090", ["Qwen2.5-7B", "Qwen2.5-14B", "Qwen2.5-32B"]),
        # three models named in full, as two are compared (s36)
        (
            "Qwen2.5-7B、Qwen2.5-14B 还是 Qwen2.5-32B，哪个适合一张 4090？",
            ["Qwen2.5-7B", "Qwen2.5-14B", "Qwen2.5-32B"],
        ),
        (
            "compare Llama-3.1-8B, Qwen2.5-7B and Mistral-7B for LoRA on one A100",
            ["Llama-3.1-8B", "Qwen2.5-7B", "Mistral-7B"],
        ),
    ],
)
def test_a_family_size_list_compares_the_catalog_models(text: str, models: list[str]) -> None:
    answer = answer_json(text)
    assert [r["model"] for r in answer["report"]["compared_models"]] == models
    assert not any(t.startswith("model:") for t in _ignored(answer))


# 5. a LoRA said to need QLoRA: both methods, a row each


@pytest.mark.parametrize(
    "text",
    [
        "用 LoRA 微调 Qwen-7B，V100 单卡显存不够，据说要用 QLoRA 才跑得动？",
        "LoRA 微调 Qwen2-7B 在 4090 上 OOM，是不是得用 QLoRA 才行",
    ],
)
def test_a_method_said_to_be_needed_is_compared(text: str) -> None:
    answer = answer_json(text)
    assert answer["request"]["methods"] == ["lora", "qlora"]
    assert key_understood("method", ["lora", "qlora"], answer)


# 6. a list beside numbers of something else: the list's own values


def test_a_load_list_beside_other_numbers_has_a_row_each() -> None:
    answer = answer_json("2 台 64G 的机器部署 Qwen2.5-72B，100、120、150 并发都通过了，显存一直涨")
    assert _rows(answer) == [("concurrency", 100), ("concurrency", 120), ("concurrency", 150)]


# 7. must not misread


@pytest.mark.parametrize(
    "text",
    [
        "LoRA 微调 Qwen2-7B 用 2~4 张 A100",  # a range of counts, not a list
        "fine-tune a 7-8B model on 2 to 4 A100",  # ranges
        "部署 Qwen/Qwen2.5-7B-Instruct 要多少显存",  # a repository path, not two models
        "不要 fp16，int8 就够了吗？Llama 3 70B 推理",  # a refused format
        "I served Qwen2.5-7B last week at bf16; now int4 on a 4090?",  # a setup before, not a list
        "ran a 7B last month; now 70B on 8 A100, how long for 1B tokens?",  # an earlier model, not a list
    ],
)
def test_no_rows_where_no_list_is_written(text: str) -> None:
    assert _rows(answer_json(text)) == []


def test_models_mentioned_before_are_not_compared() -> None:
    answer = answer_json("I ran Qwen2.5-7B and Llama-3.1-8B last month. Now Qwen2.5-32B on 2 A100?")
    assert answer["request"]["model"] == "Qwen2.5-32B"
    assert answer["report"]["compared_models"] == []
    assert {"model: Qwen2.5-7B", "model: Llama-3.1-8B"} <= set(_ignored(answer))  # named, not sized


def test_a_repository_path_is_one_model() -> None:
    answer = answer_json("部署 Qwen/Qwen2.5-7B-Instruct 要多少显存")
    assert answer["request"]["model"] == "Qwen2.5-7B"
    assert answer["report"]["compared_models"] == []


def test_rows_are_capped_and_the_rest_named() -> None:
    from bot.parse.value_list import MAX_ROWS

    sizes = "1B/3B/7B/8B/13B/14B/32B/70B"
    answer = answer_json(f"{sizes} 的模型推理分别需要多少显存")
    rows = [v for _, v in _rows(answer)]
    assert len(rows) == MAX_ROWS == 6
    assert rows[0] == answer["request"]["params_total"] == 70e9  # the sized one first, then the list in order
    assert rows[1:] == [1e9, 3e9, 7e9, 8e9, 13e9]
    left = [t for t in _ignored(answer) if t.startswith("model:")]
    assert left == ["model: 14B", "model: 32B"]  # beyond the cap: named as not sized, never dropped


@pytest.mark.parametrize(
    "text",
    [
        "full finetune Llama 3 8B on 8 A100 in bf16 or fp16?",  # a training's formats: no rows
        "pretrain a 7B on 1T tokens in fp8 or bf16 on H100",
        "部署 DeepSeek-R1-Distill-Qwen-32B，fp16/bf16 需要多少显存",  # one width written two ways
        "跑 7B，14B 能放下吗？",  # two clauses, not a list (tests/test_s36_gen.py)
    ],
)
def test_no_format_or_size_rows(text: str) -> None:
    assert _rows(answer_json(text)) == []
