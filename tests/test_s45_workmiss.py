"""Session 45, part workmiss: the working splits' misses of rounds 1–40 (issue 24 items 2 and 4).

1. Reader (bot.parse.launched_tools.RELEASED_RE): a one-word tool name with a release number of three parts
   ('with sparkinfer 0.5.10', 'FlagEmbedding 用的是 1.2.3 版本') is named as typed, never dropped; the
   environment's software with such a version ('CUDA 12.1.1', 'Ubuntu 22.04.3') and the known engines are not.
2. Reader (bot.parse.mention_steps): an MFU written as a percentage below the 1 % bound ('0.96% MFU') is
   named with its percent sign and its reason, so the item names the fraction the user meant; scorer
   (tests/real_questions.py PERCENT_KEYS): a named 'N%' names the fraction N/100.
3. Reader (bot.parse.offload_aside): an offload said beside a question asked without one ('only starts with
   --cpu-offload-gb … without offloading?', 'with or without offloading to CPU', '开不开 offload') is named by
   its direction as another setup's; scorer: offload lists as each used or named (EACH_NAMED).
4. Reader (bot.parse.model_names._called): a plain name between a size and a model word ('the
   new 33B vicuna model', '33B 的 vicuna 模型') is the model's name, named as typed.
5. Reader (bot.parse.configs.positional): a function word after 'vllm serve' in prose ('vllm serve with
   --tensor-parallel-size 4') is no model's name; the model the message names stays the one named.
"""

from __future__ import annotations

from tests.cli_run import ask_json_in_process as _answer
from tests.cli_run import ignored_pairs as _named
from tests.real_questions import key_understood

# 1. a tool by its three-part release: must read ------------------------------------------------------------


def test_a_serving_engine_with_its_release_is_named_en() -> None:
    """en40-007's form: 'with sparkinfer 0.5.10' serving a 27B: the engine named as typed, not modelled."""
    a = _answer("Serving a 27B with sparkinfer 0.5.10 on a rented RTX 5090: output stays flat at 91 tok/s.")
    assert ("runtime: sparkinfer", "runtime_not_modelled") in _named(a)
    assert a["request"]["gpu"] == "RTX-5090"


def test_a_serving_library_with_its_release_is_named_zh() -> None:
    """zh22-025's form: 'FlagEmbedding 用的是 1.2.3 版本' in a serving question: named as typed."""
    a = _answer("服务起的时候指定了两张卡，reranker 加载后显存就爆了。FlagEmbedding 用的是 1.2.3 版本。")
    assert ("runtime: FlagEmbedding", "runtime_not_modelled") in _named(a)


def test_a_training_tool_with_its_version_word_is_named_zh() -> None:
    """'mytrainer 的版本是 0.4.1' in a fine-tuning question: the training tool, named as typed."""
    a = _answer("微调 Qwen2-7B，mytrainer 的版本是 0.4.1，8 张 A100")
    assert ("training_tool: mytrainer", "no_field") in _named(a)
    assert a["request"]["gpu_count"] == 8


def test_a_training_tool_with_its_release_is_named_en() -> None:
    """'using fooforge 2.3.1 to fine-tune': the training tool, named as typed."""
    a = _answer("Fine-tuning Qwen2-7B using fooforge 2.3.1 on 8 A100s")
    assert ("training_tool: fooforge", "no_field") in _named(a)


# 1. must not misread: the environment's versions and known engines ------------------------------------------


def test_the_environment_with_a_release_is_no_tool_en() -> None:
    """'with CUDA 12.1.1', 'on Ubuntu 22.04.3', 'with transformers 4.41.2': no unknown tool named."""
    a = _answer("I serve Qwen2-7B on Ubuntu 22.04.3 with transformers 4.41.2 and with CUDA 12.1.1 on a 4090")
    assert not [t for t, r in _named(a) if r == "runtime_not_modelled"]
    assert a["request"]["runtime"] == "transformers"


