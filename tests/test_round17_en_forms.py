"""Round 17 of the real questions, English half (issue 24; tests/data/real_questions/en_r17.json): readers of
how people write, one per kind of fault seen on the working half — a cap on one sequence's tokens written as
'maximum total tokens (input + output)' (unread), a GPU count quoted from a document's claim ('the original
repo says it fits 7B in 8-RTX3090') sized over the user's own 'my 24GB RTX 3090', and a pre-training
codebase named by its repository name ('fms-fsdp') dropped in silence. Through the CLI (``sizing-bot ask
--format json``, in process); the sentences are written for these tests (none is from the real-question
corpus). Readers: :data:`bot.parse.length_forms.TOTAL_TOKENS_RE`,
:data:`bot.parse.claimed_counts.OTHER_PARTY_RE` / ``OWN_SINGLE_RE``,
:data:`bot.parse.more_tools.ZH_TRAINING_TOOLS`."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cli_run import ask_in_process, named


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    return ask_in_process(capsys, text)


TOTAL_TOKENS = [
    ("PPO of a 7B actor with LoRA on one A100, maximum total tokens (input + output) set to 700.", 700),
    ("DPO of Llama-3-8B on 2 H100 with max total tokens of 3000: how much memory?", 3000),
    ("Serve Qwen2.5-7B with vLLM on one L40S, total tokens (prompt + completion) capped at 6000.", 6000),
]


@pytest.mark.parametrize(("text", "n"), TOTAL_TOKENS)
def test_total_tokens_of_one_sequence_is_its_length(
    capsys: pytest.CaptureFixture[str], text: str, n: int
) -> None:
    request = ask(capsys, text)["request"]
    assert n in (request.get("seq_len"), request.get("max_model_len"))


def test_a_datasets_total_tokens_is_no_sequence_length(capsys: pytest.CaptureFixture[str]) -> None:
    """'total tokens of 5B' counts the data seen, never one sample: no 5-token (or 5e9-token) sequence."""
    request = ask(capsys, "Pre-train a 1B model on 8 H100, the corpus has total tokens of 5B.")["request"]
    assert request.get("seq_len") not in (5, 5e9)


CLAIMED = [
    "QLoRA of a 13B on my 24GB RTX 3090 runs out of memory. The repo says 7B fits in 8 RTX 3090.",
    "Full fine-tuning of Qwen2.5-7B OOMs on my 4090. The paper states they trained on 8 A100.",
]


@pytest.mark.parametrize("text", CLAIMED)
def test_a_documents_count_is_named_beside_the_users_one_card(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    answer = ask(capsys, text)
    assert answer["request"]["gpu_count"] == 1
    assert named(answer).get("8") == "other_setup"


def test_a_documents_count_alone_stays_the_count(capsys: pytest.CaptureFixture[str]) -> None:
    """Without a card of the user's own the document's count is the only count said: it is sized."""
    answer = ask(capsys, "The paper says they trained on 8 A100. How long would a 7B SFT take on 8 A100?")
    assert answer["request"]["gpu_count"] == 8


def test_fms_fsdp_is_named_as_typed(capsys: pytest.CaptureFixture[str]) -> None:
    answer = ask(capsys, "Pre-training a 7B with fms-fsdp on 64 H100: how many days for 1T tokens?")
    assert any("fms-fsdp" in item for item in named(answer)) or answer["request"].get("training_tool") == (
        "fms-fsdp"
    )


CONTRASTED = [
    (
        "Can DeepSpeed train a 70B model for SFT? PPO might work across nodes, but SFT seems to OOM.",
        "sft",
        "PPO",
    ),
    ("GRPO of Qwen2.5-7B on 8 H100 is fine, but DPO runs out of memory.", "grpo", "DPO"),
]


@pytest.mark.parametrize(("text", "sized", "other"), CONTRASTED)
def test_contrasted_algorithms_are_separate_setups(
    capsys: pytest.CaptureFixture[str], text: str, sized: str, other: str
) -> None:
    answer = ask(capsys, text)
    assert answer["request"]["algorithm"] == sized
    assert named(answer).get(f"algorithm: {other}") == "other_setup"


def test_a_chained_pipeline_with_but_stays_one_run(capsys: pytest.CaptureFixture[str]) -> None:
    """'SFT then DPO … but it OOMs' chains one run: nothing named as another setup."""
    answer = ask(capsys, "I run SFT then DPO on Qwen2.5-7B with 8 A100 but it OOMs.")
    assert not any(item.startswith("algorithm:") for item in named(answer))


def test_the_official_setups_card_is_not_the_users(capsys: pytest.CaptureFixture[str]) -> None:
    """'My device is 8xH20 (96G) … Was the official benchmark run on 8xH200?': the H20 sized, its 96 GB."""
    text = "My device is 8xH20 (96G); DeepSeek-V3 OOMs in vLLM. Was the official benchmark run on 8xH200?"
    request = ask(capsys, text)["request"]
    assert request["gpu"].startswith("H20-") and request["gpu_memory_gib"] == 96
