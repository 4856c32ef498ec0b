"""Session 29, general readers: a family named apart from its size, and one users rule in both languages.

- A family named without a size and a size said apart with a model word ('ChatGLM 用 lora 微调，6B 模型要多少
  显存？'): before, the Chinese message dropped the family (no model named at all) while the English and the
  other Chinese word orders named it; now each names the family as typed and sizes the size
  (bot.parse.model_names.MODEL_WORD_AFTER_RE, bot.parse.family_size).
- Users: 'N users' / 'N 个用户' is the sequences at once in both languages; a head count of an
  organisation ('500 people', '500 employees', '给 500 人用', '500 名员工') is ``users``, its load assumed
  at 10 % and said (README, the ``users`` row of the contract; bot.parse.users_load.HEAD_COUNT_RE).
"""

from __future__ import annotations

import pytest

from bot.parse import parse
from tests.real_questions import answer_json


def _ignored(text: str) -> list[tuple[str, str]]:
    """(text, reason) of each value the answer (``sizing-bot ask --format json``) names as not used."""
    return [(i["text"], i["reason"]) for i in answer_json(text)["interpretation"]["ignored"]]


@pytest.mark.parametrize(
    ("text", "family", "params"),
    [
        ("ChatGLM 用 lora 微调，6B 模型要多少显存？", "ChatGLM", 6e9),
        ("ChatGLM 微调，6B 模型要多少显存？", "ChatGLM", 6e9),
        ("Llama fine-tuning with LoRA: how much memory for the 70B model?", "Llama", 70e9),
        ("Llama with LoRA on two 4090s, the 70B model, will it fit?", "Llama", 70e9),
    ],
)
def test_a_family_and_its_size_said_apart_are_one_model(text: str, family: str, params: float) -> None:
    p = parse(text)
    assert p.unknown_model == family
    assert p.request.params_total == params
    assert p.request.model is None  # a generic shape of that size, the family named: never a guess


def test_a_size_no_release_of_the_family_has_keeps_the_family_named() -> None:
    """'ChatGLM … 175B 模型': no ChatGLM release is 175B, so the 175B is another model; ChatGLM is named as
    not sized (other_setup), never dropped."""
    p = parse("ChatGLM 用 lora 微调，175B 模型要多少显存？")
    assert p.request.params_total == 175e9
    assert p.unknown_model is None
    assert ("model: ChatGLM", "other_setup") in _ignored("ChatGLM 用 lora 微调，175B 模型要多少显存？")


@pytest.mark.parametrize(
    "text",
    ["LLaMA 7B 跑 int8 可以，13B 能在 4090 上跑吗？", "LLaMA 7B runs in int8, but can a 4090 run 13B?"],
)
def test_a_named_release_and_another_size_stay_two_models(text: str) -> None:
    """Not misread: a release named with its size and another size asked about is the family's other
    release (s28), not the family with the size."""
    p = parse(text)
    assert p.request.model == "LLaMA-13B"


def test_a_size_with_a_context_word_is_no_model_size() -> None:
    """Not misread: '128k 上下文' / '1M context' is a length; the family alone is still the family."""
    for text in ("部署 ChatGLM，1M 上下文要多少显存？", "Serve ChatGLM at 1M context: how much memory?"):
        p = parse(text)
        assert p.unknown_model == "ChatGLM"
        assert p.request.params_total is None


@pytest.mark.parametrize(
    "text",
    [
        "部署 Qwen2.5-72B，有 500 个用户，要几张 H100？",
        "Serve Qwen2.5-72B for 500 users, how many H100?",
        "部署 Qwen2.5-72B，500 用户，要几张 H100？",
        "Serve Qwen2.5-72B to 500 users: how many H100?",
    ],
)
def test_users_are_the_sequences_at_once_in_both_languages(text: str) -> None:
    p = parse(text)
    assert p.request.concurrency == 500
    assert p.request.users is None


@pytest.mark.parametrize(
    "text",
    [
        "部署 Qwen2.5-72B，给 500 人用，要几张 H100？",
        "Serve Qwen2.5-72B for 500 people, how many H100?",
        "部署 Qwen2.5-72B，500 名员工使用，要几张 H100？",
        "Serve Qwen2.5-72B for our 500 employees, how many H100?",
    ],
)
def test_a_head_count_is_users_in_both_languages(text: str) -> None:
    """The people an organisation has are ``users``: the load is assumed at 10 % of them (⌈500 × 0.1⌉
    = 50, estimator.active_users) and named as an assumption (``users_active_share``)."""
    p = parse(text)
    assert p.request.users == 500
    assert p.request.concurrency is None
    answer = answer_json(text)
    assert answer["request"]["concurrency"] == 50
    assert ("500", "users_active_share") in [
        (i["text"], i["reason"]) for i in answer["interpretation"]["ignored"]
    ]


