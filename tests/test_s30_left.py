"""Session 30, part 'left': answers true to the job as typed (findings of the last trials and reviews).

Each item's sentences are this file's own, in both languages; each must be read as asserted (and the
near misses must not be misread)."""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.render.renderer import render


def _plan_line(text: str, model: str) -> str:
    """The body's first plan line: the first line that starts with the model's name."""
    return next(line for line in text.splitlines() if line.startswith(model))


# 1. A budget-led headline and the body name the same card (bot.core.budget_lead)
@pytest.mark.parametrize(
    ("question", "model"),
    [
        ("每月预算2万元，部署 Llama-3-70B 推理，选什么卡？", "Meta Llama 3 70B"),
        ("With $3,000 a month, which card should serve Llama 3 70B?", "Meta Llama 3 70B"),
        ("budget $4,000 a month, which GPU to serve Qwen2.5-72B?", "Qwen2.5 72B"),
        ("预算每月3万元，部署 Qwen2.5-72B 推理，选什么卡？", "Qwen2.5 72B"),
    ],
)
def test_budget_pick_leads_the_body(question, model):
    """The headline's pick (bot.core.budget_pick) is the body's plan: its card, its weights, its count."""
    result = answer(question)
    pick = result.budget_pick
    assert pick is not None and pick.best is not None
    report = result.report
    assert report.request.gpu == pick.best.report.request.gpu
    assert str(report.request.precision or "bf16") == pick.best.precision
    assert report.inference.recommended_gpus == pick.best.gpus
    text = render(result, "plain")
    plan = _plan_line(text, model)
    assert pick.best.precision in plan.lower()
    assert report.request.gpu.split("-")[0] in plan  # 'A100-SXM4-80GB' → 'A100'
    if pick.best.precision != "bf16":  # the budget chose the weights: a ledger line, not the user's words
        assert any(a.field == "precision" and a.why == "budget_pick" for a in report.assumptions)


def test_budget_question_without_a_comparison_is_unchanged():
    """No card compared ('8 张 A100，每月预算 5 万'): the user's own card stays the answer."""
    result = answer("8 张 A100 部署 Qwen2.5-72B，每月预算5万元够吗？")
    assert result.report.request.gpu.startswith("A100")
    assert result.report.request.precision in (None, "bf16")


# 2. The JSON verdict agrees with a headline that says vLLM refuses the typed max_model_len
def _json(question: str) -> dict:
    from bot.contract import to_json

    result = answer(question)
    return to_json(result, render(result, "plain"))


@pytest.mark.parametrize(
    "question",
    [
        "一张 H100 上 vllm serve meta-llama/Meta-Llama-3-8B-Instruct --max-model-len 32768，能启动吗？",
        "Will vllm serve meta-llama/Meta-Llama-3-8B-Instruct --max-model-len 32768 start on one H100?",
    ],
)
def test_json_verdict_is_the_headlines_no_as_typed(question):
    """Llama 3 8B's config: max_position_embeddings 8192; vLLM refuses 32,768 without the env var
    (vllm/config/model.py ``_get_and_verify_max_len``): the headline's 'no, not as typed' is the JSON's."""
    d = _json(question)
    assert "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1" in d["reply"].splitlines()[0]
    r = d["report"]
    assert (r["feasible"], r["feasible_reason"]) == ("no", "max_model_len_past_config")
    assert r["feasible_with_override"] == "yes"  # 8B + one 32K sequence fit an H100 with the variable set


@pytest.mark.parametrize(
    "question",
    [
        "一张 H100 上 vllm serve meta-llama/Meta-Llama-3-8B-Instruct --max-model-len 8192，能启动吗？",
        "Will vllm serve meta-llama/Meta-Llama-3-8B-Instruct --max-model-len 8192 start on one H100?",
    ],
)
def test_json_verdict_within_the_config_is_unchanged(question):
    r = _json(question)["report"]
    assert (r["feasible"], r["feasible_with_override"]) == ("yes", None)


