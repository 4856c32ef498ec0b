"""Session 33, verdicts against real runs, second half: a frozen base loaded in fp32, ChatGLM3's
finetune_hf.py read as such a load, and the serving-OOM note in the runtime's own settings.

ChatGLM3-6B (THUDM/chatglm3-6b ``config.json``: ``num_layers`` 28, ``multi_query_group_num`` 2,
``kv_channels`` 128; 6,243,584,000 parameters as released, 6.24e9 in the catalog). Loaded in fp32 its
frozen weights are 4 × 6.24e9 = 24,960,000,000 bytes (23.2 GiB), above what a 24 GiB RTX 4090 holds once a
step's activations and the CUDA context are added; in bf16 they are 12,480,000,000 (11.6 GiB). The P-tuning
v2 prefix at 128 tokens trains 128 × 28 layers × 2 (key, value) × 2 KV heads × 128 = 1,835,008 parameters,
16 bytes each with fp32 AdamW: 29,360,128 bytes.

ChatGLM3's finetune_demo/finetune_hf.py (@034cc387) calls ``AutoModelForCausalLM.from_pretrained`` with
no ``torch_dtype`` for PREFIX_TUNING, LORA and full fine-tuning; transformers before v5 then loads float32
(:mod:`bot.parse.script_reads`).
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from bot.core.runtime_keys import runtime_keys

PARAMS = 6.24e9
FP32_WEIGHTS = 4 * PARAMS
assert FP32_WEIGHTS == 24_960_000_000
PREFIX = 128 * 28 * 2 * 2 * 128
assert PREFIX == 1_835_008


def _ask(capsys, question: str, fmt: str = "json") -> dict | str:
    main(["ask", "--format", fmt, "--", question])
    out = capsys.readouterr().out
    return json.loads(out) if fmt == "json" else out


FP32_STATED = [
    "P-Tuning v2 fine-tune ChatGLM3-6B in fp32 on one RTX 4090: does it fit?",
    "用 fp32 对 chatglm3-6b 做 P-Tuning v2 微调，一张 4090 够吗？",
]


@pytest.mark.parametrize("question", FP32_STATED)
def test_a_ptuning_base_stated_in_fp32_is_four_bytes_a_weight(capsys, question):
    """The stated fp32 was read and then sized at 2 bytes a weight (12.48 GB, "fits"): now 24.96 GB,
    which with the step's activations and the CUDA context is above the card: "does not fit"."""
    answer = _ask(capsys, question)
    memory = answer["report"]["memory"]
    assert answer["request"]["precision"] == "fp32" and answer["request"]["method"] == "ptuning"
    assert memory["breakdown"]["weights"] == FP32_WEIGHTS
    assert memory["breakdown"]["prefix"] == 16 * PREFIX == 29_360_128
    assert answer["report"]["feasible"] == "no"
    text = _ask(capsys, question, "text")
    assert "23.2 GiB" in text  # 24.96e9 / 2**30


def test_a_lora_base_without_a_precision_stays_sixteen_bit(capsys):
    answer = _ask(capsys, "LoRA fine-tune ChatGLM3-6B on one RTX 4090, seq 2048: does it fit?")
    assert answer["request"]["precision"] is None
    assert answer["report"]["memory"]["breakdown"]["weights"] == 2 * PARAMS == 12_480_000_000


SCRIPT = [
    "一张 4090 跑 python finetune_hf.py data/ THUDM/chatglm3-6b configs/ptuning_v2.yaml，"
    "报显存不足，需要多少显存？",
    "python finetune_hf.py data/ THUDM/chatglm3-6b configs/ptuning_v2.yaml on one RTX 4090 runs out of "
    "memory: how much memory does P-Tuning v2 of chatglm3-6b need?",
]


@pytest.mark.parametrize("question", SCRIPT)
def test_chatglm3_finetune_hf_is_read_as_an_fp32_load_and_named(capsys, question):
    """At the one 4090 that failed: 24.96 GB of fp32 weights, "does not fit" (the estimate agrees)."""
    answer = _ask(capsys, question)
    assert answer["request"]["precision"] == "fp32"
    assert {"text": "script: finetune_hf.py", "reason": "script_fp32"} in answer["interpretation"]["ignored"]
    first = answer["report"]["warnings"][0]
    assert first["params"]["feasible"] == "no" and first["params"]["gpu_count"] == 1
    text = _ask(capsys, question, "text")
    assert ("已使用" if question.startswith("一") else "Used:") in text
    assert "torch_dtype" in text and "finetune_hf.py" in text


@pytest.mark.parametrize(
    "question",
    [
        "python finetune_hf.py data/ THUDM/chatglm3-6b configs/lora.yaml with bf16 on one RTX 4090: memory?",
        "python finetune_hf.py data/ meta-llama/Llama-2-7b-hf lora.yaml on one RTX 4090: memory needed?",
    ],
)
def test_a_stated_precision_or_another_model_keeps_its_own(capsys, question):
    """A precision the user states is theirs; another model's 'finetune_hf.py' is not ChatGLM3's."""
    answer = _ask(capsys, question)
    assert answer["request"]["precision"] != "fp32"
    assert all(i["reason"] != "script_fp32" for i in answer["interpretation"]["ignored"])


def test_runtime_keys_are_each_runtimes_own():
    assert runtime_keys("TGI") == {
        "runtime": "TGI",
        "window_key": "--max-total-tokens",
        "share_key": "--cuda-memory-fraction",
    }
    assert runtime_keys("llama.cpp")["window_key"] == "-c"
    assert runtime_keys("SGLang")["window_key"] == "--context-length"
    assert runtime_keys("lmdeploy")["window_key"] == "--session-len"
    assert runtime_keys(None)["window_key"] == "--max-model-len"  # the serving default, vLLM


SERVING_OOM = [
    ("TGI serving Llama-3-8B on one A100 80GB runs out of memory, why?", "TGI", "--max-total-tokens"),
    ("用 llama.cpp 在一张 4090 上跑 Qwen2.5-7B Q4_K_M 爆显存了，为什么？", "llama.cpp", "-c"),
    ("vLLM serving Llama-3-8B on one A100 80GB runs out of memory, why?", "vLLM", "--max-model-len"),
]


@pytest.mark.parametrize(("question", "runtime", "key"), SERVING_OOM)
def test_the_serving_oom_note_names_the_runtimes_own_context_setting(capsys, question, runtime, key):
    """The estimate holds the model at the count that failed; the note names what to check in the
    user's runtime, never vLLM's max_model_len for TGI or llama.cpp."""
    answer = _ask(capsys, question)
    first = answer["report"]["warnings"][0]
    assert first["code"] == "serving_count_failed_fit"
    assert first["params"]["runtime"] == runtime and first["params"]["window_key"] == key
    text = _ask(capsys, question, "text")
    line = next(x for x in text.splitlines() if "⚠️" in x and key in x)
    assert ("max-model-len" in line or "max_model_len" in line) == (runtime == "vLLM")
