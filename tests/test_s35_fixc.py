"""Session 35 fix c: serving answers found by a fresh-user trial.

Item 1: every option of one comparison is sized at the same load (bot.core.compared_load): the stated
one, else the largest default among the options (16 sequences, estimator.defaults.SERVE_CONCURRENCY,
over a GeForce card's 1, SERVE_CONCURRENCY_PERSONAL), an assumption with its reason."""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer


def _loads(text: str) -> list[tuple[str | None, int, list[str]]]:
    a = answer(text)
    rows = a.compared or [a.report]
    return [
        (r.request.gpu, r.inference.concurrency, [x.why for x in r.assumptions if x.field == "concurrency"])
        for r in rows
    ]


@pytest.mark.parametrize(
    "text",
    [
        "部署qwen3-8b给客服用，用L20还是4090，多少钱一个月",
        "部署qwen3-8b，用4090还是L20",
        "serve qwen3-8b: RTX 4090 or L40S?",
    ],
)
def test_compared_cards_share_one_load(text: str) -> None:
    rows = _loads(text)
    assert {c for _, c, _ in rows} == {16}, rows  # the serving default, not the 4090's personal 1
    four = [w for g, _, w in rows if g == "RTX-4090"]
    assert four and all(w == ["compared_load"] for w in four), rows  # assumed, with its reason
    assert all(w == ["serve_concurrency"] for g, _, w in rows if g != "RTX-4090"), rows


def test_a_stated_load_is_every_options_own() -> None:
    rows = _loads("部署qwen3-8b，8并发，用4090还是L20")
    assert {c for _, c, _ in rows} == {8} and all(not w for _, _, w in rows), rows


def test_personal_cards_alone_keep_their_default() -> None:
    rows = _loads("serve qwen3-8b: RTX 4090 or RTX 3090?")  # no service default among them: one sequence
    assert {c for _, c, _ in rows} == {1}, rows
    assert all(w == ["serve_concurrency_personal"] for _, _, w in rows), rows


def test_the_reason_is_worded_in_both_languages() -> None:
    from bot.render.renderer import render

    # the same pair as the zh question (s37: with L40S both rows now start at the same default load — s37-fixe
    # sizes 16 sequences on a consumer card on vLLM — so no row is re-sized and the line has nothing to say)
    en = render(answer("serve qwen3-8b: RTX 4090 or L20?"), "plain")
    zh = render(answer("部署qwen3-8b，用4090还是L20"), "plain")
    assert "one load for every option compared" in en
    assert "对比的各个方案按同一负载计" in zh


# Item 2: a request volume read (bot.parse.request_volume) and sized by Little's law
# (estimator.request_volume): target = λ × tokens per request, λ = a day's count ÷ 86,400 × 3 (the busiest
# hour, PEAK_FACTOR), or an hour's ÷ 3,600; tokens per request 500 when not given.


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        ("部署qwen3-8b给客服用，每天大概1万次对话", {"requests_per_day": 10_000}),
        ("每天大概1万次对话，平均每次2000 token", {"requests_per_day": 10_000, "tokens_per_request": 2000}),
        ("日均5000个请求，部署qwen2.5-7b", {"requests_per_day": 5000}),
        ("部署qwen2.5-7b，每小时500个请求", {"requests_per_hour": 500}),
        ("serve llama 3 8b: 10k requests a day, ~2k tokens per conversation",
         {"requests_per_day": 10_000, "tokens_per_request": 2000}),
        ("serve llama 3 8b, 500 requests per hour", {"requests_per_hour": 500}),
        ("serve llama 3 8b for 20,000 conversations daily", {"requests_per_day": 20_000}),
    ],
)  # fmt: skip
def test_a_request_volume_is_read(text: str, fields: dict[str, float]) -> None:
    from bot.parse import parse

    req = parse(text).request
    for name in ("requests_per_day", "requests_per_hour", "tokens_per_request"):
        assert getattr(req, name) == fields.get(name), (name, req)


@pytest.mark.parametrize(
    "text",
    [
        "每天训练8小时，微调qwen2.5-7b",
        "部署qwen2.5-7b，日活1000人",
        "serve llama 3 8b for 1000 daily active users",
    ],
)
def test_no_volume_is_misread(text: str) -> None:
    from bot.parse import parse

    req = parse(text).request
    assert req.requests_per_day is None and req.requests_per_hour is None


def _ledger(text: str) -> tuple[dict, dict]:
    a = answer(text)
    return a.report.request.model_dump(), {x.field: x for x in a.report.assumptions}


def test_a_daily_volume_is_the_busiest_hours_throughput() -> None:
    req, led = _ledger("部署qwen3-8b给客服用，每天大概1万次对话，平均每次2000 token，用L20")
    assert req["target_tokens_per_s"] == pytest.approx(10_000 / 86_400 * 3 * 2000)  # 694.4 tokens/s
    assert led["target_tokens_per_s"].why == "request_volume_daily"
    assert led["target_tokens_per_s"].params["peak"] == 3.0
    assert led["concurrency"].why == "volume_concurrency"  # the sequences that decode it (Little's law)
    assert "tokens_per_request" not in led  # stated, not assumed


