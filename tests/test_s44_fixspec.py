"""s44 fixspec: speculative decoding's named draft model in serving memory (issue 24 items 3, 4).

Values from the models' config.json files on the Hugging Face hub:
- meta-llama/Llama-3.2-1B: num_hidden_layers 16, num_key_value_heads 8, hidden_size 2048, num_attention_heads
  32 (head_dim 64), 1,235,814,400 parameters (model card: 1.23B; safetensors 2.47 GB in bf16).
- meta-llama/Llama-3.1-70B: num_hidden_layers 80, num_key_value_heads 8, head_dim 128.
- Qwen/Qwen2.5-0.5B-Instruct: num_hidden_layers 24, num_key_value_heads 2, hidden_size 896,
  num_attention_heads 14 (head_dim 64), 494,032,768 parameters (model card: 0.49B).
- Qwen/Qwen2.5-72B-Instruct-AWQ: num_hidden_layers 80, num_key_value_heads 8, head_dim 128.
vLLM runs the draft with the target's TP unless draft_tensor_parallel_size is set
(vllm/config/speculative.py SpeculativeConfig._verify_and_get_draft_tp) and takes its weights as unquantized
unless a quantization is stated for it (SpeculativeConfig.quantization), so 2 B a parameter.
"""

from __future__ import annotations

import pytest

from bot.cli import ask
from tests.real_questions import answer_json

LLAMA_1B_KV = 2 * 16 * 8 * 64 * 2  # K and V × layers × KV heads × head dim × 2 B = 32,768 B a token
LLAMA_70B_KV = 2 * 80 * 8 * 128 * 2  # 327,680 B a token
QWEN_05B_KV = 2 * 24 * 2 * 64 * 2  # 12,288 B a token
QWEN_72B_KV = 2 * 80 * 8 * 128 * 2  # 327,680 B a token
LLAMA_1B_PARAMS = 1_235_814_400
QWEN_05B_PARAMS = 494_032_768

LLAMA_EN = (
    "Serve Llama-3.1-70B-Instruct with vLLM on 4 x H100 with speculative decoding, "
    "Llama-3.2-1B as the draft model"
)
LLAMA_ZH = "用 vLLM 在 4 张 H100 上部署 Llama-3.1-70B-Instruct，开投机解码，用 Llama-3.2-1B 做草稿模型"
LLAMA_PLAIN_EN = "Serve Llama-3.1-70B-Instruct with vLLM on 4 x H100"
QWEN_ZH = (
    "用 vLLM 在 2 张 4090 上部署 Qwen2.5-72B-Instruct-AWQ，开投机解码，"
    "用 Qwen2.5-0.5B-Instruct 做草稿模型，需要多少显存"
)
QWEN_EN = (
    "Serve Qwen2.5-72B-Instruct-AWQ with vLLM on 2x RTX 4090 with speculative decoding, "
    "Qwen2.5-0.5B-Instruct as the draft model: how much memory?"
)
QWEN_PLAIN_ZH = "用 vLLM 在 2 张 4090 上部署 Qwen2.5-72B-Instruct-AWQ，需要多少显存"
VLLM_CMD = (
    "vllm serve meta-llama/Llama-3.1-70B-Instruct --tensor-parallel-size 4 --speculative-config "
    '\'{"model": "meta-llama/Llama-3.2-1B-Instruct", "num_speculative_tokens": 5}\''
)
SGL_CMD = (
    "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-70B-Instruct --tp 4 "
    "--speculative-algorithm STANDALONE --speculative-draft-model-path meta-llama/Llama-3.2-1B-Instruct"
)


def _inf(data: dict) -> dict:
    return data["report"]["inference"]


def _ignored(data: dict) -> dict[str, str]:
    return {i["text"]: i["reason"] for i in data["interpretation"]["ignored"]}


