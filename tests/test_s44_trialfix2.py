"""s44 trialfix2: the rest of the s44 fresh-user trial (/work/notes/s44/trial_report.md).

Finding 5: a provider comparison ('AWS p5.48xlarge vs Lambda H100', '阿里云和AutoDL比') got one market range
and ``interpretation.ignored: []``. The catalog (estimator/data/prices.toml) has no provider's own price:
each provider named is now named as typed (``provider_price``); a bare 'lambda' (a loss weight) is not."""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.render.ignored_texts import IGNORED_TEXTS
from bot.render.serving_load_texts import SERVING_LOAD_TEXTS


def _provider_names(q: str) -> list[str]:
    report = answer(q)
    return [i.text for i in report.interpretation.ignored if i.reason == "provider_price"]


@pytest.mark.parametrize(
    ("q", "names"),
    [
        # the trial's sentences (q13_en, q13_zh)
        (
            "Compare cost: AWS p5.48xlarge vs Lambda H100 for fine-tuning Llama 3 8B full on 2B tokens",
            ["lambda"],
        ),
        ("阿里云和AutoDL比，租A800训练Qwen2.5-14B全参微调，数据10亿token，哪个便宜？", ["阿里云", "autodl"]),
        ("Is RunPod or Vast.ai cheaper to serve Qwen2.5-7B on one 4090?", ["runpod", "vast.ai"]),
        ("腾讯云和火山引擎哪个便宜？Qwen2.5-7B 全参微调 1亿 token，8 张 H800", ["腾讯云", "火山引擎"]),
    ],
)
def test_provider_named(q: str, names: list[str]) -> None:
    assert _provider_names(q) == names


@pytest.mark.parametrize(
    "q",
    [
        "DPO on Llama 3 8B with lambda 0.1, 8 H100",  # a loss weight, not the GPU cloud
        "Fine-tune Qwen2.5-7B on 1B tokens with 8 H100, cost?",  # no provider
        "云端部署 Qwen2.5-7B，要几张 4090？",  # 云 without a provider's name
        "Qwen2.5-7B 全参微调 1亿 token，用 Cloud TPU v5e 还是 H100？",
    ],
)
def test_no_provider_misread(q: str) -> None:
    assert _provider_names(q) == []


def test_provider_reason_words_and_price_still_used() -> None:
    """The reason is worded in both languages; a price per GPU-hour given beside a provider is used
    ($2.99, the Lambda H100 list price quoted in prices.toml's H100 source, × 129 GPU-hours = $386)."""
    report = answer("Fine-tune Llama 3 8B on Lambda H100 at $2.99 per GPU-hour, 2B tokens")
    assert [i.reason for i in report.interpretation.ignored] == ["provider_price"]
    from bot.render.i18n import translate

    assert "which provider is cheaper is not answered" in translate("en", IGNORED_TEXTS["provider_price"])
    assert "哪家更便宜" in translate("zh", IGNORED_TEXTS["provider_price"])


def test_split_keeps_every_serving_load_reason() -> None:
    """The split of bot/render/ignored_texts.py: every serving-load reason is still worded."""
    assert set(SERVING_LOAD_TEXTS) <= set(IGNORED_TEXTS)
    assert "volume_not_load" in IGNORED_TEXTS and "cap_only" in IGNORED_TEXTS
