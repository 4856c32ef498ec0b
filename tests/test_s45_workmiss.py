"""Session 45, part workmiss: the working splits' misses of rounds 1–40 (issue 24 items 2 and 4).

1. Reader (bot.parse.launched_tools.RELEASED_RE): a one-word tool name with a release number of three parts
   ('with sparkinfer 0.5.10', 'FlagEmbedding 用的是 1.2.3 版本') is named as typed, never dropped; the
   environment's software with such a version ('CUDA 12.1.1', 'Ubuntu 22.04.3') and the known engines are not.
2. Reader (bot.parse.mention_steps): an MFU written as a percentage below the 1 % bound ('0.96% MFU') is
   named with its percent sign and its reason, so the item names the fraction the user meant; scorer
   (tests/real_questions.py PERCENT_KEYS): a named 'N%' names the fraction N/100.
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
