"""Round 16 of the real questions, English half (issue 24; tests/data/real_questions/en_r16.json): readers of
how people write, one per kind of fault seen on the working half — post-training algorithms listed as
separate setups ('how many GPUs for PPO, REINFORCE++ and GRPO, respectively': the last one sized, the others
not named), a host memory said with its DDR kind outside a layer split ('extra CPU memory (e.g. 512GB
DDR5)': unread), and LoRA beside a negated QLoRA ('LoRA (not QLoRA)': sized as a full fine-tuning). Each
rule in both languages where the form exists in both, through the CLI (``sizing-bot ask --format json``, in
process); the sentences are written for these tests (none is from the real-question corpus). Readers:
:func:`bot.parse.compared.apart`, :func:`bot.parse.gpu_layers.bare_host_memory`,
:func:`bot.parse.words.method_from_words`."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cli_run import ask_in_process, named


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    return ask_in_process(capsys, text)


LISTED = [
    ("How many GPUs for PPO, RLOO and GRPO, respectively, on Qwen2.5-7B?", "ppo", ("GRPO", "RLOO")),
    ("For each of the stages (SFT, reward model, PPO), how many A100s for Llama-3-8B?", "sft", ("PPO",)),
    ("How many H100s do SFT, DPO and GRPO of Qwen2.5-7B each need?", "sft", ("DPO", "GRPO")),
    ("Qwen2.5-7B 的 SFT 和 DPO 分别需要多少张卡？", "sft", ("DPO",)),
]


@pytest.mark.parametrize(("text", "sized", "others"), LISTED)
def test_listed_algorithms_are_separate_setups(
    capsys: pytest.CaptureFixture[str], text: str, sized: str, others: tuple[str, ...]
) -> None:
    answer = ask(capsys, text)
    assert answer["request"]["algorithm"] == sized
    assert all(any(f"algorithm: {o}" in item for item in named(answer)) for o in others)


def test_a_chained_list_is_one_pipeline(capsys: pytest.CaptureFixture[str]) -> None:
    """'SFT, then DPO, then GRPO' is one run: its RL step sized, nothing named as another setup."""
    answer = ask(capsys, "We do SFT, then DPO, then GRPO on Qwen2.5-7B with 8 H100. How long?")
    assert answer["request"]["algorithm"] != "sft"
    assert not any(item.startswith("algorithm:") for item in named(answer))


HOST_DDR = [
    ("Serving DeepSeek-R1 on 8xH200: do we need extra CPU memory (e.g. 512GB DDR5) for big batches?", 512),
    ("Fine-tune Qwen2.5-72B with ZeRO-3 offload on 8 A100 80GB, the server has 1TB DDR4.", 1024),
    ("用 8 张 H20 部署 DeepSeek-V3，服务器 768GB DDR5 够吗？", 768),
]


@pytest.mark.parametrize(("text", "gib"), HOST_DDR)
def test_size_with_ddr_kind_is_the_hosts(capsys: pytest.CaptureFixture[str], text: str, gib: int) -> None:
    assert ask(capsys, text)["request"]["host_memory_gib"] == gib


def test_a_cards_gddr_is_no_hosts_memory(capsys: pytest.CaptureFixture[str]) -> None:
    request = ask(capsys, "Can an RTX 4060 Ti with 16GB GDDR6 serve Qwen2.5-7B with vLLM?")["request"]
    assert request.get("host_memory_gib") is None


LORA_NOT_QLORA = [
    ("Fine-tune Llama-2-13B with LoRA (not QLoRA) on 2 A100 40GB: does it fit?", "lora"),
    ("Fine-tune Llama-2-13B with plain LoRA rather than QLoRA on 2 A100 40GB.", "lora"),
    ("微调 Qwen2.5-7B 用 LoRA，不用 QLoRA，4 张 4090 够吗？", "lora"),
    ("Fine-tune Llama-2-13B, not with LoRA, on 4 A100 80GB.", "full"),
]


@pytest.mark.parametrize(("text", "method"), LORA_NOT_QLORA)
def test_qlora_negated_leaves_lora(capsys: pytest.CaptureFixture[str], text: str, method: str) -> None:
    """Only QLoRA negated ('LoRA (not QLoRA)'): the LoRA said is the method; LoRA negated stays full."""
    assert ask(capsys, text)["request"]["method"] == method
