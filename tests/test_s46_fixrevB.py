"""Session 46 part fixrevB: the review's findings (/work/notes/s46/review/report.md) B3 and N6, each on the
exact sentence and on must-not-misread neighbours, in both languages."""

from __future__ import annotations

import pytest

from tests.cli_run import ask_text
from tests.real_questions import answer_json


def _ignored(text: str) -> list[tuple[str, str]]:
    answer = answer_json(text)
    return [(i["text"], i["reason"]) for i in answer["interpretation"].get("ignored") or []]


# B3. An adjective or plain word after 'embedding is/with' is no retrieval model (bot.parse.retrieval_models).
@pytest.mark.parametrize(
    "text",
    [
        "Full fine-tune Qwen2.5-7B on 2 A100 80GB; the embedding is trainable",
        "Full fine-tune Qwen2.5-7B on 2 A100 80GB; the embedding is tied to the output head",
        "LoRA on Qwen2.5-7B with one A100, the embedding with lora too",
        "全量微调 Qwen2.5-7B，2 张 A100 80GB，嵌入层可训练",
        "全量微调 Qwen2.5-7B，2 张 A100 80GB，嵌入是 trainable 的",
    ],
)
def test_an_adjective_after_embedding_is_no_retrieval_model(text: str) -> None:
    assert not any(r == "retrieval_model" for _, r in _ignored(text))


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("RAG with Qwen2.5-7B on one RTX 4090, the embedding is jina-embeddings-v3", "jina-embeddings-v3"),
        ("RAG with Qwen2.5-7B on one RTX 4090, the embedding model is e5", "e5"),
        ("知识库问答，生成模型用 Qwen2.5-7B，嵌入用 m3e，一张 4090 够吗？", "m3e"),
        ("知识库问答，生成模型用 Qwen2.5-7B，向量模型是 gte-large-zh，一张 4090 够吗？", "gte-large-zh"),
    ],
)
def test_a_named_retrieval_model_is_still_named(text: str, named: str) -> None:
    assert (f"model: {named}", "retrieval_model") in _ignored(text)


# N6. 'how many 4090 hours' asks for hours of the RTX 4090, not a count of 4,090 hours
# (bot.parse.counted_numbers.card_hours).
@pytest.mark.parametrize(
    "text",
    [
        "how many 4090 hours to LoRA fine-tune Qwen2.5-7B on 10M tokens",
        "LoRA 微调 Qwen2.5-7B，1000 万 token，需要多少 4090 小时？",
    ],
)
def test_how_many_card_hours_is_the_card(text: str) -> None:
    request = answer_json(text)["request"]
    assert request["gpu"] == "RTX-4090"
    assert request["hours"] is None


@pytest.mark.parametrize(
    "text",
    [
        "LoRA fine-tune Qwen2.5-7B on one A100 for 4090 hours, how many tokens?",
        "用一张 A100 跑 4090 小时 LoRA 微调 Qwen2.5-7B，能训多少 token？",
    ],
)
def test_a_duration_of_4090_hours_stays_hours(text: str) -> None:
    request = answer_json(text)["request"]
    assert request["gpu"] != "RTX-4090"
    assert request["hours"] == 4090.0


# N7. The machine's count after 'the first N GPUs of an …' is the machine's, named as the zh form names it
# (bot.parse.used_counts.OF_MACHINE_RE), never 'a second value for the same setting'.
@pytest.mark.parametrize(
    "text",
    [
        "only use the first 4 GPUs of an 8 x H100 node to serve Qwen2.5-72B",
        "8 卡 H100 的机器只拿前 4 张卡部署 Qwen2.5-72B",
    ],
)
def test_first_cards_of_a_machine_name_the_machine(text: str) -> None:
    answer = answer_json(text)
    assert answer["request"]["gpu_count"] == 4
    assert ("8", "other_setup") in _ignored(text)
    assert ("8", "repeated") not in _ignored(text)


