"""s40-fixh: headlines and verdicts a user can act on (a fresh-user trial of main d3e69e2c).

1. a borderline recommended count: the headline says the count, its verdict and the one figure (the band's
   high end against the card); the levers and the count that holds it go on the line below;
2. a memory minimum over 95 % of the card (bot.render.margin_text.NO_MARGIN) is borderline on the
   'how many GPUs?' path too;
3. one GPU-hour figure: when the fewest GPUs pay full recompute, the GPU-hours line quotes the hours the
   headline and the cost bill, its MFU scaled by them;
4. a run over three months on the user's count (bot.render.verdict_head.LONG_DAYS; Llama 3 405B's ≈ 54
   days, Dubey et al. 2024 §3.3.4) warns and names the count that finishes in the deadline;
5. '4 小时够吗' / 'is 4 hours enough?' after a training answer is a deadline check, answered yes/no first;
6. GRPO rollouts in TRL's model.generate (use_vllm False, trl/trainer/grpo_config.py) that take most of
   the GPU-hours: the headline says its time includes them; use_vllm: true is named with its figure.
"""

from __future__ import annotations

import io
import json

import pytest

from bot.cli import main
from bot.cli_chat import chat

GIB = 1024**3


def ask(capsys: pytest.CaptureFixture[str], question: str, fmt: str = "text"):
    main(["ask", "--format", fmt, question])
    out = capsys.readouterr().out
    return json.loads(out) if fmt == "json" else out


def converse(*lines: str) -> list[str]:
    """The headlines (lines naming the model) of one terminal conversation's replies (bot.cli_chat)."""
    out = io.StringIO()
    chat(None, "text", stdin=io.StringIO("\n".join(lines) + "\n"), stdout=out)
    return [line for line in out.getvalue().splitlines() if line.startswith("Qwen2.5 7B")]


# 1 ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "head", "below"),
    [
        (
            "how many H100s to QLoRA a 70B model?",
            # s43 fixans #6: the clause names its count and that the figure is without full recompute;
            # s44 fixread: one count in the headline (the fewest, 1 with full recompute, in the details)
            "70B QLoRA fine-tuning: 2 × H100 80G recommended — borderline on 2 GPUs: up to 86.7 GiB per GPU "
            "at the high end without full recompute, above the card's 80 GiB (see below)",
            (
                "⚠️ Borderline on 2 GPUs: full recompute",
                "(31.6 GiB)",
                "without that, 4 GPUs hold the high end",
            ),
        ),
        (
            "70B QLoRA 要几张 H100",
            "70B QLoRA 微调：推荐 2 张 H100 80G——2 张时临界：不开全量重计算时区间上限每卡 86.7 GiB，"
            "超出单卡的 80 GiB（见下）",
            ("⚠️ 2 张时临界：开全量重计算", "（31.6 GiB）", "4 张时区间上限也放得下"),
        ),
    ],
)
def test_borderline_recommendation_is_one_clause_with_the_levers_below(capsys, question, head, below):
    """QLoRA 70B on H100: 2 recommended (ZeRO-3, selective recompute), the band's high end 86.7 GiB a
    card (tests/test_s38_verdict.py) against the card's 80: line 1 says that and only that; full
    recompute on the same 2 (31.6 GiB) and the 4 that hold the high end without it go on line 2."""
    first, second = ask(capsys, question).splitlines()[:2]
    assert first.endswith(head), first
    assert "31.6" not in first and "4 GPUs" not in first and "4 张" not in first
    assert second.startswith(below[0]) and below[1] in second and below[2] in second, second


def test_no_borderline_clause_when_the_recommendation_holds_its_high_end(capsys):
    """Must not misread: a full fine-tune of a 7B on A100 80G recommends 8 with its band under the card."""
    first = ask(capsys, "how many A100 80G to full fine-tune Qwen2.5-7B?").splitlines()[0]
    assert "borderline" not in first and "8 recommended" in first


# 2 ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "clause"),
    [
        ("how many H100 for DPO on Llama 3.1 8B?", "at least 2 × H100 80G"),
        ("Llama 3.1 8B DPO 需要几张 H100", "至少 2 张 H100 80G"),
    ],
)
def test_a_minimum_without_margin_is_borderline_on_the_count_path(capsys, question, clause):
    """DPO on Llama 3.1 8B: 2 H100 at 78.7 GiB of 80 GiB = 98.3 % of each card, over the 95 % with no
    margin (margin_text.NO_MARGIN); the headline says so at the minimum, and names 8 as recommended."""
    data = ask(capsys, question, "json")
    m = data["report"]["memory"]
    share = m["per_gpu_bytes"] / m["gpu_memory_bytes"]
    assert m["min_gpus"] == 2 and share == pytest.approx(0.983, abs=0.0005)
    first = data["reply"].splitlines()[0]
    assert clause in first
    if question.startswith("how"):
        assert "— borderline there: 98.3% of each card, no margin, 8 recommended" in first, first
    else:
        assert "这个卡数上勉强：每张卡用到 98.3%，没有余量，推荐 8 张" in first, first


