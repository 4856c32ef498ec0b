"""Round 29 (s34-r29, issue 24): readers for what the r29work half missed at its freeze, each tested with
sentences of our own (must-read and must-not-misread), in both languages where the form exists.

1. llama.cpp's ``-n`` / ``--n-predict`` (common/arg.cpp: "number of tokens to predict") is each request's
   output length: read (``max_completion_length``) and, in a serving question, named as held in the context
   (``output_tokens: N``, ``output_in_context``) rather than "a training setting" (en29-012).
2. A rate asked how to reach ('How can I achieve 30 tokens per second', 'we want to reach 2000 tok/s') is
   the target, not a measured speed: 'achieve' / 'reach' after a how-to or a want-to asks (en29-008).
"""

from __future__ import annotations

from typing import Any

from tests.real_questions import answer_json


def _ignored(answer: dict[str, Any]) -> list[dict[str, Any]]:
    return answer["interpretation"]["ignored"]


# 1. llama.cpp -n / --n-predict ------------------------------------------------------------------------


def test_llama_cpp_n_predict_is_the_output_length_held_in_the_context() -> None:
    a = answer_json(
        "./llama-cli -m llama-3-8b.Q8_0.gguf --n-predict 256 -c 4096 on an RTX 4060 8GB, will it fit?"
    )
    assert a["request"]["max_completion_length"] == 256
    assert a["request"]["seq_len"] == 4096  # the context is -c's, the output is inside it
    assert {"text": "output_tokens: 256", "reason": "output_in_context"} in _ignored(a)
    assert not any(i["reason"] == "training_only" for i in _ignored(a))


def test_llama_cpp_short_n_in_an_old_main_command() -> None:
    a = answer_json(
        "Inference of LLaMA 65B q4_0 with llama.cpp (./main -t 10 -n 128 --temp 0.1) is slow on my GPU. "
        "How many layers should go on the GPU?"
    )
    assert a["request"]["runtime"] == "llama.cpp"
    assert a["request"]["max_completion_length"] == 128
    assert {"text": "output_tokens: 128", "reason": "output_in_context"} in _ignored(a)


def test_llama_cpp_n_predict_in_a_chinese_question() -> None:
    a = answer_json(
        "用 llama.cpp 跑 qwen2.5-14b q4_k_m：./llama-server -m qwen.gguf -c 8192 -n 1024 -ngl 99，4090 够吗？"
    )
    assert a["request"]["max_completion_length"] == 1024
    assert a["request"]["seq_len"] == 8192
    assert {"text": "output_tokens: 1024", "reason": "output_in_context"} in _ignored(a)


def test_xinference_n_stays_the_model_name() -> None:
    """Must not misread: Xinference's ``-n`` is the model name (its own table row), no output length."""
    a = answer_json(
        "xinference launch --model-engine vllm -n qwen2.5-instruct -s 7 -f pytorch on one A10, "
        "how many users?"
    )
    assert a["request"]["max_completion_length"] is None
    assert "qwen2.5" in (a["request"]["model"] or "").lower()


def test_a_grpo_completion_length_stays_a_training_setting() -> None:
    """Must not misread: in a training question the completion length is the RL rollout's, used as such."""
    a = answer_json(
        "swift rlhf --rlhf_type grpo --model Qwen/Qwen2.5-7B-Instruct --max_completion_length 1024 "
        "--num_generations 8 on 8 A100 80GB, how much memory per GPU?"
    )
    assert a["request"]["max_completion_length"] == 1024
    assert not any(i["reason"] == "output_in_context" for i in _ignored(a))


# 2. a rate asked how to reach -------------------------------------------------------------------------


def test_how_can_i_achieve_a_rate_is_the_target() -> None:
    a = answer_json("How can I achieve 30 tokens per second with Llama 3.1 70B on 2x A100?")
    assert a["request"]["target_tokens_per_s"] == 30.0
    assert not any(i["text"] == "30" for i in _ignored(a))


def test_a_measured_rate_then_how_to_reach_another() -> None:
    a = answer_json(
        "With vLLM I get only 17 tokens per second on 2x A100 for Llama 3.1 70B. How can I achieve 30 tokens "
        "per second on A100?"
    )
    assert a["request"]["target_tokens_per_s"] == 30.0
    assert {"text": "17 tokens per second", "reason": "observed"} in _ignored(a)


def test_want_to_reach_a_rate_is_the_target() -> None:
    a = answer_json("We want to reach 2000 tokens/s with Qwen2.5-7B on L40S, how many GPUs?")
    assert a["request"]["target_tokens_per_s"] == 2000.0


def test_ruhe_dadao_a_rate_is_the_target() -> None:
    """s34 review: the sentence before ('… 4 张 4090，如何达到每秒 500 token 的吞吐？') was read on main
    already (tests/test_s34_fixf.py keeps it); with one card and 'tokens/s' main named the rate unread."""
    a = answer_json("用 vLLM 部署 Qwen2.5-7B，一张 4090，如何达到 300 tokens/s 的吞吐？")
    assert a["request"]["target_tokens_per_s"] == 300.0


def test_we_achieve_a_rate_stays_measured() -> None:
    """Must not misread: 'we achieve' / 'reaches' report a speed (observed), never the target."""
    for text in (
        "We achieve 25 tokens/s with Llama 3.1 70B on 2x A100. How many GPUs for 100 users?",
        "Llama 3.1 70B on 2x A100 reaches 25 tokens/s; how many GPUs for 100 users?",
    ):
        a = answer_json(text)
        assert a["request"]["target_tokens_per_s"] is None, text
        assert {"text": "25 tokens/s", "reason": "observed"} in _ignored(a), text


def test_shice_dadao_a_rate_stays_measured() -> None:
    a = answer_json(
        "用 vLLM 部署 Qwen2.5-72B，4 张 4090，实测吞吐达到 500 tokens/s，要支持 50 个用户需要几张卡？"
    )
    assert a["request"]["target_tokens_per_s"] is None
    assert {"text": "500 tokens/s", "reason": "observed"} in _ignored(a)
