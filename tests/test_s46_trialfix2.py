"""Session 46, trialfix2: the fresh-user trial's findings 4 and 7–12 (issue 24 items 3–4).

#8 — Qwen2.5-7B-Instruct-1M at 1M tokens was said to fit one A100 80G (69.8 GiB). Qwen's model card
(Qwen/Qwen2.5-7B-Instruct-1M README, "Deploy with vLLM") serves the release with ``--enable-chunked-prefill
--max-num-batched-tokens 131072`` and asks for at least 120 GB of VRAM in total for the 7B (320 GB for the
14B). vLLM's start-up profile runs one forward pass of ``max_num_batched_tokens`` tokens
(vllm/v1/worker/gpu_model_runner.py ``profile_run``): at 131,072 tokens Qwen2.5-7B's activations are
131,072 × (8 × 3,584 + 6 × 18,944) B = 18.7 GB on one GPU (config.json hidden_size 3,584,
intermediate_size 18,944), which with 15.2 GB of weights and 57.3 GB of KV no longer fits one 80 GB card.
"""

from __future__ import annotations

import json
import math
import re

import pytest

from bot.cli import main
from estimator import catalog
from estimator.runtimes.vllm import QWEN_1M_BATCHED_TOKENS, VLLM_NON_TORCH_BYTES, vllm_profile_bytes


def _ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", "--", question])
    return json.loads(capsys.readouterr().out)


def _gpus(d: dict) -> int:
    return d["report"]["inference"]["recommended_gpus"]


# ---- #8: a Qwen 1M release at its long context, its card's vLLM chunk ----------------------------------

Q1M_ZH = "Qwen2.5-7B-Instruct-1M 跑满 100 万 token 上下文需要多少显存？"  # the trial's q09_zh
Q1M_EN = "How much GPU memory does Qwen2.5-7B-Instruct-1M need to run a full 1M-token context?"


def test_recipe_chunk_profile_bytes():
    spec = catalog.models()["Qwen2.5-7B"]
    gpu = catalog.gpus()["A100-SXM4-80GB"]
    got = vllm_profile_bytes(spec, gpu, 1, batched=QWEN_1M_BATCHED_TOKENS)
    assert got == pytest.approx(131_072 * (8 * 3_584 + 6 * 18_944) + VLLM_NON_TORCH_BYTES)
    assert vllm_profile_bytes(spec, gpu, 1) < 2e9  # the default chunk (2,048 on an A100): ~1.3 GB


@pytest.mark.parametrize("question", [Q1M_ZH, Q1M_EN])
def test_1m_release_at_1m_needs_more_than_one_a100(capsys, question):
    d = _ask(capsys, question)
    assert d["request"]["max_num_batched_tokens"] == 131_072
    assert _gpus(d) == 2  # 160 GB ≥ the card's 120 GB; one 80 GB card is short
    assert d["report"]["inference"]["workspace_bytes_per_gpu"] > 10e9


@pytest.mark.parametrize(
    "question",
    [
        "Qwen2.5-14B-Instruct-1M 1M context how many H100?",
        "Qwen2.5-14B-Instruct-1M 跑 100 万上下文要几张 H100？",
    ],
)
def test_14b_1m_release_matches_the_card(capsys, question):
    d = _ask(capsys, question)
    assert _gpus(d) * 80 >= 320  # the card: at least 320 GB in total for the 14B at 1M tokens


@pytest.mark.parametrize(
    "question",
    [
        "Qwen2.5-7B-Instruct-1M at 32k context on one A100, does it fit?",
        "Qwen2.5-7B-Instruct-1M 32k 上下文一张 A100 能跑吗",
        "Qwen2.5-7B-Instruct-1M 1M context on llama.cpp, how much memory?",
        "Qwen2.5-7B-Instruct-1M 用 llama.cpp 跑 100 万上下文要多少内存",
    ],
)
def test_no_recipe_chunk_short_context_or_other_engine(capsys, question):
    d = _ask(capsys, question)
    assert d["request"].get("max_num_batched_tokens") is None


@pytest.mark.parametrize(
    "question",
    [
        "vllm serve Qwen/Qwen2.5-7B-Instruct --max-num-batched-tokens 65536 on one A100, how many at 8k?",
        "vllm serve Qwen/Qwen2.5-7B-Instruct --max-num-batched-tokens 65536，一张 A100，8k 上下文能并发多少",
    ],
)
def test_stated_batched_tokens_is_used(capsys, question):
    d = _ask(capsys, question)
    assert d["request"]["max_num_batched_tokens"] == 65_536
    spec = catalog.models()["Qwen2.5-7B"]
    want = 65_536 * (8 * 3_584 + 6 * 18_944) + VLLM_NON_TORCH_BYTES
    assert d["report"]["inference"]["workspace_bytes_per_gpu"] == pytest.approx(want, rel=0.01)
    assert spec.hidden == 3_584


