"""Session 47, round 43 zh (issue 24 item 5): the readers for the r43work misses, each on sentences of its own
in both languages — the must-read and the must-not-misread (tests/data/real_questions/README.md, 'Round 43,
Chinese')."""

from __future__ import annotations

import pytest

from tests.real_questions import answer_json


def _request(text: str) -> dict:
    return answer_json(text)["request"]


def _ignored(text: str) -> list[tuple[str, str]]:
    return [(i["text"], i["reason"]) for i in answer_json(text)["interpretation"].get("ignored") or []]


# 1. A per-card word after a machine word: each card's memory, not the machine's (bot.parse.machine_memory).
@pytest.mark.parametrize(
    "text",
    [
        "8 卡 A100 的服务器，每卡 40GB，用 vLLM 部署 Qwen2.5-72B",
        "8 卡 A100 的服务器，每张卡 40G 显存，用 vLLM 部署 Qwen2.5-72B",
        "The server has 8 A100s, each card has 40GB, serving Qwen2.5-72B",
    ],
)
def test_a_per_card_memory_on_a_server_is_each_cards(text: str) -> None:
    request = _request(text)
    assert (request["gpu_count"], request["gpu_memory_gib"]) == (8, 40.0)  # was 5.0: 40 GB over 8 cards
    assert ("40 GB", "cards_total") not in _ignored(text)


@pytest.mark.parametrize(
    "text",
    [
        "一台 8 卡 A100 的机器，640G 显存，部署 Qwen2.5-72B",
        "An 8-GPU A100 machine with 640GB in total, serving Qwen2.5-72B",
    ],
)
def test_a_machines_memory_stays_its_total(text: str) -> None:
    request = _request(text)
    assert (request["gpu_count"], request["gpu_memory_gib"]) == (8, 80.0)  # NVIDIA A100 80GB: 640 / 8
    assert ("640 GB", "cards_total") in _ignored(text)


# 2. A size with 的 before a DDR kind: the host's memory (bot.parse.gpu_layers.BARE_HOST_MEMORY_RE).
@pytest.mark.parametrize(
    "text",
    [
        "4 张 RTX 3090，512GB 的 DDR5-4800 RDIMM，纯 CPU 推理能跑多快？",
        "4 RTX 3090s and 512GB of DDR5-4800 RDIMM, how fast is CPU inference?",
    ],
)
def test_a_size_before_ddr_is_the_hosts_memory(text: str) -> None:
    request = _request(text)
    assert request["host_memory_gib"] == 512.0
    assert request.get("gpu_memory_gib") in (None, 24.0)  # never a 512 GB card
    assert ("512 GB", "over_card") not in _ignored(text)


@pytest.mark.parametrize(
    "text",
    [
        "一张 4090，显卡 24GB 的 GDDR6X，跑 Qwen2.5-14B 够吗",
        "One 4090 with 24GB of GDDR6X, can it run Qwen2.5-14B?",
    ],
)
def test_gddr_is_the_cards_memory_not_the_hosts(text: str) -> None:
    request = _request(text)
    assert request.get("host_memory_gib") is None
    assert request["gpu_memory_gib"] == 24.0


# 3. '双' before a data-center card: two of them (bot.parse.words.DUAL_CARD_RE).
@pytest.mark.parametrize(
    "text",
    [
        "用双 A100 部署 Qwen3-32B 够吗",
        "部署 Qwen3-32B，是不是至少双 H100 起步？",
        "Is dual H100 the minimum to serve Qwen3-32B?",
    ],
)
def test_dual_data_center_cards_are_two(text: str) -> None:
    assert _request(text)["gpu_count"] == 2  # zh: was none, the count dropped


@pytest.mark.parametrize(
    "text",
    [
        "双路 CPU 服务器加一张 A100 部署 Qwen3-32B",
        "A dual-socket CPU server plus one A100 to serve Qwen3-32B",
    ],
)
def test_a_two_socket_server_is_no_second_card(text: str) -> None:
    assert _request(text)["gpu_count"] == 1


