"""Session 35, general readers (branch s35-gen, issue 24): the working splits' misses by kind, each read as a
way of writing in both languages and tested through the CLI (``sizing-bot ask --format json``):

- **a choice between two counts of one card, the card said once** ('one T4 or two', '1 A100 or 2', 'one T4
  or both', 'one or both of my T4s', '一张 T4 还是两张', '一张还是两张 A100', '单卡还是双卡 A100', '两张 4090
  还是四张'): sized from the smaller count, up to the larger (``gpu_count`` … ``gpu_count_max``), as 'one or
  two A100s' and '1 或 2 张 A100' were (bot.parse.count_choice); not a choice of two cards, nor a count of
  something else after the second number;
- **a host's CPU cores or threads** ('16 核 CPU', 'CPU: 8', '32 CPU cores', '32 vCPUs', '20 核 40 线程'):
  named ``cpu_cores: N`` / ``cpu_threads: N`` as not used (the audit's words, bot.parse.generic_values
  ``host_cores``), 'no_field' on an engine that runs part of the model on the CPU (Ollama, llama.cpp), else
  'not_sized'; never left unread; a GPU's cores ('38 核 GPU') are not the host's;
- **a bare '--' after a pasted command's flags, before a plain word** ('… --max-model-len 16384 -- will this
  fit?'): a dash, the command ends (bot.parse.configs.command_end); the shell's end of options before a
  script is no flag;
- **one request said in the singular** ('17 tokens/s for 1 request', 'how fast is a single request',
  '单个请求能到多少 tokens/s'): one request in flight (``concurrency`` 1), as 'a single user' and '单用户'
  were; never a rate ('1 request per second') nor each request's length ('a single request up to 8k
  tokens', '单个请求最长 8k').

Each reader has sentences it must read and sentences it must leave as they were. The sentences are written
for these tests (none is from the real-question corpus)."""

from __future__ import annotations

import json
from typing import Any

import pytest


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    """The JSON answer of ``sizing-bot ask --format json TEXT``."""
    from bot.cli import main

    assert main(["ask", "--format", "json", text]) in (0, 2)
    return json.loads(capsys.readouterr().out)


def ignored(answer: dict[str, Any]) -> list[tuple[str, str]]:
    return [(i["text"], i["reason"]) for i in answer["interpretation"]["ignored"]]


# -- a choice between two counts of one card -------------------------------------------------------------

CHOICE_READ = [
    ("Can I fine-tune Llama3 8B with LoRA on one T4 or two?", "T4", 1, 2),
    ("Can I fine-tune Llama3 8B with LoRA on one T4 or both?", "T4", 1, 2),
    ("Can I fine-tune Llama3 8B with LoRA on one or both of my T4s?", "T4", 1, 2),
    ("Serving Qwen2.5-32B: 1 A100 or 2?", "A100-SXM4-80GB", 1, 2),
    ("Do I need one A100 or two to serve Qwen2.5-32B?", "A100-SXM4-80GB", 1, 2),
    ("Serving Qwen2.5-32B: two 4090s or four?", "RTX-4090", 2, 4),
    ("微调 Llama3 8B 需要一张 T4 还是两张？", "T4", 1, 2),
    ("部署 Qwen2.5-32B 要一张还是两张 A100？", "A100-SXM4-80GB", 1, 2),
    ("部署 Qwen2.5-32B 用单卡还是双卡 A100？", "A100-SXM4-80GB", 1, 2),
    ("部署 Qwen2.5-32B 用 1 张 A100 还是 2 张？", "A100-SXM4-80GB", 1, 2),
    ("部署 Qwen2.5-32B 用两张 4090 还是四张？", "RTX-4090", 2, 4),
]


@pytest.mark.parametrize(("text", "gpu", "low", "high"), CHOICE_READ)
def test_count_choice_is_a_range(
    capsys: pytest.CaptureFixture[str], text: str, gpu: str, low: int, high: int
):
    """The smaller count sized, up to the larger; the second count is no longer unread nor 'repeated'."""
    answer = ask(capsys, text)
    request = answer["request"]
    assert (request["gpu"], request["gpu_count"], request["gpu_count_max"]) == (gpu, low, high)
    assert not [t for t, reason in ignored(answer) if reason in ("unread", "repeated")]


