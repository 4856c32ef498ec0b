"""Issue 24 item 4 (part s6-u2): a serving context in every phrasing ("做 128k 的推理", "context lengths
all the way to 128k", "3072 tokens per request", "每个请求 6000 token") and MoE experts kept in CPU
memory (llama.cpp ``--n-cpu-moe``, ``-ot exps=CPU``, KTransformers, "专家放内存") as CPU offload. Through
the CLI (``sizing-bot ask``), in both languages; the sentences are written for these tests (none is from
the real-question corpus)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.cli import main


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    code = main(["ask", "--format", "json", text])
    data = json.loads(capsys.readouterr().out)
    assert code == 0, data
    return data


CONTEXTS = [
    ("Serve Mistral-7B for 64k inference on one L40S: how much memory?", 65536),
    ("一张 L40S 部署 Mistral-7B，想做 64k 的推理，显存够吗", 65536),
    ("Can vLLM on 4 H100 keep serving Llama-3.1-70B at context lengths all the way to 100k?", 100000),
    ("4 张 H100 用 vLLM 部署 Llama-3.1-70B，上下文一直到 100k 可以吗", 100000),
    ("Qwen2.5-14B on two A10 with vLLM at 2500 tokens per request, 8 users: does it fit?", 2500),
    ("两张 A10 用 vLLM 部署 Qwen2.5-14B，每个请求 2500 token，8 个用户，放得下吗", 2500),
]


@pytest.mark.parametrize(("text", "tokens"), CONTEXTS)
def test_a_serving_context_in_every_phrasing_is_the_context_sized(
    capsys: pytest.CaptureFixture[str], text: str, tokens: int
) -> None:
    data = ask(capsys, text)
    assert data["request"]["stage"] == "inference"
    assert data["request"]["seq_len"] == tokens
    assert data["report"]["inference"]["context_tokens"] == tokens
    assert not [i for i in data["interpretation"]["ignored"] if i["reason"] == "unread"]


EXPERTS_ON_CPU = [
    "llama-server --n-cpu-moe 24 with Qwen3-235B-A22B Q4_K_M on one RTX 5090: how long a context?",
    "llama.cpp 跑 Qwen3-235B-A22B 的 Q4_K_M，加了 --cpu-moe，一张 5090 能开多大上下文",
    "Running DeepSeek-V3 Q4_K_M through KTransformers on a single 4090 with 512 GB of RAM: enough?",
    "Qwen3-235B-A22B 的专家放内存、注意力放显存，一张 4090 能跑 Q4_K_M 吗",
]


@pytest.mark.parametrize("text", EXPERTS_ON_CPU)
def test_moe_experts_in_cpu_memory_are_a_cpu_offload(capsys: pytest.CaptureFixture[str], text: str) -> None:
    data = ask(capsys, text)
    assert data["request"]["offload"] is True
    named = [i["text"] for i in data["interpretation"]["ignored"]]
    assert not [t for t in named if "24" in t or "moe" in t], named  # the flag and its count are read


@pytest.mark.parametrize(
    "text",
    [
        "llama-server with all layers on the GPU (-ngl 99) for Qwen3-30B-A3B Q4_K_M on one 4090",
        "llama.cpp 跑 Qwen3-30B-A3B 的 Q4_K_M，-ngl 99 全部放 GPU，一张 4090",
    ],
)
def test_experts_on_the_gpu_are_not_offloaded(capsys: pytest.CaptureFixture[str], text: str) -> None:
    assert ask(capsys, text)["request"]["offload"] is False


@pytest.mark.parametrize(
    ("text", "typed", "sized"),
    [
        ("Does Mixtral-8x7B in q5_k_s fit two RTX 3090 with llama.cpp?", "q5_k_s", "q5_k_m"),
        ("llama.cpp 跑 Qwen2.5-32B 的 Q4_K_S，一张 4090 够吗", "q4_k_s", "q4_k_m"),
    ],
)
def test_a_gguf_format_the_sizing_lacks_is_named_with_the_one_sized(
    capsys: pytest.CaptureFixture[str], text: str, typed: str, sized: str
) -> None:
    """Q5_K_S / Q4_K_S are sized as Q5_K_M / Q4_K_M (2–5 % larger: llama.cpp's quantize table), said."""
    data = ask(capsys, text)
    assert data["request"]["precision"] == sized
    named = {i["text"]: i["reason"] for i in data["interpretation"]["ignored"]}
    assert named[f"precision: {typed}"] == "nearest_format"


@pytest.mark.parametrize(
    ("text", "prompt", "total"),
    [
        (
            "vllm bench throughput --input-len 1500 --output-len 500 with Mistral-7B on one L40S: tokens/s?",
            1500,
            2000,
        ),
        (
            "L40S 上 vllm bench 跑 Mistral-7B，--random-input-len 3000 --random-output-len 1000，吞吐多少",
            3000,
            4000,
        ),
    ],
)
def test_a_benchmarks_input_and_output_lengths_are_the_prompt_and_the_sequence(
    capsys: pytest.CaptureFixture[str], text: str, prompt: int, total: int
) -> None:
    data = ask(capsys, text)
    assert data["request"]["prompt_tokens"] == prompt
    assert data["request"]["seq_len"] == total
    assert data["report"]["inference"]["context_tokens"] == total


@pytest.mark.parametrize(
    "text",
    ["What does Mistral-7B need in vLLM for 16k and for 64k context on one L40S?"],
)
def test_two_listed_contexts_size_the_first_and_name_the_second(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """Was: 64k named as repeated. Since s37-left the preposition repeated after 'and' ('for 16k and for
    64k') is read with the list's separator: each length sized in its row of report.per_value."""
    data = ask(capsys, text)
    assert data["request"]["seq_len"] == 16384
    assert [(r["setting"], r["value"]) for r in data["report"]["per_value"]] == [
        ("seq_len", 16384),
        ("seq_len", 65536),
    ]
    assert not data["interpretation"]["ignored"]


def test_two_contexts_asked_each_sized_in_a_row(capsys: pytest.CaptureFixture[str]) -> None:
    """Was: 16k sized, 64k named as repeated. Since s36-lists (issue 24) '16k 和 64k 上下文各要多少'
    sizes each context in a row of report.per_value. Mistral 7B v0.1's layers all slide over a 4,096-token
    window, so its KV cache per sequence stops growing at 4K: both rows need the same memory."""
    data = ask(capsys, "一张 L40S 用 vLLM 部署 Mistral-7B，16k 和 64k 上下文各要多少显存")
    assert data["request"]["seq_len"] == 16384
    assert data["request"]["values_listed"] == [65536]
    rows = data["report"]["per_value"]
    assert [(r["setting"], r["value"], r["gpus"]) for r in rows] == [
        ("seq_len", 16384, 1),
        ("seq_len", 65536, 1),
    ]
    assert rows[0]["memory_gib"] == rows[1]["memory_gib"] > 14.5 / 1.073741824
    assert not data["interpretation"]["ignored"]


@pytest.mark.parametrize(
    ("text", "sized", "named"),
    [
        (
            "Serve Qwen2.5-72B with vLLM on 2 H100 at 8-bit or 5-bit: which fits?",
            "int8",
            {"precision: 5-bit": "no_field"},
        ),
        # s39-lists: two widths written as a list are sized in a row each (report.per_value)
        ("2 张 H100 用 vLLM 部署 Qwen2.5-72B，用 4-bit 还是 8-bit", "int4", {"row: int8": "per_value"}),
        # s32-fixh: the bpw is now sized (request.bits_per_weight), no longer named; the cache still is
        (
            "exllamav2 with Qwen2.5-32B at 4.65bpw on one 4090, Q6 or unquantized cache?",
            4.65,
            {"kv_precision: q6": "no_field"},
        ),
        ("exllamav2 跑 Qwen2.5-32B 的 4.65 bpw，一张 4090，用 Q8 还是 Q4 cache", 4.65, None),
    ],
)
def test_a_second_weight_format_is_named_never_dropped(
    capsys: pytest.CaptureFixture[str], text: str, sized: str | float, named: dict[str, str] | None
) -> None:
    data = ask(capsys, text)
    if isinstance(sized, float):  # a bits per weight (s32-fixh): sized at it, the 4-bit cache no weights
        assert data["request"]["bits_per_weight"] == sized
        assert data["report"]["inference"]["weight_format"] == f"{sized:g}bpw"
    else:
        assert data["request"]["precision"] == sized
    got = {i["text"]: i["reason"] for i in data["interpretation"]["ignored"]}
    if named is None:  # zh: the quantized cache named, no 4-bit weights read from 'Q4 cache'
        assert got["kv_precision: q8"] == "no_field" and "precision: 4.65bpw" not in got
    elif "row: int8" in named:
        rows = [(r["setting"], r["value"]) for r in data["report"]["per_value"]]
        assert rows == [("precision", "int4"), ("precision", "int8")]
        assert "precision: 8-bit" not in got
    else:
        assert named.items() <= got.items(), got
