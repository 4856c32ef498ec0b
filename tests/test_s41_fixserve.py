"""s41 fixserve: serving answers that match real runs (the s40 fresh-user trial's serving findings).

#3 L20 usable memory: the L20 ships with ECC on, as the L40S on the same AD102 board — nvidia-smi shows
46,068 MiB (44.99 GiB) of its 48 GB GDDR6 (a public L20 benchmark log: 'NVIDIA L20 | 46068 MiB', torch
'GPU 0 total capacity: 44.53 GiB'); vLLM's budget is 0.9 of that, 40.5 GiB, as for the L40S and A40.
#4 SGLang TP 16 over two 8-GPU nodes: each layer's two all-reduces cross the inter-node network, timed at
one 400 Gb/s NDR port per GPU (50 GB/s one way; NVIDIA DGX H100 user guide), not NVLink's 450 GB/s."""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.render.renderer import render
from estimator import catalog
from estimator.serving_speed import allreduce_seconds

TP16 = {
    "en": "Serve DeepSeek-V3 with SGLang TP16 on two nodes of 8×H100, decode speed?",
    "zh": "用SGLang在两台8卡H100上以TP16部署DeepSeek-V3，速度多少",
}
TP16_NOTE = {
    "en": "The decode and prefill times count TP=16's all-reduces across the 2 nodes at 50 GB/s per GPU "
    "(InfiniBand/RoCE between the nodes), not at the 450 GB/s link inside a node.",
    "zh": "解码和预填充时间按每卡 50 GB/s（机器之间的 InfiniBand/RoCE）计入 TP=16 跨 2 台机器的 all-reduce，"
    "而不是机器内部 450 GB/s 的互联。",
}
ONE_NODE = {
    "en": "Serve Llama-3.1-70B with SGLang TP8 on one node of 8×H100, decode speed?",
    "zh": "用SGLang在一台8卡H100上以TP8部署Llama-3.1-70B，速度多少",
}
L20_SERVE = {"en": "Qwen2.5-72B on 2 L20, can it serve?", "zh": "2张L20能部署Qwen2.5-72B吗"}
L20_USABLE = {"en": "usable per GPU: 40.5 GiB", "zh": "每卡可用 40.5 GiB"}


# #3 the L20's usable memory


def test_l20_shows_46068_mib_as_the_l40s() -> None:
    """The catalog's L20: 48 GB GDDR6 with ECC on, 46,068 MiB visible, the same as the L40S and A40."""
    l20, l40s = catalog.gpu("L20"), catalog.gpu("L40S")
    assert l20.memory_gib == 48 and l20.ecc_visible_mib == 46068 == l40s.ecc_visible_mib
    assert l20.addressable_bytes == l40s.addressable_bytes == 46068 * 2**20


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_l20_serving_budget_is_ninety_percent_of_what_it_shows(lang: str) -> None:
    """vLLM's 0.9 × 44.99 GiB = 40.5 GiB per L20 (42.8 GiB before: 0.9 of a full 48 GiB, less nothing)."""
    text = render(answer(L20_SERVE[lang]), "text")
    assert L20_USABLE[lang] in text
    assert "42.8 GiB" not in text and "43.2 GiB" not in text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_48_gib_card_without_ecc_keeps_its_48(lang: str) -> None:
    """Must not misread: an RTX A6000 (48 GB, no ECC total on file) keeps its full 48 GiB: 42.8 GiB, the
    L20's figure before (40.5 now)."""
    q = {"en": "Qwen2.5-72B on 4 RTX A6000, can it serve?", "zh": "4张A6000能部署Qwen2.5-72B吗"}[lang]
    assert {"en": "usable per GPU: 42.8 GiB", "zh": "每卡可用 42.8 GiB"}[lang] in render(answer(q), "text")


# #4 a TP group across nodes is timed at the inter-node link