def test_a_minimum_with_margin_is_not_called_borderline(capsys):
    """Must not misread: Qwen2.5-7B full fine-tuning's minimum on A100 80G fills 89.3 % (under 95 %)."""
    first = ask(capsys, "how many A100 80G to full fine-tune Qwen2.5-7B?").splitlines()[0]
    assert "borderline there" not in first


# 3 ----------------------------------------------------------------------------------------------------


def test_one_gpu_hour_figure_when_the_fewest_gpus_recompute(capsys):
    """Qwen2.5-14B full fine-tuning on 500M tokens, H100, no count: 4 GPUs recompute fully, (k + 2) / k
    = 4/3 of the 44.2 count-free GPU-hours (28 % MFU): 59 GPU-hours. The headline, the GPU-hours line and
    the cost all quote 59; the MFU on that count is 28 % × 44.2 / 59.0 = 21 %."""
    q = "Qwen2.5-14B full fine-tuning 500M tokens on H100, how long"
    data = ask(capsys, q, "json")
    r = data["report"]
    row = next(x for x in r["days_table"] if x["gpus"] == 4)
    assert r["shown"]["gpu_hours"]["likely"] == pytest.approx(row["gpu_hours"]["likely"])
    assert row["gpu_hours"]["likely"] == pytest.approx(r["gpu_hours"]["likely"] * 4 / 3, rel=0.01)
    want = r["mfu"]["likely"] * r["gpu_hours"]["likely"] / row["gpu_hours"]["likely"]
    assert r["shown"]["mfu"]["likely"] == pytest.approx(want) == pytest.approx(0.21, abs=0.002)
    assert r["shown"]["cost"]["billed_gpu_hours"] == 59
    text = ask(capsys, q)
    lines = text.splitlines()
    assert (
        "≈ 59 H100-hours" in lines[0]
        and "full recompute on 4 GPUs to fit: ×1.3 the time, included" in lines[0]
    )
    assert "GPU-hours below" not in text
    assert "• GPU-hours: 59 H100-hours at 21% MFU" in text
    assert "(59 GPU-hours × $1.50–3.50 per GPU-hour)" in text


def test_zh_recompute_clause_says_included(capsys):
    first = ask(capsys, "Qwen2.5-14B 全参微调 5 亿 token 用 H100 要多久").splitlines()[0]
    assert "≈ 59 H100·时" in first and "4 张卡要开全量重计算才放得下：时间 ×1.3，已计入" in first


# 4 ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "want"),
    [
        (
            "pre-train 7B on 1T tokens with 16 A100",
            "≈ 243 days (93.5K A100-hours) — longer than the longest published pre-training runs "
            "(Llama 3 405B: ≈ 54 days); 136 GPUs finish in ≈ 29 days",
        ),
        (
            "7B 预训练 1T token 用 16 张 A100 要多久",
            "约需 243 天（共 9.3万 A100·时）——比公开的最长预训练（Llama 3 405B：约 54 天）还长；"
            "136 张约 29 天训完",
        ),
        (
            "pre-train 7B on 1T tokens with 8 A100",
            "— not practical on these GPUs: ≈ 1.3 years of wall time; 136 GPUs finish in ≈ 29 days",
        ),
    ],
)
def test_a_run_over_three_months_warns_and_names_the_count(capsys, question, want):
    """6 × 7B × 1T = 4.2e22 FLOPs at 40 % of the A100's 312 TFLOP/s: 93.5K A100-hours; on 16 that is
    93,483 / 16 / 24 = 243 days, on 8 487 days (1.3 years); the 30-day default deadline's count is 136
    (17 nodes: 93,483 / 136 / 24 = 28.6 days)."""
    first = ask(capsys, question).splitlines()[0]
    assert want in first, first


def test_a_run_under_three_months_does_not_warn(capsys):
    """Must not misread: 64 A100 take 93,483 / 64 / 24 = 61 days, under the 90-day bound."""
    first = ask(capsys, "pre-train 7B on 1T tokens with 64 A100").splitlines()[0]
    assert "≈ 61 days" in first and "longer than" not in first and "not practical" not in first