def test_an_hourly_volume_with_the_default_tokens() -> None:
    req, led = _ledger("serve qwen2.5-7b on an A100, 500 requests per hour")
    assert req["target_tokens_per_s"] == pytest.approx(500 / 3600 * 500)  # 69.4 tokens/s, no peak factor
    assert (
        led["tokens_per_request"].value == 500
        and led["tokens_per_request"].why == "tokens_per_request_default"
    )
    assert led["target_tokens_per_s"].why == "request_volume_hourly"


def test_a_stated_concurrency_wins_and_the_volume_is_named() -> None:
    a = answer("部署qwen3-8b，每天1万次对话，20并发")
    assert a.report.inference.concurrency == 20 and a.report.request.target_tokens_per_s is None
    assert ("1万", "volume_not_load") in a.parsed.unused_numbers


def test_a_month_priced_without_a_count_is_not_called_a_duration() -> None:
    from bot.render.renderer import render

    zh = render(answer("部署qwen3-8b给客服用，每天大概1万次对话，用L20，多少钱一个月"), "plain")
    assert "给了时长" not in zh and "没给卡数：按这个推理方案需要的卡数计" in zh
    assert "没看出它指什么" not in zh  # "1万" read, never "unread"


# Item 4: a question asking the throughput leads with the total tokens/s, per sequence after; a speed
# question keeps the time per token first. The total is Inference.decode_tokens_per_s.aggregate.


def test_throughput_asked_leads_with_the_total() -> None:
    from bot.render.renderer import render

    a = answer("Llama 3.1 70B on 4x H100 with vllm, 200 concurrent users, 8k context, what throughput?")
    total = f"{round(a.report.inference.decode_tokens_per_s.aggregate):,}"
    first = render(a, "plain").splitlines()[0]
    lead = f"≈ {total} tokens/s in total (≈ 22 (17–29) tokens/s per sequence, ≈ 45 ms per token)"
    assert lead in first, first
    zh = render(answer("Qwen2.5-32B 2张A100 vllm 100并发 8k上下文 吞吐量多少？"), "plain").splitlines()[0]
    assert "：合计约 " in zh and zh.index("合计约") < zh.index("每条序列约"), zh
    speed = answer("Llama 3.1 70B on 4x H100 with vllm, 200 concurrent users, 8k context, what speed?")
    assert "≈ 45 ms per token (≈ 22 (17–29) tokens/s per sequence)" in render(speed, "plain").splitlines()[0]


def test_throughput_asked_on_gpus_that_hold_the_load() -> None:
    from bot.render.renderer import render

    a = answer("Llama 3.1 8B on one H100 with vllm, 64 concurrent users: what throughput?")
    total = f"{round(a.report.inference.decode_tokens_per_s.aggregate):,}"
    first = render(a, "plain").splitlines()[0]
    tail = f"≈ {total} tokens/s in total at 64 concurrent, ≈ 33 (25–44) tokens/s per sequence"
    assert first.endswith(tail), first


# Item 3: a follow-up that changes only the context keeps the weights (and so the runtime) the answer
# before assumed (bot.core.carried_load._carried_weights), said with its reason.


# s37-fixe #4: 20 concurrent on a consumer card with no engine named is sized on vLLM with the released
# weights (bf16), so the carried-weights case is now a light load (4) that llama.cpp serves at Q8_0; the
# 20-concurrent follow-up keeps the first answer's bf16 on vLLM (test below).
@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("部署qwen2.5-32b，2张4090，4并发", "上下文改成32k呢"),
        ("serve qwen2.5-32b on 2x 4090, 4 concurrent", "what about 32k context?"),
    ],
)
def test_a_context_followup_keeps_the_weights(first: str, then: str) -> None:
    from bot.core.conversation import Conversation

    chat = Conversation()
    before = chat.ask(1, 2, first).answer.report
    a = chat.ask(1, 2, then).answer
    assert before.inference.weight_format.lower() == "q8_0"
    inf = a.report.inference
    assert inf.weight_format.lower() == "q8_0" and inf.runtime == "llama.cpp", (
        inf.weight_format,
        inf.runtime,
    )
    assert a.report.request.seq_len == 32768
    why = next(x.why for x in a.report.assumptions if x.field == "precision")
    assert why == "previous_answer_weights"


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("部署qwen2.5-32b，2张4090，20并发", "上下文改成32k呢"),
        ("serve qwen2.5-32b on 2x 4090, 20 concurrent", "what about 32k context?"),
    ],
)
def test_a_heavy_load_context_followup_stays_on_vllm(first: str, then: str) -> None:
    from bot.core.conversation import Conversation

    chat = Conversation()
    before = chat.ask(1, 2, first).answer.report
    a = chat.ask(1, 2, then).answer.report
    assert (before.inference.weight_format.lower(), before.inference.runtime) == ("bf16", "vLLM")
    assert (a.inference.weight_format.lower(), a.inference.runtime) == ("bf16", "vLLM")
    assert a.request.seq_len == 32768
