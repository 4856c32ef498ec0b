"""s39 fixs2: serving and comparison answers, continued (base s39-lead d3477062).

1. A list of models asked how many cards each needs ('Qwen2.5-7B、14B、32B 用 vLLM 部署各要几张 4090')
   is answered with the cards each needs, not with which is cheaper; cost leads only when it is asked.
   Worked by hand (bf16, 2 B per parameter; an RTX 4090's 24 GiB × vLLM's 0.90 less its 1.3 GB
   workspace ≈ 21.4 GiB usable): Qwen2.5-7B 7.6 B → 15.2 GB, one card; Qwen2.5-14B 14.8 B → 29.5 GB,
   more than one card, two; Qwen2.5-32B 32.8 B → 65.5 GB, more than two cards and TP 3 does not divide
   its 40 heads, four.
3. KTransformers named beside a CPU-expert offload ('ktransformers 跑 deepseek r1 671b 一张4090 + 512G内存'):
   the setting in words (its YAML rules put the experts in CPU memory), its own launch
   (``python -m ktransformers.local_chat --model_path … --gguf_path … --optimize_config_path …``,
   kvcache-ai/ktransformers doc/en/DeepseekR1_V3_tutorial.md) and no llama.cpp flag in the split's lines;
   the sizing is the CPU-expert-offload one llama.cpp's ``--cpu-moe`` gets (same figures).
"""

from __future__ import annotations

import json

import pytest

from bot.parse import parse
from bot.parse.models_compared import asks_count
from tests.cli_run import ask_quietly


def _json(*args: str) -> dict:
    return json.loads(ask_quietly("--format", "json", *args))


def _text(*args: str) -> str:
    return ask_quietly("--format", "text", *args)


ZH = "Qwen2.5-7B、14B、32B 用 vLLM 部署各要几张 4090"
EN = "How many 4090s does each of Qwen2.5-7B, 14B and 32B need with vLLM?"


@pytest.mark.parametrize(
    "text",
    [
        "各要几张 4090",
        "分别需要多少张卡",
        "每个要几块显卡",
        "需要多少gpu",
        "how many gpus does each need",
        "how many 4090s each",
        "how many h100 cards",
        "how many a100 80g does each need",
        "how many rtx 4090s",
        "how many h20s for each model",
    ],
)
def test_count_asked(text: str) -> None:
    assert asks_count(text)


@pytest.mark.parametrize(
    "text",
    [
        "哪个部署更划算",  # cost, no count
        "各要几张 4090，哪个更划算",  # count and cost: the cost line answers it
        "how many gpus each, and which is cheaper",
        "how many tokens/s each",  # a speed, not a count
        "which is faster",
        "几个用户并发",  # users, not cards
        "how many 70b models fit",  # a model size, not a card
        "how many users can each serve",
    ],
)
def test_count_not_asked(text: str) -> None:
    assert not asks_count(text)


@pytest.mark.parametrize(
    ("question", "first_line"),
    [
        (
            ZH,
            "按这个负载各需几张卡：Qwen2.5 7B 1 张 RTX 4090；Qwen2.5 14B 2 张 RTX 4090；"
            "Qwen2.5 32B 4 张 RTX 4090",
        ),
        (
            EN,
            "GPUs each needs for this load: Qwen2.5 7B 1 × RTX 4090; Qwen2.5 14B 2 × RTX 4090; "
            "Qwen2.5 32B 4 × RTX 4090",
        ),
    ],
)
def test_cards_each_lead(question: str, first_line: str) -> None:
    out = _text(question)
    assert out.splitlines()[0] == first_line
    assert "划算" not in out.splitlines()[0] and "Cheaper" not in out.splitlines()[0]


def test_cards_each_json() -> None:
    rows = _json(ZH)["report"]["compared_models"]
    assert [(r["model"], r["gpus_for_load"], r["min_gpus"]) for r in rows] == [
        ("Qwen2.5-7B", 1, 1),
        ("Qwen2.5-14B", 2, 2),
        ("Qwen2.5-32B", 4, 4),
    ]
    assert not any(r["chosen"] for r in rows)  # no one model named: the count of each answers


