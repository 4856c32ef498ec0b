"""s39 fixc (issue 24 items 1, 4): what a pasted config or a short phrase says, read right.

1. A value a known key cannot take, close to one it can (``finetuning_type: lroa``): read as that value
   and named "not understood: did you mean lora?" — never "does not change the answer".
2. A config line with its colon missing (``quantization_bit 4``) inside a YAML: read as ``key: value``
   and named so, never "differs from your config".
3. GRPO lengths in short forms ('1024 resp len', 'completion len 1024', '512 prompt len').
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.parse.configs.close_values import VALUES, closest, distance, suggestion
from bot.parse.configs.colonless import colonless
from tests.cli_run import ask_quietly

LF_YAML = """model_name_or_path: Qwen/Qwen2.5-7B-Instruct
stage: sft
do_train: true
finetuning_type: {ft}
lora_rank: 64
lora_target: all
dataset: alpaca_zh
template: qwen
cutoff_len: 4096
per_device_train_batch_size: 4
gradient_accumulation_steps: 8
num_train_epochs: 3.0
learning_rate: 1.0e-4
bf16: true
{qbit}
deepspeed: examples/deepspeed/ds_z2_config.json
"""
"""The fresh-user trial's LLaMA-Factory YAML (s39, /tmp/t39o/lf.yaml), its two lines varied."""


def _json(*args: str) -> dict:
    return json.loads(ask_quietly("--format", "json", *args))


def _config(tmp_path: Path, ft: str = "lora", qbit: str = "quantization_bit: 4") -> str:
    path = tmp_path / "lf.yaml"
    path.write_text(LF_YAML.format(ft=ft, qbit=qbit), encoding="utf-8")
    return str(path)


def _ignored(d: dict) -> dict[str, str]:
    return {i["text"]: i["reason"] for i in d["interpretation"]["ignored"]}


# --- 1. a close value ------------------------------------------------------------------------------


def test_value_lists_are_the_tools_own():
    """finetuning_type's list is the one bot/recipes/flags/llamafactory.json took from LLaMA-Factory."""
    flags = json.loads(Path("bot/recipes/flags/llamafactory.json").read_text(encoding="utf-8"))
    assert set(VALUES["finetuning_type"]) == set(flags["finetuning_types"])
    assert "Literal['pt','sft','rm','ppo','dpo','kto']" in flags["notes"]["stage"]
    assert set(VALUES["stage"]) == {"pt", "sft", "rm", "ppo", "dpo", "kto"}


@pytest.mark.parametrize(
    ("a", "b", "d"),
    [
        ("lroa", "lora", 1),
        ("ful", "full", 1),
        ("frezze", "freeze", 1),
        ("lora", "lora", 0),
        ("ptuning", "pt", 5),
    ],
)
def test_distance_worked_by_hand(a, b, d):
    """Optimal string alignment: 'lroa' → 'lora' is one swap; 'frezze' → 'freeze' one swap too."""
    assert distance(a, b) == d


@pytest.mark.parametrize(
    ("key", "value", "near"),
    [
        ("finetuning_type", "lroa", "lora"),
        ("finetuning_type", "fulll", "full"),
        ("finetuning_type", "frezze", "freeze"),
        ("stage", "sfy", "sft"),
        ("stage", "dop", "dpo"),
        ("quantization_bit", 5, 4),
        ("zero_optimization.stage", 4, 3),
        # must not misread: a value the tool takes, or one close to none of them
        ("finetuning_type", "lora", None),
        ("finetuning_type", "LoRA", None),
        ("finetuning_type", "ptuning", None),
        ("quantization_bit", 16, None),
        ("quantization_bit", 4, None),
        ("learning_rate", "lroa", None),
    ],
)
def test_closest(key, value, near):
    assert closest(key, value) == near


