"""The per-tool meaning table (bot/parse/configs/meaning.py) and its readers, after the s11 design review
(/work/notes/s11/review_report.md items 1, 2, 10, 13, 14, 15, 16/7): each key means one thing, in prose and
in a pasted config alike, and every number the user states is used or named as not used (design §8)."""

from __future__ import annotations

import json

import pytest

from bot.cli import main

KIB = 1024


def _ask(capsys, *argv: str) -> dict:
    main(["ask", "--format", "json", *argv])
    return json.loads(capsys.readouterr().out)


def _ignored(data: dict) -> list[dict]:
    return data["interpretation"]["ignored"]


# -- item 1: llama.cpp -c is the context of all -np slots together


@pytest.mark.parametrize(
    "text",
    [
        "llama.cpp -c 32768 -np 4 -m qwen2.5-7b-instruct-q4_k_m.gguf on one 4090",
        "llama.cpp --ctx-size 32768 --parallel 4 -m qwen2.5-7b-instruct-q4_k_m.gguf on one 4090",
        "用 llama.cpp -c 32768 -np 4 跑 qwen2.5-7b-instruct-q4_k_m.gguf，一张4090",
        "llama-server -c 32768 -np 4 -m qwen2.5-7b-instruct-q4_k_m.gguf on one 4090",
    ],
)
def test_llama_cpp_context_is_split_over_its_slots_and_np_is_read_once(capsys, text):
    """llama.cpp's server gives each slot n_ctx / n_parallel tokens (tools/server/server.cpp, server_context
    init: 'n_ctx_slot = n_ctx / params_base.n_parallel'): -c 32768 over -np 4 is 8,192 tokens each and a
    KV cache of 32,768 tokens in all — Qwen2.5-7B's 28 layers × 4 KV heads × 128 × 2 × 2 B = 56 KiB a
    token, 1.75 GiB, not 4 × that. -np is the load, read once: never also named as a cap not used."""
    data = _ask(capsys, text)
    req, inference = data["request"], data["report"]["inference"]
    assert (req["seq_len"], req["concurrency"], req["max_num_seqs"]) == (8192, 4, None)
    assert inference["kv_bytes_per_token"] == 56 * KIB
    assert inference["kv_bytes_total"] == 32768 * 56 * KIB
    assert not [i for i in _ignored(data) if "4" in i["text"] or "32768" in i["text"]]


def test_llama_cpp_context_with_one_slot_is_its_limit(capsys):
    """No -np: one slot, so -c is the one sequence's context and the engine's limit."""
    data = _ask(capsys, "llama.cpp -c 32768 -m qwen2.5-7b-instruct-q4_k_m.gguf on one 4090")
    req = data["request"]
    assert (req["seq_len"], req["concurrency"], req["max_model_len"]) == (32768, 1, 32768)
    assert data["report"]["inference"]["kv_bytes_total"] == 32768 * 56 * KIB
