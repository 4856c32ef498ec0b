"""s39 fixv: training verdicts a fresh-user trial found wrong (main 9fbe2148; outputs under /tmp/t38b).

1. A config that fits on no count was headlined with a time on 1 card. Worked by hand for the LLaMA-Factory
   config below (Qwen2.5-72B full fine-tuning, ZeRO-3, cutoff_len 8,192, micro-batch 4; 80 layers, hidden
   8,192, vocabulary 152,064): ZeRO-3 shards weights, gradients and optimizer states across the count;
   what stays on every GPU is the full-recompute layer inputs 80 × 4 × 8,192 × 8,192 × 2 B = 42,949,672,960 B
   = 40 GiB, the fp32 loss's logits 4 × 8,192 × 152,064 × 12 B = 59,793,997,824 B = 55.7 GiB, the ZeRO
   buckets 1 GB and gathered layer 2 GB, and the runtime 1 GiB + 8 % × (42.95 + 59.79 + 2) GB = 9.45 GB:
   115.2 GB = 107 GiB > 80 GiB, so no count fits. Micro-batch 1 fits on 24 GPUs (the estimator's
   alternative); 31.78 A100-hours (1.0709e19 FLOPs = 6 × 72.7e9 × 24,551,424 tokens at 312 TFLOPS × 30 %)
   ÷ 24 = 1.32 h → '≈ 1.3 hours'.
5. A run of years is 'not practical', whatever the memory says: 70B pre-training on 1.4T tokens
   (Chinchilla) on 2 × DGX H100 = 16 cards took 2,047 days = 5.6 years.
6. A yes/no fit question ('2 张 4090 够吗') gets the verdict for the user's count in line 1.
"""

from __future__ import annotations

import pytest

from bot.cli import _ask
from bot.parse.verdict_asked import asks_verdict

LF_72B = """\
model_name_or_path: Qwen/Qwen2.5-72B-Instruct
stage: sft
do_train: true
finetuning_type: full
deepspeed: examples/deepspeed/ds_z3_config.json
dataset: alpaca_en_demo
template: qwen
cutoff_len: 8192
per_device_train_batch_size: 4
gradient_accumulation_steps: 8
learning_rate: 1.0e-5
num_train_epochs: 3.0
bf16: true
"""