@pytest.mark.parametrize(
    "text",
    [
        "部署 Qwen2.5-72B，公司 500 人用，同时 50 个并发，要几张 H100？",
        "Serve Qwen2.5-72B for 500 people, about 50 concurrent, how many H100?",
    ],
)
def test_a_head_count_beside_a_concurrency_is_named_in_both_languages(text: str) -> None:
    p = parse(text)
    assert p.request.concurrency == 50
    assert p.request.users is None
    assert ("500", "users_not_load") in _ignored(text)


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("I have two A100 servers: can I fully fine-tune GLM-130B?", 16),
        ("我有两台 A100 服务器，能全参微调 GLM-130B 吗？", 16),
        ("We have two H100 nodes, how long to pretrain a 7B on 1T tokens?", 16),
        ("我们有两台 H100 机器，预训练 7B 1T token 要多久？", 16),
        ("We run 4 A100 80GB nodes, how long to pretrain a 7B on 1T tokens?", 32),
    ],
)
def test_machines_of_a_card_are_eight_cards_each_in_both_languages(text: str, count: int) -> None:
    """'two A100 servers' is two machines of eight A100s, as '两台 A100 服务器' is (design §4, Nodes);
    before, English read 2 GPUs and Chinese 16."""
    assert parse(text).request.gpu_count == count


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("I have 2 A100 servers with 4 GPUs each: can I fully fine-tune GLM-130B?", 8),
        ("Serve Qwen2.5-72B on 2 H100 for 32 users", 2),
        ("Our 8 H100 GPUs are in one server: how long to pretrain a 7B on 1T tokens?", 8),
        ("Fine-tune Qwen2.5-7B on 2 A100 GPUs in our server", 2),
        ("How should I configure a full SFT of a 32B on one 8xH100 node?", 8),
        ("I get an Out of Memory error on an 8*A100 80G machine with Mixtral-8x7B", 8),
        ("Is an 8 H100 node enough to fine-tune Qwen2.5-32B?", 8),
    ],
)
def test_cards_and_machines_said_otherwise_are_not_multiplied(text: str, count: int) -> None:
    """Not misread: the cards per machine said ('with 4 GPUs each', 'one 8xH100 node', 'an 8 H100 node':
    a count before a singular machine word is its cards), or cards counted as cards."""
    assert parse(text).request.gpu_count == count


@pytest.mark.parametrize(
    ("text", "seq"),
    [
        ("在 A100 上微调 Qwen2.5-7B，序列最长 15K", 15360),
        ("在 A100 上微调 Qwen2.5-7B，单条数据最长 8k", 8192),
        ("Fine-tune Qwen2.5-7B on A100, sequences of at most 8k", 8192),
        ("Fine-tune Qwen2.5-7B on A100, inputs up to 4096", 4096),
    ],
)
def test_the_longest_sequence_without_a_unit_in_both_languages(text: str, seq: int) -> None:
    """'序列最长 15K' / 'sequences of at most 8k' are the sequence length, as the same words with 'tokens'
    were (s29: before, the bare value was unread in both languages)."""
    assert parse(text).request.seq_len == seq


@pytest.mark.parametrize(
    "text",
    [
        "在 A100 上微调 Qwen2.5-7B，数据最长 8k 条",
        "Fine-tune Qwen2.5-7B on A100, sequences of at most 8k samples",
        "Fine-tune Qwen2.5-7B on A100 with up to 8 GPUs",
    ],
)
def test_a_count_after_the_longest_word_is_no_length(text: str) -> None:
    """Not misread: a count of samples or GPUs after 'at most' / '最长' is no sequence length."""
    assert parse(text).request.seq_len in (None, 2048)
    assert parse(text).request.seq_len != 8192


