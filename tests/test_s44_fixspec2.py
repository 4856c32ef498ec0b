"""s44 fixspec2: the review's findings on the speculative draft (issue 24 items 3, 4; review B6 and
non-blocking 1–3).

Sources:
- vLLM ``--speculative-config`` is a JSON of ``SpeculativeConfig`` fields (vllm/config/speculative.py):
  ``model`` (the draft), ``num_speculative_tokens``, ``method`` ("draft_model", "eagle", "eagle3", "medusa",
  "mtp", "ngram", …), ``draft_tensor_parallel_size``.
- SGLang server_args.py: ``--speculative-algorithm`` (EAGLE, EAGLE3, NEXTN, STANDALONE, NGRAM),
  ``--speculative-num-steps``, ``--speculative-eagle-topk``, ``--speculative-num-draft-tokens``.
- Vocabulary sizes, the models' config.json ``vocab_size`` on the Hugging Face hub: meta-llama/Llama-3.1-70B
  and Llama-3.2-1B 128,256; Qwen/Qwen2.5-0.5B 151,936.
- vLLM refuses a draft of another vocabulary size:
  ``SpeculativeConfig.verify_equal_vocab_size_if_draft_model`` raises "Target and draft model should have
  the same vocabulary size" (called by vllm/v1/spec_decode/draft_model.py ``DraftModelProposer``).
"""

from __future__ import annotations

from bot.cli import ask
from tests.real_questions import answer_json

B6_EN = (
    'Llama-3.1-70B on 4 H100, vllm --speculative-config \'{"model": "meta-llama/Llama-3.2-1B-Instruct", '
    '"num_speculative_tokens": 5}\', max concurrency?'
)
B6_ZH = (
    '4张H100用vLLM部署Llama-3.1-70B，--speculative-config \'{"model": "meta-llama/Llama-3.2-1B-Instruct", '
    '"num_speculative_tokens": 5}\'，最多多少并发？'
)
UNKNOWN_EN = (
    'Llama-3.1-70B on 4 H100, vllm --speculative-config \'{"model": "foo/Bar-1B", '
    '"num_speculative_tokens": 5, "method": "draft_model"}\', max concurrency?'
)
SGL_EN = (
    "Llama-3.1-70B on 4 H100, python -m sglang.launch_server --speculative-algorithm EAGLE "
    "--speculative-draft-model-path meta-llama/Llama-3.2-1B-Instruct --speculative-num-steps 3 "
    "--speculative-eagle-topk 4 --speculative-num-draft-tokens 16, max concurrency?"
)
WORDS_EN = (
    "Serve Llama-3.1-70B on 4 H100 with speculative decoding, Llama-3.2-1B as the draft model, "
    "max concurrency?"
)
WORDS_ZH = "4张H100用vLLM部署Llama-3.1-70B，投机解码，草稿模型用Llama-3.2-1B，最多多少并发？"
QWEN_DRAFT_EN = WORDS_EN.replace("Llama-3.2-1B", "Qwen2.5-0.5B")
QWEN_DRAFT_ZH = "4张H100用vLLM部署Llama-3.1-70B，投机解码，草稿模型用Qwen2.5-0.5B，最多多少并发？"


def _ignored(data: dict) -> dict[str, str]:
    return {i["text"]: i["reason"] for i in data["interpretation"]["ignored"]}


def _codes(data: dict) -> dict[str, dict]:
    return {w["code"]: w.get("params", {}) for w in data["report"]["warnings"]}


def _text(q: str, lang: str) -> str:
    return ask(q, lang, "text")[0]


# 1. B6: the config's draft counted, its key and value no other setup; its other keys named


def test_b6_config_draft_not_another_setup_en():
    data = answer_json(B6_EN)
    assert data["request"]["draft_model"] == "Llama-3.2-1B"
    assert _ignored(data) == {"num_speculative_tokens: 5": "speculative_speed"}


def test_b6_config_draft_not_another_setup_zh():
    data = answer_json(B6_ZH)
    assert data["request"]["draft_model"] == "Llama-3.2-1B"
    assert _ignored(data) == {"num_speculative_tokens: 5": "speculative_speed"}


def test_b6_reply_says_no_other_setup_nor_unread():
    en, zh = _text(B6_EN, "en"), _text(B6_ZH, "zh")
    assert "another setup" not in en and "no word said" not in en and "Llama-3.2-1B-Instruct”" not in en
    assert "Used: “num_speculative_tokens: 5”" in en
    assert "已使用：“num_speculative_tokens: 5”" in zh and "其他" not in zh.split("\n")[1]


def test_b6_unknown_config_draft_named_not_counted():
    """Must not misread: a draft the catalog does not know stays named as typed, not counted; its
    settings named as not modelled, no '5' unread; "method": "draft_model" no second item."""
    data = answer_json(UNKNOWN_EN)
    assert data["request"]["draft_model"] == "foo/Bar-1B"
    assert _ignored(data) == {
        "model: Bar-1B": "speculative_draft",
        "num_speculative_tokens: 5": "speculative_not_modelled",
        "method: draft_model": "speculative_not_modelled",
    }


