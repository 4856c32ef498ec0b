"""Session 41 revfix: the serving and advice findings of this session's design review
(/work/notes/s41/full_revfix.md), each in both languages."""

from __future__ import annotations

import json

import pytest

from bot.cli import ask


def _json(question: str) -> dict:
    return json.loads(ask(question, None, "json")[0])


FLOOR_HELD = {
    "en": "How many concurrent users can Qwen2.5-72B serve on 4xA100 80GB with 8K prompts and 512-token"
    " answers?",
    "zh": "Qwen2.5-72B 在 4 张 A100 80GB 上，8K 提示词、512 token 输出，能支持多少并发用户？",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_cost_is_priced_at_the_speed_floors_count_not_the_kv_caches_most(lang):
    """Review #1: with 8K prompts the KV cache of 4 x A100 80GB holds 54 (zh: 55) sequences of Qwen2.5-72B,
    but there each decodes ≈ 4 tokens/s, under the 5 tokens/s floor (MLPerf's 200 ms per output token); the
    answer is 41 (zh 42, the prompt read as 8,000). The cost is priced at that count — never at the load the
    floor note calls too slow."""
    out = _json(FLOOR_HELD[lang])
    inf = out["report"]["inference"]
    n = {"en": 41, "zh": 42}[lang]
    assert inf["max_concurrency"] == inf["concurrency"] == n
    assert inf["priced_concurrency"] == n
    assert inf["priced_tokens_per_s"] == pytest.approx(inf["decode_tokens_per_s"]["aggregate"])
    assert {"en": "the most these GPUs hold", "zh": "按这些卡最多能容纳"}[lang] not in out["reply"]
    assert {"en": f"at {n} concurrent", "zh": f"{n} 条并发时"}[lang] in out["reply"]


NO_FLOOR = {
    "en": "How many concurrent users can Qwen2.5-7B serve on 2 H100 at 4k context?",
    "zh": "Qwen2.5-7B 在 2 张 H100 上，4k 上下文，能支持多少并发用户？",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_without_the_floor_the_cost_is_still_priced_at_the_most_the_gpus_hold(lang):
    """Review #1's other side: where every sequence the KV cache holds decodes above the floor (Qwen2.5-7B on
    2 x H100, ≈ 22 tokens/s at 548), the answer and the price stay at the KV cache's most."""
    inf = _json(NO_FLOOR[lang])["report"]["inference"]
    assert inf["decode_tokens_per_s"]["per_sequence"] >= 5.0
    assert inf["priced_concurrency"] == inf["max_concurrency"] == inf["concurrency"] > 100


HOW_MANY_AT_SPEED = {
    "en": "How many users can Llama-3-8B serve on one L40S at 30 tokens/s per user?",
    "zh": "Llama-3-8B 在一张 L40S 上，每个用户每秒 30 token，能支持多少并发用户？",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_stated_speed_per_user_is_the_floor_of_how_many(lang):
    """Review #2: '30 tokens/s per user' was named as not used and the answer was the KV cache's 49 sequences
    at ≈ 10 tokens/s each. It is now ``tokens_per_s_per_sequence`` = 30 and the count is the most that still
    decode at least 30 tokens/s each (fewer than the 49 the KV cache of one L40S holds at 4K)."""
    out = _json(HOW_MANY_AT_SPEED[lang])
    assert out["request"]["tokens_per_s_per_sequence"] == 30.0
    assert out["request"]["target_tokens_per_s"] is None
    assert not [i for i in out["interpretation"]["ignored"] if "30" in i["text"]]
    inf = out["report"]["inference"]
    assert inf["max_concurrency"] < 49 and inf["decode_tokens_per_s"]["per_sequence"] >= 30.0
    assert "user_speed_held" in {w["code"] for w in out["report"]["warnings"]}
    assert {"en": "Counted at your 30 tokens/s per user", "zh": "按你说的每用户 30 token/s 计"}[lang] in out[
        "reply"
    ]


STATED_LOAD_AT_SPEED = {
    "en": "Serve Llama-3-8B on one L40S: 50 users, 30 tokens/s each",
    "zh": "一张 L40S 部署 Llama-3-8B：50 个并发，每个用户每秒 30 token",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_with_a_stated_load_the_reply_says_the_speed_per_user_is_not_reached(lang):
    """Review #2, a stated load: 49 of the 50 run at once on one L40S at ≈ 10 tokens/s each — under the 30
    asked per user, said so; the load stays the user's 50 (no floor on a stated load)."""
    out = _json(STATED_LOAD_AT_SPEED[lang])
    assert out["request"]["tokens_per_s_per_sequence"] == 30.0 and out["request"]["concurrency"] == 50
    assert "user_speed_short" in {w["code"] for w in out["report"]["warnings"]}
    said = {"en": "under your 30 tokens/s per user", "zh": "低于你要的每用户 30 token/s"}[lang]
    assert said in out["reply"]


@pytest.mark.parametrize(
    "question",
    [
        "Serve Llama-3-8B on one H100: 4 users, 10 tokens/s each",
        "一张 H100 部署 Llama-3-8B：4 个并发，每个用户每秒 10 token",
    ],
)
def test_a_speed_per_user_the_load_reaches_is_said_met(question):
    """Must not misread: 4 sequences of an 8B model on an H100 (3.35 TB/s) decode far above 10 tokens/s each:
    the reply says it is reached, never 'under'."""
    out = _json(question)
    codes = {w["code"] for w in out["report"]["warnings"]}
    assert "user_speed_met" in codes and "user_speed_short" not in codes


@pytest.mark.parametrize(
    "question",
    [
        "We measured 900 tokens/s. Serve Llama-3-8B on 2 H100, 64 users",
        "实测跑到每秒 900 token，2 张 H100 部署 Llama-3-8B，64 并发",
    ],
)
def test_a_measured_rate_is_not_a_speed_per_user(question):
    """Must not misread: a measured total rate stays named 'observed', never a speed per user."""
    out = _json(question)
    assert out["request"]["tokens_per_s_per_sequence"] is None


@pytest.mark.parametrize(
    ("question", "typed"),
    [
        ("Our 8 H100s do 3000 tokens/s each. Serve Llama-3-70B for 200 concurrent users", "3000 tokens/s"),
        ("Serve Qwen2.5-32B on 4 L40S that do 1500 tokens/s each, 100 concurrent", "1500 tokens/s"),
    ],
)
def test_a_bare_each_after_the_gpus_rate_is_each_gpus_not_each_users(question, typed):
    """Review #3: a bare 'each' closing a rate whose subject is the GPUs ('our 8 H100s do … each') is what
    each GPU does — named observed, never a speed per user nor a total target."""
    out = _json(question)
    assert out["request"]["tokens_per_s_per_sequence"] is None
    assert out["request"]["target_tokens_per_s"] is None
    assert {"text": typed, "reason": "observed"} in out["interpretation"]["ignored"]


@pytest.mark.parametrize(
    ("question", "per_user", "total"),
    [
        ("Serve Llama-3-8B on one L40S: 50 users, 30 tokens/s each", 30.0, None),
        (
            "How many users can 4x A100 80G serve Qwen2.5-72B with vLLM at 20 tokens/s each, 4k context?",
            20.0,
            None,
        ),
        ("一张 L40S 部署 Llama-3-8B：50 个并发，每个用户每秒 30 token", 30.0, None),
        ("2 张 L40S 部署 Llama-3-8B，总共每秒 3000 token", None, 3000.0),
    ],
)
def test_a_bare_each_after_users_stays_a_speed_per_user(question, per_user, total):
    """Review #3, must not misread: 'each' after users or after 'at' (no GPUs as the rate's subject) stays a
    speed per user; a total in Chinese stays the target."""
    out = _json(question)
    assert out["request"]["tokens_per_s_per_sequence"] == per_user
    assert out["request"]["target_tokens_per_s"] == total


EAGER = {
    "en": 'Full fine-tune Qwen3-30B-A3B on 8 H100 with transformers 5.0 and experts_implementation="{impl}", '
    "100M tokens, how long?",
    "zh": 'Qwen3-30B-A3B 8张H100全参微调，transformers 5.0，experts_implementation="{impl}"，'
    "1亿token，要多久",
}
EAGER_SAID = {
    ("en", "eager"): 'your experts_implementation="eager" runs an MoE\'s experts one at a time in a loop',
    ("zh", "eager"): '你设的 experts_implementation="eager" 在循环里逐个跑 MoE 的专家',
    ("en", "batched_mm"): 'your experts_implementation="batched_mm" runs one batched matmul per routed token',
    ("zh", "batched_mm"): '你设的 experts_implementation="batched_mm" 对每个路由到的 token',
}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("impl", ["eager", "batched_mm"])
def test_the_eager_moe_line_names_the_stated_experts_implementation(lang, impl):
    """Review #4: with transformers 5.0 and experts_implementation stated, the line under the GPU-hours
    said 'your transformers 5.0 runs … one at a time … transformers 5 … keeps the grouped MoE rate' (a
    contradiction) and misnamed batched_mm as the loop. It now names the implementation (transformers'
    integrations/moe.py: eager loops over the experts, batched_mm one bmm per routed token) and never the
    release as the cause."""
    reply = ask(EAGER[lang].format(impl=impl), None, "text")[0]
    assert EAGER_SAID[(lang, impl)] in reply
    assert {"en": "your transformers 5.0 runs", "zh": "你的 transformers 5.0 在循环里"}[lang] not in reply


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_grouped_mm_stated_has_no_eager_line(lang):
    """Must not misread: experts_implementation="grouped_mm" keeps the calibrated MoE rate: no 'MFU ÷'."""
    reply = ask(EAGER[lang].format(impl="grouped_mm"), None, "text")[0]
    assert "MFU ÷" not in reply


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_prefill_in_decode_note_says_it_is_an_upper_bound(lang):
    """Review #5: the prefill added to each decode step assumes no overlap of the compute-bound prefill chunk
    with the memory-bound decode step — an upper bound on the time, said in the note."""
    reply = ask(FLOOR_HELD[lang], None, "text")[0]
    assert {
        "en": "The prefill is added to each step with no overlap, an upper bound",
        "zh": "预填充按不重叠加到每一步上，是上限",
    }[lang] in reply


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_prompt_stated_no_prefill_bound_note(lang):
    """Must not misread: with no prompt length stated the decode speed carries no prefill, so no such note."""
    reply = ask(NO_FLOOR[lang], None, "text")[0]
    assert "upper bound" not in reply and "是上限" not in reply


ETHERNET_TP = {
    "en": "Serve Qwen2.5-72B with vLLM --tensor-parallel-size 16 on 16 RTX 4090",
    "zh": "用 vLLM 在 16 张 RTX 4090 上部署 Qwen2.5-72B，tp 16",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_tp_group_across_personal_machines_is_timed_over_ethernet_and_said_so(lang):
    """Review #6: personal cards leave their machine over 10 Gb Ethernet (serving_speed.ETHERNET_GBPS
    = 1.25 GB/s): the note says Ethernet and ≈ 1.2 GB/s (one decimal), never 'InfiniBand/RoCE' at '1 GB/s'."""
    a = json.loads(ask(ETHERNET_TP[lang], None, "json")[0])
    codes = {w["code"] for w in a["report"]["warnings"]}
    assert "tp_allreduce_ethernet" in codes and "tp_allreduce_internode" not in codes
    said = {
        "en": "≈ 1.2 GB/s per GPU (10 Gb Ethernet between them)",
        "zh": "每卡约 1.2 GB/s（机器之间的 10 Gb 以太网）",
    }
    assert said[lang] in a["reply"] and "InfiniBand" not in a["reply"]


MEGATRON_PRETRAIN = {
    "en": "Pretrain a 7B model on 1T tokens with Megatron-LM on 64 H100, how long?",
    "zh": "用 Megatron-LM 在 64 张 H100 上预训练 7B 模型，1T token，要多久",
}
GENERIC_MEGATRON = {"en": "Megatron-LM for pre-training at scale", "zh": "大规模预训练用 Megatron-LM"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_megatron_advice_is_said_once_when_the_tool_is_megatron(lang):
    """Review #7: pre-training with Megatron-LM stated gave both the generic 'Megatron-LM for pre-training at
    scale' paragraph and the Megatron-family one: only the latter now."""
    reply = ask(MEGATRON_PRETRAIN[lang], None, "text")[0]
    assert {"en": "Your tool is Megatron-family", "zh": "你用的是 Megatron 系工具"}[lang] in reply
    assert GENERIC_MEGATRON[lang] not in reply


@pytest.mark.parametrize(
    ("lang", "question"),
    [
        ("en", "Pretrain a 7B model on 1T tokens on 64 H100, how long?"),
        ("zh", "在 64 张 H100 上预训练 7B 模型，1T token，要多久"),
    ],
)
def test_megatron_advice_stays_for_pretraining_with_no_tool_named(lang, question):
    """Must not misread: no tool named, pre-training still advises Megatron-LM (its generic paragraph)."""
    out = _json(question)
    assert out["request"]["training_tool"] is None
    assert GENERIC_MEGATRON[lang] in out["reply"]
