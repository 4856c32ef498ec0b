"""s37-rev: what a design review of the s37 merge found, each with must-read and must-not-misread sentences.

1. a training verb anywhere wins over a batch job said in the same message (bot/parse/words.py
   TRAIN_VERB_RE): the job makes the training data;
2. a bit width said not to be used is skipped by a local machine's fallback format (estimator/serving.py,
   request.excluded_bits) and the headline says so; '要不要 4bit 量化？' asks, it negates nothing.
"""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.parse import parse
from estimator.models import Precision

# -- 1. a training verb wins over a batch job


@pytest.mark.parametrize(
    ("text", "stage"),
    [
        ("Label 200k examples with GPT-4, then train Qwen2 7B on 8 A100s", "finetune"),
        ("We need to label 200k examples and then train a 7B classifier", "pretrain"),
        (
            "Our team annotates 50k samples per day; we want to continue training Mistral 7B on them",
            "finetune",
        ),
        ("Can I train a model to classify 100k emails on one RTX 4090?", "pretrain"),
        ("先标注 5 万条数据，再用它们训练 Qwen2-7B", "finetune"),
        ("我们打算训一个分类模型，分类 10 万条评论", "pretrain"),
    ],
)
def test_a_training_verb_wins_over_a_batch_job(text: str, stage: str) -> None:
    assert parse(text).request.stage == stage


@pytest.mark.parametrize(
    "text",
    [
        "process 1M documents with Llama 3 8B, how many GPU hours?",
        "标注 5 万条数据 用 Qwen2-7B 要多久",
        "Label 200k examples with a model trained on legal text, Llama 3 8B on one A100",
        "用训练好的 Qwen2-7B 分类 10 万条评论，一张 A100",
    ],
)
def test_a_batch_job_without_a_training_verb_stays_inference(text: str) -> None:
    assert parse(text).request.stage == "inference"


# -- 2. a negated bit width


def test_an_excluded_width_is_skipped_by_the_local_fallback() -> None:
    p = parse("serve Llama 2 13B on one 3090 without 8-bit quantization")
    assert p.request.excluded_bits == 8 and p.request.precision is None
    report = answer("serve Llama 2 13B on one 3090 without 8-bit quantization").report
    # 13.0e9 × 2 B = 26 GB of bf16 over a 24 GB card; Q8_0 (8.5 bits) said not used → Q4_K_M
    assert report.request.precision is Precision.q4_k_m
    assert (report.feasible, report.feasible_reason) == ("borderline", "local_4bit_excluded")


def test_without_an_exclusion_the_fallback_is_q8() -> None:
    report = answer("serve Llama 2 13B on one 3090").report
    assert report.request.precision is Precision.q8_0


@pytest.mark.parametrize(
    ("text", "excluded"),
    [
        ("Llama 2 13B 一张 3090 推理，不要 8bit 量化", 8),
        ("Qwen2-7B 一张 4090 推理，不用 4bit 量化", 4),
        ("要不要 4bit 量化？Qwen2-7B 一张 3090", None),
        ("要不 4bit 量化试试，Qwen2-7B 一张 3090", None),
        ("要不用 4bit 量化？Qwen2-7B 一张 3090", None),
    ],
)
def test_a_question_is_no_negation(text: str, excluded: int | None) -> None:
    p = parse(text)
    assert p.request.excluded_bits == excluded
    if excluded is None:  # asked about: never named as not used
        assert "negated" not in str(p.notes) and p.request.precision is Precision.int4


# -- 4. the scorer: an assumed load is no serving batch; each price in its own card's row


def test_a_serving_batch_counts_only_against_a_stated_concurrency() -> None:
    from tests.real_questions import key_understood

    stated = {"request": {"stage": "inference", "concurrency": 16, "assumed_fields": []}}
    assumed = {"request": {"stage": "inference", "concurrency": 16, "assumed_fields": ["concurrency"]}}
    assert key_understood("batch_size", 16, stated)
    assert not key_understood("batch_size", 16, assumed)  # the default 16, not the user's batch


def test_each_price_must_be_its_own_cards() -> None:
    from tests.real_questions import key_understood

    def row(gpu: str, price: float) -> dict[str, object]:
        return {"gpu": gpu, "cost": {"price_source": "given", "price_low": price}}

    request = {"gpu": "H100-SXM5-80GB", "price_per_gpu_hour": 2.5}
    right = {"request": request, "report": {"comparisons": [row("A100-SXM4-80GB", 1.3)]}}
    swapped = {
        "request": {**request, "price_per_gpu_hour": 1.3},
        "report": {"comparisons": [row("A100-SXM4-80GB", 2.5)]},
    }
    one_row = {"request": request, "report": {"comparisons": []}}
    cards = ["H100", "A100"]
    assert key_understood("price_per_gpu_hour", [2.5, 1.3], right, cards)
    assert not key_understood("price_per_gpu_hour", [2.5, 1.3], swapped, cards)  # each card at the other's
    assert key_understood("price_per_gpu_hour", [2.5, 1.3], right)  # no cards stated: a row each
    assert not key_understood("price_per_gpu_hour", [2.5, 2.5], one_row)  # one row can't hold two prices


