"""s26 trial 2's serving findings (trfix3): WeCom escapes, start-up answers, cheapest rank, context cap,
TPU wording, the web page's runtime advice."""

from __future__ import annotations

import json

import pytest

from tests.cli_run import ask_in_process, ask_quietly


@pytest.mark.parametrize(
    ("markdown", "shown"),
    [
        ("⚠️ Liger（use\\_liger\\_kernel）", "⚠️ Liger（use_liger_kernel）"),
        ("LLaMA-Factory cutoff\\_len、TRL max\\_length", "LLaMA-Factory cutoff_len、TRL max_length"),
        ("\\# not a heading here \\# x", "\\# not a heading here # x"),
        ("\\*bold\\* \\_em\\_ \\[link\\]", "\\*bold\\* \\_em\\_ \\[link\\]"),
        ("`a\\_b` and x\\_y", "`a\\_b` and x_y"),
        ("a \\| b", "a \\| b"),
    ],
)
def test_wecom_stream_drops_the_escapes_its_markdown_does_not_need(markdown: str, shown: str) -> None:
    """s26 trial #14: WeCom's stream reply showed ``use\\_liger\\_kernel``; an intraword ``_`` and a
    mid-line ``#`` lose their backslash, an escape that could open markup stays, code spans are kept,
    and ``|`` (WeCom's documented subset is not DingTalk's) keeps its escape."""
    from bot.chat.adapter import Outbound
    from bot.wecom.card import stream_markdown

    out = Outbound(json.dumps({"h": "", "f": markdown, "d": "", "c": ""}), "T1", [], lang="zh")
    assert stream_markdown(out) == shown


@pytest.mark.parametrize(
    ("q", "first"),
    [
        ("部署Qwen2.5-72B，8张H20，能跑几条并发", "解码速度受显存带宽限制"),
        ("Deploy Qwen2.5-72B on 8 H20, how many users?", "Decoding is limited by memory bandwidth"),
    ],
)
@pytest.mark.parametrize("fmt", ["text", "html"])
def test_advice_names_no_servers_when_sized_as_vllm(q: str, first: str, fmt: str) -> None:
    """s26 trial 2 #15 (first trial #20): no runtime named, the answer is sized by vLLM's start-up profile
    (its KV tokens "the number in the start-up log") and the tools line says "vLLM or SGLang"; the advice
    said "(vLLM, SGLang, TensorRT-LLM)" beside it, on the web page as in the text. It keeps its first
    sentence and names no server."""
    reply = ask_quietly("--format", fmt, q)
    assert first in reply and "TensorRT-LLM" not in reply


@pytest.mark.parametrize(
    ("q", "yes"),
    [
        (
            "will vLLM start with max_model_len 32768 on one L4 for Llama-3.1-8B-Instruct?",
            "yes — vLLM starts with max_model_len 32,768: its KV cache holds 34,992 tokens",
        ),
        (
            "一张L4用vLLM跑Llama-3.1-8B-Instruct，max_model_len 32768 能启动吗？",
            "能 —— max_model_len 为 32,768 时 vLLM 能启动：KV 缓存可容纳 34,992 个 token",
        ),
    ],
)
def test_a_start_question_that_starts_is_answered_yes(capsys, q: str, yes: str) -> None:
    """s26 trial 2 #6: 0.9 × 23,034 MiB (the L4's ECC-on memory) − 16.06 GB of bf16 weights − the V1
    workspace leaves 34,992 tokens of 128 KiB (32 layers × 8 KV heads × 128 × 2 × 2 B) ≥ 32,768: it
    starts, one sequence of that length at a time. The headline said "room for 1 of the 16 concurrent
    sequences assumed"; nobody asked about users, so no load is assumed nor warned about."""
    d = ask_in_process(capsys, q)
    assert d["request"]["start_asked"] is True
    assert d["report"]["inference"]["kv_capacity_tokens"] == 34_992
    assert d["report"]["inference"]["start_only"] is True
    first = d["reply"].splitlines()[0]
    assert yes in first
    for said in ("16 concurrent", "assumed 16", "I assumed", "16 条", "假设 16"):
        assert said not in d["reply"]


@pytest.mark.parametrize(
    "q",
    [
        "Serve Llama-3.1-70B AWQ on 2x RTX 3090 with vLLM at 32k context, how many concurrent users?",
        "vLLM 在两张3090上跑 Llama-3.1-70B AWQ，32k上下文，能跑几条并发",
    ],
)
def test_no_start_body_follows_the_headline(capsys, q: str) -> None:
    """s26 trial 2 #7: vLLM refuses 32,768 on 2 × RTX 3090 (its KV cache holds 12,048 tokens), so no
    sequence of that length runs there: the body said "≈ 344 tokens/s in total (16 sequences)",
    "× 16 concurrent = 172 GB" and "That takes 16 cards" — the plan for 16 sequences, a load nobody
    stated. It now sizes one sequence on the user's two cards (320 KiB × 32K = 10.7 GB)."""
    d = ask_in_process(capsys, q)
    assert d["report"]["inference"]["start_only"] is True
    body = d["reply"]
    assert "12,048" in body.splitlines()[0]
    for said in ("16 sequences", "16 concurrent", "16 cards", "16 条", "16 张"):
        assert said not in body
    assert "10 GiB" in body  # 10.7 GB = 10 GiB: s37 fixb #3, the usable GiB's unit on its line


