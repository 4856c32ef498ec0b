"""Session 34 fix D: findings of a fresh-user trial of the merged tree (each fails before its fix)."""

from __future__ import annotations

import json

import pytest

from bot.web.state import api_json, checked_prev
from tests.cli_run import ask_json, ask_text

GGUF_70B = "./llama-server -m Llama-3.3-70B-Instruct-Q4_K_M.gguf -ngl 60 -c 16384 -t 16"


# -- #1: the host's RAM kind said beside a pasted local-runtime command ------------------------------------


@pytest.mark.parametrize(
    ("text", "ddr", "channels", "ram", "low"),
    [
        # DDR4 JEDEC 2,400–3,200 MT/s × 8 B × 2 channels (two assumed): 38.4–51.2 GB/s (estimator/host_ddr.py)
        (f"{GGUF_70B} on a 3090 + 64GB DDR4", 4, None, 64.0, 38.4e9),
        # DDR5 4,800 MT/s × 8 B × 2 channels said: 76.8 GB/s
        (f"{GGUF_70B}，3090，内存 DDR5 双通道 64G", 5, 2, 64.0, 76.8e9),
        ("ollama run qwen2.5:32b on a 4060 Ti 16GB + 64GB DDR5", 5, None, 64.0, 76.8e9),
    ],
)
def test_ram_kind_after_a_command_is_read(
    text: str, ddr: int, channels: int | None, ram: float, low: float
) -> None:
    out = ask_json(text)
    req = out["request"]
    assert (req["host_ddr"], req["host_channels"], req["host_memory_gib"]) == (ddr, channels, ram)
    split = out["report"]["inference"]["layer_split"]
    assert split["host_bandwidth_low"] == pytest.approx(low)
    assert not [u for u in out["interpretation"]["ignored"] if u.get("text") in ("64", "64g", "64G")]


def test_ram_kind_beside_a_server_engine_is_no_host_setting() -> None:
    """vLLM keeps the model on the GPUs: no layer split, no local runtime, so 'DDR4' sets nothing."""
    req = ask_json("vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 8192 on a 4090, box has 64GB DDR4")[
        "request"
    ]
    assert req["host_ddr"] is None


def test_decode_line_is_the_fitting_config_the_headline_times() -> None:
    """-ngl 60 does not fit a 3090: the headline times -ngl 42, so the decode line reads -ngl 42's bytes."""
    out = ask_json(f"{GGUF_70B} on a 3090 + 64GB DDR4")
    s = out["report"]["inference"]["layer_split"]
    assert (s["fits_gpu"], s["gpu_layers_stated"], s["max_gpu_layers"]) == (False, 60, 42)
    # the headline's speed is the decode line's bytes at its bandwidths (estimator.layer_offload._seconds:
    # GPU bytes ÷ (936 GB/s × 50 %) + CPU bytes ÷ (host bandwidth × 65 %))
    seconds = s["max_gpu_read_bytes"] / (936e9 * 0.5) + s["max_cpu_read_bytes"] / (38.4e9 * 0.65)
    assert 1 / seconds == pytest.approx(s["max_tokens_per_s_low"], rel=1e-3)
    assert s["max_gpu_read_bytes"] < s["gpu_read_bytes"]  # fewer layers on the card
    text = ask_text(f"{GGUF_70B} on a 3090 + 64GB DDR4")
    decode = next(line for line in text.splitlines() if "Decode" in line)
    assert decode.startswith("• Decode at -ngl 42: 24.5 GB read per token")
    assert "35.0 GB" not in decode  # -ngl 60's, which does not fit 24 GB
    assert "DDR4" in decode and "2,400–3,200 MT/s" in decode


def test_decode_line_of_a_fitting_split_is_unchanged() -> None:
    text = ask_text("./llama-server -m Qwen2.5-32B-Instruct-Q4_K_M.gguf -ngl 40 -c 8192 on a 4060 Ti 16GB")
    decode = next(line for line in text.splitlines() if "Decode" in line)
    assert decode.startswith("• Decode: ")


# -- #2: a follow-up over the API keeps every default assumed ---------------------------------------------


def _api(q: str, prev: dict | None = None) -> dict:
    return json.loads(api_json(q, None, None, None, checked_prev(prev) if prev else None))


def test_defaults_stay_assumed_through_prev() -> None:
    first = _api("QLoRA Llama-3.1-70B on 2 RTX 3090")
    req = first["request"]
    assert req["batch_size"] == 1  # estimator.defaults.MICRO_BATCH, assumed as 'micro_batch'
    assert {"batch_size", "seq_len", "currency"} <= set(req["assumed_fields"])
    assert {"method", "model", "gpu", "gpu_count"}.isdisjoint(req["assumed_fields"])  # said
    follow = _api("那换成4张A100呢", req)
    headline = follow["reply"].splitlines()[0]
    assert "微批次" not in headline  # a default is not echoed as the user's setting
    assert follow["request"]["gpu_count"] == 4 and follow["request"]["currency"] == "CNY"


def test_stated_micro_batch_stays_stated() -> None:
    req = _api("QLoRA Llama-3.1-70B on 2 RTX 3090, micro batch 4")["request"]
    assert req["batch_size"] == 4 and "batch_size" not in req["assumed_fields"]


