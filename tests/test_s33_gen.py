"""Session 33, general readers (branch s33-gen): fault kinds that recur at first contact across rounds 18–26
and the working splits, each read as a family of phrasings in both languages and tested through the CLI
(``sizing-bot ask --format json``):

- a count of pictures with the measure word '张' ('2 万张图', '10 万张图片', '3000 张照片'): the
  images of the data set (``num_samples``), never a count of cards; in English 'on 20k images' likewise, but
  not 'N images of M tokens each' (a part of one sample) (bot.parse.sample_nouns, bot.parse.roles
  R_COUNT_WORD); labelling, recognising, captioning or OCR of images is running a model, so those images are
  no data set to train on (bot.parse.lexicon.WEAK_INFERENCE_RE).

The sentences are written for these tests (none is from the real-question corpus)."""

from __future__ import annotations

import json
from typing import Any

import pytest


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    """The JSON answer of ``sizing-bot ask --format json TEXT``."""
    from bot.cli import main

    assert main(["ask", "--format", "json", text]) in (0, 2)
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("text", "cards", "images"),
    [
        ("用 10 万张图片在 8 张 A100 上微调 Qwen2.5-VL-7B 要多久", 8, 100_000),
        ("3000 张照片 LoRA 微调 Qwen2.5-VL-7B，单卡 4090 要多久", 1, 3000),
        ("训练集有 8 万张图，用 8 卡 A800 全参微调 Qwen2.5-VL-7B", 8, 80_000),
        ("微调 Qwen2.5-VL-7B 用了 2000 张截图，在 1 张 3090 上", 1, 2000),
        ("Qwen2.5-VL-7B 在 2 张 A10 上 LoRA 微调 5 万张图要多久", 2, 50_000),
        ("Fine-tune Qwen2.5-VL-7B on 20k images with 4 A100s, how long?", 4, 20_000),
        ("How long does a LoRA of Qwen2.5-VL-7B take over 120k photos on 2 H100?", 2, 120_000),
        ("qlora qwen2.5-vl-7b, 8k screenshots, one 4090: how many hours?", 1, 8000),
    ],
)
def test_pictures_counted_are_data_not_cards(
    capsys: pytest.CaptureFixture[str], text: str, cards: int, images: int
) -> None:
    req = ask(capsys, text)["request"]
    assert req["gpu_count"] == cards
    assert req["num_samples"] == images
    assert req["stage"] == "finetune"


@pytest.mark.parametrize(
    ("text", "cards"),
    [
        ("用两张 4090 给 50 万张图片打标签，Qwen2.5-VL-7B 要多久", 2),
        ("用 Qwen2.5-VL-7B 识别 10 万张图片，两张 4090 要多久", 2),
        ("OCR 5000 张截图，Qwen2.5-VL-7B，单卡 A10 要多久", 1),
        ("Caption 50k images with Qwen2.5-VL-7B on two 4090s, how long?", 2),
        ("How long to OCR 30k scanned pages as images with Qwen2.5-VL-7B on 1 L4?", 1),
    ],
)
def test_pictures_run_through_a_model_are_serving(
    capsys: pytest.CaptureFixture[str], text: str, cards: int
) -> None:
    req = ask(capsys, text)["request"]
    assert req["stage"] == "inference"
    assert req["gpu_count"] == cards


@pytest.mark.parametrize(
    ("text", "cards", "gpu"),
    [
        ("4 张图灵架构的 T4 推理 Qwen2.5-7B 要多少显存", 4, "T4"),
        ("8 张 A100 全参微调 Qwen2.5-7B，每张图 1024 token", 8, "A100-SXM4-80GB"),
        ("3 张 4090 部署 Qwen2.5-7B，够吗", 3, "RTX-4090"),
        ("Qwen2.5-VL-7B, 8 images of 256 tokens each per sample, fine-tune on 4 A100s", 4, "A100-SXM4-80GB"),
    ],
)
def test_cards_stay_cards(capsys: pytest.CaptureFixture[str], text: str, cards: int, gpu: str) -> None:
    req = ask(capsys, text)["request"]
    assert req["gpu_count"] == cards
    assert req["gpu"] == gpu
    assert req.get("num_samples") != 8


