"""Session 32 (s32-fixe): defects a fresh-user trial found, each with sentences of our own in both
languages — machines counted after a card and its per-machine count (bot.parse.chat_forms), …"""

from __future__ import annotations

import pytest

from tests import real_questions as rq


def _read(text: str) -> tuple[dict, dict]:
    answer = rq.answer_json(text)
    return answer["request"], answer.get("interpretation") or {}


# --- machines counted after the card and its count ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        ("A100*8 两台，预训练 7B 1T token 要多久", "A100", 16),
        ("8x A100 两台，预训练 7B 1T token 要多久", "A100", 16),
        ("H800*8 三台机器，预训练 13B 500B token 要多久", "H800", 24),
        ("8卡 4090 两台，LoRA 微调 Qwen2.5-7B 要多久", "RTX-4090", 16),
        ("A100 x8, 2 nodes: how long to pretrain a 7B model on 1T tokens?", "A100", 16),
        ("H100*4 two servers, how long to pretrain 7B on 300B tokens?", "H100", 8),
        ("2 nodes of A100 x8, pretrain 7B on 1T tokens, how long", "A100", 16),
        ("两台 A100*8，预训练 7B 1T token 要多久", "A100", 16),
    ],
)
def test_machines_after_card_and_count_multiply(text, gpu, count):
    request, it = _read(text)
    assert request["gpu"].startswith(gpu)
    assert request["gpu_count"] == count
    assert not it["ignored"]  # the machine count is used, not named as a second card count


def test_a_total_above_one_board_stays_the_total():
    request, _ = _read("16x A100 2 nodes, pretrain 7B on 1T tokens")
    assert request["gpu_count"] == 16


# --- the same machine written twice ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        ("一台 8 卡 A100 和一台 8 卡 A100，预训练 7B 1T token 要多久", "A100", 16),
        ("一台8卡4090和另一台8卡4090，LoRA 微调 Qwen2.5-7B 要多久", "RTX-4090", 16),
        ("one 8×H100 box and another 8×H100 box: how long to pretrain 7B on 1T tokens?", "H100", 16),
        ("a 4x L40S server plus one more 4x L40S server, LoRA fine-tune Qwen2.5-7B, how long?", "L40S", 8),
    ],
)
def test_same_machine_twice_is_two_machines(text, gpu, count):
    request, it = _read(text)
    assert request["gpu"].startswith(gpu)
    assert request["gpu_count"] == count
    assert not it["ignored"]


def test_two_machines_of_one_card_with_different_counts_are_not_doubled():
    request, _ = _read("一台 8 卡 A100 和一台 4 卡 A100，预训练 7B 1T token 要多久")
    assert request["gpu_count"] != 16  # not two machines alike: not rewritten as 2 × 8


# --- an imperative or an 'Is …' statement last, without a mark ------------------------------------------
# ASKED_END_RE reads a last sentence starting 'Do' or 'Is' as a question ('?' appended). For an imperative
# that sizes the job ('Do a LoRA run … on 2 A100s') the '?' picks the imperative's setup — the one to
# size — over another setup stated first, so the pattern is kept; these pin the values read.


@pytest.mark.parametrize(
    ("text", "gpu", "count", "method"),
    [
        ("We have 8 H100s. Do a LoRA run of Llama 3 8B on 2 A100s", "A100", 2, "lora"),
        ("Do LoRA on Llama 3 8B with 2 H100s, we have 8 A100s in another rack", "H100", 2, "lora"),
        ("Do a full fine-tune of Qwen2.5-7B on 4 A100s", "A100", 4, "full"),
        ("Is the plan: full fine-tune of Qwen2.5-7B on 4 A100s", "A100", 4, "full"),
        ("帮我用 2 张 A100 做 Llama 3 8B 的 LoRA 微调", "A100", 2, "lora"),
        ("给我算一下 4 张 A100 全参微调 Qwen2.5-7B 的显存", "A100", 4, "full"),
    ],
)
def test_imperative_last_sizes_its_own_setup(text, gpu, count, method):
    request, _ = _read(text)
    assert request["gpu"].startswith(gpu)
    assert (request["gpu_count"], request["method"], request["stage"]) == (count, method, "finetune")
