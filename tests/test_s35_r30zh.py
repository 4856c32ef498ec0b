"""Round 30 Chinese (s35-r30zh, issue 24): readers for what the r30work half missed at its freeze, each
tested with sentences of our own (must-read and must-not-misread), in both languages where the form exists.

1. RRHF (Yuan et al. 2023, arXiv:2304.05302) is a post-training algorithm sized as DPO's family and named
   (``algorithm_family``), never a training tool no table has (zh30-039 '用 RRHF 做 RLHF 微调').
2. An engine's name inside a class or helper name ('LocalVLLM', 'vLLMWrapper', 'AsyncSGLangEngine',
   'LMDeployPipeline') is that engine; a bare letter before it is no prefix ('Lvllm', another engine)
   (zh30-023).
3. In a serving question, the tokens / context / conversation said to reach or pass a length ('token 数到 10k
   的时候 OOM', 'once the tokens reach 10k') is the context that run held (zh30-033); never the output's
   length, a rate, or a training corpus.
4. A catalog family with variant tags and no size said alone ('qwen-vl-chat', 'deepseek-coder-instruct') is
   the model asked about, named as typed, whatever words stand around it (zh30-008); a tag of another word
   ('ChatGLM-Tuning') is not read so.
"""

from __future__ import annotations

from typing import Any

from tests.real_questions import answer_json


def _ignored(answer: dict[str, Any]) -> list[dict[str, Any]]:
    return answer["interpretation"]["ignored"]


# 1. RRHF ------------------------------------------------------------------------------------------------


def test_rrhf_is_sized_as_dpo_and_named_zh() -> None:
    a = answer_json("只有 24G 显存，可以用 RRHF 做 RLHF 微调么？希望支持 LoRA 或 ptuning。")
    assert a["request"]["algorithm"] == "dpo"
    assert a["request"]["stage"] == "finetune"
    assert {"text": "algorithm: RRHF", "reason": "algorithm_family"} in _ignored(a)
    assert not any(i["text"].startswith("training_tool:") for i in _ignored(a))


def test_rrhf_is_sized_as_dpo_and_named_en() -> None:
    a = answer_json("Can I run RRHF on llama-7b with one 24 GB GPU?")
    assert a["request"]["algorithm"] == "dpo"
    assert a["request"]["model"] == "LLaMA-7B"
    assert {"text": "algorithm: RRHF", "reason": "algorithm_family"} in _ignored(a)


def test_ipo_as_a_business_word_is_no_algorithm() -> None:
    a = answer_json("公司计划 IPO 前部署一个 7B 模型，4090 够吗")
    assert a["request"]["algorithm"] is None
    assert a["request"]["stage"] == "inference"


def test_rrhf_inside_another_word_is_not_read() -> None:
    a = answer_json("用 rrhfx 的脚本微调 llama-7b，8 张 A100 要多久")
    assert a["request"]["algorithm"] != "dpo"


# 2. an engine's name inside a class name ----------------------------------------------------------------


def test_local_vllm_class_is_vllm() -> None:
    a = answer_json("48GB 显存用 LocalVLLM 创建 llama-7b 模型时 OOM，gpu_memory_utilization 0.95 也不行")
    assert a["request"]["runtime"] == "vLLM"
    assert a["request"]["gpu_memory_utilization"] == 0.95


def test_wrapped_engine_names_in_english() -> None:
    assert answer_json("with vLLMWrapper on a 48GB card, llama-7b OOMs")["request"]["runtime"] == "vLLM"
    a = answer_json("serving qwen2.5-7b with AsyncSGLangEngine on a 24GB card, is it enough?")
    assert a["request"]["runtime"] == "SGLang"


def test_lmdeploy_pipeline_class_is_lmdeploy_not_an_unknown_runtime() -> None:
    a = answer_json("用 LMDeployPipeline 部署 qwen2.5-7b，24G 够吗")
    assert a["request"]["runtime"] == "lmdeploy"
    assert not any(i["reason"] == "runtime_not_modelled" for i in _ignored(a))


def test_another_engine_with_vllm_in_its_name_is_not_vllm() -> None:
    a = answer_json("用 Lvllm 起服务 qwen2.5-7b，24G 够吗")  # round 18: Lvllm is an engine of its own
    assert a["request"]["runtime"] is None
    assert {"text": "runtime: Lvllm", "reason": "runtime_not_modelled"} in _ignored(a)
    assert answer_json("用 vllmx 部署 qwen2.5-7b，24G 够吗")["request"]["runtime"] is None


# 3. a length a serving run reached ----------------------------------------------------------------------


def test_tokens_reaching_a_length_is_the_context_zh() -> None:
    a = answer_json("4 张 V100 推理 Qwen1.5-72B-Chat int4，token 数到 10k 的时候报 OOM。")
    assert a["request"]["seq_len"] == 10_000
    assert not any(i["text"] == "10k" for i in _ignored(a))


def test_conversation_passing_a_length_is_the_context_zh() -> None:
    a = answer_json("用 vllm 部署 qwen2.5-7b，对话长度超过 8k 就变得很慢，4090 够吗")
    assert a["request"]["seq_len"] == 8192


def test_tokens_reaching_a_length_is_the_context_en() -> None:
    a = answer_json("4 V100s serving Qwen1.5-72B-Chat int4 OOM once the tokens reach 10k")
    assert a["request"]["seq_len"] == 10_000


def test_a_daily_volume_reached_is_no_context() -> None:
    a = answer_json("部署 qwen2.5-7b，每天的 token 数到 20000/天，要几张 4090")
    assert a["request"]["seq_len"] != 20_000


def test_a_corpus_reached_in_training_is_no_context() -> None:
    a = answer_json("预训练 7B，token 数到 1T 要多少张 A100")
    assert a["request"]["tokens"] == 1e12
    assert a["request"]["seq_len"] != 1e12


def test_the_output_reaching_a_length_is_not_read_as_the_context() -> None:
    from bot.parse.reach_length import reached_length

    assert reached_length("部署 qwen2.5-7b,token 数到 ", " 的时候 oom")
    assert not reached_length("部署 qwen2.5-7b,输出 token 数到 ", " 就 oom")
    assert not reached_length("serving llama, the generated tokens reach ", " and it ooms")
    assert not reached_length("token 数到 ", " per second")


# 4. a tagged family name said alone ---------------------------------------------------------------------


def test_tagged_family_alone_is_named_as_typed_zh() -> None:
    a = answer_json("微调后的 qwen-vl-chat 用 lmdeploy 0.5.0 量化成 INT4，在一张 4090 上推理，显存占用没降")
    assert a["interpretation"]["unknown_model"] == "qwen-vl-chat"
    assert a["request"]["runtime"] == "lmdeploy"
    assert a["request"]["precision"] == "int4"


def test_tagged_family_alone_is_named_as_typed_en() -> None:
    a = answer_json("qwen-vl-chat on one 4090, how much memory?")
    assert a["interpretation"]["unknown_model"] == "qwen-vl-chat"


def test_a_tool_named_after_a_family_is_no_model() -> None:
    a = answer_json("用 ChatGLM-Tuning 微调，显存不够")
    assert a["interpretation"]["unknown_model"] is None
    a = answer_json("用 llama-factory 微调，3090 够吗")
    assert a["interpretation"]["unknown_model"] is None


def test_a_sized_name_is_still_the_catalog_model() -> None:
    a = answer_json("qwen2.5-7b-instruct 在 4090 上推理")
    assert a["request"]["model"] == "Qwen2.5-7B"
    assert a["interpretation"]["unknown_model"] is None