@pytest.mark.parametrize(
    "text",
    ["serve Qwen2.5-72B on an 8 x H100 node", "用一台 8 卡 H100 的机器部署 Qwen2.5-72B"],
)
def test_a_machine_alone_is_sized_whole(text: str) -> None:
    assert answer_json(text)["request"]["gpu_count"] == 8
    assert not any(r == "other_setup" for _, r in _ignored(text))


# N2. A memory per GPU wanted is named memory_target even where a count reader took it for another setup's.
@pytest.mark.parametrize(
    "text",
    [
        "Full fine-tune Qwen2.5-7B on 4 A100 40GB; I need to bring it down to 30GB per GPU",
        "全量微调 Qwen2.5-7B，4 张 A100 40GB，想把每卡显存降到 30G",
    ],
)
def test_a_memory_wanted_is_the_memory_target(text: str) -> None:
    items = _ignored(text)
    assert ("30 GB", "memory_target") in items
    assert not any(r == "other_setup" for _, r in items)
    assert answer_json(text)["request"]["gpu_memory_gib"] == 40.0


@pytest.mark.parametrize(
    "text",
    [
        "Full fine-tune Qwen2.5-7B on 4 A100 40GB; a friend ran it on 8 A100 80GB, can I run it?",
        "全量微调 Qwen2.5-7B，4 张 A100 40GB；朋友用 8 张 A100 80GB 跑过，我能跑吗？",
    ],
)
def test_another_setups_card_is_no_memory_target(text: str) -> None:
    assert not any(r == "memory_target" for _, r in _ignored(text))


# B2. A fine-tune's base is decided by its size and version together, and a word naming another base is
# honoured or the name left unknown (bot.parse.fine_tunes): HuggingFaceH4/zephyr-7b-gemma-v0.1 is
# 'a fine-tuned version of google/gemma-7b' (its model card);
# WizardLM-70B-V1.0 is 'trained from Llama-2 70b' (its card).
def _sized(text: str) -> tuple[str, str | None, list[dict[str, str]]]:
    answer = answer_json(text)
    return (
        answer["request"]["model"],
        answer["interpretation"]["unknown_model"],
        answer["interpretation"]["substitutions"],
    )


@pytest.mark.parametrize(
    ("text", "base", "typed"),
    [
        ("zephyr-7b-gemma-v0.1 on one RTX 4090 at 8k context", "Gemma-7B", "zephyr-7b-gemma-v0.1"),
        ("zephyr-7b-gemma-v0.1 在一张 RTX 4090 上跑 8k 上下文", "Gemma-7B", "zephyr-7b-gemma-v0.1"),
        ("WizardLM-70B-V1.0 on 2 A100 80GB", "Llama-2-70B", "WizardLM-70B-V1.0"),
        ("WizardLM-70B-V1.0 在 2 张 A100 80GB 上部署", "Llama-2-70B", "WizardLM-70B-V1.0"),
        # neighbours: the same families' other releases keep their bases
        ("zephyr-7b-beta on one RTX 4090", "Mistral-7B", "zephyr-7b-beta"),
        ("WizardLM-13B-V1.0 on one A100", "LLaMA-13B", "WizardLM-13B-V1.0"),
        ("WizardLM-13B-V1.2 部署在一张 A100 上", "Llama-2-13B", "WizardLM-13B-V1.2"),
    ],
)
def test_a_fine_tune_is_sized_as_its_own_base(text: str, base: str, typed: str) -> None:
    model, _unknown, subs = _sized(text)
    assert model == base
    assert any(typed in str(s) for s in subs)
    assert f"“{typed}”" in ask_text(text)


@pytest.mark.parametrize(
    "text", ["zephyr-7b-qwen-v0.1 on one RTX 4090", "zephyr-7b-qwen-v0.1 在一张 RTX 4090 上部署"]
)
def test_a_base_word_the_table_cannot_place_leaves_the_name_unknown(text: str) -> None:
    model, unknown, _subs = _sized(text)
    assert model != "Mistral-7B"
    assert unknown == "zephyr-7b-qwen-v0.1"


