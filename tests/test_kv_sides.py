"""llama.cpp's K and V cache types set apart or one alone (s20 #2): ``--cache-type-k``/``-ctk`` and
``--cache-type-v``/``-ctv`` each default to f16 (ggml-org/llama.cpp common/arg.cpp), and
src/llama-kv-cache.cpp makes each layer's K and V tensors of ``type_k`` and ``type_v``; so K is sized at its
type and V at its own, never the stated type for both, never named as not used.

ggml block sizes (ggml/src/ggml.c type_traits, 32 values a block): q8_0 34 B → 1.0625 B a value, q4_0 18 B
→ 0.5625; f16 2. Per token, K and V each hold layers × KV heads × head size values (config.json):
Llama-3.1-8B 32 × 8 × 128 = 32,768; Qwen2.5-14B 48 × 8 × 128 = 49,152."""

from __future__ import annotations

import pytest

from tests.cli_run import ask_in_process, named

QWEN14 = 49_152
LLAMA8 = 32_768


@pytest.mark.parametrize(
    ("text", "k", "v", "per_token"),
    [
        # K q8_0 + V f16: 32,768 × (1.0625 + 2) = 100,352 B
        ("llama.cpp Llama-3.1-8B Q4_K_M on a 4060 8GB, -c 32768 --cache-type-k q8_0", "q8_0", "fp16",
         LLAMA8 * 3.0625),
        # K q4_0 + V f16: 49,152 × 2.5625 = 125,952 B (123 KiB)
        ("llama.cpp 跑 Qwen2.5-14B Q4_K_M，4060Ti 16G，-c 32768 -ctk q4_0，显存够吗", "q4_0", "fp16",
         QWEN14 * 2.5625),
        # K f16 + V q8_0: 49,152 × 3.0625 = 150,528 B (147 KiB)
        ("llama-server -m qwen2.5-14b-q4_k_m.gguf -c 32768 -ctv q8_0 on RTX 4060 Ti 16GB", "fp16", "q8_0",
         QWEN14 * 3.0625),
        ("llama.cpp 跑 Qwen2.5-14B Q4_K_M，4060Ti 16G，上下文 32k，只设了 --cache-type-v q4_0", "fp16",
         "q4_0", QWEN14 * 2.5625),
        # K q8_0 + V q4_0: 49,152 × 1.625 = 79,872 B
        ("llama-server -m qwen2.5-14b-q4_k_m.gguf -c 32768 -ctk q8_0 -ctv q4_0 on RTX 4060 Ti 16GB", "q8_0",
         "q4_0", QWEN14 * 1.625),
    ],
)  # fmt: skip
def test_k_and_v_each_at_its_own_type(
    capsys: pytest.CaptureFixture[str], text: str, k: str, v: str, per_token: float
) -> None:
    answer = ask_in_process(capsys, text)
    assert answer["request"]["kv_precision"] == k and answer["request"]["kv_precision_v"] == v
    inf = answer["report"]["inference"]
    assert inf["kv_bytes_per_token"] == pytest.approx(per_token)
    assert inf["kv_precision"] == f"K {k}, V {v}"
    assert not any(n.startswith("kv_precision") for n in named(answer))


def test_the_reply_names_both_types_in_english_and_chinese(capsys: pytest.CaptureFixture[str]) -> None:
    en = ask_in_process(
        capsys, "llama-server -m qwen2.5-14b-q4_k_m.gguf -c 32768 -ctv q8_0 on RTX 4060 Ti 16GB"
    )
    assert "KV cache (K fp16, V q8_0): 147 KiB per token × 32K context" in en["reply"]
    zh = ask_in_process(capsys, "llama.cpp 跑 Qwen2.5-14B Q4_K_M，4060Ti 16G，-c 32768 -ctk q4_0，显存够吗")
    assert "KV 缓存（K q4_0, V fp16）：每 token 123 KiB" in zh["reply"]


def test_the_same_type_on_both_sides_is_one_type(capsys: pytest.CaptureFixture[str]) -> None:
    answer = ask_in_process(
        capsys, "llama-server -m qwen2.5-14b-q4_k_m.gguf -c 32768 -ctk q8_0 -ctv q8_0 on RTX 4060 Ti 16GB"
    )
    assert answer["request"]["kv_precision"] == "q8_0" and answer["request"]["kv_precision_v"] is None
    assert answer["report"]["inference"]["kv_bytes_per_token"] == pytest.approx(QWEN14 * 2 * 1.0625)


@pytest.mark.parametrize(
    ("text", "flags"),
    [
        ("llama-server -m qwen2.5-14b-q4_k_m.gguf -c 32768 -ctv q8_0 on RTX 4060 Ti 16GB",
         "-ctk f16 \\\n  -ctv q8_0"),
        ("llama-server -m qwen2.5-14b-q4_k_m.gguf -c 32768 -ctk q4_0 -ctv q4_0 on RTX 4060 Ti 16GB",
         "-ctk q4_0 \\\n  -ctv q4_0"),
    ],
)  # fmt: skip
def test_the_llama_cpp_recipe_runs_the_types_sized(
    capsys: pytest.CaptureFixture[str], text: str, flags: str
) -> None:
    """The launch script keeps each side's type as sized (before: -ctk/-ctv only for an fp8 cache)."""
    recipes = ask_in_process(capsys, text)["report"]["recipes"]
    (script,) = [r["text"] for r in recipes if r["tool"] == "llama.cpp"]
    assert flags in script
