"""Rough token amounts ('几十亿 token', 'tens of billions of tokens') through ``sizing-bot ask``: read as
the middle of the range they name (bot.parse.vague_amounts.FEW = 5 × the magnitude: 几十亿 is 20–90 亿,
i.e. 2–9 billion), and said in the reply in both languages; rough amounts of samples stay not used."""

from __future__ import annotations

import pytest

from tests.cli_run import ask_in_process, ask_quietly

ZH = "7B模型用{}token预训练要多少A100"
EN = "pretrain a 7B model on {} of tokens with A100"


@pytest.mark.parametrize(
    ("text", "typed", "tokens"),
    [
        (ZH.format("几十亿"), "几十亿", 5e9),  # 20–90 亿 = 2–9 billion; never 十亿 (1e9) nor 100亿
        (ZH.format("数十亿"), "数十亿", 5e9),  # was read as 十亿 = 1e9, silently
        (ZH.format("几百亿"), "几百亿", 5e10),
        (ZH.format("几千亿"), "几千亿", 5e11),
        (ZH.format("几万亿"), "几万亿", 5e12),
        (EN.format("tens of billions"), "tens of billions", 5e10),  # 10–90 billion
        (EN.format("hundreds of billions"), "hundreds of billions", 5e11),
        (ZH.format("几亿"), "几亿", 5e8),  # was read as 亿 = 1e8, silently
        ("pretrain a 7B model on a few billion tokens", "a few billion", 5e9),  # was not read at all
        ("pretrain a 7B model on several hundred million tokens", "several hundred million", 5e8),
        ("Pretrain a 7B model on Tens of Billions of tokens", "Tens of Billions", 5e10),  # as typed
    ],
)
def test_rough_tokens_read_and_said(
    capsys: pytest.CaptureFixture[str], text: str, typed: str, tokens: float
) -> None:
    data = ask_in_process(capsys, text)
    assert data["request"]["tokens"] == tokens
    assert {"typed": typed, "used": f"{tokens:g}", "reason": "vague_amount"} in data["interpretation"][
        "substitutions"
    ]
    # 6 × 7e9 × tokens FLOPs: the compute follows the amount read
    assert data["report"]["flops"] == pytest.approx(6 * 7e9 * tokens)


def test_rough_tokens_reply_wording() -> None:
    zh = ask_quietly(ZH.format("几十亿"))
    assert "把“几十亿”按 50亿 token 计算：这是个大概的量" in zh
    assert zh.startswith("7B 预训练 50亿 token")
    en = ask_quietly(EN.format("tens of billions"))
    assert "Read “tens of billions” as 50B tokens: a rough amount, sized at its middle" in en


def test_parameters_word_is_no_rough_amount(capsys: pytest.CaptureFixture[str]) -> None:
    """'参数十亿': 数 ends the word 参数, so this is exactly 十亿 parameters, nothing rough."""
    data = ask_in_process(capsys, "模型参数十亿，训练1万亿token要多久")
    assert data["request"]["params_total"] == 1e9
    assert data["request"]["tokens"] == 1e12
    assert not [s for s in data["interpretation"]["substitutions"] if s["reason"] == "vague_amount"]


def test_rough_sample_counts_stay_not_used(capsys: pytest.CaptureFixture[str]) -> None:
    """A rough count of samples ('几亿条') gives no number for them: named as not used, never 1e8."""
    data = ask_in_process(capsys, "数据大概几亿条，训练qwen3 8b全参要几张A100")
    assert data["request"]["num_samples"] is None
    assert {"text": "几亿", "reason": "vague"} in data["interpretation"]["ignored"]
