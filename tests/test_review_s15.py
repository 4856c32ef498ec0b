"""The design review's findings on session 15's merge (issue 24), each a kind in both languages, through
the CLI (``sizing-bot ask --format json``). The sentences are written for these tests (none is from the
real-question corpus)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cli_run import ask_in_process


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    return ask_in_process(capsys, text)


def req(data: dict[str, Any], key: str) -> Any:
    return data["request"].get(key)


def ignored(data: dict[str, Any]) -> dict[str, str]:
    return {str(i.get("text")): str(i.get("reason")) for i in data["interpretation"].get("ignored") or []}


@pytest.mark.parametrize(
    "text",
    [
        "We have 8 H100s; last month we used 2 of them for a LoRA run. Now how long to fully fine-tune "
        "Llama-3-8B on them?",
        "有 8 张 A100，之前用了 2 张跑推理，现在想全参微调 Qwen2.5-7B 要多久",
        "有 8 张 A100，之前只用了 2 张跑推理，现在全参微调 Qwen2.5-7B 要多久",
    ],
)
def test_a_past_use_of_some_cards_is_another_run(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """'last month we used 2 of them', '之前用了 2 张': another run's cards, named; the machine's 8 are
    sized (before: 2 was sized)."""
    data = ask(capsys, text)
    assert req(data, "gpu_count") == 8
    assert ignored(data).get("2") == "other_setup"


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("服务器有 8 张 A100，我只用了 4 张，全参微调 Qwen2.5-7B 要多久", 4),
        ("有 8 张 A100，打算用 4 张全参微调 Qwen2.5-7B，要多久", 4),
        ("We have 8 A100s and plan to use 4 of them to fine-tune Qwen2.5-7B: how long?", 4),
        ("Our node has 8 H100, using two of them for serving Llama-3-70B in int4", 2),
    ],
)
def test_the_owned_count_is_named_when_the_used_one_is_sized(
    capsys: pytest.CaptureFixture[str], text: str, count: int
) -> None:
    """Present or intended use ('只用了', '打算用', 'plan to use', 'using'): the used count is sized and the
    machine's 8 named as another setup (before: named as repeated)."""
    data = ask(capsys, text)
    assert req(data, "gpu_count") == count
    assert ignored(data).get("8") == "other_setup"


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        (
            "I have a laptop with an RTX 4090 and a server with 4x RTX 4090; LoRA Llama-3-8B on the server",
            "RTX-4090",
            4,
        ),
        (
            "我有一台笔记本是 RTX 4090，还有一台服务器插了 4 张 RTX 4090，LoRA 微调 Qwen2.5-7B 要多久",
            "RTX-4090",
            4,
        ),
        # s21 fixa/fxa, on purpose: a laptop's card is its laptop part (RTX 3060 Laptop 6 GB, RTX 4070 Laptop
        # 8 GB: catalog entries of their own), no longer the desktop card of that number
        ("笔记本是 RTX 3060 6GB，能跑 Qwen2.5-1.5B 推理吗", "RTX-3060-Laptop", 1),
        ("my laptop has an RTX 4070, can it LoRA Qwen2.5-3B?", "RTX-4070-Laptop", 1),
    ],
)
def test_a_laptop_counts_one_card_only_when_no_other_machine_has_a_count(
    capsys: pytest.CaptureFixture[str], text: str, gpu: str, count: int
) -> None:
    """A laptop holds one card, but a server's '4x RTX 4090' beside it is the count (before: 1 was sized)."""
    data = ask(capsys, text)
    assert (req(data, "gpu"), req(data, "gpu_count")) == (gpu, count)


@pytest.mark.parametrize(
    ("text", "item"),
    [
        ("4 张 910B（280T）全参微调 Qwen2.5-7B，1B token 要多久", "peak: 280 TFLOPS"),
        ("8 A100 (312 TFLOPS) fine-tune Llama-3-8B on 1B tokens, how long?", "peak: 312 TFLOPS"),
    ],
)
def test_a_peak_rate_after_a_card_is_named(capsys: pytest.CaptureFixture[str], text: str, item: str) -> None:
    """A chip's peak rate is no token count and no setting the request has: named with the reason that the
    catalog's peak is used (before: blanked silently)."""
    data = ask(capsys, text)
    assert ignored(data).get(item) == "catalog_peak"
    assert req(data, "tokens") is None or req(data, "tokens") == 1e9


