"""Unknown cards through ``sizing-bot ask`` (issue 24 item 4): named as typed; the "closest cards" are
offered only on a real name match — the card's vendor or its series letters (bot.parse.gpus.series) —
never an unrelated card by string similarity (was: Cambricon's MLU370 → AMD's MI300X); with no match the
reply says the card is not in the catalog and how to give its memory and TFLOPS per card."""

from __future__ import annotations

import pytest

from bot.parse import parse
from tests.cli_run import ask_in_process, ask_quietly


@pytest.mark.parametrize(
    ("text", "typed"),
    [
        # the bare MLU370: its series' MLU370-X8 is a catalog card since s47 (suggested: see below)
        ("用燧原T20训练7B模型1万亿token要多久", "燧原T20"),
        ("pretrain 7B on 1T tokens with 64 Enflame T20", "Enflame T20"),
        ("用壁仞BR104部署一个72B模型", "壁仞BR104"),  # Biren: none in the catalog (MTT S4000: since s25)
    ],
)
def test_no_unrelated_nearest_card(capsys: pytest.CaptureFixture[str], text: str, typed: str) -> None:
    data = ask_in_process(capsys, text)
    assert data["interpretation"]["unknown_gpu"] == typed
    assert parse(text).gpu_suggestions == []
    reply = ask_quietly(text)
    assert "MI300X" not in reply and "Closest cards" not in reply and "最接近的卡" not in reply


def test_no_match_says_how_to_size_it() -> None:
    zh = ask_quietly("用燧原T20训练7B模型1万亿token要多久")
    assert "“燧原T20”不在我的目录中" in zh
    assert (
        "目录里没有与这个名字对应的卡；要估算时间，再写上每卡算力（“燧原T20 <显存>GB，每卡 <TFLOPS> TFLOPS”）"
        in zh
    )
    en = ask_quietly("pretrain 7B on 1T tokens with 64 Enflame T20")
    assert "“Enflame T20” is not in my catalog" in en
    assert "add its TFLOPS per card (“Enflame T20 <memory>GB, <TFLOPS> TFLOPS per card”)" in en


def test_memory_and_tflops_size_the_card_itself(capsys: pytest.CaptureFixture[str]) -> None:
    """'64 MLU370 48GB, 100 TFLOPS per card': 6 × 7e9 × 1e12 = 4.2e22 FLOPs at 100 TFLOPS per card =
    116,667 card-hours, over 64 cards = 76 days."""
    data = ask_in_process(capsys, "pretrain 7B on 1T tokens on 64 MLU370 48GB, 100 TFLOPS per card")
    assert data["request"]["gpu"] == "MLU370"
    assert data["report"]["hardware"]["memory_gib"] == 48
    assert round(data["report"]["gpu_hours"]["likely"]) == 116_667
    assert round(data["report"]["days"]["likely"]) == 76


@pytest.mark.parametrize(
    ("name", "suggested"),
    [
        ("H300", ["H800", "H200", "H100"]),  # NVIDIA's H series
        # AMD's MI series (MI355X: a card since s14; MI100 since s30-catalog, as close by spelling as MI250X)
        ("MI400X", ["MI300X", "MI100", "MI250X"]),
        ("V100X", ["V100", "V100S"]),  # NVIDIA's V series (V100S itself is a catalog card since 01fa630)
        ("鲲鹏920", ["Ascend 910", "Ascend 910B", "Ascend 910C"]),  # Huawei, by vendor word
        ("mlu370", ["MLU370-X8"]),  # Cambricon's MLU series: the X8 is a catalog card since s47
    ],
)
def test_real_name_matches_still_suggested(name: str, suggested: list[str]) -> None:
    from bot.parse.gpus import gpu_suggestions

    assert gpu_suggestions(name.lower()) == suggested


def test_v100s_is_a_catalog_card_not_an_unknown_name() -> None:
    """Tesla V100S 32GB entered the catalog in session 12 (01fa630): it is read as itself, not suggested."""
    result = parse("用V100S训练7B模型1万亿token要多久")
    assert result.request.gpu == "V100S-PCIe-32GB"
    assert result.gpu_suggestions == []
