"""Session 40 part dponly2 (issue 24 item 3): LoRA/DPO with no tool named are sized for the data-parallel
stacks people run them with (s39-dponly, brought over), and a DP-only full-training layout that does not
fit the user's count leads with the lever that fits it there, ZeRO-3 with the optimizer states in CPU
memory (DeepSpeed ``offload_optimizer``; ZeRO-Offload, Ren et al. 2021), before the larger count
(s37 fixf's rule extended: estimator/pcie_layout._dp_only_lever)."""

from __future__ import annotations

import json
import sys

import pytest

from bot.cli import main

GIB = 2**30


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict:
    assert main(["ask", "--format", "json", text]) == 0
    return json.loads(capsys.readouterr().out)


def _rows(m: dict) -> dict[str, int | None]:
    return {a["change"]: a["min_gpus"] for a in m["alternatives"]}


@pytest.mark.parametrize(
    ("text", "lead"),
    [
        ("DPO llama3-8b on 8x 4090, 20k pairs", "with 8 × RTX 4090 ≈"),
        ("8张4090 做 llama3-8b DPO", "8 张 RTX 4090 放得下"),
        ("8 张 4090 跑 Llama-3-8B 的 DPO，2 万条偏好数据", "用 8 张 RTX 4090 约 1.3 小时"),
    ],
)
def test_8b_dpo_on_their_8_leads_with_optimizer_offload(
    capsys: pytest.CaptureFixture[str], text: str, lead: str
) -> None:
    """Llama 3 8B (8.03e9 parameters) DPO on 8 × RTX 4090, ZeRO-3 over 8 by hand: policy weights,
    gradients and the frozen reference 2·8.03e9/8 B = 1.87 GiB each, fp32 master + Adam m + v
    12·8.03e9/8 B = 11.2 GiB: 28.2 GiB a card as set (16 GPUs needed). Offloaded, the 11.2 GiB of
    optimizer states leave the GPU: 28.2 − 11.2 = 17.0 GiB of 24 on their 8 (the fewest with offload
    4); the 16 without offload is named as a row, never TP 8 as the plan."""
    data = ask(capsys, text)
    m = data["report"]["memory"]
    plan = m["plan"]
    assert (plan["tp"], plan["pp"], plan["dp"], plan["zero_stage"], plan["offload"]) == (1, 1, 8, 3, True)
    assert m["breakdown"]["optimizer"] == 0
    assert m["breakdown"]["weights"] == pytest.approx(2 * 8.03e9 / 8, rel=0.01)
    assert m["per_gpu_bytes"] == pytest.approx((28.2 - 11.2) * GIB, rel=0.01)
    assert m["fits_requested"] is True and m["min_gpus"] == 4 and m["min_plan"]["offload"] is True
    rows = _rows(m)
    assert rows["no_offload"] == 16 and "cpu_offload" not in rows
    first = data["reply"].splitlines()[0]
    assert lead in first and "16" not in first and "TP 8" not in data["reply"]


