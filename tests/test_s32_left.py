"""Session 32, part left: answers true to the job as typed (the open findings of the last trials).

1. OpenRLHF's batches in its own units (openrlhf/cli/train_ppo_ray.py @021d1b0): ``--rollout_batch_size``
   counts prompts ("Batch size for make experience", default 1024), each sampled ``--n_samples_per_prompt``
   times; ``--train_batch_size`` counts responses ("Global training batch size", default 128).
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def _ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", "--", question])
    return json.loads(capsys.readouterr().out)


def _text(capsys, question: str) -> str:
    main(["ask", "--", question])
    return capsys.readouterr().out


def _notes(out: dict) -> dict[str, dict]:
    return {n["code"]: n.get("params", {}) for n in out["report"]["warnings"]}


# 1. OpenRLHF's rollout batch (prompts) and train batch (responses)

OPENRLHF_FLAGS = (
    "用 OpenRLHF 在 16 张 H100 上对 Qwen2.5-7B 做 GRPO，--rollout_batch_size 1024 --n_samples_per_prompt 8 "
    "--micro_rollout_batch_size 16 --train_batch_size 128，10 万条数据要多久？"
)
OPENRLHF_PROSE = (
    "GRPO on Qwen2.5-7B with OpenRLHF on 16 H100s, rollout batch 1024, 8 samples per prompt, "
    "train batch 128, 100k prompts — how long?"
)


@pytest.mark.parametrize("question", [OPENRLHF_FLAGS, OPENRLHF_PROSE])
def test_openrlhf_rollout_batch_is_read_in_prompts(capsys, question):
    out = _ask(capsys, question)
    req = out["request"]
    assert req["rollout_batch"] == 1024  # prompts, not a micro-batch nor the training batch
    assert req["global_batch"] == 128  # --train_batch_size: responses a step, as stated
    assert req["num_generations"] == 8
    assert req["batch_size"] in (None, 1)  # never 1024 sequences per GPU
    notes = _notes(out)
    assert notes["rollout_batch_steps"] == {
        "prompts": 1024,
        "responses": 8,
        "sequences": 8192,  # 1024 prompts × 8 samples
        "train_batch": 128,
        "steps": 64,  # 8192 ÷ 128
    }
    rollout = out["report"]["rollout"]
    assert rollout["decode_batch"] == 256  # 8192 ÷ 16 GPUs = 512 a GPU, vLLM's max_num_seqs 256 an engine
    ignored = [i["text"] for i in out["interpretation"]["ignored"]]
    assert not any(t.startswith("rollout_batch_size") for t in ignored)


def test_openrlhf_rollout_batch_said_in_both_languages(capsys):
    zh = _text(capsys, OPENRLHF_FLAGS)
    assert "rollout 批大小按提示词计" in zh and "每轮 rollout 8,192 条回答" in zh and "训 64 步" in zh
    en = _text(capsys, OPENRLHF_PROSE)
    assert "1,024 prompts × 8 samples each" in en and "64 steps a rollout" in en


def test_openrlhf_rollout_batch_changes_the_decode_batch(capsys):
    """Without it the rollout engines decode the per-GPU micro-batch (8 at once); with it, the rollout's
    8,192 responses spread over 16 GPUs: the decode hours fall."""
    without = _ask(capsys, OPENRLHF_PROSE.replace("rollout batch 1024, ", ""))
    assert without["request"].get("rollout_batch") is None
    with_it = _ask(capsys, OPENRLHF_PROSE)
    before = without["report"]["rollout"]
    after = with_it["report"]["rollout"]
    assert before["decode_batch"] < after["decode_batch"]
    assert after["gpu_hours"] < before["gpu_hours"]


def test_micro_rollout_batch_is_still_named_not_used(capsys):
    out = _ask(capsys, OPENRLHF_FLAGS)
    ignored = {i["text"]: i["reason"] for i in out["interpretation"]["ignored"]}
    assert ignored.get("micro_rollout_batch_size: 16") == "no_field"


def test_verl_batch_is_not_read_as_a_rollout_batch(capsys):
    out = _ask(
        capsys,
        "用 verl 在 16 张 H100 上对 Qwen2.5-7B 做 GRPO，data.train_batch_size=1024 "
        "actor_rollout_ref.rollout.n=8，要多久？",
    )
    assert out["request"].get("rollout_batch") is None
    assert out["request"]["global_batch"] == 1024
    assert "global_batch_prompts" in _notes(out)
