"""Session 32 (s32-meta): the rewrite families the metamorphic sweep found broken, fixed as families —
a shouted message (bot.parse.shouted), a card's count after it (bot.parse.card_first), a question without
its question mark (bot.parse.asked_end) — each with sentences of our own that must be read and ones that
must not be misread, in both languages; and a small fixed sample of the sweep itself
(tests/metamorphic.py; the whole sweep is ``python -m tests.metamorphic --all``, not in the default run)."""

from __future__ import annotations

import pytest

from bot.parse.asked_end import ASKED_END_RE
from bot.parse.card_first import card_first
from bot.parse.shouted import unshouted
from tests import metamorphic
from tests import real_questions as rq


def _read(text: str) -> tuple[dict, dict]:
    answer = rq.answer_json(text)
    return answer["request"], answer.get("interpretation") or {}


# --- shouted messages -----------------------------------------------------------------------------------


def test_shouted_english_keeps_the_unknown_model_and_echoes_its_capitals():
    request, it = _read("HOW MANY A100S DO I NEED TO FINE-TUNE MINICPM-V WITH LORA?")
    assert it["unknown_model"] == "MINICPM-V"  # as typed, capitals kept
    assert request["method"] == "lora" and request["gpu"].startswith("A100")
    request, it = _read("WHAT DOES FULL FINE-TUNING OF FOOBAR-7B TAKE ON 2 H100S?")
    assert it["unknown_model"] == "FOOBAR-7B"
    assert (request["method"], request["gpu_count"], request["params_total"]) == ("full", 2, 7e9)


def test_shouted_reads_as_its_lower_case():
    lower = _read("training internvl 76b with full fine-tuning, how many gpus?")[0]
    upper = _read("TRAINING INTERNVL 76B WITH FULL FINE-TUNING, HOW MANY GPUS?")[0]
    assert (upper["params_total"], upper["method"], upper["stage"]) == (76e9, "full", "finetune")
    assert (upper["params_total"], upper["method"]) == (lower["params_total"], lower["method"])


def test_shouted_chinese_with_lower_case_words():
    request, _ = _read("用 QWEN2-7B 做 LORA 微调，BATCH 8，要几张 4090？")
    assert (request["method"], request["gpu"], request["params_total"]) == ("lora", "RTX-4090", 7.62e9)


@pytest.mark.parametrize(
    "text",
    [
        "用 8 张 A100 训练 GPT 模型要多久",  # card and acronym names only: typed so, not shouted
        "用 BLT 模型，8 张 A100 预训练要多久",
        "LLM ON 8 A100",  # one word people type in lower case ('on'): not enough
    ],
)
def test_not_shouted(text):
    assert unshouted(text) == (text, None)


def test_acronym_name_in_a_chinese_message_is_still_named():
    request, it = _read("用 BLT 模型，8 张 A100 预训练要多久")
    assert it["unknown_model"] == "BLT" and request["gpu_count"] == 8


# --- a card's count after the card ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "gpu", "count", "memory"),
    [
        ("full SFT of a 32B on one H100*8 node", "H100-SXM5-80GB", 8, None),
        ("Training Llama 70B on a single H200 x8 node", "H200-SXM-141GB", 8, None),
        ("serve Llama 3 8B on Nvidia L40S*4 48GB", "L40S", 4, 48.0),
        ("9GB of 24GB on each of my 3090 x2 with Qwen 2.5 14B", "RTX-3090", 2, 24.0),
        ("Qwen2-7B 全参微调，A100*8，要多久？", "A100-SXM4-80GB", 8, None),
        ("用 A40 x4-48G 的机器预训练 13B", "A40", 4, 48.0),
        ("4090*2 微调 Qwen2-7B 要多久", "RTX-4090", 2, None),
    ],
)
def test_card_then_count(text, gpu, count, memory):
    request, _ = _read(text)
    assert (request["gpu"], request["gpu_count"], request.get("gpu_memory_gib")) == (gpu, count, memory)


@pytest.mark.parametrize(
    "text",
    ["8*40g a100", "2*8 h100", "batch 16*4 on 8 a100", "a100*80g", "h100 x h200", "qwen2.5-7b x2 lora"],
)
def test_card_then_count_not_misread(text):
    assert card_first(text) == text  # a memory, a product of counts, a batch, no count: left as typed


def test_two_nodes_card_first():
    request, _ = _read("two H100*8 machines, train llama 70b")
    assert (request["gpu"], request["gpu_count"]) == ("H100-SXM5-80GB", 16)


# --- a question without its question mark ------------------------------------------------------------


# s32-fixe: the test before compared _read(text) with _read(text + '?'), the same input once
# ASKED_END_RE matches (parse appends the '?'): nearly tautological. Now sentences where the missing mark
# changes what is read (another setup's card and count stated first), asserting the values read.
@pytest.mark.parametrize(
    ("text", "gpu", "count", "stage"),
    [
        ("I have 2 A6000s. How many H100s does Llama 3 70B inference at 32k need", "H100", None, "inference"),
        (
            "We have 16 H100s. How long does pretraining 7B on 1T tokens take on 8 A100s",
            "A100",
            8,
            "pretrain",
        ),
        ("我们有 16 张 H100。用 8 张 A100 预训练 7B 1T token 要多久", "A100", 8, "pretrain"),
        ("手上有 2 张 A6000。Llama 3 70B 推理 32k 上下文用 H100 要几张", "H100", None, "inference"),
    ],
)
def test_question_without_mark_is_read_as_one(text, gpu, count, stage):
    assert ASKED_END_RE.search(text)
    request = _read(text)[0]
    assert request["gpu"].startswith(gpu)
    assert (request["gpu_count"], request["stage"]) == (count, stage)


@pytest.mark.parametrize("text", ["我有 4 张 A100。", "Llama 70B on 8 H100", "I tried 8 A100s. It works"])
def test_statement_gets_no_question_mark(text):
    assert ASKED_END_RE.search(text) is None


# --- a fixed sample of the sweep ------------------------------------------------------------------------

SAMPLE = ("work", 12)
"""The first records of a working split, swept with the families fixed this session (the whole sweep:
``python -m tests.metamorphic --all``, tests/data/metamorphic_census.md)."""
KNOWN_BROKEN = {
    ("zh-012", "case", "lower"),
    ("zh-012", "case", "upper"),
    ("zh-015", "question_mark", "dropped"),
}
"""Left (census): 'LLAMAFACTORY-CLI TRAIN SFT.YAML' in another case reads the algorithm otherwise; zh-015
without its final '？' (it has another) sizes the other card of its two."""
FIXED = {"case", "card_times", "question_mark", "mention", "polite_middle", "greetings"}


def test_sweep_sample_has_no_breakage():
    split, n = SAMPLE
    recs = rq.records(split)[:n]
    outcomes = metamorphic.sweep(recs, jobs=1, families=FIXED)
    assert len(outcomes) > 3 * n  # the families rewrote the sample
    broken = {(o.rid, o.family, o.variant) for o in outcomes if o.broken}
    assert broken == KNOWN_BROKEN
