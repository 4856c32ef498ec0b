"""A finished run, then the job asked about (session 14 fresh-user trial #1, #2): the job is the part after
'现在/这次/now/this time' (or the question after the run's sentence); the run calibrates it when it is the
same model, method and card (its throughput per GPU: k·N·D ÷ GPUs ÷ seconds), else it is named with its
MFU, not used."""

from __future__ import annotations

import pytest

from tests.cli_run import ask_in_process, ask_quietly, named

QWEN_ZH = "上个月2台8卡H800跑了36小时，LoRA微调Qwen2-72B，5亿token。{now}10亿token，用4台8卡H800要多久？"


@pytest.mark.parametrize("now", ["现在", "这次", "这回"])
def test_the_job_after_now_is_sized_at_the_runs_rate_zh(capsys, now: str) -> None:
    d = ask_in_process(capsys, QWEN_ZH.format(now=now))
    req = d["request"]
    assert (req["model"], req["method"], req["tokens"], req["gpu_count"]) == ("Qwen2-72B", "lora", 1e9, 32)
    # 4 × 72.71e9 (Qwen2-72B) × 5e8 FLOPs ÷ (16 GPUs × 36 × 3,600 s) = 70.1 TFLOPS per GPU (7.1 % of 989)
    assert req["achieved_tflops_per_gpu"] == pytest.approx(70.1)
    # twice the tokens on twice the cards: the same 36 hours (1,152 H800-hours at exactly that rate)
    assert d["report"]["gpu_hours"]["likely"] == pytest.approx(32 * 36, rel=0.02)
    assert named(d) == {"Qwen2-72B · 16 × H800 · 36小时 → MFU 7.1%": "earlier_run_same_job"}


def test_the_job_after_this_time_is_sized_at_the_runs_rate_en(capsys) -> None:
    q = (
        "Last month we LoRA-tuned Qwen2-72B on 500M tokens with 16 H800s; it took 36 hours. "
        "This time 1B tokens on 32 H800s: how long?"
    )
    d = ask_in_process(capsys, q)
    assert (d["request"]["tokens"], d["request"]["gpu_count"]) == (1e9, 32)
    assert d["request"]["achieved_tflops_per_gpu"] == pytest.approx(70.1)
    assert "1.5 days" in ask_quietly(q).splitlines()[0]


def test_a_count_asked_after_the_run_is_sized_not_carried(capsys) -> None:
    q = (
        "We ran full fine-tuning of Qwen2.5-7B on 8 H100 for 6 hours over 300M tokens. "
        "Now we have 1.2B tokens and want it done in 1 day, how many H100?"
    )
    d = ask_in_process(capsys, q)
    assert (d["request"]["tokens"], d["request"]["gpu_count"], d["request"]["deadline_days"]) == (
        1.2e9,
        None,
        1,
    )
    # four times the tokens at the run's rate: 4 × 8 GPUs × 6 h = 192 H100-hours, 8 GPUs for 24 hours
    assert d["report"]["gpu_hours"]["likely"] == pytest.approx(192, rel=0.01)


def test_samples_epochs_card_carry_and_the_count_is_asked(capsys) -> None:
    q = (
        "之前 4×A100 40G 全参 ChatGLM3-6B，1万条数据3个epoch跑了大概6小时。"
        "现在有10万条数据，想两周内做完，最少需要几张卡？"
    )
    d = ask_in_process(capsys, q)
    req = d["request"]
    assert (req["model"], req["method"], req["num_samples"], req["epochs"]) == ("ChatGLM3-6B", "full", 1e5, 3)
    assert (req["gpu"], req["deadline_days"], req["gpu_count"]) == ("A100-SXM4-40GB", 14, None)
    # ten times the data at the run's rate: 10 × 6 h × 4 cards = 240 A100-hours (the answer's ≈ 250)
    assert d["report"]["gpu_hours"]["likely"] == pytest.approx(240, rel=0.05)
    assert list(named(d).values()) == ["earlier_run_same_job"]


