"""Session 36, round 32 English (issue 24): the readers round 32's working half showed missing, each in the
general form people write it, with sentences of our own that must be read and must not be misread.

- A memory its clause calls a total ('4xA100 with 160GB of memory in all', 'two 3090s with 48GB combined',
  '4 张 A100，总共 160G 显存') is all the cards' memory: each card's share is sized and the total named
  (``cards_total``); before, 'A100 with 160GB' was sized as one 160 GB card (bot/parse/fixed_patterns.py
  WITH_MEMORY, bot/parse/role_left.py total words).
- An Apple chip's RAM ('an Apple M1 with 8GB of RAM', 'M1 的 8G 内存') is its unified memory, the chip's:
  the 8 GB Mac is sized, not a 16 GB one beside 8 GB of host RAM, nor an A100 (bot/parse/prose_forms.py,
  bot/parse/bare_chips.py).
- lit-parrot, litgpt's first name, is a training tool named as typed (bot/parse/stack_words.py).
- embed_tokens and lm_head in a LoRA target list that names a projection (Unsloth's continued pre-training)
  are targets kept as typed, not dropped in silence; alone ('ignore lm_head') they are no LoRA list
  (bot/parse/settings.py).
- Scorer: a label's ``tokens`` are per epoch (estimator/request.py), the answer's request the run's
  (tokens × epochs): '1B tokens for 8 epochs' is understood as 8B in the request.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.parse import parse
from tests.real_questions import answer_json, key_understood


def _ignored(text: str) -> list[tuple[str, str]]:
    return [(i.get("text"), i.get("reason")) for i in answer_json(text)["interpretation"]["ignored"]]


@pytest.mark.parametrize(
    ("text", "count", "each", "total"),
    [
        ("I fine-tune llama-7b on 4xA100 with 160GB of memory in all.", 4, 40.0, "160 GB"),
        ("I fine-tune llama-7b on 4xA100 with 160GB of memory in total.", 4, 40.0, "160 GB"),
        ("Serve Llama 3 70B on two RTX 3090 with 48GB combined.", 2, 24.0, "48 GB"),
        ("Serve Llama 3 70B on 2 A100 with 40 GB each, 80 GB in all.", 2, 40.0, "80 GB"),
        ("4 张 A100，总共 160G 显存，能全参微调 llama-7b 吗", 4, 40.0, "160 GB"),
    ],
)
def test_a_total_after_cards_is_their_sum(text: str, count: int, each: float, total: str) -> None:
    request = parse(text).request
    assert (request.gpu_count, request.gpu_memory_gib) == (count, each)
    assert (total, "cards_total") in _ignored(text)


@pytest.mark.parametrize(
    ("text", "memory"),
    [
        ("Serve Llama 3 70B on an A100 with 40 GB.", 40.0),
        ("Serve Llama 3 70B on a V100 with 32GB, it is all I have.", 32.0),
        ("Fine-tune Llama 3 8B on an RTX 4090 with 24GB.", 24.0),
    ],
)
def test_a_card_with_its_memory_is_not_a_total(text: str, memory: float) -> None:
    request = parse(text).request
    assert request.gpu_memory_gib == memory and request.gpu_count == 1


@pytest.mark.parametrize(
    ("text", "chip"),
    [
        ("Chatting with Llama 3 8B in Ollama 0.2.2 on my Apple M1 with 8GB of RAM is slow.", "Apple-M1-8GB"),
        ("Llama 3 8B on my M1 with 8GB of RAM is slow.", "Apple-M1-8GB"),
        ("Llama 3 8B on my M2 Pro, 16GB RAM", "Apple-M2-Pro-16GB"),
        ("My M2 has 16GB, can it run Llama 3 8B?", "Apple-M2-16GB"),
        ("我的 M1 只有 8G 内存，能跑 Llama 3 8B 吗", "Apple-M1-8GB"),
        ("M1 的 8G 内存能跑 Llama 3 8B 吗", "Apple-M1-8GB"),
    ],
)
def test_an_apple_chips_ram_is_its_unified_memory(text: str, chip: str) -> None:
    """The Mac sized is the chip with the memory stated (a configuration the catalog lacks gets a derived id,
    README: 'Apple-M4-Max-36GB'); no host memory beside it."""
    request = answer_json(text)["request"]
    assert request["gpu"] == chip and request["gpu_memory_gib"] == float(chip.rsplit("-", 1)[1][:-2])
    assert request["host_memory_gib"] is None


@pytest.mark.parametrize(
    ("text", "gpu", "host"),
    [
        ("Llama 3 8B on an RTX 4090 with 64GB of RAM", "RTX-4090", 64.0),
        ("An m5.xlarge with 16GB of RAM running Llama 3 8B on CPU", None, 16.0),
    ],
)
def test_ram_beside_no_apple_chip_stays_the_hosts(text: str, gpu: str | None, host: float) -> None:
    request = parse(text).request
    assert request.host_memory_gib == host
    assert gpu is None or request.gpu == gpu
    assert not str(request.gpu or "").startswith("Apple")


def test_lit_parrot_is_a_training_tool_named_as_typed() -> None:
    text = "Has anyone fine-tuned Falcon-40B with lit-parrot's adapter_v2.py on 8 A100 80GB GPUs?"
    assert ("training_tool: lit-parrot", "no_field") in _ignored(text)
    other = _ignored("Fine-tune LLaMA 7B with lit-llama on an A100.")
    assert "training_tool: lit-llama" in [t for t, _ in other]


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        (
            "LoRA r=128 on q_proj, k_proj, v_proj, o_proj, gate_proj, up_proj, down_proj, embed_tokens and "
            "lm_head for Llama 3 8B on a 4090",
            [*(f"{m}_proj" for m in ("q", "k", "v", "o", "gate", "up", "down")), "embed_tokens", "lm_head"],
        ),
        ("LoRA on lm_head, q_proj, v_proj for Llama 3 8B on a 4090", ["lm_head", "q_proj", "v_proj"]),
        ("LoRA target_modules q_proj,v_proj for Llama 3 8B on a 4090", ["q_proj", "v_proj"]),
        ("Quantize Llama 3 8B with llm-compressor, ignore lm_head, on an H100", None),
        ("Train embed_tokens of Llama 3 8B on a 4090", None),
    ],
)
def test_embeddings_and_head_are_targets_beside_a_projection(text: str, targets: list[str] | None) -> None:
    assert parse(text).request.lora_targets == targets


@pytest.mark.parametrize(
    ("stated", "req", "ok"),
    [
        (1e9, {"tokens": 8e9, "epochs": 8}, True),  # '1B tokens for 8 epochs': the run's 8B
        # review s36 #9: a request holding one epoch's tokens beside 8 epochs would time the run 8x short
        (1e9, {"tokens": 1e9, "epochs": 8}, False),
        (1e9, {"tokens": 8e9, "epochs": None}, False),  # no epochs: 8B is not the 1B stated
        (1e9, {"tokens": 2e9, "epochs": 8}, False),
    ],
)
def test_scorer_reads_tokens_per_epoch(stated: float, req: dict[str, Any], ok: bool) -> None:
    assert key_understood("tokens", stated, {"request": req, "interpretation": {"ignored": []}}) is ok
