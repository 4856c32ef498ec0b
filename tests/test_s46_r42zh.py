"""Session 46, round 42 zh (issue 24 item 5): the readers for the r42work misses, each on sentences of its own
in both languages — the must-read and the must-not-misread (tests/data/real_questions/README.md, 'Round 42,
Chinese') — and the scorer rules they need, on answers of the bot."""

from __future__ import annotations

import pytest

from bot.parse.foreign_money import amounts
from tests.real_questions import answer_json, key_understood


def _ignored(text: str) -> list[tuple[str, str]]:
    answer = answer_json(text)
    return [(i["text"], i["reason"]) for i in answer["interpretation"].get("ignored") or []]


# 1. An upper bound said before a reply or prompt length is that length (bot.parse.role_left._LENGTH_HEDGE).
@pytest.mark.parametrize(
    "text",
    [
        "用 vLLM 在一张 A100 上部署 Qwen2.5-7B，每次输出不超过 200 个 token，要多少显存？",
        "Deploy Qwen2.5-7B with vLLM on one A100, each reply no more than 200 tokens, how much memory?",
    ],
)
def test_a_bounded_output_is_the_output_read(text: str) -> None:
    assert ("output_tokens: 200", "output_in_context") in _ignored(text)
    assert ("200", "unread") not in _ignored(text)


@pytest.mark.parametrize(
    "text",
    [
        "用 vLLM 部署 Qwen2.5-7B，输入不超过 3000 token、输出上限 512 token，并发 8，一张 A100 够吗？",
        "Serve Qwen2.5-7B on one A100 with vLLM: prompts no more than 3000 tokens, output maximum 512 tokens,"
        " 8 concurrent users.",
    ],
)
def test_bounded_prompt_and_output_size_the_sequence(text: str) -> None:
    request = answer_json(text)["request"]
    assert (request["prompt_tokens"], request["seq_len"]) == (3000, 3512)


@pytest.mark.parametrize(
    "text",
    [
        "用 vLLM 部署 Qwen2.5-7B，显存不超过 24GB，输出速度不超过 20 tokens/s，一张 4090 够吗？",
        "Serve Qwen2.5-7B with vLLM, memory no more than 24GB, output speed no more than 20 tokens/s,"
        " is one RTX 4090 enough?",
    ],
)
def test_a_bound_on_a_speed_or_a_memory_is_no_output_length(text: str) -> None:
    assert not any(t.startswith("output_tokens") for t, _ in _ignored(text))
    assert answer_json(text)["request"]["seq_len"] == 4096  # the default serving context (estimator.defaults)


# 2. Two output lengths listed after one reply word: the second named as another setup's
#    (bot.parse.listed_outputs).
@pytest.mark.parametrize(
    "text",
    [
        "用 vLLM 部署 Qwen2.5-7B，生成 2048 和 8192 个 token 时显存峰值多少？",
        "Serving Qwen2.5-7B with vLLM on one A100: how much memory to generate 2048 and 8192 tokens?",
    ],
)
def test_two_listed_outputs_are_each_named(text: str) -> None:
    items = _ignored(text)
    assert ("output_tokens: 2,048", "output_in_context") in items
    assert ("output_tokens: 8,192", "other_setup") in items
    assert ("8192", "unread") not in items
    answer = answer_json(text)
    assert answer["request"]["tokens"] is None  # '8192 tokens' is no training-token count
    assert key_understood("max_completion_length", [2048, 8192], answer)


@pytest.mark.parametrize(
    "text",
    [
        "用 vLLM 部署 Qwen2.5-7B，生成 2048 到 8192 个 token 时显存峰值多少？",
        "Serving Qwen2.5-7B with vLLM on one A100: how much memory to generate 2048 to 8192 tokens?",
        "用 vLLM 部署 Qwen2.5-7B，每次输出 512 token，和 2 张卡一起，够吗？",
    ],
)
def test_a_range_or_another_number_is_no_second_output(text: str) -> None:
    assert not any(r == "other_setup" and t.startswith("output_tokens") for t, r in _ignored(text))


