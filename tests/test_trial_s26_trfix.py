"""Fresh-user trial s26 (main 569ed66d), serving findings: vLLM sized by its V1 engine (#3), one plan when
FP8 on a stated TP holds the load (#4), no headline count of consumer cards past one machine (#7), the
asked concurrency answered as the most that fit (#9)."""

from __future__ import annotations

import pytest

from estimator import catalog
from estimator.runtimes import Load, Vllm
from estimator.serving_layout import kv_capacity_tokens, workspace_bytes
from tests.cli_run import ask_in_process, ask_quietly

GIB = 2**30
L4_7B = "vllm serve Qwen/Qwen2.5-7B-Instruct --max_model_len 32768 --tensor_parallel_size 1"


@pytest.mark.parametrize("q", [L4_7B + " on one L4, will it start?", L4_7B + "，一张 L4 能启动吗？"])
def test_vllm_v1_starts_a_7b_at_32k_on_one_l4(capsys, q: str) -> None:
    """Trial s26 #3: V1 (the default since v0.8; vLLM 0.11 removed V0) profiles one chunk of
    max_num_batched_tokens = 2,048 (``vllm serve`` on a card under 70 GiB, vllm/engine/arg_utils.py
    ``get_batch_defaults``) and the sampler over 256 rows: max(2,048 × (8 × 3,584 + 6 × 18,944),
    28 × 256 × 152,064) + 0.16 GiB = 1.26 GB, whatever max_model_len. 0.9 × 23,034 MiB (the L4's ECC-on
    memory) − 15.22 GB of weights − 1.26 GB = 91,654 × 56 KiB → 91,648 tokens in blocks of 16: a 32,768
    max_model_len starts. Before: V0's whole 32K pass, 5.04 GB, left 25,760 tokens, "will not start"."""
    d = ask_in_process(capsys, q)
    inf = d["report"]["inference"]
    assert inf["kv_capacity_tokens"] == 91_648
    assert inf["workspace_bytes_per_gpu"] == pytest.approx(28 * 256 * 152_064 + 0.16 * GIB)
    assert d["report"]["feasible"] != "no"
    assert "vllm_refuses" not in [w["code"] for w in d["report"]["warnings"]]


def test_v0_stays_available_for_an_old_engine() -> None:
    """The V0 engine (``Vllm(engine_v0=True)``) still profiles one whole max_model_len up to 32K: the same
    L4 leaves 25,760 tokens, under 32,768 (what the trial's answer said of the default)."""
    spec, gpu = catalog.model("Qwen2.5-7B"), catalog.gpu("L4")
    v0 = Vllm(engine_v0=True)
    weights = 15.22e9
    assert workspace_bytes(spec, gpu, 1, v0, Load(32_768)) == pytest.approx(
        32_768 * (8 * 3584 + 6 * 18_944) + 0.35 * GIB
    )
    assert kv_capacity_tokens(spec, gpu, weights, 1, runtime=v0, load=Load(32_768)) == 25_760


VLLM_70B = (
    "vllm serve meta-llama/Llama-3.1-70B-Instruct --tensor-parallel-size 2 --max-model-len 65536 "
    "--gpu-memory-utilization 0.95 --max-num-seqs 64"
)


@pytest.mark.parametrize(
    ("q", "bf16", "fp8"),
    [
        (VLLM_70B + " on 2x H100 80GB. how many concurrent requests at full context?",
         "bf16 weights fit, but not with one 64K sequence's KV cache beside them",
         "with FP8 weights, up to 3 concurrent sequences at 64K"),
        (VLLM_70B + " 两张 H100 80GB，满上下文能跑几条并发？",
         "bf16 权重本身放得下，但再加一条 64K 序列的 KV 缓存就放不下",
         "换成 FP8 权重，64K 上下文下最多约 3 条并发"),
    ],
)  # fmt: skip
# s43 fixans #3: 70.6 GB of bf16 weights per H100 fit its ≈ 71 GiB share; one 64K sequence's 20 GiB KV cache
# (10 GiB a GPU) beside them does not: the headline names the KV cache, no longer 'bf16 weights do not fit'.
def test_stated_tp_answer_is_one_plan(capsys, q: str, bf16: str, fp8: str) -> None:
    """Trial s26 #4: bf16 Llama-3.1-70B (141 GB) with one 64K sequence needs 4 H100s; FP8 (72.7 GB) on the
    user's TP 2 holds 247,728 tokens = 3 × 65,536. The headline says the user's bf16 first, then FP8 on
    their TP 2; no 'no with TP 2' nor 'sized with TP 8' (the bf16 layout's note) beside a TP 2 answer."""
    d = ask_in_process(capsys, q)
    r = d["report"]
    assert (r["feasible"], r["feasible_reason"]) == ("borderline", "fp8_only")
    assert [w["code"] for w in r["warnings"]] == ["released_weights_short"]
    inf = r["inference"]
    assert (inf["tp"], inf["serving_gpus"], inf["weight_format"], inf["max_concurrency"]) == (2, 2, "fp8", 3)
    head = d["reply"].splitlines()[0]
    assert bf16 in head and fp8 in head
    assert "TP 8" not in d["reply"] and "TP 2 × PP 1" not in d["reply"]


