"""Round 31, both languages (s35-r31, issue 24): readers for what the r31work half missed at its freeze, each
tested with sentences of our own (must-read and must-not-misread), in both languages where the form exists.

1. FastDeploy's weight-only quantization names (its quantization docs: WINT8 / WINT4 keep the weights in
   INT8 / INT4, WINT2 in 2 bits, W4Afp8 INT4 weights with FP8 activations) are those weight formats, in its
   ``--quantization`` flag and in prose ('WINT4 量化'); before, '--quantize: wint4' was named 'no_field'
   and the model sized in bf16 (zh31-007, zh31-008).
2. '精调' is a fine-tuning word before an unknown model's name, as '微调' is ('精调 CogVLM': zh31-014), and
   SwissArmyTransformer's ``MP_SIZE`` (CogVLM's fine-tuning scripts) is the model-parallel size, TP.
3. 'KEY is set to VALUE' / 'KEY set to VALUE' joins a key to its value in the key readers
   (bot.parse.vocab_patterns ``_SEP``), and MindIE's ``maxInputTokenLen`` is the input's length, as
   TensorRT-LLM's ``max_input_len`` is (en31-005: 'when maxInputTokenLen is set to 8192').
4. Several counts said to fail and a larger one said to work ('1 card failed, 2 cards failed, 4 cards
   succeeded') size the range from the smallest that failed up to the one that worked; a smaller count said to
   work beside them is another setup's (en31-005: 'with 2.1.RC2 a single card worked').
"""

from __future__ import annotations

from typing import Any

from tests.real_questions import answer_json


def _ignored(answer: dict[str, Any]) -> list[str]:
    return [i["text"] for i in answer["interpretation"]["ignored"]]


# 1. FastDeploy weight-only names -------------------------------------------------------------------------


def test_fastdeploy_wint4_flag_is_int4_zh() -> None:
    a = answer_json(
        "用 FastDeploy 部署 ERNIE-4.5-300B-A47B：--tensor-parallel-size 4 --quantization wint4 "
        "--max-model-len 32768，4 张 80G 的 H800 够吗？"
    )
    assert a["request"]["precision"] == "int4"
    assert not any(t.startswith("--quantize") for t in _ignored(a))


def test_fastdeploy_wint8_flag_is_int8_en() -> None:
    a = answer_json("Serving ERNIE-4.5-21B-A3B with fastdeploy --quantization wint8 on one A100 40GB: fits?")
    assert a["request"]["precision"] == "int8"


def test_wint_names_in_prose() -> None:
    zh = answer_json("用 WINT4 量化部署 ERNIE-4.5-300B-A47B 需要几张 80G 的卡？")
    en = answer_json("ERNIE-4.5-21B-A3B in WINT8 on one L20, how much memory?")
    assert zh["request"]["precision"] == "int4" and en["request"]["precision"] == "int8"


def test_a_word_ending_in_wint_is_no_format() -> None:
    """Must not misread: 'twint4' (a word with the letters inside) and 'wint 4' typed apart are no format."""
    a = answer_json("Qwen2.5-7B on one A10 with the twint4 tokenizer in fp16: how much memory?")
    assert a["request"]["precision"] == "fp16"


# 2. '精调' and MP_SIZE ------------------------------------------------------------------------------------


def test_jingtiao_names_the_unknown_model() -> None:
    a = answer_json("用 8 张 3090 精调 CogVLM 要多少显存？")
    assert a["interpretation"]["unknown_model"] == "CogVLM"
    assert a["request"]["stage"] == "finetune"


def test_mp_size_is_tp_zh_and_en() -> None:
    a = answer_json("使用 8*3090 精调 CogVLM（MP_SIZE=4）时内存爆掉")
    assert a["request"]["tp"] == 4 and "4" not in _ignored(a)
    assert answer_json("fine-tune CogVLM with mp size 2 on 4 A100s")["request"]["tp"] == 2


def test_an_mp_score_is_no_parallel_size() -> None:
    """Must not misread: 'MP' before another word than size ('the MP score is 4') sets no TP."""
    a = answer_json("the MP score is 4 on 8 A100s for llama-7b")
    assert a["request"]["tp"] is None


