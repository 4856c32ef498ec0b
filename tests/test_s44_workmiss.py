"""Session 44, part workmiss: the working splits' misses of rounds 1–39 (issue 24 items 2 and 4).

1. Reader (bot.parse.keyed_values): another run's value written after the setting's own key ('--cutoff_len
   2048 … --cutoff_len 1024', 'max seq length 4k … at 32k', '序列长度 2048 … 序列长度 1024') is named as that
   setting's value of another setup, never left unread.
2. Reader (bot.parse.left_behind.other_memories): a card memory as one of two, an article between them ('the
   40GB or the 80GB A100?'), named as another setup.
3. Names (bot.parse.more_engines): realizar and the ggml library said as a project are serving engines
   named as not modelled; a ggml file or format is not.
4. Scorer (tests/real_questions.py): a served request's output length is used when the request sizes a
   prompt and a sequence whose difference it is ('1k/1k ISL/OSL' → prompt 1000, sequence 2000).
"""

from __future__ import annotations

from bot.parse.keyed_values import keyed_field
from tests.cli_run import ask_json_in_process as _answer
from tests.cli_run import ignored_pairs as _named
from tests.real_questions import score


def _rows(answer: dict, setting: str) -> list[float]:
    return [
        r["value"] for r in (answer.get("report") or {}).get("per_value") or [] if r["setting"] == setting
    ]


# 1. another run's value after its key: must read ----------------------------------------------------------


def test_cutoff_len_of_another_run_is_named_en() -> None:
    """en35-008's form: '--cutoff_len 2048' of the smaller models, '--cutoff_len 1024' of the run asked: the
    1024 sized, the 2048 a value of another setup (a row of its own or named), never left unread."""
    a = _answer(
        "On my 4090 I can finetune 7b and 13b with --cutoff_len 2048, 30b only with --cutoff_len 1024, "
        "and I can't finetune 65b."
    )
    assert a["request"]["seq_len"] == 1024
    assert ("2048", "unread") not in _named(a)
    assert 2048 in (a["request"].get("values_listed") or []) or ("seq_len: 2048", "other_setup") in _named(a)


def test_sequence_length_of_another_run_is_named_zh() -> None:
    """The same in Chinese: '序列长度 2048 会 OOM，序列长度 1024 可以' — the 1024 sized, the 2048 named."""
    a = _answer("4090 上 序列长度 2048 会 OOM，序列长度 1024 可以跑 7B 全参微调吗")
    assert a["request"]["seq_len"] == 1024
    assert ("2048", "unread") not in _named(a)
    assert 2048 in (a["request"].get("values_listed") or []) or ("seq_len: 2048", "other_setup") in _named(a)


def test_length_in_k_after_its_key_is_named_in_tokens() -> None:
    """en37-028's form: 'max seq length 4k … at 32k with sequence packing' — 32k sized, 4k the other run's,
    named as 4096 tokens (bot.parse.roles.seq_value: a power of two in k is binary)."""
    s = "max seq length 4k takes 13 s/iter; at 32k with sequence packing 35 s/iter"
    assert keyed_field(s, "4", {"seq_len": 32768}) == "seq_len: 4096"
    assert keyed_field("最大序列长度 20k 跑不动", "20", {"seq_len": 8192}) == "seq_len: 20000"


# 1. must not misread ----------------------------------------------------------------------------------------


def test_the_value_used_said_again_is_not_another_run() -> None:
    """The same value after the key twice is the one used: nothing to name (en and zh)."""
    assert keyed_field("--cutoff_len 1024 then again --cutoff_len 1024", "1024", {"seq_len": 1024}) is None
    assert keyed_field("序列长度 1024，还是序列长度 1024", "1024", {"seq_len": 1024}) is None


def test_a_number_without_its_key_or_a_negated_key_is_left_alone() -> None:
    """A number after no key ('on 2048 cards'), after a key the request holds no value of, or after a key
    with a negation between ('序列长度不是 2048', 'seq length not 2048') is not named by this rule."""
    assert keyed_field("we trained on 2048 samples", "2048", {"seq_len": 1024}) is None
    assert keyed_field("max seq length 2048", "2048", {"seq_len": None}) is None
    assert keyed_field("序列长度不是 2048", "2048", {"seq_len": 1024}) is None
    assert keyed_field("the seq length is not 2048", "2048", {"seq_len": 1024}) is None