def test_the_environment_with_a_release_is_no_tool_zh() -> None:
    """'Ubuntu 版本 22.04.3，CUDA 12.1.1 版本': the machine's software, no tool named."""
    a = _answer("用 vllm 0.6.3 部署 Qwen2-7B，Ubuntu 版本 22.04.3，CUDA 12.1.1 版本，A100")
    assert not [t for t, r in _named(a) if r in ("runtime_not_modelled", "no_field")]
    assert a["request"]["runtime"] == "vLLM"


# 2. an MFU below the bound, as a percentage: must read -----------------------------------------------------


def test_an_mfu_below_one_percent_is_named_with_its_percent_en() -> None:
    """en40-016's form: '0.96% MFU' (nanoGPT reports MFU against an A100's 312 TFLOPS): below the 1 % bound
    (estimator/request.py mfu stated=(0.01, 1.0)), named as typed with its reason, and that names 0.0096."""
    a = _answer("Training GPT-2 with nanoGPT on 2x TITAN Xp, each iter takes 33.7 s at 0.96% MFU. How long?")
    assert ("0.96%", "unusable") in _named(a)
    assert a["request"]["mfu"] != 0.0096
    assert key_understood("mfu", 0.0096, a)
    assert "0.96%" in a["reply"]


def test_an_mfu_below_one_percent_is_named_with_its_percent_zh() -> None:
    """'MFU 只有 0.5%': named as typed with its percent sign, which names the fraction 0.005."""
    a = _answer("用 8 张 A100 预训练 7B 模型 1000 亿 token，MFU 只有 0.5%，要多久？")
    assert ("0.5%", "unusable") in _named(a)
    assert key_understood("mfu", 0.005, a)


# 2. must not misread: an MFU inside the bounds is used, a bare number names no percent ---------------------


def test_an_mfu_within_bounds_is_used_en() -> None:
    """'at 38% MFU' is used as 0.38, nothing named."""
    a = _answer("Pre-train a 7B model on 1T tokens on 64 H100s at 38% MFU")
    assert a["request"]["mfu"] == 0.38
    assert not [t for t, r in _named(a) if r == "unusable"]


def test_a_named_number_without_percent_names_no_fraction() -> None:
    """The scorer reads 'N%' as N/100 only with the percent sign: '0.96' alone is not MFU 0.0096."""
    a = {"request": {}, "interpretation": {"ignored": [{"text": "0.96", "reason": "unusable"}]}}
    assert not key_understood("mfu", 0.0096, a)
    b = {"request": {}, "interpretation": {"ignored": [{"text": "0.96%", "reason": "unusable"}]}}
    assert key_understood("mfu", 0.0096, b)


# 3. an offload said beside a question asked without one: must read ----------------------------------------


def test_an_offload_flag_beside_without_offloading_is_named_en() -> None:
    """en40-003's form: '--cpu-offload-gb' ran, the question asks 'without offloading': sized without
    offload, the CPU offload named as another setup's; the scorer's list ['none', 'cpu'] is understood."""
    a = _answer(
        "On 8x RTX 3090 I serve a 70B with vLLM: the 250K context only starts with --cpu-offload-gb. "
        "Can the eight 3090s hold the same context without offloading?"
    )
    assert a["request"]["offload"] is False
    assert ("offload: cpu", "other_setup") in _named(a)
    assert key_understood("offload", ["none", "cpu"], a)


def test_cpu_and_nvme_offloads_beside_without_offload_are_named_en() -> None:
    """en36-032's form: CPU offload ran, NVMe offload OOMed, 'without offload?' asked: both named."""
    a = _answer(
        "Training Flan-T5-large with DeepSpeed on an RX 5600 XT 8GB: ZeRO-3 with the optimizer offloaded to "
        "CPU runs; offloading to NVMe instead runs out of memory. Is this card big enough without offload?"
    )
    assert a["request"]["offload"] is False
    assert {("offload: cpu", "other_setup"), ("offload: nvme", "other_setup")} <= set(_named(a))
    assert key_understood("offload", ["cpu", "nvme"], a)


