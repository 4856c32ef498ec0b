"""The GPUs a pasted serving command runs on (issue 24, round 3): data-parallel replicas and the visible
devices written before it.

- **Data parallelism** (SGLang ``--dp`` / ``--dp-size``, ServerArgs ``dp_size``; vLLM
  ``--data-parallel-size`` / ``-dp``, EngineArgs ``data_parallel_size``): that many copies of the model,
  each on tensor × pipeline parallel GPUs, so the engine uses TP × PP × DP GPUs (both engines' docs:
  "data parallelism … runs multiple replicas").
- **Visible devices** (``CUDA_VISIBLE_DEVICES=1,2 vllm serve …``): the GPUs the engine may use. TGI shards
  over every visible GPU when ``--num-shard`` is not given (launcher ``num_shard``: "defaults to all
  visible GPUs"), so they are its TP and its GPUs; vLLM, SGLang and lmdeploy use TP × PP × DP of them
  (default one, :data:`bot.parse.configs.launchers.TP_DEFAULT_ONE`): when that equals the visible count
  it is the GPU count, else the visible list is named (``engine_gpus``), never taken silently.
- **Machines** (SGLang ``--nnodes``, ServerArgs ``nnodes``): the engine's TP × PP × DP GPUs spread over
  that many machines (SGLang's DeepSeek-V3 recipe on two H20 × 8 nodes: ``--tp 16 --nnodes 2``,
  sgl-project/sglang benchmark/deepseek_v3/README.md), so it sets the GPUs per machine and is used, never
  named as not used (trial s39 #1).
"""

from __future__ import annotations

import re
from typing import Any

from bot.parse.configs.model import StackConfig

DP_FLAGS = ("--dp", "--dp-size", "--data-parallel-size", "-dp")
"""Data-parallel size flags: SGLang (--dp, --dp-size), vLLM (--data-parallel-size, -dp)."""
ENV_RE = re.compile(r"[A-Z_][A-Z0-9_]*=\S*")
VISIBLE_RE = re.compile(r"\d+(?:,\d+)*")


def leading_env(argv: list[str]) -> dict[str, str]:
    """The environment assignments before a command's first word ('CUDA_VISIBLE_DEVICES=1,2 …')."""
    env: dict[str, str] = {}
    for word in argv:
        if not ENV_RE.fullmatch(word):
            break
        key, _, value = word.partition("=")
        env[key] = value
    return env


def serving_gpus(tool: str, argv: list[str], pairs: list[tuple[str, Any]], cfg: StackConfig) -> None:
    """Set ``gpu_count`` (and TGI's TP) from the data-parallel flags and the visible devices of one
    serving command; name the visible devices when the engine uses fewer or more of them."""
    dp_flag, dp = next(((f, v) for f, v in pairs if f in DP_FLAGS and _positive(v)), (None, None))
    layout = int(cfg.values.get("tp") or 1) * int(cfg.values.get("pp") or 1)
    attention_dp = dp_flag is not None and tool == "sglang" and cfg.values.get("dp_attention")
    if attention_dp:
        _attention_dp(dp_flag, int(dp), cfg)  # DP carved out of the TP group: no more GPUs (s40 fixs #1)
    elif dp_flag is not None:
        cfg.unused.pop(f"{dp_flag}: {dp}", None)
        cfg.set(dp_flag, "gpu_count", layout * int(dp))
        if tool == "vllm":
            _vllm_dp_ep(pairs, cfg, layout)
    if tool == "sglang":
        _machines(pairs, layout * (1 if attention_dp else int(dp or 1)), cfg)
    visible = leading_env(argv).get("CUDA_VISIBLE_DEVICES", "")
    if not VISIBLE_RE.fullmatch(visible):
        return
    n = len(visible.split(","))
    if tool == "tgi" and "tp" not in cfg.values:  # TGI shards over every visible GPU
        cfg.set("CUDA_VISIBLE_DEVICES", "tp", n)
        cfg.values.setdefault("gpu_count", n)
        return
    if "gpu_count" not in cfg.values and layout == n:
        cfg.set("CUDA_VISIBLE_DEVICES", "gpu_count", n)
    elif cfg.values.get("gpu_count", layout) != n:
        cfg.skip("CUDA_VISIBLE_DEVICES", visible, "engine_gpus")


