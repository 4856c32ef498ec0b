"""s41-workmiss (issue 24 items 2 and 4): the older working splits' English misses, by fault kind.

1. A training codebase named in one glued word after a tool verb ('fine-tuned with mpttune', 'a full
   fine-tune with SlimTrainer', '用 mpttune 微调'; bot.parse.codebases.GLUED_RE) is named as typed and as not
   used (``no_field``), as the hyphen-joined codebase names were (round 13); a Hugging Face or TRL trainer
   class ('SFTTrainer') and a tool the table has ('xtuner') are not such codebases.
2. A count of tokens a run generated ('tg128' of llama-bench, examples/llama-bench/README.md: 'tg128'
   generates 128 tokens; '1024 tokens generated') is the reply's length:
   named as the output length within the context (``output_in_context``), also when no stage word but a
   decode speed says the job is serving; a prompt's processing ('pp512') is never an output, nor is the
   first of several timings ('256 tokens in 3.14 s …, and a 1,052-token prefill with 128 generated tokens':
   round 19 en) the output of the setup asked about.
"""

from __future__ import annotations

import json

import pytest

from bot.cli import ask


def _answer(text: str) -> dict:
    out, _ = ask(text, None, "json")
    return json.loads(out)


def _ignored(answer: dict) -> list[tuple[str, str]]:
    return [(i["text"], i["reason"]) for i in answer["interpretation"].get("ignored") or []]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Can MPT-30B be fine-tuned with mpttune on a single A100?", "mpttune"),  # en36-030's thread
        (
            "Is there any tweak to fit a full fine-tune with SlimTrainer into Google Colab's ~15 GB of GPU "
            "memory, or should I just settle for QLoRA?",
            "slimtrainer",
        ),
        ("用 mpttune 在一张 A100 上微调 MPT-30B 可以吗？", "mpttune"),
        ("我们使用 SlimTrainer 全参微调 7B 模型，显存 15G 够不够？", "slimtrainer"),
    ],
)
def test_glued_codebase_named(text: str, name: str) -> None:
    answer = _answer(text)
    assert (f"training_tool: {name}", "no_field") in _ignored(answer)
    assert answer["request"]["stage"] == "finetune"


@pytest.mark.parametrize(
    ("text", "tool"),
    [
        ("Can Qwen2-7B be fine-tuned with SFTTrainer on a single A100?", "TRL"),
        ("用 SFTTrainer 微调 Qwen2-7B，一张 A100 够吗？", "TRL"),
    ],
)
def test_trainer_class_not_a_codebase(text: str, tool: str) -> None:
    answer = _answer(text)
    assert answer["request"]["training_tool"] == tool
    assert not any("sfttrainer" in t.lower() for t, _ in _ignored(answer))


@pytest.mark.parametrize(
    "text", ["Fine-tune Qwen2-7B with xtuner on one A100", "用 xtuner 在一张 A100 上微调 Qwen2-7B"]
)
def test_known_tool_named_once(text: str) -> None:
    names = [t for t, _ in _ignored(_answer(text)) if t.startswith("training_tool:")]
    assert names == ["training_tool: XTuner"]


@pytest.mark.parametrize(
    ("text", "named"),
    [
        (  # en36-036's thread: llama-bench's tg128, no stage word, a decode speed
            "llama-bench gives for LLaMA 7B Q4_0 a tg128 of 170 tokens/s on a 7900 XTX. Which generation "
            "speed should it give?",
            "output_tokens: 128",
        ),
        ("llama-bench 测 LLaMA 7B Q4_0，tg128 是 170 tokens/s，7900 XTX 应该多快？", "output_tokens: 128"),
        (
            "On a 7900 XTX, LLaMA 7B Q4_0 gives 1024 tokens generated at 170 tokens/s. What speed should it "
            "give?",
            "output_tokens: 1,024",
        ),
        ("7900 XTX 上 LLaMA 7B Q4_0 的 tg512 是 150 tokens/s，应该能更快吗？", "output_tokens: 512"),
    ],
)
def test_generated_tokens_are_the_output(text: str, named: str) -> None:
    answer = _answer(text)
    assert answer["request"]["stage"] == "inference"
    assert (named, "output_in_context") in _ignored(answer)


@pytest.mark.parametrize(
    "text",
    [
        "llama-bench gives LLaMA 7B Q4_0 a pp512 of 4000 tokens/s on a 7900 XTX. What speed should it give?",
        "llama-bench 测 LLaMA 7B Q4_0，pp512 是 4000 tokens/s，7900 XTX 应该多快？",
        "Fine-tune Llama-2-7B with 1024-token sequences on one A100, how long for 1B tokens?",
        "在一张 A100 上用 1024 token 的序列微调 Llama-2-7B，1B token 要多久？",
    ],
)
def test_prompt_or_sequence_is_no_output(text: str) -> None:
    answer = _answer(text)
    assert not any(t.startswith("output_tokens") for t, _ in _ignored(answer))
    assert answer["request"].get("max_completion_length") is None


# 3. A batch size the text states beside a pasted serving command with no load is the load (en10-038's
#    thread): TGI's batch is its cap on running sequences (text-generation-inference launcher/src/main.rs
#    --max-batch-size), named as the load sized (cap_as_load), as a message with no command already had it.
TGI_RUN = (
    "text-generation-launcher --num-shard 2 --model-id ./Models/GPT-NeoX-20B --max-input-length 1500 "
    "--max-total-tokens 2048"
)


