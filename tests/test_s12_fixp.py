"""Session 12 review of the merge (s12-int at 7450af9), parser findings: a recompute the user turns off
(2), a model described as trained with reinforcement learning (3), ms-swift GRPO's completion default (4),
the 'at N tokens' sequence (17). Each case failed on 7450af9."""

from __future__ import annotations

import pytest

from bot.parse import parse
from tests.cli_run import ask_in_process


@pytest.mark.parametrize(
    "text",
    [
        "全参微调 7B，8 张 A100，seq 4096，不需要重计算",
        "全参微调 7B，8 张 A100，seq 4096，无需重计算",
        "全参微调 7B，8 张 A100，seq 4096，别开重计算",
        "全参微调 7B，8 张 A100，seq 4096，不必开重计算",
        "全参微调 7B，8 张 A100，seq 4096，关了重计算",
        "全参微调 7B，8 张 A100，seq 4096，重计算关了",
        "full fine-tune 7B on 8 A100, seq 4096, no need for gradient checkpointing",
        "full fine-tune 7B on 8 A100, seq 4096, we don't need gradient checkpointing",
    ],
)
def test_a_recompute_turned_off_is_none(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """Was 'full' ('your setting') on 7450af9: the bare '重计算' read past the negation."""
    data = ask_in_process(capsys, text)
    assert data["request"]["recompute"] == "none"


@pytest.mark.parametrize(
    ("text", "mode"),
    [
        ("全参微调 7B，8 张 A100，seq 4096，开重计算", "full"),
        ("全参微调 7B，8 张 A100，seq 4096，重计算", "full"),
        ("全参微调 7B，8 张 A100，seq 4096，不开完全重计算", "selective"),
        ("full fine-tune 7B on 8 A100, seq 4096, with gradient checkpointing", "full"),
    ],
)
def test_a_recompute_turned_on_stays(text: str, mode: str) -> None:
    assert parse(text).request.recompute == mode


@pytest.mark.parametrize(
    "text",
    [
        "How many H100 to serve DeepSeek-R1-Distill-Llama-70B, a model trained with reinforcement learning, "
        "for 50 users?",
        "How many H100 to serve a Llama-3-70B trained via RLHF for 50 users?",
        "部署一个用强化学习训练出来的 Llama-3-70B，50个并发，要几张H100？",
        "部署一个经过RLHF训练的 Llama-3-70B，50个并发，要几张H100？",
    ],
)
def test_a_model_made_with_rl_is_served(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """Was stage 'finetune' (and, with RLHF, algorithm 'ppo') with the 50 users ignored on 7450af9: how
    the model was made is not the job."""
    data = ask_in_process(capsys, text)
    assert data["request"]["stage"] == "inference"
    assert data["request"]["concurrency"] == 50
    assert data["request"]["algorithm"] is None


@pytest.mark.parametrize(
    ("text", "algorithm"),
    [
        ("RL on Qwen2.5-7B with 8 H100", None),
        ("强化学习训练 Qwen2.5-7B，8张A100", None),
        ("GRPO training of Qwen2.5-7B on 8 H100, then serve it for 50 users", "grpo"),
    ],
)
def test_rl_training_is_still_fine_tuning(text: str, algorithm: str | None) -> None:
    request = parse(text).request
    assert request.stage == "finetune"
    assert request.algorithm == algorithm


def _swift_config(flat: dict[str, object]) -> dict[str, object]:
    from bot.parse.configs.model import StackConfig
    from bot.parse.configs.rl_handlers import RL_HANDLERS

    cfg = StackConfig(tool="ms-swift", format="yaml")
    RL_HANDLERS["swift_max_length"](cfg, "max_length", flat["max_length"], flat)
    return cfg.values


def test_swift_config_reads_max_new_tokens_as_the_completion() -> None:
    """ms-swift GRPO: --max_length 2048 bounds the prompt; max_new_tokens 1024 is the completion, so the
    sequence is 3,072. On 7450af9 `next()` returned the missing max_completion_length (None) and 512 was
    added (2,560)."""
    values = _swift_config({"rlhf_type": "grpo", "max_length": 2048, "max_new_tokens": 1024})
    assert values == {"seq_len": 3072}
    values = _swift_config({"rlhf_type": "grpo", "max_length": 2048, "max_completion_length": 768})
    assert values == {"seq_len": 2816}


def test_swift_config_without_a_completion_leaves_the_prompt() -> None:
    """No completion stated: the parse gives the prompt's bound only (no 512 read as if stated)."""
    assert _swift_config({"rlhf_type": "grpo", "max_length": 2048}) == {"prompt_tokens": 2048}
    assert _swift_config({"rlhf_type": "dpo", "max_length": 2048}) == {"seq_len": 2048}


@pytest.mark.parametrize(
    "text",
    [
        "swift rlhf --rlhf_type grpo --model Qwen/Qwen2.5-7B-Instruct --max_length 2048 on 8 A100",
        "用 swift rlhf --rlhf_type grpo 训 Qwen2.5-7B，--max_length 2048，8张A100，数据1亿token要多久",
    ],
)
def test_swift_grpo_completion_default_is_an_assumption(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """ms-swift's max_completion_length default 512 (swift/arguments/rlhf_args.py @3602360) is assumed in
    the estimator with its source: the sequence sized is 2,048 + 512 = 2,560, and the request does not
    say 512 as stated (on 7450af9: max_completion_length 512 in the request, no assumption)."""
    data = ask_in_process(capsys, text)
    assert data["request"]["max_completion_length"] is None
    assert data["request"]["prompt_tokens"] == 2048
    assert data["request"]["seq_len"] == 2560
    assumed = [a for a in data["assumptions"] if a["field"] == "max_completion_length"]
    assert [(a["value"], a["why"], a["citation"]) for a in assumed] == [
        (512, "swift_completion_default", "swift/arguments/rlhf_args.py @3602360")
    ]
    assert data["interpretation"]["ignored"] == []


def test_swift_grpo_stated_completion_is_used(capsys: pytest.CaptureFixture[str]) -> None:
    text = (
        "swift rlhf --rlhf_type grpo --model Qwen/Qwen2.5-7B-Instruct --max_length 2048 "
        "--max_completion_length 1024 on 8 A100"
    )
    data = ask_in_process(capsys, text)
    assert data["request"]["seq_len"] == 3072
    assert data["request"]["max_completion_length"] == 1024
    assert not [a for a in data["assumptions"] if a["field"] == "max_completion_length"]


_SHARE = "vllm_gpu_memory_utilization"


@pytest.mark.parametrize(
    ("keys", "engine"),
    [
        ({}, "vLLM"),
        ({"use_vllm": "true"}, "vLLM"),
        ({"use_vllm": "false"}, None),
        ({"use_vllm": "0"}, None),
        ({"use_lmdeploy": "true"}, None),
        ({"use_lmdeploy": "false"}, "vLLM"),  # was None in a config, vLLM in a message (7450af9)
        ({"use_sglang": "1"}, None),
        ({"lmdeploy_session_len": "4096"}, None),  # was None in a config, vLLM in a message (7450af9)
    ],
)
def test_one_rule_turns_the_vllm_rollout_engine_off(keys: dict[str, str], engine: str | None) -> None:
    """The message's key reader (engine_keys.keyed_engine) and the config reader (training._vllm_share)
    decide the rollout engine of 'vllm_gpu_memory_utilization 0.5' by the same rule (review 8)."""
    from bot.parse.configs.model import StackConfig
    from bot.parse.configs.training import _vllm_share
    from bot.parse.engine_keys import keyed_engine

    text = " ".join(f"--{k} {v}" for k, v in keys.items()) + f" --{_SHARE} 0.5"
    assert keyed_engine(text, text.index(_SHARE) + len("vllm_")) == engine  # the key after the prefix
    cfg = StackConfig(tool="ms-swift", format="cli")
    flat = {**keys, _SHARE: 0.5}
    assert _vllm_share(cfg, _SHARE, 0.5, flat)
    assert cfg.values.get("runtime") == engine


@pytest.mark.parametrize(("nodes", "per_node", "gpus"), [(1, 8, 8), (2, 8, 16), (4, 4, 16)])
def test_the_run_comment_the_recipe_writes_is_read_back(nodes: int, per_node: int, gpus: int) -> None:
    """The LLaMA-Factory recipe's '# run:' launch line and the config reader share one format
    (bot.recipes.run_line; review 8): the GPUs it launches on are read back as the config's count."""
    from bot.parse.configs import RUN_GPUS_RE, RUN_NODES_RE
    from bot.recipes.run_line import llamafactory_launch

    line = "# run: " + llamafactory_launch("llamafactory-cli train llamafactory.yaml", nodes, per_node, 29500)
    n = RUN_GPUS_RE.search(line)
    m = RUN_NODES_RE.search(line)
    assert n is not None
    assert int(n.group(1)) * (int(m.group(1)) if m else 1) == gpus
    assert (
        llamafactory_launch("llamafactory-cli train x.yaml", 1, 1, 29500) == "llamafactory-cli train x.yaml"
    )


def test_branch_searches_are_held_weakly() -> None:
    """An AnyBranch no longer referenced leaves the second-message planning set (review 17: a list kept
    every one ever made, for the life of the process)."""
    import gc

    from bot.parse.regex import _ANY_BRANCHES, AnyBranch, rc

    made = AnyBranch(rc(r"\bweakly\b|held"))
    assert made in _ANY_BRANCHES
    before = len(_ANY_BRANCHES)
    del made
    gc.collect()
    assert len(_ANY_BRANCHES) == before - 1


@pytest.mark.parametrize(
    ("text", "seq_len", "tokens"),
    [
        ("full fine-tune of Llama-3-8B at 4096 tokens on 8 A100", 4096, None),  # 7450af9: tokens 4096
        ("LoRA Llama-3-8B at 8k tokens on one A100", 8192, None),
        ("fine-tune Llama-3-8B on 50M tokens at 2048 tokens", 2048, 50e6),
        ("pretrain 7B at 2T tokens", None, 2e12),  # a dataset: 1e6 tokens and more
        ("pretrain a 7B model at 500B tokens", None, 500e9),
    ],
)
def test_at_n_tokens_below_a_million_is_the_sequence(
    text: str, seq_len: int | None, tokens: float | None
) -> None:
    """'at N tokens' (an English form; Chinese says the length word, '4096 token 的序列') is the
    sequence below 1e6 tokens, the data's tokens from it on (review 17)."""
    request = parse(text).request
    assert (request.seq_len, request.tokens) == (seq_len, tokens)
