"""The session-16 design review's parser findings (regressions of the merged branch), each fixed by kind
and tested in both languages through the CLI (``sizing-bot ask --format json``). The sentences are
written for these tests (none is from the real-question corpus)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cli_run import ask_in_process


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    return ask_in_process(capsys, text)


def ignored(data: dict[str, Any]) -> dict[str, str]:
    """typed → reason of the numbers the answer names as not used."""
    return {i["text"]: i["reason"] for i in (data.get("interpretation") or {}).get("ignored") or []}


FOOTPRINT_BESIDE_CARD = [
    ("Mistral-7B at 4-bit loads in 6 GB. What throughput do I get on 2x RTX 4090?", "RTX-4090", 2, "6"),
    ("Qwen2.5-14B fits in 30 GB at bf16; how many users can one L40S serve?", "L40S", 1, "30"),
    ("Qwen2.5-7B 量化后 5G 就能装下，用 2 张 3090 推理能跑多快？", "RTX-3090", 2, None),
    ("Qwen2.5-7B 4bit 在 6G 上就能跑，用 2 张 4090 多快？", "RTX-4090", 2, "6"),
]


@pytest.mark.parametrize(("text", "gpu", "count", "need"), FOOTPRINT_BESIDE_CARD)
def test_a_footprint_said_beside_a_named_card_is_not_the_cards_memory(
    capsys: pytest.CaptureFixture[str], text: str, gpu: str, count: int, need: str | None
) -> None:
    """Review finding 1: 'loads in / fits in N GB' said beside a named catalog card is the model's
    footprint: the card keeps its own memory, and the number is named as a stated need."""
    data = ask(capsys, text)
    req = data["request"]
    assert (req["gpu"], req["gpu_count"], req["gpu_memory_gib"]) == (gpu, count, None)
    if need is not None:
        assert ignored(data)[need] == "stated_need"


def test_a_footprint_stated_with_no_card_is_not_a_card(capsys: pytest.CaptureFixture[str]) -> None:
    """A statement ('fits in 16 GB at bf16.'), not a question about a card: a need, named."""
    data = ask(capsys, "Llama-3.1-8B fits in 16 GB at bf16. How fast does it decode?")
    assert data["request"]["gpu_memory_gib"] is None
    assert ignored(data)["16"] == "stated_need"


LARGER_CARD_RIGS = [
    # s19-fxb: on llama.cpp both cards, their memory summed (its default split is by free memory,
    # src/llama-model.cpp), sized as 2 of the larger card's name at the mean memory
    ("I have an RTX 5090 plus an RTX 3080. Can I run Qwen2.5-32B Q4 with llama.cpp?", "RTX-5090", 2),
    ("我的机器是 5090 加 3080，用 llama.cpp 跑 Qwen2.5-32B 的 Q4 行吗？", "RTX-5090", 2),
    ("An RTX 5090 plus an RTX 3080 with vLLM: can I serve Qwen2.5-32B AWQ?", "RTX-5090", 1),
    # s18-fix: two cards of equal memory are sized as the slower one (the rig runs at its pace)
    ("我的机器是 4090 加 3090，用 Ollama 跑 70B 的 Q4 能跑吗？", "RTX-3090", 2),
]


@pytest.mark.parametrize(("text", "gpu", "count"), LARGER_CARD_RIGS)
def test_a_rig_is_never_sized_below_its_largest_card(
    capsys: pytest.CaptureFixture[str], text: str, gpu: str, count: int
) -> None:
    """Review finding 2: a 5090 (32 GB) with a 3080 (10 GB) was sized as 2 × 3080 and 'does not fit'
    though the 5090 alone holds a 32B Q4; llama.cpp splits by free memory, vLLM could use the 5090 alone.
    Two cards of the same memory still count both."""
    data = ask(capsys, text)
    assert (data["request"]["gpu"], data["request"]["gpu_count"]) == (gpu, count)
    # never less memory in all than the largest card's (an RTX 5090: 32 GB = 29.8 GiB)
    assert count * data["report"]["hardware"]["memory_gib"] >= 29.8 - 0.1 or gpu != "RTX-5090"
    headline = data["reply"].splitlines()[0]
    assert "does not fit" not in headline and "放不下" not in headline


@pytest.mark.parametrize(
    "text",
    [
        "I have 4 A100 80GB and want to fine-tune Llama-3.1-70B with LoRA. Renting 8 GPUs is too expensive.",
        "We have 4 H100s to LoRA-tune Qwen2.5-32B; asking for 8 GPUs is too much for our budget.",
        "我有 4 张 A100，想 LoRA 微调 Llama-3.1-70B，租 8 张卡也太贵了",
    ],
)
def test_too_before_an_adjective_is_no_count_tried(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """Review finding 3: 'too' after a count read as 'tried too' made '4 … 8 GPUs is too expensive' a
    4–8 range; the cards owned are the count."""
    req = ask(capsys, text)["request"]
    assert (req["gpu_count"], req["gpu_count_max"]) == (4, None)


@pytest.mark.parametrize(
    "text",
    [
        "Full fine-tune of Qwen2.5-14B OOMs on 4 A100s, and on 8 GPUs too. What do I need?",
        "Qwen2.5-14B full fine-tune OOMed on 4 A100s; 8 GPUs crashed too, what do I need?",
    ],
)
def test_too_ending_a_clause_or_after_an_oom_is_a_count_tried(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    req = ask(capsys, text)["request"]
    assert (req["gpu_count"], req["gpu_count_max"]) == (4, 8)


COLOCATE_NOT_TRL = [
    ("GRPO on Qwen2.5-7B with verl, colocate mode, 8 H100s: how long for 1000 steps?", "colocate"),
    (
        "OpenRLHF PPO for Llama-3.1-8B with --colocate_all_models on 8 A100s, how much memory per card?",
        "--colocate_all_models",
    ),
    ("用 verl 跑 GRPO，Qwen2.5-7B，共置模式，8 张 H100 要多久跑完 1000 步？", "共置模式"),
]


@pytest.mark.parametrize(("text", "typed"), COLOCATE_NOT_TRL)
def test_colocate_with_verl_or_openrlhf_is_named_not_set(
    capsys: pytest.CaptureFixture[str], text: str, typed: str
) -> None:
    """Review finding 4: 'colocate' with verl or OpenRLHF set ``rollout_colocated``, which only TRL's
    sizing uses, and the reply never named it: it is named as not used (the engine sleeps there)."""
    data = ask(capsys, text)
    assert data["request"]["rollout_colocated"] is None
    assert ignored(data)[typed] == "colocate_not_trl"


@pytest.mark.parametrize(
    "text",
    [
        "TRL GRPO on Qwen2.5-7B with vllm_mode colocate on 4 H100, does it fit?",
        "GRPO 训练 Qwen2.5-7B，vllm_mode=colocate，4 张 H100 放得下吗？",
    ],
)
def test_colocate_with_trl_or_its_vllm_mode_is_set(capsys: pytest.CaptureFixture[str], text: str) -> None:
    data = ask(capsys, text)
    assert data["request"]["rollout_colocated"] is True
    assert "colocate_not_trl" not in ignored(data).values()
