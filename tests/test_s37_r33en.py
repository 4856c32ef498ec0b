"""Session 37, round 33 en (issue 24): readers for what r33work en missed at its freeze, each tested on
sentences of our own (must-read and must-not-misread), in both languages where the form exists in both.

- a generator launched under torchrun whose script name says neither ('example.py', LLaMA 1's reference
  script) is a serving job when its flags are only a generator's ('--max_batch_size', '--max_gen_len'), and a
  flag value that ends the question ('--max_batch_size=12?') is that value;
- an unknown consumer card in the plural ('two GTX 1080s') is that card, named as typed, with its count;
- '2 servers of 8 A100s have 1280GB of memory in total' is the cards' memory together, not the hosts' RAM;
- what the weights and optimizer states total ('… optimizer states total 268GB') is no card's memory;
- a bit width said not to be used ('without 8-bit quantization', '不用 8bit 量化') is never the precision;
- the llama.cpp front-ends (koboldcpp, alpaca.cpp, …) make a job serving, as llama.cpp itself does;
- scorer: a serving batch stated ('--max_batch_size=12') is the sequences served at once (concurrency).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.real_questions import answer_json, key_understood


def _ask(text: str) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    answer = answer_json(text)
    items = (answer.get("interpretation") or {}).get("ignored") or []
    return answer["request"], [(i.get("reason"), i.get("text")) for i in items]


def test_generator_script_with_its_flags_is_serving() -> None:
    req, _ = _ask(
        "Will LLaMA 13B run on one RTX 3090 with torchrun --nproc_per_node 1 example.py --max_batch_size=12?"
    )
    assert req["stage"] == "inference"
    assert req["concurrency"] == 12  # Llama.build(max_seq_len, max_batch_size): sequences held at once
    assert req["gpu_count"] == 1


def test_generator_flag_max_gen_len_is_serving() -> None:
    req, _ = _ask("torchrun --nproc_per_node 2 example.py --max_gen_len 256 on 2 A100s, is 13B ok?")
    assert req["stage"] == "inference"


def test_a_trainer_script_stays_training() -> None:
    req, _ = _ask("I fine-tune with torchrun --nproc_per_node 8 main.py --batch_size 4 on 8 A100s")
    assert req["stage"] == "finetune"
    assert req["batch_size"] == 4
    req, _ = _ask("torchrun --nproc_per_node 8 train.py --max_batch_size 4 on 8 A100s, enough for 7B?")
    assert req["stage"] != "inference"  # a training script's name wins over a generator-like flag


@pytest.mark.parametrize(
    ("text", "card", "count"),
    [
        ("How do I run gpt-neox with two GTX 1080s?", "GTX 1080", 2),
        ("I have 3 RTX 2080s, can I serve Qwen2.5-7B?", "RTX 2080", 3),
    ],
)
def test_unknown_card_in_the_plural(text: str, card: str, count: int) -> None:
    answer = answer_json(text)
    assert answer["interpretation"]["unknown_gpu"] == card  # named as typed, without the plural 's'
    assert answer["request"]["gpu_count"] == count


def test_catalog_card_in_the_plural_unchanged() -> None:
    req, _ = _ask("Can I fine-tune llama 7B on two RTX 3090s?")
    assert (req["gpu"], req["gpu_count"]) == ("RTX-3090", 2)


def test_servers_of_cards_have_memory_in_total() -> None:
    req, named = _ask("2 servers of 8 A100s have 1280GB of memory in total. Can I fine-tune a 20B model?")
    assert req["gpu_count"] == 16
    assert req["gpu_memory_gib"] == 80.0  # 1280 / 16, each card's share
    assert req.get("host_memory_gib") is None
    assert ("cards_total", "1280 GB") in named


def test_a_server_with_memory_is_still_the_host() -> None:
    req, _ = _ask("a server that has 256GB memory and 8 A100s")
    assert req["host_memory_gib"] == 256.0
    assert req["gpu_count"] == 8


def test_optimizer_states_total_is_no_card_memory() -> None:
    req, named = _ask("The weights and optimizer states total 268GB. I have 16 A100s.")
    assert req.get("gpu_memory_gib") is None  # before: 268 / 16 = 16.75 GB cards
    assert all(reason != "cards_total" for reason, _ in named)
    req, _ = _ask("优化器状态总共 80G，我有 4 张 A100")
    assert req.get("gpu_memory_gib") is None


def test_cards_memory_in_total_still_read() -> None:
    req, named = _ask("two 4090s, 48GB in total")
    assert (req["gpu_count"], req["gpu_memory_gib"]) == (2, 24.0)
    assert ("cards_total", "48 GB") in named


@pytest.mark.parametrize(
    ("text", "width"),
    [
        ("Can I run a 34b model without 8-bit quantization on 3x 4090?", "8"),
        ("Can I run Llama 13B without 4-bit quantization on a 4090?", "4"),
        ("不用 8bit 量化能在 3 张 4090 上跑 34b 吗", "8"),
        ("不用 4bit 量化，13B 能在 4090 上跑吗", "4"),
    ],
)
def test_negated_bit_width_is_not_the_precision(text: str, width: str) -> None:
    req, named = _ask(text)
    assert req["precision"] != f"int{width}"
    assert ("negated", f"precision: {width}-bit") in named


@pytest.mark.parametrize(
    "text", ["Can I run Llama 13B with 4-bit quantization on a 4090?", "用 4bit 量化，13B 能在 4090 上跑吗"]
)
def test_bit_width_said_is_still_read(text: str) -> None:
    req, named = _ask(text)
    assert req["precision"] == "int4"
    assert all(reason != "negated" for reason, _ in named)


@pytest.mark.parametrize(
    ("text", "frontend"),
    [
        (
            "Which models can I use with koboldcpp? What are some recommended models for a 24GB GPU?",
            "koboldcpp",
        ),
        ("koboldcpp 能跑哪些模型？显卡是 24G 的", "koboldcpp"),
        ("alpaca.cpp is slow on the 30B model, I have 128GB of RAM", "alpaca.cpp"),
    ],
)
def test_llama_cpp_frontend_is_serving(text: str, frontend: str) -> None:
    req, named = _ask(text)
    assert req["stage"] == "inference"
    assert req["runtime"] == "llama.cpp"
    assert ("llama_cpp_based", f"runtime: {frontend}") in named


def test_training_tool_question_stays_training() -> None:
    req, _ = _ask("Can I fine-tune Llama 3 8B with Unsloth on a 4090?")
    assert req["stage"] == "finetune"


def test_scorer_serving_batch_is_concurrency() -> None:
    served = {"request": {"stage": "inference", "concurrency": 12}}
    assert key_understood("batch_size", 12, served)
    assert not key_understood("batch_size", 8, served)
    trained = {"request": {"stage": "finetune", "concurrency": 12}}
    assert not key_understood("batch_size", 12, trained)  # a training micro-batch is no concurrency


@pytest.mark.parametrize(
    "text",
    [
        "I tried to train the 13B model on 8 A100s but get OOM. The library advertises scaling up to 100B.",
        "I tried to train the 13B model on 8 A100s but get OOM. The library supports models up to 100B.",
        "我在 8 张 A100 上训练 13B 模型 OOM 了，这个库号称可以扩展到 100B，需要什么配置？",
    ],
)
def test_a_size_a_tool_claims_is_not_the_job(text: str) -> None:
    req, named = _ask(text)
    assert req["params_total"] == 13e9
    assert ("claimed_size", "model: 100B") in named  # s37-models: named with its role (was other_setup)


def test_a_size_asked_to_scale_to_is_the_job() -> None:
    req, named = _ask("I trained 13B on 8 A100s; can I scale up to 70B on the same cards?")
    assert req["params_total"] == 70e9  # the user's own next job, not a tool's claim
    assert ("other_setup", "model: 13B") in named


@pytest.mark.parametrize(
    "text",
    [
        "alpaca.cpp is slow on the 30B model, the same as on 13B. I have 128GB of RAM.",
        "The 30B model runs slowly with llama.cpp, the same as on 13B",
    ],
)
def test_a_size_on_which_a_server_ran_is_a_model(text: str) -> None:
    req, named = _ask(text)
    assert req["stage"] == "inference"
    assert req["params_total"] == 30e9
    assert req.get("tokens") is None  # before: 13B training tokens held in the serving request
    assert ("other_setup", "model: 13B") in named


@pytest.mark.parametrize(("text", "tokens"), [("pretrain 7B on 2T", 2e12), ("train a 7B on 300B", 300e9)])
def test_training_tokens_on_a_size_still_read(text: str, tokens: float) -> None:
    req, _ = _ask(text)
    assert (req["stage"], req["params_total"], req["tokens"]) == ("pretrain", 7e9, tokens)
