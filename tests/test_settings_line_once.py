"""A borderline fine-tune's 'settings to change' names each setting once (trial s18 #5: 'DeepSpeed ZeRO-2 或
FSDP，DeepSpeed ZeRO-3 或 FSDP' in one line), and LLaMA-Factory's cutoff_len makes a question fine-tuning
('cutoff_len 2048 能跑，想拉到 4096, 7B full, 4×A800' was sized as serving). Sentences of our own."""

from __future__ import annotations

import re

import pytest

from tests.real_questions import answer_json

TEXTS = [
    "cutoff_len 2048 能跑，想拉到 4096，Qwen2.5-7B 全参微调，4 张 A800 80G，会不会 OOM？",
    "cutoff_len 2048 能跑，想拉到 4096, 7B full, 4×A800",
    "LLaMA-Factory full fine-tune of Qwen2.5-7B, cutoff_len 4096, 4 x A800 80G: will it fit?",
]


@pytest.mark.parametrize("text", TEXTS)
def test_each_setting_named_once(text: str) -> None:
    data = answer_json(text)
    assert data["request"]["stage"] == "finetune"
    assert data["request"]["seq_len"] == 4096
    line = next((x for x in data["reply"].splitlines() if "要改的设置" in x or "What to change" in x), "")
    assert len(re.findall(r"ZeRO-\d 或 FSDP|ZeRO-\d or FSDP", line)) <= 1