@pytest.mark.parametrize(
    ("q", "head"),
    [
        (
            "Which is cheapest for this load: Llama-3.1-70B, 64 concurrent users, 8k context, "
            "H100 vs A100 vs L40S?",
            "Cheapest for this load at ≥ 25 tokens/s per sequence: H100 80G ($8,760 – $20,440 a month for 64 "
            "concurrent); L40S costs less a month but decodes ≈ 9.5 tokens/s per sequence",
        ),
        (
            "部署Llama-3.1-70B，64并发，8k上下文，H100、A100、L40S哪个最便宜",
            "按每条序列至少 25 token/s 计，这个负载最省钱：H100 80G（64 条并发，每月 ¥87,600 – ¥233,600）；"
            "L40S 每月更便宜，但每条序列解码只有约 9.5 token/s",
        ),
    ],
)
def test_cheapest_month_is_among_options_at_a_usable_speed(capsys, q: str, head: str) -> None:
    """s26 trial 2 #8: all three hold 64 sequences at 8K on 8 GPUs, but 8 × L40S decode 608 / 64 = 9.5
    tokens/s each and 8 × A100 1,547 / 64 = 24.2, under MLPerf v5.0's interactive 40 ms per output token
    (25 tokens/s); 8 × H100 decode 2,472 / 64 = 38.6, so its month ($1.50–3.50 × 8 × 730 h) is named and
    the cheaper, slower L40S is said beside it (was 'Cheapest for this load: L40S')."""
    d = ask_in_process(capsys, q)
    assert d["reply"].splitlines()[0] == head


def test_serving_comparison_with_an_unpriced_option_has_a_headline(capsys) -> None:
    """s26 trial 2 #8 (zh): H200 has no CNY price, so no cheapest is named; the answer opened with the
    bullets. It now says why there is no verdict, as a training comparison does."""
    d = ask_in_process(capsys, "部署Qwen2.5-14B，并发50，上下文8k，哪种卡最便宜")
    # s27 trial #2: 'the cheapest card' compares the cards priced in CNY; the unpriced ones are named after
    # the verdict, never in its place
    lines = d["reply"].splitlines()
    assert lines[0] == "这个负载最省钱：H20（50 条并发，每月 ¥10,220 – ¥21,900）"
    assert lines[1] == "未参与比较（没有 CNY 租用价格）：A100 40G、H200 141G、B200"


@pytest.mark.parametrize(
    "q",
    [
        "How many TPU v5p chips to pretrain a 7B model on 2T tokens in 30 days?",
        "用TPU v5p预训练7B模型，2T token，30天要多少芯片",
    ],
)
def test_tpu_v5p_peak_is_not_called_fp8(q: str) -> None:
    """s26 trial 2 #12: 6 × 7e9 × 2e12 = 8.4e22 FLOPs / (169,451 h × 3,600 × 0.30) = 459 TFLOPS, v5p's
    BF16 peak (Google Cloud 'TPU v5p'); v5p has no FP8, so the MFU is not said to be "of the FP8 peak"."""
    reply = ask_quietly(q)
    assert "169,451" in reply
    assert "FP8 peak" not in reply and "FP8 峰值" not in reply


@pytest.mark.parametrize(
    ("q", "said"),
    [
        (
            "Serve Qwen2.5-14B-Instruct on one RTX 4090 with Ollama, max context?",
            "longest context: 32K, the model's native window; longer needs YaRN RoPE scaling",
        ),
        ("用Ollama在MacBook Air M3 16GB上跑qwen2.5:7b，最长上下文多少", "最长上下文：32K，即模型的原生窗口"),
    ],
)
def test_max_context_stops_at_the_native_window(capsys, q: str, said: str) -> None:
    """s26 trial 2 #9: Qwen2.5 runs 32,768 tokens natively and 131,072 only with YaRN, off by default
    (Qwen2.5 model cards); 77K / 95K fit the cards' KV cache, but the answer sized them "as asked" though
    no length was given. A "max context?" now stops at the native window and says what goes past it."""
    d = ask_in_process(capsys, q)
    assert d["report"]["inference"]["context_tokens"] == 32_768
    assert said in d["reply"].splitlines()[0]
    assert "as asked" not in d["reply"] and "token 估算" not in d["reply"]  # 'Sized at N tokens as asked'