def test_long_days_bound():
    from bot.render.headline_parts import IMPRACTICAL_DAYS as GATE
    from bot.render.verdict_head import IMPRACTICAL_DAYS, LONG_DAYS

    assert LONG_DAYS == GATE == 90.0 and IMPRACTICAL_DAYS == 365.0
    assert LONG_DAYS > 54  # Llama 3 405B's pre-training, Dubey et al. 2024 §3.3.4


# 5 ----------------------------------------------------------------------------------------------------


def test_is_4_hours_enough_after_a_training_answer():
    """Qwen2.5-7B full fine-tuning on 200M tokens: 6 × 7.61e9 × 2e8 = 9.13e18 FLOPs at 28 % of 989
    TFLOP/s = 9.2 H100-hours, 1.1 hours on 8: within 4 hours (yes), not within 1 hour (no: 16 GPUs,
    9.2 / 16 = 0.58–0.62 hours, take it)."""
    first, four, one = converse(
        "full fine-tune Qwen2.5-7B on 200M tokens with 8 H100", "is 4 hours enough?", "is 1 hour enough?"
    )
    assert "≈ 1.1 hours (9.2 H100-hours)" in first
    assert "with 8 × H100 80G: yes, within your 4 hours," in four and "≈ 1.1 hours" in four, four
    assert "MFU" not in four  # not read as a past run's 4 hours
    assert ": no, not within your 1 hour (16 GPUs: ≈ 0.62 hours)" in one, one


def test_4_xiaoshi_gou_ma_after_a_training_answer():
    first, four, one = converse("Qwen2.5-7B 全参微调 2 亿 token，8 张 H100", "4 小时够吗", "1 小时够吗")
    assert "约 1.1 小时（9.2 H100·时）" in first
    assert "用 8 张 H100 80G：够，4 小时内能训完" in four, four
    assert "用 8 张 H100 80G：不够，1 小时内训不完（16 张：约 0.62 小时）" in one, one


def test_deadline_check_words_read_as_a_deadline():
    """The parse: '4 小时够吗' and 'is 4 hours enough' set a deadline of 4/24 days, not a run's hours;
    a past run's hours stay the run's (must not misread)."""
    from bot.parse import parse

    for q in (
        "Qwen2.5-7B 全参微调 2 亿 token，8 张 H100，4 小时够吗",
        "full FT Qwen2.5-7B, 200M tokens, 8 H100, is 4 hours enough?",
    ):
        req = parse(q).request
        assert req.deadline_days == pytest.approx(4 / 24) and req.hours is None, q
    assert (
        parse("Qwen2.5-7B 全参微调 2 亿 token，8 张 H100，跑了 4 小时，MFU 多少").request.deadline_days
        is None
    )


# 6 ----------------------------------------------------------------------------------------------------

GRPO = "GRPO Qwen2.5-7B on 8 H100, 10k prompts, 8 generations, 1024 resp len"


def test_grpo_headline_says_the_rollouts_are_in_its_time_and_names_use_vllm(capsys):
    """TRL's default use_vllm False: 107 of the 115 GPU-hours decode in model.generate. With vLLM at the
    same batch the decode is the fitted engine speed, 4× the eager one (trainer_decode.EAGER_SLOWDOWN):
    107 / 4 ≈ 27 GPU-hours, 115 − 107 + 27 ≈ 35 in all, 35 / 8 ≈ 4.3 hours."""
    data = ask(capsys, GRPO, "json")
    ro, gh = data["report"]["rollout"], data["report"]["gpu_hours"]["likely"]
    assert ro["in_trainer"] and ro["gpu_hours"] > gh / 2
    text = ask(capsys, GRPO)
    first = text.splitlines()[0]
    assert (
        "≈ 14 hours (115 H100-hours) — rollouts included: 107 of the 115 GPU-hours are model.generate"
        in first
    )
    fast = ro["gpu_hours"] / 4
    total = gh - ro["gpu_hours"] + fast
    assert round(fast) == 27 and round(total) == 35 and round(total / 8, 1) == 4.3
    assert (
        "use_vllm: true decodes them in vLLM (TRL's GRPOConfig default is False): ≈ 27 instead of 107" in text
    )
    assert "≈ 35 GPU-hours in all (≈ 4.3 hours on 8 GPUs)" in text


def test_grpo_with_vllm_named_has_no_lever(capsys):
    """Must not misread: rollouts on a vLLM engine already ('use_vllm true') name no lever."""
    text = ask(capsys, GRPO + ", TRL with vLLM colocate")
    assert "rollouts included" not in text and "use_vllm: true decodes them" not in text
