"""A plural 's' after a card's name is a plural, not the S card (trial s14 #2: 'I have 4 V100s' was sized
as 4 × V100S-PCIe-32GB); 'V100S', 'V100 S', '4080S' and the L40S in any spelling stay the S cards."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from bot.cli import main
from bot.parse import parse
from bot.parse.plural_cards import EXCEPTED, PLURAL_OF


def ask_json(capsys, question: str) -> dict:
    """``sizing-bot ask --format json QUESTION`` in this process (exit 0 required), parsed."""
    capsys.readouterr()
    assert main(["ask", "--format", "json", question]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_plural_names_are_the_catalogs_pairs() -> None:
    """Every alias 'Xs' whose 'X' is another card's alias is listed (or excepted), and nothing else."""
    gpus = tomllib.loads(Path("estimator/data/gpus.toml").read_text())["gpu"]
    names: dict[str, str] = {}
    for g in gpus:
        for alias in (g["id"], g["family"], *g.get("aliases", [])):
            names.setdefault(" ".join(alias.lower().replace("-", " ").split()), g["id"])
    pairs = {
        k[:-1].removeprefix("rtx ").removeprefix("rtx").removeprefix("tesla ")
        for k, gid in names.items()
        if k.endswith("s") and k[:-1] in names and names[k[:-1]] != gid
    }
    assert pairs == set(PLURAL_OF) | set(EXCEPTED)


@pytest.mark.parametrize(
    ("question", "gpu", "count"),
    [
        ("I have 4 V100s, can I LoRA fine-tune Llama-3-8B?", "V100-SXM2-32GB", 4),
        ("我有 4 块 V100s，能 LoRA 微调 Llama-3-8B 吗", "V100-SXM2-32GB", 4),
        ("two RTX 4080s, LoRA Qwen2-7B on 1 亿 token 要多久", "RTX-4080", 2),
        ("用 4 张 V100S 部署 Qwen2-7B，能支持多少并发", "V100S-PCIe-32GB", 4),
        ("4 V100 S cards serving Qwen2-7B, how many users?", "V100S-PCIe-32GB", 4),
        ("我有一张 4080S，LoRA 微调 Qwen2-7B 够吗", "RTX-4080-Super", 1),
        ("Serving Llama-3-8B on 4 L40s, how many concurrent users?", "L40S", 4),
        ("4 张 L40Ss 部署 Llama-3-8B 能撑多少并发", "L40S", 4),
        ("Serving Llama-3-8B on 4 H100s, how many concurrent users?", "H100-SXM5-80GB", 4),
        ("8 张 A6000s 部署 Llama-3-8B 能撑多少并发", "RTX-A6000", 8),
    ],
)
def test_a_plural_s_is_a_plural(question: str, gpu: str, count: int) -> None:
    req = parse(question).request
    assert (req.gpu, req.gpu_count) == (gpu, count)


def test_plural_with_no_count_sizes_the_count(capsys) -> None:
    """'how many V100s' is the V100 in the plural: the count is asked, as for 'how many H100s'."""
    for question in ("how many V100s to serve Qwen2-7B for 20 users?", "Can H100 GPUs run Llama-3-8B?"):
        req = parse(question).request
        assert req.count_asked is True
    out = ask_json(capsys, "I have 4 V100s, can I LoRA fine-tune Llama-3-8B?")
    assert out["request"]["gpu"] == "V100-SXM2-32GB"
    assert "V100S" not in out["reply"].split("\n")[0]