def test_suggestion_names_the_value_and_the_list():
    assert suggestion("finetuning_type: lroa") == ("lora", "lora, oft, freeze, full")
    assert suggestion("finetuning_type: lora") is None
    assert suggestion("lroa") is None


def test_lroa_is_sized_as_lora_and_named(tmp_path):
    """Trial s39 #1: 'finetuning_type: lroa' was sized as full fine-tuning (137 GiB a card) and named
    'does not change the GPUs, memory or time'. Read as lora (QLoRA with the 4-bit line), named."""
    d = _json("--config", _config(tmp_path, ft="lroa"), "how many 4090s for this config")
    assert d["request"]["method"] == "qlora"
    assert _ignored(d)["finetuning_type: lroa"] == "close_value"
    text = ask_quietly("--config", _config(tmp_path, ft="lroa"), "how many 4090s for this config")
    assert "“finetuning_type: lroa” (not understood" in text
    assert "did you mean lora?" in text
    assert "finetuning_type: lroa” (it does not change" not in text
    zh = ask_quietly("--config", _config(tmp_path, ft="lroa"), "这个配置要几张4090")
    assert "“finetuning_type: lroa”（没看懂" in zh
    assert "是不是想写 lora" in zh
    assert "finetuning_type: lroa”（不影响" not in zh


def test_lora_unchanged(tmp_path):
    """Must not misread: the right value is used, not named."""
    d = _json("--config", _config(tmp_path), "how many 4090s for this config")
    assert d["request"]["method"] == "qlora"
    assert not any(k.startswith("finetuning_type") for k in _ignored(d))


def test_far_value_is_named_bad_not_unchanged(tmp_path):
    """'finetuning_type: ptuning' (LLaMA-Factory asserts 'Invalid fine-tuning method') is close to no
    value: named as not a value the setting takes, never as one that does not change the answer."""
    d = _json("--config", _config(tmp_path, ft="ptuning", qbit=""), "how many 4090s")
    assert _ignored(d)["finetuning_type: ptuning"] == "bad_value"


def test_stage_typo(tmp_path):
    path = tmp_path / "lf.yaml"
    path.write_text(LF_YAML.format(ft="lora", qbit="").replace("stage: sft", "stage: dop"), encoding="utf-8")
    d = _json("--config", str(path), "how many A100s")
    assert d["request"]["algorithm"] == "dpo"
    assert _ignored(d)["stage: dop"] == "close_value"


# --- 2. a colon missing ----------------------------------------------------------------------------


def test_colonless_reader():
    lines = [
        "stage: sft",
        "finetuning_type: lora",
        "quantization_bit 4",
        "cutoff_len: 1024",
        "help me please",
    ]
    assert colonless(lines, [0, 1, 3], "llamafactory") == {2: "quantization_bit: 4"}
    # must not misread: prose after the block, a key the tool lacks, a value with punctuation
    assert colonless(["stage: sft", "cutoff_len: 1", "how many?"], [0, 1], "llamafactory") == {}
    assert colonless(["stage: sft", "cutoff_len: 1", "foo_bar 4"], [0, 1], "llamafactory") == {}
    assert colonless(["stage: sft", "cutoff_len: 1", "template qwen?"], [0, 1], "llamafactory") == {}
    assert colonless(["stage: sft", "cutoff_len: 1", "", "", "template qwen"], [0, 1], "llamafactory") == {}


def test_missing_colon_file(tmp_path):
    """Trial s39 #2 (--config): the line was dropped silently; QLoRA's 4 bits lost."""
    d = _json("--config", _config(tmp_path, qbit="quantization_bit 4"), "how many 4090s for this config")
    assert d["request"]["method"] == "qlora"
    assert _ignored(d)["quantization_bit 4"] == "colon_missing"
    text = ask_quietly("--config", _config(tmp_path, qbit="quantization_bit 4"), "how many 4090s")
    assert "“quantization_bit 4” (read as “key: value”" in text


