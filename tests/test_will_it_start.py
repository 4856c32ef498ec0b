"""'Will it start / does it fit?' on a stated launcher and card (s15 trial #3): the headline answers for
the stated card and count first — starts or not, why, the largest --max-model-len that starts — and
sizes no load that was never stated ('16 GPUs for 16 concurrent' was a default load)."""

from __future__ import annotations

import pytest

from tests.cli_run import ask_in_process, ask_quietly

L4 = "vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 131072 --gpu-memory-utilization 0.9 "
AWQ = "vllm serve Qwen2.5-72B-Instruct-AWQ --tensor-parallel-size 2 --max-model-len 32768 --max-num-seqs 64"


@pytest.mark.parametrize(
    ("q", "said"),
    [
        (L4 + "on one L4 24GB — will it start?", "the largest --max-model-len that starts is 34,992"),
        (L4 + "，一张 L4 24GB 能启动吗？", "能启动的最大 --max-model-len 是 34,992"),
    ],
)
def test_a_launch_that_refuses_says_so_and_the_length_that_starts(capsys, q: str, said: str) -> None:
    d = ask_in_process(capsys, q)
    # 8.03B × 2 B = 16.1 GB of weights on 0.9 × 23,034 MiB (the L4 with ECC on, nvidia-smi memory.total;
    # s24, was 42,768 at 0.9 × 0.99 × 24 GiB): vLLM's KV cache holds 34,992 tokens, under 131,072 (s26
    # trfix #3: V1's profile, sampler 28 × 256 × 128,256 + 0.16 GiB; 33,424 with V0's 0.35 GiB)
    assert (d["report"]["feasible"], d["report"]["feasible_reason"]) == ("no", "max_model_len")
    assert d["report"]["inference"]["kv_capacity_tokens"] == 34992
    head = ask_quietly(q).splitlines()[0]
    assert (said in head and "131,072" in head and "1 × L4" in head) or "1 张 L4" in head
    assert "16 GPUs" not in head and "concurrent" not in head and "并发" not in head


@pytest.mark.parametrize(
    ("q", "said"),
    [
        (AWQ + " on 2x RTX 4090, does this start and how many users?", "vLLM will not start"),
        (AWQ + "，两张 4090 能起来吗，能支持多少用户？", "vLLM 无法启动"),
    ],
)
def test_weights_that_fill_the_cards_say_it_does_not_start(q: str, said: str) -> None:
    head = ask_quietly(q).splitlines()[0]
    # 72.7B at AWQ int4 = 41.5 GB of weights on 2 × 21.4 GiB usable, less V1's profile (s26 trfix #3:
    # no longer V0's whole 32K sequence, which left no room at all): 5,904 tokens of KV cache, under
    # one 32K sequence — the length that starts is said
    assert said in head and "5,904" in head
    assert "16" not in head and "TP" not in head


@pytest.mark.parametrize(
    ("q", "kv"),
    [
        (L4 + "on one L4 24GB — will it start?", "128K context = 16 GiB per sequence"),
        (L4 + "，一张 L4 24GB 能启动吗？", "上下文 128K = 每条序列 16 GiB"),
    ],
)
def test_the_body_sizes_the_stated_card_and_names_no_load(q: str, kv: str) -> None:
    """s16 item 1: the body follows the headline: one 131,072-token sequence on the one L4, no load."""
    reply = ask_quietly(q)
    # Llama 3.1 8B: 2 (K, V) × 32 layers × 8 KV heads × 128 dims × 2 B = 128 KiB per token;
    # × 131,072 tokens = 16 GiB (17.18 GB) for one sequence, said in GiB beside the usable GiB per GPU since
    # s37-fixb (the default load '× 16 concurrent = 275 GB' was invented)
    assert kv in reply
    made_up = ("16 concurrent", "275 GB", "On 16 GPUs", "16 个并发", "TP 8", "16 条", "Concurrent sequences")
    for invented in made_up:
        assert invented not in reply, invented
    assert "34,992" in reply and "NVLink" not in reply  # one card: no tensor parallelism over PCIe


@pytest.mark.parametrize(
    "q",
    [
        L4 + "--max-num-seqs 8 on one L4 24GB — will it start?",
        L4 + "--max-num-seqs 8，一张 L4 24GB 能启动吗？",
    ],
)
def test_a_stated_max_num_seqs_is_the_load_the_body_sizes(q: str) -> None:
    reply = ask_quietly(q)
    # 8 sequences × 17.18 GB = 137 GB of KV cache: the stated cap, never the default 16 (275 GB)
    assert "137 GB" in reply and "275 GB" not in reply
    assert "34,992" in reply.splitlines()[0]