@pytest.mark.parametrize(
    "text",
    [
        "DPO llama3-8b on 8x 4090 with LLaMA-Factory, 20k pairs",  # a named tool: sized as configured
        "DPO llama3-8b on 8x 4090, 20k pairs, no offload",  # offload stated off
        "8张4090 做 llama3-8b DPO，不开 offload",
    ],
)
def test_a_named_tool_or_offload_stated_off_keeps_its_no(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """Must-not-change: a named tool's run (or one with offload stated off) is sized as set: 28.2 GiB of
    24 on the 8, 16 needed, offload a row (4) — the runs that ran out of memory so configured agree with
    that 'no' (tests/test_verdict_outcomes.py: zh-028 LLaMA-Factory, en-040 swift)."""
    m = ask(capsys, text)["report"]["memory"]
    assert m["plan"]["offload"] is False and m["fits_requested"] is False and m["min_gpus"] == 16
    rows = _rows(m)
    assert rows["cpu_offload"] == 4 and "no_offload" not in rows


def test_an_adapter_is_never_offloaded_by_the_lever(capsys: pytest.CaptureFixture[str]) -> None:
    """Must-not-change: LoRA's optimizer states are the adapters' (a few MiB); offloading would move the
    frozen base instead (estimator.adapter_offload), so a LoRA that does not fit keeps its 'no' and its
    own-card changes (Qwen2.5-7B LoRA at 32,768 tokens on one RTX 4090: the fp32 logits alone are
    32,768 × 152,064 × 4 B = 18.6 GiB)."""
    m = ask(capsys, "qwen2.5-7b lora 4090单卡 32k上下文 bs=1 能跑吗")["report"]["memory"]
    assert m["plan"]["offload"] is False and m["fits_requested"] is False


def test_a_full_fine_tune_that_fits_is_left_alone(capsys: pytest.CaptureFixture[str]) -> None:
    """Must-not-change: a job that fits its count as set gets no offload (full SFT of Llama 3 8B on
    8 × RTX 4090 searches TP/PP too: no DP-only stack assumed for plain SFT)."""
    m = ask(capsys, "full fine-tune llama3-8b on 8x 4090, 20k samples")["report"]["memory"]
    assert m["plan"]["offload"] is False and m["fits_requested"] is True


@pytest.mark.parametrize(
    ("text", "why", "words"),
    [
        (
            "DPO a 7B model on 4x A100 40GB",
            "dp_tool_dpo",
            "TRL, LLaMA-Factory or OpenRLHF, which split no layer",
        ),
        ("DPO 7B 用 4 张 A100 40G", "dp_tool_dpo", "不切分层"),
        ("LoRA fine-tune Qwen2.5-32B on 4x RTX 4090", "dp_tool_adapters", "(name NeMo for TP/PP)"),
    ],
)
def test_the_assumed_stack_line_is_short(
    capsys: pytest.CaptureFixture[str], text: str, why: str, words: str
) -> None:
    """The ledger names the stack assumed and why in one short line (s39's ~290-character line pushed two
    70B QLoRA html replies past Telegram's 4,096 and every source there was cut)."""
    data = ask(capsys, text)
    stack = next(a for a in data["assumptions"] if a["field"] == "training_stack")
    assert stack["why"] == why and stack["value"] == "TRL / LLaMA-Factory (ZeRO/FSDP)"
    assert words in data["reply"]


def test_the_memory_rows_mark_their_wordings_once() -> None:
    """The alternatives and layout rows translate module-level wordings: no ``N_`` frame while a reply
    renders them (render calls a reply, tests/test_render_s16_speed.py)."""
    from bot.core.pipeline import answer
    from bot.render.renderer import render

    report = answer("DPO llama3-8b on 8x 4090, 20k pairs")
    render(report, "html")
    callers: list[str] = []

    def profile(frame, event, _arg):
        if event == "call" and frame.f_code.co_name == "N_":
            callers.append(frame.f_back.f_code.co_filename)

    sys.setprofile(profile)
    try:
        text = render(answer("DPO llama3-8b on 8x 4090, 20k pairs"), "html")
    finally:
        sys.setprofile(None)
    assert "LoRA instead: 2 GPUs" in text
    assert not [c for c in callers if c.endswith(("memory_text.py", "fit_change_text.py", "plan_text.py"))]


@pytest.mark.parametrize(
    "text",
    [
        "DPO 训练 qwen2.5-72b，偏好数据5万对，序列长度2048，16张H100",  # NVLink: sized as set, 24 needed
        "SimPO finetune qwen3 4b on 1 L40S",  # one GPU: the same in any stack
    ],
)
def test_nvlink_cards_and_one_gpu_keep_the_count_answer(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """Must-not-change: the lever is for two or more cards without NVLink (s37 fixf's PCIe rule); the
    72B DPO on 16 × H100 keeps 'does not fit, 24 needed' with Megatron-LM's 16 named
    (tests/test_plan_lines_agree.py), one L40S keeps its recommended 8 (DP 8, ZeRO-3)."""
    m = ask(capsys, text)["report"]["memory"]
    assert m["plan"]["offload"] is False and "no_offload" not in _rows(m)
