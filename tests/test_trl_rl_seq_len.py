"""s27-fix2: TRL's GRPO/RLOO with no length stated trains sequences of TRL's own prompt + completion
(``max_prompt_length`` 512 + ``max_completion_length`` 256, trl/trainer/grpo_config.py @35def3e), the
length its generation KV already used (s27-trgen), not the SFT default 2,048 tokens. Said in the ledger."""

from __future__ import annotations

import json

import pytest

from tests.cli_run import ask_json

ASK = {
    "en": "GRPO Qwen2.5-7B with TRL on 8 H100, 10k prompts, how long?",
    "zh": "用TRL做GRPO训练Qwen2.5-7B，8张H100，1万条prompt，要多久？",
}


def _seq(answer: dict) -> dict:
    return next(a for a in answer["assumptions"] if a["field"] == "seq_len")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_trl_grpo_trains_its_own_prompt_and_completion(lang: str) -> None:
    answer = json.loads(json.dumps(ask_json(ASK[lang])))
    seq = _seq(answer)
    assert (seq["value"], seq["why"], seq["params"]) == (
        768,
        "trl_rl_seq_len",
        {"prompt": 512, "completion": 256},
    )
    assert "512" in seq["source"] and "256" in seq["source"] and "@35def3e" in seq["source"]
    # TRL's own step: per_device_train_batch_size 8 × 8 GPUs = 64 sequences of 768 tokens
    assert (
        "64 sequences per step (49.2K tokens)" in answer["reply"]
        or "64 条序列（4.9万 token）" in answer["reply"]
    )
    generation = next(a for a in answer["assumptions"] if a["field"] == "generation_context")
    assert generation["value"] == seq["value"]  # the KV and the activations at one length


@pytest.mark.parametrize(
    ("question", "value", "why"),
    [
        ("GRPO Qwen2.5-7B with TRL on 8 H100, max_completion_length 1024", 1536, None),  # parsed: 512 + 1024
        ("GRPO Qwen2.5-7B with TRL on 8 H100, seq len 4096", 4096, None),
        ("GRPO Qwen2.5-7B on 8 H100, 10k prompts", 2048, "seq_len_finetune"),
    ],
)
def test_a_stated_length_or_another_tool_keeps_its_own(question: str, value: int, why: str | None) -> None:
    answer = ask_json(question)
    seq = next((a for a in answer["assumptions"] if a["field"] == "seq_len"), None)
    if why is None:
        assert seq is None and answer["request"]["seq_len"] == value
    else:
        assert (seq["value"], seq["why"]) == (value, why)
