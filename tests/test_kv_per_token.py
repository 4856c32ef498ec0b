"""KV cache bytes per token of a dozen catalog models, hand-computed from their release configs.

Convention (``estimator.inference.kv_bytes_per_token``): bf16 (2 bytes), one token, all layers, K and V —
every layer counted whether or not it uses a sliding window (a windowed layer stops growing at the window:
that cap is applied per sequence by ``kv_bytes_per_sequence``, tested below for Gemma 3).

Standard / GQA / MQA attention: 2 (K and V) × layers × KV heads × head_dim × 2 bytes.
MLA (DeepSeek-V2/V3, Kimi K2, MiniCPM3): layers × (kv_lora_rank + qk_rope_head_dim) × 2 bytes — the cached
latent and the decoupled RoPE key (DeepSeek-V2 paper §2.1.2).

Each row also pins the catalog fields the value comes from, so a wrong catalog entry fails here too.
"""

from __future__ import annotations

import pytest

from estimator import catalog
from estimator.inference import kv_bytes_per_sequence, kv_bytes_per_token

# (catalog id, config fields read, hand-computed bytes per token)
# fields: (num_hidden_layers, num_key_value_heads, head_dim);
# for MLA (num_hidden_layers, kv_lora_rank, qk_rope_head_dim)
GQA_ROWS = [
    # mistralai/Mistral-Small-24B-Base-2501 config.json: 40 layers, 8 KV heads, head_dim 128
    ("Mistral-Small-24B", (40, 8, 128), 2 * 40 * 8 * 128 * 2),  # 163,840
    # google/gemma-3-27b-it config.json text_config: 62 layers, 16 KV heads, head_dim 128
    ("Gemma-3-27B", (62, 16, 128), 2 * 62 * 16 * 128 * 2),  # 507,904
    # meta-llama/Llama-4-Maverick-17B-128E config.json text_config: 48 layers, 8 KV heads, 5120/40 = 128
    ("Llama-4-Maverick-17B-128E", (48, 8, 128), 2 * 48 * 8 * 128 * 2),  # 196,608
    # deepseek-ai/deepseek-llm-67b-chat config.json: 95 layers, 8 KV heads, 8192/64 = 128
    ("DeepSeek-LLM-67B", (95, 8, 128), 2 * 95 * 8 * 128 * 2),  # 389,120
    # internlm/internlm3-8b-instruct config.json: 48 layers, 2 KV heads, head_dim 128
    ("InternLM3-8B", (48, 2, 128), 2 * 48 * 2 * 128 * 2),  # 49,152
    # Qwen/Qwen1.5-72B-Chat config.json: 80 layers, 64 KV heads (multi-head attention), 8192/64 = 128
    ("Qwen1.5-72B", (80, 64, 128), 2 * 80 * 64 * 128 * 2),  # 2,621,440
    # Qwen/Qwen2-57B-A14B config.json: 28 layers, 4 KV heads, 3584/28 = 128
    ("Qwen2-57B-A14B", (28, 4, 128), 2 * 28 * 4 * 128 * 2),  # 57,344
    # Qwen/Qwen3-Coder-480B-A35B-Instruct config.json: 62 layers, 8 KV heads, head_dim 128
    ("Qwen3-Coder-480B-A35B", (62, 8, 128), 2 * 62 * 8 * 128 * 2),  # 253,952
    # tiiuae/falcon-7b config.json: 32 layers, multi-query (1 KV head), 4544/71 = 64
    ("Falcon-7B", (32, 1, 64), 2 * 32 * 1 * 64 * 2),  # 8,192
    # databricks/dbrx-instruct config.json: n_layers 40, attn_config.kv_n_heads 8, 6144/48 = 128
    ("DBRX", (40, 8, 128), 2 * 40 * 8 * 128 * 2),  # 163,840
]
MLA_ROWS = [
    # moonshotai/Kimi-K2-Instruct config.json: 61 layers, kv_lora_rank 512, qk_rope_head_dim 64
    ("Kimi-K2", (61, 512, 64), 61 * (512 + 64) * 2),  # 70,272
    # openbmb/MiniCPM3-4B config.json: 62 layers, kv_lora_rank 256, qk_rope_head_dim 32
    ("MiniCPM3-4B", (62, 256, 32), 62 * (256 + 32) * 2),  # 35,712
]


def test_the_hand_computed_values() -> None:
    """The products above, written out (so a typo in a formula row cannot hide)."""
    values = {mid: v for mid, _, v in GQA_ROWS + MLA_ROWS}
    assert values == {
        "Mistral-Small-24B": 163_840,
        "Gemma-3-27B": 507_904,
        "Llama-4-Maverick-17B-128E": 196_608,
        "DeepSeek-LLM-67B": 389_120,
        "InternLM3-8B": 49_152,
        "Qwen1.5-72B": 2_621_440,
        "Qwen2-57B-A14B": 57_344,
        "Qwen3-Coder-480B-A35B": 253_952,
        "Falcon-7B": 8_192,
        "DBRX": 163_840,
        "Kimi-K2": 70_272,
        "MiniCPM3-4B": 35_712,
    }


@pytest.mark.parametrize(("model_id", "fields", "expected"), GQA_ROWS)
def test_kv_bytes_per_token_gqa(model_id: str, fields: tuple[int, int, int], expected: int) -> None:
    m = catalog.model(model_id)
    assert (m.layers, m.kv_heads, m.head_dim_effective) == fields
    assert m.kv_lora_rank is None
    assert kv_bytes_per_token(m) == expected


@pytest.mark.parametrize(("model_id", "fields", "expected"), MLA_ROWS)
def test_kv_bytes_per_token_mla(model_id: str, fields: tuple[int, int, int], expected: int) -> None:
    m = catalog.model(model_id)
    assert (m.layers, m.kv_lora_rank, m.qk_rope_head_dim) == fields
    assert kv_bytes_per_token(m) == expected


def test_fp8_kv_halves_it() -> None:
    assert kv_bytes_per_token(catalog.model("DBRX"), kv_bytes=1.0) == 81_920


def test_gemma3_sliding_window_caps_per_sequence() -> None:
    """Gemma 3 27B: sliding_window 1024 on 5 of every 6 layers (sliding_window_pattern 6: 52 of 62),
    full attention on the other 10. At 32,768 tokens: 8,192 bytes per layer per token ×
    (10 × 32,768 + 52 × 1,024) = 3,120,562,176 bytes; below the window every layer holds every token."""
    m = catalog.model("Gemma-3-27B")
    assert (m.sliding_window, m.sliding_window_layers) == (1024, 52)
    assert kv_bytes_per_sequence(m, 32_768) == 8_192 * (10 * 32_768 + 52 * 1_024) == 3_120_562_176
    assert kv_bytes_per_sequence(m, 1_000) == 507_904 * 1_000