@pytest.mark.parametrize(
    "q",
    [
        "Serve Qwen2.5-32B-Instruct with vLLM on 4x RTX 4090, 16k context, 30 concurrent users",
        "用vLLM部署Qwen2.5-32B-Instruct，4张4090，上下文16k，并发30",
    ],
)
def test_consumer_cards_past_one_machine_are_not_the_headline(q: str) -> None:
    """Trial s26 #7: 30 sequences at 16K (256 KiB × 16,384 = 4.3 GB each) take 16 RTX 4090s, two machines
    of consumer cards; the headline answers on the user's 4 (5 of the 30), the warning names the 16 and
    why that is not a home setup (estimator.sizing._beyond_one_machine); the headline recommends none."""
    reply = ask_quietly(q)
    head = reply.splitlines()[0]
    assert ("room for 5 of the 30" in head) or ("只能容纳 5 条并发（要求 30 条）" in head)
    assert not any(word in head for word in ("recommended", "推荐", "On 16", "16 张", "16 GPUs"))
    machine = ("(8)", "（8 张）")
    warned = [line for line in reply.splitlines() if "⚠️" in line and any(m in line for m in machine)]
    assert len(warned) == 1 and "16" in warned[0]


@pytest.mark.parametrize(
    ("q", "head"),
    [
        ("用vLLM部署Qwen3-235B-A22B，8张H200，上下文128k，能跑几条并发", "128K 上下文下最多约 11 条并发"),
        (
            "lmdeploy serve api_server Qwen/Qwen2.5-72B-Instruct-AWQ --tp 2 --session-len 16384 "
            "--cache-max-entry-count 0.8 on 2x A6000, how many users?",
            "up to 8 concurrent sequences at 16K context",
        ),
    ],
)
def test_asked_concurrency_is_the_most_that_fit(capsys, q: str, head: str) -> None:
    """Trial s26 #9: '能跑几条并发' and a closing 'how many users?' ask how many fit at once: the headline is
    the most the user's GPUs hold at their context (11 / 8), not 'room for 11 of the 16 assumed'."""
    d = ask_in_process(capsys, q)
    assert d["request"]["concurrency_asked"] is True
    first = d["reply"].splitlines()[0]
    assert head in first and "assumed" not in first and "假设" not in first


@pytest.mark.parametrize(
    ("q", "other"),
    [
        ("Serve Llama-3.1-8B with TGI on 1 L40S, 8k context, 20 users", "TensorRT-LLM"),
        ("用MindIE在8张昇腾910B上部署Qwen3-235B-A22B，64并发，8k上下文", "TensorRT-LLM"),
    ],
)
def test_advice_names_no_other_server_to_a_paged_server_or_ascend(q: str, other: str) -> None:
    """Trial s26 #20: a TGI user was told to use vLLM/SGLang/TensorRT-LLM, an Ascend one TensorRT-LLM
    (NVIDIA-only); the advice keeps its first sentence (memory bandwidth, KV × context × concurrency)."""
    reply = ask_quietly(q)
    assert other not in reply
    # s36 fixd/fixg: where each step's fixed time (kernel launches, MoE routing) sets the speed, the first
    # sentence names that floor instead of the bandwidth (Qwen3-235B-A22B: 94 × 40 µs + 94 × 350 µs ≈ 36.7 ms)
    first = (
        "Decoding is limited by memory bandwidth",
        "解码速度受显存带宽限制",
        "Decoding is limited here by each step's fixed time",
        "这里解码速度受每步的固定耗时限制",
    )
    assert any(f in reply for f in first), reply
    assert ("KV cache grows with context × concurrency" in reply) or ("KV 缓存随“上下文 × 并发”增长" in reply)


