"""Session 37 part fixe: serving answers a second trial of the merged tree (s37-lead a2b4a70f) found wrong.

1. 'Will it start?' on llama.cpp (layers split, no pooled KV cache) printed 'its KV cache holds None
   tokens' and vLLM's max_model_len: it now names llama.cpp's own figure, the context (-c) it allocates the KV
   cache for. A sweep asserts no reply, in either language, holds a literal 'None'.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.cli import ask


def _text(question: str, lang: str) -> str:
    out, _ = ask(question, lang, "text")
    return out


def _answer(question: str) -> dict[str, Any]:
    out, _ = ask(question, None, "json")
    return json.loads(out)


# -- 1. a runtime with no pooled KV cache: its own context, never 'None' -------------------------------------

_LLAMA = (
    "llama-server -m Meta-Llama-3.1-70B-Instruct-Q4_K_M.gguf -ngl 99 -c 8192 on two 3090s, will it start?"
)


def test_llama_cpp_start_names_its_context_en() -> None:
    head = _text(_LLAMA, "en").splitlines()[0]
    assert "llama.cpp starts with a context of 8,192 tokens" in head
    assert "max_model_len" not in head and "None" not in head


def test_llama_cpp_start_names_its_context_zh() -> None:
    head = _text(_LLAMA, "zh").splitlines()[0]
    assert "llama.cpp 以 8,192 token 的上下文启动" in head
    assert "max_model_len" not in head and "None" not in head


def test_vllm_start_still_counts_its_pool() -> None:
    """The vLLM start-up answer keeps its pooled KV figure (a number, not None)."""
    head = _text("will vLLM start with max_model_len 32768 on one L4 for qwen2.5 7b?", "en").splitlines()[0]
    assert "None" not in head and "KV cache" in head


_SWEEP = [
    _LLAMA,
    "llama-server -m Qwen2.5-32B-Instruct-Q4_K_M.gguf -ngl 99 -c 16384 on one 4090, will it start?",
    "ollama run llama3.1:70b on two 3090s with num_ctx 8192, will it start?",
    "用 llama.cpp 在两张 3090 上跑 Llama 3.1 70B Q4_K_M，-c 8192，能启动吗？",
    "ollama 跑 qwen2.5 32b，一张 4090，上下文 16k，能跑起来吗",
    "will vLLM start with max_model_len 32768 on one L4 for qwen2.5 7b?",
    "32B 推理用 24G 还是 48G 的卡",
    "部署 Qwen2.5-72B，QPS 5，输出 512 token，TTFT 小于 1 秒，要几张 H20",
    "glm4 9b 推理 3090 并发20 够吗",
    "deepseek-v3 inference on H200, memory per gpu?",
]


@pytest.mark.parametrize("question", _SWEEP)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_reply_prints_none(question: str, lang: str) -> None:
    assert "None" not in _text(question, lang)


# -- 2. rows of one list sized at the first row's precision, load and runtime --------------------------------


@pytest.mark.parametrize("question", ["32B 推理用 24G 还是 48G 的卡", "serve a 32B model: 24GB or 48GB GPU?"])
def test_card_rows_share_the_first_rows_settings(question: str) -> None:
    rows = _answer(question)["report"]["per_value"]
    assert [r["value"] for r in rows] == [24, 48]
    # both rows: Q4_K_M weights (32e9 × 0.6 B ≈ 19.2 GB) and one 4K sequence on one card, load 1
    assert [r["load"] for r in rows] == [1, 1]
    assert [r["gpus"] for r in rows] == [1, 1]
    assert rows[0]["memory_gib"] == rows[1]["memory_gib"] == 20.0
    # the larger card fits whatever the smaller one does
    order = {"no": 0, "borderline": 1, "yes": 2}
    assert order[rows[1]["fits"]] >= order[rows[0]["fits"]]


def test_larger_card_row_never_reads_worse_zh() -> None:
    text = _text("32B 推理用 24G 还是 48G 的卡", "zh")
    row48 = next(line for line in text.splitlines() if line.startswith("• 48 GB 的卡"))
    assert "放不下" not in row48 and "每卡 20 GiB" in row48


def test_under_card_row_names_the_count() -> None:
    """A 'no' row whose figure per GPU is under the card says the GPUs it takes, not 'does not fit'."""
    from bot.core.per_value import PerValue
    from bot.render.per_value_text import _row

    row = PerValue("gpu_memory_gib", 48, "no", 2, 39.3, None, 11.5, 24, 16)  # 39.3 GiB = 42.2 GB < 48 GB
    # s41 fixt #12: the speed is one of the 16 running at once (load 16, 24 fit), said so
    want = "• a 48 GB card: needs 2 GPUs, 39.3 GiB per GPU, 11.5 tokens/s per sequence at 16 concurrent"
    assert _row(row, "en") == want
    over = PerValue("gpu_memory_gib", 24, "no", 2, 30.0, None, None)  # 30 GiB = 32.2 GB > 24 GB
    assert _row(over, "en").startswith("• a 24 GB card: does not fit")


# -- 3. a request rate, an output length and no context: the stated output everywhere ------------------------

_QPS_ZH = "部署 Qwen2.5-72B，QPS 5，输出 512 token，TTFT 小于 1 秒，要几张 H20"
_QPS_EN = "serve Qwen2.5-72B at 5 requests per second, 512 output tokens each, TTFT under 1 s: how many H20?"


@pytest.mark.parametrize("question", [_QPS_ZH, _QPS_EN])
def test_rate_output_and_default_context_give_the_prompt(question: str) -> None:
    req = _answer(question)["request"]
    # 5 req/s × 512 output tokens = 2,560 tokens/s; the prompt is the default 4,096 context's rest, 3,584
    assert req["target_tokens_per_s"] == 2560.0
    assert req["prompt_tokens"] == 4096 - 512


def test_prefill_uses_the_stated_output_and_the_headline_count() -> None:
    d = _answer(_QPS_EN)
    reply, rec = d["reply"], d["report"]["inference"]["recommended_gpus"]
    assert "assumed: the last quarter of the context" not in reply and "1,024 output" not in reply
    # 5 requests/s × 3,584 prompt tokens = 17,920 prompt tokens/s to prefill (not 2.5 requests/s)
    assert "17,920 prompt tokens/s" in reply
    # the prefill line names the headline's count
    assert f"{rec} recommended" in reply.splitlines()[0]
    assert f"({rec} GPUs)" in reply


def test_prefill_zh_names_the_headline_count() -> None:
    d = _answer(_QPS_ZH)
    rec = d["report"]["inference"]["recommended_gpus"]
    assert f"推荐 {rec} 张" in d["reply"].splitlines()[0]
    assert f"共 {rec} 张" in d["reply"] and "假设：上下文的最后四分之一" not in d["reply"]


def test_rate_output_with_a_context_keeps_context_minus_output() -> None:
    """A context stated: the prompt stays context − output (s37 fixb), not the default's rest."""
    req = _answer("deploy Qwen2.5-72B, 8k context, QPS 5, 512 output tokens each, how many H20?")["request"]
    assert req["seq_len"] == 8192 and req["prompt_tokens"] == 8192 - 512


# -- 4. a stated load above a few sequences on a consumer card: a batching server ---------------------------


@pytest.mark.parametrize(
    "question", ["glm4 9b 推理 3090 并发20 够吗", "glm4 9b on a 3090 with 20 concurrent users, enough?"]
)
def test_many_sequences_on_a_consumer_card_size_vllm(question: str) -> None:
    inf = _answer(question)["report"]["inference"]
    # vLLM with the released bf16 weights: 9.4e9 × 2 B = 18.8 GB, 20 sequences sized
    assert inf["runtime"] == "vLLM" and inf["weight_format"] == "bf16"
    assert inf["concurrency"] == 20 and round(inf["weights_bytes"] / 1e9, 1) == 18.8


@pytest.mark.parametrize(
    "question",
    [
        "ollama glm4 9b on a 3090 with 20 concurrent users, enough?",
        "qwen2.5 32b 推理 3090 并发 2 够吗",  # two sequences: still a personal card's llama.cpp (Q4_K_M)
    ],
)
def test_named_local_runtime_or_a_few_sequences_stay_local(question: str) -> None:
    inf = _answer(question)["report"]["inference"]
    assert inf["runtime"] in ("llama.cpp", "Ollama") and inf["weight_format"] != "bf16"
