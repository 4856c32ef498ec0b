"""Round 17 of the real questions, Chinese (issue 24; tests/data/real_questions/zh_r17.json): kinds of writing
the r17work half showed the parser missing, each read for its axis and tested through the CLI
(``sizing-bot ask --format json``):

- each request's lengths written before their words ('7K 输入、2K 输出'): the prompt and the reply, as '8k
  input, 1k output' and '输入 7K、输出 2K' were read (before, 7K was the whole sequence and 2K left unread;
  bot.parse.request_shape.SHAPE_FORM_CN);
- a word saying 'only' between each node and its cards ('三个节点，每个节点只有一张 V100'): nodes × cards
  (before, one card was sized and the node count left unread; bot.parse.node_words);
- an online-RL job's cards counted by role ('2 张 A100 跑 vllm 推理，6 张训练'): the job's sum, the rollout
  engine's share named (before, the first count was the job's; bot.parse.role_split), and a share given
  without a card word ('其中 2 张给 vllm'; bot.parse.count_forms.ROLLOUT_SHARE_RE);
- Huawei's Atlas 800 servers by their generation ('8 台 A2 服务器', 'Atlas 800I A3'): named as typed, never
  dropped (bot.parse.lexicon.UNKNOWN_GPU_RE);
- an unknown release's tier word and date after its version ('DeepSeek-V4-Flash-0731'): part of the name as
  typed (before, 'DeepSeek-V4' was named and '0731' left unread; bot.parse.model_names.with_tier).

The sentences are written for these tests (none is from the real-question corpus)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.cli_run import ignored_pairs


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    """The JSON answer of ``sizing-bot ask --format json TEXT``."""
    from bot.cli import main

    assert main(["ask", "--format", "json", text]) in (0, 2)
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("text", "prompt", "seq"),
    [
        ("用 vllm 部署 Qwen2.5-32B，4 张 L40S，3K 输入、1K 输出、16 并发，吞吐多少？", 3000, 4000),
        ("sglang 部署 Qwen2.5-14B，2048 输入 256 输出，32 并发，一张 H100 够吗？", 2048, 2304),
        ("用 vllm 部署 Qwen2.5-32B，4 张 L40S，输入 3K、输出 1K、16 并发，吞吐多少？", 3000, 4000),
    ],
)
def test_request_lengths_before_their_words(
    capsys: pytest.CaptureFixture[str], text: str, prompt: int, seq: int
) -> None:
    request = ask(capsys, text)["request"]
    assert request["prompt_tokens"] == prompt
    assert request["seq_len"] == seq


@pytest.mark.parametrize(
    ("text", "count", "per_node"),
    [
        ("两个节点，每个节点只有 4 张 A100，能推理 Llama-3-70B 吗？", 8, 4),
        ("四台机器，每台仅有一张 4090，能分布式跑 Qwen2.5-32B 吗？", 4, 1),
        ("3 nodes, each node only has 2 H100, can they serve Llama-3-70B?", 6, 2),
    ],
)
def test_only_between_each_node_and_its_cards(
    capsys: pytest.CaptureFixture[str], text: str, count: int, per_node: int
) -> None:
    request = ask(capsys, text)["request"]
    assert (request["gpu_count"], request["gpus_per_node"]) == (count, per_node)


@pytest.mark.parametrize(
    ("text", "share", "other"),
    [
        ("GRPO 训练 Qwen2.5-7B：2 张 A100 跑 vllm 推理，6 张 A100 训练，显存够吗？", "2", "6"),
        ("PPO on Qwen2.5-7B, 2 GPUs for sglang rollout and 6 GPUs for training: enough memory?", "2", "6"),
    ],
)
def test_online_rl_cards_by_role_are_summed(
    capsys: pytest.CaptureFixture[str], text: str, share: str, other: str
) -> None:
    data = ask(capsys, text)
    assert data["request"]["gpu_count"] == int(share) + int(other)
    assert (share, "rollout_share") in ignored_pairs(data)


def test_a_stated_total_with_its_shares_stays(capsys: pytest.CaptureFixture[str]) -> None:
    """'8 张，其中 2 张给 vllm，6 张训练': 8 is the job's count as said, not 8 + 8."""
    data = ask(capsys, "GRPO 训练 Qwen2.5-7B，8 张 H100，其中 2 张给 vllm，6 张训练，要多久？")
    assert data["request"]["gpu_count"] == 8
    assert ("2", "rollout_share") in ignored_pairs(data)


def test_roles_outside_online_rl_are_not_summed(capsys: pytest.CaptureFixture[str]) -> None:
    """Serving on some cards and training on others, with no RL algorithm, are two setups, not one job."""
    data = ask(capsys, "用 2 张 4090 推理 Qwen2.5-7B，另外 6 张 A100 训练 Qwen2.5-7B 要多久？")
    assert data["request"]["gpu_count"] != 8


@pytest.mark.parametrize(
    ("text", "typed"),
    [
        ("在 4 台 A2 服务器上用 vllm-ascend 部署 Qwen2.5-72B，上下文能到多少？", "A2"),
        ("2 台 Atlas 800I A3 部署 GLM-4.5，能开 128K 上下文吗？", "Atlas 800I A3"),
    ],
)
def test_atlas_servers_by_generation_are_named(
    capsys: pytest.CaptureFixture[str], text: str, typed: str
) -> None:
    interpretation = ask(capsys, text)["interpretation"]
    assert (interpretation.get("unknown_gpu") or "").lower() == typed.lower()


@pytest.mark.parametrize(
    "text", ["Qwen3-30B-A3B 在 a2-highgpu-8g 上跑多快？", "用 4 张 A10 部署 Qwen3-30B-A3B 要多少显存？"]
)
def test_a2_and_a3_elsewhere_are_no_server(capsys: pytest.CaptureFixture[str], text: str) -> None:
    interpretation = ask(capsys, text)["interpretation"]
    assert (interpretation.get("unknown_gpu") or "").lower() not in ("a2", "a3")


@pytest.mark.parametrize(
    ("text", "typed"),
    [
        ("能不能用 8 张 4090 运行 DeepSeek-V9-Flash-0731？内存 370G。", "DeepSeek-V9-Flash-0731"),
        ("8 卡 4090 48G 能跑 DeepSeek-V9.1-Flash 吗？", "DeepSeek-V9.1-Flash"),
    ],
)
def test_an_unknown_release_keeps_its_tier_word(
    capsys: pytest.CaptureFixture[str], text: str, typed: str
) -> None:
    """'DeepSeek-V4-Flash-0731' was named 'DeepSeek-V4' with its date unread (bot.parse.model_names)."""
    data = ask(capsys, text)
    assert data["interpretation"]["unknown_model"] == typed
    assert not [text for text, reason in ignored_pairs(data) if reason == "unread"]
