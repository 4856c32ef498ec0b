"""s38 fixt: training and comparison answers a fresh-user trial found wrong (main 89289854).

1. A failed count's headline whose change fits the user's own GPUs said the count twice ('on your 2 GPUs:
   …, so it fits on your 2') and a job of an hour in days ('0.044 天'). Worked by hand for the config below
   (Qwen2.5-7B LoRA, LLaMA-Factory, ZeRO-3, cutoff_len 4,096, micro-batch 2; 1,000 alpaca_zh_demo rows ×
   4,096 tokens × 3 epochs = 12,288,000 tokens): C = 4ND = 4 × 7.62e9 × 1.2288e7 = 3.74e17 FLOPs; an RTX
   4090's dense bf16 peak 165.2 TFLOPS at 30 % MFU → 3.74e17 / (165.2e12 × 0.3 × 3,600) = 2.1 GPU-hours;
   on the user's 2 cards 1.05 h → '≈ 1.0 hours' (one decimal), never '0.044 days'.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.cli import ask

LF_YAML = """\
model_name_or_path: Qwen/Qwen2.5-7B-Instruct
stage: sft
do_train: true
finetuning_type: lora
lora_rank: 8
lora_target: all
dataset: alpaca_zh_demo
template: qwen
cutoff_len: 4096
max_samples: 100000
per_device_train_batch_size: 2
gradient_accumulation_steps: 8
learning_rate: 1.0e-4
num_train_epochs: 3.0
bf16: true
deepspeed: examples/deepspeed/ds_z3_config.json
"""


def _reply(text: str, config: Path, fmt: str = "text") -> str:
    out, _ = ask(text, None, fmt, str(config))
    return out


@pytest.fixture
def lf_yaml(tmp_path: Path) -> Path:
    p = tmp_path / "lf.yaml"
    p.write_text(LF_YAML, encoding="utf-8")
    return p


# -- 1. one count, one change, a duration in hours ---------------------------------------------------------


def test_headline_zh_says_count_once_and_hours(lf_yaml: Path) -> None:
    line = _reply("这个配置在2张4090上能跑吗，要多久", lf_yaml).splitlines()[0]
    assert "按现在的设置 2 张 RTX 4090 显存放不下（这样设置至少要 8 张）" in line
    assert "在你的 2 张卡上" not in line  # the count once: no 'on your 2 GPUs: …, so your 2 fit'
    # micro-batch 1, a setting of their tool that fits their 2 (likely 19.5 GiB of 24), before Liger's kernel
    assert "；微批次改为 1（用更多梯度累积）：2 张，" in line and "分块计算损失" not in line
    assert "所以你的 2 张放得下：在这些卡上约 1.0 小时（2.1 RTX 4090·时）" in line
    assert "天" not in line.split("放得下")[-1]  # 1.05 h, not 0.044 days


def test_headline_en_says_count_once_and_hours(lf_yaml: Path) -> None:
    line = _reply("will this config run on 2 RTX 4090s, how long", lf_yaml).splitlines()[0]
    assert "does not fit in the memory of 2 × RTX 4090 as set (at least 8 GPUs at these settings)" in line
    assert "On your 2 GPUs" not in line and "on your 2 GPUs:" not in line
    assert "; with micro-batch 1 (more gradient accumulation): 2 GPUs, " in line and "Liger" not in line
    assert "so it fits on your 2: ≈ 1.0 hours there (2.1 RTX 4090-hours)" in line
    assert "days" not in line


def test_json_verdict_unchanged(lf_yaml: Path) -> None:
    """The verdict stays the user's settings' ('no'); the change is named, the contract unchanged."""
    d: dict[str, Any] = json.loads(_reply("这个配置在2张4090上能跑吗，要多久", lf_yaml, "json"))
    assert d["report"]["feasible"] == "no"
    assert d["report"]["memory"]["min_gpus"] == 8
    alt = d["report"]["memory"]["alternatives"][0]
    assert alt["change"] == "micro_batch_1" and alt["min_gpus"] == 2


def test_own_card_change_said_once(tmp_path: Path) -> None:
    """At 8,192 tokens no count holds micro-batch 2 and micro-batch 1 does not fit: the kernel change on
    their own 4 cards, its count said once. 2 × 4,096 → 8,192 doubles D: 4.2 GPU-hours ÷ 4 = 1.05 h."""
    p = tmp_path / "lf8k.yaml"
    p.write_text(LF_YAML.replace("cutoff_len: 4096", "cutoff_len: 8192"), encoding="utf-8")
    en = _reply("will this config run on 4 RTX 4090s, how long", p).splitlines()[0]
    assert "4 × RTX 4090 as set (no number of these GPUs at these settings); with a loss" in en
    assert "(the high end is then 19.9 GiB per GPU), so it fits on your 4: ≈ 1.0 hours there" in en
    assert "On your 4 GPUs" not in en
    zh = _reply("这个配置在4张4090上能跑吗，要多久", p).splitlines()[0]
    assert "；改用分块计算损失" in zh
    assert "（此时区间上限为每卡 19.9 GiB），所以你的 4 张放得下：在这些卡上约 1.0 小时" in zh
    assert "在你的 4 张卡上" not in zh


# -- 6. a card's memory said after an ask ('3090够不够，24g的') ---------------------------------------


def _req(text: str) -> dict[str, Any]:
    return json.loads(ask(text, None, "json", None)[0])["request"]


@pytest.mark.parametrize(
    ("text", "gpu", "memory"),
    [
        ("qwen3 32b lora微调 3090够不够，24g的，数据1w条", "RTX-3090", 24.0),
        ("qwen3 32b lora微调 3090够不够 24g的", "RTX-3090", 24.0),
        ("qwen2.5 7b lora A100够不够，80G的", "A100-SXM4-80GB", 80.0),
        ("is a 3090 enough, 24GB, for qwen3 32b lora", "RTX-3090", 24.0),
    ],
)
def test_card_memory_after_an_ask(text: str, gpu: str, memory: float) -> None:
    r = _req(text)
    assert r["gpu"] == gpu and r["gpu_memory_gib"] == memory


@pytest.mark.parametrize(
    "text",
    [
        "qwen2.5 7b lora 3090够不够，20G数据",
        "qwen2.5 7b lora 3090，20G 数据",
        "qwen2.5 7b lora 4090够不够，模型要30G",
    ],
)
def test_not_a_card_memory(text: str) -> None:
    """Data after the card ('20G 数据') or a need ('模型要 30G') is no card's memory."""
    assert _req(text)["gpu_memory_gib"] is None