def test_a_key_of_another_field_does_not_name_a_length() -> None:
    """'batch size 16' beside a sequence of 1024: the 16 follows the batch's key, not the length's, and
    the request's batch is 16 — nothing named (en); '批大小 16' likewise (zh)."""
    assert keyed_field("seq len 1024, batch size 16", "16", {"seq_len": 1024, "batch_size": 16}) is None
    assert keyed_field("序列长度 1024，批大小 16", "16", {"seq_len": 1024, "batch_size": 16}) is None


# 2. one of two card memories -----------------------------------------------------------------------------


def test_one_of_two_memories_with_the_article_is_named_en() -> None:
    """en37-009's form: 'Is that the 40GB or the 80GB A100?' — one sized, the other named, never unread."""
    a = _answer("Llama-2-13B inference on an A100: is that the 40GB or the 80GB A100?")
    mem = a["request"]["gpu_memory_gib"]
    assert mem in (40, 80)
    other = 40 if mem == 80 else 80
    assert ("40", "unread") not in _named(a) and ("80", "unread") not in _named(a)
    assert (f"{other} GB", "other_setup") in _named(a) or other in _rows(a, "gpu_memory_gib")


def test_one_of_two_memories_is_read_zh() -> None:
    """The Chinese form ('是 40G 还是 80G 的 A100'): each memory used or named, neither unread."""
    a = _answer("Llama-2-13B 推理，用的是 40G 还是 80G 的 A100？")
    assert ("40", "unread") not in _named(a) and ("80", "unread") not in _named(a)


def test_memory_and_a_count_are_no_two_memories() -> None:
    """'40GB or the 8 A100s' is no pair of memories: the 8 has no memory unit, nothing named as 8 GB."""
    a = _answer("Llama-2-13B inference: one 40GB A100 or the 8 A100s of the server?")
    assert ("8 GB", "other_setup") not in _named(a)


# 3. engines named ------------------------------------------------------------------------------------------


def test_ggml_named_as_an_engine_en() -> None:
    """en39-026: ggml's gpt-2 example runs on the ggml library itself: named as an engine not modelled."""
    b = _answer("With ggml's gpt-2 example a 13B gpt2 model in fp16 is slow. How much memory does it need?")
    assert ("runtime: ggml", "runtime_not_modelled") in _named(b)


def test_ggml_and_realizar_named_zh() -> None:
    """The Chinese forms: '用 ggml 跑 gpt-2 的例子', '用 realizar 在 Jetson 上跑' name the engine."""
    a = _answer("用 ggml 跑 gpt-2 13B 的 fp16 模型要多少内存？")
    assert ("runtime: ggml", "runtime_not_modelled") in _named(a)
    b = _answer("用 realizar 在 Jetson Orin Nano 8GB 上跑 Qwen2.5-Coder-1.5B 的 Q4_K_M，能到多少 token/s？")
    assert ("runtime: realizar", "runtime_not_modelled") in _named(b)


def test_a_ggml_file_or_format_is_no_engine() -> None:
    """'ggml-model-q4_0.bin', 'GGML format', 'a ggml model' name a file or a format, not the library (en);
    '转成 ggml 格式' likewise (zh)."""
    a = _answer("I converted llama 7B to ggml-model-q4_0.bin in GGML format, how much RAM with llama.cpp?")
    assert not any("ggml" in t.lower() for t, why in _named(a) if why == "runtime_not_modelled")
    b = _answer("把 llama 7B 转成 ggml 格式后用 llama.cpp 跑要多少内存？")
    assert not any("ggml" in t.lower() for t, why in _named(b) if why == "runtime_not_modelled")


# 4. scorer ----------------------------------------------------------------------------------------------


def _record(stated: dict) -> dict:
    return {"id": "t", "lang": "en", "text": "", "stated": stated}


def test_served_output_is_the_sequence_less_its_prompt() -> None:
    """en37-039's labels (prompt_tokens 1024, max_completion_length 1024) against the answer's prompt 1000
    and sequence 2000 ('1k/1k ISL/OSL'): the output sized is 1000, within 5 % of 1024 — understood."""
    answer = {"request": {"stage": "inference", "prompt_tokens": 1000, "seq_len": 2000}}
    assert score(_record({"prompt_tokens": 1024, "max_completion_length": 1024}), answer) == []
    assert score(_record({"max_completion_length": 1024}), answer) == []


