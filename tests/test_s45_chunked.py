"""Llama 4's chunked local attention sized as the stated runtime allocates it (issue 24 item 4, s45):
estimator.chunked_kv, its settings read from prose and pasted commands (bot.parse.chunked_flags).

Real values: Llama 4 Scout / Maverick config.json text_config (48 layers, 8 KV heads, head_dim 128,
attention_chunk_size 8192, every 4th layer NoPE/global: 36 chunked); bf16 KV = 8 × 128 × 2 (K, V) × 2 B =
4 KiB a token a layer. vLLM: ChunkedLocalAttentionSpec (one chunk) only with the hybrid KV cache manager,
which VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE gates (vllm.envs: False in v0.12.0, True in
v0.16.0). SGLang: --hybrid-kvcache-ratio r (server_args.py: const 0.5), local pool (1 − r) + r × chunk ÷
context_length of the global one. llama.cpp: LLAMA_SWA_TYPE_CHUNKED layers in the iswa SWA cache
(n_swa × n_seq + n_ubatch cells)."""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.parse.chunked_flags import chunked_settings
from estimator.catalog import model as get_model
from tests.cli_run import ask_json_in_process, ignored_pairs

PER_LAYER = 8 * 128 * 2 * 2  # bytes a token a layer, bf16
FULL = 48 * PER_LAYER  # 196,608 B a token on every layer
ENV = "VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE"
VLLM_H100 = 8192 + 8192  # ChunkedLocalAttentionSpec: chunk + max_num_batched_tokens (8,192, H100; s45 B1)
VLLM_A100 = 8192 + 2048  # an A100 keeps vLLM's small default, max_num_batched_tokens 2,048
LLAMA_CPP = 8192 + 512  # llama_kv_cache_iswa SWA cells: n_swa × n_seq + n_ubatch (512), one sequence


def chunked(context: int, window: int = 8192) -> float:
    """12 global layers hold the context, 36 chunked layers min(context, window)."""
    return PER_LAYER * (12 * context + 36 * min(context, window))


def kv_and_codes(q: str) -> tuple[float, int, list[str]]:
    report = answer(q).report
    assert report is not None and report.inference is not None
    codes = [w.code for w in report.warnings if "chunked_kv" in w.code]
    return report.inference.kv_bytes_per_sequence, report.inference.min_gpus, codes


def test_catalog_keeps_the_chunk_apart_from_a_window() -> None:
    for name in ("Llama-4-Scout-17B-16E", "Llama-4-Maverick-17B-128E"):
        spec = get_model(name)
        assert (spec.attention_chunk_size, spec.chunked_layers, spec.sliding_window) == (8192, 36, None)


@pytest.mark.parametrize(
    "q",
    [
        "Serve Llama 4 Scout with a 1M token context for one user: how many H100?",
        "Llama 4 Scout 跑 100 万 token 上下文，单用户，要几张 H100？",
    ],
)
def test_unstated_runtime_is_vllm_default_per_chunk_at_1m(q: str) -> None:
    """No runtime said: vLLM's current default (one chunk), named in a note. 50.4 GB, not 197 GB: 4 H100."""
    kv, gpus, codes = kv_and_codes(q)
    assert kv == pytest.approx(chunked(1_000_000, VLLM_H100)) == pytest.approx(51_567_919_104)
    assert (gpus, codes) == (4, ["chunked_kv_assumed"])


@pytest.mark.parametrize(
    "q",
    [
        "Llama 4 Scout at 128K context on H100, how many GPUs?",
        "Llama 4 Scout 128K 上下文，H100 要几张？",
    ],
)
def test_unstated_runtime_at_128k(q: str) -> None:
    kv, _, codes = kv_and_codes(q)
    assert kv == pytest.approx(chunked(131_072, VLLM_H100)) == pytest.approx(8_858_370_048)
    assert codes == ["chunked_kv_assumed"]