def test_an_earlier_run_of_another_model_and_card_is_named_not_used(capsys) -> None:
    q = (
        "We pretrained a 1.3B model on 100B tokens with 32 A100s in 4 days. "
        "How long for 7B on 1T tokens with 256 H100s?"
    )
    d = ask_in_process(capsys, q)
    req = d["request"]
    assert (req["params_total"], req["tokens"], req["gpu_count"]) == (7e9, 1e12, 256)
    assert req["deadline_days"] != 4  # the run's 4 days are no deadline of the new job
    assert req["gpu"].startswith("H100") and req["achieved_tflops_per_gpu"] is None
    # 6 × 1.3e9 × 1e11 ÷ (32 × 4 × 86,400 s × 312e12) = 22.6 %
    assert named(d) == {"1.3B · 32 × A100 · 4 days → MFU 22.6%": "earlier_run_other_job"}
    first = ask_quietly(q).splitlines()[0]
    assert first.startswith("7B pre-training on 1T tokens with 256 × H100") and "Cheapest" not in first


def test_a_lone_finished_run_is_still_the_job(capsys) -> None:
    """No later part: '8 卡跑了 36 小时，花了多少钱' stays the run's own cost (bot.parse.past_run)."""
    d = ask_in_process(capsys, "Qwen2-72B LoRA 微调 5亿 token，2台8卡H800跑了36小时，花了多少钱？")
    assert (d["request"]["gpu_count"], d["request"]["hours"]) == (16, 36)


def test_a_serving_job_after_the_run_is_not_timed_by_it(capsys) -> None:
    d = ask_in_process(
        capsys, "上个月用 8 张 A100 训了 7B，500 亿 token，花了 3 天。现在想部署它，要几张卡？"
    )
    assert d["request"]["stage"] == "inference"
    assert not any(i["reason"].startswith("earlier_run") for i in d["interpretation"]["ignored"])


@pytest.mark.parametrize(
    "q",
    [
        "We ran a full fine-tune of Llama-3.2-3B on 2B tokens on 8 H100s and it took about 20 hours. "
        "How long would the same data take for Llama-3.1-8B on the same 8 H100s?",
        "我们之前在8张H100上全参微调Llama-3.2-3B，20亿token，跑了20小时。现在同样的数据换成Llama-3.1-8B，"
        "还是这8张H100，要多久？",
    ],
)
def test_another_model_on_the_same_cards_is_timed_at_the_runs_mfu(capsys, q: str) -> None:
    """s15 trial #2: the 3B run's MFU times the 8B (same card, same method), said as used; the 20 hours
    are that run's, never 'a figure reported' or this job's."""
    d = ask_in_process(capsys, q)
    req = d["request"]
    assert (req["model"], req["tokens"], req["gpu_count"], req["hours"]) == ("Llama-3.1-8B", 2e9, 8, None)
    # 6 × 3.21e9 (Llama-3.2-3B) × 2e9 ÷ (8 GPUs × 20 × 3,600 s) = 66.9 TFLOPS per GPU (6.8 % of 989)
    assert req["achieved_tflops_per_gpu"] == pytest.approx(66.9)
    # 6 × 8.03e9 × 2e9 ÷ (66.9e12 × 3,600) = 400 H100-hours: 50 hours on 8
    assert d["report"]["gpu_hours"]["likely"] == pytest.approx(400, rel=0.01)
    assert list(named(d).values()) == ["earlier_run_other_model"]
    assert next(iter(named(d))).endswith("→ MFU 6.8%")


def test_a_count_asked_for_another_model_after_a_run_is_sized_at_its_mfu(capsys) -> None:
    """s15 trial #2 (was trial s12's 'other setup' case): the 8B run on 8 A100 times the 70B whose count
    is asked; the 8 stays the run's, never the job's."""
    q = (
        "Last week we full fine-tuned Llama-3.1-8B on 8x A100 80GB with ZeRO-3 and it took 14 hours for 300M "
        "tokens. Now we need Llama-3.1-70B on the same data. How many A100 80GB and how many days?"
    )
    d = ask_in_process(capsys, q)
    assert (d["request"]["model"], d["request"]["gpu_count"], d["request"]["tokens"]) == (
        "Llama-3.1-70B",
        None,
        3e8,
    )
    # 6 × 8.03e9 × 3e8 ÷ (8 × 14 × 3,600 s) = 35.8 TFLOPS per GPU (11.5 % of the A100's 312)
    assert d["request"]["achieved_tflops_per_gpu"] == pytest.approx(35.8)
    assert named(d) == {"Llama-3.1-8B · 8 × A100 · 14 hours → MFU 11.5%": "earlier_run_other_model"}
