"""s47 trialfix: a fresh user's trial of main (/work/notes/s47/trial_report.md), its findings fixed.

#1 'full-parameter pre-training' in English is a pre-training that trains every weight (as 全参数预训练 is in
Chinese): it was sized as a full fine-tuning, the pre-training named as another setup, with the SFT
defaults (2K sequences, Alpaca's global batch of 128).

#2 A unified-memory device with words between it and its memory said to be unified ('a Strix Halo mini PC
with 128GB unified memory', 'Strix Halo 小主机上跑吗，128G 统一内存'): the memory is the device's (AMD:
Ryzen AI Max+ 395 ships with up to 128 GB LPDDR5X shared by CPU and GPU); it was read as host RAM, the
device sized as the default A100 80G and the reply asked for the memory the user had given.
"""

from __future__ import annotations

import pytest

from bot.parse import parse


def _stage(q: str) -> tuple[str | None, str | None, list[str]]:
    p = parse(q)
    return p.request.stage, p.request.method, [text for text, _ in p.unused_numbers]


# ---- #1: full-parameter pre-training ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("q", "tokens"),
    [
        (
            "GaLore full-parameter pre-training of a 7B model on a single RTX 4090 with 20B tokens, "
            "how long?",
            20e9,
        ),
        ("full-parameter pre-training of a 7B model on 64 H100 with 200B tokens", 200e9),
        ("Full-parameter pretraining a 1B model on 8 A100 with 50B tokens", 50e9),
        ("full-weight pre-training of a 3B model on 16 A100 with 60B tokens", 60e9),
        ("用 8 张 A100 全参数预训练一个 1B 模型，500 亿 token 要多久", 50e9),
        ("7B 全参预训练 2000 亿 token，64 张 H100", 200e9),
    ],
)
def test_full_parameter_pretraining_is_a_pretraining(q: str, tokens: float) -> None:
    stage, _method, unused = _stage(q)
    assert stage == "pretrain", q
    assert "stage: pretrain" not in unused and "stage: finetune" not in unused, unused
    assert parse(q).request.tokens == tokens


@pytest.mark.parametrize(
    ("q", "stage"),
    [
        ("full-parameter fine-tuning of a 7B model on 8 A100, 10k samples", "finetune"),
        ("full params fine-tune of a 7B on 8 A100, 10k samples", "finetune"),
        ("pre-trained Llama-3-8B full-parameter fine-tune on 8 A100", "finetune"),
        ("full-parameter continued pre-training of Qwen2.5-7B on 10B tokens on 8 H100", "continued_pretrain"),
        ("全参数微调 7B 模型，8 张 A100，1 万条", "finetune"),
        ("Qwen2.5-7B 全参继续预训练 100 亿 token，8 张 H100", "continued_pretrain"),
    ],
)
def test_full_parameter_tuning_stays_a_tuning(q: str, stage: str) -> None:
    got, method, _ = _stage(q)
    assert (got, method) == (stage, "full"), q


# ---- #2: a unified-memory device's memory said further on ------------------------------------------------


@pytest.mark.parametrize(
    ("q", "gpu", "gib"),
    [
        (
            "Can I run Llama 3.1 70B on a Strix Halo mini PC with 128GB unified memory? tokens/s?",
            "Strix Halo",
            128,
        ),
        ("Llama 3.1 70B 能在 Strix Halo 小主机上跑吗，128G 统一内存", "Strix Halo", 128),
        ("Can a DGX Spark box with 128 GB of unified memory run Qwen3-32B?", "DGX-Spark-GB10-128GB", 128),
        ("Framework Desktop 主机，64G 统一内存，能跑 Qwen2.5-32B 吗", "Framework Desktop", 64),
    ],
)
def test_unified_memory_further_on_is_the_devices(q: str, gpu: str, gib: float) -> None:
    r = parse(q).request
    assert (r.gpu, r.gpu_memory_gib, r.host_memory_gib) == (gpu, gib, None), q


@pytest.mark.parametrize(
    "q",
    [
        # a figure between the device and the memory keeps them apart (here two instances of 64 GB)
        "Strix Halo 上 2 个实例，每个 64G 统一内存，跑 Qwen2.5-32B",
        # RAM that is not said to be unified stays the host's beside a card
        "I have an RTX 4090 and a Strix Halo box; the 4090 PC has 64GB RAM. Run Qwen2.5-32B on the 4090?",
        "RTX 4090 跑 Qwen2.5-32B，Strix Halo 那台另算，这台主机 64G 内存",
    ],
)
def test_other_memory_is_not_the_devices(q: str) -> None:
    r = parse(q).request
    assert r.gpu_memory_gib != 64, q