@pytest.mark.parametrize(
    "text",
    [
        f"I've tried your settings: {TGI_RUN}, then text-generation-benchmark --batch-size 32 "
        "--sequence-length 1500, and I get OOM immediately. What can this setup handle?",
        f"我的命令：{TGI_RUN}, 然后 text-generation-benchmark --batch-size 32 --sequence-length 1500 "
        "压测就 OOM，这个配置能撑多少？",
    ],
)
def test_serving_command_batch_is_the_load(text: str) -> None:
    answer = _answer(text)
    request = answer["request"]
    assert (request["stage"], request["runtime"], request["concurrency"]) == ("inference", "TGI", 32)
    assert "concurrency" not in request["assumed_fields"]
    assert ("batch-size 32", "cap_as_load") in _ignored(answer)


@pytest.mark.parametrize(
    ("text", "load"),
    [
        (f"{TGI_RUN}, then text-generation-benchmark --batch-size 32 with 50 concurrent users. Enough?", 50),
        (f"我的命令：{TGI_RUN}, 然后 text-generation-benchmark --batch-size 32，50 个并发用户，够吗？", 50),
    ],
)
def test_serving_command_batch_beside_a_load(text: str, load: int) -> None:
    assert _answer(text)["request"]["concurrency"] == load


@pytest.mark.parametrize(
    "text",
    [
        "deepspeed train.py --model_name_or_path Qwen/Qwen2.5-7B --per_device_train_batch_size 4 --deepspeed "
        "ds_z3.json on 8 A100, batch size 4. How long for 1B tokens?",
        "命令：deepspeed train.py --model_name_or_path Qwen/Qwen2.5-7B --per_device_train_batch_size 4 "
        "--deepspeed ds_z3.json，8 张 A100，batch size 4，训练 1B token 要多久？",
    ],
)
def test_training_command_batch_stays_a_batch(text: str) -> None:
    request = _answer(text)["request"]
    assert (
        request["stage"] != "inference" and request["batch_size"] == 4 and request.get("concurrency") is None
    )


def test_tgi_benchmark_decode_length_named() -> None:
    """text-generation-benchmark's --decode-length is the tokens generated per request (its own
    benchmark/src/main.rs): named as the completion length, never left unread."""
    answer = _answer(
        f"{TGI_RUN}, then text-generation-benchmark --batch-size 32 --sequence-length 1500 "
        "--decode-length 548 OOMs. What can this setup handle?"
    )
    assert ("548", "unread") not in _ignored(answer)
    assert any(t.startswith("max_completion_length: 548") for t, _ in _ignored(answer))


@pytest.mark.parametrize(
    "text",
    [
        "Qwen2.5-7B on one RTX 3090 with vLLM: 256 tokens in 3.14 s (~81 tok/s), 417 tokens in 4.41 s, and a "
        "1,052-token prefill with 128 generated tokens at ~67 tok/s. Is ~95 tok/s what this card should do?",
        "Qwen2.5-7B 用 vLLM 跑在一张 RTX 3090 上：256 tokens in 3.14 s (~81 tok/s)，417 tokens in 4.41 s，"
        "1,052 个输入 token 加 128 个生成 token 是 ~67 tok/s。这张卡 ~95 tok/s 正常吗？",
    ],
)
def test_first_timing_is_not_the_output(text: str) -> None:
    answer = _answer(text)
    assert not any(t.startswith("output_tokens: 256") for t, _ in _ignored(answer))
    assert answer["request"].get("max_completion_length") != 256


# 4. Bit widths listed before one LoRA (en35-011's thread: 'fine-tune with 4, 8 or 16-bit LoRA and then
#    merge'): a LoRA at each width, 4-bit being QLoRA (arXiv:2305.14314), so both methods get a row.
@pytest.mark.parametrize(
    "text",
    [
        "It would be nice to fine-tune LLaMA 3 with 4, 8 or 16-bit LoRA on Colab's T4. Which of these fits?",
        "Fine-tune LLaMA 3 with 4/16-bit LoRA on a T4: which fits?",
        "在 T4 上用 4、8 或 16 比特的 LoRA 微调 LLaMA 3，哪个放得下？",
        "在 T4 上用 4bit 和 16bit 的 LoRA 微调 LLaMA 3，哪个放得下？",
    ],
)
def test_bit_widths_before_lora_each_a_method(text: str) -> None:
    request = _answer(text)["request"]
    assert set(request["methods"]) == {"qlora", "lora"}


@pytest.mark.parametrize(
    ("text", "rank"),
    [
        ("Fine-tune LLaMA 3 with LoRA rank 8 or 16-bit LoRA on a T4", 8),
        ("在 T4 上微调 LLaMA 3，LoRA 秩 8 或 16 比特的 LoRA", 8),
        ("Fine-tune LLaMA 3 on 4 or 8 A100 with 16-bit LoRA", None),
        ("用 4 或 8 张 A100 做 16 比特的 LoRA 微调 LLaMA 3", None),
    ],
)
def test_other_numbers_before_lora_not_widths(text: str, rank: int | None) -> None:
    request = _answer(text)["request"]
    assert request.get("methods") is None and request["method"] == "lora"
    assert request.get("lora_rank") == rank
