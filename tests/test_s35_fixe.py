"""Session 35 fixe: findings of the fresh-user trial / design review of the merged tree.

#2 ``cost_asked`` is read from cost words only (bot.parse.words.ASKS_PRICE_RE), not from any 'how much':
'how much memory per card?' asks no price, so the answer is sized on the fewest GPUs that fit rather than
priced on the recommended count (estimator.quoted_layout reads ``cost_asked`` like a deadline or budget).
#5 a choice of two counts (bot.parse.count_choice) needs its second count to end the clause or be followed
by a card word or a word that opens the next phrase: '2 A100s or 3 epochs' counts epochs, not A100s.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.parse import parse
from bot.parse.count_choice import count_choice
from bot.parse.words import ASKS_PRICE_RE


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    from bot.cli import main

    assert main(["ask", "--format", "json", text]) in (0, 2)
    return json.loads(capsys.readouterr().out)


# -- #2 cost asked: cost words only ---------------------------------------------------------------------

COST_ASKED = [
    "Fine-tune Llama 3 8B on 10k samples with 910B: how much does it cost?",
    "Fine-tune Llama 3 8B on 10k samples with 910B: how much money do I need?",
    "Fine-tune Llama 3 8B on 10k samples with 910B, what is the price?",
    "Serve Qwen2.5-32B on A100s: how much for a month?",
    "Serve Qwen2.5-32B on A100s, how much do I pay per month?",
    "用 910B 微调 Llama 3 8B，1 万条样本，要多少钱？",
    "用 910B 微调 Llama 3 8B，1 万条样本，成本大概多少？",
    "用 910B 微调 Llama 3 8B，1 万条样本，费用多少？",
    "用 910B 微调 Llama 3 8B，1 万条样本，花费多少？",
]

NOT_COST = [
    "Fine-tune Llama 3 8B on 10k samples with 910B: how much memory per card?",
    "Fine-tune Llama 3 8B on 10k samples with 910B: how much VRAM do I need?",
    "Fine-tune Llama 3 8B on 10k samples with 910B: how much time will it take?",
    "Pre-train a 1B model on H100s: how much data do I need?",
    "Fine-tune Llama 3 8B on H100s: how much gradient accumulation?",
    "How much faster is an H100 than an A100 for fine-tuning Llama 3 8B?",
    "用 910B 微调 Llama 3 8B，1 万条样本，每张卡需要多少显存？",
    "用 910B 微调 Llama 3 8B，1 万条样本，要训练多久？",
    "用 910B 微调 Llama 3 8B，1 万条样本，要花多少时间？",
    "用 910B 微调 Llama 3 8B，1 万条样本，要花几天？",
]


@pytest.mark.parametrize("text", COST_ASKED)
def test_cost_words_ask_the_cost(text: str):
    assert ASKS_PRICE_RE.search(text.lower())
    assert parse(text).asks_cost


@pytest.mark.parametrize("text", NOT_COST)
def test_how_much_of_something_else_is_no_cost(text: str):
    assert not ASKS_PRICE_RE.search(text.lower())
    assert not parse(text).asks_cost


def test_memory_per_card_is_sized_on_the_fewest_that_fit(capsys: pytest.CaptureFixture[str]):
    """The trial's case: answered on 8 GPUs (the recommended node, priced) when 'how much' read as a cost;
    asked memory only, the headline count is the fewest 910Bs (64 GiB) that hold Llama 3 8B's full
    fine-tune at 16 B/param × 8.03B ≈ 120 GiB of states: 2 (``memory.min_gpus``), where a cost asked is
    priced on the recommended 8-GPU node."""
    text = "Fine-tune Llama 3 8B on 10k samples with 910B: how much memory per card?"
    memory = ask(capsys, text)["report"]
    cost = ask(capsys, text.replace("how much memory per card", "how much would it cost"))["report"]
    assert memory["memory"]["min_gpus"] == 2
    assert (memory["shown"]["gpus"], cost["shown"]["gpus"]) == (2, 8)


# -- #5 a choice of counts ends its clause --------------------------------------------------------------

OTHER_NOUNS = [
    "2 a100s or 3 epochs",
    "one l40s or two models per card",
    "1 gpu or 4 runs in parallel",
    "one 4090 or two hours of training",
    "one a100 or 2 batches",
    "one h100 or two instances of vllm",
    "one t4 or two x 7b",
    "1 gpu or 2 nodes",
]


@pytest.mark.parametrize("text", OTHER_NOUNS)
def test_a_count_of_something_else_is_no_choice(text: str):
    assert count_choice(text) == text


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("one t4 or two", "1 or 2 t4"),
        ("1 a100 or 2, which is better?", "1 or 2 a100, which is better?"),
        ("one t4 or two for serving llama", "1 or 2 t4 for serving llama"),
        ("do i need one a100 or two to serve it?", "do i need 1 or 2 a100 to serve it?"),
        ("two 4090s or four?", "2 or 4 4090s?"),
    ],
)
def test_a_count_ending_its_clause_is_a_choice(text: str, read: str):
    assert count_choice(text) == read


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        ("Fine-tune Llama 3 8B on 2 A100s or 3 epochs on one?", "A100-SXM4-80GB", 2),
        ("Serve Qwen2.5-7B on one L40S or two models per card?", "L40S", 1),
    ],
)
def test_other_nouns_leave_the_count(capsys: pytest.CaptureFixture[str], text: str, gpu: str, count: int):
    request = ask(capsys, text)["request"]
    assert (request["gpu"], request["gpu_count"], request["gpu_count_max"]) == (gpu, count, None)


# -- #6 a stated request rate is the load, not 'one request' ----------------------------------------------

RATE_AND_ONE_REQUEST = [
    "Serve Qwen2.5-7B on one L40S with vLLM: it gets 40 tokens/s with one request and 1 request per second "
    "of traffic. How many GPUs?",
    "用 vLLM 在一张 L40S 上部署 Qwen2.5-7B，单个请求 40 tokens/s，每秒 1 个请求，要几张卡？",
]


@pytest.mark.parametrize("text", RATE_AND_ONE_REQUEST)
def test_a_rate_is_the_load_beside_one_request(capsys: pytest.CaptureFixture[str], text: str):
    """'one request' is the condition of the 40 tokens/s measured; the load is the rate (its concurrency
    assumed from it, 2 as without the phrase), never the 1 the single-request reader gives."""
    request = ask(capsys, text)["request"]
    without = ask(capsys, text.replace(" with one request", "").replace("单个请求 ", ""))["request"]
    assert request["concurrency"] == without["concurrency"] == 2
    assert "concurrency" in request["assumed_fields"]


@pytest.mark.parametrize(
    ("text", "concurrency"),
    [
        # one user is a load even beside a rate; one request alone, or beside users, reads as before
        ("单用户使用，每秒 1 个请求，用 vLLM 在一张 L40S 上部署 Qwen2.5-7B 够吗？", 1),
        ("Serve Qwen2.5-7B on one L40S with vLLM: how fast is a single request?", 1),
        (
            "Serve Qwen2.5-7B on one L40S with vLLM: it gets 40 tokens/s with one request. GPUs for 8 users?",
            8,
        ),
    ],
)
def test_one_user_and_one_request_alone_still_read(
    capsys: pytest.CaptureFixture[str], text: str, concurrency: int
):
    request = ask(capsys, text)["request"]
    assert request["concurrency"] == concurrency
    assert "concurrency" not in request["assumed_fields"]


# -- #7 the job memo's card key and its plans cleared by another thread ------------------------------------


def test_card_key_holds_the_usable_bytes_fields():
    """L40S: 48 GiB datasheet, 46,068 MiB visible with ECC on (estimator/data/gpus.toml): its addressable
    bytes 44.99 GiB; a copy with ECC off (the datasheet's 48 GiB addressable) is filed under another key."""
    from estimator import catalog
    from estimator.search_groups import card_key

    l40s = catalog.gpu("L40S")
    assert l40s.ecc_visible_mib == 46068 and l40s.addressable_bytes == 46068 * 2**20
    ecc_off = l40s.model_copy(update={"ecc_visible_mib": None})
    assert ecc_off.addressable_bytes == 48 * 2**30
    assert card_key(ecc_off) != card_key(l40s)


class _ClearedAfterWrite(dict):
    """A memo's ``plans`` that another answer's thread clears (estimator.search_keep.kept_searches, past
    KEPT_PLANS) right after this search writes its count: the interleaving, made certain."""

    def __setitem__(self, key, value):
        super().__setitem__(key, value)
        self.clear()


def test_plans_cleared_between_write_and_read_give_the_same_plan():
    """Before, best_plan_for read ``memo.plans[key]`` again after its write: KeyError if cleared between."""
    from estimator import catalog
    from estimator.memory import SearchMemo
    from estimator.plan import best_plan_for
    from estimator.setup import TrainingSetup

    spec, card = catalog.model("Llama-2-7B"), catalog.gpu("A100-SXM4-80GB")
    setup = TrainingSetup(seq_len=2048)
    raced = SearchMemo()
    raced.plans = _ClearedAfterWrite()
    got = best_plan_for(spec, spec.params_total, card, 2, setup, memo=raced)
    assert got is not None and got == best_plan_for(
        spec, spec.params_total, card, 2, setup, memo=SearchMemo()
    )
    assert not raced.plans  # cleared, and the plan still returned
