"""The morning trial of session 20, read side (lead's fixes): memory a job used per card is no card's memory;
'our team has 2 nodes' counts nodes, not people; a finished run timed in months or in words calibrates the
job; a Mac's unified memory is the device's, not host RAM set aside; a very large job's note pairs one
setup's GPUs with its days."""

from __future__ import annotations

import pytest

from bot.parse.past_then_now import DURATION_RE, _seconds
from tests.cli_run import ask_in_process, named


def test_memory_used_per_card_is_observed_not_the_card_en(capsys) -> None:
    q = (
        "We served Qwen3-235B-A22B-FP8 on 4x H100 with vLLM --tensor-parallel-size 4 and it took about 40 GB "
        "per card just for weights. At 30 requests per second, 2000 input / 500 output tokens, "
        "how many H100s?"
    )
    d = ask_in_process(capsys, q)
    assert d["request"]["gpu"] == "H100-SXM5-80GB"  # the 80 GB card, not a 40 GB one
    assert d["request"]["gpu_memory_gib"] is None
    assert named(d).get("40") in ("observed", "unread")


def test_memory_used_per_card_is_observed_not_the_card_zh(capsys) -> None:
    q = (
        "用 vLLM 在 4 张 H100 上部署 Qwen3-235B-A22B-FP8，每张卡光权重就占了 40G，"
        "30 QPS 输入 2000 输出 500 要几张卡"
    )
    d = ask_in_process(capsys, q)
    assert d["request"]["gpu"] == "H100-SXM5-80GB" and d["request"]["gpu_memory_gib"] is None
    assert named(d).get("40") in ("observed", "unread")


def test_a_team_with_nodes_counts_nodes_not_people(capsys) -> None:
    d = ask_in_process(
        capsys, "Our team has 2 nodes of 8x A100 40GB. Full fine-tune GLM-4.5-Air with ZeRO-3 on 500M tokens"
    )
    assert d["request"]["gpu_count"] == 16 and d["request"]["gpu_memory_gib"] == 40.0  # 2 × 8
    assert not any(why == "team_size" for why in named(d).values())
    q = "Our lab has four AMD GPUs (MI210 64GB). LoRA Llama-3.1-8B on 100M tokens, how long?"
    lab = ask_in_process(capsys, q)
    assert lab["request"]["gpu_count"] == 4 and not named(lab)  # four GPUs, not a lab of four (r14en)
    people = ask_in_process(
        capsys, "our team has 4 people, LoRA Qwen2.5-7B on 8 A100 for 200M tokens, how long"
    )
    assert named(people) == {"our team has 4 people": "team_size"}  # people are still people


@pytest.mark.parametrize(
    ("said", "seconds"),
    [
        ("两个月", 2 * 2_626_560),  # a month: 365 ÷ 12 = 30.4 days
        ("一个半月", 1.5 * 2_626_560),
        ("半个月", 0.5 * 2_626_560),
        ("两个半小时", 2.5 * 3600),
        ("about two weeks", 2 * 604_800),
        ("3 months", 3 * 2_626_560),
        ("36小时", 36 * 3600),
    ],
)
def test_run_durations_in_words_and_months(said: str, seconds: float) -> None:
    m = DURATION_RE.search(said)
    assert m is not None and _seconds(m) == pytest.approx(seconds)


def test_a_past_moe_run_in_months_calibrates_the_new_card_zh(capsys) -> None:
    q = (
        "我们之前用 2048 张 H800 训了一个 671B 的 MoE（激活 37B），14.8T token，花了大概两个月。"
        "如果换成 B200，同样 2048 张，大概要多久？"
    )
    d = ask_in_process(capsys, q)
    # 6 × 37e9 (active) × 14.8e12 ÷ (2,048 × 2 × 2,626,560 s) = 305.4 TFLOPS = 30.9 % of the H800's 989;
    # H800 and B200 are one MFU class (ratio 1): the B200 job at 30.9 %
    assert d["request"]["mfu"] == pytest.approx(0.309, abs=1e-3)
    assert d["request"]["gpu"].startswith("B200") and d["request"]["gpu_count"] == 2048
    assert set(named(d).values()) == {"earlier_run_other_card"}


def test_a_past_run_timed_in_words_calibrates_the_new_card_en(capsys) -> None:
    q = (
        "We trained a 13B dense model on 300B tokens with 256 A100s; it took about two weeks. "
        "How long on 256 H100s for the same job?"
    )
    d = ask_in_process(capsys, q)
    # 6 × 13e9 × 300e9 ÷ (256 × 14 × 86,400 s) = 75.6 TFLOPS = 24.2 % of the A100's 312; × 0.7 (A100 → H100
    # class, bot.parse.scaled_run.card_ratio) = 17.0 %
    assert d["request"]["mfu"] == pytest.approx(0.170, abs=1e-3)
    assert named(d) == {"13B · 256 × A100 · two weeks → MFU 24.2% → 17.0%": "earlier_run_other_card"}


def test_a_macs_unified_memory_is_not_host_ram_set_aside(capsys) -> None:
    q = "Mac Studio M3 Ultra 512GB 统一内存，用 Ollama 跑 DeepSeek-R1 671B 的 Q4_K_M，能放得下吗？速度多少？"
    d = ask_in_process(capsys, q)
    assert d["request"]["gpu"] == "Apple-M3-Ultra-512GB"
    assert not any(t.startswith("host_memory") for t in named(d))  # 512 GB is the device's memory, sized


def test_a_huge_jobs_note_pairs_the_users_count_with_its_days(capsys) -> None:
    q = (
        "想从头预训练一个 Qwen3-8B 规模的模型，数据 36T token，用 H20 集群，"
        "三台机器每台八卡肯定不够吧？大概要多少卡、多少天？"
    )
    d = ask_in_process(capsys, q)
    huge = [w for w in d["report"]["warnings"] if w["code"] == "huge_job"]
    # 24 H20s take ~20,600 days: the note says 24 cards with those days, not the 30-day count beside them
    assert huge and huge[0]["params"]["gpus"] == 24 and huge[0]["params"]["days"] > 3650


def test_a_past_run_then_only_another_card_is_scaled_zh(capsys) -> None:
    """Trial s20-2 #1: '换成H100要多久' states only the new card: the same job, scaled from the run."""
    d = ask_in_process(capsys, "之前用8张A100训7B花了两个月，换成H100要多久？")
    # 8 × 2 × 730 h = 11,681 A100-hours × 312 ÷ 989 TFLOPS ÷ 0.7 (class MFU ratio) = 5,259 H100-hours on the
    # run's 8 cards (bot.parse.scaled_run): 657 hours
    assert d["request"]["gpu_count"] == 8 and d["request"]["hours"] == pytest.approx(657.35, abs=0.1)
    assert set(named(d).values()) == {"earlier_run_scaled"}


@pytest.mark.parametrize(
    "q",
    [
        "一台机器一张4090一张3090跑llama.cpp，Qwen3-32B Q4能放下吗，-ctk q8_0",
        "我的电脑一张4090，一张3060 12G，ollama 跑 qwen2.5:32b 能跑吗",
    ],
)
def test_cards_listed_by_their_counts_are_one_rig(capsys, q: str) -> None:
    """Trial s20-2 #3: '一张4090一张3090' in one machine is a rig of two cards (was: '一' named repeated)."""
    d = ask_in_process(capsys, q)
    assert d["request"]["gpu_count"] == 2
    assert set(named(d).values()) <= {"mixed_rig", "mixed_rig_sum"} and "一" not in named(d)