# 3. A per-card ceiling's one card is not the count asked (bot.parse.per_card_load.count_in_ceiling)
@pytest.mark.parametrize(
    "question",
    [
        "部署 Qwen2.5-32B，L40S 单卡能扛的并发不到 40，要支持 200 并发需要几张卡",
        "Serving Qwen2.5-32B: one L40S handles under 40 concurrent; how many L40S for 200 concurrent?",
    ],
)
def test_per_card_ceiling_asks_the_count(question):
    """The headline answers the count for 200 (8 × L40S at TP 8, 4K context), never '1 × L40S: no'; the
    ceiling 40 is named as the user's measurement."""
    result = answer(question)
    req = result.report.request
    assert req.gpu_count is None and req.concurrency == 200
    assert result.report.inference.recommended_gpus == 8
    assert ("40", "per_card_load") in result.parsed.unused_numbers
    head = render(result, "plain").splitlines()[0]
    assert "8" in head and "1 张" not in head and "1 ×" not in head


@pytest.mark.parametrize(
    "question",
    [
        "单卡 L40S 部署 Qwen2.5-32B，单卡能扛的并发不到 40，要支持 200 并发需要几张卡",
        "On a single L40S, Qwen2.5-32B serves 200 concurrent at most?",
    ],
)
def test_one_card_said_outside_the_ceiling_stays(question):
    assert answer(question).report.request.gpu_count == 1


# 7. Users written before their number (bot.parse.role_left.L_USERS, users_load.HEAD_COUNT_RE)
@pytest.mark.parametrize(
    ("question", "concurrency", "users"),
    [
        ("部署 Qwen2.5-14B，用户 200，要几张 A100", 200, None),
        ("部署 Qwen2.5-14B，用户数 300，要几张 A100", 300, None),
        ("Serve Qwen2.5-14B for users: 200, how many A100?", 200, None),
        ("部署 Qwen2.5-14B，公司员工 500 人，要几张 A100", None, 500),
        ("Serve Qwen2.5-14B for our staff: 500, how many A100?", None, 500),
    ],
)
def test_users_before_their_number(question, concurrency, users):
    """README's users rule, the word before the number: users are sequences at once; a head count of
    people (员工, staff) is the users, sized at ⌈10 %⌉ at once (estimator.active_users)."""
    from bot.parse import parse

    req = parse(question).request
    assert (req.concurrency, req.users) == (concurrency, users)


@pytest.mark.parametrize(
    "question",
    [
        "用户反馈 200 条，部署 Qwen2.5-14B 要几张 A100",
        "Serve Qwen2.5-14B on A100; users reported 200 errors last week, how many GPUs?",
    ],
)
def test_users_word_not_a_load(question):
    from bot.parse import parse

    assert parse(question).request.concurrency != 200


# 9 (L2). Gemma 2's KV bytes per token: one figure in the reply and the JSON (bot.core.kv_shown)
@pytest.mark.parametrize(
    "question",
    [
        "Serve Gemma-2-27B on one H100 at 8k context, 8 concurrent",
        "一张 H100 部署 Gemma-2-27B，8k 上下文，8 并发",
    ],
)
def test_gemma2_kv_per_token_is_one_figure(question):
    """Gemma 2 27B: 46 layers × 16 KV heads × 128 × 2 × 2 B = 376,832 B a token on full layers; half its
    layers slide over a 4,096 window, so an 8,192-token sequence holds (23 × 8,192 + 23 × 4,096) tokens'
    worth: 282,624 B a token on average = 276 KiB, the reply's figure and the JSON's."""
    d = _json(question)
    inf = d["report"]["inference"]
    assert inf["kv_bytes_per_token"] == 376_832
    assert inf["kv_bytes_per_token_shown"] == pytest.approx(282_624)
    assert any("276 KiB" in line for line in d["reply"].splitlines())