# Accelerators outside the catalog by product line alone, with no maker's word; Iluvatar's V100-named cards;
# Intel's Max, Cerebras, SambaNova (bot.parse.card_vendors.MORE_CARDS, bot.parse.gpus._gpu_source).
@pytest.mark.parametrize(
    ("text", "typed", "cards"),
    [
        ("8 张天垓 150 训练 Llama-2-13B 要多久", "天垓 150", 8),
        ("天垓100 的卡 4 张，能 LoRA 微调 Qwen2.5-7B 吗", "天垓100", 4),
        ("两张智铠100 部署 Qwen2.5-7B 够不够", "智铠100", 2),
        ("用 4 张思元590 全参微调 Qwen2.5-7B", "思元590", 4),
        ("曦云 C550 八张卡推理 Qwen2.5-72B 吞吐多少", "曦云 C550", 8),
        ("云燧T20 两张跑 Qwen2.5-7B 推理", "云燧T20", 2),
        ("用 4 张天数BI-V100 部署 Qwen2.5-7B", "BI-V100", 4),
        ("Can 4x Iluvatar BI-V150 serve Qwen2.5-7B?", "Iluvatar BI-V150", 4),
        ("fine-tune Qwen2.5-7B on 4 Intel Max 1550 GPUs, how long?", "Intel Max 1550", 4),
        ("Can 2 Intel Data Center GPU Max 1550 serve Llama-3-8B?", "Intel Data Center GPU Max 1550", 2),
        ("How long to pretrain a 7B on 1T tokens with 2 Cerebras CS-3 systems?", "Cerebras CS-3", 2),
    ],
)
def test_cards_outside_the_catalog_named_as_typed(
    capsys: pytest.CaptureFixture[str], text: str, typed: str, cards: int
) -> None:
    out = ask(capsys, text)
    assert out["interpretation"]["unknown_gpu"] == typed
    assert out["request"]["gpu_count"] == cards


@pytest.mark.parametrize(
    ("text", "gpu", "cards"),
    [
        ("8 张 V100 微调 Qwen2.5-7B 要多久", "V100-SXM2-32GB", 8),
        ("2 x V100 32G fine-tune Qwen2.5-7B with LoRA", "V100-SXM2-32GB", 2),
        ("max 1100 tokens per request, Qwen2.5-7B on one A10", "A10", 1),
        ("训练天数 30 天，8 张 A100 预训练 7B 模型 1T token", "A100-SXM4-80GB", 8),
    ],
)
def test_catalog_cards_and_words_stay(
    capsys: pytest.CaptureFixture[str], text: str, gpu: str, cards: int
) -> None:
    out = ask(capsys, text)
    assert out["request"]["gpu"] == gpu
    assert out["request"]["gpu_count"] == cards
    assert out["interpretation"]["unknown_gpu"] is None


# Tools and engines no table had (bot.parse.more_tools, bot.parse.more_engines), and H2O LLM Studio no
# longer read as LM Studio (llama.cpp) (bot.parse.method_words).
@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("Training a 7B with Nanotron on 64 H100 for 1T tokens, how many days?", "training_tool: Nanotron"),
        ("用 nanotron 在 64 张 H100 上预训练 7B，1T token 要多久", "training_tool: Nanotron"),
        ("pretraining a 1B with picotron on 8 H100s for 100B tokens", "training_tool: picotron"),
        ("Fine-tune Qwen2.5-7B with Oumi on 2 A100s, how long for 10k samples?", "training_tool: Oumi"),
        ("fine-tuning llama-3-8b with h2o-llmstudio on a single A6000", "training_tool: H2O LLM Studio"),
        ("用 H2O LLM Studio 在单卡 A6000 上微调 Llama-3-8B 要多久", "training_tool: H2O LLM Studio"),
        ("用 MNN 在手机上跑 Qwen2.5-1.5B 需要多少内存", "runtime: MNN"),
        ("Serving Qwen2.5-7B with mnn on a phone: how much RAM?", "runtime: MNN"),
        ("Can we serve Llama-3-70B over Petals with 4 RTX 3090 peers?", "runtime: Petals"),
    ],
)
def test_tools_and_engines_named(capsys: pytest.CaptureFixture[str], text: str, named: str) -> None:
    out = ask(capsys, text)
    assert named in [i["text"] for i in out["interpretation"]["ignored"]]
    assert out["request"]["runtime"] is None


@pytest.mark.parametrize(
    "text",
    [
        "Serve Qwen2.5-7B in LM Studio on a 4090, tokens per second?",
        "用 lmstudio 在 4090 上跑 Qwen2.5-7B 有多快",
    ],
)
def test_lm_studio_stays_llama_cpp(capsys: pytest.CaptureFixture[str], text: str) -> None:
    assert ask(capsys, text)["request"]["runtime"] == "llama.cpp"


