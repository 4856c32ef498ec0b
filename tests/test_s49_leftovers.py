"""Session 49, part leftovers: last session's review leftovers (issue 24 item 4, verdicts), both languages.

1. Counts tried one after another in training with the last one working ('1 张卡 OOM，2 张卡也 OOM，
   4 张卡可以', 'OOM on 1 GPU, also OOM on 2 GPUs, works on 4 GPUs'): no longer all failed — the pair reader
   (bot.parse.counts_outcome) runs before the tried-counts one, '可以' ending its clause is a success, and
   training gets a row per count with its verdict, as serving does (bot.parse.value_list).
2. Serving with no context stated: the default 4,096 capped at the model's own window (config.json
   max_position_embeddings: Falcon-7B 2,048, tiiuae/falcon-7b config.json), said in the ledger
   ('serve_context_model_window'); a stated length past it stays as stated and is named (s38's note).
3. DeepSpeed-Chat step 3's critic (dschat/rlhf/rlhf_engine.py ``_init_critic`` / ``_init_reward``
   @144e9137): its own model, from --critic_model_name_or_path, trained in full (2 + 2 + 12 bytes a
   parameter: ZeRO, Rajbhandari et al. 2020) unless --critic_lora_dim > 0; the reward model from the same
   path, frozen 16-bit (2 bytes a parameter).
"""

from __future__ import annotations

import json

import pytest

from bot.cli import ask


def _answer(text: str) -> dict:
    return json.loads(ask(text, None, "json")[0])


def _rows(a: dict) -> list:
    return [r.get("value") for r in (a.get("report") or {}).get("per_value") or []]


def _ignored(a: dict) -> list[tuple[str, str]]:
    return [(i["text"], i["reason"]) for i in a["interpretation"]["ignored"]]


# 1. Counts tried, the last one worked ---------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "用 RTX 4090 全参微调 Qwen2.5-1.5B：1 张卡 OOM，2 张卡也 OOM，4 张卡可以。",
        "全参微调 Qwen2.5-1.5B，4090 上 1 张卡爆显存，2 张卡也爆显存，4 张卡就可以了",
        "Full fine-tuning Qwen2.5-1.5B on RTX 4090: OOM on 1 GPU, also OOM on 2 GPUs, works on 4 GPUs.",
        "Fine-tuning Qwen2.5-1.5B in full on RTX 4090 cards: 1 card OOMs, 2 cards OOM too, 4 cards work.",
    ],
)
def test_training_counts_tried_the_last_worked_get_a_row_each(text: str) -> None:
    a = _answer(text)
    assert a["request"]["stage"] == "finetune"
    assert (a["request"]["gpu_count"], a["request"]["gpu_count_max"]) == (1, 4)
    assert _rows(a) == [1, 2, 4]
    verdicts = [r.get("fits") for r in a["report"]["per_value"]]
    assert verdicts[0] == "no"  # one 24 GB card: 1.5B × 16 bytes of states alone (24 GB) do not fit


@pytest.mark.parametrize(
    "text",
    [
        # every count tried failed: still a lower bound, no row per count
        "用 RTX 4090 全参微调 Qwen2.5-1.5B：2 张卡 OOM，4 张卡也 OOM，要几张？",
        "Full fine-tuning Qwen2.5-1.5B on RTX 4090: OOM on 2 GPUs, and on 4 GPUs too. How many?",
    ],
)
def test_training_counts_all_failed_stay_a_lower_bound(text: str) -> None:
    a = _answer(text)
    assert _rows(a) == []
    assert a["request"]["gpu_count"] == 2 and a["request"]["gpu_count_max"] == 4


@pytest.mark.parametrize(
    "text",
    [
        # '可以吗' asks, it reports no success
        "用 RTX 4090 全参微调 Qwen2.5-1.5B：2 张卡 OOM，4 张卡可以吗？",
        # the larger count failed: another job's load, no range of tries (s26)
        "Full fine-tuning Qwen2.5-1.5B on RTX 4090: runs on 2 GPUs but OOMs on 4 GPUs with a larger batch.",
        "全参微调 Qwen2.5-1.5B，RTX 4090 上 2 张卡能跑，4 张卡加大 batch 就 OOM",
    ],
)
def test_no_rows_without_a_count_that_worked_above_those_that_failed(text: str) -> None:
    assert _rows(_answer(text)) == []


def test_serving_counts_tried_keep_their_rows() -> None:
    a = _answer("用 vLLM 在 L4 上部署 Qwen2.5-7B：1 张卡 OOM，2 张卡也 OOM，4 张卡可以。到底要几张？")
    assert _rows(a) == [1, 2, 4]


# 2. The serving default within the model's own window ----------------------------------------------


def _context(a: dict) -> tuple[int, str] | None:
    return next(((x["value"], x["why"]) for x in a["assumptions"] if x["field"] == "context"), None)


@pytest.mark.parametrize(
    "text",
    ["Serve Falcon-7B on one A100 with vLLM for 16 users", "用 vLLM 在一张 A100 上部署 Falcon-7B，16 个用户"],
)
def test_default_context_capped_at_the_window(text: str) -> None:
    a = _answer(text)
    assert _context(a) == (2048, "serve_context_model_window")  # tiiuae/falcon-7b: 2,048 positions
    reply = ask(text, None, "text")[0]
    assert "max_position_embeddings" in reply


@pytest.mark.parametrize(
    "text",
    [
        "Serve Llama-3-8B on one A100 with vLLM for 16 users",
        "用 vLLM 在一张 A100 上部署 Llama-3-8B，16 个用户",
    ],
)
def test_a_longer_window_keeps_the_default(text: str) -> None:
    assert _context(_answer(text)) == (4096, "serve_context")


