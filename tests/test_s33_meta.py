"""Session 33 (s33-meta): a model's name in a message typed with no capital letter (bot.parse.uncased_names:
the metamorphic sweep's ``case/lower`` family), read as the same name typed with capitals, and echoed as
typed; words that are not names left alone, in both languages; the s33 rewrite families
(tests/metamorphic_s33.py) and a small fixed sample of the sweep (the whole sweep: ``python -m
tests.metamorphic --all``, tests/data/metamorphic_census.md, not in the default run)."""

from __future__ import annotations

import pytest

from bot.parse.uncased_names import morpheme_name
from tests import metamorphic
from tests import metamorphic_s33 as s33
from tests import real_questions as rq


def _read(text: str) -> tuple[dict, dict]:
    answer = rq.answer_json(text)
    return answer["request"], answer.get("interpretation") or {}


@pytest.mark.parametrize(
    ("text", "name", "params"),
    [
        ("what does lora on the 13b fooformer need on 2 a100s?", "fooformer 13B", 13e9),
        ("how long would pretraining the 3b barllm take on 8 h100s?", "barllm 3B", 3e9),
        ("微调 bazvlm 要几张 4090？", "bazvlm", None),
        ("quxocr 是 2b 的模型，部署要多少显存？", "quxocr", 2e9),
        ("用 8 张 a800 全参数微调 zorbanet 要多久？", "zorbanet", None),
        ("how many a100 hours to pretrain foo-lm?", "foo-lm", None),
    ],
)
def test_lower_case_name_is_named_as_typed(text, name, params):
    request, it = _read(text)
    assert it["unknown_model"] == name
    assert request["params_total"] == params


def test_lower_case_reads_as_its_capitals():
    lower = _read("how much vram does a full fine-tune of the 7b fooformer take on one a100 40g?")
    typed = _read("How much VRAM does a full fine-tune of the 7B FooFormer take on one A100 40G?")
    assert lower[1]["unknown_model"] == "fooformer 7B" and typed[1]["unknown_model"] == "FooFormer 7B"
    keys = ("params_total", "method", "gpu", "gpu_count")
    assert [lower[0][k] for k in keys] == [typed[0][k] for k in keys] == [7e9, "full", "A100-SXM4-40GB", 1]


@pytest.mark.parametrize(
    "text",
    [
        "how much memory does mixed precision training of the 7b weights need on 8 a100s?",
        "is the 70b checkpoint enough to serve on 4 h100s?",
        "what about distributed training of a 13b on 16 gpus?",
        "用 deepspeed 微调 7b 模型要几张 a100？",
        "lora 微调 7b 需要多少显存",
    ],
)
def test_lower_case_words_are_not_names(text):
    assert _read(text)[1].get("unknown_model") is None


_NAMES = ["emollm", "cogvlm", "monkeyocr", "gena-lm", "mdlm"]
_WORDS = ["film", "helm", "realm", "palm", "training"]


@pytest.mark.parametrize(("word", "named"), [(w, True) for w in _NAMES] + [(w, False) for w in _WORDS])
def test_name_morphemes(word, named):
    assert morpheme_name(word) is named


def test_s33_families_rewrite():
    assert list(s33.card_words("I have 8 A100s and 2 H100", "en")) == [
        ("word", "I have eight A100s and two H100")
    ]
    assert dict(s33.thousands("8192 上下文，8k 也行，2024 年，--max-model-len 4096，RTX 6000", "zh")) == {
        "comma": "8,192 上下文，8k 也行，2024 年，--max-model-len 4096，RTX 6000"
    }
    assert dict(s33.qian("8k 也行，32k 不行", "zh")) == {"k>qian": "8千 也行，32k 不行"}
    assert s33.qian_restate({"seq_len": 8192, "gpu_count": 8}, "8千 也行") == {
        "seq_len": 8000,
        "gpu_count": 8,
    }
    assert dict(s33.org_names("serve Llama-3-8B", "en")) == {
        "llama-org": "serve meta-llama/Meta-Llama-3-8B",
        "llama-spaced": "serve Llama 3 8B",
    }
    assert dict(s33.spaced_units("A100 80G", "en")) == {"spaced-G": "A100 80 G", "gigs": "A100 80 gigs"}
    assert dict(s33.full_letters("8张A100", "zh")) == {"full": "８张Ａ１００"}


SAMPLE = ("r20work", 10)
"""The first records of a working split, swept with the families this session fixed or added."""
FAMILIES = {
    "case",
    "card_words",
    "full_letters",
    "spaced_units",
    "thousands",
    "qian",
    "org_names",
    "context_first",
}


def test_sweep_sample_has_no_breakage():
    split, n = SAMPLE
    recs = rq.records(split)[:n]
    outcomes = metamorphic.sweep(recs, jobs=1, families=FAMILIES)
    assert len(outcomes) > 3 * n  # the families rewrote the sample
    assert {(o.rid, o.family, o.variant) for o in outcomes if o.broken} == set()
