"""Reading faults of session 25 (issue 24; trial s24-2 leftovers):

- a family written without its size, the size right after it ('GPT-2 (774M)', 'Llama-2 (70B)'), is the
  catalog release of that name and size (bot/parse/bracket_sizes.py), and a size said again that agrees
  with the release ('GPT-2 Large (774M)') is used, never named 'unread';
- a version said once and sizes said without it ('Llama-2 … Llama 70B') are that version's releases
  (bot/parse/version_context.py), not the latest release of the family;
- Liger Kernel (use_liger_kernel, enable_liger_kernel, 'the Liger kernel') is the request's chunked_loss
  (estimator/request_loss.py), sized without the whole fp32 logits;
- an NVIDIA 'D' part ('RTX 5090 D v2') is its own card (catalog since s25 trfix3), never the RTX 5090.
"""

from __future__ import annotations

from typing import Any

import pytest

from estimator import catalog
from tests.real_questions import answer_json


def _ignored(answer: dict[str, Any]) -> list[str]:
    return [i["text"] for i in answer["interpretation"]["ignored"]]


# GPT-2 Large: 774,030,080 parameters, Llama-2-70B: 69e9 (estimator/data/models/gpt.toml, llama.toml: the
# checkpoints' config.json)
@pytest.mark.parametrize(
    ("question", "model", "params"),
    [
        ("Fine-tune GPT-2 (774M) on one RTX 4090 on 1B tokens, how long?", "GPT-2-774M", 774_030_080.0),
        ("Pretrain GPT-2, 774M, on 8 H100s with 10B tokens: how long?", "GPT-2-774M", 774_030_080.0),
        ("Fine-tune Llama-2 (70B) with LoRA on 8 A100s on 1B tokens, how long?", "Llama-2-70B", 69e9),
        ("用一张4090微调GPT-2（774M），10亿token要多久", "GPT-2-774M", 774_030_080.0),
        ("8张A100用LoRA微调Llama-2（70B），10亿token要多久", "Llama-2-70B", 69e9),
        ("Llama-2 (13B) 用 4 张 A100 做 LoRA，1 亿 token 要多久？", "Llama-2-13B", 13e9),
    ],
)
def test_a_family_and_its_size_in_brackets_is_that_release(question: str, model: str, params: float) -> None:
    answer = answer_json(question)
    assert (answer["request"]["model"], answer["request"]["params_total"]) == (model, params)
    assert not answer["interpretation"]["substitutions"]  # no generic shape of the size


@pytest.mark.parametrize(
    "question",
    [
        "Fine-tune GPT-2 Large (774M) on one RTX 4090 on 1B tokens, how long?",
        "用一张4090微调GPT-2 large（774M参数），10亿token要多久",
        "Fine-tune gpt2-large, 774M parameters, on one RTX 4090 on 1B tokens, how long?",
    ],
)
def test_a_size_that_agrees_with_the_release_is_used(question: str) -> None:
    answer = answer_json(question)
    assert answer["request"]["model"] == "GPT-2-774M"
    assert not any("774" in t for t in _ignored(answer))


@pytest.mark.parametrize(
    "question",
    [
        # a size that is not the release's stays the user's: a generic shape of it, named
        "Fine-tune GPT-2 Large (7B) on one RTX 4090 on 1B tokens, how long?",
        # a name no catalog release has with that size: still a generic shape
        "Fine-tune GPT-2 (3B) on one RTX 4090 on 1B tokens, how long?",
    ],
)
def test_a_size_no_release_has_is_not_a_release(question: str) -> None:
    answer = answer_json(question)
    assert answer["request"]["params_total"] in (7e9, 3e9)
    assert answer["request"]["model"] is None


@pytest.mark.parametrize(
    ("question", "model"),
    [
        (
            "We use Llama-2. How long does LoRA on the Llama 13B take on 4 A100 with 100M tokens?",
            "Llama-2-13B",
        ),
        (
            "I'm training Llama-2 with FSDP on 4xH100. Llama 7B full FT takes 11m; how long should the "
            "Llama 70B full fine-tune take on the 4 H100s with 100M tokens?",
            "Llama-2-70B",
        ),
        ("我们用的是 Llama-2，Llama 70B 用 8 张 A100 做 LoRA，1 亿 token 要多久？", "Llama-2-70B"),
        ("团队一直用 Llama-2：Llama 13B 全参微调，8 张 A100，1 亿 token 多久？", "Llama-2-13B"),
    ],
)
def test_the_version_said_once_is_the_sizes_release(question: str, model: str) -> None:
    answer = answer_json(question)
    assert answer["request"]["model"] == model
    assert not any(s["reason"] == "latest_release" for s in answer["interpretation"]["substitutions"])