CHOICE_UNCHANGED = [
    # two cards, one of each count: not one card's range (the first card sized, as before)
    ("Serving Qwen2.5-32B: one A100 or two H100s?", "A100-SXM4-80GB", 1),
    ("部署 Qwen2.5-32B 用一张 A100 还是两张 H100？", "A100-SXM4-80GB", 1),
    # a count of something else after the second number
    ("Fine-tune Llama3 8B on one 4090 or two days on a T4?", "RTX-4090", 1),
    ("一张图还是两张图，Qwen2-VL-7B 在 4090 上推理显存够吗？", "RTX-4090", 1),
    ("Can I fine-tune Llama3 8B on one T4 or 2 nodes?", "T4", 1),
    # 'both' of more than one is no choice of counts
    ("Serve Qwen2.5-32B on two A100s or both of them?", "A100-SXM4-80GB", 2),
]


@pytest.mark.parametrize(("text", "gpu", "count"), CHOICE_UNCHANGED)
def test_count_choice_leaves_others(capsys: pytest.CaptureFixture[str], text: str, gpu: str, count: int):
    request = ask(capsys, text)["request"]
    assert (request["gpu"], request["gpu_count"], request["gpu_count_max"]) == (gpu, count, None)


def test_count_choice_rewrites_only_its_forms():
    """The rewrite itself: the range in the form the count rules read, smaller first."""
    from bot.parse.count_choice import count_choice

    assert count_choice("serving on 4 a100 or 2?") == "serving on 2 or 4 a100?"
    assert count_choice("要一张还是两张 a100?") == "要1 或 2 张 a100 ?"
    assert count_choice("一张图还是两张图") == "一张图还是两张图"
    assert count_choice("one a100 or two h100s") == "one a100 or two h100s"


# -- one request said in the singular --------------------------------------------------------------------

ONE_REQUEST_READ = [
    "I get only 17 tokens per second for 1 request with Llama 3.1 70B on 2x A100 in vLLM. How can I get 30?",
    "Llama 3.1 70B on 2x A100 with vLLM: how fast is a single request?",
    "Llama 3.1 70B on 2x A100 with vLLM: how many tokens per second can one request get?",
    "Qwen2.5-72B 在 2 张 A100 上用 vLLM 部署，单个请求能到多少 tokens/s？",
    "Qwen2.5-72B 在 2 张 A100 上用 vLLM 部署，单条请求要多久？",
]


@pytest.mark.parametrize("text", ONE_REQUEST_READ)
def test_one_request_is_concurrency_one(capsys: pytest.CaptureFixture[str], text: str):
    answer = ask(capsys, text)
    assert answer["request"]["concurrency"] == 1
    assert ("1", "unread") not in ignored(answer)


ONE_REQUEST_UNCHANGED = [
    # a rate, not a load: the default load is sized (16 sequences, estimator default for a service)
    ("Llama 3.1 70B on 2x A100 with vLLM handling 1 request per second: how much memory?", 16, 4096),
    ("Llama 3.1 70B on 2x A100 with vLLM with one request/s: how much memory?", 16, 4096),
    # each request's length, the load asked: the concurrency is the answer, not a stated 1
    ("Serve Llama-3-8B on one L4 with vLLM, a single request up to 8k tokens. How many users?", 4, 8192),
    ("Serve Llama-3-8B on one L4 with vLLM, one request of 8k tokens. How fast?", 16, 8192),
]


@pytest.mark.parametrize(("text", "concurrency", "seq_len"), ONE_REQUEST_UNCHANGED)
def test_one_request_leaves_rates_and_lengths(
    capsys: pytest.CaptureFixture[str], text: str, concurrency: int, seq_len: int
):
    request = ask(capsys, text)["request"]
    assert (request["concurrency"], request["seq_len"]) == (concurrency, seq_len)


