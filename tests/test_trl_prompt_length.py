"""TRL ``max_prompt_length`` in a pasted or uploaded GRPO config (session 8 design review: it was named
"no_field" while the rollout silently took TRL's 512-token default). One RL sequence is the prompt and
its completion (trl/trainer/grpo_config.py: ``max_prompt_length``, ``max_completion_length``), so the
sequence sized is their sum and the rollout splits it back (estimator.rollout)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_run import ask_in_process

GRPO_YAML = "max_prompt_length: 1024\nmax_completion_length: 2048\nnum_generations: 8\n"


_ask = ask_in_process  # sizing-bot ask --format json ARGS, exit 0 required


@pytest.mark.parametrize(
    "question", ["GRPO Qwen2.5-7B on 8 H100, 10000 prompts", "8张H100 GRPO训练Qwen2.5-7B，1万条prompt"]
)
def test_prompt_and_completion_lengths_of_a_grpo_config_are_both_used(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, question: str
) -> None:
    config = tmp_path / "grpo.yaml"
    config.write_text(GRPO_YAML)
    data = _ask(capsys, "--config", str(config), question)
    req, rollout = data["request"], data["report"]["rollout"]
    assert (req["seq_len"], req["max_completion_length"], req["num_generations"]) == (3072, 2048, 8)
    assert req["tokens"] == 10_000 * 8 * 3072
    assert (rollout["prompt_tokens"], rollout["completion_tokens"]) == (1024, 2048)
    assert rollout["generated_tokens"] == 10_000 * 8 * 2048
    assert not [i for i in data["interpretation"]["ignored"] if "max_prompt_length" in i["text"]]


def test_a_prompt_length_alone_is_still_named(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    config = tmp_path / "grpo.yaml"
    config.write_text("max_prompt_length: 1024\nnum_generations: 8\n")
    data = _ask(capsys, "--config", str(config), "GRPO Qwen2.5-7B on 8 H100, 10000 prompts")
    assert {"text": "max_prompt_length: 1024", "reason": "no_field"} in data["interpretation"]["ignored"]
