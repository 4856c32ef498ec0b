"""Session 47 fixreview: the review's blocking findings on the merged tree (/work/notes/s47/review/report.md).

B1: :func:`estimator.search_keep.kept_runtime` keeps a serving runtime's
:class:`estimator.runtimes.memo.MemoRuntime` across answers, so every memo key must hold every input its
value reads. The room (:meth:`MemoRuntime.room`) was filed under (PP, workspace key); vLLM's workspace key
drops the weights' precision, while DP attention's replicated bytes read it
(:meth:`estimator.runtimes.base.ServingRuntime.replicated_bytes`): an int4 question's room was reused for a
bf16 one ('24 GPUs needed' asked fresh, 'at least 16' after the int4 question). Each pair below asks A then
B in one process and compares B's JSON with B asked after :func:`forget_searches` (a fresh process's)."""

from __future__ import annotations

import contextlib
import io
import json

import pytest

from bot.cli import main
from estimator.search_keep import forget_searches


def _ask(question: str) -> dict:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        main(["ask", "--format", "json", "--", question])
    return json.loads(out.getvalue())


PAIRS = {
    "precision, DP attention, en": (
        "Serve Llama-3-70B int4 AWQ with vllm on 8 H100, dp attention, data parallel 8, 64 concurrent",
        "Serve Llama-3-70B with vllm on 8 H100, dp attention, data parallel 8, 64 concurrent",
    ),
    "precision, DP attention, zh": (
        "用 vllm 在 8 张 H100 上部署 Llama-3-70B int4 AWQ，dp attention，data parallel 8，64 并发",
        "用 vllm 在 8 张 H100 上部署 Llama-3-70B，dp attention，data parallel 8，64 并发",
    ),
    "DP attention or not, en": (
        "Serve Llama-3-70B with vllm on 8 H100, dp attention, data parallel 8, 64 concurrent",
        "Serve Llama-3-70B with vllm on 8 H100, 64 concurrent",
    ),
    "share, zh": (
        "用 vllm 在 2 张 H100 上部署 Llama-3-70B，gpu_memory_utilization 0.8，64 并发",
        "用 vllm 在 2 张 H100 上部署 Llama-3-70B，gpu_memory_utilization 0.95，64 并发",
    ),
    "max_num_batched_tokens, en": (
        "Serve Llama-3.1-8B with vllm on one L40S, max_num_batched_tokens 16384, 32 concurrent",
        "Serve Llama-3.1-8B with vllm on one L40S, 32 concurrent",
    ),
    "card, zh": (
        "用 vllm 在 2 张 A100 上部署 Qwen2.5-72B，32 并发",
        "用 vllm 在 2 张 H100 上部署 Qwen2.5-72B，32 并发",
    ),
    "model and runtime, en": (
        "Serve Qwen2.5-72B-Instruct-AWQ with sglang on 2 H100, dp attention, 32 concurrent",
        "Serve Qwen2.5-72B with vllm on 2 H100, dp attention, 32 concurrent",
    ),
}


@pytest.mark.parametrize("pair", list(PAIRS))
def test_an_answer_does_not_depend_on_the_question_asked_before(pair: str) -> None:
    first, second = PAIRS[pair]
    forget_searches()
    fresh = _ask(second)
    forget_searches()
    _ask(first)
    after = _ask(second)
    forget_searches()
    assert after == fresh, (after["reply"][:300], fresh["reply"][:300])


def test_the_dp_attention_answer_asked_fresh_is_the_one_the_review_saw() -> None:
    """The fresh answer of the review's pair: 24 GPUs (PP 3) for 64 sequences of bf16 Llama 3 70B with DP
    attention over 8 ranks; the stale one said 'at least 16'."""
    forget_searches()
    reply = _ask(PAIRS["precision, DP attention, en"][1])["reply"]
    assert "24 GPUs needed" in reply.splitlines()[0]


PER_MONEY = {
    "en": ("How many tokens per dollar can I get serving Qwen3-8B on one L40S?", "977K–1.95M"),
    "zh": ("在一张 L40S 上部署 Qwen3-8B，每块钱能生成多少 token？", "13万–31.3万"),
}


@pytest.mark.parametrize("lang", list(PER_MONEY))
def test_tokens_per_money_ends_keep_three_significant_digits(lang: str) -> None:
    """N3: 10⁶ ÷ the price per million output tokens, each end to three significant digits (the high end
    was '2M' for 1.95M, 2.5 % off, beside a three-digit low end)."""
    text, want = PER_MONEY[lang]
    reply = _ask(text)["reply"]
    assert want in reply


@pytest.mark.parametrize(
    "text",
    [
        "What is the price per million tokens serving Qwen3-8B on one L40S?",
        "在一张 L40S 上部署 Qwen3-8B，每百万 token 多少钱？",
    ],
)
def test_a_price_per_million_tokens_gets_no_tokens_per_money_line(text: str) -> None:
    reply = _ask(text)["reply"]
    assert "Tokens per dollar" not in reply and "每元能生成" not in reply
    assert "per million" in reply or "每百万" in reply


