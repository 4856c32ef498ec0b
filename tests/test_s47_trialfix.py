"""s47 trialfix: a fresh user's trial of main (/work/notes/s47/trial_report.md), its findings fixed.

#1 'full-parameter pre-training' in English is a pre-training that trains every weight (as 全参数预训练 is in
Chinese): it was sized as a full fine-tuning, the pre-training named as another setup, with the SFT
defaults (2K sequences, Alpaca's global batch of 128).
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