# 3. The embedding and reranker models beside the language model sized: named (bot.parse.retrieval_models).
@pytest.mark.parametrize(
    ("text", "model", "named"),
    [
        (
            "中小企业想用 anything-llm 搭知识问答，生成模型用 Llama3-8B，嵌入用 BGE，GPU 买什么？",
            "Llama-3-8B",
            ["BGE"],
        ),
        (
            "知识库问答，生成模型用 Qwen2.5-7B，embedding 用 bge-m3，rerank 用 bge-reranker-v2-m3，"
            "一张 4090 够吗？",
            "Qwen2.5-7B",
            ["bge-m3", "bge-reranker-v2-m3"],
        ),
        (
            "RAG setup: Llama-3-8B as the generator, the embedding model is BGE, on one RTX 4090?",
            "Llama-3-8B",
            ["BGE"],
        ),
    ],
)
def test_retrieval_models_beside_the_llm_are_named(text: str, model: str, named: list[str]) -> None:
    answer = answer_json(text)
    assert answer["request"]["model"] == model
    items = _ignored(text)
    assert [t for t, r in items if r == "retrieval_model"] == [f"model: {n}" for n in named]
    assert key_understood("model", [model, named[0]], answer)


@pytest.mark.parametrize(
    "text",
    [
        "部署 bge-m3 要多少显存？",  # the retrieval model is the one asked about
        "部署 Qwen2.5-7B，embedding 用 2 张卡，够吗？",
        "Serve Qwen2.5-7B for RAG, the embedding uses 2 GPUs, is one RTX 4090 enough for the LLM?",
        "部署 Qwen2.5-7B，配置里 replace_embedding=True、embedding=True，一张 4090 够吗？",  # config keys
        "Serving Qwen2.5-7B on one RTX 4090 with replace_embedding=True and embedding=True set: enough?",
    ],
)
def test_no_retrieval_model_without_one_beside_the_llm(text: str) -> None:
    assert not any(r == "retrieval_model" for _, r in _ignored(text))


# 4. A budget or a price in a currency the estimator does not price in: named, never sized as yuan
#    (bot.parse.foreign_money; bot.parse.words.CNY_WORD_RE no longer reads the 元 of 欧元).
@pytest.mark.parametrize(
    ("text", "said", "code"),
    [
        (
            "预算 1–2.5 万欧元，部署 Qwen2.5-32B，买什么卡？",
            "budget: 1–2.5 万欧元 (10,000–25,000 EUR)",
            "EUR",
        ),
        (
            "Budget 20000 EUR to serve Qwen2.5-32B, which GPUs should we buy?",
            "budget: 20000 EUR (20,000 EUR)",
            "EUR",
        ),
        ("租 H100 每小时 2.5 欧元，微调 Qwen2.5-7B 要花多少？", "price: 2.5 欧元 (2.5 EUR)", "EUR"),
    ],
)
def test_a_foreign_currency_amount_is_named_not_priced(text: str, said: str, code: str) -> None:
    answer = answer_json(text)
    assert answer["request"]["budget"] is None and answer["request"]["price_per_gpu_hour"] is None
    items = _ignored(text)
    assert (said, "currency_unsupported") in items
    assert (f"currency: {code}", "currency_unsupported") in items


def test_a_euro_budget_range_is_understood_by_the_scorer() -> None:
    answer = answer_json("预算 1–2.5 万欧元，部署 Qwen2.5-32B，买什么卡？")
    assert key_understood("budget", [10000, 25000], answer)
    assert key_understood("currency", "EUR", answer)


@pytest.mark.parametrize(
    ("text", "budget", "currency"),
    [
        ("预算 2 万元，给欧洲团队部署 Qwen2.5-7B，买什么卡？", 20000, "CNY"),
        ("预算 3000 美元，部署 Qwen2.5-7B 买什么卡？", 3000, "USD"),
        ("Budget $3000 to serve Qwen2.5-7B, which GPU should I buy?", 3000, "USD"),
    ],
)
def test_yuan_and_dollar_budgets_stay_priced(text: str, budget: float, currency: str) -> None:
    request = answer_json(text)["request"]
    assert (request["budget"], request["currency"]) == (budget, currency)


def test_amounts_share_the_magnitude_of_a_range() -> None:
    assert amounts("1–2.5 万欧元") == [10000.0, 25000.0]
    assert amounts("€20,000") == [20000.0]
    assert amounts("2.5 欧元") == [2.5]


