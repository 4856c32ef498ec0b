"""Several models in one message (issue 24, item 4): the one the question asks about is sized and every
other is named as not sized; a name typed apart from its size ('Qwen2.5-Omni 7B', '250B-A25B') is one
model. Through ``sizing-bot ask``, both languages, phrasings of our own."""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def _ask(capsys, text: str, fmt: str = "json"):
    assert main(["ask", "--format", fmt, text]) == 0
    out = capsys.readouterr().out
    return json.loads(out) if fmt == "json" else out


def _others(data: dict) -> list[str]:
    return [
        i["text"].removeprefix("model: ")
        for i in data["interpretation"]["ignored"]
        if i["text"].startswith("model: ") and i["reason"] == "other_setup"
    ]


ASKED_LATER = {
    "en": "I ran Mistral-7B fine on one 3090. How many 3090s for a LoRA of Yi-34B?",
    "zh": "之前一张 3090 跑 Mistral-7B 没问题。Yi-34B 做 LoRA 要几张 3090？",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_model_of_the_question_is_sized_and_the_earlier_one_named(capsys, lang):
    data = _ask(capsys, ASKED_LATER[lang])
    assert data["request"]["model"] == "Yi-34B"
    assert data["request"]["params_total"] == pytest.approx(34.4e9, rel=0.01)  # Yi-34B config.json
    assert _others(data) == ["Mistral-7B"]
    text = _ask(capsys, ASKED_LATER[lang], "text")
    assert "Mistral-7B" in text and "Yi" in text.splitlines()[0]


AFTER_CONTRAST = {
    "en": "A 13B serves fine on one A100, but how many A100s does a 34B need?",
    "zh": "13B 推理一张 A100 就够了，但 34B 推理要几张 A100？",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_size_after_but_is_the_one_asked_about(capsys, lang):
    data = _ask(capsys, AFTER_CONTRAST[lang])
    assert data["request"]["params_total"] == 34e9
    assert _others(data) == ["13b"]


LAST_CLAUSE = {
    "en": "Qwen-72B runs on 8 A100s for us; what about a 7B?",
    "zh": "我们 Qwen-72B 用 8 张 A100 部署，7B 呢？",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_last_clause_of_the_question_is_the_one_asked_about(capsys, lang):
    data = _ask(capsys, LAST_CLAUSE[lang])
    assert data["request"]["params_total"] == 7e9 and data["request"]["model"] is None
    assert _others(data) == ["Qwen-72B"]


LISTED = {
    "en": "Serving Gemma-2-9B and Phi-3-mini side by side: memory for each?",
    "zh": "同时部署 Gemma-2-9B 和 Phi-3-mini，各要多少显存？",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_two_models_listed_together_size_the_first_and_name_the_second(capsys, lang):
    data = _ask(capsys, LISTED[lang])
    assert data["request"]["model"] == "Gemma-2-9B"
    assert _others(data) == ["Phi-3-mini"]
    assert "Phi-3-mini" in _ask(capsys, LISTED[lang], "text")


def test_one_model_named_twice_is_not_another_model(capsys):
    data = _ask(capsys, "LoRA of Qwen2.5-7B on one 4090: can the 7B fit with 4k context?")
    assert data["request"]["model"] == "Qwen2.5-7B" and _others(data) == []


NAME_THEN_SIZE = {
    "en": "How much GPU memory to serve Qwen2.5-Omni 7B in bf16?",
    "zh": "bf16 部署 Qwen2.5-Omni 7B 要多少显存？",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_name_with_a_tag_before_its_size_is_one_unknown_model(capsys, lang):
    data = _ask(capsys, NAME_THEN_SIZE[lang])
    assert data["interpretation"]["unknown_model"] == "Qwen2.5-Omni 7B"
    assert data["request"]["params_total"] == 7e9 and _others(data) == []


MOE_APART = {
    "en": "Pre-training Nemotron 4 Ultra 250B-A25B on 1T tokens: how many H100 GPU-hours?",
    "zh": "预训练 Nemotron 4 Ultra 250B-A25B，1T token，要多少 H100 卡时？",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_active_size_after_a_total_is_the_moe_not_a_gpu(capsys, lang):
    """'A25B' after '250B-' is the active size (not a card like 'A100'); a catalog family of another
    size (Nemotron-4-340B) is not that model: it is named as typed and suggested."""
    data = _ask(capsys, MOE_APART[lang])
    req = data["request"]
    assert (req["params_total"], req["params_active"]) == (250e9, 25e9)
    assert req["gpu"].startswith("H100") and data["interpretation"]["unknown_gpu"] is None
    assert data["interpretation"]["unknown_model"] == "Nemotron 4 Ultra 250B"
