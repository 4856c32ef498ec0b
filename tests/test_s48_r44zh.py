"""Session 48, round 44 zh (issue 24 item 5): the readers for the r44work misses, each on sentences of its own
in both languages — the must-read and the must-not-misread (tests/data/real_questions/README.md, 'Round 44,
Chinese') — and the scorer's two rules the round needed."""

from __future__ import annotations

import pytest

from tests.real_questions import answer_json, cards_match, key_understood


def _answer(text: str) -> dict:
    return answer_json(text)


def _ignored(answer: dict) -> list[tuple[str, str]]:
    return [(i["text"], i["reason"]) for i in answer["interpretation"].get("ignored") or []]


# 1. A catalog card said only as a ratio's measure is compared to, not the user's card
#    (bot.parse.unknown_card.RATIO_BASE_RE): the unknown card typed is theirs, the catalog card named.
@pytest.mark.parametrize(
    ("text", "card", "base"),
    [
        (
            "想用寒武纪思元590跑 DeepSeek 推理，batch_size 64，说吞吐能到英伟达 T4 的 1.8 倍。要几张？",
            "590",
            "T4",
        ),
        ("我们的沐曦 C500 推理吞吐相当于 A100 的 82%，部署 Qwen3-32B 要几张？", "C500", "A100"),
        ("Our 沐曦 C500 reaches 82% of an A100. How many to serve Qwen3-32B?", "C500", "A100"),
        ("Our MetaX C500 gets 1.8x the throughput of a T4. How many to serve Qwen3-32B?", "C500", "T4"),
    ],
)
def test_a_card_measured_against_is_not_the_users(text: str, card: str, base: str) -> None:
    answer = _answer(text)
    assert (
        card.lower() in str(answer["interpretation"].get("unknown_gpu") or answer["request"]["gpu"]).lower()
    )
    assert (base, "other_setup") in _ignored(answer)  # was: the T4 / A100 sized, the user's card set aside


@pytest.mark.parametrize(
    ("text", "sized"),
    [
        (
            "8 张 A100 跑 Llama-3-70B，吞吐是 T4 的 10 倍吗？",
            "A100",
        ),  # no unknown card: the card said is sized
        ("4 张 A100 部署 Qwen3-32B，沐曦 C500 能到它的 80% 吗？", "A100"),  # the ratio is the C500's
        ("We serve Qwen3-32B on 4 A100s; can a MetaX C500 reach 80% of them?", "A100"),
    ],
)
def test_a_card_of_the_users_beside_a_ratio_stays_sized(text: str, sized: str) -> None:
    answer = _answer(text)
    assert answer["request"]["gpu"].startswith(sized)
    assert not any(reason == "other_setup" and sized in said for said, reason in _ignored(answer))


def test_cambricons_card_glued_to_its_maker_is_one_name() -> None:
    """'寒武纪思元590' is one card typed (bot.parse.lexicon.UNKNOWN_GPU_RE), not '寒武纪' and a 590."""
    answer = _answer("想用寒武纪思元590跑 Qwen3-32B 推理，要几张？")
    said = [t for t, _ in _ignored(answer)]
    assert "寒武纪" not in said and "590" not in said
    assert "思元590" in str(answer["interpretation"].get("unknown_gpu") or answer["request"]["gpu"])


# 2. A benchmark's phase lengths: the prefill is the prompt, the decode the output (bot.parse.normalize
#    _PHASE_LEN_RE); a decode rate is no length.
@pytest.mark.parametrize(
    "text",
    [
        "单机 8 张 H100 用 LMDeploy 跑 Qwen3-8B，预填充 2048、解码 512，吞吐多少？",
        "8 H100s with vLLM serving Llama-3-70B, prefill 2048, decode 512: what throughput?",
        "8 张 H100 跑 Qwen3-8B，预填充长度 2048，解码长度 512，吞吐多少？",
    ],
)
def test_prefill_and_decode_lengths_are_the_prompt_and_output(text: str) -> None:
    request = _answer(text)["request"]
    assert (request["prompt_tokens"], request["seq_len"]) == (2048, 2560)  # was: 2048 and 512 unread


@pytest.mark.parametrize(
    "text",
    [
        "用 vLLM 跑 Qwen3-8B，解码速度 30 tokens/s 正常吗？一张 4090",
        "vLLM serving Llama-3-8B on one 4090, decode 45 tokens/s, is that normal?",
        "4 张 A100 跑 Qwen2-72B，预填充阶段很慢，解码阶段 20 tokens/s",
        "vLLM on one H100, decode at 40 tok/s for Llama-3-8B",
    ],
)
def test_a_decode_rate_is_no_output_length(text: str) -> None:
    request = _answer(text)["request"]
    assert request.get("prompt_tokens") is None and request["seq_len"] == 4096  # the default context