@pytest.mark.parametrize(
    "text", [LLAMA_EN, LLAMA_ZH, f"{VLLM_CMD}  on 4 H100s?", f"{VLLM_CMD}  4张H100 够吗"]
)
def test_the_llama_draft_weights_and_kv_are_counted(text: str) -> None:
    data, plain = answer_json(text), answer_json(LLAMA_PLAIN_EN)
    assert data["request"]["model"] == "Llama-3.1-70B" and data["request"]["draft_model"] == "Llama-3.2-1B"
    assert plain["request"]["draft_model"] is None
    assert _inf(plain)["kv_bytes_per_token"] == LLAMA_70B_KV
    assert _inf(data)["kv_bytes_per_token"] == LLAMA_70B_KV + LLAMA_1B_KV
    assert _inf(data)["weights_bytes"] - _inf(plain)["weights_bytes"] == pytest.approx(
        2 * LLAMA_1B_PARAMS, rel=0.01
    )
    # the speed is without speculation: the draft's bytes are not read per decoded token
    assert _inf(data)["decode_tokens_per_s"] == _inf(plain)["decode_tokens_per_s"]
    assert _inf(data)["kv_capacity_tokens"] < _inf(plain)["kv_capacity_tokens"]
    assert "draft_counted" in [w["code"] for w in data["report"]["warnings"]]
    reasons = _ignored(data)
    assert "speculative_draft" not in reasons.values() and "other_setup" not in reasons.values()


def test_the_sglang_draft_path_is_used_not_named() -> None:
    data = answer_json(f"{SGL_CMD}  on 4 H100s, enough?")
    assert data["request"]["draft_model"] == "Llama-3.2-1B"
    assert _inf(data)["kv_bytes_per_token"] == LLAMA_70B_KV + LLAMA_1B_KV
    reasons = {t.split(":")[0]: r for t, r in _ignored(data).items()}
    assert "--speculative-draft-model-path" not in reasons
    assert reasons["--speculative-algorithm"] == "speculative_speed"


@pytest.mark.parametrize("text", [QWEN_ZH, QWEN_EN])
def test_the_qwen_draft_on_two_4090s(text: str) -> None:
    """Session 43 trial q13: the 0.5B draft's 16-bit weights (0.99 GB) and its 12 KiB a token join the AWQ
    target's on the two cards."""
    data, plain = answer_json(text), answer_json(QWEN_PLAIN_ZH)
    assert data["request"]["draft_model"] == "Qwen2.5-0.5B"
    assert _inf(plain)["kv_bytes_per_token"] == QWEN_72B_KV
    assert _inf(data)["kv_bytes_per_token"] == QWEN_72B_KV + QWEN_05B_KV
    assert _inf(data)["weights_bytes"] - _inf(plain)["weights_bytes"] == pytest.approx(
        2 * QWEN_05B_PARAMS, rel=0.01
    )
    assert (
        _inf(data)["bytes_per_param"] == _inf(plain)["bytes_per_param"]
    )  # the target's AWQ bytes, unchanged


def test_the_draft_is_said_counted_in_both_languages() -> None:
    en = ask(LLAMA_EN, None, "plain")[0]
    zh = ask(QWEN_ZH, None, "plain")[0]
    assert "The draft model of your speculative decoding, Meta Llama 3.2 1B, is counted above" in en
    assert "(32 KiB per token" in en and "2.5 GB, 2 B a parameter" in en
    assert "speculative decoding's speed-up is not modelled" in en
    assert "投机解码的草稿模型 Qwen2.5 0.5B 已计入上面的显存" in zh and "每 token 12 KiB" in zh
    assert "投机解码的加速没有建模" in zh
    assert "not counted above" not in en and "未计入" not in zh


@pytest.mark.parametrize(
    "text",
    [
        "Serve Llama-3.1-70B on 4 x H100 with vLLM, speculative decoding, Foo-Draft-1B as the draft model",
        "用 vLLM 在 4 张 H100 上部署 Llama-3.1-70B，开投机解码，用 Foo-Draft-1B 做草稿模型",
    ],
)
def test_a_draft_the_catalog_does_not_know_is_named_as_typed_and_not_counted(text: str) -> None:
    data = answer_json(text)
    assert data["request"]["draft_model"] == "Foo-Draft-1B"
    assert _inf(data)["kv_bytes_per_token"] == LLAMA_70B_KV
    assert _ignored(data)["model: Foo-Draft-1B"] == "speculative_draft"
    assert "draft_counted" not in [w["code"] for w in data["report"]["warnings"]]


@pytest.mark.parametrize(
    "text",
    [
        "python -m sglang.launch_server --model-path Qwen/Qwen3-32B --tp 2 --speculative-algorithm EAGLE3 "
        "--speculative-draft-model-path Tengyunw/qwen3_32b_eagle3  on 2 H100s, enough?",
        "python -m sglang.launch_server --model-path Qwen/Qwen3-32B --tp 2 --speculative-algorithm EAGLE3 "
        "--speculative-draft-model-path Tengyunw/qwen3_32b_eagle3  2张H100 够吗",
    ],
)
def test_an_eagle_head_is_not_its_base_model(text: str) -> None:
    """'qwen3_32b_eagle3' is an EAGLE-3 head (one decoder layer on the target), never a second Qwen3-32B."""
    data = answer_json(text)
    assert data["request"]["draft_model"] in (None, "Tengyunw/qwen3_32b_eagle3")
    reasons = {t.split(":")[0]: r for t, r in _ignored(data).items()}
    assert reasons["--speculative-draft-model-path"] == "speculative_not_modelled"


