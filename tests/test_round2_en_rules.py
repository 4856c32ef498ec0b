"""Issue 24, round 2 (part s7-r2en): general ways people write a setting, read through the CLI
(``sizing-bot ask``) in both languages. The sentences are written for these tests (none is from the
real-question corpus).

- Digits grouped by underscores, as configs write them ("max_seq_length=16_384"): one number.
- A number right before a full stop is a value ("num_ctx 32768."); a number inside a word
  ("bfloat16") or before a comma ("split 10/10, num_ctx") is not the value of the key after it.
- dtype keys ("--dtype half", "torch_dtype=torch.bfloat16"): the weights' format; "auto" is named.
- Optimizer names ("AdamW", "adamw_torch"): Adam/AdamW sized; Adafactor, Lion … named as not sized.
- Where the layers are, in llama.cpp's words ("30 of 48 layers on the GPU": a partial offload; "all
  layers on the GPU": none).
- Front-ends that run llama.cpp (koboldcpp, LM Studio …): sized as llama.cpp and named as such.
- A 16-bit dtype ending a model's name ("Foo-13B-fp16") is the checkpoint's; the job's precision is the
  one written on its own ("nf4").
- Unknown names with a release number ("Foo-Chat-2.5-13B") or a tier and a version ("acme-small-v1.2").
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.cli import main


def ask(capsys: pytest.CaptureFixture[str], text: str) -> Any:
    code = main(["ask", "--format", "json", text])
    out = capsys.readouterr().out
    assert code == 0, out
    return json.loads(out)


def ignored(answer: Any) -> list[str]:
    return [str(i.get("text")) for i in answer["interpretation"].get("ignored") or []]


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        (
            "QLoRA of Llama-3-8B on one A100 80GB with max_seq_length=16_384: how much memory?",
            "seq_len",
            16384,
        ),
        ("Llama-3-8B 做 LoRA 微调，cutoff_len 设为 8_192，一张 A100 80G 够吗", "seq_len", 8192),
        ("Pretrain a 1B model on 20_000_000_000 tokens with 8 H100: how long?", "tokens", 20_000_000_000),
        ("用 8 张 H100 预训练 1B 模型，数据 30_000_000_000 token，要多久", "tokens", 30_000_000_000),
    ],
)
def test_digits_grouped_by_underscores_are_one_number(capsys, text: str, key: str, value: int) -> None:
    assert ask(capsys, text)["request"][key] == value


@pytest.mark.parametrize(
    "text",
    [
        "How much VRAM for Qwen2.5-14B in Ollama on two 24GB GPUs with num_ctx 32768.",
        "用 Ollama 在两张 4090 上跑 Qwen2.5-14B，num_ctx 是 32768. 显存够吗",
    ],
)
def test_a_value_before_a_full_stop_is_read(capsys, text: str) -> None:
    answer = ask(capsys, text)
    assert answer["request"]["max_model_len"] == 32768
    assert "32768" not in " ".join(ignored(answer))


@pytest.mark.parametrize(
    "text",
    [
        "Serve Qwen2.5-7B with vLLM on an A10: --dtype bfloat16 --max-model-len 4096. How many users?",
        "Ollama on 2 cards, layers split 20/20, num_ctx 8192: how much VRAM for Qwen2.5-14B?",
        "用 vLLM 在一张 A10 上部署 Qwen2.5-7B：--dtype bfloat16 --max-model-len 4096，能并发多少",
    ],
)
def test_a_number_inside_a_word_or_before_a_comma_is_not_the_next_keys_value(capsys, text: str) -> None:
    answer = ask(capsys, text)
    assert answer["request"]["max_model_len"] in (4096, 8192)
    assert not [t for t in ignored(answer) if t.startswith("max_model_len")], ignored(answer)


@pytest.mark.parametrize(
    ("text", "precision"),
    [
        ("Serve Llama-3-8B with vLLM --dtype half on a T4: how much memory?", "fp16"),
        ("Serve Llama-3-8B on an A100 with vllm serve --dtype=float32, how much memory?", "fp32"),
        ("用 transformers 加载 Qwen2.5-7B，torch_dtype=torch.bfloat16，一张 4090 够吗", "bf16"),
        ("部署 Qwen2.5-7B，vLLM 参数 --dtype float16，A10 24G 显存够不够", "fp16"),
    ],
)
def test_a_dtype_key_is_the_weights_format(capsys, text: str, precision: str) -> None:
    assert ask(capsys, text)["request"]["precision"] == precision


@pytest.mark.parametrize(
    "text",
    [
        "Serve Qwen2.5-7B with vLLM --dtype auto on an L4: memory?",
        "用 vLLM 部署 Qwen2.5-7B，--dtype auto，L4 显存够吗",
    ],
)
def test_dtype_auto_is_named_as_the_tools_choice(capsys, text: str) -> None:
    answer = ask(capsys, text)
    assert "dtype: auto" in ignored(answer)


@pytest.mark.parametrize(
    "text",
    [
        "Serve Qwen2.5-7B-AWQ with vLLM --kv-cache-dtype auto on an L4: how many users at 8k context?",
        "I came across an OOM serving Qwen2.5-7B with vLLM on an L4: how much memory does it need?",
    ],
)
def test_neither_a_kv_cache_dtype_nor_an_english_word_is_a_setting_of_these_rules(capsys, text: str) -> None:
    answer = ask(capsys, text)
    assert not [t for t in ignored(answer) if t.startswith(("dtype", "optimizer"))], ignored(answer)
    assert answer["request"].get("optimizer") is None


@pytest.mark.parametrize(
    ("text", "optimizer", "named"),
    [
        (
            "Full fine-tune of Llama-3-8B on 8 A100 80GB with the AdamW optimizer: memory per GPU?",
            "adamw",
            None,
        ),
        ("Llama-3-8B 全参微调，8 张 A100，优化器 adamw_torch，每卡显存多少", "adamw", None),
        (
            "Full fine-tune of Llama-3-8B on 8 A100 80GB with optim adafactor: memory per GPU?",
            None,
            "adafactor",
        ),
        ("Llama-3-8B 全参微调，8 张 A100，优化器用 Lion，每卡显存多少", None, "lion"),
    ],
)
def test_optimizer_names(capsys, text: str, optimizer: str | None, named: str | None) -> None:
    answer = ask(capsys, text)
    assert answer["request"].get("optimizer") == optimizer
    if named:
        assert f"optimizer: {named}" in ignored(answer)


@pytest.mark.parametrize(
    ("text", "offload"),
    [
        ("llama.cpp only puts 30 of 48 layers on the GPU for a 34B Q4_K_M on my 16GB card: memory?", True),
        ("Ollama 只把 20/41 层放到了 GPU 上，跑 Qwen2.5-32B Q4_K_M，16G 显存", True),
        ("I want all layers on the GPU for Qwen2.5-32B Q4_K_M in Ollama: how much VRAM?", False),
        ("Qwen2.5-32B Q4_K_M 用 llama.cpp，想把全部层都放到显存里，需要多少显存", False),
        (
            "Ollama offloads 30 of 65 layers to GPU, how do I fit all layers on the GPU for Qwen2.5-32B?",
            False,
        ),
    ],
)
def test_where_the_layers_are(capsys, text: str, offload: bool) -> None:
    assert ask(capsys, text)["request"]["offload"] is offload


def test_layers_of_a_training_job_are_not_an_offload(capsys) -> None:
    answer = ask(capsys, "LoRA on the last 8 of 32 layers of Llama-3-8B on one A100: memory?")
    assert not answer["request"].get("offload")


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("How much VRAM for a 13B Q5_K_M in LM Studio with a 8k context?", "LM Studio"),
        ("用 koboldcpp 跑 Qwen2.5-14B 的 Q4_K_M，8k 上下文要多少显存", "koboldcpp"),
        (
            "using koboldcpp to serve Llama-3-8B Q4_K_M with 8k context: how much VRAM?",
            "koboldcpp",
        ),  # s19-fxe
        ("Running Llama-3-8B Q8_0 as a llamafile on a 12GB card: does it fit?", "llamafile"),
    ],
)
def test_a_front_end_of_llama_cpp_is_sized_as_llama_cpp_and_named(capsys, text: str, name: str) -> None:
    answer = ask(capsys, text)
    assert answer["request"]["runtime"] == "llama.cpp"
    assert f"runtime: {name}" in ignored(answer)
    reasons = [
        i.get("reason") for i in answer["interpretation"]["ignored"] if i.get("text") == f"runtime: {name}"
    ]
    assert reasons == ["llama_cpp_based"]


@pytest.mark.parametrize(
    ("text", "precision"),
    [
        ("QLoRA of Foo-13B-fp16 in nf4 on one 24GB GPU: does it fit?", "int4"),
        ("QLoRA 微调 Bar-7B-bf16，4bit 量化，一张 4090 够不够", "int4"),
        ("Serve Baz-32B-AWQ with vLLM, auto (bf16) activations, on an A100: memory?", "int4"),
    ],
)
def test_a_16_bit_name_suffix_is_the_checkpoints_dtype(capsys, text: str, precision: str) -> None:
    assert ask(capsys, text)["request"]["precision"] == precision


@pytest.mark.parametrize(
    ("text", "typed"),
    [
        # s48 names: whole as typed, its release word kept (was "Foo-Chat-2.5-13B")
        ("How much VRAM to serve Foo-Chat-2.5-13B-Instruct with vLLM?", "Foo-Chat-2.5-13B-Instruct"),
        ("部署 Bar-Lite-1.5-9B 要几张 4090", "Bar-Lite-1.5-9B"),
        ("Why is acme-small-v1.2 slow with vLLM on one L4?", "acme-small-v1.2"),
        ("用 vLLM 部署 acme-base-v3，一张 A10 能跑多快", "acme-base-v3"),
    ],
)
def test_unknown_names_with_a_release_number_are_named_as_typed(capsys, text: str, typed: str) -> None:
    main(["ask", "--format", "json", text])  # a name without a size is asked about: not sized
    answer = json.loads(capsys.readouterr().out)
    assert answer["interpretation"]["unknown_model"] == typed