# Transcribing audio, generating images and Nomic's embedding models: a model run, named as typed
# (bot.parse.lexicon.WEAK_INFERENCE_RE, bot.parse.verb_names RETRIEVAL_NAME_RE).
@pytest.mark.parametrize(
    ("text", "stage", "typed"),
    [
        ("Whisper large-v3 在 4090 上转写 1 小时音频要多久", "inference", "Whisper large-v3"),
        ("用 Whisper 转录 100 小时录音，一张 A10 要多久", "inference", None),
        (
            "Transcribe 1000 hours of audio with whisper-large-v3 on 2 A100s, how long?",
            "inference",
            "whisper-large-v3",
        ),
        (
            "transcribing podcasts with whisper-large-v3 on one L4: how many hours of audio per hour?",
            "inference",
            None,
        ),
        ("用 FLUX.1 出图，4090 够吗", "inference", None),
        (
            "fine-tune whisper-large-v3 on 500 hours of transcribed audio with 4 A100s",
            "finetune",
            "whisper-large-v3",
        ),
        ("用 1 万条转写好的语音微调 Whisper large-v3，2 张 3090", "finetune", "Whisper large-v3"),
        (
            "How many GPUs to serve nomic-embed-text at 500 requests per second?",
            "inference",
            "nomic-embed-text",
        ),
        ("用 nomic-embed-text-v1.5 做向量化，一张 T4 够吗", "inference", "nomic-embed-text-v1.5"),
    ],
)
def test_media_jobs_are_runs(
    capsys: pytest.CaptureFixture[str], text: str, stage: str, typed: str | None
) -> None:
    out = ask(capsys, text)
    assert out["request"]["stage"] == stage
    if typed:
        assert out["interpretation"]["unknown_model"] == typed


# One machine of different cards with a count written for each (bot.parse.mixed_rig.counted_rig): counts in
# words ('one … plus two …', '两张 … 和一张 …'), a listing join where the machine is owned or the cards work
# together ('一起', 'together', '不同型号'), and '这种' (this kind) no longer read as weighing kinds of card.
@pytest.mark.parametrize(
    ("text", "cards", "other"),
    [
        ("两张 3090 和一张 A6000 一起推理 Llama-3-70B int4 够吗", 3, "RTX A6000"),
        ("my rig: one RTX 4090 plus two RTX 3090s, can it fine-tune Qwen2.5-14B with LoRA?", 3, "RTX 4090"),
        ("I have two 3090s and one 4090 in my box, can they serve Llama-3-70B AWQ?", 3, "RTX 4090"),
        ("我的机器里有两张 4090 和一张 3090，能跑 Qwen2.5-72B-int4 吗", 3, "RTX 4090"),
        ("1 张 RTX 4090 24G + 1 张 V100 32G，这种不同型号的卡能跑 Qwen2.5-32B-int4 吗", 2, "V100 SXM2 32GB"),
        ("Two RTX 3090 together with one RTX 4090: can the three serve Qwen2.5-72B in int4?", 3, "RTX 4090"),
    ],
)
def test_counted_rig_in_words(capsys: pytest.CaptureFixture[str], text: str, cards: int, other: str) -> None:
    out = ask(capsys, text)
    assert out["request"]["gpu_count"] == cards
    assert other in [i["text"] for i in out["interpretation"]["ignored"]]


@pytest.mark.parametrize(
    ("text", "cards"),
    [
        ("on two A100s and one H100, how long to fine-tune Llama-3-8B?", 2),
        ("两张 A100 和一张 H100 分别训练 Qwen2.5-7B 要多久", 2),
        ("2 张 A100 还是 1 张 H100 微调 Qwen2.5-7B 更快", 2),
        ("三种卡：两张 3090 和一张 4090，分别能跑多大模型", 2),
        ("我们有 8 张 H100 和 2 张 A100，训练 7B 模型 100B token 要多久", 8),
        ("We have eight H100s and two A100s in the cluster; how long to train a 7B on 100B tokens?", 8),
    ],
)
def test_listed_setups_stay_apart(capsys: pytest.CaptureFixture[str], text: str, cards: int) -> None:
    out = ask(capsys, text)
    assert out["request"]["gpu_count"] == cards
    assert not [i for i in out["interpretation"]["ignored"] if i["reason"].startswith("mixed_rig")]