def test_cost_asked_keeps_cost() -> None:
    out = _text("Qwen2.5-7B、14B、32B 用 vLLM 部署哪个更划算，各要几张 4090")
    assert out.splitlines()[0].startswith("部署更划算的是 Qwen2.5 7B")
    assert "compared_count" not in parse("Qwen2.5-7B、14B、32B 用 vLLM 部署哪个更划算").notes


def test_two_models_each() -> None:
    out = _text("Qwen2.5-7B vs Qwen2.5-14B on 4090: how many cards does each need?")
    assert out.splitlines()[0] == (
        "GPUs each needs for this load: Qwen2.5 7B 1 × RTX 4090; Qwen2.5 14B 2 × RTX 4090"
    )


# --- 3. KTransformers named ----------------------------------------------------------------------

KT_ZH = "ktransformers 跑 deepseek r1 671b 一张4090 + 512G内存"
KT_EN = "run deepseek r1 671b with ktransformers on one 4090 and 512GB RAM"
LLAMA_ZH = "llama.cpp --cpu-moe 跑 deepseek r1 671b 一张4090 + 512G内存"


@pytest.mark.parametrize(
    ("question", "words"), [(KT_ZH, "专家放在 CPU 内存"), (KT_EN, "the experts in CPU memory")]
)
def test_ktransformers_worded_for_it(question: str, words: str) -> None:
    lines = _text(question).splitlines()
    assert words in lines[0]
    split = lines[: lines.index("", 3)]  # the headline, the not-used line and the split's lines
    assert not any(flag in line for line in split for flag in ("--cpu-moe", "--n-cpu-moe", "-ngl"))
    launch = [line for line in split if "ktransformers.local_chat" in line]
    assert len(launch) == 1
    assert "--gguf_path" in launch[0] and "--optimize_config_path" in launch[0]
    assert "DeepseekR1_V3_tutorial.md" in launch[0]


def test_ktransformers_sized_as_cpu_expert_offload() -> None:
    kt = _json(KT_ZH)["report"]["inference"]["layer_split"]
    llama = _json(LLAMA_ZH)["report"]["inference"]["layer_split"]
    assert kt["cpu_moe_layers"] == kt["layers"] == 61  # DeepSeek-V3's 61 layers, every layer's experts
    assert kt["gpu_bytes"] == llama["gpu_bytes"] and kt["host_bytes"] == llama["host_bytes"]


def test_llama_cpp_keeps_its_flag() -> None:
    first = _text(LLAMA_ZH).splitlines()[0]
    assert "--cpu-moe" in first
    assert "ktransformers.local_chat" not in _text(LLAMA_ZH)


def test_ktransformers_html_escapes_the_launch() -> None:
    html = ask_quietly("--format", "html", KT_ZH)
    assert "--model_path &lt;HF 仓库&gt;" in html and "<HF" not in html


def test_training_each() -> None:
    """Full fine-tuning of an 8B model in bf16 with AdamW: 16 B per parameter of weights, gradients and
    optimizer states (8.0 B × 16 ≈ 128 GB) plus activations: more than one A100 80G, two with ZeRO-3."""
    for question, line in (
        (
            "Llama-3.1-8B 还是 Qwen3-8B 全参微调各要几张 A100 80G",
            "按训练所需显存各需几张卡：Meta Llama 3.1 8B 2 张 A100 80G；Qwen3 8B 2 张 A100 80G",
        ),
        (
            "Llama-3.1-8B or Qwen3-8B: how many A100 80G does each need for full fine-tuning?",
            "GPUs each needs for this training's memory: Meta Llama 3.1 8B 2 × A100 80G; "
            "Qwen3 8B 2 × A100 80G",
        ),
    ):
        assert _text(question).splitlines()[0] == line