def test_with_or_without_offloading_names_the_offload_en() -> None:
    """en36-028's form: 'with or without offloading to CPU': the CPU offload named beside the no-offload."""
    a = _answer(
        "Fine-tuning GPT-NeoX-20B with ZeRO stage 3, with or without offloading to CPU: how much VRAM?"
    )
    assert ("offload: cpu", "other_setup") in _named(a)
    assert key_understood("offload", ["cpu", "none"], a)


def test_an_earlier_offload_beside_no_offload_is_named_zh() -> None:
    """'之前开了 offload 到 CPU 才跑起来，不开 offload 的话 …能跑吗': the CPU offload named, another setup."""
    a = _answer("之前开了 offload 到 CPU 才跑起来，不开 offload 的话 8 张 A100 微调 Qwen2-72B 能跑吗")
    assert a["request"]["offload"] is False
    assert ("offload: cpu", "other_setup") in _named(a)


def test_offload_or_not_names_the_offload_zh() -> None:
    """'开不开 offload 显存差多少': both setups asked, the CPU offload named beside the one sized."""
    a = _answer("8 张 A100 全参微调 Qwen2-72B，开不开 offload 显存差多少")
    assert ("offload: cpu", "other_setup") in _named(a)


# 3. must not misread: a no-offload alone names no offload ---------------------------------------------------


def test_without_offload_alone_names_no_offload_en() -> None:
    """'with ds_zero2_no_offload.json', 'without offloading' alone: no offload item."""
    for q in ("Fine-tune Llama-2-13B on 2 A100s with ds_zero2_no_offload.json",
              "Can I fine-tune Llama-2-13B on 2 A100s without offloading?"):  # fmt: skip
        a = _answer(q)
        assert a["request"]["offload"] is False
        assert not [t for t, _ in _named(a) if t.startswith("offload:")]


def test_without_offload_alone_names_no_offload_zh() -> None:
    """'不开 offload 能跑吗' alone: no offload item."""
    a = _answer("8 张 A100 全参微调 Qwen2-72B，不开 offload 能跑吗")
    assert a["request"]["offload"] is False
    assert not [t for t, _ in _named(a) if t.startswith("offload:")]


def test_a_lone_offload_list_is_not_understood_without_naming() -> None:
    """The scorer: ['none', 'cpu'] with offload False and nothing named is a miss (the list rule can fail)."""
    a = {"request": {"offload": False}, "interpretation": {"ignored": []}}
    assert not key_understood("offload", ["none", "cpu"], a)


# 4. a plain name called a model after its size: must read -----------------------------------------------


def test_a_plain_name_between_a_size_and_model_is_the_model_en() -> None:
    """en40-029's form: 'the new 33B vicuna model' (not in the catalog): named as typed, its size sized."""
    a = _answer("LocalAI will not load the new 33B vicuna model for me. How much RAM does a 33B need?")
    assert a["interpretation"]["unknown_model"].lower() == "vicuna 33b"
    assert a["request"]["params_total"] == 33e9
    assert key_understood("model", "vicuna-33B", a)


def test_a_plain_name_between_a_size_and_model_is_the_model_zh() -> None:
    """'33B 的 vicuna 模型': the same, in Chinese."""
    a = _answer("Mac 上用 LocalAI 跑 33B 的 vicuna 模型要多少内存？")
    assert a["interpretation"]["unknown_model"].lower() == "vicuna 33b"


# 4. must not misread: an English or setting word before 'model' is no name ---------------------------------


def test_a_word_before_model_is_no_name_en() -> None:
    """'the 7B base model', 'a 13B language model', 'the 7B gguf model': a size only, no name."""
    for q in ("How much VRAM does the 7B base model need on an A100?",
              "How much VRAM does a 13B language model need on an A100?",
              "How much VRAM does the 7B gguf model need on an A100?"):  # fmt: skip
        a = _answer(q)
        assert a["interpretation"]["unknown_model"] is None, q
        assert a["request"]["params_total"] in (7e9, 13e9)