def test_missing_colon_pasted():
    """Trial s39 #2 (pasted): '精度：int4（与你贴的配置不一致）' — no conflict where there is none."""
    msg = LF_YAML.format(ft="lora", qbit="quantization_bit 4") + "这个配置要几张4090"
    d = _json(msg)
    assert d["request"]["method"] == "qlora"
    reasons = _ignored(d)
    assert reasons["quantization_bit 4"] == "colon_missing"
    assert "config_differs" not in reasons.values()
    zh = ask_quietly(msg)
    assert "不一致" not in zh
    assert "“quantization_bit 4”（按 “key: value” 读" in zh


# --- 3. GRPO lengths in short forms ----------------------------------------------------------------

GRPO = "GRPO qwen2.5-3b on 8x H100, 8 samples per prompt, {}, 10k prompts, how long"


@pytest.mark.parametrize(
    "phrase",
    ["1024 resp len", "resp len 1024", "1024 response length", "completion len 1024", "1024 completion len",
     "max_response_length 1024", "resp length: 1024"],
)  # fmt: skip
def test_response_length_short_forms(phrase):
    """Trial s39 #3: '1024 resp len' was "no word said what it is" and 256-token completions sized."""
    d = _json(GRPO.format(phrase))
    assert d["request"]["max_completion_length"] == 1024
    assert "1024" not in _ignored(d)


@pytest.mark.parametrize("phrase", ["回复长度1024", "生成长度 1024", "回复长度：1024"])
def test_response_length_zh(phrase):
    d = _json(f"GRPO qwen2.5-3b 8卡H100，每个prompt采样8条，{phrase}，10000条prompt")
    assert d["request"]["max_completion_length"] == 1024


@pytest.mark.parametrize(
    "phrase", ["512 prompt len", "prompt len 512", "max_prompt_length 512", "提示长度512"]
)
def test_prompt_length_short_forms(phrase):
    """The prompt's length with the completion's: the sequence is both (512 + 1024 = 1536); the prompts
    counted stay the 10,000 (never '512 prompts')."""
    d = _json(f"GRPO qwen2.5-3b on 8x H100, {phrase}, completion length 1024, 10000 prompts")
    assert d["request"]["seq_len"] == 1536
    assert d["request"]["num_samples"] == 10000


def test_prompt_count_still_a_count():
    """Must not misread: '512 prompts' is a count of prompts."""
    d = _json("GRPO qwen2.5-3b on 8x H100, 512 prompts, completion length 1024")
    assert d["request"]["num_samples"] == 512


# --- 4. reward-model training ----------------------------------------------------------------------


def test_reward_model_pairs_and_headline():
    """Trial s39 #4: sized as full fine-tuning on 512M tokens (each pair one sequence), nothing named. A
    reward model forwards the chosen and the rejected response: 1M pairs × 2 × 512 tokens = 1.024e9."""
    q = "reward model training for llama 3 70b, 1M pairs, on 16 H100"
    d = _json(q)
    r = d["request"]
    assert r["reward_model"] is True
    assert r["samples_are_pairs"] is True
    assert r["algorithm"] is None  # no reference model: not DPO
    flops = 6 * r["params_total"] * 1_000_000 * 2 * 512  # C = 6ND, D = pairs × 2 × 512
    assert d["report"]["flops"] == pytest.approx(flops, rel=1e-6)
    assert "reward model (pairwise) training" in ask_quietly(q).splitlines()[0]


def test_reward_model_zh():
    """'偏好数据' alone means DPO's pairs; with '训练奖励模型' they train a reward model (10万 × 2 × 512)."""
    d = _json("训练奖励模型 qwen2.5-7b，10万对偏好数据，8张A100")
    assert d["request"]["reward_model"] is True
    assert d["request"]["algorithm"] is None
    flops = 6 * d["request"]["params_total"] * 100_000 * 2 * 512  # C = 6ND, D = pairs × 2 × 512
    assert d["report"]["flops"] == pytest.approx(flops, rel=1e-6)
    assert (
        "奖励模型训练（成对）"
        in ask_quietly("训练奖励模型 qwen2.5-7b，10万对偏好数据，8张A100").splitlines()[0]
    )


