"""s33 fix-b: defects a design review found in the merged tree (docs/design.md §8, the understanding
contract: an ordinary word is never reported as an unknown model)."""

from __future__ import annotations

import pytest

from bot.parse.uncased_names import english_word
from tests import real_questions as rq


def _read(text: str) -> tuple[dict, dict]:
    answer = rq.answer_json(text)
    return answer["request"], answer.get("interpretation") or {}


_WORDS = [
    "alpha", "beta", "film", "helm", "storm", "realm", "final", "new", "small", "custom", "base", "chat",
    "instruct", "release", "version", "draft",
]  # fmt: skip


@pytest.mark.parametrize("word", _WORDS)
def test_lower_case_english_word_after_article_and_size_is_no_name(word):
    request, it = _read(f"can i lora the 7b {word} model on a single 4090?")
    assert it.get("unknown_model") is None
    assert (request["params_total"], request["gpu"], request["gpu_count"]) == (7e9, "RTX-4090", 1)


@pytest.mark.parametrize(
    "text",
    [
        "lora the 8b alpha release on a 4090",
        "how much vram to run the 7b helm chart",
        "can a 4090 finetune the 7b storm model",
        "在 4090 上 lora 微调 the 7b film model 够吗",
        "部署 final 版本的 7b 模型要多少显存",
        "微调 storm 模型要几张 4090",
    ],
)
def test_sentences_name_no_model(text):
    assert _read(text)[1].get("unknown_model") is None


@pytest.mark.parametrize(
    ("text", "name", "params"),
    [
        ("can a 4090 finetune the 7b llava", "llava 7B", 7e9),
        ("serve the 8b llada model on a 4090", "llada 8B", 8e9),
        ("fine tune the 7b foollm on a 4090", "foollm 7B", 7e9),
        ("用 4090 lora 微调 the 8b llada model 够吗", "llada 8B", 8e9),
        ("用 4090 微调 llava 模型要多少显存", "llava", None),
        ("微调 bazvlm 要几张 4090？", "bazvlm", None),
    ],
)
def test_coined_names_still_read(text, name, params):
    request, it = _read(text)
    assert it["unknown_model"] == name
    assert request["params_total"] == params


def test_english_word_list():
    assert [english_word(w) for w in ("film", "Storm", "llava", "llada", "foollm")] == [
        True, True, False, False, False
    ]  # fmt: skip


def test_kept_searches_stay_bounded_over_many_batches_and_counts():
    """estimator.plan.kept_searches: one job asked at 200 global batches kept 4.2 MiB (one search each)
    before s33 fix-b; now at most KEPT_BATCHES searches (0.3 MiB measured), and a kept search's plans by
    count are cleared past KEPT_PLANS (200 counts kept every one of them)."""
    import tracemalloc

    from bot.parse import parse
    from estimator import estimate
    from estimator.search_keep import _KEPT, KEPT_BATCHES, KEPT_PLANS, forget_searches

    # LoRA: a full-training job's setup carries its global batch since s34 fixc #1 (one process accumulating
    # holds its gradients, estimator.late_gradients), so each batch is a job of its own there
    r = parse("lora fine-tune llama 3 8b on 8 a100 80gb").request
    estimate(r)
    forget_searches()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        for b in range(8, 8 + 200 * 8, 8):
            estimate(r.model_copy(update={"global_batch": b}))
        kept = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    assert kept < 1 * 2**20, kept
    assert [len(job[2]) for job in _KEPT.values()] == [KEPT_BATCHES]
    forget_searches()
    for n in range(1, 121):
        estimate(r.model_copy(update={"gpu_count": n}))
    plans = [len(s[0].plans) for job in _KEPT.values() for s in job[2].values()]
    assert plans and max(plans) <= KEPT_PLANS + 8, plans
    forget_searches()


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        # '用 … 和 …' before a job: one rig used together, every card counted (bot.parse.mixed_rig.rig_choice:
        # cards of the same memory sized on the slower, the 3090)
        ("用 3 张 4090 和 1 张 3090 跑 Qwen2.5-32B 推理够吗", "RTX-3090", 4),
        ("用 2 张 4090 和 2 张 3090 微调 Qwen2.5-7B 要多久", "RTX-3090", 4),
        # a fleet stays a fleet: the first card's count
        ("We have 8 H100s and 2 A100s, how long to pretrain a 7B on 1T tokens?", "H100-SXM5-80GB", 8),
        ("我们有 8 张 H100 和 2 张 A100，预训练 7B 要多久", "H100-SXM5-80GB", 8),
    ],
)
def test_yong_he_before_a_job_is_one_rig(text, gpu, count):
    request = _read(text)[0]
    assert (request["gpu"], request["gpu_count"]) == (gpu, count)


@pytest.mark.parametrize(
    ("text", "runtime"),
    [
        ("这种不同型号的 GPU：2 张 4090 和 1 张 3090 跑 llama.cpp 70B Q4", "llama.cpp"),
        ("can ollama 70b run on two 3090s?", "Ollama"),
        ("how much vram does vllm 8b serving take on one l40s?", "vLLM"),
    ],
)
def test_a_runtime_before_a_size_is_no_model(text, runtime):
    request, it = _read(text)
    assert it.get("unknown_model") is None
    assert request["runtime"] == runtime
