"""Session 48 merge: the design review's regressions fixed by the lead (issue 24 item 4).

B2: a whole number before 'x' and a catalog card ('2x RTX 4090') is a count of that card, not a ratio's
measure (bot.parse.unknown_card.RATIO_BASE_RE): round 44's ratio reader ('1.8x a T4', 'T4 的 1.8 倍') kept.
B3: adapters said not merged ('without merging it', 'unmerged', 'LoRA 不要合并，挂着适配器') are served
adapters (bot.parse.served_adapters), and no merge is asked (bot.parse.merge_asked._NOT_MERGED_RE).
"""

from __future__ import annotations

import pytest

from bot.parse import parse


@pytest.mark.parametrize(
    ("question", "gpu", "count"),
    [
        ("I have 2x RTX 4090 and one Intel Arc B580 12GB, can I run Qwen2.5-14B at 4-bit?", "RTX-4090", 2),
        ("3x RTX 3090 and an Intel Arc A770 16GB: can they serve Llama 3 8B?", "RTX-3090", 3),
        ("我有 2x RTX 4090 和一张 Intel Arc B580 12GB，能跑 Qwen2.5-14B 4bit 吗", "RTX-4090", 2),
    ],
)
def test_a_whole_count_before_x_is_the_users_cards(question: str, gpu: str, count: int) -> None:
    p = parse(question)
    assert (p.request.gpu, p.request.gpu_count) == (gpu, count)
    assert not any(reason == "other_setup" for _, reason in p.unused_numbers)


@pytest.mark.parametrize(
    ("question", "measure"),
    [
        ("Our Biren BR104 reaches 1.8x a T4, how many to serve Llama 3 8B?", "T4"),
        ("我们的卡吞吐能到英伟达 T4 的 1.8 倍，用寒武纪思元590 部署 Qwen2.5-7B 要几张", "T4"),
        ("Our Moore Threads S4000 is 2x the speed of an A100, how many to serve Qwen2.5-72B?", None),
    ],
)
def test_a_card_as_a_ratios_measure_is_still_no_card_of_theirs(question: str, measure: str | None) -> None:
    p = parse(question)
    if measure is not None:  # an unknown card beside it: the measure named as another setup's
        assert (measure, "other_setup") in p.unused_numbers
    else:  # a catalog card of theirs beside it: that card sized, the A100 not
        assert p.request.gpu == "MTT-S4000"


@pytest.mark.parametrize(
    "question",
    [
        "Serve Llama-3.1-8B with my LoRA adapter without merging it on one L4 for 20 users",
        "Serve Llama-3.1-8B with an unmerged LoRA adapter on one L4",
        "Serve Qwen2.5-7B on one A10 with the LoRA adapters not merged",
        "LoRA 不要合并，挂着适配器部署 Qwen2.5-7B，一张 A10 够吗",
        "Qwen2.5-7B 的 LoRA 不合并，直接挂适配器部署，一张 A10 够吗",
    ],
)
def test_adapters_said_not_merged_are_served_adapters(question: str) -> None:
    p = parse(question)
    assert p.request.stage == "inference"
    assert ("method: lora", "no_field") in p.unused_numbers


@pytest.mark.parametrize(
    "question",
    [
        "merge the LoRA then serve it to 50 users on one L40S",
        "LoRA 合并后部署 Qwen2.5-7B，50 个用户，一张 L40S",
        "After merging the LoRA adapter into Llama 3 8B, serve it on one L4",
    ],
)
def test_a_merged_lora_is_one_model_served(question: str) -> None:
    p = parse(question)
    assert p.request.stage == "inference"
    assert ("method: lora", "no_field") not in p.unused_numbers


@pytest.mark.parametrize(
    ("question", "gpu", "memory"),
    [
        ("A800-128G 能跑 Qwen2.5-72B 吗", "A800-80GB", 128.0),
        ("Can an A800-128G run Qwen2.5-72B?", "A800-80GB", 128.0),
        ("H20-141G 部署 DeepSeek-R1-Distill-Llama-70B 够吗", "H20-96GB", 141.0),
    ],
)
def test_a_memory_glued_to_the_card_name_is_that_cards(question: str, gpu: str, memory: float) -> None:
    """B5: 'A800-128G' with no count is a card named with its memory (per card), never 128 GiB in all."""
    p = parse(question)
    assert p.request.gpu == gpu
    assert (p.request.gpu_memory_gib, p.request.total_memory_gib) == (memory, None)


@pytest.mark.parametrize(
    ("question", "total"),
    [("H100 160GB 能跑 Qwen2.5-72B 吗", 160.0), ("A100 (160GB) serve Llama 3 70B", 160.0)],
)
def test_a_memory_beside_the_card_beyond_one_is_still_the_total(question: str, total: float) -> None:
    p = parse(question)
    assert (p.request.gpu_memory_gib, p.request.total_memory_gib) == (None, total)


@pytest.mark.parametrize(
    "question",
    [
        "DeepSpeed-Chat step 3 PPO with a 6.7b actor and LoRA on one A6000",
        "用 DeepSpeed-Chat 第三步 PPO 训练 6.7b 的 actor，LoRA，一张 A6000 够吗",
        "DeepSpeed-Chat step 1 with facebook/opt-1.3b OOMs on my 16GB GPU",
    ],
)
def test_a_scripts_tool_is_used_through_its_script(question: str) -> None:
    """B4: the tool named beside its script read ('script: DeepSpeed-Chat step 3') is used through it
    ('script_tool'), not also said to have no setting (bot.core.interpretation._script_tool)."""
    from tests.real_questions import answer_json

    ignored = answer_json(question)["interpretation"]["ignored"]
    assert {"text": "training_tool: DeepSpeed-Chat", "reason": "script_tool"} in ignored
    assert {"text": "training_tool: DeepSpeed-Chat", "reason": "no_field"} not in ignored


def test_the_tool_alone_keeps_its_reason() -> None:
    """No script read ('DeepSpeed-Chat' named for a plain SFT): the tool keeps 'no_field'."""
    from tests.real_questions import answer_json

    ignored = answer_json("SFT Llama 3 8B with DeepSpeed-Chat on 8 A100")["interpretation"]["ignored"]
    assert not any(i["reason"] == "script_tool" for i in ignored)
