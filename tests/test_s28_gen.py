"""s28-gen: general readers for the working splits' remaining kinds, each with must-read and
must-not-misread sentences of our own in both languages.

- NVIDIA's H line by its letter ('8 张 H 卡', '1 node of 8 H cards'): a family, named as typed, sized on
  H100 for reference (estimator.gpu_families.H_FAMILY_RE), its count kept; never 8 hours.
- A vendor family typed without a model ('AMD 的卡', 'AMD GPUs'): named as typed and offered the vendor's
  largest catalog parts (MI350X / MI355X / MI325X / MI300X), not the nearest names by spelling.
- A size asked alone after a family's catalog model ('LLaMA 7B runs …, can a 4090 run 13B?'): that family's
  release (bot.parse.family_size); trainer-then-rollout card counts in online RL (bot.parse.role_split).
"""

from __future__ import annotations

import json

import pytest

from bot.cli import ask


def _json(text: str) -> dict:
    out, _ = ask(text, None, "json")
    return json.loads(out)


def _text(text: str) -> str:
    out, _ = ask(text, None, "text")
    return out


def _ignored(answer: dict) -> list[tuple[str, str]]:
    return [(i["text"], i["reason"]) for i in (answer.get("interpretation") or {}).get("ignored") or []]


@pytest.mark.parametrize(
    ("text", "count", "typed"),
    [
        ("I use 1 node of 8 H cards to run GRPO on Qwen2.5-7B, how much memory per GPU?", 8, "H cards"),
        ("I have 4 H GPUs: how long to LoRA fine-tune Qwen2.5-7B on 10k samples?", 4, "H GPUs"),
        ("我有8张H卡，LoRA 微调 Qwen2.5-7B 要多久？", 8, "H卡"),
        ("用 4 张 H 系列的卡部署 Qwen2.5-72B 够吗", 4, "H 系列的卡"),
    ],
)
def test_h_line_by_its_letter_is_a_family_with_its_count(text: str, count: int, typed: str) -> None:
    answer = _json(text)
    req = answer["request"]
    assert req["gpu"] == "H100-SXM5-80GB" and req["gpu_count"] == count
    assert answer["interpretation"]["unknown_gpu"] == typed
    assert req.get("hours") is None  # '8 H cards' is never 8 hours


def test_h_line_reply_names_the_family_and_its_members() -> None:
    en = _text("I have 8 H cards, can they serve Qwen2.5-72B?")
    assert "“H cards” names a family of accelerators" in en and "H200 / H20 / H100 / H800" in en
    zh = _text("我有8张H卡，能部署 Qwen2.5-72B 吗？")
    assert "“H卡”是一个加速卡系列" in zh and "H200 / H20 / H100 / H800" in zh


@pytest.mark.parametrize(
    "text",
    [
        "LoRA fine-tuning Qwen2.5-7B on one A100 took 8 h; how long on 4 A100s?",
        "Pretrain a 1B model on 8 H100s within 48 h: how many tokens?",
        "用 8 张 H100 训练 7B 模型，跑了 36 小时",
    ],
)
def test_named_cards_and_durations_are_not_the_h_family(text: str) -> None:
    assert not _json(text)["interpretation"].get("unknown_gpu")


@pytest.mark.parametrize(
    ("text", "typed"),
    [
        ("Which AMD GPUs can serve Llama-3.1-70B?", "AMD GPUs"),
        ("用 AMD 的卡部署 Llama-3.1-70B 需要几张？", "AMD 的卡"),
        ("AMD 显卡能跑 Qwen2.5-32B 推理吗", "AMD 显卡"),
    ],
)
def test_amd_family_offers_its_datacenter_parts(text: str, typed: str) -> None:
    answer = _json(text)
    assert answer["request"]["gpu"] == "MI300X"  # the family's flagship (estimator.gpu_families)
    assert answer["interpretation"]["unknown_gpu"] == typed
    reply = _text(text)
    assert "MI350X / MI355X / MI325X / MI300X" in reply  # 288 / 288 / 256 / 192 GB (gpus.toml)
    assert "W7800" not in reply


def test_named_amd_card_is_that_card_not_the_family() -> None:
    answer = _json("用 2 张 MI210 的卡部署 Qwen2.5-32B 够吗")
    assert answer["request"]["gpu"] == "MI210" and not answer["interpretation"].get("unknown_gpu")


@pytest.mark.parametrize(
    ("text", "model", "other"),
    [
        ("LLaMA 7B runs in int8 on my RTX 4090, but 13B goes out of memory. Can a 4090 run 13B?", "LLaMA-13B",
         "model: LLaMA 7B"),
        ("Llama-2 7B fits, what about 13B on an A10?", "Llama-2-13B", "model: Llama-2 7B"),
        ("Qwen2.5 7B 在 4090 上能跑，14B 能跑吗？", "Qwen2.5-14B", "model: Qwen2.5 7B"),
        ("我用 Qwen2.5-7B 微调没问题，但 32B 要几张 A100？", "Qwen2.5-32B", "model: Qwen2.5-7B"),
    ],
)  # fmt: skip
def test_a_size_asked_after_a_family_model_is_that_familys_release(text: str, model: str, other: str) -> None:
    answer = _json(text)
    assert answer["request"]["model"] == model
    assert (other, "other_setup") in _ignored(answer)  # the model named first is still named


@pytest.mark.parametrize(
    "text",
    [
        "Qwen2.5-7B fits on my 4090; what about 13B?",  # Qwen2.5 has no 13B: a 13B shape, not a Qwen2.5
        "Qwen2.5-7B 在 4090 上能跑，13B 呢？",
        "13B 跑起来没问题，但 70B 微调要多大显存？",  # no family named: a size stays a size
    ],
)
def test_a_size_the_family_lacks_stays_a_size(text: str) -> None:
    assert _json(text)["request"]["model"] is None


@pytest.mark.parametrize(
    ("text", "total", "share"),
    [
        ("GRPO on Qwen2.5-7B: 4 GPUs for the actor, 4 for vLLM rollout, A100 80G. Memory per GPU?", 8, "4"),
        ("PPO on Llama-3-8B with 7 GPUs for training and 1 GPU for vLLM inference on H100s", 8, "1"),
        ("GRPO 训练 Qwen2.5-7B，4 张卡训练，4 张卡给 vLLM 做 rollout，A100 80G，每卡显存多少？", 8, "4"),
        ("GRPO 训练 Qwen2.5-7B，6 张卡做训练，2 张给 sglang 采样，H100", 8, "2"),
    ],
)
def test_trainer_then_rollout_counts_are_one_job(text: str, total: int, share: str) -> None:
    answer = _json(text)
    assert answer["request"]["gpu_count"] == total  # the job's cards: the trainer's and the engine's
    assert (share, "rollout_share") in _ignored(answer)


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("GRPO on Qwen2.5-7B with 8 A100s, 2 of them for vLLM", 8),  # the job's count said: kept
        ("GRPO 训练 Qwen2.5-7B，8 张 A100，其中 2 张给 vllm，6 张训练", 8),
        ("Train Qwen2.5-7B with SFT on 4 GPUs, then serve it with vLLM on 2 GPUs", 4),  # no online RL
    ],
)
def test_a_stated_job_count_is_not_summed_again(text: str, count: int) -> None:
    assert _json(text)["request"]["gpu_count"] == count