def test_rope_switch_in_a_zh_answer_has_no_english_aside() -> None:
    """Trial s26 #20: '…--max-model-len 131072 (older vLLM: --rope-scaling)。' inside a zh answer; the
    command fragment is the same in every language and carries no words (estimator.context_window)."""
    reply = ask_quietly("用vLLM部署Qwen3-30B-A3B，一张H100，上下文128k，能跑几条并发")
    assert "--hf-overrides" in reply and "older vLLM" not in reply


@pytest.mark.parametrize(
    ("q", "said"),
    [
        ("Ollama qwen3:8b on a laptop RTX 3060 6GB, how fast?", "with num_gpu 37"),
        ("笔记本3060 6G用Ollama跑qwen3:8b多快", "num_gpu 37"),
    ],
)
def test_ollama_places_its_own_layers_on_a_small_card(capsys, q: str, said: str) -> None:
    """Trial s26 #19: Ollama splits the layers by itself (num_gpu), so a 6 GB laptop card is answered with
    its split, not 'does not fit — name llama.cpp and your RAM'. Qwen3-8B Q4_K_M: 36 layers + the output
    layer (4.3 GiB) + a 4K fp16 KV cache (36 × 8 × 128 × 2 × 2 B = 144 KiB × 4,096 = 0.6 GiB) + the compute
    buffer = 4.9 GiB of the 5 GiB llama.cpp uses (6 GiB less 1 GiB), the token embeddings (0.4 GiB) in RAM
    as llama.cpp keeps them: borderline at 98.8 %, ≈ 32 tokens/s (336 GB/s over the GPU side)."""
    d = ask_in_process(capsys, q)
    split = d["report"]["inference"]["layer_split"]
    assert split["gpu_layers_stated"] == 37 == split["layers"] + 1 and split["gpu_layers_chosen"] is True
    assert d["report"]["feasible"] == "borderline"
    assert split["tokens_per_s_low"] == pytest.approx(32.0, abs=0.5)
    head = d["reply"].splitlines()[0]
    assert said in head and "llama.cpp" not in head


@pytest.mark.parametrize(
    ("q", "said"),
    [
        ("Serve Qwen2.5-7B-Instruct with vLLM on one L4 — max context?", "longest context: 32K, the model's"),
        (
            "用vLLM在一张L4上部署Qwen2.5-7B-Instruct，上下文最多能开多长？",
            "最长上下文：32K，即模型的原生窗口",
        ),
    ],
)
def test_max_context_is_solved_on_the_users_card(capsys, q: str, said: str) -> None:
    """Trial s26 #10: 'max context?' is answered with the longest context one sequence fits, from the KV
    cache the card holds: vLLM V1 on an L4 keeps 91,648 tokens (test_vllm_v1_starts_a_7b_at_32k_on_one_l4),
    89K in whole 1,024-token steps — past Qwen2.5-7B's native 32,768, which only YaRN (off by default)
    extends to 131,072: since s26 trial 2 #9 the answer stops at the native window and says so (was 89K)."""
    d = ask_in_process(capsys, q)
    assert d["request"]["context_asked"] is True
    inf = d["report"]["inference"]
    assert inf["kv_capacity_tokens"] == 91_648 and inf["context_tokens"] == 32_768
    assert inf["concurrency"] == 1
    assert said in d["reply"].splitlines()[0]


def test_max_context_on_a_mac_is_the_models_own_limit(capsys) -> None:
    """Trial s26 #10: Llama-3.3-70B Q4_K_M (42.5 GB) on an M4 Max 128 GB (95 GiB working set): 42.5 GB +
    131,072 × 320 KiB = 85.5 GB fits, so the longest context is the model's own 128K, not a 4K default."""
    d = ask_in_process(
        capsys, "Run Llama-3.3-70B on a MacBook Pro M4 Max 128GB with Ollama — tokens/s and max context?"
    )
    inf = d["report"]["inference"]
    assert inf["context_tokens"] == 131_072 and d["report"]["feasible"] in ("yes", "borderline")
    # s33: with flash attention unstated, a build without it also keeps 131,072 × 512 × 64 × 4 B = 17.2 GB of
    # KQ scores (estimator.serving_verdict.flash_unstated): 'fits with flash attention; without it, tight'
    # s33 fix A: on Ollama the reason is its own ('set OLLAMA_FLASH_ATTENTION=1'; Ollama has no -fa and keeps
    # flash attention off for Llama by default: ollama fs/ggml/ggml.go FlashAttention())
    assert d["report"]["feasible_reason"] == "flash_unstated_ollama"
    assert "longest context that fits: 128K" in d["reply"].splitlines()[0]
    assert any(a["field"] == "context" and a["why"] == "context_asked" for a in d["assumptions"])
