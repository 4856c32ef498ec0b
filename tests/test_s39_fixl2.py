"""s39 fixl2: the second fresh-user trial's findings on this session's new answers.

1. 'which needs fewer cards' rows state the cards for the stated load, as the line above them does;
2. a listed value that does not fit gives the GPUs it needs and no speed;
3. a listed count range ('1, 2 or 4 A100') starts at the list's first item; row durations under a day in
   hours or minutes;
4. 'English please' / '用中文回答' with the API's ``prev``: the previous request answered again in that
   language (as a chat does)."""

from __future__ import annotations

import re

import pytest
from web_client import ask_api, client_fixture

from bot.parse import parse
from bot.parse.value_list import list_start

client = client_fixture()


def _reply(text: str) -> str:
    from bot.cli import ask

    return ask(text, None, "text")[0]


# 1 ---------------------------------------------------------------------------------------------------
# Qwen2.5-72B bf16: 145 GB of weights need 2 × H100 80G; with 32 × 4K sequences of KV cache (42.9 GB) and
# each card's workspace, ≈ 175 GiB against 71.3 GiB usable per card: 3 cards, TP a power of two → 4. The
# rows say the 4 the line says, never the weights' 2 ("needs at least 2").
@pytest.mark.parametrize(
    ("question", "row", "wrong"),
    [
        (
            "which needs fewer cards to serve at 32 concurrency on H100: Qwen2.5-72B or Llama-3.1-70B?",
            "needs 4 × H100 80G for this load",
            "at least 2",
        ),
        (
            "32 并发部署在 H100 上，Qwen2.5-72B 和 Llama-3.1-70B 哪个更省卡？",
            "这个负载下要 4 张 H100 80G",
            "至少要 2",
        ),
    ],
)
def test_fewer_cards_rows_state_the_loads_count(question, row, wrong):
    lines = _reply(question).splitlines()
    assert "4" in lines[0]
    rows = [ln for ln in lines[1:3] if ln.startswith("•")]
    assert len(rows) == 2 and all(row in r for r in rows), lines[:3]
    assert not any(wrong in r for r in rows)


# 2 ---------------------------------------------------------------------------------------------------
def test_count_rows_that_do_not_fit_name_the_count_and_no_speed():
    """70B bf16 at 16 × 8K on A100 80G: 141 GB of weights + 42.9 GB of KV cache hold on 4 (TP 4), not on
    1 or 2."""
    text = _reply("serve Llama-3.1-70B at 16 concurrent, 8k context on 1, 2 or 4 A100")
    rows = [ln for ln in text.splitlines() if ln.startswith("• GPU count")]
    assert rows[0].startswith("• GPU count 1: does not fit, needs 4 GPUs") and "tokens/s" not in rows[0]
    assert rows[1].startswith("• GPU count 2: does not fit, needs 4 GPUs") and "tokens/s" not in rows[1]
    assert rows[2].startswith("• GPU count 4: fits") and "tokens/s per sequence" in rows[2]


def test_format_rows_that_do_not_fit_name_the_count():
    """70B on RTX 4090 (21.4 GiB usable each): 135 GiB fp16 → 6.3 → 8 cards (TP a power of two), 71 GiB
    int8 → 3.3 → 4, 40.3 GiB int4 → 1.9 → 2."""
    text = _reply("Llama-3.1-70B 推理 fp16、int8、int4 各要多少显存，4090")
    rows = {ln.split("：")[0]: ln for ln in text.splitlines() if ln.startswith("• ") and "权重：" in ln}
    assert "放不下，需要 8 张卡" in rows["• FP16 权重"]
    assert "放不下，需要 4 张卡" in rows["• INT8 权重"]
    assert "放不下，需要 2 张卡" in rows["• INT4 权重"]
    assert not any("token/s" in r for r in rows.values())


