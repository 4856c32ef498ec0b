"""Training launch command lines → request values (split off :mod:`bot.parse.configs.launchers`, session
39): torchrun, accelerate launch, deepspeed, llamafactory-cli and tune run, their GPU and node counts
(flags, environment, device lists), and the training script's own ``--key value`` arguments.
"""

from __future__ import annotations

import re
from typing import Any

from bot.parse.configs.launchers import _options, read_megatron, words
from bot.parse.configs.megatron_shape import megatron_shape
from bot.parse.configs.model import StackConfig
from bot.parse.configs.training import read_training
from bot.parse.configs.yamlish import scalar

COUNT_FLAGS = {
    "torchrun": ({"--nproc_per_node", "--nproc-per-node"}, {"--nnodes"}),
    "deepspeed": ({"--num_gpus", "--num-gpus"}, {"--num_nodes", "--num-nodes"}),
    "accelerate": ({"--num_processes", "--num-processes"}, set()),
    "tune": ({"--nproc_per_node", "--nproc-per-node"}, {"--nnodes"}),  # tune run passes them to torchrun
}
"""Launcher flags that give the GPU count (per node, nodes; accelerate's --num_processes is the total)."""
SCRIPT_TOOLS = ("megatron", "llamafactory", "trl")


def read_launch(text: str, cfg: StackConfig) -> StackConfig:
    """A training command: environment, launcher flags (GPU count), then the script's arguments."""
    argv = words(text)
    env = {}
    while argv and re.fullmatch(r"[A-Z_][A-Z0-9_]*=\S*", argv[0]):
        key, _, value = argv.pop(0).partition("=")
        env[key] = value
    launcher = argv[0].rsplit("/", 1)[-1] if argv else ""
    start = next(
        (
            i
            for i, w in enumerate(argv)
            if i
            and not (w.endswith((".yaml", ".yml", ".json")) and argv[i - 1].startswith("--"))  # a flag's file
            and (
                w.endswith((".py", ".yaml", ".yml", ".sh"))
                or argv[i - 1] in ("-m", "--module")  # deepspeed --module openrlhf.cli.x
                or w in ("train", "run", "sft", "dpo", "grpo")
            )
        ),
        len(argv),
    )
    if launcher == "tune" and argv[1:2] == ["run"]:  # tune run [torchrun's flags] <recipe> --config … k=v
        start = _first_positional(argv, 2)
        argv = argv[:1] + argv[2:start] + argv[start:]
        start -= 1
    head, script_words = argv[1:start], argv[start:]
    _launcher_counts(launcher, _options(head)[0], env, cfg)
    if launcher == "accelerate":  # s15: its own flags (--config_file zero3.yaml, --zero_stage, --use_fsdp …)
        from bot.parse.configs.accelerate_flags import read_accelerate_flags

        read_accelerate_flags(_options(head)[0], cfg)
    script = script_words[0] if script_words else ""
    pairs, positional = _options(script_words[1:])
    from bot.parse.configs.script_tool import script_tool as _script_tool

    tool = _script_tool(launcher, script, pairs)
    named = tool if tool != "trl" or _names_trl(launcher, script, pairs) else launcher
    cfg.tools.append(named)
    cfg.tool = named
    if tool == "megatron":
        cfg.implied["stage"] = "pretrain"
        read_megatron(pairs, cfg)
        return megatron_shape(pairs, cfg)  # s37: --num-layers, --hidden-size … build the model sized
    flat = {flag.lstrip("-").replace("-", "_"): value for flag, value in pairs}
    flat.update({k: scalar(v) for k, _, v in (w.partition("=") for w in positional if "=" in w)})
    flat.pop("config", None)
    if tool == "openrlhf":
        from bot.parse.configs.rl_handlers import openrlhf_entry  # after training (it imports that)

        openrlhf_entry(script, flat, cfg)  # its entry point names the algorithm; vLLM engines the rollouts
    if tool == "colossalai":  # s45 r41: its --strategy and --accimulation_steps (bot.parse.configs.coati)
        from bot.parse.configs.coati import coati_flags

        coati_flags(flat, cfg)
    alpaca = tool == "trl" and {"micro_batch_size", "batch_size"} <= flat.keys()  # ALPACA_ROWS
    cfg = read_training(flat, "trl" if tool == "colossalai" else ALPACA_ROWS if alpaca else tool, cfg)
    if tool == "openrlhf" and "gpu_count" in cfg.values:  # the actor's GPUs, one role's: a count the text
        cfg.implied["gpu_count"] = cfg.values.pop("gpu_count")  # states (the whole job's) wins
    return cfg