def test_one_request_zh_length_is_not_the_load():
    """'单个请求最长 8k': each request's length, not one request in flight (the words alone)."""
    from bot.parse.load_words import single_user

    assert single_user("单个请求能到多少 tokens/s")
    assert not single_user("单个请求最长 8k,能支持多少并发?")
    assert not single_user("单个请求的长度是 8k")
    assert not single_user("每个请求 8k")
    # English: vLLM's bound at boot is no load ('to serve at least one request with the max seq len')
    assert single_user("how fast is a single request?")
    assert not single_user("to serve at least one request with the model's max seq len (32768)")
    assert not single_user("one request per second")


def test_one_request_yields_to_a_stated_load(capsys: pytest.CaptureFixture[str]):
    """A single request's speed beside a stated load: the stated load is sized (16), as before."""
    text = "Llama 3.1 70B on 2x A100 with vLLM gets 40 t/s for a single request and 300 t/s at 16 concurrent."
    assert ask(capsys, text)["request"]["concurrency"] == 16


# -- a dash written '--' after a pasted command ----------------------------------------------------------

DASH_READ = [
    # the flags before the dash are read; the prose after it is no flag's value ('--: will', unknown_key)
    (
        "vllm serve Qwen/Qwen2.5-32B-Instruct --tensor-parallel-size 2 --max-model-len 16384 "
        "--gpu-memory-utilization 0.9 -- will this fit on two L40S?",
        {"gpu": "L40S", "gpu_count": 2, "tp": 2, "max_model_len": 16384, "gpu_memory_utilization": 0.9},
    ),
    (
        "torchrun --nproc_per_node 8 train.py --model_name_or_path meta-llama/Llama-3.1-8B "
        "--per_device_train_batch_size 2 --gradient_accumulation_steps 4 --bf16 "
        "-- how many tokens/s on H100?",
        {"gpu": "H100-SXM5-80GB", "gpu_count": 8, "batch_size": 2, "global_batch": 64, "precision": "bf16"},
    ),
    (
        "vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 8192 -- on one L4, how many users?",
        {"gpu": "L4", "gpu_count": 1, "max_model_len": 8192},
    ),
]


@pytest.mark.parametrize(("text", "fields"), DASH_READ)
def test_dash_after_a_command_is_prose(capsys: pytest.CaptureFixture[str], text: str, fields: dict[str, Any]):
    answer = ask(capsys, text)
    assert {k: answer["request"][k] for k in fields} == fields
    assert not [t for t, reason in ignored(answer) if reason == "unknown_key"]


DASH_UNCHANGED = [
    # the shell's end of options before a script: the script's flags are still read, '--' is no key
    (
        "accelerate launch --num_processes 8 -- train.py --model_name_or_path meta-llama/Llama-3.1-8B --bf16 "
        "on 8 H100s, how long?",
        {"gpu": "H100-SXM5-80GB", "gpu_count": 8, "model": "Llama-3.1-8B"},
    ),
    # Chinese after the command: the CJK text ends it, as before
    (
        "vllm serve Qwen/Qwen2.5-32B-Instruct --tensor-parallel-size 2 --max-model-len 16384 "
        "-- 两张 L40S 够吗？",
        {"gpu": "L40S", "gpu_count": 2, "tp": 2, "max_model_len": 16384},
    ),
    # a flag's own value that is a word ('-fa on') is still its value
    (
        "llama-server -m qwen2.5-7b-instruct-q4_k_m.gguf -c 8192 -ngl 99 on one RTX 4060 8GB, how fast?",
        {"gpu": "RTX-4060", "gpu_count": 1},
    ),
]


@pytest.mark.parametrize(("text", "fields"), DASH_UNCHANGED)
def test_dash_leaves_commands(capsys: pytest.CaptureFixture[str], text: str, fields: dict[str, Any]):
    answer = ask(capsys, text)
    assert {k: answer["request"][k] for k in fields} == fields
    assert not [t for t, reason in ignored(answer) if t.startswith("--:")]