def _attention_dp(flag: str, dp: int, cfg: StackConfig) -> None:
    """SGLang's ``--dp`` beside ``--enable-dp-attention``: the attention data-parallel degree inside the
    TP group, not replicas — the server runs on ``tp_size`` GPUs (python/sglang/srt/server_args.py:
    ``assert self.tp_size % self.dp_size == 0``; python/sglang/srt/layers/dp_attention.py
    ``compute_dp_attention_world_info``: ``attn_tp_size = tp_size // dp_size``), so the GPU count stays
    TP × PP. ``dp`` = TP (SGLang's DeepSeek launch, ``--tp 8 --dp 8``) is the layout sized — each GPU
    keeps its own sequences' latent — and used; a smaller ``dp`` dividing TP leaves groups of TP ÷ DP GPUs
    splitting each rank's attention: ``attention_tp`` = TP ÷ DP, sized since s45 (estimator.dp_replicated);
    any other ``dp`` is named as not used (``no_field``), as before."""
    tp = int(cfg.values.get("tp") or 1)
    if dp == tp:
        cfg.unused.pop(f"{flag}: {dp}", None)
        cfg.set(flag, "dp_attention", True)
    elif 1 < dp < tp and tp % dp == 0:  # s45: groups of TP ÷ DP GPUs splitting attention, sized
        cfg.unused.pop(f"{flag}: {dp}", None)
        cfg.set(flag, "attention_tp", tp // dp)


def _vllm_dp_ep(pairs: list[tuple[str, Any]], cfg: StackConfig, layout: int) -> None:
    """vLLM ``--enable-expert-parallel`` (``-ep``) beside ``--data-parallel-size N`` and no TP: attention
    data parallel — each of the N ranks keeps its own sequences' KV (MLA latent) cache — and the experts
    spread over the N GPUs (vLLM docs, serving/data_parallel_deployment.md: "for MoE models … the expert
    layers form an (EP or) TP group of size DP × TP"; serving/expert_parallel_deployment.md), the layout
    the answer offers for an MLA model (estimator.mla_layout): sized as data-parallel attention (trial
    s43 #3: named as 'does not change the GPUs, memory or time'). With a TP above 1 per rank (``layout``
    = TP × PP) each rank's attention is split over its TP: ``attention_tp`` = TP (s45, "each DP engine owns
    a number of per-GPU worker processes equal to the configured TP size", the same docs); with PP it is
    named as not used as before (bot.parse.configs.serve_flag_reasons)."""
    tp = int(cfg.values.get("tp") or 1)
    if layout != tp:
        return
    for flag in ("--enable-expert-parallel", "-ep", "--enable_expert_parallel"):
        if any(f == flag and v is True for f, v in pairs):
            cfg.unused.pop(f"{flag}: True", None)
            cfg.set(flag, "dp_attention", True)
            if tp > 1:
                cfg.values["attention_tp"] = tp
            return


def _machines(pairs: list[tuple[str, Any]], gpus: int, cfg: StackConfig) -> None:
    """SGLang ``--nnodes N``: the engine's ``gpus`` over N machines — the GPUs per machine when N divides
    them (else left named)."""
    nodes = next((v for f, v in pairs if f == "--nnodes" and _positive(v)), None)
    if nodes is None or gpus % nodes:
        return
    cfg.unused.pop(f"--nnodes: {nodes}", None)
    cfg.set("--nnodes", "gpus_per_node", gpus // nodes)  # the count itself: TP × PP × DP (above)


def _positive(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0