def test_served_output_must_match() -> None:
    """An output of 512 against a sequence of 2000 with a 1000-token prompt is not used; nor is an output
    in a training request (there the sequence is the prompt and completion summed exactly, s17)."""
    answer = {"request": {"stage": "inference", "prompt_tokens": 1000, "seq_len": 2000}}
    assert score(_record({"max_completion_length": 512}), answer) == ["max_completion_length"]
    training = {"request": {"stage": "finetune", "prompt_tokens": 1000, "seq_len": 2000}}
    assert score(_record({"max_completion_length": 1024}), training) == ["max_completion_length"]


# 5. a 4-bit base only tried beside the LoRA asked -------------------------------------------------------


def test_lora_with_a_four_bit_try_gets_both_rows_en() -> None:
    """en39-031's form: 'LoRA has r=8 …; if I turn on the 4-bit nf4 BitsAndBytesConfig … OOMs. How do I fit
    LoRA …?' — the LoRA asked, the 4-bit one a try: LoRA and QLoRA, a row each (not QLoRA alone)."""
    a = _answer(
        "SFT of a 7B with TRL on 8*RTX3080 runs out of memory. LoRA has r=8 on q_proj and v_proj; "
        "if I turn on the 4-bit nf4 BitsAndBytesConfig only GPU0 loads the model and OOMs. How do I fit LoRA?"
    )
    assert a["request"]["method"] == "lora"
    assert a["request"]["methods"] == ["lora", "qlora"]


def test_lora_with_a_four_bit_try_gets_both_rows_zh() -> None:
    """The same in Chinese: '如果开启 4bit 量化就 OOM，怎么跑 LoRA' — LoRA and QLoRA, a row each."""
    a = _answer(
        "Qwen2.5-7B 做 LoRA 微调，8 张 3080，如果开启 4bit 量化就只有 GPU0 加载然后 OOM，怎么跑 LoRA？"
    )
    assert a["request"]["method"] == "lora"
    assert a["request"]["methods"] == ["lora", "qlora"]


def test_lora_on_a_four_bit_base_said_is_qlora() -> None:
    """A 4-bit base said, not tried ('开了 4 比特量化', 'with load_in_4bit', 'When I fine-tune … in 4-bit'),
    stays QLoRA: the rule reads a try only."""
    for q in (
        "Qwen2.5-7B 做 LoRA 微调，开了 4 比特量化，8 张 3080 够吗？",
        "LoRA fine-tuning of Qwen2.5-7B with load_in_4bit on one 3090: enough?",
        "When I fine-tune Qwen2.5-7B with LoRA in 4-bit on a 3090 it OOMs. Why?",
    ):
        a = _answer(q)
        assert a["request"]["method"] == "qlora", q
        assert not a["request"].get("methods"), q


# 6. a later question narrows the models the first one names ----------------------------------------------


def test_later_question_narrows_two_models_en() -> None:
    """en39-018's form: 'Which GPU suits llama-2-7B-chat and llama-2-70B-chat? … which GPU server is best for
    the 70B chat in production?' — the 70B sized, the 7B named (before: the 7B, the first of the two)."""
    a = _answer(
        "Which GPU suits llama-2-7B-chat and llama-2-70B-chat on a live server? I ran Llama-7B-chat on a K80 "
        "and it took all of the card. Which GPU server is best for the 70B chat in production?"
    )
    assert a["request"]["model"] == "Llama-2-70B"
    assert ("model: llama-2-7B-chat", "other_setup") in _named(a)


def test_later_question_narrows_two_models_zh() -> None:
    """The same in Chinese: '… 线上部署用什么卡？70B 的生产环境用什么服务器最好？' — the 70B sized."""
    a = _answer("Llama-2-7B-chat 和 Llama-2-70B-chat 线上部署用什么卡？70B 的生产环境用什么服务器最好？")
    assert a["request"]["model"] == "Llama-2-70B"
    assert ("model: Llama-2-7B-chat", "other_setup") in _named(a)