# 4. One card said not to do is no setup of one card (bot.parse.words.SINGLE_CARD_RE).
@pytest.mark.parametrize(
    "text",
    [
        "单卡消费级显卡肯定不行，是不是至少双 H100 起步？部署 Qwen3-32B",
        "A single consumer card won't do; is dual H100 the minimum to serve Qwen3-32B?",
    ],
)
def test_a_single_card_ruled_out_leaves_the_two(text: str) -> None:
    assert _request(text)["gpu_count"] == 2  # zh: was 1, from '单卡'


def test_a_single_card_ruled_out_asks_the_count() -> None:
    request = _request("单卡肯定不行，要几张 A100 才能部署 Qwen2.5-72B？")
    assert request.get("gpu_count") is None and request.get("count_asked") is True


@pytest.mark.parametrize("text", ["单卡 4090 跑 Qwen2.5-7B 够吗", "Is a single 4090 enough for Qwen2.5-7B?"])
def test_a_single_card_asked_about_stays_one(text: str) -> None:
    assert _request(text)["gpu_count"] == 1


# 5. An input word and a verb of taking in before a token count: the prompt (bot.parse.fixed_patterns).
@pytest.mark.parametrize(
    "text",
    [
        "部署 Qwen3-32B 做企业级商用，输入要一次吃下 128K token，是不是至少双 H100 起步？",
        "Serving Qwen3-32B, the input has to handle 128K tokens, is dual H100 the minimum?",
    ],
)
def test_an_input_taken_in_is_the_prompt(text: str) -> None:
    request = _request(text)
    assert (request["stage"], request["prompt_tokens"]) == ("inference", 128000)  # was pre-training on 128K
    assert request.get("tokens") is None


@pytest.mark.parametrize(
    "text",
    [
        "用 8 张 A100 预训练 Qwen3-32B，数据有 128K token",
        "Pre-train Qwen3-32B on 8 A100s with 128K tokens of data",
    ],
)
def test_training_tokens_are_no_prompt(text: str) -> None:
    request = _request(text)
    assert request["tokens"] == 128000 and request.get("prompt_tokens") is None


# 6. The optimizer put on the CPU: CPU offload (bot.parse.words.OFFLOAD_RE).
@pytest.mark.parametrize(
    "text",
    [
        "用 XTuner QLoRA 微调 InternLM-20B，8GB 显存，显存满了会自动把优化器放到 CPU 内存去跑吗？",
        "Fine-tune InternLM-20B with XTuner QLoRA on an 8GB card; does the optimizer get moved to the CPU?",
    ],
)
def test_the_optimizer_on_the_cpu_is_offload(text: str) -> None:
    request, ignored = _request(text), _ignored(text)
    assert request.get("offload") is True or ("offload: cpu", "offload_adapters") in ignored


@pytest.mark.parametrize(
    "text",
    [
        "用 XTuner QLoRA 微调 InternLM-20B，8GB 显存，优化器用 AdamW",
        "XTuner QLoRA on InternLM-20B, 8GB, AdamW",
    ],
)
def test_an_optimizer_named_is_no_offload(text: str) -> None:
    assert not _request(text).get("offload")


# 7. The memory of the kind of card listed (bot.parse.counted_card.own_memory, CLASS_BEFORE_RE).
@pytest.mark.parametrize(
    "text",
    [
        "Tesla T4、RTX 3050 这种 8GB 显存的卡，用 Unsloth 微调 Llama-3.1-8B 能跑吗",
        "Cards like a Tesla T4 or an RTX 3050, such 8GB cards, can they fine-tune Llama-3.1-8B with Unsloth?",
    ],
)
def test_the_memory_of_the_kind_of_card_listed_is_sized(text: str) -> None:
    assert _request(text)["gpu_memory_gib"] == 8.0  # zh: was dropped in silence, the T4 sized at 16 GB


@pytest.mark.parametrize(
    "text",
    [
        "作者用 V100 要 31G，我只有两张 16G 的 T4，够吗",
        "The author needs 31G on a V100; I only have two 16G T4s, enough?",
    ],
)
def test_another_cards_need_is_not_the_cards_memory(text: str) -> None:
    request = _request(text)
    assert (request["gpu_count"], request["gpu_memory_gib"]) == (2, 16.0)