@pytest.mark.parametrize(
    ("q", "per_chunk"),
    [
        (f"Serve Llama 4 Scout with vLLM at 1M context with {ENV}=0, how many H100?", False),
        (f"用 vLLM 部署 Llama 4 Scout，100 万上下文，设置了 {ENV}=0，要几张 H100？", False),
        (f"vLLM 0.11.0 with {ENV}=1 serving Llama 4 Scout at 1M context, how many H100?", True),  # it wins
        (f"vllm==0.11.0 部署 Llama 4 Scout，export {ENV}=1，100万上下文，要几张 H100？", True),
    ],
)  # fmt: skip
def test_env_var_in_prose(q: str, per_chunk: bool) -> None:
    kv, gpus, codes = kv_and_codes(q)
    if per_chunk:
        assert (kv, gpus, codes) == (pytest.approx(chunked(1_000_000, VLLM_H100)), 4, ["chunked_kv_stated"])
    else:  # 196.6 GB of KV beside 218 GB of weights: 8 H100
        assert (kv, gpus, codes) == (pytest.approx(FULL * 1_000_000), 8, ["chunked_kv_full"])
    data = ask_json_in_process(q)
    assert data["request"]["chunked_hybrid_kv"] is per_chunk
    assert not [p for p in ignored_pairs(data) if p[1] == "unread"]  # its 0/1 is no count


@pytest.mark.parametrize(
    ("q", "per_chunk"),
    [
        ("vLLM 0.11.0 serving Llama 4 Scout at 128K context on H100, how many GPUs?", False),
        ("vllm==0.12.0 部署 Llama 4 Scout，128K 上下文，H100 要几张？", False),
        ("vLLM 0.16.0 serving Llama 4 Scout at 128K context on H100, how many GPUs?", True),
        ("vllm 版本 0.17.1 部署 Llama 4 Scout，128K 上下文，H100 要几张？", True),
    ],
)
def test_stated_vllm_release(q: str, per_chunk: bool) -> None:
    """v0.12 and before: the variable's default False (every layer full); v0.16 on: True (one chunk)."""
    kv, _, codes = kv_and_codes(q)
    want = chunked(131_072, VLLM_H100) if per_chunk else FULL * 131_072
    assert kv == pytest.approx(want)
    assert codes == (["chunked_kv_stated"] if per_chunk else ["chunked_kv_full"])


def test_pasted_vllm_command_env_var_and_disable_flag() -> None:
    """No card named: the default A100 80G, where vLLM batches 2,048 tokens a step (8,192 + 2,048 kept)."""
    base = "vllm serve meta-llama/Llama-4-Scout-17B-16E-Instruct -tp 8 --max-model-len 1000000"
    for q, want in (
        (f"VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE=0 {base}", False),
        (f"VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE=1 {base}", True),
        (f"{base} --disable-hybrid-kv-cache-manager", False),
    ):
        data = ask_json_in_process(q)
        assert data["request"]["chunked_hybrid_kv"] is want, q
        kv = data["report"]["inference"]["kv_bytes_per_sequence"]
        assert kv == pytest.approx(chunked(1_000_000, VLLM_A100) if want else FULL * 1_000_000), q