@pytest.mark.parametrize(
    "text",
    [
        "Serve Falcon-7B on one A100 with vLLM at 8k context",
        "用 vLLM 在一张 A100 上部署 Falcon-7B，上下文 8k",
    ],
)
def test_a_stated_context_past_the_window_stays_and_is_named(text: str) -> None:
    a = _answer(text)
    assert a["request"]["seq_len"] == 8192 and _context(a) is None
    assert "2,048" in ask(text, None, "text")[0]


# 3. DeepSpeed-Chat step 3's critic --------------------------------------------------------------------


def _parts(a: dict) -> dict:
    return a["report"]["memory"]["breakdown"]


@pytest.mark.parametrize(
    "text",
    [
        "DeepSpeed-Chat step 3: actor facebook/opt-1.3b, critic facebook/opt-350m, on 1 A100 80G. Memory?",
        "DeepSpeed-Chat 第三步：actor 用 facebook/opt-1.3b，critic 用 facebook/opt-350m，一张 A100 80G 要多少"
        "显存？",
    ],
)
def test_the_critic_is_its_own_model_trained_in_full(text: str) -> None:
    a = _answer(text)
    assert a["request"]["algorithm"] == "ppo" and a["request"]["critic_params"] == 350e6
    assert ("model: opt-350m", "dschat_critic") in _ignored(a)
    parts, plan = _parts(a), a["report"]["memory"]["plan"]
    assert (plan["tp"], plan["pp"], plan["dp"], plan["offload"]) == (1, 1, 1, False)
    assert parts["critic"] == pytest.approx(16 * 350e6)  # bf16 weights 2 + grads 2 + fp32 AdamW 12
    assert parts["reward"] == pytest.approx(2 * 350e6)  # frozen 16-bit, from the same path


@pytest.mark.parametrize(
    "text",
    [
        "DeepSpeed-Chat step 3: actor facebook/opt-1.3b, critic facebook/opt-350m, --critic_lora_dim 64, "
        "on 1 A100 80G. Memory?",
        "DeepSpeed-Chat 第三步：actor 用 facebook/opt-1.3b，critic 用 facebook/opt-350m，critic_lora_dim 64，"
        "一张 A100 80G 要多少显存？",
    ],
)
def test_critic_lora_freezes_the_critic(text: str) -> None:
    a = _answer(text)
    assert a["request"]["critic_lora_dim"] == 64
    assert ("64", "unread") not in _ignored(a)
    critic = _parts(a)["critic"]
    assert 2 * 350e6 < critic < 4 * 350e6  # the frozen 16-bit critic and small adapters' states


@pytest.mark.parametrize(
    "text",
    [
        "DeepSpeed-Chat step 3 PPO of facebook/opt-1.3b on 1 A100 80G, --actor_lora_dim 128. Memory?",
        "DeepSpeed-Chat 第三步 PPO，facebook/opt-1.3b，actor_lora_dim 128，一张 A100 80G 要多少显存？",
    ],
)
def test_no_critic_named_is_the_actors_size_in_full(text: str) -> None:
    a = _answer(text)
    assert a["request"]["lora_rank"] == 128 and a["request"]["critic_params"] is None
    assert ("script: DeepSpeed-Chat step 3 critic", "dschat_critic_trained") in _ignored(a)
    parts = _parts(a)
    assert parts["critic"] / parts["reward"] == pytest.approx(8.0)  # 16 bytes trained vs 2 frozen, one size


@pytest.mark.parametrize(
    "text",
    [
        # not DeepSpeed-Chat: TRL's PPO keeps its reward model at the actor's size, named so
        "TRL PPO of Qwen2.5-7B with LoRA, reward model Qwen2.5-1.5B, on 2 A100 80G",
        "用 TRL 做 PPO，Qwen2.5-7B 加 LoRA，奖励模型用 Qwen2.5-1.5B，两张 A100 80G",
    ],
)
def test_other_trainers_reward_model_is_no_critic(text: str) -> None:
    a = _answer(text)
    assert a["request"].get("critic_params") is None
    assert any(r == "rl_reward_model_not_sized" for _, r in _ignored(a))


def test_a_reference_model_named_is_no_critic() -> None:
    a = _answer("DeepSpeed-Chat step 3: actor facebook/opt-1.3b, reference model opt-350m, on 1 A100 80G.")
    assert a["request"]["critic_params"] is None


# 4. Whether NVLink matters, asked of one setup --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "typed"),
    [
        ("Does NVLink matter for 2x 3090 training of a 7B LoRA?", "Does NVLink matter"),
        ("Do I need NVLink for 2x 3090 LoRA of a 7B?", "need NVLink"),
        ("2 张 3090 LoRA 微调 7B，NVLink 有没有必要？", "NVLink 有没有必要"),
        ("要不要上 NVLink 桥？两张 3090 训练 7B LoRA", "要不要上 NVLink 桥"),
    ],
)
def test_whether_nvlink_matters_is_named_as_not_answered(text: str, typed: str) -> None:
    a = _answer(text)
    assert (typed, "link_compare") in _ignored(a)
    assert (a["request"]["gpu"], a["request"]["gpu_count"]) == ("RTX-3090", 2)  # the setup still read


@pytest.mark.parametrize(
    "text",
    [
        "LoRA of a 7B on 2x 3090 with NVLink: how much memory?",
        "两张带 NVLink 的 3090 LoRA 微调 7B 要多少显存",
    ],
)
def test_nvlink_said_of_the_cards_is_no_question(text: str) -> None:
    assert not any(r == "link_compare" for _, r in _ignored(_answer(text)))