# 3. 'is set to' and maxInputTokenLen -------------------------------------------------------------------


def test_set_to_joins_a_key_and_its_value() -> None:
    a = answer_json("TensorRT-LLM build of Llama-2-7b with max_input_len set to 2048 on one A10")
    assert a["request"]["prompt_tokens"] == 2048 and "2048" not in _ignored(a)
    b = answer_json("Fine-tuning Qwen2.5-7B with cutoff_len set to 2048 on one A100, batch size set at 4")
    assert b["request"]["seq_len"] == 2048 and b["request"]["batch_size"] == 4


def test_mindie_max_input_token_len_is_the_input_length() -> None:
    a = answer_json("maxInputTokenLen is set to 8192 on 2 cards for Qwen2.5-VL-7B-Instruct with MindIE")
    assert a["request"]["prompt_tokens"] == 8192
    b = answer_json("MindIE 部署 Qwen2.5-72B，maxSeqLen 32768、maxInputTokenLen 16384，4 张 910B 够吗？")
    assert b["request"]["max_model_len"] == 32768 and b["request"]["prompt_tokens"] == 16384


def test_set_up_is_no_assignment() -> None:
    """Must not misread: 'set up' after a key joins nothing ('batch size: we set up 4 nodes')."""
    a = answer_json("We set up 4 nodes of 8 H100 to pretrain a 7B; batch size was never set up. How long?")
    assert a["request"]["batch_size"] != 4


# 4. Several counts failed, a larger one worked ---------------------------------------------------------


def test_counts_failed_then_one_worked_en() -> None:
    a = answer_json("Qwen2.5-7B on vLLM: it OOMs on 1 A10 and on 2 A10s, but runs fine on 4 A10s. How many?")
    assert (a["request"]["gpu_count"], a["request"]["gpu_count_max"]) == (1, 4)


def test_counts_failed_then_one_worked_zh() -> None:
    a = answer_json("Qwen2.5-7B 在 1 张 A10 上 OOM，2 张 A10 也 OOM，4 张 A10 就能正常跑，需要几张？")
    assert (a["request"]["gpu_count"], a["request"]["gpu_count_max"]) == (1, 4)


def test_a_smaller_count_that_ran_is_another_setup() -> None:
    a = answer_json(
        "Qwen2.5-VL-7B on MindIE 2.2 with Ascend 910B2: 1 card failed, 2 cards failed, 4 cards succeeded; "
        "with the older release a single card worked."
    )
    assert (a["request"]["gpu_count"], a["request"]["gpu_count_max"]) == (1, 4)


def test_the_larger_count_failing_is_no_range() -> None:
    """Must not misread: a count that ran below the ones that failed is no lower bound ('runs on 1, OOMs on 2
    and 4': another job's load), so no range from it."""
    a = answer_json("Qwen2.5-7B runs fine on 1 A10 and OOMs on 2 A10s and 4 A10s")
    assert a["request"].get("gpu_count_max") is None


# 5. A fine-tuning toolkit's pre-training stage continues a model -----------------------------------------


def test_medicalgpt_pretraining_of_a_release_is_continued_zh() -> None:
    a = answer_json("我在单机 8 卡 3090 上用 MedicalGPT 的 pretraining.py 全量预训练 baichuan-7b，总是爆显存")
    assert a["request"]["stage"] == "continued_pretrain"


def test_medicalgpt_pretraining_of_a_release_is_continued_en() -> None:
    a = answer_json("I pretrain Llama-2-7B with MedicalGPT's pretraining.py on 8 A100s: time for 10B tokens?")
    assert a["request"]["stage"] == "continued_pretrain"


def test_from_scratch_or_a_release_own_training_stays_pretraining() -> None:
    """Must not misread: pre-training from nothing ('从零'), or without a toolkit that continues a model, is
    pre-training ('baichuan-7B 在千卡集群上预训练要多久': the release's own training)."""
    assert answer_json("用 MedicalGPT 从零预训练一个 1B 模型要多久")["request"]["stage"] == "pretrain"
    assert answer_json("baichuan-7B 在千卡集群上预训练要多久？")["request"]["stage"] == "pretrain"