ALPACA_ROWS = "axolotl"
"""Round 22: --micro_batch_size beside --batch_size (tloen/alpaca-lora finetune.py, h2oGPT's: accumulation =
batch_size // micro_batch_size) is read with axolotl's rows: batch_size the effective batch, not the micro."""


def _first_positional(argv: list[str], i: int) -> int:
    """The index of the first word from ``i`` that is neither a flag nor a flag's value."""
    while i < len(argv) and argv[i].startswith("-"):
        i += 1 if "=" in argv[i] else 2
    return min(i, len(argv))


def _launcher_counts(
    launcher: str, pairs: list[tuple[str, Any]], env: dict[str, str], cfg: StackConfig
) -> None:
    per, nodes = COUNT_FLAGS.get(launcher, (set(), set()))
    opts = dict(pairs)
    n = next((opts[f] for f in per if f in opts), None) or _int_env(env, "NPROC_PER_NODE")
    m = next((opts[f] for f in nodes if f in opts), None) or _int_env(env, "NNODES")
    if "--num_machines" in opts or "--num-machines" in opts:
        m = None  # accelerate's --num_processes is already the total
    visible = env.get("CUDA_VISIBLE_DEVICES")
    if n is None and visible and re.fullmatch(r"\d+(,\d+)*", visible):
        n = len(visible.split(","))
    from bot.parse.configs.device_lists import include_count

    listed = include_count(launcher, opts) if n is None else None  # deepspeed --include localhost:0,1,2,3
    if listed:
        per, (n, m) = {*per, listed[0]}, (listed[1], 1)
    m = int(str(m).split(":")[-1]) if m is not None and re.fullmatch(r"\d+(:\d+)?", str(m)) else 1
    if isinstance(n, int) and n > 0:
        cfg.values["gpu_count"] = n * m
        cfg.used[next((f for f in per if f in opts), "NPROC_PER_NODE")] = "gpu_count"
        if m > 1:  # round 23: 'torchrun --nnodes=4 --nproc_per_node=8': 4 machines of 8, both used
            cfg.values["gpus_per_node"] = n
            cfg.used[next((f for f in nodes if f in opts), "NNODES")] = "gpu_count"
    if launcher in COUNT_FLAGS:
        cfg.tools.append(launcher)
    for flag, value in pairs:
        if flag not in per and flag not in nodes and launcher in ("torchrun", "deepspeed"):
            from bot.parse.configs.vocab import known

            cfg.skip(flag, value, "not_sized" if known(launcher, flag) else "unknown_key")


def _int_env(env: dict[str, str], key: str) -> int | None:
    value = env.get(key, "")
    return int(value) if value.isdigit() and int(value) > 0 else None


def _names_trl(launcher: str, script: str, pairs: list[tuple[str, Any]]) -> bool:
    """Whether a script read with TrainingArguments' names is TRL (named as the training tool): the
    ``trl`` launcher, a script named for it, or its arguments. Under the ``deepspeed`` launcher a generic
    script ('train.py') runs on the DeepSpeed engine, and elsewhere one without arguments is no tool."""
    if launcher == "trl" or "trl" in script.lower():
        return True
    from bot.parse.configs.script_tool import names_trl_keys  # TRL's own keys, not TrainingArguments' (s33)

    return launcher != "deepspeed" and names_trl_keys(pairs)
