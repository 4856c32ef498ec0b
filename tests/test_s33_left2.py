"""Session 33, part left2: answers true to the job as typed (open findings, second half).

1. The headline answers what was asked: a training said with the weak hint alone ('训', 'train') of a model
   on one or two personal cards is a fine-tuning, said under the headline (bot.parse.personal_training);
   a gradient accumulation stated on a job that does not fit is answered there too: it does not lower the
   memory (bot.render.assumed_head).
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def _ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", "--", question])
    return json.loads(capsys.readouterr().out)


def _text(capsys, question: str) -> str:
    main(["ask", "--", question])
    return capsys.readouterr().out


def _head(text: str) -> str:
    """The reply's first paragraph (the headline block)."""
    return text.partition("\n\n")[0]


# 1. The stage a personal card's training means, and the accumulation verdict

ACCUM_ZH = "7B 用梯度累积 16 能在一张 4090 上训吗"
ACCUM_EN = "can I train a 7B on one RTX 3090 with gradient accumulation 8?"


@pytest.mark.parametrize(
    "question", [ACCUM_ZH, ACCUM_EN, "7B 能在一张 4090 上训练吗", "can I train a 7B on my M2 Max?"]
)
def test_training_on_a_personal_card_is_a_fine_tuning(capsys, question):
    request = _ask(capsys, question)["request"]
    assert request["stage"] == "finetune"
    head = _head(_text(capsys, question))
    assert "Sized as fine-tuning" in head or "按微调计算" in head
    assert "pre-training" not in head.splitlines()[0] and "预训练" not in head.splitlines()[0]


@pytest.mark.parametrize(
    "question",
    [
        "7B 从头训练 能在一张 4090 上吗",  # a pre-training scale said
        "can I train a 7B on 8 H100",  # data-centre cards: the count is the question
        "7B 1T token 训多久",  # a data size
        "can I train a 7B on one 4090 with 20B tokens?",
        "train a 124M GPT with nanoGPT on one RTX 4090",  # a pre-training codebase
        "7B 能在 4 张 4090 上训吗",  # more cards than one desktop holds
    ],
)
def test_a_pre_training_stays_one(capsys, question):
    assert _ask(capsys, question)["request"]["stage"] == "pretrain"
    assert "Sized as fine-tuning" not in _text(capsys, question)


@pytest.mark.parametrize(
    ("question", "line"),
    [
        (
            ACCUM_ZH,
            "梯度累积 16 不省显存：每张卡一次只放 1 条序列的一个微批次，累积只是让每步的批次变成 16 条序列",
        ),
        (ACCUM_EN, "Gradient accumulation 8 does not lower the memory: each GPU holds one micro-batch of 1"),
    ],
)
def test_the_accumulation_verdict_is_in_the_headline(capsys, question, line):
    text = _text(capsys, question)
    assert line in _head(text)
    assert "放不下" in text.splitlines()[0] or "does not fit" in text.splitlines()[0]


def test_accumulation_on_a_job_that_fits_adds_no_line(capsys):
    text = _text(capsys, "Llama 3 8B QLoRA with gradient accumulation 16 on one RTX 4090, does it fit?")
    assert "fits on 1" in text.splitlines()[0]
    assert "Gradient accumulation" not in _head(text)


# 3. A time asked: the time on the GPUs the answer recommends too

TIME_ZH = "LLaMA-Factory 训练 Qwen2.5-7B 10万条数据 要多久"
TIME_EN = "how long to fine-tune Qwen2.5-7B on 100k samples with LLaMA-Factory?"


@pytest.mark.parametrize(
    ("question", "line"),
    [(TIME_ZH, "推荐的 8 张卡：约 39 分钟。"), (TIME_EN, "On the 8 GPUs recommended: about 39 minutes.")],
)
def test_a_time_question_gives_the_time_on_the_recommended_gpus(capsys, question, line):
    report = _ask(capsys, question)["report"]
    assert report["gpus_for_deadline"] == 2 and report["memory"]["recommended_gpus"] == 8
    eight = next(r for r in report["days_table"] if r["gpus"] == 8)
    assert (
        38.5 < eight["likely"] * 24 * 60 < 39.5
    )  # 0.65 hours: 'about 39 minutes' (s37 fixf #4: never 'under')
    assert line in _head(_text(capsys, question))