def test_a_later_question_naming_both_changes_nothing() -> None:
    """A later question that names both again ('Will both fit …', '两个都能放下吗') narrows nothing: the
    first named is sized as before, the other named (en and zh)."""
    a = _answer(
        "How much memory do Qwen2.5-7B and Qwen2.5-14B need for inference? Will Qwen2.5-7B and "
        "Qwen2.5-14B both fit on one 4090?"
    )
    assert a["request"]["model"] == "Qwen2.5-7B"
    b = _answer(
        "Qwen2.5-7B 和 Qwen2.5-14B 推理各要多少显存？Qwen2.5-7B 和 Qwen2.5-14B 一张 4090 都能放下吗？"
    )
    assert b["request"]["model"] == "Qwen2.5-7B"


# 7. MLC-LLM's weight formats --------------------------------------------------------------------------------


def test_mlc_q4f16_1_named_and_sized_as_next_wider_en() -> None:
    """en39-030's form: '…-q4f16_1 … a 3B q4f16 model' (MLC-LLM: 4-bit weights, a 16-bit scale per 32: 4.5
    bits) — sized as Q4_K_M (4.85 bits, as IQ4_NL's 4.5 are), named as typed with the reason."""
    a = _answer("RedPajama-INCITE-Chat-3B-v1-q4f16_1 with MLC on a Pixel 8 Pro: how much memory for a 3B?")
    assert a["request"]["precision"] == "q4_k_m"
    assert ("precision: q4f16_1", "nearest_format") in _named(a)


def test_mlc_q4f16_1_named_zh() -> None:
    """The Chinese form: '用 MLC 在手机上跑 Llama-2-7B 的 q4f16_1 版本' — the same reading."""
    a = _answer("用 MLC 在手机上跑 Llama-2-7B 的 q4f16_1 版本要多少内存？")
    assert a["request"]["precision"] == "q4_k_m"
    assert ("precision: q4f16_1", "nearest_format") in _named(a)


def test_mlc_unquantized_and_gguf_words_unchanged() -> None:
    """'q0f16' is MLC's unquantized fp16, sized as such with nothing named; a GGUF 'Q4' stays Q4_K_M with
    nothing named (en), '4 月发布的 q4' likewise (zh)."""
    a = _answer("Llama-3-8B q0f16 with MLC on an RTX 4090: how much memory?")
    assert a["request"]["precision"] == "fp16"
    assert not any(t.startswith("precision") for t, _ in _named(a))
    b = _answer("Llama-3-8B 用 Ollama 跑 q4，4090 显存够吗？")
    assert b["request"]["precision"] == "q4_k_m"
    assert not any(t.startswith("precision") for t, _ in _named(b))


# 8. TGI's total length as optimum-tpu's threads write it ----------------------------------------------------


def test_max_total_length_is_the_engine_limit_en() -> None:
    """en39-040's form: 'MAX_INPUT_LENGTH=8191 … MAX_TOTAL_LENGTH=8192' of TGI — the 8192 is the served
    limit (max_model_len), as --max-total-tokens is; no longer unread."""
    a = _answer(
        "Deploying Gemma-2B with optimum-tpu's TGI on a v5e-8 fails with NotEnoughMemory. Would "
        "MAX_INPUT_LENGTH=8191, MAX_TOTAL_LENGTH=8192 and MAX_BATCH_SIZE=16 fit?"
    )
    assert a["request"]["max_model_len"] == 8192
    assert ("8192", "unread") not in _named(a)


def test_max_total_length_is_the_engine_limit_zh() -> None:
    """'用 TGI 部署 Gemma-2B，MAX_TOTAL_LENGTH=4096' — the same in Chinese."""
    a = _answer("用 TGI 部署 Gemma-2B，MAX_TOTAL_LENGTH=4096，v5e-8 上够吗？")
    assert a["request"]["max_model_len"] == 4096


def test_max_total_length_of_a_training_run_is_no_engine_limit() -> None:
    """In training ('DPO … max_total_length 4096'; '训练 … max_total_length 4096') no engine limit is set:
    the serving limits are read in serving only."""
    a = _answer("DPO training of Llama-3-8B with max_total_length 4096 on 8 A100")
    assert a["request"].get("max_model_len") is None
    b = _answer("在 8 张 A100 上 DPO 训练 Llama-3-8B，max_total_length 4096")
    assert b["request"].get("max_model_len") is None
