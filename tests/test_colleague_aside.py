"""A colleague's setup named beside the user's own is an aside (s14 trial): '同事用 2 张 4090 跑 7B
LoRA，我手上有 1 张 A100 80G，想 LoRA 微调 14B' led with a card comparison whose second row was the
colleague's 2 × RTX 4090 (and, were it cheaper, its details would have led the answer); with the colleague
on QLoRA the whole answer sized QLoRA (int4) and led with a QLoRA/LoRA method table. The user's card and
method are the answer; the colleague's card and method are named as another setup."""

from __future__ import annotations

import pytest

from tests.cli_run import ask_in_process, ask_quietly, named

ZH = "同事用 2 张 4090 跑 Qwen2.5-7B {m}，我手上有 1 张 {card}，想 LoRA 微调 Qwen2.5-14B，要多久？1 亿 token"
EN = (
    "My colleague fine-tuned Qwen2.5-7B with {m} on 2 RTX 4090. I have 1 {card} and want to LoRA "
    "fine-tune Qwen2.5-14B on 100M tokens, how long?"
)


@pytest.mark.parametrize("form", [ZH, EN])
@pytest.mark.parametrize("card", ["A100 80G", "H100"])
def test_the_colleagues_card_is_no_comparison_row(capsys, form: str, card: str) -> None:
    question = form.format(m="LoRA", card=card)
    d = ask_in_process(capsys, question)
    assert d["request"]["gpu_count"] == 1 and d["request"]["gpu"].startswith(card.split()[0])
    assert d["request"]["method"] == "lora" and d["request"]["params_total"] == pytest.approx(14.7e9)
    assert named(d)["RTX 4090"] == "other_setup" and named(d)["2"] == "other_setup"
    first = ask_quietly(question).splitlines()[0]
    assert "Qwen2.5 14B LoRA" in first and "4090" not in first and ("1 ×" in first or "1 张" in first)
    assert "Cheapest" not in first and "最省钱" not in first


@pytest.mark.parametrize("form", [ZH, EN])
def test_the_colleagues_method_is_no_method_table(capsys, form: str) -> None:
    question = form.format(m="QLoRA", card="A100 80G")
    d = ask_in_process(capsys, question)
    req = d["request"]
    assert (req["method"], req["methods"], req["precision"]) == ("lora", None, None)  # not QLoRA's int4
    assert d["report"]["method_comparison"] == []
    # 4·N·D = 4 × 14.7B × 100M = 5.88e18 FLOPs at 40 % of 312 TFLOPS: 13.1 A100-hours (LoRA on a bf16 base)
    assert d["report"]["gpu_hours"]["likely"] == pytest.approx(13.09, abs=0.01)
    assert named(d)["method: QLoRA"] == "other_setup"


def test_a_comparison_the_user_asks_for_stays(capsys) -> None:
    d = ask_in_process(capsys, "全参、LoRA、QLoRA 微调 Qwen2.5-14B 分别要多少显存？")
    assert [r["method"] for r in d["report"]["method_comparison"]] == ["full", "lora", "qlora"]
    first = ask_quietly("A100 vs H100 for Qwen2.5-7B LoRA on 1B tokens, how long?").splitlines()
    assert any("A100 80G:" in line for line in first[:4]) and any("H100 80G:" in line for line in first[:4])


@pytest.mark.parametrize(
    ("question", "sized", "compared"),
    [
        ("A100、H100、H20部署70B对比", "H20-96GB", {"A100-SXM4-80GB", "H100-SXM5-80GB"}),
        (
            "Compared with H100, is H20 cheaper for serving Llama-3-70B at 32 concurrent?",
            "H20-96GB",
            {"H100-SXM5-80GB"},
        ),
    ],
)
def test_a_comparison_word_makes_no_other_setup(
    capsys, question: str, sized: str, compared: set[str]
) -> None:
    """'对比' / 'compared with' are cues of the structure reader's other-setup role, but the cards they
    compare are all the user's options: none is set aside (the merge of s14-ans dropped H20 from
    'A100、H100、H20部署70B对比', tests/test_render.py caught it)."""
    d = ask_in_process(capsys, question)
    assert d["request"]["gpu"] == sized
    assert all(i["reason"] != "other_setup" for i in d["interpretation"]["ignored"])
    assert {row["gpu"] for row in d["report"]["comparisons"]} == compared  # the cheapest per token leads
