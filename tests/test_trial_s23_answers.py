"""Session 23 fresh-user trial, answer side (/work/notes/s23/trial_findings.md #1, #1b, #2, #3, #4, #7, #9,
#12, #17, #18): each finding through the CLI (``sizing-bot ask --format json``) in both languages where it
applies, asserting the values the sources give."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cli_run import ask_in_process, named


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    return ask_in_process(capsys, text)


ROLLOUTS = [
    "用verl跑GRPO，Qwen2.5-32B，每个prompt rollout 8条，response最长4096，1万条prompt，32张H100要多久",
    "用verl跑GRPO，Qwen2.5-32B，1万条prompt，每个prompt rollout 8条，response最长4096，32张H100要多久",
    "用verl跑GRPO，Qwen2.5-32B，rollout 8条，response最长4096，1万条prompt，32张H100要多久",
    "GRPO Qwen2.5-32B with verl, 8 rollouts per prompt, responses up to 4096, 10k prompts, 32 H100, how long?",
]


@pytest.mark.parametrize("text", ROLLOUTS)
def test_rollouts_per_prompt_are_generations_never_samples(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """'rollout 8条' is verl's ``actor_rollout_ref.rollout.n`` (completions per prompt); the 1万 prompts stay
    the data. Before, the 8 was read as the sample count (3.7万 token, 0.0018 h) or dropped: 8 × 10,000 ×
    (512-token prompt + 4,096) = 3.69e8 tokens."""
    data = ask(capsys, text)
    req = data["request"]
    assert req["num_generations"] == 8
    assert req["num_samples"] == 10_000
    assert req["tokens"] == 8 * 10_000 * (512 + 4096)
    assert "num_samples: 8" not in named(data)