def test_allreduce_across_nodes_uses_the_nic_not_nvlink() -> None:
    """DeepSeek-V3 (61 layers, hidden 7168), 16 sequences: on one node 122 × (10 µs + 1.875 × 229 KB /
    (450 × 0.7 GB/s)); across two, 122 × (20 µs + 1.875 × 229 KB / (50 × 0.7 GB/s))."""
    spec, h100 = catalog.model("DeepSeek-V3"), catalog.gpu("H100-SXM5-80GB")
    inside = allreduce_seconds(spec, h100, 8, 16)
    across = allreduce_seconds(spec, h100, 16, 16)
    volume = 2.0 * 15 / 16 * 16 * 7168 * 2.0
    assert across == pytest.approx(122 * (20e-6 + volume / (50e9 * 0.7)))
    assert inside == pytest.approx(122 * (10e-6 + 2.0 * 7 / 8 * 16 * 7168 * 2.0 / (450e9 * 0.7)))
    assert across > 2.5 * inside


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_stated_tp16_across_two_nodes_says_the_link_it_is_timed_at(lang: str) -> None:
    a = answer(TP16[lang])
    inf = a.report.inference
    assert (inf.tp, inf.pp) == (16, 1)
    assert TP16_NOTE[lang] in render(a, "text")
    # 41 tokens/s per sequence at 16 when NVLink carried the all-reduces; 37 over the network
    assert 35 < inf.decode_tokens_per_s.per_sequence < 39


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_tp_inside_one_node_gets_no_network_note(lang: str) -> None:
    """Must not misread: TP 8 on one 8-GPU node stays on NVLink, no inter-node note."""
    a = answer(ONE_NODE[lang])
    assert a.report.inference.tp == 8
    assert "tp_allreduce_internode" not in {n.code for n in a.report.warnings}


# #5 Ollama's default context: the one sized and the newer releases' tiers, named in the reply