# 3. The scorer (tests/real_questions.py): Cambricon's maker words, a Chinese maker word glued to the name,
#    and two KV formats said (one used, the other named).
def test_cambricons_maker_words_are_no_part_of_the_card() -> None:
    assert cards_match("MLU590", "寒武纪 MLU590") and cards_match("思元590", "寒武纪思元590")
    assert cards_match("MLU370-X8", "Cambricon MLU370-X8")
    assert not cards_match("MLU590", "寒武纪 MLU370") and not cards_match("590", "寒武纪思元590")


def test_two_kv_formats_said_are_each_used_or_named() -> None:
    answer = {
        "request": {"kv_precision": "int8"},
        "interpretation": {
            "ignored": [{"text": "kv_precision: int4 (--quant-policy 4)", "reason": "no_field"}]
        },
    }
    assert key_understood("kv_precision", ["int8", "int4"], answer)
    assert not key_understood("kv_precision", ["int8", "fp8"], answer)


# 4. An XTuner config's name ends in its epochs ('…_oasst1_e3': max_epochs = 3 in xtuner/configs), read only
#    where XTuner is named and no epoch count is written (bot.parse.normalize._XTUNER_EPOCHS_RE).
@pytest.mark.parametrize(
    "text",
    [
        "单机两卡用 XTuner 微调：NPROC_PER_NODE=2 xtuner train internlm2_chat_7b_qlora_oasst1_e3，要训多久？",
        "Fine-tuning with XTuner: xtuner train llama3_8b_instruct_qlora_alpaca_e3 on 2 A100s, how long?",
    ],
)
def test_an_xtuner_configs_epochs_are_read(text: str) -> None:
    assert _answer(text)["request"]["epochs"] == 3  # was: no epochs, the default one


@pytest.mark.parametrize(
    ("text", "epochs"),
    [
        ("用 LLaMA-Factory 跑 qwen2_7b_lora_sft_e3.yaml 微调 Qwen2-7B，要多久？", None),  # no XTuner named
        ("xtuner train internlm2_chat_7b_qlora_oasst1_e3，训 2 个 epoch，要多久？", 2.0),  # the count written
        ("With XTuner, train internlm2_chat_7b_qlora_oasst1_e3 for 1 epoch on one A100: how long?", 1.0),
    ],
)
def test_an_epoch_count_written_or_no_xtuner_keeps_its_own(text: str, epochs: float | None) -> None:
    assert _answer(text)["request"].get("epochs") == epochs


# 5. Ascend's multimodal and RL suites by their own names (gitee.com/ascend/MindSpeed-MM, MindSpeed-RL), on
#    the Megatron layers of MindSpeed-LLM (bot.parse.more_tools, estimator.training_tools); before, both were
#    named MindSpeed-LLM.
@pytest.mark.parametrize(
    ("text", "tool"),
    [
        ("用 MindSpeed MM 微调 Qwen2.5-VL-7B，要几张 910B？", "MindSpeed-MM"),
        ("Fine-tune Qwen2.5-VL-7B with MindSpeed-MM on 910B: how many?", "MindSpeed-MM"),
        ("MindSpeed-RL 做 GRPO 训 Qwen2.5-7B，要几张 910B？", "MindSpeed-RL"),
        ("GRPO on Qwen2.5-7B with MindSpeed RL: how many 910B?", "MindSpeed-RL"),
    ],
)
def test_ascends_multimodal_and_rl_suites_keep_their_names(text: str, tool: str) -> None:
    assert _answer(text)["request"]["training_tool"] == tool


@pytest.mark.parametrize(
    "text",
    [
        "用 MindSpeed-LLM 训 Qwen2.5-7B，要几张 910B？",
        "用 MindSpeed 训练 Qwen2.5-7B，要几张 910B？",
        "Train Qwen2.5-7B with ModelLink on 910B: how many?",
    ],
)
def test_mindspeed_llm_and_the_bare_name_stay_the_llm_suite(text: str) -> None:
    assert _answer(text)["request"]["training_tool"] == "MindSpeed-LLM"


# 6. '单个' before an NPU or an accelerator card: one card (bot.parse.words.SINGLE_CARD_RE).
@pytest.mark.parametrize(
    "text",
    [
        "在 910B 训练卡上，单个 NPU 推理 Llama3-8B，能跑多快？",
        "在 Atlas 800T A2 训练卡上，单个加速卡推理 Llama3-8B，能跑多快？",
        "On a 910B, a single NPU serving Llama3-8B: how fast?",
    ],
)
def test_a_single_npu_is_one_card(text: str) -> None:
    assert _answer(text)["request"]["gpu_count"] == 1  # was: none, on '…训练卡上，单个 NPU'


@pytest.mark.parametrize(
    "text",
    [
        "8 张 910B 推理 Llama3-8B，单个 NPU 的吞吐多少？",
        "单个样本 4096 token，8 张 A100 微调 Qwen2-7B",
    ],
)
def test_single_beside_eight_cards_keeps_the_eight(text: str) -> None:
    assert _answer(text)["request"]["gpu_count"] == 8