class _Axes:
    """Records what a chart draws: the labels of its lines and points."""

    def __init__(self) -> None:
        self.labels: list[str] = []

    def axhline(self, *_: object, label: str = "", **__: object) -> None:
        self.labels.append(label)

    def plot(self, *_: object, label: str = "", **__: object) -> None:
        self.labels.append(label)


@pytest.mark.parametrize(
    ("text", "lang", "drawn"),
    [
        ("7B LoRA 微调，2张4090，数据1亿token，要多久", "zh", False),  # their count: no default deadline
        ("7B模型1万亿token要多少A100", "zh", True),  # no count: the 30 days the count is sized for
        ("How many A100s to train a 7B model on 1T tokens in 30 days?", "en", True),  # asked
    ],
)
def test_deadline_drawn_only_when_asked_or_sized(text: str, lang: str, drawn: bool) -> None:
    pytest.importorskip("matplotlib")
    from bot.core.pipeline import answer
    from bot.render.chart import ChartContext
    from bot.render.chart_plots import _deadline_marks

    report = answer(text).report
    ax = _Axes()
    _deadline_marks(ax, report, ChartContext(lang), list(report.days_table))
    said = any("期限" in x or "Deadline" in x or "30 天" in x or "30 days" in x for x in ax.labels)
    assert said is drawn, ax.labels