@pytest.mark.parametrize(
    ("q", "ratio"),
    [
        ("SGLang serving Llama 4 Scout at 1M context, how many H100?", None),
        ("用 SGLang 部署 Llama 4 Scout，100万上下文，要几张H100", None),
        ("用 SGLang 部署 Llama 4 Scout，--hybrid-kvcache-ratio 1，100万上下文，要几张H100", 1.0),
        ("python -m sglang.launch_server --model-path meta-llama/Llama-4-Scout-17B-16E-Instruct --tp 8 "
         "--hybrid-kvcache-ratio 1.0 --context-length 1000000", 1.0),
        ("python -m sglang.launch_server --model-path meta-llama/Llama-4-Scout-17B-16E-Instruct --tp 8 "
         "--hybrid-kvcache-ratio --context-length 1000000", 0.5),  # bare: argparse const 0.5
    ],
)  # fmt: skip
def test_sglang_with_and_without_the_ratio(q: str, ratio: float | None) -> None:
    data = ask_json_in_process(q)
    assert data["request"]["hybrid_kvcache_ratio"] == ratio
    kv = data["report"]["inference"]["kv_bytes_per_sequence"]
    if ratio is None:
        assert kv == pytest.approx(FULL * 1_000_000)
    else:  # a chunked layer: (1 − r) × context_length + r × 8192 tokens
        assert kv == pytest.approx(chunked(1_000_000, round((1 - ratio) * 1_000_000 + ratio * 8192)))
    if ratio == 0.5:
        assert kv == pytest.approx(PER_LAYER * (12 * 1_000_000 + 36 * 504_096))


@pytest.mark.parametrize(
    ("q", "per_chunk"),
    [
        ("llama.cpp Llama 4 Scout 128K context on H100 how many", True),
        ("用 llama.cpp 跑 Llama 4 Scout，128K 上下文，H100 要几张", True),
        ("transformers Llama 4 Scout 128K context on H100 how many", False),
        ("用 transformers 跑 Llama 4 Scout，128K 上下文，H100 要几张", False),
    ],
)
def test_other_runtimes(q: str, per_chunk: bool) -> None:
    kv, _, _ = kv_and_codes(q)
    assert kv == pytest.approx(chunked(131_072, LLAMA_CPP) if per_chunk else FULL * 131_072)


@pytest.mark.parametrize(
    ("q", "kv"),
    [
        # vLLM's Llama 4 launch post (2025-04, v0.8.3, before the hybrid manager): Maverick FP8 on 8 H100 to
        # ~430K context, every layer full: 430,000 × 196,608 B = 84.5 GB beside 401 GB of FP8 weights
        ("vLLM 0.8.3: Llama 4 Maverick FP8 on 8 H100 with 430K context, does it fit?", FULL * 430_000),
        ("vLLM 0.8.3 在 8 张 H100 上跑 Llama 4 Maverick FP8，430K 上下文，放得下吗？", FULL * 430_000),
        ("Llama 4 Maverick FP8 on 8 H100 with 430K context, does it fit?", chunked(430_000, VLLM_H100)),
        ("Llama 4 Maverick FP8 在 8 张 H100 上跑 430K 上下文，放得下吗？", chunked(430_000, VLLM_H100)),
    ],
)
def test_maverick_fp8_on_8_h100_at_430k(q: str, kv: float) -> None:
    report = answer(q).report
    assert report is not None and report.inference is not None
    assert report.inference.kv_bytes_per_sequence == pytest.approx(kv)
    assert report.inference.min_gpus == 8 and report.feasible in ("yes", "borderline")


@pytest.mark.parametrize(
    "q",
    [
        f"Mistral 7B v0.1 at 32K context with {ENV}=1 on one 4090",
        "用 SGLang 部署 Qwen2.5-72B，--hybrid-kvcache-ratio 0.5，32K 上下文，要几张H100",
    ],
)
def test_a_model_without_chunked_attention_is_unchanged_and_the_setting_named(q: str) -> None:
    data = ask_json_in_process(q)
    assert not [w for w in data["report"]["warnings"] if "chunked_kv" in w["code"]]
    assert [r for _, r in ignored_pairs(data)] == ["no_chunked_attention"]


@pytest.mark.parametrize(
    ("q", "kv"),
    [
        ("Qwen2.5-72B on H100 at 128K context with vLLM 0.16.0, how many?", 80 * 8 * 128 * 2 * 2 * 131_072),
        ("vLLM 0.11.0 部署 Qwen2.5-72B，128K 上下文，H100 要几张", 80 * 8 * 128 * 2 * 2 * 131_072),
    ],
)
def test_non_llama4_kv_is_release_independent(q: str, kv: int) -> None:
    """Qwen2.5-72B: 80 layers × 8 KV heads × 128, every layer full whatever the release."""
    got, _, codes = kv_and_codes(q)
    assert got == pytest.approx(kv) and codes == []