@pytest.mark.parametrize(
    ("question", "model"),
    [
        # the version is the old setup: the size said after the switch is the latest release, named
        ("Llama-2 is old; how long to fine-tune Llama 70B on 8 H100 with 1B tokens?", "Llama-3.3-70B"),
        ("How long to LoRA Llama 70B on 8 H100 with 1B tokens?", "Llama-3.3-70B"),
        ("Qwen1.5 vs Qwen 72B: serving on 4 A100, fits?", "Qwen-72B"),
    ],
)
def test_a_version_parted_from_the_size_is_not_its_release(question: str, model: str) -> None:
    assert answer_json(question)["request"]["model"] == model


LLAMA_70B_LOGITS = 4096 * 128_256
"""Logits of one 4,096-token sequence of Llama-3.1-70B (vocab_size 128,256: its config.json)."""


@pytest.mark.parametrize(
    "question",
    [
        "QLoRA fine-tune Llama-3.1-70B on one A6000 48G, seq 4096, use_liger_kernel: true — does it fit?",
        "QLoRA fine-tune Llama-3.1-70B on one A6000 48G, seq 4096, with the Liger kernel — does it fit?",
        "QLoRA微调Llama-3.1-70B，单卡A6000 48G，序列长度4096，开了 liger-kernel，能跑吗",
        "QLoRA微调Llama-3.1-70B，单卡A6000 48G，序列长度4096，enable_liger_kernel=True，能跑吗",
    ],
)
def test_liger_sizes_the_loss_without_the_whole_fp32_logits(question: str) -> None:
    """Liger's fused linear cross-entropy (linkedin/Liger-Kernel ops/fused_linear_cross_entropy.py):
    the loss's peak is the chunked loss's 2 + 4/8 bytes per logit (estimator.transients
    CHUNKED_LOSS_BYTES_PER_LOGIT), not the fp32 loss's 12."""
    answer = answer_json(question)
    assert answer["request"]["chunked_loss"] is True
    assert answer["report"]["memory"]["breakdown"]["logits"] == LLAMA_70B_LOGITS * 2.5
    assert not _ignored(answer)


@pytest.mark.parametrize(
    ("question", "chunked", "logits"),
    [
        ("QLoRA fine-tune Llama-3.1-70B on one A6000 48G, seq 4096 — does it fit?", None, 12.0),
        ("QLoRA fine-tune Llama-3.1-70B on one A6000 48G, seq 4096, without Liger — fits?", False, 12.0),
        (
            "QLoRA fine-tune Llama-3.1-70B on one A6000 48G, seq 4096, use_liger_kernel: false. Fits?",
            False,
            12.0,
        ),
    ],
)
def test_no_liger_keeps_the_fp32_loss(question: str, chunked: bool | None, logits: float) -> None:
    answer = answer_json(question)
    assert answer["request"]["chunked_loss"] is chunked
    assert answer["report"]["memory"]["breakdown"]["logits"] == LLAMA_70B_LOGITS * logits


def test_liger_in_a_serving_question_is_named_training_only() -> None:
    answer = answer_json("Serve Qwen2.5-7B with vLLM on one 4090; we train with the Liger kernel. Fits?")
    assert answer["request"]["chunked_loss"] is None
    assert {"text": "Liger kernel", "reason": "training_only"} in answer["interpretation"]["ignored"]


# RTX 5090 D (32 GB, 1792 GB/s) and RTX 5090 D v2 (24 GB, 384-bit, 1344 GB/s): catalog cards since s25
# trfix3 (estimator/data/gpus.toml, NVIDIA China product page and Tom's Hardware 2025-08-12 spec table)
@pytest.mark.parametrize(
    ("question", "gpu", "memory"),
    [
        (
            "I run an NVIDIA RTX 5090 D v2 with 24 GB of VRAM. Can it serve Qwen2.5-14B at int4?",
            "RTX-5090D-v2",
            24,
        ),
        ("我有一张 RTX 5090 D v2 24G，能跑 Qwen2.5-14B int4 吗", "RTX-5090D-v2", 24),
        ("I run an NVIDIA RTX 5090 D with 32 GB of VRAM. Can it serve Qwen2.5-14B at int4?", "RTX-5090D", 32),
        ("5090D能跑Qwen2.5-32B-AWQ吗，vLLM，16k上下文", "RTX-5090D", 32),
    ],
)
def test_a_d_part_is_its_own_card_never_the_rtx_5090(question: str, gpu: str, memory: float) -> None:
    answer = answer_json(question)
    assert answer["interpretation"]["unknown_gpu"] is None
    assert answer["request"]["gpu"] == gpu
    assert catalog.gpu(gpu).memory_gib == memory


