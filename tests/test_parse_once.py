"""Issue 23 item 7, parse stage: work a message does not need is skipped, with the same result — the
typo pass only when a known typo occurs, the numbers scanned once unless one was dropped — through the
real CLI."""

from __future__ import annotations

import importlib
import json
import re

import pytest

import bot.parse.mention_steps as mention_steps
from bot.parse import spelling_tables as sp
from bot.parse.normalize import normalize
from tests.cli_run import CORPUS_QUESTIONS, ask_quietly
from tests.real_questions import records

norm_module = importlib.import_module("bot.parse.normalize")  # the module (bot.parse re-exports the function)
_WORD_RE = re.compile(r"[a-z][a-z\-]*[a-z]\.?", re.ASCII)


def _every_word_fixed(text: str) -> str:
    """normalize() as it was: the typo callback on every word (applied again here: a fixed word is no
    typo, so a second pass changes nothing)."""
    s = normalize(text)
    return _WORD_RE.sub(norm_module._fix_typo, s)


def test_typos_are_fixed_as_before_on_every_corpus_and_working_question():
    texts = CORPUS_QUESTIONS + [r["text"] for r in records("work") + records("r2work")]
    texts += ["lroa fine-tune llmaa-3 8B on A100", "qlroa mixtrel 8x7b", "deepseak-v3 serving"]
    assert [normalize(t) for t in texts] == [_every_word_fixed(t) for t in texts]


def test_a_typo_is_still_fixed_through_the_cli():
    reply = ask_quietly("--format", "json", "--", "lroa fine-tune llmaa-3 8B on A100")
    request = json.loads(reply)["request"]
    assert request["method"] == "lora"
    assert request["model"].lower().startswith("llama-3")


def test_a_message_without_typos_makes_no_word_callbacks(monkeypatch):
    calls = []
    monkeypatch.setattr(norm_module, "_fix_typo", lambda m: calls.append(m) or m.group(0))
    assert not any(t in normalize("7B模型1万亿token要多少A100") for t in sp.TYPOS)
    assert calls == []
    normalize("lroa on a100")
    assert calls  # a typo present: every word goes through the callback, as before


@pytest.mark.parametrize(
    ("question", "scans", "ignored"),
    [
        ("7B模型1万亿token要多少A100", 1, []),
        ("1e40 tokens 7B model on H100, how many GPUs?", 2, ["1e40"]),  # dropped: scanned again
    ],
)
def test_numbers_are_scanned_again_only_after_a_drop(monkeypatch, question, scans, ignored):
    real = mention_steps.scan_numbers
    calls = []
    monkeypatch.setattr(mention_steps, "scan_numbers", lambda s: calls.append(s) or real(s))
    parsed = json.loads(ask_quietly("--format", "json", "--", question))
    assert len(calls) == scans
    assert parsed["request"]["params_total"] == 7e9
    assert [n for n in ignored if n not in json.dumps(parsed, ensure_ascii=False)] == []


COMMANDS = [
    "vllm serve meta-llama/Llama-3.1-70B-Instruct --tensor-parallel-size 4 --max-model-len 32768",
    "CUDA_VISIBLE_DEVICES=0,1 llamafactory-cli train examples/qwen2_lora_sft.yaml",
    "torchrun --nproc_per_node 8 train.py --per_device_train_batch_size 2 \\\n"
    "  --gradient_accumulation_steps 4",
    "python -m sglang.launch_server --model-path Qwen/Qwen2.5-72B --tp 8",
    "docker run ghcr.io/huggingface/text-generation-inference --num-shard 2",
]


def test_the_command_finder_reads_what_it_read():
    """The command pattern (a gated LazyPattern now, Unicode mode as before) finds on every line what the
    compiled pattern finds; a command with a continued line is still joined."""
    from bot.parse.configs import _command
    from bot.parse.configs.launchers import COMMAND_RE

    for question in CORPUS_QUESTIONS[:2]:
        ask_quietly("--", question)  # the second message adds the gates
    assert COMMAND_RE.flags == re.compile(COMMAND_RE.pattern).flags
    lines = [ln for t in CORPUS_QUESTIONS + COMMANDS for ln in t.splitlines()]
    assert [bool(COMMAND_RE.search(ln)) for ln in lines] == [
        bool(COMMAND_RE.compiled.search(ln)) for ln in lines
    ]
    found = _command(COMMANDS[2], "text")
    assert found is not None and found[0].accumulation == 4  # the flag on the continued line


def test_a_pasted_command_is_read_through_the_cli():
    request = json.loads(ask_quietly("--format", "json", "--", COMMANDS[0]))["request"]
    assert request["tp"] == 4 and request["max_model_len"] == 32768


def test_shared_values_are_spread_only_when_a_key_can_be_there():
    """'a 和 b 都是 1' spreads over config keys, each with a '_' or '-': a text with neither is left as
    it is without the four searches; with keys, the value still reaches each key (through the CLI)."""
    from bot.parse.shared_value import SHARED_RES, spread_shared_value

    plain = "全参微调7b都用a100，all in"
    assert spread_shared_value(plain) == plain
    assert all(p.sub("x", plain) == plain for p in SHARED_RES)  # what the searches would have found
    text = "per_device_train_batch_size 和 gradient_accumulation_steps 都是 2"
    spread = "per_device_train_batch_size 2, gradient_accumulation_steps 2"
    assert spread_shared_value(text).startswith(spread)
    question = "Qwen2.5-7B LoRA 微调，per_device_train_batch_size 和 gradient_accumulation_steps 都是 2，A100"
    request = json.loads(ask_quietly("--format", "json", "--", question))["request"]
    assert request["batch_size"] == 2
