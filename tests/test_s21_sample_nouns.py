"""A count of informal sample nouns times the tokens each is the data set (trial s21 #2). Before: '~30k
support tickets of 1.5k tokens' was sized on 1,500 tokens in all (the '30k' unread): ×30,000 too little.
Now 30,000 × 1,500 = 45M tokens. Sentences of our own."""

from __future__ import annotations

import pytest

from tests.real_questions import answer_json


@pytest.mark.parametrize(
    "text",
    [
        "finetune llama 3 8b on ~30k support tickets of 1.5k tokens on A100",
        "finetune llama 3 8b on 30k convos, avg 1.5k tokens, on A100",
        "LoRA Qwen2.5-7B on 30k customer emails, each about 1.5k tokens, 4 A100s",
        "用3万个工单微调Qwen2.5-7B，每条约1500 token，A100要多久",
        "3万篇论文摘要，平均1500 token，全参微调 Qwen2.5-7B 要几张 A100",
    ],
)
def test_count_times_length_is_the_data(text: str) -> None:
    data = answer_json(text)
    req = data["request"]
    assert (req["num_samples"], req["tokens_per_sample"], req["tokens"]) == (30_000, 1_500, 45_000_000)
    assert not any(i["reason"] == "unread" for i in data["interpretation"]["ignored"])


def test_a_model_name_after_a_size_is_no_sample_count() -> None:
    # '14B-chat' is the model's name: never 14 billion chats
    req = answer_json("8 卡 40G 的 A100 可以全量微调 14B-chat 模型吗")["request"]
    assert req["num_samples"] is None and req["params_total"] == pytest.approx(14e9)
