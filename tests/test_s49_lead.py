"""Session 49 lead, the review's fixes (issue 24 item 4, issue 23 item 7): a server's RAM kind said alone
keeps a server's channels; a split said with its number or a card's own description after the cards does not
make the cards each machine's; an sdist's schema store is never trusted."""

from __future__ import annotations

import json

import pytest

from bot.cli import ask


def _json(text: str) -> dict:
    out, _ = ask(text, None, "json")
    return json.loads(out)


@pytest.mark.parametrize(
    "text",
    [
        "CPU only server, 512GB DDR5, run DeepSeek-R1 Q4_K_M, tokens/s?",
        "纯 CPU 推理，1TB DDR4 内存，双路至强，跑 DeepSeek-V3 Q4",
    ],
)
def test_a_server_s_ram_kind_alone_keeps_the_server_range(text: str) -> None:
    cpu = _json(text)["report"]["cpu"]
    # a server's 8-channel DDR4-3200 to 12-channel DDR5-4800 (estimator.layer_offload.HOST_BANDWIDTH_SERVER)
    assert cpu["bandwidth_kind"] == "server"
    assert (cpu["bandwidth_low"], cpu["bandwidth_high"]) == (204.8e9, 460.8e9)


@pytest.mark.parametrize(
    "text",
    [
        "没有独显，32G DDR5 内存，跑 Qwen2.5-7B Q4 能有多快",
        "no GPU, 32GB DDR5 RAM, how fast is Llama-3-8B Q4?",
    ],
)
def test_a_desktop_s_ram_kind_alone_is_dual_channel_and_said_assumed(text: str) -> None:
    cpu = _json(text)["report"]["cpu"]
    # two channels × 8 bytes × DDR5-4800 / -5600 (estimator.host_ddr)
    assert cpu["bandwidth_kind"] == "ddr" and cpu["ram_channels"] is None
    assert (cpu["bandwidth_low"], cpu["bandwidth_high"]) == (76.8e9, 89.6e9)


def test_the_assumed_channels_are_worded_as_assumed() -> None:
    en, _ = ask("no GPU, 32GB DDR5 RAM, how fast is Llama-3-8B Q4?", None, "text")
    assert "dual-channel assumed" in en
    said, _ = ask("no GPU, 32GB dual-channel DDR5 RAM, how fast is Llama-3-8B Q4?", None, "text")
    assert "2-channel DDR5" in said and "assumed" not in said.split("2-channel DDR5")[1][:60]


@pytest.mark.parametrize(
    ("text", "count", "per_node"),
    [
        ("Pretrain a 7B model on 100B tokens with 4 nodes, 16x A100 (4 per node)", 16, 4),
        ("Pretrain a 7B model on 100B tokens with 4 nodes, 32 H100 each", 128, 32),
        ("Pretrain a 7B model on 100B tokens with 2 nodes, 8 H100", 16, 8),
        ("预训练 7B 模型 100B token，4 个节点，32 张 H200", 32, 8),
        ("预训练 7B 模型 100B token，4 个节点，32 张 H200 每台", 128, 32),
    ],
)
def test_nodes_and_cards_listed(text: str, count: int, per_node: int) -> None:
    request = _json(text)["request"]
    assert (request["gpu_count"], request["gpus_per_node"]) == (count, per_node)


def test_only_a_wheel_s_build_writes_a_trusted_store() -> None:
    import inspect

    import hatch_build

    source = inspect.getsource(hatch_build.CatalogsHook.initialize)
    assert 'trusted=self.target_name == "wheel" and version == "standard"' in source
