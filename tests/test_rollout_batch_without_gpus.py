"""verl's rollout batch when the GPU count is what is asked (review s12 finding 15): verl generates its
whole step at once (``data.train_batch_size`` × ``rollout.n`` over the GPUs), but the rollout hours are
sized before the GPU search, so with no count the estimator falls back to TRL's per-GPU batch
(``per_device_train_batch_size`` default 8: estimator.rollout.TRL_COMPLETIONS_PER_GPU). It now says so
as an assumption; with the count stated it is verl's own 256 × 8 / 16 = 128 per GPU, with no such
assumption. Through ``sizing-bot ask --format json``, in both languages."""

from __future__ import annotations

import json

import pytest

from bot.cli import main

ASKED = {
    "en": "GRPO of Qwen2-7B with verl, data.train_batch_size=256, rollout.n=8, on 1B tokens, how many "
    "A100 80G to finish in 7 days",
    "zh": "verl 做 Qwen2-7B 的 GRPO，data.train_batch_size=256，rollout.n=8，10亿token，"
    "7天训完需要多少张A100 80G",
}
STATED = (
    "GRPO of Qwen2-7B with verl on 16 A100 80G, data.train_batch_size=256, rollout.n=8, 1B tokens, how long"
)
LINE = {
    "en": "• Rollout completions per GPU: 8 — completions each GPU decodes at once when the GPU count is not "
    "given: TRL's per_device_train_batch_size default; verl generates its whole step "
    "(data.train_batch_size × rollout.n) over the GPUs, which needs their count",
    "zh": "• 每卡同时解码的采样回复数：8 — 未给出 GPU 数时每卡同时解码的采样回复数：TRL "
    "per_device_train_batch_size 的默认值；verl 把一整步（data.train_batch_size × rollout.n）"
    "分到各卡上生成，需要知道卡数",
}


def ask(capsys: pytest.CaptureFixture[str], question: str) -> dict:
    main(["ask", "--format", "json", question])
    return json.loads(capsys.readouterr().out)


def _fallback(d: dict) -> list[tuple]:
    return [(a["value"], a["why"]) for a in d["assumptions"] if a["field"] == "rollout_completions_per_gpu"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_per_gpu_fallback_is_said_when_the_count_is_asked(capsys, lang):
    d = ask(capsys, ASKED[lang])
    assert d["understood"] is True
    assert d["report"]["rollout"]["decode_batch"] == 8  # TRL's default, as the assumption says
    assert _fallback(d) == [(8, "rollout_batch_without_gpus")]
    assert LINE[lang] in d["reply"]


def test_with_the_count_stated_verls_whole_step_is_used_and_nothing_is_assumed(capsys):
    d = ask(capsys, STATED)
    assert d["report"]["rollout"]["decode_batch"] == 128  # 256 prompts × 8 completions / 16 GPUs
    assert _fallback(d) == []
