"""s51 trial #1: a layer-splitting runtime (llama.cpp, Ollama) on several cards runs one copy of the
weights with its layers split over them (llama.cpp ``--split-mode layer``; Ollama server/sched.go), never a
replica per card; a server (vLLM) on cards that each hold the model still runs replicas."""

from __future__ import annotations

import json

from bot.cli import ask


def _inf(text: str) -> dict:
    out, _ = ask(text, None, "json")
    return json.loads(out)["report"]["inference"]


def test_ollama_two_cards_one_copy_zh() -> None:
    inf = _inf("两张3090用Ollama跑qwen3:32b，显存够吗")
    assert inf["replicas"] == 1 and inf["tp"] == 2
    assert inf["required_bytes"] < 24e9  # one copy of 19.8 GB plus its cache, not two
    text, _ = ask("两张3090用Ollama跑qwen3:32b，显存够吗", None, "text")
    assert "每个副本" not in text and "2 份权重" not in text


def test_ollama_two_cards_one_copy_en() -> None:
    inf = _inf("Ollama on two 3090s running qwen3:32b, enough VRAM?")
    assert inf["replicas"] == 1
    text, _ = ask("Ollama on two 3090s running qwen3:32b, enough VRAM?", None, "text")
    assert "one per replica" not in text and "2 copies" not in text


def test_llama_cpp_four_cards_one_copy_both_languages() -> None:
    for q in (
        "llama.cpp on 4x 4090 running Llama 3.1 8B Q4_K_M, how fast?",
        "4张4090用llama.cpp跑Llama 3.1 8B Q4_K_M，速度多少",
    ):
        inf = _inf(q)
        assert inf["replicas"] == 1 and inf["tp"] * inf["pp"] == 4, q


def test_vllm_keeps_replicas_both_languages() -> None:
    """Must not misread: vLLM on cards that each hold an 8B model still serves replicas."""
    for q in (
        "serve Llama 3.1 8B with vLLM on 4x A100 80G, 64 users",
        "用vLLM在4张A100 80G上部署Llama 3.1 8B，64并发",
    ):
        inf = _inf(q)
        assert inf["replicas"] > 1, q