def test_a_setting_word_before_model_is_no_name_zh() -> None:
    """'7b 的 awq 模型': a weight format, no model's name."""
    a = _answer("部署 7b 的 awq 模型要多少显存，用 A100")
    assert a["interpretation"]["unknown_model"] is None
    assert a["request"]["params_total"] == 7e9


# 5. a serve command written in prose: must read / must not misread ----------------------------------------


def test_a_prose_word_after_vllm_serve_is_no_model_en() -> None:
    """en40-002's form: 'vllm serve with --tensor-parallel-size 4' after the model was named: the model stays
    the one named (never 'with'), the flag is read."""
    a = _answer(
        "We serve wtdcode/Qwen3.8-Flash-Next-AWQ-W4A16 with vLLM on 4xA100 80GB PCIe: vllm serve with "
        "--tensor-parallel-size 4 and --max-num-seqs 8. What throughput should four A100s give?"
    )
    assert a["interpretation"]["unknown_model"] != "with"
    assert key_understood("model", "Qwen3.8-Flash-Next", a)


def test_a_prose_word_after_vllm_serve_is_no_model_zh() -> None:
    """'vllm serve 用 --tensor-parallel-size 4': the model named before stays the model."""
    a = _answer(
        "我们部署 wtdcode/Foo3-Flash-Next-AWQ，vllm serve 用 --tensor-parallel-size 4 和 "
        "--max-num-seqs 8，4 张 A100"
    )
    assert a["interpretation"]["unknown_model"] == "Foo3-Flash-Next-AWQ"
    assert a["request"]["tp"] == 4


def test_a_model_after_vllm_serve_is_still_read() -> None:
    """'vllm serve Foo3-Flash --tensor-parallel-size 4': the positional model, named as typed."""
    a = _answer("vllm serve Foo3-Flash --tensor-parallel-size 4 on 4 A100s")
    assert a["interpretation"]["unknown_model"] == "Foo3-Flash"


# 6. two engines of one stack, each measured: must read / must not misread ---------------------------------


def test_ollama_and_llama_cpp_each_measured_are_two_setups_en() -> None:
    """en40-020's form: 'ollama gives 240.5 and llama.cpp 656.4 tok/s': one sized, the other named."""
    a = _answer(
        "On an RTX 4090 with Qwen2.5-Coder-1.5B in Q4_K_M, ollama gives 240.5 and llama.cpp 656.4 tok/s. "
        "What should it serve at?"
    )
    assert a["request"]["runtime"] == "Ollama"
    assert ("runtime: llama.cpp", "other_setup") in _named(a)
    assert key_understood("runtime", ["llama.cpp", "Ollama"], a)


def test_ollama_and_llama_cpp_each_measured_are_two_setups_zh() -> None:
    """'ollama 240 tok/s，llama.cpp 656 tok/s': the same, in Chinese."""
    a = _answer("4090 上跑 Qwen2.5-7B Q4_K_M，ollama 240 tok/s，llama.cpp 656 tok/s，正常吗")
    assert ("runtime: llama.cpp", "other_setup") in _named(a)


def test_ollama_on_its_llama_cpp_is_one_setup() -> None:
    """'Ollama (llama.cpp backend) gives 240 tok/s', 'Ollama 0.5.7 with llama.cpp': one stack, one run."""
    for q in ("Ollama (llama.cpp backend) gives 240 tok/s for Qwen2.5-7B on a 4090, is that normal?",
              "I run Ollama 0.5.7 with llama.cpp on a 4090 for Qwen2.5-7B, how fast?"):  # fmt: skip
        a = _answer(q)
        assert a["request"]["runtime"] == "Ollama"
        assert not [t for t, _ in _named(a) if t == "runtime: llama.cpp"], q