@pytest.mark.parametrize(
    "text",
    [
        "Our nodes have 8 GPUs with at least 80GB VRAM each. How long to fine-tune Llama-3-8B on 1B tokens?",
        "We run 8 GPUs with at least 80GB of VRAM each, full fine-tune Llama-3-8B: how long?",
    ],
)
def test_at_least_n_gb_stated_of_the_cards_is_their_memory(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """'8 GPUs with at least 80GB VRAM each' states the cards, no need: 8 cards of 80 GB are sized
    (before: named stated_need, the card's memory lost)."""
    data = ask(capsys, text)
    assert (req(data, "gpu_count"), req(data, "gpu_memory_gib")) == (8, 80.0)
    assert "stated_need" not in ignored(data).values()


def test_at_least_n_gb_asked_is_still_a_need(capsys: pytest.CaptureFixture[str]) -> None:
    """Guard: 'do I need at least a 48GB GPU?' asks a need: named, the 3090 sized."""
    data = ask(capsys, "I have a 3090; do I need at least a 48GB GPU to LoRA Qwen2.5-32B?")
    assert ignored(data).get("48") == "stated_need"
    assert req(data, "gpu") == "RTX-3090"


@pytest.mark.parametrize(
    ("text", "suffix"),
    [
        ("LoRA llama-2-7b-1024 on one A100, how long for 1B tokens", "-1024"),
        ("全参微调 Qwen2.5-7B-0324，8 张 A100 要多久", "-0324"),
    ],
)
def test_a_number_after_a_size_is_no_release_date(
    capsys: pytest.CaptureFixture[str], text: str, suffix: str
) -> None:
    """'-1024' right after '7b' is no dated release: named as unread (before: dropped silently)."""
    assert ignored(ask(capsys, text)).get(suffix) == "unread"


@pytest.mark.parametrize(
    ("text", "model"),
    [
        ("serve Qwen3-4B-Instruct-2507 on one RTX 4090", "Qwen3-4B"),
        ("部署 Qwen3-30B-A3B-2507，4 张 4090", None),
        ("serve DeepSeek-V3-0324 on 8 H200", None),
    ],
)
def test_a_dated_release_is_still_part_of_its_name(
    capsys: pytest.CaptureFixture[str], text: str, model: str | None
) -> None:
    """Guard: a date after a release word or a name ('-Instruct-2507', 'V3-0324', 'A3B-2507') stays part of
    the name, never an unread number."""
    data = ask(capsys, text)
    assert not any(k.startswith("-") for k in ignored(data))
    assert model is None or req(data, "model") == model


@pytest.mark.parametrize(
    "text",
    [
        "GRPO on Qwen2.5-7B with 8 H100s for 1000 steps. Then we serve it with vLLM at "
        "gpu_memory_utilization 0.9, how long does the training take?",
        "用 GRPO 训练 Qwen2.5-7B，8 张 H100，1000 步。之后部署用 vLLM，"
        "gpu_memory_utilization 0.9，训练要多久",
    ],
)
def test_a_serving_share_beside_an_rl_job_stays_serving(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """A share said of the later serving, in another sentence than the RL words: the server's, named
    serving_only (before: any 'grpo' made it the rollout engine's 0.9)."""
    data = ask(capsys, text)
    assert req(data, "rollout_gpu_memory_utilization") is None
    assert ignored(data).get("gpu_memory_utilization: 0.9") == "serving_only"


def test_a_share_in_an_rl_sentence_is_the_rollout_engines(capsys: pytest.CaptureFixture[str]) -> None:
    """Guard: 'GRPO …, vllm gpu_memory_utilization 0.5' is the rollout engine's share."""
    text = "GRPO on Qwen2.5-7B with 8 H100s, vllm gpu_memory_utilization 0.5, how long for 1000 steps?"
    assert req(ask(capsys, text), "rollout_gpu_memory_utilization") == 0.5