def test_reward_model_scalar_head_has_no_vocab_logits():
    """The loss of a scalar head is b·s·1, not b·s·V: the reward model's logits term is ~0."""
    from estimator.catalog import models
    from estimator.setup import Layout, TrainingSetup
    from estimator.transients import loss_bytes

    spec = models()["Qwen2.5-7B"]
    plan = Layout(tp=1, pp=1, dp=8, zero_stage=3, recompute="full", micro_batch=1, offload=False)
    sft = loss_bytes(spec, TrainingSetup(seq_len=2048), plan).likely
    rm = loss_bytes(spec, TrainingSetup(seq_len=2048, reward_model=True), plan).likely
    assert rm == pytest.approx(sft * 2 / spec.vocab)  # two rows (chosen, rejected), one logit each


@pytest.mark.parametrize(
    "q",
    ["PPO qwen2.5-7b with a 7B reward model on 8 A100", "qwen2.5-7b reward 函数怎么写，8张A100 全参微调",
     "DPO llama 3 8b, 100k preference pairs, on 8 H100", "GRPO qwen2.5-7b, reward model 7B, 8 H100"],
)  # fmt: skip
def test_not_a_reward_model_trained(q):
    """Must not misread: the RM of an RL job is frozen; a reward function is no model; DPO stays DPO."""
    assert not _json(q)["request"].get("reward_model")


def test_llamafactory_stage_rm(tmp_path):
    path = tmp_path / "lf.yaml"
    path.write_text(LF_YAML.format(ft="full", qbit="").replace("stage: sft", "stage: rm"), encoding="utf-8")
    d = _json("--config", str(path), "how many A100s")
    assert d["request"]["reward_model"] is True
    assert d["request"]["samples_are_pairs"] is True


# --- 5. asking for another language ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "lang"),
    [("English please", "en"), ("in English please?", "en"), ("answer in English", "en"),
     ("English, please", "en"), ("Can you answer in English?", "en"), ("用英文回答", "en"),
     ("请用中文", "zh"), ("reply in chinese", "zh"), ("用中文说一下", "zh"),
     # must not misread: questions that name a language, and languages the bot does not answer in
     ("serve Qwen for English and Chinese users", None), ("训练一个英文模型", None), ("auf Deutsch?", None),
     ("in French please", None)],
)  # fmt: skip
def test_asked_language(text, lang):
    from bot.core.language_asked import asked_language

    assert asked_language(text) == lang


def test_english_please_re_renders_the_answer_before():
    """Trial s39 #5: 'English please' after a Chinese answer got the help text; now the answer before,
    in English (as the 🌐 button gives it), the request unchanged."""
    from bot.core.conversation import Conversation
    from bot.render.renderer import render

    conv = Conversation()
    first = conv.ask("cli:t", "cli:u", "7B模型1万亿token要多少A100")
    again = conv.ask("cli:t", "cli:u", "English please")
    assert again.answer.understood
    assert again.answer.lang == "en"
    assert again.answer.said == first.answer.said
    assert render(again.answer, "text").startswith("7B pre-training on 1T tokens")
    back = conv.ask("cli:t", "cli:u", "请用中文")
    assert back.answer.lang == "zh"
    assert render(back.answer, "text").startswith("7B 预训练 1万亿 token")


def test_language_words_inside_a_question_are_a_question():
    from bot.core.conversation import Conversation

    conv = Conversation()
    conv.ask("cli:t", "cli:u", "7B模型1万亿token要多少A100")
    turn = conv.ask("cli:t", "cli:u", "serve Qwen2.5-7B for English users on one A100")
    assert turn.answer.said.stage == "inference"
