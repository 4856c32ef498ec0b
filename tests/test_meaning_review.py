"""The per-tool meaning table (bot/parse/configs/meaning.py) and its readers, after the s11 design review
(/work/notes/s11/review_report.md items 1, 2, 10, 13, 14, 15, 16/7): each key means one thing, in prose and
in a pasted config alike, and every number the user states is used or named as not used (design §8)."""

from __future__ import annotations

import json
from pathlib import Path

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


# -- item 2: FSDP reshard_after_forward, one reading in prose and in a pasted config

_FSDP = {
    "en": "TRL full fine-tune Llama-3-8B on 4 A100 80G, ",
    "zh": "TRL 全参微调 Llama-3-8B，4 张 A100 80G，",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(
    ("setting", "stage"),
    [
        ("fsdp_config.reshard_after_forward: false", 2),
        ("reshard_after_forward false", 2),
        ("reshard_after_forward=false", 2),
        ("fsdp_config.reshard_after_forward: true", 3),
        ("FSDP, reshard_after_forward: false", 2),
    ],
)
def test_reshard_after_forward_sets_the_stage_in_prose(capsys, lang, setting, stage):
    """FSDP2's reshard_after_forward (meaning ``reshard_bool``): false keeps the parameters gathered after
    the forward pass — SHARD_GRAD_OP, ZeRO-2; true reshards them — FULL_SHARD, ZeRO-3 (PyTorch
    fully_shard docs). Before: prose 3 (the 'fsdp' of 'fsdp_config' read as plain FSDP), bare form
    unread and not named."""
    data = _ask(capsys, _FSDP[lang] + setting)
    assert data["request"]["zero_stage"] == stage
    assert not [i for i in _ignored(data) if "reshard" in i["text"]]


_PASTED = (
    "trl sft, full fine-tune Llama-3-8B on 4 A100 80G\n\nper_device_train_batch_size: 1\n{}"
    "fsdp_config:\n  reshard_after_forward: false\n"
)


@pytest.mark.parametrize("strategy", ["", "fsdp: full_shard\n"])
def test_reshard_after_forward_pasted_reads_as_in_prose_and_names_a_conflict(capsys, strategy):
    """The same setting pasted: ZeRO-2 as in prose; a FULL_SHARD beside it is named, never dropped."""
    data = _ask(capsys, _PASTED.format(strategy))
    assert data["request"]["zero_stage"] == 2
    assert data["stack_config"]["used"]["fsdp_config.reshard_after_forward"] == "zero_stage"
    conflict = {"text": "fsdp: full_shard", "reason": "sharding_conflict"}
    assert (conflict in _ignored(data)) == bool(strategy)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_stated_strategy_against_reshard_is_named_in_prose(capsys, lang):
    data = _ask(capsys, _FSDP[lang] + "fsdp full_shard, reshard_after_forward: false")
    assert data["request"]["zero_stage"] == 2
    assert {"text": "fsdp: full_shard", "reason": "sharding_conflict"} in _ignored(data)


# -- item 14: a setting's earlier value has a reason of its own


@pytest.mark.parametrize(
    ("text", "field", "value", "earlier"),
    [
        ("LoRA fine-tune Qwen2.5-7B on 2 4090, batch size from 8 down to 2", "batch_size", 2, "8"),
        ("LoRA 微调 Qwen2.5-7B，2 张 4090，batch size 从 8 降到 2", "batch_size", 2, "8"),
        ("Full fine-tune Qwen2.5 7B on 8 A100 with cutoff_len from 4096 to 2048", "seq_len", 2048, "4096"),
        ("8 张 A100 全参微调 Qwen2.5 7B，cutoff_len 从 4096 改成 2048", "seq_len", 2048, "4096"),
    ],
)
def test_a_value_replaced_by_a_later_one_is_named_so(capsys, text, field, value, earlier):
    """'from 8 down to 2': 2 is sized, the 8 is named ``replaced_by_later_value`` (before: ``unread``,
    which gave the user no reason), worded in the reply's language."""
    data = _ask(capsys, text)
    assert data["request"][field] == value
    assert {"text": earlier, "reason": "replaced_by_later_value"} in _ignored(data)
    main(["ask", text])
    reply = capsys.readouterr().out
    assert ("已改成后面的值" in reply) if "张" in text else ("you changed it to the later one" in reply)


# -- item 10: a key several tools share means one thing, or is read per tool


def test_a_shared_key_is_read_per_tool_and_never_by_whichever_tool_comes_first() -> None:
    """axolotl's batch_size is the effective batch (gradient_accumulation_steps = batch_size /
    micro_batch_size); torchtune's and xtuner's is per device. The shared table keeps one meaning per key
    or declares the key (SHARED_DEFAULT), and a disagreement nobody declared raises."""
    from bot.parse.configs import meaning

    assert meaning.MEANING["axolotl"]["batch_size"] == ("global_batch", "int")
    assert meaning.tool_rows("axolotl")["batch_size"] == ("global_batch", "int")
    assert meaning.training_rows()["batch_size"] == ("batch_size", "int")  # torchtune's, declared
    rows = {t: meaning.tool_rows(t) for t in meaning.TRAINING}
    for key in {k for r in rows.values() for k in r}:
        meanings = {r[key] for r in rows.values() if key in r}
        assert len(meanings) == 1 or key in meaning.SHARED_DEFAULT, key
    saved = dict(meaning.MEANING["xtuner"])
    try:
        meaning.MEANING["xtuner"]["max_epochs"] = ("global_batch", "int")  # undeclared disagreement
        meaning.training_rows.cache_clear(), meaning.tool_rows.cache_clear()
        with pytest.raises(ValueError, match="max_epochs"):
            meaning.training_rows()
    finally:
        meaning.MEANING["xtuner"] = saved
        meaning.training_rows.cache_clear(), meaning.tool_rows.cache_clear()


_AXOLOTL = (
    "axolotl full fine-tune Llama-3-8B on 8 A100\n\nbase_model: meta-llama/Meta-Llama-3-8B\n"
    "sequence_len: 4096\nmicro_batch_size: 2\nbatch_size: 32\nnum_epochs: 1\n"
)


def test_axolotl_batch_size_pasted_is_the_effective_batch(capsys):
    """Before: micro-batch 32 (the first tool's row), and the answer said it did not fit."""
    data = _ask(capsys, _AXOLOTL)
    req = data["request"]
    assert (req["batch_size"], req["global_batch"]) == (2, 32)
    assert data["stack_config"]["used"]["batch_size"] == "global_batch"


@pytest.mark.parametrize(
    "text",
    [
        "axolotl full fine-tune Llama-3-8B on 8 A100, batch_size: 32, micro_batch_size: 2",
        "axolotl 全参微调 Llama-3-8B，8 张 A100，batch_size: 32，micro_batch_size: 2",
    ],
)
def test_axolotl_batch_size_in_prose_is_the_effective_batch(capsys, text):
    req = _ask(capsys, text)["request"]
    assert (req["batch_size"], req["global_batch"]) == (2, 32)


# -- item 15: OpenRLHF is a modelled tool, not named as unsized


@pytest.mark.parametrize(
    "text",
    [
        "openrlhf train_ppo_ray --pretrain Qwen/Qwen2.5-7B-Instruct --micro_train_batch_size 2 "
        "--train_batch_size 128 --zero_stage 3 on 8 H100",
        "用 openrlhf 训 PPO，Qwen2.5-7B，8 张 H100，--zero_stage 3",
    ],
)
def test_openrlhf_sets_the_training_tool(capsys, text):
    """OpenRLHF trains on DeepSpeed ZeRO only (train_ppo_ray.py --zero_stage; its vLLM rollout has its own
    TP): the training tool, data parallel only. Before: 'training_tool: OpenRLHF' named no_field."""
    data = _ask(capsys, text)
    assert data["request"]["training_tool"] == "OpenRLHF"
    assert data["request"]["zero_stage"] == 3
    assert not [i for i in _ignored(data) if "OpenRLHF" in i["text"]]


# -- items 16 and 7: every source is one a reader can check


def test_every_source_names_a_commit_or_a_pypi_wheel_its_flag_table_was_read_from() -> None:
    """Each tool's meaning source gives a commit (7+ hex digits after '@') or a PyPI wheel ('PyPI wheel
    pkg==version'), and the tool's own flag table (bot/recipes/flags/<tool>.json, its 'source',
    'version' and 'how_extracted') names the same commit or wheel version: one reference per tool.
    The llama.cpp entry cites the server's slot split (item 1)."""
    import re

    from bot.parse.configs.meaning import SOURCES, UNTABLED
    from bot.recipes.flags import FILES

    flags = Path(__file__).resolve().parents[1] / "bot" / "recipes" / "flags"
    for tool, source in SOURCES.items():
        if tool in UNTABLED:
            continue
        table = json.loads((flags / f"{FILES.get(tool, tool)}.json").read_text())
        where = " ".join(str(table.get(k, "")) for k in ("source", "version", "how_extracted"))
        commit = re.search(r"@([0-9a-f]{7,40})\b", source)
        wheel = re.search(r"PyPI wheel ([\w.\-]+)==([\w.]+)", source)
        assert commit or wheel, (tool, source)
        ref = commit.group(1) if commit else wheel.group(2)
        assert ref in where, (tool, ref)
    assert "n_ctx_slot = n_ctx / params_base.n_parallel" in SOURCES["llama.cpp"]
    assert "v0.5.2" in SOURCES["sglang"]  # the reserve table's version, named beside the flags' wheel


# -- item 13: what a serving recipe writes, the meaning table reads back


_SERVING = [
    "vllm部署qwen2.5-72b的启动参数怎么设，4张A100",
    "部署70B推理需要几张A100，100并发，32k上下文",
    "deepseek-v3 部署 H200",
    "单卡4090跑qwen2.5-14b",
    "Serve Llama-3.1-8B with vLLM on one L40S, 32 concurrent users",
]


@pytest.mark.parametrize("question", _SERVING)
def test_every_key_a_serving_recipe_writes_is_read_back_through_its_tools_rows(question):
    """Each vLLM / SGLang / llama.cpp recipe (bot/recipes) pasted back is read by the serving reader: every
    flag it writes is a row of that tool's meaning table (used, for the row's own field) or a flag the
    tool's table has (named), none unknown."""
    from bot.core.pipeline import answer
    from bot.parse.configs import find_stack_config
    from bot.parse.configs.meaning import MEANING
    from bot.recipes import build_recipes

    a = answer(question)
    recipes = [r for r in build_recipes(a.report, a.lang) if r.tool in ("vllm", "sglang", "llama.cpp")]
    assert recipes, question
    for recipe in recipes:
        cfg, _ = find_stack_config(recipe.text)
        assert cfg is not None and cfg.tool == recipe.tool, recipe.text
        assert [k for k, why in cfg.unused.items() if why == "unknown_key"] == [], recipe.text
        rows = MEANING[recipe.tool]
        assert all(key in rows or field == "gpu_count" for key, field in cfg.used.items()), cfg.used
        for key, field in cfg.used.items():
            if key in rows:
                assert rows[key][0] == field, (recipe.tool, key)
