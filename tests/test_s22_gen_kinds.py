"""Session 22 (issue 24, part gen): three fault kinds of the working splits, read by general mechanisms.

- A GPU count said of another party's setup or of a questioned requirement ('why do you need 2 GPUs …? My
  4090 …', '是一定要 8 张卡么，单卡无法训练？') while the user names one card of their own: named
  ``other_setup``, the single card sized (bot/parse/claimed_counts.py). Round 15 en15-002, zh15-017.
- A DeepSpeed config's stage ('ds_config（stage 2，bf16）'): the ZeRO stage (bot/parse/settings.py ZERO_RE).
  Round 12 zh12-008.
- llama.cpp slots counted in words ('one parallel slot', '一个并行槽位'): the load, as '4 parallel slots'
  is (bot/parse/slot_words.py; llama.cpp tools/server/README.md: -np, "number of parallel sequences to
  decode"). Round 11 en11-013 (its 'batch 1024' had become 1,024 concurrent sequences).
"""

from __future__ import annotations

import json

import pytest

from bot.cli import ask


def _answer(text: str) -> dict:
    return json.loads(ask(text, None, "json")[0])


def _other_setup(answer: dict) -> list[str]:
    items = (answer.get("interpretation") or {}).get("ignored") or []
    return [i["text"] for i in items if i.get("reason") == "other_setup"]


CLAIMED = [
    ("why do you need 2 GPUs to run Qwen2.5 3B? My 4090 has 24GB", "2"),
    ("Do you really need 4 cards for Llama-3-8B inference? I only have a single RTX 3090.", "4"),
    ("You recommend 8 GPUs for fine-tuning Qwen2.5-7B, but can it run on one GPU?", "8"),
    ("你们用的是 A100-80G，是一定要 8 张卡么，单卡无法训练？", "8"),
    ("Qwen-7B 微调一定要 4 张 A100 吗？单卡 A100 80G 行不行？", "4"),
    ("你们推荐 8 张 4090 跑 Qwen2.5-14B，我只有单卡 4090 能跑吗？", "8"),
]


@pytest.mark.parametrize(("text", "theirs"), CLAIMED)
def test_other_partys_count_is_named_and_the_own_card_sized(text: str, theirs: str) -> None:
    answer = _answer(text)
    assert answer["request"]["gpu_count"] == 1
    assert theirs in _other_setup(answer)


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("You need 2 GPUs for Qwen2.5-32B inference on RTX 4090, right?", 2),  # no card of the user's own
        ("Do you use 8 A100s for Llama-3-70B? How long does a single epoch take?", 8),  # an epoch: no card
        ("你们用 8 张 A100 训练 Qwen-7B 花了多久？", 8),
        ("Qwen2.5-72B 一定要 4 张 A100 吗？单张 batch 能开多大？", 4),  # '单张 batch': no card count
    ],
)
def test_a_count_without_a_card_of_the_users_own_stays(text: str, count: int) -> None:
    answer = _answer(text)
    assert answer["request"]["gpu_count"] == count
    assert not _other_setup(answer)


@pytest.mark.parametrize(
    ("text", "stage"),
    [
        ("Qwen-14B 全量微调，ds_config（stage 2，bf16），4 台 8 卡 80G", 2),
        ("Qwen2.5-7B 全量微调，deepspeed 配置 stage 3，8 张 A100", 3),
        ("Qwen2.5-7B 全参微调用 ds_config: stage 1，单卡 A100 80G", 1),
        ("Full fine-tune of Llama-3-8B with deepspeed config: stage 3 on 8 A100", 3),
        ("Full fine-tune of Qwen2.5-7B, ds_config (stage 2, bf16) on 4 A100 80GB", 2),
        ("SFT of Llama-3-8B with deepspeed json stage 1 on 8 H100", 1),
    ],
)
def test_a_deepspeed_configs_stage_is_the_zero_stage(text: str, stage: int) -> None:
    assert _answer(text)["request"]["zero_stage"] == stage


