"""Session 21 (issue 24, part gen): readers of how people write, one per kind of fault left on the working
splits of the real questions — each rule in both languages, with sentences written for these tests (none is
from the real-question corpus), through the CLI (``sizing-bot ask --format json``, in process).

- A KV cache's type in words: 'an FP16 KV cache', 'the KV cache quantized to q4_0', 'KV 缓存设为 bf16'
  (:mod:`bot.parse.kv_cache_types`; before, the type was read as the weights' format), and LMDeploy's
  ``--quant-policy 8`` in a command named as the int8 KV cache it sets (lmdeploy/cli/utils.py: 0 none,
  4 int4 KV, 8 int8 KV).
- A tool no table has, in more of a tool's places (:mod:`bot.parse.tool_slots`, :mod:`bot.parse.lower_tools`):
  the object of 'run' before a version, 'on' or a clause's end ('Running ds4 on an RTX 6000'), the first of
  two compared ('compared ROLL with verl', '对比了 ROLL 和 verl'), a job's participle then 'with X' ending the
  clause ('be fine-tuned with opensloth?'), and 'With X' opening a sentence whose subject did the job ('With
  lolcats I could train …'): named as typed, never dropped.
- Serving said by running or launching a model ('运行 … 的最小 GPU 内存', '启动命令起不来'): the stage is
  serving when no training word is there (:data:`bot.parse.lexicon.WEAK_INFERENCE_RE`), even without a
  model the catalog has.
- A serving benchmark's prompt count is its load ('a benchmark of 32 prompts', ``--num-prompts 5000``,
  '压测发了 200 个 prompt'): vLLM's benchmark_serving.py and SGLang's bench_serving send every prompt at
  time 0 unless a request rate or ``--max-concurrency`` is set (:func:`bot.parse.more_roles.sent_at_once`).
- The host's memory said as a requirement compared with a size ('the minimum RAM requirement higher than
  8 GB', 'a system memory of at least 16 GB', '机器内存需求至少 32G'): the host's memory
  (:data:`bot.parse.prose_forms.HOST_MEMORY_RE`; before, the size was unread).
- A span before now ('two months ago', 'a couple of months back', '两个月前', '半年前') says when something
  happened: named (``time_ago``), never this job's deadline (:mod:`bot.parse.time_ago`; before, 60 days).
- LongLoRA is LoRA with shifted sparse attention (Chen et al. 2023, arXiv:2309.12307): a LoRA job.
- A plain batch size said of verl or OpenRLHF is their global batch (verl ``data.train_batch_size``, OpenRLHF
  ``--train_batch_size``: :mod:`bot.parse.rl_batch`), named as such (``tool_global_batch``); a per-GPU or
  micro batch stays the micro-batch.
- An eval batch (``per_device_eval_batch_size``) is named, never the training micro-batch; a key's micro-batch
  wins over a batch said in prose; a bare ``batch_size`` equal to the micro-batch is that micro-batch again.
- The cards' count inside the memory in brackets after a card ('H200（8*141G）', 'H100 (8x80GB)') is the
  count of that card, unless the brackets follow nodes ('三台 A100 服务器（8×40G）': per node).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.cli_run import ask_in_process, named


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    return ask_in_process(capsys, text)


def ask_any(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    """The JSON answer whether or not it sized anything (exit 0, or 2 without a model to size)."""
    from bot.cli import main

    code = main(["ask", "--format", "json", text])
    assert code in (0, 2)
    return json.loads(capsys.readouterr().out)


KV_IN_WORDS = [
    ("Serve Llama-3.1-8B with vLLM on one L40S with an FP16 KV cache and 32k context.", "fp16", "bf16"),
    ("Qwen2.5-32B Q4_K_M on llama.cpp, the KV cache quantized to q8_0, 64k, one 4090.", "q8_0", "q4_k_m"),
    ("Qwen2.5-7B on vLLM on an A10, KV cache in bf16: how many users at 8k?", "bf16", "bf16"),
    ("Qwen2.5-14B 用 llama.cpp 跑，KV cache 量化成 q4_0，一张 4090，上下文 32k。", "q4_0", "q8_0"),
    ("Qwen2.5-7B 用 vLLM 部署在 A10 上，fp16 的 KV 缓存，能撑多少并发？", "fp16", "bf16"),
    ("Qwen2.5-7B 在 A10 上用 vLLM 推理，KV 缓存设为 bf16，32k 上下文。", "bf16", "bf16"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "kv", "weights"), KV_IN_WORDS)
def test_a_kv_cache_type_in_words_is_the_caches_not_the_weights(
    capsys: pytest.CaptureFixture[str], text: str, kv: str, weights: str
) -> None:
    request = ask(capsys, text)["request"]
    assert request["kv_precision"] == kv
    assert request["precision"] == weights  # the weights keep their own (or the engine's default) format


KV_NOT_A_TYPE = [
    "Qwen2.5-7B fp16 on vLLM, KV cache at 32k context, one A10: how many users?",
    "Qwen2.5-7B 用 fp16 部署，KV 缓存大概多少？A10 上 vLLM 32k。",
    "Llama-3.1-8B in FP16 weights with an FP8 KV cache on vLLM, one L40S.",
]


@pytest.mark.parametrize("text", KV_NOT_A_TYPE)
def test_weights_precision_beside_a_kv_cache_word_stays_the_weights(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    request = ask(capsys, text)["request"]
    assert request["precision"] == "fp16"
    assert request.get("kv_precision") in (None, "fp8")


QUANT_POLICY_IN_A_COMMAND = [
    "lmdeploy serve api_server ./Qwen2.5-14B-Instruct-AWQ --tp 2 --quant-policy 8 on two 3090s",
    "命令：lmdeploy serve api_server ./internlm2-chat-20b --tp 2 --quant-policy 4，两张 A10，上下文多长？",
    "Two A10s: lmdeploy serve api_server Qwen/Qwen2.5-7B-Instruct --quant-policy 8 --session-len 32768",
]


@pytest.mark.parametrize("text", QUANT_POLICY_IN_A_COMMAND)
def test_lmdeploys_quant_policy_flag_names_the_kv_caches_integer_type(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    bits = "8" if "policy 8" in text else "4"
    answer = ask(capsys, text)
    if bits == "8":  # s46 trialfix #6: lmdeploy's int8 cache is sized, one byte a value (was no_field)
        assert answer["request"]["kv_precision"] == "int8"
        assert f"kv_precision: int{bits} (--quant-policy {bits})" not in named(answer)
        return
    assert named(answer).get(f"kv_precision: int{bits} (--quant-policy {bits})") == "no_field"


TOOLS_IN_PLACE = [
    ("Running ds4 on an RTX 6000 (96GB) with 100K ctx: can the KV cache go to RAM?", "runtime: ds4"),
    ("I'm considering a DGX Spark to run ds4 v0.4.2. How much memory at 766K context?", "runtime: ds4"),
    ("I run q27 on an A10G with about 22 GB of usable VRAM; how long a context fits?", "runtime: q27"),
    ("I compared ROLL with verl on 4 GPUs with a 3B model and batch size 8.", "training_tool: ROLL"),
    ("Can Qwen3-235B-A22B be fine-tuned with opensloth? How much VRAM?", "training_tool: opensloth"),
    ("With lolcats I could train Llama 8B at sequence length 1024 on 24GB GPUs.", "training_tool: lolcats"),
    ("我在 4 张卡上对比了 ROLL 和 verl，3B 模型，batch size 8，ROLL 快很多。", "training_tool: ROLL"),
    ("用 opensloth 微调 Qwen3-30B-A3B 要多少显存？", "training_tool: opensloth"),
    ("在 DGX Spark 上用 ds4 跑，766K 上下文要多少内存？", "runtime: ds4"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "item"), TOOLS_IN_PLACE)
def test_a_tool_no_table_has_is_named_as_typed_in_its_place(
    capsys: pytest.CaptureFixture[str], text: str, item: str
) -> None:
    assert item in named(ask_any(capsys, text))


NO_TOOL_IN_PLACE = [
    "Can I run Qwen3-32B on two 4090s?",
    "I run Llama-3-8B on an A10G: how many users at 8k?",
    "With more GPUs I could train the 70B faster: how many A100s for 1T tokens?",
    "Llama-3-8B fine-tuned with lora. How much VRAM on a 4090?",
    "我对比了 lora 和 qlora，7B 模型在 4090 上各要多少显存？",
    "With fsdp we trained Qwen2.5-7B on 8 A100s; how long for 1B tokens?",
]


@pytest.mark.parametrize("text", NO_TOOL_IN_PLACE)
def test_a_model_a_method_or_a_word_in_a_tools_place_is_no_tool(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    items = named(ask_any(capsys, text))
    assert not [i for i in items if i.startswith(("runtime:", "training_tool:"))], items


SERVING_BY_RUNNING = [
    "想问一下运行 GLM-4.5V-FP8 的最小 GPU 内存大概是多少？单卡 A100 上运行时会报内存不足。",
    "我有 4 张 4090，cpu 内存只有 128G，用 Lvllm 的启动命令起不来。",
    "运行 Qwen2.5-72B-AWQ 最少要几张 A10？",
    "What is the minimum GPU memory to run GLM-4.5V-FP8? One A100 runs out of memory.",
    "I have four 4090s and 128GB of CPU RAM; the Lvllm example I run gets OOM-killed.",
    "Can I run Qwen2.5-72B-AWQ on two A10s?",
]


@pytest.mark.parametrize("text", SERVING_BY_RUNNING)
def test_running_or_launching_a_model_is_serving(capsys: pytest.CaptureFixture[str], text: str) -> None:
    assert ask_any(capsys, text)["request"]["stage"] == "inference"


TRAINING_LAUNCHED = [
    ("启动训练 7B 模型要几张 A100？", "pretrain"),
    ("8 张 A100 运行预训练 7B 模型 1T token 要多久？", "pretrain"),
    ("运行 ms-swift 微调 Qwen2.5-7B 要多少显存？", "finetune"),
    ("How many A100s to run pre-training of a 7B model on 1T tokens?", "pretrain"),
]


@pytest.mark.parametrize(("text", "stage"), TRAINING_LAUNCHED)
def test_running_a_training_job_stays_training(
    capsys: pytest.CaptureFixture[str], text: str, stage: str
) -> None:
    assert ask_any(capsys, text)["request"]["stage"] == stage


BENCHMARK_LOAD = [
    ("A benchmark of 32 prompts at 1024 in / 1024 out on Llama-3.1-70B, vLLM, 4 H100s: throughput?", 32),
    ("python3 -m sglang.bench_serving --backend sglang --num-prompts 5000, Qwen2.5-7B, one A100: OOM?", 5000),
    ("Llama-3.1-8B on an L4 with vLLM: I send 64 prompts at once, how much KV cache?", 64),
    ("用 vLLM 部署 Qwen2.5-7B，一张 A10，压测发了 200 个 prompt 就 OOM 了。", 200),
    ("sglang 部署 Qwen2.5-14B，两张 4090，bench_serving 跑 --num-prompts 1000 会爆显存吗？", 1000),
    ("vLLM 部署 Qwen2.5-7B，A10，同时发 48 个 prompt，KV cache 够吗？", 48),
]  # fmt: skip


@pytest.mark.parametrize(("text", "load"), BENCHMARK_LOAD)
def test_a_benchmarks_prompts_sent_at_once_are_its_load(
    capsys: pytest.CaptureFixture[str], text: str, load: int
) -> None:
    assert ask(capsys, text)["request"]["concurrency"] == load


SPREAD_PROMPTS = [
    "Serve Qwen2.5-7B with vLLM on an A10 for 2000 prompts a day.",
    "Llama-3.1-8B on one L40S with vLLM, a benchmark of 1000 prompts at 10 requests per second: OOM?",
    "Qwen2.5-7B on one A10 with vLLM: benchmark_serving.py --num-prompts 64 --max-concurrency 8",
    "压测 Qwen2.5-7B，vLLM，每秒 5 个请求，--num-prompts 300，一张 A10。",
    "vLLM 部署 Qwen2.5-7B，一张 A10，每天 3000 个 prompt。",
]


@pytest.mark.parametrize("text", SPREAD_PROMPTS)
def test_prompts_spread_over_time_are_no_load(capsys: pytest.CaptureFixture[str], text: str) -> None:
    request = ask(capsys, text)["request"]
    assert request["concurrency"] not in (2000, 1000, 64, 300, 3000)


HOST_REQUIREMENT = [
    ("I see 100% RAM use when running WebLLM. Is the minimum RAM requirement higher than 8 GB?", 8),
    ("Does Qwen2.5-7B with Ollama need a system memory of at least 16 GB on a 4060?", 16),
    ("Is a host memory of 64 GB enough for vLLM with Qwen2.5-32B-AWQ on two 4090s?", 64),
    ("Ollama 跑 Qwen2.5-14B，机器内存需求至少 32G 吗？一张 3060。", 32),
    ("服务器内存至少 64G 吗？vLLM 跑 Qwen2.5-32B-AWQ，两张 4090。", 64),
    ("系统内存要求是不是要高于 16GB？Ollama 跑 Qwen2.5-7B，一张 4060。", 16),
]


@pytest.mark.parametrize(("text", "gib"), HOST_REQUIREMENT)
def test_a_host_memory_requirement_is_the_hosts_memory(
    capsys: pytest.CaptureFixture[str], text: str, gib: int
) -> None:
    assert ask_any(capsys, text)["request"]["host_memory_gib"] == gib


NOT_HOST_MEMORY = [
    ("Is the VRAM requirement higher than 24 GB for Qwen2.5-14B on vLLM with one 4090?", None),
    ("Qwen2.5-14B 用 vLLM，显存要求是不是高于 24GB？一张 4090。", None),
]


@pytest.mark.parametrize(("text", "gib"), NOT_HOST_MEMORY)
def test_a_card_memory_requirement_is_no_host_memory(
    capsys: pytest.CaptureFixture[str], text: str, gib: None
) -> None:
    assert ask_any(capsys, text)["request"]["host_memory_gib"] is gib


TIME_AGO = [
    ("Two months ago I fine-tuned Llama-2-13B on 8 A100s. How long for Llama-2-70B?", "two months ago"),
    ("A couple of months back I tried a full fine-tune of Llama-2-13B on an 80GB A100: OOM. How many GPUs?",
     "a couple of months back"),
    ("3 weeks earlier we served Qwen2.5-7B on one A10 with vLLM; how many users at 8k?", "3 weeks earlier"),
    ("两个月前我在 8 张 A100 上微调过 Llama-2-13B，Llama-2-70B 要多久？", "两个月前"),
    ("半年前用 4 张 4090 跑过 Qwen2.5-7B 的 LoRA，现在 Qwen2.5-14B 要几张？", "半年前"),
    ("三周之前用 vLLM 在 A10 上部署了 Qwen2.5-7B，现在 8k 上下文能撑多少并发？", "三周之前"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "said"), TIME_AGO)
def test_a_span_before_now_is_named_never_a_deadline(
    capsys: pytest.CaptureFixture[str], text: str, said: str
) -> None:
    data = ask(capsys, text)
    assert named(data).get(said) == "time_ago"
    assert data["request"]["deadline_days"] is None


DEADLINE_NOT_AGO = [
    ("Train a 7B on 1T tokens within two months: how many H100s?", 60),
    ("70B 全参微调，要在两个月前完成，需要几张 H100？", 60),
    ("预训练 7B 模型 1T token，3 周内训完，要几张 H100？", 21),
]


@pytest.mark.parametrize(("text", "days"), DEADLINE_NOT_AGO)
def test_a_deadline_is_still_a_deadline(capsys: pytest.CaptureFixture[str], text: str, days: int) -> None:
    assert ask(capsys, text)["request"]["deadline_days"] == days


LONGLORA = [
    "用 LongLoRA 在 12k 条数据上微调 Llama-2-7B，需要多少显存？",
    "Fine-tune Llama-2-7B to 32k context with LongLoRA on 8 A100s: how long?",
    "long-lora 微调 Llama-2-13B 到 16k 上下文，要几张 A100？",
]


@pytest.mark.parametrize("text", LONGLORA)
def test_longlora_is_a_lora_job(capsys: pytest.CaptureFixture[str], text: str) -> None:
    assert ask(capsys, text)["request"]["method"] == "lora"


RL_GLOBAL_BATCH = [
    "GRPO on Qwen2.5-7B with verl on 2 A800 80GB, batch size 1024: does it fit?",
    "Is 4 A100s enough for PPO on Llama-3-8B with OpenRLHF at batch size 512?",
    "verl GRPO run, Qwen2.5-3B, 8 H100s, a batch size of 256 and ppo_max_token_len_per_gpu=16000.",
    "verl 跑 GRPO，Qwen2.5-7B，4 张 A100，batch size 256，要多久？",
    "用 OpenRLHF 做 PPO，Llama-3-8B，8 张 A800，batch size 128。",
    "verl 的 GRPO，Qwen2.5-7B，两张 H100，batch size 是 64，能跑吗？",
]


@pytest.mark.parametrize("text", RL_GLOBAL_BATCH)
def test_an_rl_frameworks_batch_size_is_the_global_batch(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    data = ask(capsys, text)
    stated = int(re.findall(r"batch size (?:of |是 )?(\d+)", text)[0])
    assert data["request"]["global_batch"] == stated
    assert data["request"]["batch_size"] != stated
    assert named(data).get(f"train_batch_size: {stated}") == "tool_global_batch"


PER_GPU_BATCH = [
    ("OpenRLHF PPO on Llama-3-8B, 8 A100s, batch size 128, micro batch size 4", 4),
    ("verl 跑 GRPO，Qwen2.5-7B，4 张 A100，每卡 batch size 8。", 8),
    ("SFT of Qwen2.5-7B with LLaMA-Factory on 4 A100s, batch size 16.", 16),
]


@pytest.mark.parametrize(("text", "micro"), PER_GPU_BATCH)
def test_a_per_gpu_or_other_tools_batch_stays_the_micro_batch(
    capsys: pytest.CaptureFixture[str], text: str, micro: int
) -> None:
    assert ask(capsys, text)["request"]["batch_size"] == micro


EVAL_BATCH = [
    "swift sft --model Qwen2.5-7B --per_device_eval_batch_size 1 --per_device_train_batch_size 2, 2 H800",
    "--per_device_train_batch_size 2 --per_device_eval_batch_size 4, Qwen2.5-7B full SFT on 2 H800",
    "Qwen2.5-7B 全参 SFT，两张 H800，per_device_train_batch_size=2，per_device_eval_batch_size=8。",
]


@pytest.mark.parametrize("text", EVAL_BATCH)
def test_an_eval_batch_is_never_the_training_micro_batch(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    data = ask(capsys, text)
    assert data["request"]["batch_size"] == 2
    assert any(t.startswith("per_device_eval_batch_size:") for t in named(data))


BRACKET_COUNT = [
    ("H200（8*141G）全量训练 DeepSeek-R1-Distill-Llama-70B，zero3 要多久？", 8, 141),
    ("A100(4*40G) 全量微调 Qwen2.5-14B 够吗？", 4, 40),
    ("Full fine-tune of Llama-3-70B on H100 (8x80GB): enough?", 8, 80),
    ("三台 A100 服务器（8×40G）全量微调 Qwen2.5-72B 要多久？", 24, 40),
    ("Two A100 nodes (8x80GB) for a Llama-3-70B full SFT: how long for 1B tokens?", 16, 80),
]


@pytest.mark.parametrize(("text", "count", "gib"), BRACKET_COUNT)
def test_a_count_in_the_cards_bracketed_memory_is_the_cards(
    capsys: pytest.CaptureFixture[str], text: str, count: int, gib: int
) -> None:
    request = ask(capsys, text)["request"]
    assert (request["gpu_count"], request["gpu_memory_gib"]) == (count, gib)


MICRO_SAID_AGAIN = [
    ("LLaMA-Factory full SFT of Qwen2.5-7B on 8 A100s with zero3 (batch_size=1): "
     "per_device_train_batch_size: 1, gradient_accumulation_steps: 2", 16),
    ("alpaca-lora finetune.py --batch_size 128 --micro_batch_size 4, Llama-7B on 2 A100", 128),
]  # fmt: skip


@pytest.mark.parametrize(("text", "global_batch"), MICRO_SAID_AGAIN)
def test_a_bare_batch_equal_to_the_micro_batch_is_no_global_batch(
    capsys: pytest.CaptureFixture[str], text: str, global_batch: int
) -> None:
    assert ask(capsys, text)["request"]["global_batch"] == global_batch