OLLAMA = {
    "en": "Run Qwen2.5-7B with Ollama on a 4090, how much memory?",
    "zh": "用Ollama在4090上跑Qwen2.5-7B需要多少显存",
}
OLLAMA_LINE = {
    "en": "num_ctx 4,096 tokens, its default from v0.6.7 to v0.15.4; since v0.15.5 it picks 4K, 32K or 256K "
    "by the GPUs' total memory",
    "zh": "num_ctx 为 4,096 token，是它 v0.6.7 到 v0.15.4 的默认值；"
    "v0.15.5 起按所有 GPU 的显存总量取 4K、32K 或 256K",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_ollama_reply_names_the_default_it_assumes(lang: str) -> None:
    """ollama/ollama: OLLAMA_CONTEXT_LENGTH 4096 from v0.6.7 (44b466eeb); VRAM tiers from v0.15.5
    (0334ffa62, server/routes.go: < 23 GiB 4096, < 47 GiB 32768, else 262144)."""
    a = answer(OLLAMA[lang])
    assert a.report.inference.context_tokens == 4096
    assert OLLAMA_LINE[lang] in render(a, "text")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_stated_num_ctx_gets_no_default_line(lang: str) -> None:
    """Must not misread: 'num_ctx 16384' is the user's context, sized as said, no default named."""
    q = {
        "en": "Run Qwen2.5-7B with Ollama num_ctx 16384 on a 4090, how much memory?",
        "zh": "用Ollama在4090上跑Qwen2.5-7B，num_ctx 16384，需要多少显存",
    }[lang]
    a = answer(q)
    assert a.report.inference.context_tokens == 16384
    assert OLLAMA_LINE[lang] not in render(a, "text")


# #1 the prompts' prefill shares the decode steps (vLLM V1 chunked prefill: running requests first, then
# chunks of waiting prompts in the same max_num_batched_tokens budget; Sarathi-Serve, OSDI 2024)

PREFILL = {
    "en": "Qwen2.5-72B on 4×A100, 100 users, 8k-token prompts, 512-token answers",
    "zh": "4张A100部署Qwen2.5-72B，100并发，输入8k token，输出512 token",
}
PREFILL_NOTE = {
    "en": "The decode speed counts the prompts' prefill: with chunked prefill (vLLM, SGLang) each "
    "8,192-token prompt (≈ 1.67 s of these GPUs) runs in the same steps as the others' decoding, 69.5% of "
    "each step at 54 sequences; decoding alone would give ≈ 13 tokens/s per sequence.",
    "zh": "解码速度已计入提示词的预填充：分块预填充（vLLM、SGLang）下，每条 8,000 token 的提示（在这些卡上约 "
    "1.63 秒）与其他序列的解码在同一批步骤里运行，55 条并发时占每步的 69.4%；"
    "只算解码则每条序列约 13 token/s。",
}


def test_prefill_per_step_is_the_others_prompts_over_the_answer() -> None:
    """(batch − 1) × prefill ÷ output tokens: 53 × 1.673 s ÷ 512 = 0.173 s a step; none for one sequence."""
    from estimator.prefill_load import prefill_per_step

    assert prefill_per_step(54, 1.673, 512) == pytest.approx(53 * 1.673 / 512)
    assert prefill_per_step(1, 1.673, 512) == 0.0
    assert prefill_per_step(54, 1.673, 0) == 0.0


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_long_prompts_slow_the_decode_of_many_users(lang: str) -> None:
    """13.2 tokens/s per sequence (710 in total at 54) was decode alone; with each 8K prompt's 1.67 s of
    prefill shared over the 512-token answers: 1 / (1/13.2 + 53 × 1.673 / 512) ≈ 4.0 (≈ 217 in total)."""
    a = answer(PREFILL[lang])
    speed = a.report.inference.decode_tokens_per_s
    assert 3.7 < speed.per_sequence < 4.3 and 200 < speed.aggregate < 240
    assert PREFILL_NOTE[lang] in render(a, "text")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_one_sequence_and_unstated_prompts_keep_the_decode_alone(lang: str) -> None:
    """Must not misread: one user with a long prompt (its own prefill is the time to first token), and a
    load whose prompt length is not stated, keep the decode-only speed and get no prefill note."""
    one = {
        "en": "Qwen2.5-72B on 4×A100, one user, 8k-token prompts, 512-token answers",
        "zh": "4张A100部署Qwen2.5-72B，1个用户，输入8k token，输出512 token",
    }[lang]
    ctx = {
        "en": "Qwen2.5-72B on 4×A100, 50 users, 8k context",
        "zh": "4张A100部署Qwen2.5-72B，50并发，8k上下文",
    }
    for q in (one, ctx[lang]):
        a = answer(q)
        assert "prefill_in_decode" not in {n.code for n in a.report.warnings}, q
    assert answer(one).report.inference.decode_tokens_per_s.per_sequence > 15


def test_a_throughput_target_counts_prefill_once() -> None:
    """Must not misread: a request rate with prompts ('20 requests per second, 2000 tokens in') sizes the
    prefill and decode shares itself (estimator.throughput_target): the decode speed is not slowed twice."""
    a = answer("serve Llama-3.1-8B on H100, 20 requests per second, 2000 tokens in, 200 out")
    assert "prefill_in_decode" not in {n.code for n in a.report.warnings}


# #2 'how many concurrent users?' answered at a usable speed (MLPerf Llama-2-70B Server: TPOT ≤ 200 ms)

HOW_MANY = {
    "en": "How many concurrent users can 4×A100 serve Qwen2.5-72B with 8k-token prompts and 512-token "
    "answers?",
    "zh": "4张A100部署Qwen2.5-72B，输入8k token，输出512 token，能支持多少并发？",
}
HOW_MANY_HEAD = {
    "en": "Qwen2.5 72B bf16 inference on 4 × A100 80G: up to 41 concurrent sequences at 8,704 context (TP=4)",
    "zh": "Qwen2.5 72B bf16 推理，4 张 A100 80G：8,512 上下文下最多约 42 条并发（TP=4）",
}
FLOOR_NOTE = {
    "en": "Counted at a usable speed: the KV cache holds 54 sequences, but at that many each decodes ≈ 4 "
    "tokens/s; 41 keep at least 5 tokens/s each",
    "zh": "按可用速度计：KV 缓存能放下 55 条序列，但那么多条时每条解码只有约 4 token/s；"
    "42 条并发时每条仍有至少 5 token/s",
}


def test_speed_floor_is_mlperf_server_tpot() -> None:
    from estimator.speed_floor import SPEED_FLOOR_TPS

    assert SPEED_FLOOR_TPS == 1 / 0.200


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_how_many_answers_the_users_served_at_a_usable_speed(lang: str) -> None:
    """The KV cache holds 54 (zh: 8,000-token prompts, 55), each then at ≈ 4.0 tokens/s; the headline is
    the most that keep ≥ 5 tokens/s, and its figures are at that load."""
    a = answer(HOW_MANY[lang])
    inf = a.report.inference
    text = render(a, "text")
    assert text.split("\n")[0] == HOW_MANY_HEAD[lang]
    assert FLOOR_NOTE[lang] in text
    assert inf.decode_tokens_per_s.per_sequence >= 5.0
    assert inf.decode_tokens_per_s.batch == inf.max_concurrency


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_how_many_at_a_usable_speed_keeps_the_kv_count(lang: str) -> None:
    """Must not misread: 8 × H100 with Llama-3.1-70B decodes ≈ 20 tokens/s at the 328 its KV cache holds —
    above the floor, so the headline stays the KV cache's 328, with no note."""
    q = {
        "en": "How many concurrent users can 8×H100 serve Llama-3.1-70B?",
        "zh": "8张H100部署Llama-3.1-70B能支持多少并发？",
    }[lang]
    a = answer(q)
    assert a.report.inference.max_concurrency == 328
    assert "speed_floor_held" not in {n.code for n in a.report.warnings}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_stated_load_is_not_capped_by_the_floor(lang: str) -> None:
    """Must not misread: 100 users stated (not asked) keep the KV cache's 54 / 55 held and no floor note."""
    a = answer(PREFILL[lang])
    assert a.report.inference.max_concurrency in (54, 55)
    assert "speed_floor_held" not in {n.code for n in a.report.warnings}