@pytest.mark.parametrize(
    "s",
    [
        "vllm serve x --enable-chunked-prefill --max-num-batched-tokens 8192",
        "开了 chunked prefill，hybrid 模型",
        "vllm_allow_long_max_model_len=1 vllm serve x",
        "vllm_allow_chunked_local_attn_with_hybrid_kv_cache 这个变量是什么意思",  # no value said
        "--hybrid-kvcache-ratio 1.5",  # outside [0, 1]: not read
    ],
)
def test_must_not_misread(s: str) -> None:
    assert chunked_settings(s)[0] == {}


@pytest.mark.parametrize(
    ("s", "want"),
    [
        ('export vllm_allow_chunked_local_attn_with_hybrid_kv_cache="1"', {"chunked_hybrid_kv": True}),
        ("vllm_allow_chunked_local_attn_with_hybrid_kv_cache 设为 0", {"chunked_hybrid_kv": False}),
        ("vllm_allow_chunked_local_attn_with_hybrid_kv_cache set to true", {"chunked_hybrid_kv": True}),
        ("--disable-hybrid-kv-cache-manager", {"chunked_hybrid_kv": False}),
        ("--hybrid-kvcache-ratio=0.25", {"hybrid_kvcache_ratio": 0.25}),
        ("hybrid_kvcache_ratio 0", {"hybrid_kvcache_ratio": 0.0}),
    ],
)
def test_reads_each_form(s: str, want: dict) -> None:
    assert chunked_settings(s)[0] == want


def _llama4_config(**extra: object) -> dict:
    text = {
        "model_type": "llama4_text", "hidden_size": 5120, "num_hidden_layers": 48, "num_attention_heads": 40,
        "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 8192, "intermediate_size_mlp": 16384,
        "num_local_experts": 16, "num_experts_per_tok": 1, "interleave_moe_layer_step": 1,
        "vocab_size": 202048, "max_position_embeddings": 10485760, "attention_chunk_size": 8192,
    }  # fmt: skip
    text.update(extra)
    return {"architectures": ["Llama4ForConditionalGeneration"], "model_type": "llama4", "text_config": text}


def test_config_json_reads_the_chunked_layers() -> None:
    """A user's Llama 4 config.json: RoPE layers (no_rope_layers 1) are chunked; without the list every 4th
    layer (no_rope_layer_interval 4) is global: 36 of 48; no chunk size: none (never invented)."""
    from estimator.hf_config import spec_from_config

    plain = spec_from_config(_llama4_config()).spec
    assert (plain.attention_chunk_size, plain.chunked_layers, plain.sliding_window) == (8192, 36, None)
    flags = [int((i + 1) % 4 != 0) for i in range(48)]
    assert spec_from_config(_llama4_config(no_rope_layers=flags)).spec.chunked_layers == 36
    flags[3] = 1  # a 37th RoPE layer
    assert spec_from_config(_llama4_config(no_rope_layers=flags)).spec.chunked_layers == 37
    none = spec_from_config(_llama4_config(attention_chunk_size=None)).spec
    assert (none.attention_chunk_size, none.chunked_layers) == (None, None)


@pytest.mark.parametrize(
    "q",
    [
        "How many H100 to serve Llama 4 Scout for 10 users?",
        "Llama 4 Scout 8K 上下文 10 个并发，H100 要几张？",
    ],
)
def test_no_chunk_note_within_one_chunk(q: str) -> None:
    """At a context of at most 8,192 tokens every layer holds the whole context on any runtime: no note."""
    kv, _, codes = kv_and_codes(q)
    report = answer(q).report
    assert report is not None and report.inference is not None
    context = report.inference.context_tokens
    assert context <= 8192 and codes == [] and kv == pytest.approx(FULL * context)