@pytest.mark.parametrize(
    "text",
    [
        "用 8 张 V100 部署 Qwen2.5-72B，显存一共 320G 左右",
        "用 8 张 V100 部署 Qwen2.5-72B，总共 320G 显存",
        "Serve Qwen2.5-72B on 8 V100, about 320G of memory in total",
    ],
)
def test_the_cards_memory_in_total_about_a_figure_in_both_languages(text: str) -> None:
    """'显存一共 320G 左右' is the cards' memory together, named as their total, as the English and '总共
    320G 显存' were (s29: before, '左右' after a memory word made it a measured use, 'observed')."""
    assert ("320 GB", "cards_total") in _ignored(text)


def test_a_cards_memory_about_a_figure_is_still_a_measurement() -> None:
    """Not misread: '每卡显存 30G 左右' with no total word is what the run uses (round 12)."""
    assert ("30", "observed") in _ignored("用 8 张 V100 部署 Qwen2.5-72B，每卡显存 30G 左右")


@pytest.mark.parametrize(
    "text",
    [
        "Serve Qwen2.5-7B on one H100, no tensor parallelism",
        "用一张 H100 部署 Qwen2.5-7B，不开张量并行",
        "Serve Qwen2.5-7B on 2 H100 without TP",
        "用两张 H100 部署 Qwen2.5-7B，不用 tp",
    ],
)
def test_no_tensor_parallelism_is_tp_1_in_both_languages(text: str) -> None:
    assert parse(text).request.tp == 1


@pytest.mark.parametrize(
    ("text", "tp"),
    [
        ("Serve Qwen2.5-72B on 4 H100 with tensor parallelism", None),
        ("Serve Qwen2.5-72B on 4 H100 with tp 4", 4),
        ("用 4 张 H100 部署 Qwen2.5-72B，开张量并行", None),
    ],
)
def test_tensor_parallelism_said_is_not_tp_1(text: str, tp: int | None) -> None:
    """Not misread: TP named without a negation is no degree of 1."""
    assert parse(text).request.tp == tp


@pytest.mark.parametrize(
    "text", ["GRPO on Qwen3-8B on 8 H100, num_gen 8", "用 8 张 H100 对 Qwen3-8B 做 GRPO，num_gen 8"]
)
def test_num_gen_is_the_generations_per_prompt_in_both_languages(text: str) -> None:
    """'num_gen 8' (TRL's num_generations as people shorten it) is sampling, not an unread 8 (s29)."""
    assert parse(text).request.num_generations == 8


def test_num_gpus_is_no_generations() -> None:
    """Not misread: 'num_gpus 8' counts cards."""
    p = parse("GRPO on Qwen3-8B on H100 with num_gpus 8")
    assert p.request.num_generations is None
    assert p.request.gpu_count == 8


@pytest.mark.parametrize(
    "text",
    [
        "用 llama.cpp 在两张 4090 上部署 Qwen2.5-72B，全部层放 GPU",
        "Serve Qwen2.5-72B with llama.cpp on 2 4090s, all layers on the GPU",
    ],
)
def test_every_layer_on_the_gpu_is_no_offload_in_both_languages(text: str) -> None:
    """'全部层放 GPU' (no 到/在) is every layer on the GPU, as 'all layers on the GPU' was (s29)."""
    assert parse(text).request.offload is False


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("7B 预训练 1T token，希望一个半月内用 A100 训完", 45),
        ("7B 预训练 1T token，希望两个半月内用 A100 训完", 75),
        ("7B 预训练 1T token，希望半个月内用 A100 训完", 15),
        ("7B 预训练 1T token，希望一天半内用 A100 训完", 1.5),
        ("Pretrain a 7B on 1T tokens in a month and a half on A100", 45),
        ("Pretrain a 7B on 1T tokens in one and a half months on A100", 45),
        ("Pretrain a 7B on 1T tokens in half a month on A100", 15),
    ],
)
def test_half_amounts_of_time_in_both_languages(text: str, days: float) -> None:
    """'一个半月' / 'a month and a half' are 45 days (a month is 30 days here); before, both were unread and
    the default 30 days sized, and '一天半' read as 1 day (s29)."""
    assert parse(text).request.deadline_days == days


@pytest.mark.parametrize(
    "text",
    [
        "7B 模型用半精度预训练 1T token，一个月内用 A100 训完",
        "Pretrain a 7B in half precision on 1T tokens within a month on A100",
    ],
)
def test_half_precision_is_no_half_amount_of_time(text: str) -> None:
    """Not misread: '半精度' / 'half precision' leave the month a month."""
    assert parse(text).request.deadline_days == 30