@pytest.mark.parametrize(
    "question",
    [
        "LLaMA-Factory 训练 Qwen2.5-7B 10万条数据 要几张卡",  # no time asked
        "how long to fine-tune Qwen2.5-7B on 100k samples with LLaMA-Factory on 2 A100s?",  # their count
        "Llama 3 70B full fine-tune on 20B tokens, how long?",  # the headline's count is the recommended one
    ],
)
def test_no_recommended_time_where_it_is_not_asked_or_the_same(capsys, question):
    text = _head(_text(capsys, question))
    assert "GPUs recommended:" not in text and "推荐的 8 张卡：" not in text


# 5. A 'beta' named as typed, and not used by an SFT; '1M tokens per minute' is the target, no '1' left


@pytest.mark.parametrize(
    ("question", "text", "reason"),
    [
        ("TRL SFT Qwen2.5-7B on 4 A100 with beta 0.1, does it fit?", "beta: 0.1", "beta_not_sft"),
        ("用 TRL 对 Qwen2.5-7B 做 SFT，beta=0.1，4 张 A100 够吗", "beta: 0.1", "beta_not_sft"),
        ("TRL DPO Qwen2.5-7B on 4 A100 with beta 0.1, does it fit?", "beta: 0.1", "not_sized"),
        ("LLaMA-Factory DPO Qwen2.5-7B on 4 A100, pref_beta 0.1", "pref_beta: 0.1", "not_sized"),
    ],
)
def test_a_beta_is_named_as_typed(capsys, question, text, reason):
    out = _ask(capsys, question)
    assert out["request"]["kl_beta"] is None
    assert {"text": text, "reason": reason} in out["interpretation"]["ignored"]
    assert "pref_beta" not in out["reply"] or "pref_beta" in question


def test_an_sft_config_beta_is_not_a_kl_coefficient(capsys):
    config = 'SFTConfig(output_dir="out", per_device_train_batch_size=2, max_seq_length=2048, beta=0.1)'
    out = _ask(capsys, f"Qwen2.5-7B full SFT on 4 A100 with this config: {config}")
    assert out["request"]["kl_beta"] is None and out["request"]["algorithm"] == "sft"
    assert {"text": "beta: 0.1", "reason": "beta_not_sft"} in out["interpretation"]["ignored"]
    grpo = 'GRPOConfig(output_dir="out", per_device_train_batch_size=2, num_generations=8, beta=0.04)'
    assert _ask(capsys, f"Qwen2.5-7B on 8 H100 with this config: {grpo}")["request"]["kl_beta"] == 0.04


@pytest.mark.parametrize(
    ("question", "per_second"),
    [
        ("serve Llama 3 8B for 1M tokens per minute on H100", 1e6 / 60),
        ("serve Llama 3 8B for 1 million tokens per minute on H100", 1e6 / 60),
        ("serve Llama 3 8B at 1.5M tokens per minute on H100", 1.5e6 / 60),
        ("用 H100 部署 Llama 3 8B，每分钟 100万 token", 1e6 / 60),
    ],
)
def test_tokens_per_minute_is_the_target_and_nothing_is_left(capsys, question, per_second):
    out = _ask(capsys, question)
    assert out["request"]["target_tokens_per_s"] == pytest.approx(per_second)
    assert out["interpretation"]["ignored"] == []


# 4. The cheapest serving card: vLLM runs a V100 (compute capability 7.0), in fp16, said on its row


def test_a_card_without_bf16_is_compared_in_fp16(capsys):
    text = _text(capsys, "cheapest card to serve Qwen2.5-7B with vLLM")
    v100 = next(line for line in text.splitlines() if line.startswith("• V100"))
    assert v100.startswith("• V100 32G (in fp16: no bf16 on this card): 1 GPU")
    a100 = next(line for line in text.splitlines() if line.startswith("• A100 80G"))
    assert "fp16" not in a100