# -- 6. a memory= after a card word is the card's


@pytest.mark.parametrize(
    ("text", "card", "host"),
    [
        ("fine-tune Qwen2-7B with LoRA on a GPU with memory = 24GB", 24.0, None),
        ("显卡 memory=24GB 微调 Qwen2-7B LoRA", 24.0, None),
        ("my card has memory=16GB, serve Llama 3 8B", 16.0, None),
        ("docker run --gpus all --memory=32g vllm serve Qwen2-7B", None, 32.0),  # Docker's flag: the RAM
        (".wslconfig: memory=40GB, serve Qwen2-7B on a 4090", None, 40.0),  # no card word before it
    ],
)
def test_a_memory_key_after_a_card_word_is_the_cards(
    text: str, card: float | None, host: float | None
) -> None:
    q = parse(text).request
    assert (q.gpu_memory_gib, q.host_memory_gib) == (card, host)


# -- 7. an NPU keeps its vendor; Ascend is offered only for Huawei's or a bare one

ASCEND_OFFERED = ["Ascend 910C", "Ascend 910B", "Ascend 910", "Ascend 910B4"]
"""Huawei's catalog families, the most memory per card first (bot.parse.gpus._largest_families): the 32 GB
910B4 last since s49-verdict (estimator/data/gpus.toml Ascend-910B4, its own family)."""


@pytest.mark.parametrize(
    ("text", "typed", "offered"),
    [
        ("can I run Llama 3 8B on my laptop's Intel NPU?", "Intel NPU", []),
        ("AMD NPU run llama 3 8b", "AMD NPU", []),
        ("Qualcomm NPU llama 3 8b", "Qualcomm NPU", []),
        ("NPU 显存需要多少 Qwen2-7B", "NPU", ASCEND_OFFERED),
        ("华为 NPU 跑 Qwen2-7B", "华为 NPU", ASCEND_OFFERED),
        ("昇腾 NPU 跑 Qwen2-7B", "昇腾 NPU", ASCEND_OFFERED),
    ],
)
def test_an_npu_keeps_its_vendor(text: str, typed: str, offered: list[str]) -> None:
    p = parse(text)
    assert p.unknown_gpu == typed and p.gpu_suggestions == offered


def test_another_vendors_npu_is_never_sized_as_its_datacenter_card() -> None:
    from estimator.gpu_families import family_flagship

    assert family_flagship("Intel NPU") is None  # not the Gaudi 3
    assert family_flagship("AMD NPU") is None  # not the MI300X
    assert family_flagship("华为 NPU") == "Ascend-910B" and family_flagship("Intel Gaudi") == "Gaudi3"


# -- 8. a token budget flag in its space form, with no engine named


@pytest.mark.parametrize(
    "text",
    [
        "serve Qwen2-7B on one A100; I set --max-num-batched-tokens 8192",
        "serve Qwen2-7B on one A100; I set --max-num-batched-tokens=8192",
        "Qwen2-7B 一张 A100 推理，--max-num-batched-tokens 8192",
        "serve Qwen2-7B on one A100 with --chunked-prefill-size 8192",
    ],
)
def test_a_token_budget_flag_is_named_as_not_used(text: str) -> None:
    from bot.core.pipeline import answer as ask

    ignored = ask(text).interpretation.ignored
    assert [(i.text.split(":")[1].strip(), i.reason) for i in ignored if "8192" in i.text] == [
        ("8192", "no_field")
    ]


def test_a_context_in_tokens_is_no_token_budget() -> None:
    assert parse("serve Qwen2-7B on one A100, 8192 tokens context").request.seq_len == 8192


# -- 9. 'train batch N' in prose is the micro-batch; the key train_batch_size the global batch


@pytest.mark.parametrize(
    ("text", "micro", "global_batch"),
    [
        ("fine-tune Llama 3 8B, train batch 4, 8 A100", 4, None),
        ("微调 Llama 3 8B，训练 batch 4，8 张 A100", 4, None),
        ("fine-tune Llama 3 8B, train batch size 4, 8 A100", 4, None),
        (
            "ds train_batch_size: 512, train_micro_batch_size_per_gpu: 4, fine-tune Llama 3 8B on 8 A100",
            4,
            512,
        ),
        ("verl data.train_batch_size=256 GRPO Qwen2-7B 8 A100", None, 256),
        ("GRPO Qwen2-7B on 8 A100, train batch size 256", None, 256),  # RL tools: prompts a step
        ("PPO 训练 Qwen2-7B, train batch size 128, 8 张 A100", None, 128),
    ],
)
def test_train_batch_in_prose_is_the_micro_batch(
    text: str, micro: int | None, global_batch: int | None
) -> None:
    q = parse(text).request
    assert (q.batch_size, q.global_batch) == (micro, global_batch)


def test_the_train_batch_is_used_in_the_answer() -> None:
    report = answer("fine-tune Llama 3 8B, train batch 4, 8 A100").report
    assert report.memory.plan.micro_batch == 4
