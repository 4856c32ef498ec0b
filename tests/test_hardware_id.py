"""``report.hardware.id`` of a card with a memory the user stated (s8 fix item 8): the catalog card's id,
the memory in its own fields — it was the two run together ('A800-80GB-40GB', 'RTX-4090-48GB'). The JSON
contract only adds fields (``memory_stated``, ``catalog_memory_gib``); the id's value is now the catalog
id the request's ``gpu`` already gave."""

from __future__ import annotations

import json

import pytest

from bot.cli import main


@pytest.mark.parametrize(
    ("question", "gpu", "name", "memory", "catalog_memory"),
    [
        # "A800 40G" was here: since s43 (fixserve2) a catalog card of its own, not a stated memory
        ("fine-tune Qwen2.5-7B with LoRA on 4 H20 141G", "H20-96GB", "H20 141G", 141.0, 96.0),
        ("2张4090 48G 部署 Qwen2.5-32B", "RTX-4090", "RTX 4090 48G", 48.0, 24.0),
        ("用2080ti魔改22G微调qwen2.5-7b的lora", "RTX-2080-Ti", "RTX 2080 Ti 22G", 22.0, 11.0),
    ],
)
def test_stated_memory_keeps_the_catalog_id(
    capsys, question: str, gpu: str, name: str, memory: float, catalog_memory: float
) -> None:
    assert main(["ask", "--format", "json", question]) == 0
    answer = json.loads(capsys.readouterr().out)
    hw = answer["report"]["hardware"]
    assert (hw["id"], hw["name"], hw["memory_gib"]) == (gpu, name, memory)
    assert (hw["memory_stated"], hw["catalog_memory_gib"]) == (True, catalog_memory)
    assert answer["request"]["gpu"] == gpu and answer["request"]["gpu_memory_gib"] == memory
    assert name in answer["reply"].splitlines()[0] or name.replace(" ", "") in answer["reply"]


def test_catalog_card_as_is(capsys) -> None:
    main(["ask", "--format", "json", "serve Qwen2.5-7B on one A100"])
    hw = json.loads(capsys.readouterr().out)["report"]["hardware"]
    assert (hw["id"], hw["memory_gib"], hw["memory_stated"], hw["catalog_memory_gib"]) == (
        "A100-SXM4-80GB",
        80.0,
        False,
        None,
    )