@pytest.mark.parametrize(
    "text",
    [
        "LLaVA stage 2 fine-tune with deepspeed on 8 A100",  # a training stage, not ZeRO's
        "LLaVA-7B 第二阶段（stage 2）用 deepspeed 微调，8 张 A100",
    ],
)
def test_a_training_stage_is_no_zero_stage(text: str) -> None:
    assert _answer(text)["request"]["zero_stage"] is None


@pytest.mark.parametrize(
    ("text", "load"),
    [
        ("Qwen2.5-7B on one RTX 4090 with llama.cpp, batch 1024 / ubatch 256, one parallel slot", 1),
        ("Qwen2.5-7B on one RTX 4090 with llama.cpp, two parallel slots", 2),
        ("Qwen2.5-7B on one RTX 4090 with llama.cpp, three slots", 3),
        ("用 llama.cpp 在单卡 4090 上跑 Qwen2.5-7B，一个并行槽位，上下文 32k", 1),
        ("用 llama.cpp 在单卡 4090 上跑 Qwen2.5-7B，两个并行槽位", 2),
        ("ollama 跑 Qwen2.5-7B，4090 单卡，四个并发槽位", 4),
    ],
)
def test_slots_counted_in_words_are_the_load(text: str, load: int) -> None:
    assert _answer(text)["request"]["concurrency"] == load


@pytest.mark.parametrize(
    "text",
    [
        "The motherboard has two slots for GPUs; can I run Qwen2.5-32B on two RTX 4090?",
        "主板有两个槽位，能插两张 4090 跑 Qwen2.5-32B 吗？",
    ],
)
def test_card_slots_in_words_are_no_load(text: str) -> None:
    answer = _answer(text)
    assert answer["request"]["gpu_count"] == 2
    assert answer["request"]["concurrency"] == 1  # the default single user, not the slots


WORKED_THEN_FAILED = [
    ("Serving Qwen2.5-7B with vLLM on an A100: --max-num-seqs 64 works but --max-num-seqs 128 OOMs.", 128),
    ("Llama-3-8B on an L40S, vLLM: max_num_seqs=32 runs fine; max_num_seqs=256 fails: out of memory.", 256),
    ("TensorRT-LLM Llama-2-13B on an A100 40GB: max_batch_size=32 works, max_batch_size=96 fails (OOM).", 96),
    ("用 vllm 在 A100 上部署 Qwen2.5-7B，--max-num-seqs 64 正常，但 --max-num-seqs 256 就 OOM 了", 256),
    ("Qwen2.5-7B 用 vllm 部署在 4090 上，max_num_seqs=16 没问题，max_num_seqs=64 就报错", 64),
    ("Qwen2.5-7B 用 TensorRT-LLM 在 A10 上，max_batch_size=8 正常，max_batch_size=32 就报显存不足", 32),
]  # fmt: skip
"""A setting's working value beside its failing one (bot/parse/worked_value.py): the failing one is sized,
the working one named. Rounds 7 en7-036 and 15 en15-023 (TensorRT-LLM --max_batch_size 64 built, 128 failed:
the 128 had been left unread)."""


@pytest.mark.parametrize(("text", "cap"), WORKED_THEN_FAILED)
def test_the_failing_value_is_sized_and_the_working_one_named(text: str, cap: int) -> None:
    answer = _answer(text)
    assert answer["request"]["max_num_seqs"] == cap
    assert len(_other_setup(answer)) == 1


@pytest.mark.parametrize(
    "text",
    [
        "vLLM Qwen2.5-7B on an A100: --max-num-seqs 64 OOMs and --max-num-seqs 128 OOMs too.",  # both fail
        "vllm 部署 Qwen2.5-7B，A100，--max-num-seqs 64 和 --max-num-seqs 128 都报错",
        "vLLM Qwen2.5-7B on an A100: I tried --max-num-seqs 64 and --max-num-seqs 128; which is better?",
    ],
)
def test_two_values_without_one_working_and_one_failing_keep_the_first(text: str) -> None:
    answer = _answer(text)
    assert answer["request"]["max_num_seqs"] == 64
    assert not any("64" in t for t in _other_setup(answer))
