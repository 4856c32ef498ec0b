"""A training script launched by PyTorch's own launcher with nothing that shards: plain DDP (s32).

'Platypus fine-tuning.sh (torchrun) on 8 A100 80G OOMs', 'python -m torch.distributed.launch
--nproc_per_node 4 train.py', '用 torchrun 起 8 卡跑 finetune.py': ``torchrun`` / ``torch.distributed.run``
/ ``torch.distributed.launch`` start one process per GPU and nothing else (PyTorch docs, "torchrun
(Elastic Launch)"); a script that wraps its model in ``DistributedDataParallel`` — the HF Trainer's
default when neither ``deepspeed`` nor ``fsdp`` is set (transformers ``TrainingArguments``), and the
alpaca-lora-style scripts' ``device_map={"": local_rank}`` — keeps a whole replica of the model on every GPU
(PyTorch DDP docs: one replica per process). Read as the data-parallel tool "PyTorch DDP"
(:data:`estimator.training_tools.TRAINING_TOOL_LIMITS`), so the search's stated-DDP rule applies
(:func:`estimator.verdicts.tool_runs_ddp`: "does not fit with plain DDP as configured", the ZeRO plan
offered after it) — only where the message names such a launch and nothing that shards or lays the model
out otherwise: DeepSpeed, FSDP, ZeRO, Megatron-LM/NeMo, ColossalAI, torchtune, llama-recipes' FSDP,
accelerate, tensor/pipeline parallelism, a device map across GPUs.
"""

from __future__ import annotations

from typing import Any

from bot.parse.regex import rc

TORCH_LAUNCH_RE = rc(r"\btorchrun\b|torch\.distributed\.(?:run|launch)\b")
"""PyTorch's launcher ('torchrun', 'python -m torch.distributed.launch')."""
SHARDS_RE = rc(
    r"deepspeed|\bds[_\-]?z[0-3]|fsdp|\bzero[\s\-_]*(?:stage|[0-3]|offload|\+\+)|megatron|nemo\b|colossal"
    r"|torchtune|tune\s+run|llama[\s\-_]*recipes|enable[_\-]fsdp|accelerate|tensor[\s\-_]*(?:model[\s\-_]*)?parallel"
    r"|pipeline[\s\-_]*(?:model[\s\-_]*)?parallel|\b[tp]p[\s_]*(?:size)?\s*[=:]?\s*[2-9]|张量并行|流水线并行|模型并行"
    r"|model[\s\-_]*parallel|device[_\s]*map\s*[=:]?\s*[\"']?auto|分片|切分|sharded|sharding"
)
"""Anything that shards the model or lays it out otherwise: then the launch says nothing of the layout."""


def ddp_launched(s: str, unused: list[tuple[str, str]]) -> dict[str, Any]:
    """``{"training_tool": "PyTorch DDP"}`` where the normalized training text ``s`` names PyTorch's
    launcher and nothing that shards; the launcher's item in ``unused`` turns from 'not_sized' to
    'launcher_ddp' (named among what is used: the layout read from it). Else ``{}``."""
    m = TORCH_LAUNCH_RE.search(s)
    if m is None or SHARDS_RE.search(s):
        return {}
    unused[:] = [(t, "launcher_ddp" if t.startswith("launcher: ") else why) for t, why in unused]
    return {"training_tool": "PyTorch DDP"}


def vocab_ddp(out: Any, s: str) -> None:
    """The prose reader's hook (:func:`bot.parse.prose_vocab.read_vocabulary`, called for a training text
    with 'torch' in it): one that names PyTorch's launcher and no training tool is plain DDP
    (:func:`ddp_launched`)."""
    if "training_tool" not in out.fields:
        out.fields.update(ddp_launched(s, out.unused))


def command_ddp(cfg: Any, text: str) -> None:
    """The pasted-command path (:mod:`bot.parse.configs`): 'torchrun --nproc_per_node 8 train.py' read
    as a command whose script names no tool (its ``tool`` stays the launcher) is plain DDP too, where the
    whole message ``text`` names nothing that shards (:data:`SHARDS_RE`) and the job is not inference."""
    if (
        cfg.tool == "torchrun"
        and "training_tool" not in cfg.values
        and cfg.values.get("stage") != "inference"
        and not SHARDS_RE.search(text.lower())  # the message as typed: 'FSDP', 'DeepSpeed' (s39)
    ):
        cfg.values["training_tool"] = "PyTorch DDP"
        cfg.used.setdefault("torchrun", "training_tool")


def beside_sharding_config(parsed: Any, stack: Any) -> Any:
    """``parsed`` (the prose beside a pasted config) without its plain-DDP reading when the config shards:
    a DeepSpeed JSON with a ZeRO stage or offload (or an FSDP config: ZeRO-3) beside 'torchrun' /
    'python -m torch.distributed.launch' is a DeepSpeed (FSDP) run at the config's stage — the launcher
    starts the processes, the config lays the model out (DeepSpeed docs, "Launching DeepSpeed Training":
    torchrun and ``deepspeed.initialize`` with ``--deepspeed_config``; s39 fixp #1: the prose's launcher
    was read as plain DDP in one line while another used the JSON's ZeRO-2 and offload). The launcher is
    then named as not sized, as beside any other config. The caller gates on the prose's reading."""
    values = stack.values
    if (
        (stack.tool or "").lower() != "deepspeed"
        and values.get("zero_stage") is None
        and not values.get("offload")
    ):
        return parsed
    unused = [(t, "not_sized" if why == "launcher_ddp" else why) for t, why in parsed.unused_numbers]
    found = [f for f in parsed.found if f != "training_tool"]
    request = parsed.request.model_copy(update={"training_tool": None})
    return parsed.model_copy(update={"request": request, "found": found, "unused_numbers": unused})