def test_command_end_at_a_dash():
    """Where the command ends: at a bare '--' before a plain word, not before a script."""
    from bot.parse.configs import command_end

    line = "vllm serve m --max-model-len 8192 -- will this fit?"
    assert line[: command_end(line, 0)].rstrip() == "vllm serve m --max-model-len 8192"
    line = "accelerate launch --num_processes 8 -- train.py --bf16"
    assert command_end(line, 0) == len(line)


# -- a host's CPU cores ----------------------------------------------------------------------------------

CORES_READ = [
    # no GPU said: the cores change the time (no field for them yet)
    ("More than 1 token/s on an 8 vCPU machine for Llama 2 7B?", [("cpu_cores: 8", "no_field")]),
    ("ollama 跑 qwen2.5:72b，4090 加 64G 内存，CPU 16 核，能跑多快？", [("cpu_cores: 16", "no_field")]),
    (
        "lmdeploy 推理 Qwen2.5-14B，小服务器 48G 显存、16 核 CPU，显存和并发怎么限制？",
        [("cpu_cores: 16", "not_sized")],
    ),
    (
        "Serving Qwen2.5-14B with vLLM on one A100, the host has 32 CPU cores and 256GB RAM.",
        [("cpu_cores: 32", "not_sized")],
    ),
    (
        "Serving Qwen2.5-14B with vLLM on one A100, host: 32 vCPUs, 256GB RAM.",
        [("cpu_cores: 32", "not_sized")],
    ),
    (
        "RTX 5090 32GB；CPU：Intel Xeon W7-2475X（20 核 40 线程），最多能跑 Qwen2.5 的哪个尺寸？",
        [("cpu_cores: 20", "not_sized"), ("cpu_threads: 40", "not_sized")],
    ),
]


@pytest.mark.parametrize(("text", "named"), CORES_READ)
def test_host_cores_are_named(capsys: pytest.CaptureFixture[str], text: str, named: list[tuple[str, str]]):
    items = ignored(ask(capsys, text))
    assert all(n in items for n in named)
    numbers = {n.split(": ")[1] for n, _ in named}
    assert not [t for t, reason in items if reason == "unread" and t in numbers]


CORES_UNCHANGED = [
    # a GPU's cores (an Apple chip's): not the host's CPU, and the card is read as before
    ("Mac Studio M2 Max 38 核 GPU 64G 能跑 Qwen2.5-32B 吗？", "Apple-M2-Max-64GB"),
    # layers to the CPU are llama.cpp's offload, no core count
    ("用 llama.cpp 在 4090 上跑 Qwen2.5-72B，卸载 40 层到 CPU，速度多少？", "RTX-4090"),
    # a memory after 'CPU:' is no core count
    ("Serving Qwen2.5-14B with vLLM on one A100, CPU: 256GB of RAM.", "A100-SXM4-80GB"),
]


@pytest.mark.parametrize(("text", "gpu"), CORES_UNCHANGED)
def test_host_cores_leave_others(capsys: pytest.CaptureFixture[str], text: str, gpu: str):
    answer = ask(capsys, text)
    assert answer["request"]["gpu"] == gpu
    assert not [t for t, _ in ignored(answer) if t.startswith(("cpu_cores", "cpu_threads"))]


def test_host_cores_bounds():
    """A whole count from 1 to 1024, with no magnitude: '1.5 cores' or '2k cores' is no host's count."""
    from bot.parse.generic_values import host_cores
    from bot.parse.numbers import NumberToken

    s = "cpu 16 核"
    tok = NumberToken(16.0, 4, 6, "16")
    assert host_cores(s, tok, "cpu ", " 核", {}).field == "cpu_cores"
    assert host_cores(s, tok, "cpu ", " 核", {"runtime": "llama.cpp"}).reason == "no_field"
    assert host_cores(s, NumberToken(1.5, 4, 7, "1.5"), "cpu ", " 核", {}) is None
    assert host_cores(s, NumberToken(2000.0, 4, 6, "2k", mag="k"), "cpu ", " cores", {}) is None