@pytest.mark.parametrize(
    "text", ["vicuna-13b-v1.5-awq on one RTX 4090", "zephyr-7b-beta-gptq 在一张 RTX 4090 上部署"]
)
def test_a_format_glued_after_a_fine_tune_is_still_read(text: str) -> None:
    assert answer_json(text)["request"]["precision"] == "int4"


# B7. A VL fine-tune's stated tokens an image are used: tokens a sample = text + images × tokens an image
# (estimator.image_tokens._stated_tokens); no resolution is asked for.
@pytest.mark.parametrize(
    "text",
    [
        "fine-tune Qwen2.5-VL-7B with LoRA on 10k samples, each prompt has more than 4 images, "
        "about 752 tokens per image, on 2 A100",
        "用 LoRA 微调 Qwen2.5-VL-7B，1 万条数据，每条 prompt 超过 4 张图，每张图约 752 个 token，2 张 A100",
    ],
)
def test_stated_tokens_an_image_size_each_sample(text: str) -> None:
    answer = answer_json(text)
    request = answer["request"]
    assert request["tokens_per_image"] == 752
    assert request["images_per_sample"] == 5
    assert request["tokens_per_sample"] == 512 + 5 * 752  # the 512 text-token default, said
    assert request["tokens"] == 10_000 * (512 + 5 * 752)
    assert _ignored(text) == []  # neither '752' unread nor a resolution asked for


@pytest.mark.parametrize(
    "text",
    [
        "fine-tune Qwen2.5-VL-7B with LoRA on 10k samples, each prompt has 2 images, 752 tokens of text, "
        "on 2 A100",
        "用 LoRA 微调 Qwen2.5-VL-7B，1 万条数据，每条 2 张图，752 个文本 token，2 张 A100",
    ],
)
def test_text_tokens_beside_images_are_no_tokens_an_image(text: str) -> None:
    assert answer_json(text)["request"]["tokens_per_image"] is None


@pytest.mark.parametrize(
    "text",
    [
        "Full SFT of qwen2.5-vl-3B on 8 A100 80GB, 3 images per sample at 768x768, "
        "about 752 tokens per image: fit?",
        "在 8 张 A100 80G 上全参微调 qwen2.5-vl-3B，每条数据 3 张图，768×768，"
        "每张图约 752 个 token，放得下吗？",
    ],
)
def test_a_resolution_the_processor_reads_wins_over_the_stated_count(text: str) -> None:
    # Qwen2.5-VL's smart_resize: 768 → 756 a side (27 × 28), 27² = 729 tokens + 2 markers = 731 an image
    assert answer_json(text)["request"]["tokens_per_sample"] == 3 * 731
    assert ("752", "image_tokens_processor") in _ignored(text)


# N3. In a measured sweep each rate is what its load gave: neither is a target (bot.parse.rate_words).
@pytest.mark.parametrize(
    "text",
    [
        "Output goes from 96 tok/s at concurrency 1 to 772 tok/s at 16 on one H100 with Qwen3-8B",
        "Qwen3-8B 在一张 H100 上，并发 1 时 96 tok/s，并发 16 时 772 tok/s",
    ],
)
def test_a_sweeps_rates_are_observed(text: str) -> None:
    assert answer_json(text)["request"]["target_tokens_per_s"] is None
    assert {("96 tok/s", "observed"), ("772 tok/s", "observed")} <= set(_ignored(text))


@pytest.mark.parametrize(
    "text",
    [
        "Serve Qwen3-8B on one H100, we need 772 tok/s at 16 concurrent users",
        "Qwen3-8B 部署在一张 H100 上，并发 16 时要 772 tok/s，够吗",
    ],
)
def test_a_rate_wanted_at_one_load_stays_the_target(text: str) -> None:
    assert answer_json(text)["request"]["target_tokens_per_s"] == 772.0
