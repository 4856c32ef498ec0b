"""Trial s16 #2: TRL GRPO with ``use_vllm=True, vllm_mode='colocate'``: vLLM shares the training GPUs and
takes ``vllm_gpu_memory_utilization`` of each card (TRL GRPOConfig default 0.3,
trl/trainer/grpo_config.py), so the training plan has the rest: 3B GRPO at 29.1 GiB per A100 40G does
not fit beside vLLM's 12 GiB (28 GiB left). ``vllm_mode='server'`` keeps the whole card for training and
says the server's GPUs come on top."""

from __future__ import annotations

import json

import pytest

from bot.cli import main

GIB = 2**30
CONFIG = (
    "GRPO on Qwen2.5-3B-Instruct with TRL, 160k prompts, 4x A100 40GB. My config:\n"
    'GRPOConfig(output_dir="qwen3b-grpo", learning_rate=1e-6, per_device_train_batch_size=4, '
    "gradient_checkpointing=True, num_generations=8, max_prompt_length=512, max_completion_length=1024, "
    'use_vllm=True, vllm_mode="colocate"{extra}, bf16=True)\nWill it fit and how long?'
)


def ask(capsys, question: str, fmt: str = "json") -> dict | str:
    main(["ask", "--format", fmt, question])
    out = capsys.readouterr().out
    return json.loads(out) if fmt == "json" else out


def test_colocate_counts_trl_default_share_against_training(capsys):
    d = ask(capsys, CONFIG.format(extra=""))
    mem, codes = d["report"]["memory"], {w["code"] for w in d["report"]["warnings"]}
    assert d["request"]["rollout_colocated"] is True
    assert mem["usable_bytes"] / GIB == pytest.approx(28.0)  # 40 GiB × (1 − 0.3)
    # s26 trial #6 (on purpose): TRL's GRPO beta defaults to 0.0, no reference model — was 29.07 GiB with
    # its bf16 copy sharded over 4 (3.09e9 × 2 B / 4 = 1.44 GiB); plain DDP still does not fit ('no')
    assert mem["per_gpu_bytes"] / GIB == pytest.approx(27.63, abs=0.05)
    assert d["report"]["feasible"] == "no" and "rollout_colocated" in codes
    share = [a for a in d["assumptions"] if a["field"] == "rollout_gpu_memory_utilization"]
    assert share[0]["value"] == 0.3 and "grpo_config.py" in share[0]["citation"]
    assert "vllm_mode: colocate" not in {i["text"] for i in d["interpretation"]["ignored"]}


def test_colocate_with_stated_share(capsys):
    d = ask(capsys, CONFIG.format(extra=", vllm_gpu_memory_utilization=0.2"))
    assert d["report"]["memory"]["usable_bytes"] / GIB == pytest.approx(32.0)
    # s21 (fixa, on purpose): the config's plain DDP (no ZeRO) does not fit, so 'no', saying it needs ZeRO
    codes = {w["code"] for w in d["report"]["warnings"]}
    assert d["report"]["feasible"] == "no" and "ddp_does_not_fit" in codes


def test_server_mode_keeps_the_card_and_says_its_gpus_are_apart(capsys):
    d = ask(capsys, CONFIG.format(extra="").replace('"colocate"', '"server"'))
    assert d["request"]["rollout_colocated"] is False
    assert d["report"]["memory"]["usable_bytes"] / GIB == pytest.approx(40.0)
    text = ask(capsys, CONFIG.format(extra="").replace('"colocate"', '"server"'), "text")
    assert "apart from the 4 training GPUs" in text


@pytest.mark.parametrize(
    ("question", "words"),
    [
        (
            "GRPO Qwen2.5-3B with TRL on 4x A100 40GB, vllm colocate mode, 8 generations per prompt, "
            "completions up to 1024 tokens, 20k prompts. Does it fit?",
            "so training has 28 GiB",
        ),
        (
            "用 TRL 做 GRPO 训练 Qwen2.5-3B，4 张 A100 40G，vLLM colocate 模式，每个 prompt 采样 8 条，"
            "回复最长 1024，2 万条 prompt，显存够吗？",
            "训练只剩 40 GiB",
        ),
    ],
)
def test_colocate_in_prose_both_languages(capsys, question, words):
    d = ask(capsys, question)
    assert d["report"]["memory"]["usable_bytes"] / GIB == pytest.approx(28.0)
    assert words in ask(capsys, question, "text")


def test_sleep_mode_keeps_the_card_for_training(capsys):
    """TRL ``vllm_enable_sleep_mode=True`` offloads vLLM's weights and KV cache during the optimizer step
    (trl/trainer/grpo_config.py): the training plan keeps the whole 40 GiB, the note says why; off (TRL's
    default) the 0.3 share is taken as before."""
    d = ask(capsys, CONFIG.format(extra=", vllm_enable_sleep_mode=True"))
    codes = {w["code"] for w in d["report"]["warnings"]}
    assert d["request"]["rollout_sleep_mode"] is True
    assert d["report"]["memory"]["usable_bytes"] / GIB == pytest.approx(40.0)
    assert "rollout_sleep_mode" in codes and "rollout_colocated" not in codes
    # s21 (fixa, on purpose): the config's plain DDP (no ZeRO) does not fit, so 'no', saying it needs ZeRO
    assert d["report"]["feasible"] == "no" and "ddp_does_not_fit" in codes
    text = ask(capsys, CONFIG.format(extra=", vllm_enable_sleep_mode=True"), "text")
    assert "is not taken from training" in text
    off = ask(capsys, CONFIG.format(extra=", vllm_enable_sleep_mode=False"))
    assert off["report"]["memory"]["usable_bytes"] / GIB == pytest.approx(28.0)
