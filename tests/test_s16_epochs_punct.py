"""Trial s16 #3: an epoch count before punctuation and a following word is read in every form ('2
epochs: will it fit' was read as the key 'epochs' with the value 'will', and 2 dropped): 50k samples
× 800 tokens × 2 epochs = 80M tokens."""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", question])
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("question", "epochs", "tokens"),
    [
        (
            "QLoRA Mixtral-8x7B on a single RTX 4090, seq len 4096, 50k samples averaging 800 tokens, "
            "2 epochs: will it fit and how long?",
            2,
            80e6,
        ),
        ("LoRA Qwen2.5-7B on 2 A100, 50k samples of 1k tokens, for 3 epochs, how long?", 3, 150e6),
        ("LoRA Qwen2.5-7B on 2 A100, 50k samples of 1k tokens, 3 epochs: does it fit?", 3, 150e6),
        ("LoRA Qwen2.5-7B on 2 A100, 50k samples of 1k tokens, 3 epochs - will it fit?", 3, 150e6),
        ("LoRA Qwen2.5-7B on 2 A100, 50k samples of 1k tokens, epochs: 3, how long?", 3, 150e6),
        ("LoRA 微调 Qwen2.5-7B，2 张 A100，5 万条样本每条 1k token，训练3轮：要多久？", 3, 150e6),
        ("LoRA 微调 Qwen2.5-7B，2 张 A100，5 万条样本每条 1k token，3个epoch，要多久？", 3, 150e6),
        ("LoRA 微调 Qwen2.5-7B，2 张 A100，5 万条样本每条 1k token，2个epoch：显存够吗？", 2, 100e6),
    ],
)
def test_epochs_before_punctuation_are_read(capsys, question, epochs, tokens):
    d = ask(capsys, question)
    assert d["request"]["epochs"] == epochs
    assert d["request"]["tokens"] == pytest.approx(tokens)
    assert d["interpretation"]["ignored"] == []