# 5. Scorer (tests/real_questions.py): another card's count is used when sized in that card's comparison row.
@pytest.mark.parametrize(
    "text",
    [
        "部署 Qwen2.5-32B，买一张 RTX 6000 Pro（48GB）还是 4 张 3090？",
        "Serve Qwen2.5-32B: one A100 or 4 RTX 3090s?",
    ],
)
def test_another_cards_count_in_its_row_is_used(text: str) -> None:
    answer = answer_json(text)
    rows = [(r["gpu"], r["gpu_count"]) for r in answer["report"]["comparisons"]]
    assert ("RTX-3090", 4) in rows
    assert key_understood("gpu_count", [1, 4], answer)
    assert not key_understood("gpu_count", [1, 6], answer)  # a count no row holds


# 6. The cards used out of a machine's ('只拿前 4 张卡', 'only use the first 4 GPUs'; bot.parse.used_counts):
#    that count sized, the machine's named by its own count (bot.parse.asked_count), not by its '一'.
@pytest.mark.parametrize(
    "text",
    [
        "一台 8 × RTX 5090（32GB）的机器，只拿前 4 张卡用 vLLM 跑 Qwen3-32B，并发 64 够吗？",
        "An 8x RTX 5090 (32GB) box, we only use the first 4 GPUs with vLLM to serve Qwen3-32B at 64"
        " concurrent requests. Enough?",
    ],
)
def test_the_first_cards_used_are_the_count(text: str) -> None:
    answer = answer_json(text)
    assert answer["request"]["gpu_count"] == 4
    assert ("8", "other_setup") in _ignored(text)
    assert ("一", "other_setup") not in _ignored(text)


@pytest.mark.parametrize(
    "text",
    [
        "8 张 A100，拿 4 张卡跑 Qwen3-32B 推理，另外 4 张做训练，够吗？",  # no 'only': not the cards used
        "We have 8 A100s; previously we only used the first 2 GPUs. Now serve Qwen3-32B on all of them,"
        " enough for 64 concurrent?",  # a past run's
    ],
)
def test_no_used_count_without_only_or_in_a_past_run(text: str) -> None:
    assert answer_json(text)["request"]["gpu_count"] == 8


# 7. Two cards each with its own count, asked about each ('两种配置分别', 'for each';
#    bot.parse.option_counts).
@pytest.mark.parametrize(
    "text",
    [
        "想从零预训练一个 0.6B 的模型，数据约 200B tokens。4 × H800 上 MFU 能到 46%，8 × 4090 上 MFU 34%，"
        "两种配置分别要训多少天？",
        "Pretraining a 0.6B model on 200B tokens: 4 x H800 and 8 x RTX 4090, how many days for each?",
    ],
)
def test_each_option_keeps_its_own_count(text: str) -> None:
    answer = answer_json(text)
    assert (answer["request"]["gpu"], answer["request"]["gpu_count"]) == ("H800-SXM5-80GB", 4)
    assert [(r["gpu"], r["gpu_count"]) for r in answer["report"]["comparisons"]] == [("RTX-4090", 8)]


def test_each_word_with_one_card_is_no_option() -> None:
    answer = answer_json("预训练 0.6B 模型，200B tokens，用 8 张 H800，分别试了 bf16 和 fp8，要多久？")
    assert answer["request"]["gpu_count"] == 8 and not answer["report"].get("comparisons")


# 8. Scorer: an output length a request rate was sized with is used (tests/real_questions._rate_output).
@pytest.mark.parametrize(
    ("text", "output", "used"),
    [
        ("用 vLLM 部署 Qwen2.5-7B，QPS 5，每次输出 300 token，一张 A100 够吗？", 300, True),
        (
            "Serve Qwen2.5-7B with vLLM at 5 QPS, 300 output tokens per request, is one A100 enough?",
            300,
            True,
        ),
        ("用 vLLM 部署 Qwen2.5-7B，QPS 5，每次输出 300 token，一张 A100 够吗？", 512, False),
    ],
)
def test_an_output_sized_with_a_rate_is_used(text: str, output: int, used: bool) -> None:
    assert key_understood("max_completion_length", output, answer_json(text)) is used