@pytest.mark.parametrize(
    "text",
    [  # a second model with no draft word, or a colleague's model, stays another setup; nothing counted
        "serve Llama-3.1-70B on 4x H100 with speculative decoding; my colleague runs Llama-3.2-1B on 1 A10",
        "部署 Qwen2.5-72B 和 Qwen2.5-7B，4 张 H100，开投机解码，单条速度多少",
    ],
)
def test_a_second_model_that_is_not_the_draft_is_not_counted(text: str) -> None:
    data = answer_json(text)
    assert data["request"]["draft_model"] is None
    assert "other_setup" in _ignored(data).values()


@pytest.mark.parametrize(
    ("text", "item"),
    [
        (
            "vLLM speculative decoding: the target is llama3.1-70b-instruct and the draft is "
            "llama3.1-8b-instruct, with tensor-parallel-size 4 and speculative-draft-tensor-parallel-size 1 "
            "on 4 A100 80GB. How much memory does this setup need on each GPU?",
            "tp: 1",
        ),
        (
            "vllm serve meta-llama/Llama-3.1-70B-Instruct --tensor-parallel-size 4 --speculative-config "
            '\'{"model": "meta-llama/Llama-3.1-8B-Instruct", "num_speculative_tokens": 5, '
            '"draft_tensor_parallel_size": 1}\'  4张A100 80G 每卡显存多少',
            "draft_tensor_parallel_size: 1",
        ),
    ],
)
def test_the_drafts_own_tp_is_named_not_another_setup(text: str, item: str) -> None:
    """Llama-3.1-8B (config.json: 32 layers, 8 KV heads, head_dim 128) as the draft: 131,072 B a token beside
    the 70B's; its own TP 1 is named as not modelled (counted on the target's TP 4), never another setup."""
    data = answer_json(text)
    assert data["request"]["draft_model"] == "Llama-3.1-8B"
    assert _inf(data)["kv_bytes_per_token"] == LLAMA_70B_KV + 2 * 32 * 8 * 128 * 2
    assert _ignored(data)[item] == "draft_tp"


def test_the_drafts_own_tp_reads_in_both_languages() -> None:
    text = (
        "vllm serve meta-llama/Llama-3.1-70B-Instruct --tensor-parallel-size 4 --speculative-config "
        '\'{"model": "meta-llama/Llama-3.1-8B-Instruct", "num_speculative_tokens": 5, '
        '"draft_tensor_parallel_size": 1}\''
    )
    en = ask(f"{text}  on 4 A100 80GB, memory per GPU?", None, "plain")[0]
    zh = ask(f"{text}  4张A100 80G 每卡显存多少", None, "plain")[0]
    # pin moved (s45 fixserve #3): 'not modelled' → vLLM V1 refuses a draft TP apart from the target's
    assert "the draft model's own tensor-parallel size does not start apart from the target's" in en
    assert "草稿模型自己的张量并行数不能和目标模型的不同" in zh


@pytest.mark.parametrize(
    "text",
    [
        "Serving DeepSeek-V3 with vLLM on 8 H200: vllm serve DeepSeek-V3 --tensor-parallel-size 8 "
        '--speculative_config \'{"model": "DeepSeek-V3-NextN", "num_speculative_tokens": 2}\'',
        "8 张 H200 用 vLLM 部署：vllm serve DeepSeek-V3 --tensor-parallel-size 8 "
        '--speculative_config \'{"model": "DeepSeek-V3-NextN", "num_speculative_tokens": 2}\'',
    ],
)
def test_an_mtp_head_is_not_a_second_deepseek(text: str) -> None:
    """'DeepSeek-V3-NextN' is DeepSeek-V3's MTP module (one layer), never a second 671B model."""
    data = answer_json(text)
    assert data["request"]["draft_model"] != "DeepSeek-V3"
    assert _inf(data)["kv_bytes_per_token"] == 70_272.0  # DeepSeek-V3's own MLA cache: 61 × (512 + 64) × 2 B
    assert "speculative_not_modelled" in _ignored(data).values()