def test_inference_context_default_is_assumed() -> None:
    req = _api("serve Qwen2.5-7B on a 4090")["request"]
    assert req["seq_len"] == 4096 and "seq_len" in req["assumed_fields"]  # estimator.defaults.SERVE_CONTEXT


# -- #3: a chat release's window --------------------------------------------------------------------------


def _window_notes(text: str) -> list[dict]:
    notes = ask_json(text)["report"]["warnings"]
    return [n for n in notes if n["code"] in ("beyond_context_window", "rope_scaling_needed")]


@pytest.mark.parametrize(
    "text",
    [
        "ollama run glm4:9b 在 3060 12g 上 够不够，context 设 32k",  # Ollama's glm4: the chat release
        "glm-4-9b-chat on a 3060 12GB with 32k context",
        "用 vLLM 部署 THUDM/glm-4-9b-chat，上下文 64k，一张 A100",
        "ollama run glm4 on a 4090 with num_ctx 65536",
    ],
)
def test_chat_release_window_is_128k(text: str) -> None:
    """THUDM/glm-4-9b-chat config.json: seq_length 131072 (the base THUDM/glm-4-9b: 8192)."""
    assert _window_notes(text) == []


@pytest.mark.parametrize(
    ("text", "window"),
    [
        ("glm-4-9b on a 3060 12GB with 32k context", 8192),  # the base release
        ("GLM-4-9B base on a 3060 12GB with 32k context", 8192),
        ("glm-4-9b-chat on an A100 with 200k context", 131072),  # past the chat window: that one named
    ],
)
def test_base_window_and_past_the_chat_window(text: str, window: int) -> None:
    notes = _window_notes(text)
    assert [n["params"]["window"] for n in notes] == [window]


# -- #4: a self-correction replaces what it corrects ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "gpu", "count", "taken_back"),
    [
        (
            "fine-tune Qwen2.5-7B with LoRA on 2 A100 64GB? no wait, on 2 Ascend 910B",
            "Ascend-910B",
            2,
            "2 a100 64gb",
        ),
        (
            "fine-tune Qwen2.5-7B with LoRA on 2 A100 64GB? no wait on 2 Ascend 910B",
            "Ascend-910B",
            2,
            "2 a100 64gb",
        ),
        ("serve Llama-3-70B on 4 A100, actually, on 4 H100", "H100-SXM5-80GB", 4, "4 a100"),
        ("serve Llama-3-70B on 4 A100, I mean 4 H100", "H100-SXM5-80GB", 4, "4 a100"),
        ("serve Qwen2.5-7B on an A100, no wait, an H100", "H100-SXM5-80GB", None, "a100"),
        ("微调 Qwen2.5-7B 用 4 张 A100，我是说 4 张 H100", "H100-SXM5-80GB", 4, "4 张 a100"),
        ("微调 Qwen2.5-7B 用 4 张 A100，更正为8 张 H100", "H100-SXM5-80GB", 8, "4 张 a100"),
        ("用 2 张 A100 80G，不对，2 张 910B 微调 Qwen2.5-7B LoRA", "Ascend-910B", 2, "2 张 a100 80g"),
    ],
)
def test_corrected_card_is_replaced(text: str, gpu: str, count: int | None, taken_back: str) -> None:
    out = ask_json(text)
    assert (out["request"]["gpu"], out["request"]["gpu_count"]) == (gpu, count)
    assert out["interpretation"]["unknown_gpu"] is None  # no 'A100 64G' made up and priced
    ignored = [(i["text"], i["reason"]) for i in out["interpretation"]["ignored"]]
    assert (taken_back, "replaced_by_later_value") in ignored
    assert "A100" not in ask_text(text).split("\n\n")[0].replace("A100, ", "")  # no A100 row or figure


@pytest.mark.parametrize(
    ("text", "model", "taken_back"),
    [
        ("fine-tune Llama-3-8B, sorry, Qwen2.5-7B with LoRA on 2 A100", "Qwen2.5-7B", "llama-3-8b"),
        ("用 LoRA 微调 Llama-3-8B，我是说 Qwen2.5-7B，2 张 A100", "Qwen2.5-7B", "llama-3-8b"),
    ],
)
def test_corrected_model_is_replaced(text: str, model: str, taken_back: str) -> None:
    out = ask_json(text)
    assert out["request"]["model"] == model
    assert (taken_back, "replaced_by_later_value") in [
        (i["text"], i["reason"]) for i in out["interpretation"]["ignored"]
    ]


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        # 'i mean' clarifying the method, not a setting: the 8 A100 80G stay
        (
            "full fine-tuning of llama3 70b on 8*a100 80g? i mean a full fine-tuning, not lora",
            "A100-SXM4-80GB",
            8,
        ),
        ("I actually want to serve Llama-3-70B on 4 H100, 32 users", "H100-SXM5-80GB", 4),
        ("serve Qwen2.5-7B on an A100 sorry for the typo", "A100-SXM4-80GB", 1),
    ],
)
def test_words_that_correct_nothing_take_nothing_back(text: str, gpu: str, count: int) -> None:
    out = ask_json(text)
    assert (out["request"]["gpu"], out["request"]["gpu_count"]) == (gpu, count)
    assert "replaced_by_later_value" not in [i["reason"] for i in out["interpretation"]["ignored"]]
