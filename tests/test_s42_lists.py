"""s42-lists (issue 24 item 4, second attempt): several values of one setting in one question, with the three
causes of the s41 revert (main ab174b88) fixed in the readers, both languages each:

- a memory range measured on the run ('每张卡显存用到 20-22G', 'memory around 20-22GB per card') is an
  observation, never a list of card memories (tests/test_round12_zh_forms.py pins it ``observed``); a range
  of the cards' own memories ('cards with 16-22GB of VRAM', en35-021) still gets a row per end;
- a range of context lengths is sized at its longer end, the shorter named as another setup, wherever it is
  written (tests/test_len_reader.py's reading, s17): also 'from 16k up to 1M tokens' (en37-030,
  huggingface/trl#5713), 'between 8k and 32k', '在 8k 和 32k 之间', '16k to 128k context';
- ``ParseResult.node_counts`` defaults to an immutable ``()``, no builtin factory (test_startup_factories);
- a list of GPU counts with only its last item read ('1/2/4 张 A100') gets a row per count.

Values: 'k' of a length is 1,024 tokens and 'M' 1,048,576 (bot.parse.value_range._UNIT; Qwen2.5-1M's window
is 1,010,000 tokens, its name rounds to 1M); the RTX 4090 has 24 GB (NVIDIA's Ada datasheet)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.parse import ParseResult, parse
from tests.real_questions import answer_json


def _ignored(a: dict[str, Any]) -> set[tuple[str, str]]:
    return {(i["text"], i["reason"]) for i in a["interpretation"]["ignored"]}


def _rows(a: dict[str, Any], setting: str | None = None) -> list[Any]:
    rows = (a.get("report") or {}).get("per_value") or []
    return [r["value"] for r in rows if setting is None or r["setting"] == setting]


# ---- measured memory ranges: observed, no rows ------------------------------------------------------------

MEASURED = [
    ("4 张 4090 部署 Qwen2.5-32B-AWQ，每张卡显存用到 20-22G", ("20", "22")),
    ("Qwen2.5-7B 用 2 张 4090，显存占用 20-22G，能不能加到 32k 上下文", ("20", "22")),
    ("2 RTX 4090s serving Qwen2.5-14B, memory around 20-22GB per card", ("20", "22")),
    ("Qwen2.5-7B on 2 RTX 4090, it uses 20-22GB, can the context go to 32k?", ("20", "22")),
]


@pytest.mark.parametrize(("text", "seen"), MEASURED)
def test_a_measured_memory_range_is_observed_not_listed(text: str, seen: tuple[str, str]) -> None:
    a = answer_json(text)
    assert not _rows(a, "gpu_memory_gib")
    assert {(v, "observed") for v in seen} <= _ignored(a)
    assert a["report"]["hardware"]["memory_gib"] == pytest.approx(24, abs=1)  # the 4090's own 24 GB


CARD_MEMORY_RANGES = [
    # en35-021 (PowerInfer): the cards' own memories, a row per end
    ("Can I run Qwen2.5-32B on consumer cards with 16-22GB of VRAM?", [16, 22]),
    ("Is it possible to run a 4-bit Qwen2.5-32B on consumer cards with 16-24GB of VRAM?", [16, 24]),
    ("16 到 24G 显存的卡能跑 Qwen2.5-14B 吗", [16, 24]),
]


@pytest.mark.parametrize(("text", "rows"), CARD_MEMORY_RANGES)
def test_a_range_of_card_memories_gets_a_row_per_end(text: str, rows: list[int]) -> None:
    a = answer_json(text)
    assert _rows(a, "gpu_memory_gib") == rows
    assert not [t for t, why in _ignored(a) if why == "observed"]


# ---- length ranges: the longer end sized, the shorter named ----------------------------------------------

LENGTH_RANGES = [
    # (text, seq_len sized, shorter end as written)
    ("Fine-tune Qwen2.5-7B on 8 H100 at long context, from 16k up to 1M tokens", 1048576, "16k"),
    ("Fine-tune Qwen2.5-7B on 8 H100, context between 8k and 32k", 32768, "8k"),
    ("Fine-tune Qwen2.5-7B on 8 H100 at 16k to 128k context", 131072, "16k"),
    ("在 8 张 H100 上微调 Qwen2.5-7B，上下文从 16k 一直到 1M", 1048576, "16k"),
    ("在 8 张 H100 上微调 Qwen2.5-7B，上下文长度在 8k 和 32k 之间", 32768, "8k"),
    ("在 8 张 H100 上微调 Qwen2.5-7B，16k 到 128k 的上下文", 131072, "16k"),
    # the length reader's own (tests/test_len_reader.py): unchanged
    ("上下文 8k 到 16k，部署 Qwen2.5-14B，20 并发", 16384, "8k"),
    ("a context of 16k to 32k for Qwen2.5-7B serving, 10 users on an L40S", 32768, "16k"),
]


@pytest.mark.parametrize(("text", "sized", "shorter"), LENGTH_RANGES)
def test_a_length_range_is_sized_at_its_longer_end(text: str, sized: int, shorter: str) -> None:
    a = answer_json(text)
    r = a["request"]
    assert (r["max_model_len"] or r["seq_len"]) == sized
    assert (shorter, "other_setup") in _ignored(a)
    assert not _rows(a, "seq_len")  # one length sized, the other named: no row per end
    assert not r.get("tokens")  # '1M tokens' of a context is no 1M tokens of data


def test_the_far_end_in_m_is_no_data() -> None:
    p = parse("Fine-tune Qwen2.5-7B on 8 H100 at long context, from 16k up to 1M tokens")
    assert (p.request.seq_len, p.request.tokens) == (1048576, None)
    # data said as tokens, with a context length beside it: the data stays data
    p = parse("pretrain a 7B on 1M tokens of data with context length 4k on 8 A100")
    assert p.request.seq_len == 4096


LISTS_NOT_RANGES = [
    # a written list of lengths keeps a row per item: 8k, 32k, 128k = 8,192, 32,768, 131,072 tokens
    ("Llama-3.1-70B serving at 8k, 32k and 128k context on H100, how many?", [8192, 32768, 131072]),
    ("Qwen2.5-7B 推理，上下文 8k、32k 和 128k 分别要几张 4090", [8192, 32768, 131072]),
]


@pytest.mark.parametrize(("text", "rows"), LISTS_NOT_RANGES)
def test_a_list_ending_in_and_is_no_range(text: str, rows: list[int]) -> None:
    assert _rows(answer_json(text), "seq_len") == rows


COUNTED_NOT_LENGTHS = [
    "微调 Qwen2.5-7B，8 张 A100，上下文 4k，数据 10k 到 50k 条",
    "Fine-tune Qwen2.5-7B on 8 A100 with 4k context, 10k to 50k samples",
]


@pytest.mark.parametrize("text", COUNTED_NOT_LENGTHS)
def test_a_range_of_counted_things_is_no_length(text: str) -> None:
    a = answer_json(text)
    assert a["request"]["seq_len"] == 4096
    assert not _rows(a)


# ---- lists of GPU counts ----------------------------------------------------------------------------------

COUNT_LISTS = [
    ("用 1/2/4 张 A100 微调 Qwen2.5-7B 分别要多久", [1, 2, 4]),
    ("用 1、2、4 张 4090 推理 Qwen2.5-7B 分别多快", [1, 2, 4]),
    ("Fine-tune Qwen2.5-7B on 1/2/4 A100, how long each?", [1, 2, 4]),
    ("Serve Qwen2.5-7B on 2/4/8 H100 GPUs: how many tokens per second each?", [2, 4, 8]),
]


@pytest.mark.parametrize(("text", "rows"), COUNT_LISTS)
def test_a_count_list_gets_a_row_per_count(text: str, rows: list[int]) -> None:
    a = answer_json(text)
    assert _rows(a, "gpu_count") == rows
    assert not [t for t, why in _ignored(a) if why == "unread" and t in {str(v) for v in rows}]


NOT_COUNT_LISTS = [
    # one card's memories, ZeRO stages, days, a version, a date range: no rows of counts
    "Fine-tune Llama-3.1-8B on 8 A100 40/80GB",
    "Fine-tune Qwen2.5-7B with zero 2/3 on 3 A100",
    "训练 2/3 天，用 8 张 A100 微调 Qwen2.5-7B",
    "用 8 张 A100 微调 Llama-3.1-8B，1-2 天能完成吗",
    "Fine-tune Llama-3.1-8B on 8 A100 in 1-2 days?",
    "Fine-tune Llama 3.1 8B on 8 A100, 2024-05-01 to 2024-06-01",
    "用 8 张 A100 微调 Llama 3.1 8B，时间 2024-05-01 到 2024-06-01",
]


@pytest.mark.parametrize("text", NOT_COUNT_LISTS)
def test_other_numbers_are_no_count_list(text: str) -> None:
    a = answer_json(text)
    assert not _rows(a)
    assert a["request"]["gpu_count"] in (3, 8)


# ---- start-up ---------------------------------------------------------------------------------------------


def test_node_counts_default_is_no_builtin_factory() -> None:
    # pydantic asks inspect.signature of a builtin factory at schema build: the start-up pins forbid it
    field = ParseResult.model_fields["node_counts"]
    assert field.default_factory is None and field.default == ()  # immutable: no factory frame a parse
    assert parse("Fine-tune Qwen2.5-7B on 8 A100").node_counts == ()
    assert parse("2 或 4 个节点，每个节点 8 张 A800，全参微调 Qwen2.5-7B").node_counts == (16, 32)


# ---- comma lists inside a flag value ----------------------------------------------------------------------

BENCH_LISTS = [
    # llama.cpp's llama-bench: '-p 512,4096' runs a 512- and a 4096-token prompt (examples/llama-bench)
    "llama-bench -p 512,4096 -n 128 with Qwen2.5-7B Q4_K_M on an RTX 4090",
    "用 llama-bench -p 512,4096 -n 128 测 4090 上 Qwen2.5-7B Q4_K_M 的速度",
]


@pytest.mark.parametrize("text", BENCH_LISTS)
def test_a_prompt_list_after_dash_p_is_no_port(text: str) -> None:
    named = _ignored(answer_json(text))
    assert not [t for t, why in named if why == "network_port"]
    assert ("512", "unread") in named and ("4096", "unread") in named  # named, never dropped


PORTS = [
    ("docker run -p 8080:80 vllm serving Qwen2.5-7B on one A100", {"8080", "80"}),
    ("docker run -p 8000 vllm/vllm-openai serving Qwen2.5-7B on one A100", {"8000"}),
    ("一张 A100 用 vLLM 部署 Qwen2.5-7B，端口 8080", {"8080"}),
]


@pytest.mark.parametrize(("text", "ports"), PORTS)
def test_a_port_stays_a_port(text: str, ports: set[str]) -> None:
    named = _ignored(answer_json(text))
    assert {(p, "network_port") for p in ports} <= named
