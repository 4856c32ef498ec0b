"""The findings of session 29's fresh-user trial of the merged tree (RL, TRL and serving setups): answer
the job the user described (/work/notes/s29 brief s29-trfix; s28 closing note, 'noticed and left').

- #3: TRL's GRPO (and Unsloth's, which is TRL's GRPOTrainer) loads no reference model at its default beta
  0.0 (trl/trainer/grpo_config.py v1.9.0 L671; estimator/rl_reference.py): with no data given (no compute
  sized, so no k in the ledger) the advice said "Preference tuning keeps a frozen reference model"; it
  now says no reference is loaded, and names one only when it is (beta > 0 stated, DPO).
"""

from __future__ import annotations

import json

import pytest

from bot.cli import ask


def _text(question: str) -> str:
    out, _ = ask(question, None, "text", None)
    return out


def _json(question: str) -> dict:
    out, _ = ask(question, None, "json", None)
    return json.loads(out)


NO_REFERENCE = [
    "Unsloth GRPO on Qwen2.5-7B with one H100: per_device_train_batch_size 4, num_generations 8, "
    "max_completion_length 1024. Does it fit?",
    "TRL GRPO for Llama-3.1-8B on a single A100 80GB, 8 completions per prompt, completions up to 512 "
    "tokens: will it fit in memory?",
    "用Unsloth做GRPO，Qwen2.5-7B，一张H100，per_device_train_batch_size 4，num_generations 8，能放下吗？",
    "TRL 跑 GRPO，Llama-3.1-8B，单卡 A100 80G，每个 prompt 生成 8 条，显存够不够？",
]


@pytest.mark.parametrize("question", NO_REFERENCE)
def test_grpo_at_beta_zero_keeps_no_reference_model(question: str) -> None:
    text = _text(question)
    assert "frozen reference model next to" not in text and "冻结的参考模型（" not in text
    assert "No reference model is loaded" in text or "不加载参考模型" in text
    assert "beta > 0" in text


WITH_REFERENCE = [
    "TRL GRPO on Qwen2.5-7B with one H100, beta 0.04, num_generations 8: does it fit?",
    "DPO on Qwen2.5-7B with LoRA, one H100: does it fit?",
    "TRL 跑 GRPO，Qwen2.5-7B，一张 H100，beta 0.04，num_generations 8，能放下吗？",
    "用 LoRA 做 DPO，Qwen2.5-7B，一张 H100，显存够吗？",
]


@pytest.mark.parametrize("question", WITH_REFERENCE)
def test_a_loaded_reference_model_is_still_said(question: str) -> None:
    text = _text(question)
    assert "No reference model is loaded" not in text and "不加载参考模型" not in text
    assert "frozen reference model" in text or "冻结的参考模型" in text