# 7. a build of a modelled engine by its maker's name: must read / must not misread --------------------------


def test_a_package_owning_llama_cpp_is_named_en() -> None:
    """en39-007's form: "IPEX-LLM's llama.cpp": llama.cpp sized, IPEX-LLM named as not modelled."""
    a = _answer(
        "On an Intel Arc A770M 16GB with IPEX-LLM's llama.cpp, gemma-3-12b-it-Q4_0.gguf generates 6.25 "
        "tokens/s. What speed should it reach?"
    )
    assert a["request"]["runtime"] == "llama.cpp"
    assert ("runtime: IPEX-LLM", "runtime_not_modelled") in _named(a)
    assert key_understood("runtime", ["IPEX-LLM", "llama.cpp"], a)


def test_a_package_owning_llama_cpp_is_named_zh() -> None:
    """'IPEX-LLM 的 llama.cpp': the same, in Chinese."""
    a = _answer("在 A770M 上用 IPEX-LLM 的 llama.cpp 跑 gemma-3-12b Q4_0，只有 6 token/s，正常吗")
    assert a["request"]["runtime"] == "llama.cpp"
    assert ("runtime: IPEX-LLM", "runtime_not_modelled") in _named(a)


def test_a_maker_or_a_plain_owner_of_an_engine_is_no_tool() -> None:
    """ "the team's vLLM", "Llama-3-8B's vLLM throughput", 'Meta 的 vLLM': no tool named; the engine sized."""
    for q in ("the team's vLLM serves Llama-3-8B on an H100: how fast?",
              "Llama-3-8B's vLLM throughput on an H100?",
              "用 Meta 的 vLLM 镜像在 H100 上部署 Llama-3-8B，吞吐多少？"):  # fmt: skip
        a = _answer(q)
        assert a["request"]["runtime"] == "vLLM", q
        assert not [t for t, r in _named(a) if r == "runtime_not_modelled"], q


# 8. a number with its magnitude is no field holding its digits: must read / must not misread ------------


def test_a_length_in_k_beside_a_count_of_its_digits_is_named_en() -> None:
    """en37-028's form: '4 nodes of 8 GPUs, max seq length 4k … at 32k': the 4k is no '4 nodes' (the audit
    compares a number with a magnitude only with fields in units other than 1), named as the other run's
    seq_len (bot.parse.keyed_values), the 32k sized."""
    a = _answer(
        "SFT of Qwen3 30B-a3b with Megatron on H200s is slow: 4 nodes of 8 GPUs, max seq length 4k, global "
        "batch 512 take about 13 s/iter; at 32k with sequence packing about 35 s/iter. What speed to expect?"
    )
    assert a["request"]["seq_len"] == 32768
    assert ("seq_len: 4096", "other_setup") in _named(a)
    assert key_understood("seq_len", [4096, 32768], a)


def test_a_length_in_k_beside_a_count_of_its_digits_is_named_zh() -> None:
    """'4 台 8 卡，最大序列长度 4k 时 … 最大序列长度 32k 时': the same, in Chinese."""
    a = _answer(
        "Qwen3 30B-a3b 在 H200 上 SFT 很慢：4 台 8 卡，最大序列长度 4k 时 13 s/iter；"
        "最大序列长度 32k 加 packing 时 35 s/iter，正常吗？"
    )
    assert ("seq_len: 4096", "other_setup") in _named(a)


def test_a_used_length_in_k_is_not_named() -> None:
    """'at 8k context' sized as 8192, '预算 10万' as 100,000: used, nothing named unread."""
    a = _answer("Serve Llama-3-8B with vLLM at 8k context on one 4090")
    assert a["request"]["seq_len"] == 8192
    assert not [t for t, r in _named(a) if r == "unread"]
    b = _answer("预算 10万，用 8 张 A100 微调 Qwen2-7B 1 亿 token 要多久")
    assert b["request"]["budget"] == 100000
    assert not [t for t, r in _named(b) if r == "unread"]