def test_b6_other_number_beside_config_still_read():
    """Must not misread: a load said beside the config is the load, its token count no unread."""
    q = B6_EN.replace('"num_speculative_tokens": 5', '"num_speculative_tokens": 4')
    data = answer_json(q.replace("max concurrency?", "8 concurrent users, memory per GPU?"))
    assert data["request"]["concurrency"] == 8
    assert _ignored(data) == {"num_speculative_tokens: 4": "speculative_speed"}


def test_sglang_speculative_flags_named_speed():
    data = answer_json(SGL_EN)
    assert data["request"]["draft_model"] == "Llama-3.2-1B"
    assert _ignored(data) == {
        "--speculative-algorithm: EAGLE": "speculative_speed",
        "--speculative-num-steps: 3": "speculative_speed",
        "--speculative-eagle-topk: 4": "speculative_speed",
        "--speculative-num-draft-tokens: 16": "speculative_speed",
    }


# 2. A counted draft's method is used (its speed-up alone not modelled): never under 'Not used'


def test_counted_draft_method_used_not_unused_en():
    en = _text(WORDS_EN, "en")
    assert "Used: “speculative decoding” (speculative decoding's speed-up is not modelled" in en
    assert "Not used: “speculative decoding”" not in en


def test_counted_draft_method_used_not_unused_zh():
    zh = _text(WORDS_ZH, "zh")
    assert "已使用：“投机解码”（投机解码的加速没有建模" in zh
    assert "未使用：“投机解码”" not in zh and "未使用：“草稿模型”" not in zh


def test_unknown_draft_method_stays_not_used():
    """Must not misread: a draft the catalog does not know is not counted: its items stay 'Not used'."""
    en = _text(WORDS_EN.replace("Llama-3.2-1B", "Foo-1B"), "en")
    zh = _text(WORDS_ZH.replace("Llama-3.2-1B", "Foo-1B"), "zh")
    assert en.split("\n")[1].startswith("Not used: “Foo-1B” (the draft model")
    assert "; “speculative decoding” (speculative decoding is not modelled" in en and "Used:" not in en
    assert "；“投机解码”（投机解码没有建模" in zh and "已使用" not in zh


# 3. A speculative method's name is no runtime


def test_eagle_no_runtime_zh():
    data = answer_json("Qwen2.5-72B 用 EAGLE 做投机解码，4张H100能跑多少并发？")
    assert data["request"]["runtime"] is None
    assert _ignored(data) == {"EAGLE": "speculative_not_modelled"}


def test_eagle3_medusa_no_runtime_zh_en():
    for q, name in (
        ("Qwen2.5-72B 用 EAGLE-3 做投机解码，4张H100能跑多少并发？", "EAGLE-3"),
        ("Qwen2.5-72B 用 Medusa 做投机解码，4张H100能跑多少并发？", "Medusa"),
        ("Qwen2.5-72B with EAGLE speculative decoding on 4 H100, max concurrency?", "EAGLE"),
        ("Qwen2.5-72B 用 n-gram 做投机解码，4张H100能跑多少并发？", "投机解码"),
        ("Qwen2.5-72B 用 lookahead 做投机解码，4张H100能跑多少并发？", "投机解码"),
    ):
        assert _ignored(answer_json(q)) == {name: "speculative_not_modelled"}, q


def test_unknown_runtime_after_yong_still_named():
    """Must not misread: '用 X 部署' with a name no table has is still an unknown runtime, named."""
    data = answer_json("用 Fooserve 部署 Qwen2.5-72B，4张H100能跑多少并发？")
    assert _ignored(data) == {"runtime: Fooserve": "runtime_not_modelled"}


# 4. A draft of another vocabulary: counted as stated, and warned that vLLM refuses it


def test_vocab_mismatch_warned_en():
    data = answer_json(QWEN_DRAFT_EN)
    assert data["request"]["draft_model"] == "Qwen2.5-0.5B"
    params = _codes(data)["draft_vocab_mismatch"]
    assert (params["draft_vocab"], params["target_vocab"]) == (151_936, 128_256)
    assert "vocabulary of 151,936 tokens" in _text(QWEN_DRAFT_EN, "en")


def test_vocab_mismatch_warned_zh():
    zh = _text(QWEN_DRAFT_ZH, "zh")
    assert "的词表有 151,936 个 token" in zh and "128,256" in zh
    assert "vLLM 拒绝词表大小" in zh and "词表大小必须相同" in zh


def test_same_vocab_draft_no_warning():
    """Must not misread: Llama-3.2-1B shares Llama-3.1-70B's 128,256-token vocabulary."""
    for q in (WORDS_EN, WORDS_ZH, B6_EN):
        codes = _codes(answer_json(q))
        assert "draft_counted" in codes and "draft_vocab_mismatch" not in codes, q
