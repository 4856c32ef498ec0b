"""Session 22 trial findings 5 and 6 (fixed in s23 trfix): a Mac's stated memory after its chip ('mac studio
m2 ultra 192G能跑吗') is the machine's unified memory, not "the memory the model needs"; a device not in the
catalog beside a catalog card ('my macbook / rtx 3090') is named as not sized, never dropped (design §8)."""

from __future__ import annotations

import pytest

from tests.cli_run import ask_in_process, ask_quietly

MAC_ZH = "ollama跑deepseek-r1:32b，mac studio m2 ultra 192G能跑吗，速度多少"
TWO_EN = "can i run a 32B model with ollama on my macbook / rtx 3090 at Q4? how many tokens/s"
TWO_ZH = "我的macbook和3090能跑32B吗"


@pytest.mark.parametrize(
    ("question", "gpu", "memory"),
    [
        (MAC_ZH, "Apple-M2-Ultra-192GB", 192),  # M2 Ultra comes in 64/128/192 GB (Apple's tech specs)
        ("ollama跑qwen2.5-32b，m4 max 128G能跑吗", "Apple-M4-Max-128GB", 128),
    ],
)
def test_a_macs_memory_after_its_chip_is_the_machines(
    capsys: pytest.CaptureFixture[str], question: str, gpu: str, memory: int
) -> None:
    data = ask_in_process(capsys, question)
    assert data["request"]["gpu"] == gpu and data["request"]["gpu_memory_gib"] == memory
    assert not [i for i in data["interpretation"]["ignored"] if i["reason"] == "stated_need"]


def test_the_mac_answer_does_not_call_192g_the_models_need_zh() -> None:
    text = ask_quietly(MAC_ZH)
    assert text.splitlines()[0].startswith(
        "DeepSeek-R1-Distill-Qwen-32B Q4_K_M（Ollama） 推理，1 台 M2 Ultra 192G：放得下"  # s24 #5/#6
    )
    assert "模型需要的显存" not in text and "“192”" not in text


def test_a_chipless_macbook_beside_a_catalog_card_is_named_en(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask_in_process(capsys, TWO_EN)
    assert data["request"]["gpu"] == "RTX-3090"
    assert {"text": "macbook", "reason": "unknown_other_device"} in data["interpretation"]["ignored"]
    text = ask_quietly(TWO_EN)
    assert "Not used: “macbook” (another device you named, not in my catalog, so not sized" in text


def test_a_chipless_macbook_beside_a_catalog_card_is_named_zh() -> None:
    text = ask_quietly(TWO_ZH)
    assert "未使用：“macbook”（你还提到的另一台设备，不在我的目录里，所以没有估算" in text


def test_an_unknown_card_beside_a_catalog_card_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    # s48 cat: the MI50 is a catalog card now (both cards are compared); the Tesla P4 is still outside it
    data = ask_in_process(capsys, "can i run a 32B model with ollama on my Tesla P4 / rtx 3090 at Q4?")
    assert {"text": "Tesla P4", "reason": "unknown_other_device"} in data["interpretation"]["ignored"]


@pytest.mark.parametrize(
    ("question", "first"),
    [
        (
            "We have $50,000 and 2 weeks. Can we DPO a 70B model on 500M tokens? which GPUs?",
            # 8ND = 2.8e20 FLOPs. s24 (priced rows): each card's GPU-hours are those of the 24 GPUs it names,
            # at that layout's MFU: H100 989 TFLOPS × 24.5 % → 321 H100-hours ($481.5–1,123.5), was 281 at
            # the 28 % of another count beside 'about 24 GPUs for 13 hours'; A100 712 A100-hours (711.04
            # billed as whole hours, as the row's cost is: s25; was 623). s36-left #1: ZeRO-3 DP 24 with full
            # recompute (10ND for 8ND, ×1.25): 321 → 401 H100-hours, $601.5–1,403.5
            "Lowest cost of the whole job: H100 80G, $602 – $1,404 at $1.50–3.50 per GPU-hour",
        ),
        (
            "预算20万，13B模型预训练500亿token，租什么卡多少张",
            "整个任务总费用最低：H100 80G，¥58,665 – ¥156,440（按 ¥15–40/卡·时，6 张约 27 天）",
        ),
    ],
)
def test_which_gpus_compares_the_common_cards(question: str, first: str) -> None:
    """'which GPUs?' / '租什么卡' with no card named: the 'A100 vs H100' rows, the cheapest whole job first
    (s22 trial #8: only the default A100 was sized)."""
    lines = ask_quietly(question).splitlines()
    assert lines[0].startswith(first)
    assert {line.split("：")[0].split(":")[0] for line in lines[1:3]} == {"• H100 80G", "• A100 80G"}


def test_a_named_card_is_not_replaced_by_the_comparison(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask_in_process(capsys, "which GPUs do I need to DPO a 70B model on 500M tokens with 8 H200?")
    assert data["request"]["gpu"].startswith("H200")
    assert not ask_quietly("which GPUs do I need to DPO a 70B model on 500M tokens with 8 H200?").startswith(
        "Lowest cost"
    )