@pytest.mark.parametrize(
    ("question", "gpu"),
    [
        ("I run an RTX 4090 D with 24 GB. Can it serve Qwen2.5-14B at int4?", "RTX-4090D"),  # in the catalog
        ("I have an RTX 5090. Can it serve Qwen2.5-14B at int4?", "RTX-5090"),
        ("Serve Qwen2.5-7B on 2 x RTX 4090 d. Fits?", "RTX-4090D"),
    ],
)
def test_catalog_cards_stay_catalog_cards(question: str, gpu: str) -> None:
    answer = answer_json(question)
    assert answer["request"]["gpu"] == gpu
    assert answer["interpretation"]["unknown_gpu"] is None


@pytest.mark.parametrize(
    ("question", "output"),
    [  # the served context (4K by default) holds the reply
        ("Serve Mistral-7B on one L40S with TGI, max_new_tokens 512, 50 users: fits?", "512"),
        ("用 vLLM 在一张 4090 上部署 Qwen2.5-7B，max_new_tokens=1024，20 并发够吗", "1,024"),
        ("Serve Qwen2.5-7B on one A100 with vLLM, max new tokens: 256, 30 concurrent: fits?", "256"),
    ],
)
def test_max_new_tokens_is_each_requests_output(question: str, output: str) -> None:
    """transformers ``generate(max_new_tokens=…)`` and TGI's request parameter of that name: the reply's
    length, read as 'max_tokens' is (in the context, named output_in_context, or added to a prompt)."""
    items = answer_json(question)["interpretation"]["ignored"]
    assert {"text": f"output_tokens: {output}", "reason": "output_in_context"} in items
    assert not any(i["reason"] == "unread" for i in items)


def test_max_new_tokens_is_not_a_training_setting() -> None:
    """A GRPO run's generation length is read by the RL readers, not as a served reply."""
    answer = answer_json(
        "GRPO on Qwen2.5-7B with TRL on 8 H100, max_completion_length 1024, 5000 prompts: how long?"
    )
    assert answer["request"]["max_completion_length"] == 1024


@pytest.mark.parametrize(
    ("question", "samples"),
    [
        (
            "torchrun --nproc_per_node 8 run_clm.py --model_name_or_path Qwen/Qwen2.5-7B --max_train_samples "
            "50000 --per_device_train_batch_size 2: how long on 8 A100?",
            50_000,
        ),
        (
            "用 8 张 A800 跑 supervised_finetuning.py 微调 Qwen2.5-7B，"
            "max_train_samples=20000，每条 1024 token，要多久",
            20_000,
        ),
        (
            "2 台 8 卡 A800 全量预训练 Yi-34B：pretraining.py --max_train_samples 10000 "
            "--per_device_train_batch_size 2",
            10_000,
        ),
    ],
)
def test_max_train_samples_is_the_sample_count(question: str, samples: int) -> None:
    """transformers examples/pytorch/language-modeling/run_clm.py: the training examples truncated to
    max_train_samples (MedicalGPT's scripts copy the argument)."""
    assert answer_json(question)["request"]["num_samples"] == samples


def test_max_eval_samples_is_no_sample_count() -> None:
    answer = answer_json(
        "Fine-tune Qwen2.5-7B on 8 A100 with --max_eval_samples 1000 on 1B tokens: how long?"
    )
    assert answer["request"]["num_samples"] is None


@pytest.mark.parametrize(
    "question",
    [
        "I tried a full fine-tune of Llama-3-8B on an 80GB A100 and got CUDA OOM. How many GPUs do I need?",
        "Full fine-tuning Qwen2.5-7B on an A100 40GB fails with OOM; how many GPUs should I use?",
        "在一张 A100 上全参微调 Llama-3-8B 爆显存了，要几张卡？",
    ],
)
def test_the_one_card_a_failed_run_was_on_is_one(question: str) -> None:
    """The failed run's card is a count of 1 (the answer then says how many it needs), as 'on one A100'."""
    answer = answer_json(question)
    assert answer["request"]["gpu_count"] == 1
    assert answer["report"]["memory"]["min_gpus"] > 1


@pytest.mark.parametrize(
    "question",
    [
        "How many GPUs do I need to full fine-tune Llama-3-8B on an A100 cluster?",
        "How many GPUs does a full fine-tune of Llama-3-8B need? I have an A100 80GB.",
    ],
)
def test_a_card_named_beside_an_asked_count_is_no_count(question: str) -> None:
    assert answer_json(question)["request"]["gpu_count"] is None