# ---- #12: a first-token target judged under the load (M/D/1 queue of the prompts' prefill) --------------


def test_loaded_ttft_md1_by_hand():
    from estimator.ttft_load import loaded_ttft

    # S = 0.13 s, 5,700 tokens/s of 1,024-token answers: λ = 5.566/s, ρ = 0.7236
    got = loaded_ttft(0.13, 5_700.0, 1_024, 0.99)
    rho = 5_700 / 1_024 * 0.13
    wq = rho * 0.13 / (2 * (1 - rho))  # Pollaczek–Khinchine, deterministic service
    assert got.rho == pytest.approx(rho)
    assert got.seconds == pytest.approx(0.13 + wq / rho * math.log(rho / 0.01))
    assert loaded_ttft(0.13, 5_700.0, 1_024, None).seconds == pytest.approx(0.13 + wq)  # the mean
    assert math.isinf(loaded_ttft(0.5, 5_700.0, 1_024).seconds)  # ρ = 2.8: prompts outrun the prefill
    assert loaded_ttft(0.13, 50.0, 1_024, 0.99).seconds == pytest.approx(0.13)  # ρ < 1 %: no P99 wait
    assert loaded_ttft(0.0, 100.0, 1_024) is None


TTFT_EN = "We need P99 TTFT under 500 ms for 200 concurrent users on Llama 3.3 70B. How many H100s?"
TTFT_ZH = "SLA 要求 P99 首 token 延迟低于 500 ms，200 个用户同时在线，Qwen2.5-72B-Instruct，需要几张 H100？"


def _text(capsys, question: str) -> str:
    main(["ask", "--", question])
    return capsys.readouterr().out


@pytest.mark.parametrize(
    ("question", "missed"),
    [
        (TTFT_EN, "not at P99"),
        (TTFT_ZH, "按负载算 P99 达不到"),
    ],
)
def test_p99_target_under_200_users_is_judged_under_the_load(capsys, question, missed):
    out = _text(capsys, question)
    assert missed in out
    assert "queueing under load adds to it" not in out and "满负载时排队还会再加一些" not in out


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("TTFT under 500 ms for one user on Llama 3.1 8B on an A100?", "met (one prompt alone"),
        ("首 token 延迟 500ms 以内，Llama 3.1 8B，1 个用户，一张 A100 行吗", "能达到（单条提示词单独预填充"),
        ("TTFT under 500 ms, 64 concurrent, Llama 3.1 8B on 2 H100?", "met at the mean under the load"),
        ("首 token 延迟 500ms 以内，Llama 3.1 8B，64 个并发，2 张 H100", "按负载算 平均值 能达到"),
    ],
)
def test_one_user_or_light_load_is_met(capsys, question, said):
    assert said in _text(capsys, question)


# ---- #11: tokens per dollar asked: the inverse of the price per million, same figures -------------------


@pytest.mark.parametrize(
    ("question", "unit"),
    [
        ("How many tokens per dollar can I get serving Qwen3-8B on one L40S?", "Tokens per dollar"),
        ("tokens/$ for Llama 3.1 8B on an H100?", "Tokens per dollar"),
        ("Qwen3-8B 用一张 L40S 部署，每块钱能生成多少 token？", "每元能生成的 token"),
        ("一美元能跑多少token，Qwen3-8B，L40S", "每美元能生成的 token"),
    ],
)
def test_tokens_per_money_is_the_inverse_of_the_price_per_million(capsys, question, unit):
    d = _ask(capsys, question)
    cpm = d["report"]["inference"]["cost_per_million_tokens"]
    out = _text(capsys, question)
    line = next(x for x in out.splitlines() if unit in x)
    # s47: Babel's compact form, each end with its own unit ('977K–2M', '13万–31.3万'; before '0.98–1.96M')
    m = re.search(r"([\d,.]+)(K|M|万|亿)?–([\d,.]+)(K|M|万|亿)? ", line)
    scale = {"K": 1e3, "M": 1e6, "万": 1e4, "亿": 1e8, None: 1}
    got = [float(m.group(i).replace(",", "")) * scale[m.group(i + 1)] for i in (1, 3)]
    assert got == pytest.approx([1e6 / cpm["high"], 1e6 / cpm["low"]], rel=0.03)  # 2M: one fraction digit


@pytest.mark.parametrize(
    "question",
    [
        "How much per million tokens serving Qwen3-8B on one L40S, in dollars?",
        "Qwen3-8B 一张 L40S，每百万 token 多少钱？",
        "7B模型1万亿token要多少A100，预算 300 万元",
    ],
)
def test_price_per_token_asked_has_no_per_money_line(capsys, question):
    out = _text(capsys, question)
    assert "Tokens per" not in out and "能生成的 token" not in out
