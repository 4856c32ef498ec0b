"""Session 41 lead: the fresh-user trial's findings the lead fixed (/work/notes/s41/trial_report.md)."""

from __future__ import annotations

import json

import pytest

from bot.cli import ask

DDP_NAMED = {
    "zh": "Qwen3-30B-A3B 用 LLaMA-Factory 全参微调，8张H100，数据5亿token，要多久",
    "en": "Full fine-tune Qwen3-30B-A3B with LLaMA-Factory on 8 H100, 500M tokens, how long?",
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_named_tool_without_a_config_is_not_called_the_users_configuration(lang):
    """Trial #6: naming LLaMA-Factory states no config, so the plain-DDP verdict (no deepspeed / fsdp
    setting: every GPU holds 30.5 B x 16 B ≈ 460 GiB) is said as the tool's default, never as 'as
    configured' / '按现在的配置'; the ZeRO-3 plan's 64.9 GiB per GPU stays the alternative."""
    out = json.loads(ask(DDP_NAMED[lang], None, "json")[0])
    assert (out["report"]["feasible"], out["report"]["feasible_reason"]) == ("no", "tool_default_ddp")
    first = out["reply"].splitlines()[0]
    said = {"zh": "不配 deepspeed / fsdp 时是纯 DDP，放不下", "en": "not with plain DDP (no deepspeed"}
    assert said[lang] in first
    assert "按现在的配置" not in out["reply"] and "as configured" not in out["reply"].lower()
    assert {"zh": "每卡约 460 GiB", "en": "≈ 460 GiB (494 GB) per GPU"}[lang] in out["reply"]


@pytest.mark.parametrize(
    ("question", "typed", "total"),
    [
        (
            "How many users can 4x A100 80G serve Qwen2.5-72B with vLLM at 20 tokens/s each, 4k context?",
            "20",
            None,
        ),
        ("Serve Llama-3-8B on one L40S: 50 users, 30 tokens/s each", "30", None),
        ("部署Qwen2.5-72B，4张A100，每个用户每秒20 token，能支持多少并发", "20", None),
        # must not misread: 'each GPU' is no user; a total stays the target
        ("Serve Llama-3-8B on 2 L40S at 3000 tokens/s in total, 500 tokens/s each GPU", None, 3000.0),
    ],
)
def test_a_bare_each_after_a_rate_is_a_speed_per_user_not_the_total(question, typed, total):
    """'at 20 tokens/s each' was read as a 20 tokens/s total throughput target (s41 lead: fixserve's report):
    a rate closed by a bare 'each' is a speed per user, named so (compared with the per-sequence speed)."""
    out = json.loads(ask(question, None, "json")[0])
    assert out["request"]["target_tokens_per_s"] == total
    per_user = out["request"]["tokens_per_s_per_sequence"]  # s41 revfix #2: used, no longer named unused
    assert (typed is None and per_user is None) or (typed is not None and per_user == float(typed))
