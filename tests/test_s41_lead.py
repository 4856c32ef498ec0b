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
