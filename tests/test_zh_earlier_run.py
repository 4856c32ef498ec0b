"""A Chinese earlier run before a change of cards (trial s18 #2, issue 24): '…跑了 3 天，换成 8 张 H100
要多久' carries the run, as the English form does, instead of naming it 'another setup'
and sizing from scratch. Sentences of our own; every value hand-computed."""

from __future__ import annotations

import pytest

from tests.real_questions import answer_json

# Llama-3-8B (8.03 B) full fine-tune, 2e9 tokens, 8 × A100 for 3 days = 259,200 s:
# 6 × 8.03e9 × 2e9 / (8 × 259,200) = 46.5 TFLOPS per GPU = 14.9 % of the A100's 312; carried to the H100
# by the A100→H100 MFU ratio 0.7: 10.4 %. On 8 × H100 (989 TFLOPS): 9.64e19 / (8 × 0.104 × 989e12)
# ≈ 117,000 s ≈ 1.4 days.
RUNS = [
    "我们之前用 8 张 A100 全参微调 Llama-3-8B，20 亿 token 跑了 3 天，换成 8 张 H100 要多久？",
    "上次 8 张 A100 全参微调 Llama-3-8B，20 亿 token 花了 3 天，这次 8 张 H100 要多久？",
    "之前在 8 张 A100 上训了 3 天 Llama-3-8B 全参微调，20 亿 token，换 8 张 H100 要多久？",
    "Llama-3-8B full fine-tune on 2B tokens took 3 days on 8 A100s, if we switch to 8 H100s how long?",
]


@pytest.mark.parametrize("text", RUNS)
def test_earlier_run_carried_to_new_cards(text: str) -> None:
    data = answer_json(text)
    req = data["request"]
    assert (req["gpu"], req["gpu_count"], req["tokens"], req["mfu"]) == ("H100-SXM5-80GB", 8, 2e9, 0.104)
    named = {i["text"]: i["reason"] for i in data["interpretation"]["ignored"]}
    assert "other_setup" not in named.values()  # the 3 days and the A100 are the run, not another setup
    said = next(t for t, why in named.items() if why == "earlier_run_other_card")
    assert "MFU 14.9% → 10.4%" in said
    assert ("1.4 天" if data["lang"] == "zh" else "1.4 days") in data["reply"].splitlines()[0]


def test_change_word_without_a_run_is_not_cut() -> None:
    # no past-run verb: the whole message is the job (8 × H100 for 2e9 tokens), no earlier run named
    data = answer_json("8 张 A100 全参微调 Llama-3-8B 太慢，换成 8 张 H100 训 20 亿 token 要多久？")
    reasons = {i["reason"] for i in data["interpretation"]["ignored"]}
    assert not {r for r in reasons if r.startswith("earlier_run")}
    assert data["request"]["gpu"] == "H100-SXM5-80GB"