@pytest.fixture(scope="module")
def lf_config(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("fixv") / "lf.yaml"
    path.write_text(LF_72B, encoding="utf-8")
    return str(path)


def _reply(lang: str, config: str) -> str:
    return _ask("", lang, "text", config)[0]


def test_nowhere_headline_en(lf_config: str) -> None:
    text = _reply("en", lf_config)
    first = text.splitlines()[0]
    assert "does not fit on any number of" in first, first
    assert "107 GiB" in first and "activations 40 GiB" in first and "logits 55.7 GiB" in first, first
    assert "micro-batch 4 × 8,192 tokens" in first, first
    assert "with micro-batch 1 (more gradient accumulation): 24 GPUs" in first, first
    assert "≈ 1.3 hours" in first, first
    assert "one GPU for" not in text  # no time on a count that does not fit
    assert "it fits on one GPU, no parallelism needed" not in text
    assert "On 1 GPU:" not in text
    assert "1 GPU →" not in text  # no days table of counts that do not fit


def test_nowhere_headline_zh(lf_config: str) -> None:
    text = _reply("zh", lf_config)
    first = text.splitlines()[0]
    assert "用多少张都放不下" in first and "107 GiB" in first, first
    assert "微批次改为 1（用更多梯度累积）：24 张" in first, first
    assert "1 张卡约" not in text and "单卡放得下，不需要并行" not in text and "1 张时" not in text


def test_nowhere_parts_by_hand(lf_config: str) -> None:
    from bot.render.nowhere_text import fits_nowhere, unsharded_parts

    answer = _ask("", "en", "json", lf_config)[2]
    report = answer.report
    assert report is not None and fits_nowhere(report)
    parts = unsharded_parts(report.memory)
    assert parts is not None
    assert parts["activations"] == 80 * 4 * 8192 * 8192 * 2
    assert parts["logits"] == 4 * 8192 * 152_064 * 12
    assert "weights" not in parts and "optimizer" not in parts and "gradients" not in parts  # ZeRO-3
    assert sum(parts.values()) / 2**30 == pytest.approx(107.3, abs=0.1)


def test_a_count_that_fits_is_not_nowhere() -> None:
    from bot.render.nowhere_text import fits_nowhere

    report = _ask("Full fine-tune Qwen2.5-14B on 100M tokens with 8 H100", None, "json")[2].report
    assert report is not None and not fits_nowhere(report)


@pytest.mark.parametrize(
    "text",
    [
        "qwen2.5-14b lora 微调，2 张 4090 够吗",
        "7b 全参微调 8 张 a100 够不够",
        "llama 3 8b lora 4 张 3090 能跑吗？",
        "70b qlora 两张 a6000 放得下吗",
        "is it enough to fine-tune llama 3 8b with 2 rtx 4090?",
        "full fine-tune mistral 7b on 4 a100 40gb, will it fit?",
        "can i fine-tune qwen2.5-7b on 2 l4?",
        "are 8 h100 enough for a 70b sft?",
    ],
)
def test_asks_verdict_reads(text: str) -> None:
    assert asks_verdict(text)


@pytest.mark.parametrize(
    "text",
    [
        "qwen2.5-14b lora 微调，2 张 4090 要多久",
        "7b 预训练 1 万亿 token 要多少 a100",
        "我们有足够的数据，8 张 h100 训练多久",
        "not enough memory on 2 4090, how many gpus do i need",
        "how long to fine-tune llama 3 8b on 8 h100",
        "full fine-tune 70b on 64 h100, cost?",
    ],
)
def test_asks_verdict_does_not_misread(text: str) -> None:
    assert not asks_verdict(text)


def test_fit_question_headline_zh() -> None:
    text = _ask(
        "Qwen2.5-14B LoRA 微调，2 张 4090 够吗，数据 1 万条，每条 2048 token，3 个 epoch", None, "text"
    )[0]
    first = text.splitlines()[0]
    assert "2 张 RTX 4090：" in first and ("够用" in first or "勉强" in first), first
    assert first.index("GiB") < first.index("小时"), first  # the verdict and memory before the time


def test_fit_question_headline_en() -> None:
    text = _ask("Llama 3 8B LoRA fine-tune on 20M tokens, is it enough with 2 RTX 4090?", None, "text")[0]
    first = text.splitlines()[0]
    assert "with 2 × RTX 4090: yes, it fits" in first or "with 2 × RTX 4090: borderline" in first, first


def test_time_question_keeps_time_first() -> None:
    first = _ask(
        "Qwen2.5-14B LoRA 微调，2 张 4090 要多久，数据 1 万条，每条 2048 token，3 个 epoch", None, "text"
    )[0]
    assert "够用" not in first.splitlines()[0]


def test_years_not_practical() -> None:
    from bot.render.fmt import Fmt
    from bot.render.verdict_head import IMPRACTICAL_DAYS, years_clause

    report = _ask("70B 预训练，2 台 DGX H100", None, "json")[2].report
    assert report is not None and report.days is not None
    days = report.days.days.likely
    assert days > IMPRACTICAL_DAYS
    clause = years_clause(report, days, Fmt("en"))
    assert f"≈ {days / 365:.1f} years" in clause
    assert years_clause(report, 300.0, Fmt("en")) == ""  # under a year: the memory verdict alone


def test_years_headline_zh() -> None:
    first = _ask("70B 预训练，2 台 DGX H100", None, "text")[0].splitlines()[0]
    assert "不现实" in first and "勉强可行" not in first, first