# 3 ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("question", "count", "most"),
    [
        ("LoRA fine-tune Llama-3.1-8B on 1, 2 or 4 A100", 1, 4),
        ("Llama-3.1-8B LoRA 微调，1、2 还是 4 张 A100", 1, 4),
        ("LoRA fine-tune Llama-3.1-8B on 2, 4 or 8 H100", 2, 8),
        # not a longer list: a range as written stays
        ("LoRA fine-tune Llama-3.1-8B on 2 or 4 A100", 2, 4),
        ("Llama-3.1-8B LoRA 微调，2 到 8 张 A100", 2, 8),
        ("serve Qwen2.5-72B on 4 or 8 L40S", 4, 8),
    ],
)
def test_a_listed_count_range_starts_at_the_first_item(question, count, most):
    r = parse(question).request
    assert (r.gpu_count, r.gpu_count_max) == (count, most)


def test_list_start_reads_only_a_list_holding_both_ends():
    assert list_start("on 1, 2 or 4 a100", 2, 4) == 1
    assert list_start("1、2 或者 4 张卡", 2, 4) == 1
    assert list_start("on 2 or 4 a100 with batch 1", 2, 4) == 2  # the 1 is no item of the list
    assert list_start("8 or 16 h100, 2 nodes", 8, 16) == 8


@pytest.mark.parametrize(
    ("question", "head"),
    [
        ("LoRA fine-tune Llama-3.1-8B on 1, 2 or 4 A100", "fits on 1 × A100 80G"),
        ("Llama-3.1-8B LoRA 微调，1、2 还是 4 张 A100", "1 张 A100 80G 放得下"),
    ],
)
def test_the_headline_is_the_first_listed_count(question, head):
    assert head in _reply(question).splitlines()[0]


def test_row_durations_under_a_day_in_minutes_and_hours():
    """LoRA 8B on 10M tokens: 4·N·D ≈ 4 × 8.03e9 × 1e7 = 3.2e17 FLOPs, 0.71 A100-hours (the headline) →
    43 minutes on 1, 22 on 2, 11 on 4; full fine-tuning 8B on 10B tokens: 484 H100-hours → 2.5 days on 8,
    ≈ 17.8 hours on 32 (the rows' own plans)."""
    text = _reply("LoRA fine-tune Llama-3.1-8B on 10M tokens on 1, 2 or 4 A100")
    assert "0.71 A100-hours" in text.splitlines()[0]
    rows = [ln for ln in text.splitlines() if ln.startswith("• GPU count")]
    assert [re.search(r"(\d+) minutes$", r).group(1) for r in rows] == ["43", "22", "11"]  # type: ignore[union-attr]
    assert "days" not in " ".join(rows)
    zh = _reply("Llama-3.1-8B 全参微调 10B token，8、16 或 32 张 H100").splitlines()
    assert "2.5 天" in zh[0] and "484 H100·时" in zh[0]
    row32 = next(ln for ln in zh if ln.startswith("• 32 张卡"))
    assert row32.endswith("17.8 小时"), row32


# 4 ---------------------------------------------------------------------------------------------------
def test_the_api_answers_a_language_request_with_prev(client):
    first = ask_api(client, {"q": "全参微调Qwen2.5-14B要几张A100 80G"})
    assert first["reply"].startswith("Qwen2.5 14B 全参微调：至少 4 张 A100 80G")
    en = ask_api(client, {"q": "English please", "prev": first["request"]})
    assert en["understood"] and en["lang"] == "en"
    assert en["reply"].startswith("Qwen2.5 14B full fine-tuning: at least 4 × A100 80G")
    assert en["request"]["model"] == "Qwen2.5-14B" and en["request"]["gpu"] == "A100-SXM4-80GB"
    zh = ask_api(client, {"q": "用中文回答", "prev": en["request"]})
    assert zh["lang"] == "zh" and zh["reply"].startswith("Qwen2.5 14B 全参微调：至少 4 张 A100 80G")


def test_the_api_without_prev_or_with_a_question_is_unchanged(client):
    alone = ask_api(client, {"q": "English please"})
    assert not alone["understood"]
    first = ask_api(client, {"q": "全参微调Qwen2.5-14B要几张A100 80G"})
    asked = ask_api(client, {"q": "serve Qwen2.5-7B for English users on 1 L40S", "prev": first["request"]})
    assert asked["request"]["model"] == "Qwen2.5-7B" and asked["request"]["stage"] == "inference"
