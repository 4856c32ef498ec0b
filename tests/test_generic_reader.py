"""The general readers of issue 24 (session 10): a key–value grammar over one vocabulary of every request
field's names (:mod:`bot.parse.generic_values`), and the "no value left behind" audit
(:mod:`bot.parse.left_behind`). Sentences written for these tests, in both languages, none from the
real-question corpus; each asserts the exact request values or the items named as not used, through the
JSON contract (``sizing-bot ask --format json``, in process)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from bot.parse.assemble import _Parse
from bot.parse.generic_values import ACCUMULATION, WORDS, vocabulary
from tests.cli_run import ask_in_process, named


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    return ask_in_process(capsys, text)


PLACED = [
    # English: KEY <assignment / filler> VALUE, VALUE <unit> KEY
    ("Fine-tuning Qwen2.5-7B with LoRA on 2 4090s, the rank we picked is 32", {"lora_rank": 32}),
    ("LoRA on Mistral-7B, one A10G, lora rank was 16, sequence length I used 1024",
     {"lora_rank": 16, "seq_len": 1024}),
    ("DPO on Llama-3-8B with 8 A100s, sequence length set at 4096", {"seq_len": 4096}),
    ("LoRA SFT of Qwen2-7B on one A100, batch size we use: 8", {"batch_size": 8}),
    ("Serve Qwen2-7B on one L4, context window is 8k tokens, and 20 concurrent users", {"seq_len": 8192}),
    ("Serving Llama-3-70B on 8 L40S with vLLM, tensor parallel is 8, we expect concurrency around 64",
     {"tp": 8, "concurrency": 64}),
    ("GRPO on Qwen2.5-3B, 4 H100, group size of 16, completion length set to 2048",
     {"num_generations": 16, "max_completion_length": 2048}),
    ("Pretraining a 1B model on 64 H100s, pipeline parallel size set to 2, global batch size of 1024",
     {"pp": 2, "global_batch": 1024}),
    ("Full fine-tune Llama-3-8B on 8 H100, gradient accumulation I set to 4, batch size per gpu 2",
     {"batch_size": 2, "global_batch": 64}),
    ("SFT of Qwen2-1.5B on 2 A100s: per_device_train_batch_size==4 and num_generations==4 for GRPO",
     {"batch_size": 4, "num_generations": 4}),
    ("vLLM serving Qwen2.5-14B on two A100s, the concurrency we expect is 30", {"concurrency": 30}),
    ("Full SFT of Qwen2-7B on 8 A100s, the global batch size was 256", {"global_batch": 256}),
    # Chinese
    ("全参微调 Qwen2.5-14B，8 张 H800，序列长度我设的 4096", {"seq_len": 4096}),
    ("LoRA 微调 Qwen2-7B，8 张 A100，梯度累积步数我开的 16，每卡 batch 2",
     {"batch_size": 2, "global_batch": 256}),
    ("GRPO 训练 Qwen2.5-7B，8 张 H100，每个 prompt 采样数设为 8", {"num_generations": 8}),
    ("vLLM 部署 Qwen2.5-72B，4 张 A100，张量并行度设置成 4，并发数大概 50", {"tp": 4, "concurrency": 50}),
    ("用 2 张 4090 做 LoRA 微调 Qwen2-7B，lora 秩我用的 16", {"lora_rank": 16}),
    ("SFT 微调 Qwen2.5-7B，8 张 A100，全局批大小调到 128", {"global_batch": 128}),
    ("用 vLLM 部署 Qwen2.5-14B，两张 A100，并发用户数预计 30", {"concurrency": 30}),
    ("LoRA 微调 Qwen2-7B，batch 设置成 4，4 张 A100", {"batch_size": 4}),
    ("部署 Qwen2-7B，单张 L4，上下文长度是 8k", {"seq_len": 8192}),
    ("全量微调 Llama-3-8B，8 张 H100，梯度累积设成 8，批大小 2", {"batch_size": 2, "global_batch": 128}),
    ("DPO 训练 Qwen2-7B，4 张 A800，lora 秩是 64 的 lora", {"lora_rank": 64}),
    ("vLLM 部署 Llama-3-70B，8 张 L40S，张量并行我开的 8", {"tp": 8}),
    ("GRPO 训练 Qwen2.5-3B，4 张 H100，组大小为 16", {"num_generations": 16}),
    ("全量微调 Qwen2-7B，8 张 A100，训练轮数我们设了 3", {"epochs": 3}),
    ("用 8 张 H100 预训练 1B 模型，流水线并行数为 2，张量并行数为 4", {"pp": 2, "tp": 4}),
]  # fmt: skip


@pytest.mark.parametrize(("text", "want"), PLACED)
def test_a_fields_name_beside_a_number_places_it(
    capsys: pytest.CaptureFixture[str], text: str, want: dict[str, Any]
) -> None:
    data = ask(capsys, text)
    got = {k: data["request"][k] for k in want}
    assert got == want, (got, data["interpretation"]["ignored"])
    placed = {str(v) for v in want.values()}
    assert not placed & set(named(data)), named(data)  # a number used is never named


NOT_PLACED = [
    # a negation, a bound, an old value, a field of another job or method, a value beyond its bounds
    ("Full fine-tune of Qwen2-7B on 8 A100s, batch size is not 4", "batch_size", "4"),
    ("LoRA on Llama-3-8B, 2 A100s, gradient accumulation above 64 OOMs", "global_batch", "64"),
    ("LoRA on Qwen2-7B with 4 A100s, lora rank lowered from 16 to 8", "lora_rank", "16"),
    ("Serve Qwen2-7B with vLLM on 1 A100, group size 8", "num_generations", "8"),
    ("SFT of Qwen2-7B on 8 A100s, sequence length less than 512 works", "seq_len", "512"),
    ("LoRA 微调 Qwen2-7B，8 张 A100，batch 不是 4 而是 2", "batch_size", "4"),
    ("LoRA 微调 Qwen2-7B，单张 A100，梯度累积小于 32 才不 OOM", "global_batch", "32"),
    ("LoRA 微调 Qwen2-7B，两张 A100，lora 秩从 64 降到 8", "lora_rank", "64"),
    ("vLLM 部署 Qwen2-7B，单张 A100，每个 prompt 采样数 8", "num_generations", "8"),
    # review s10 item 1: a flag's bare word ('--parallel' → 'parallel') is no key in prose
    ("serve Mixtral 8x7B on 8 H100 with expert parallel 8", "concurrency", "8"),
    ("部署 Qwen2.5-7B，8 张 H100，专家并行 8", "concurrency", "8"),
    # item 2: a closed list of fillers; ':' joins a key to the value right after it, not ': we have 2'
    ("full fine-tune Qwen2.5-7B on 8 A100, context: we have 2 teams sharing them", "seq_len", "2"),
    ("全量微调 Qwen2.5-7B，8 张 A100，上下文：我们有 2 个团队", "seq_len", "2"),
    ("LoRA 微调 Qwen2-7B，4 张 A100，上下文长度：团队有 2 个", "seq_len", "2"),
    # item 4: a bound is never placed
    ("serve Qwen2.5-7B on 1 A100 with a context of at least 16384 tokens", "seq_len", "16384"),
    ("serve Qwen2.5-7B on 1 A100, concurrency is at most 64", "concurrency", "64"),
    ("LoRA on Qwen2-7B with 4 A100s, lora rank up to 64", "lora_rank", "64"),
    ("LoRA on Qwen2-7B, 4 A100s, batch size at least 4", "batch_size", "4"),
    ("部署 Qwen2.5-7B，单张 A100，并发最多 64", "concurrency", "64"),
    # s19-fxe: a bound said to work is this job's limit, not another setup's value
    ("LoRA on Qwen2-7B with 4 A100s, batch size under 8 works", "batch_size", "8"),
    ("LoRA 微调 Qwen2-7B，4 张 A100，batch 小于 8 可以", "batch_size", "8"),
    ("LoRA 微调 Qwen2-7B，4 张 A100，lora 秩最多 64", "lora_rank", "64"),
    ("LoRA 微调 Qwen2-7B，4 张 A100，batch 至少 4", "batch_size", "4"),
]


REASON = {
    "LoRA 微调 Qwen2-7B，两张 A100，lora 秩从 64 降到 8": "replaced_by_later_value",
    "serve Mixtral 8x7B on 8 H100 with expert parallel 8": "expert_parallel",
    "部署 Qwen2.5-7B，8 张 H100，专家并行 8": "expert_parallel",
}
"""A more specific reason than 'unread' where a reader names the number (review s11 item 14: the earlier
value of 'from 64 down to 8'; s47 trialfix #6: an expert-parallel degree, bot.parse.expert_degree)."""
NAMED_AS = {
    "serve Mixtral 8x7B on 8 H100 with expert parallel 8": "expert_parallel: 8",
    "部署 Qwen2.5-7B，8 张 H100，专家并行 8": "expert_parallel: 8",
}
"""The text a reader names the number with, where it names its setting too (s47 trialfix #6)."""


@pytest.mark.parametrize(("text", "field", "number"), NOT_PLACED)
def test_a_number_the_grammar_cannot_place_stays_named(
    capsys: pytest.CaptureFixture[str], text: str, field: str, number: str
) -> None:
    data = ask(capsys, text)
    assert data["request"][field] != int(number)
    assert named(data).get(NAMED_AS.get(text, number)) == REASON.get(text, "unread"), named(data)


def test_context_parallel_is_named_with_its_degree(capsys: pytest.CaptureFixture[str]) -> None:
    """'context parallel 4' is no load (review s10 item 1); since s32-fixc it is named as sequence/context
    parallelism with its degree, not modelled (bot/parse/seq_parallel.py), instead of a bare unread '4'."""
    data = ask(capsys, "serve Mixtral 8x7B on 8 H100, context parallel 4")
    assert data["request"]["concurrency"] != 4
    assert named(data) == {"sequence parallelism, degree 4": "sequence_parallel"}


@pytest.mark.parametrize(
    "text",
    [
        "GRPO on Qwen2.5-3B OOMs: NPROC_PER_NODE=7 on 8 GPUs. How much memory?",
        "Qwen2.5-3B 的 GRPO 显存不够：NPROC_PER_NODE=7 on 8 GPUs，要多少显存？",
    ],
)
def test_a_machines_size_is_the_count_readers_alone(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """'gpus per node' (the launcher key rewritten) beside '8 GPUs' is no machine of 8: the count
    readers set gpus_per_node with its node count, the grammar never does (the 7 processes are sized and
    the 8 GPUs named)."""
    data = ask(capsys, text)
    assert data["request"]["gpu_count"] == 7 and data["request"]["gpus_per_node"] is None
    assert named(data).get("8") == "repeated", named(data)  # a second GPU count, named as not used


DROPPED = [
    "LoRA on Qwen2-7B on one A100, lora rank set to 8192",
    "LoRA 微调 Qwen2-7B，单张 A100，lora 秩设成 8192",
]


@pytest.mark.parametrize("text", DROPPED)
def test_a_value_a_reader_dropped_is_named_by_the_audit(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """8192 is beyond lora_rank's bound (4096): the rank reader masked it and dropped it in silence; the
    audit names it as typed."""
    data = ask(capsys, text)
    assert data["request"]["lora_rank"] is None
    assert named(data).get("8192") == "unread"


def test_flag_words_and_other_meanings_are_no_keys() -> None:
    """Review s10 items 1 and 6: llama.cpp's '--parallel' is no bare 'parallel' key (expert/context
    parallel), a knowledge 'cutoff' is no truncation length, and a 'group size' is GRPO's only when an RL
    algorithm is stated (a GPTQ group size 128 is not 128 generations)."""
    from bot.parse.generic_values import place_unread
    from bot.parse.numbers import scan_numbers

    vocab = vocabulary()
    assert "parallel" not in vocab and "cutoff" not in vocab
    assert vocab["cutoff length"] == "seq_len" and vocab["max-model-len"] == "max_model_len"
    s = "gptq group size 128"
    toks = scan_numbers(s)
    assert place_unread(s, toks, {"stage": "finetune", "method": "qlora", "algorithm": None}, None) == []
    placed = place_unread(s, toks, {"stage": "finetune", "method": "lora", "algorithm": "grpo"}, None)
    assert [(p.field, p.value) for p in placed] == [("num_generations", 128)]


def test_the_vocabulary_reuses_the_config_tables() -> None:
    """Keys of the pasted-config handlers and the serving flags are in the vocabulary, each with the field
    its handler sets (bot.parse.configs.training.HANDLERS, bot.parse.configs.launchers.SERVE_FLAGS)."""
    vocab = vocabulary()
    assert vocab["per_device_train_batch_size"] == "batch_size"
    assert vocab["gradient_accumulation_steps"] == ACCUMULATION
    assert vocab["cutoff_len"] == "seq_len"
    assert vocab["num_generations"] == "num_generations"
    assert vocab["tensor-parallel-size"] == "tp"
    assert vocab["max-model-len"] == "max_model_len"
    assert all(vocab[w] == f for f, words in WORDS.items() for w in words)


QUESTIONS = json.loads((Path(__file__).parent / "data" / "questions.json").read_text(encoding="utf-8"))
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _audited(text: str) -> tuple[list[str], set[float]]:
    """The numbers the audit names for ``text``, and the values the request uses (numeric fields)."""
    p = _Parse(text)
    result = p.run()
    before = set(p.unused())
    audit = [raw for raw, why in result.unused_numbers if (raw, why) not in before]
    values = vars(result.request).values()
    used = {float(v) for v in values if isinstance(v, int | float) and not isinstance(v, bool)}
    return audit, used


@pytest.mark.parametrize("question", QUESTIONS, ids=[q["id"] for q in QUESTIONS])
def test_the_audit_never_names_a_number_that_is_used(question: dict[str, Any]) -> None:
    """Property over the question corpus: no number the audit names is a value the request uses, unless
    the question states it twice (one use, one not)."""
    text = question["text"]
    audit, used = _audited(text)
    for raw in audit:
        value = float(_NUMBER.search(raw).group())
        said = len(re.findall(rf"(?<![\d.]){re.escape(raw)}(?!\d|\.\d)", text))
        assert value not in used or said > 1, (raw, text)


def test_a_used_number_is_not_offered_again_for_its_text() -> None:
    """Review s10 item 12: the tokens a serving question dropped (named unread) are offered to the
    grammar by their role, not by their text: a used count '8' that reads the same, beside a key, stays
    used and fills no second field."""
    from bot.parse.numbers import scan_numbers
    from bot.parse.roles import Role

    p = _Parse("x")
    p.s = "concurrency 8 cards, holds 8 tokens"
    count, tokens = scan_numbers(p.s)
    p.f = {"stage": "inference", "method": None, "algorithm": None}
    p.roles = [Role("gpu_count", 8, count), Role("tokens", 8, tokens)]
    p.used = {id(r) for r in p.roles}
    p.dropped_roles = [p.roles[1]]
    p.named_unused = [("8", "unread")]
    p._generic()
    assert p.f.get("concurrency") is None
    assert ("8", "unread") in p.named_unused


def _masking(s0: str, *parts: str) -> str:
    """``s0`` with each of ``parts`` blanked, as a reader masks what it read."""
    for part in parts:
        i = s0.index(part)
        s0 = s0[:i] + " " * len(part) + s0[i + len(part) :]
    return s0


@pytest.mark.parametrize(
    ("field", "value", "dropped"),
    [("seq_len", 2048, "2"), ("deadline_days", 28, "4"), ("concurrency", 300, "3"), ("budget", 2e4, "2")],
)
def test_the_audit_compares_each_field_in_its_own_units(field: str, value: float, dropped: str) -> None:
    """Review s10 item 10: a masked-and-dropped number is named unless a field holds it in that field's
    own units (a '2' is no seq_len of 2048 in a rank, a '4' no 28-day deadline, a '3' no 300 users); the
    number a field does hold in its units stays unnamed ('2k' tokens, '4 weeks', '2万' yuan)."""
    from bot.parse.left_behind import left_behind

    s0 = f"foo rank {dropped} bar"
    lost = left_behind(s0, _masking(s0, f"rank {dropped}"), {field: value}, [])
    assert lost == [dropped]
    said = {"seq_len": "2k", "deadline_days": "4 weeks", "concurrency": "300", "budget": "2万"}[field]
    s0 = f"foo {said} bar"
    assert left_behind(s0, _masking(s0, said), {field: value}, []) == []


def test_the_audit_names_each_place_a_number_was_dropped() -> None:
    """Review s10 item 10: two different dropped tokens that read the same are two items, not one."""
    from bot.parse.left_behind import left_behind

    s0 = "rank 7 and alpha 7 here"
    assert left_behind(s0, _masking(s0, "rank 7", "alpha 7"), {"seq_len": 2048}, []) == ["7", "7"]


@pytest.mark.parametrize("verb", __import__("bot.parse.phrasing_zh", fromlist=["x"]).SET_VERBS_ZH)
def test_one_list_of_setting_verbs_serves_both_readers(verb: str) -> None:
    """Review s10 item 5: the general reader joins a key to its value by every setting verb of the
    Chinese prose reader (bot.parse.phrasing_zh.SET_VERBS_ZH, one list): '梯度累积{verb} 8'."""
    from bot.parse.generic_values import place_unread
    from bot.parse.numbers import scan_numbers

    s = f"梯度累积{verb} 8"
    placed = place_unread(s, scan_numbers(s), {"stage": "finetune"}, None)
    assert [(p.field, p.value) for p in placed] == [(ACCUMULATION, 8)]
    assert vocabulary()["显存占用比例"] == "gpu_memory_utilization"  # the words of bot.parse.settings.UTIL_RE