def test_tax_factor_is_net_to_gross() -> None:
    """N4: 含税价 = 不含税价 × (1 + 税率): 13 % VAT on ¥100 net is ¥113 gross."""
    from estimator.money_rates import tax_factor

    assert tax_factor(0.13) * 100 == pytest.approx(113.0)
    assert "net-to-gross" in (tax_factor.__doc__ or "")


RUNTIME_NOT_SIZED = {
    "en gguf": ("Run Llama-3-70B Q2_K with vLLM on one A100 40GB", "vLLM", "runtime_gguf"),
    "zh gguf": ("用 vLLM 在一张 A100 40GB 上跑 Llama-3-70B Q2_K", "vLLM", "runtime_gguf"),
    "en sglang gguf": ("Serve Qwen2.5-7B Q6_K with SGLang on one L40S", "SGLang", "runtime_gguf"),
    "en mac": ("Serve Llama-3-8B with vLLM on a Mac Studio M2 Ultra 192GB", "vLLM", "runtime_unified_memory"),
    "zh mac": ("用 vLLM 在 M2 Ultra 192GB 的 Mac Studio 上部署 Llama-3-8B", "vLLM", "runtime_unified_memory"),
}


@pytest.mark.parametrize("case", list(RUNTIME_NOT_SIZED))
def test_a_runtime_named_but_not_sized_is_said_and_the_headline_names_one(case: str) -> None:
    """B7: GGUF formats and unified-memory cards are sized under llama.cpp's memory model
    (estimator.runtimes.runtime_for); a server named beside them is a substitution said
    (``interpretation.substitutions``), and the headline names llama.cpp alone, not '(vLLM) … (llama.cpp)'."""
    text, named, reason = RUNTIME_NOT_SIZED[case]
    out = _ask(text)
    head = out["reply"].splitlines()[0]
    assert f"({named})" not in head and f"（{named}）" not in head, head
    assert "llama.cpp" in head, head
    subs = out["interpretation"]["substitutions"]
    assert {"typed": named, "used": "llama.cpp", "reason": reason} in subs
    assert out["request"]["runtime"] == named  # what was said, as the contract keeps it


NOT_SUBSTITUTED = {
    "en llama.cpp gguf": ("Run Llama-3-70B Q4_K_M with llama.cpp on one A100 80GB", "llama.cpp"),
    "zh ollama gguf": ("用 Ollama 在一张 4090 上跑 Qwen2.5-14B Q4_K_M", "Ollama"),
    "en vllm awq": ("Run Llama-3-70B AWQ with vLLM on one A100 80GB", "vLLM"),
    "zh vllm int4": ("用 vLLM 在一张 A100 80GB 上部署 Llama-3-70B int4", "vLLM"),
}


@pytest.mark.parametrize("case", list(NOT_SUBSTITUTED))
def test_a_runtime_sized_as_named_is_no_substitution(case: str) -> None:
    text, named = NOT_SUBSTITUTED[case]
    out = _ask(text)
    reasons = {s["reason"] for s in out["interpretation"]["substitutions"]}
    assert not reasons & {"runtime_gguf", "runtime_unified_memory"}, reasons
    assert named in out["reply"].splitlines()[0]


COUNTS_COMPARED = {
    "en vs": ("Serve Llama-3-70B on 4 H100s vs 8 H100s, what is the difference in throughput?", [4, 8]),
    "en running on": ("Llama-3-8B on 1 GPU vs running on 2 GPUs (RTX 4090), which is faster?", [1, 2]),
    "en setup": ("Can I run Llama-3-8B Q6_K on a 1 GPU vs 2 GPUs setup with an RTX 4090?", [1, 2]),
    "zh vs": ("Llama-3-8B 用 1 张卡 vs 2 张卡（RTX 4090），哪个快？", [1, 2]),
    "zh or": ("用 transformers 推理 internlm-20b-4bit，两卡或三卡 3090 能部署吗？", [2, 3]),
}


@pytest.mark.parametrize("case", list(COUNTS_COMPARED))
def test_serving_counts_compared_get_a_row_each(case: str) -> None:
    """B6: a count pair read as a range (gpu_count … gpu_count_max) in a serving question: a serving answer
    has no GPUs → days table, so each count gets its row in ``report.per_value`` (was: the second silent)."""
    text, counts = COUNTS_COMPARED[case]
    out = _ask(text)
    assert out["request"]["stage"] == "inference"
    rows = [(r["setting"], r["value"]) for r in out["report"]["per_value"]]
    assert rows == [("gpu_count", c) for c in counts], rows


def test_a_training_count_range_keeps_its_days_table_not_rows() -> None:
    """Must not move: a training range ('on 8 to 16 H100s') is the GPUs → days table, no per-value rows."""
    out = _ask("Fine-tune Llama-3-8B on 1B tokens on 8 to 16 H100s, how long?")
    assert out["request"]["stage"] != "inference"
    assert not out["report"]["per_value"]


def test_a_single_serving_count_gets_no_rows() -> None:
    out = _ask("在 4 张 H100 上部署 Llama-3-70B，64 并发")
    assert not out["report"]["per_value"]
