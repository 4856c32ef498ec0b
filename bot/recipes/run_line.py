"""The launch line a LLaMA-Factory recipe's ``# run:`` comment carries (:mod:`bot.recipes.llamafactory`),
and the keys of it that :mod:`bot.parse.configs` reads back as the config's GPU count: the writer and the
reader share one format (session 12 review 8)."""

from __future__ import annotations

RUN_GPUS_KEY = "NPROC_PER_NODE"
"""LLaMA-Factory's launcher variable for the processes (GPUs) per node (llamafactory-cli with
FORCE_TORCHRUN=1: its torchrun ``--nproc_per_node``)."""
RUN_NODES_KEY = "NNODES"
"""LLaMA-Factory's launcher variable for the number of machines (torchrun ``--nnodes``)."""


def llamafactory_launch(run: str, n_nodes: int, per_node: int, master_port: int) -> str:
    """``run`` (the ``llamafactory-cli train …`` command) with the torchrun variables for ``n_nodes``
    machines of ``per_node`` GPUs each; unchanged on one GPU."""
    if n_nodes > 1:
        return (
            f"FORCE_TORCHRUN=1 {RUN_NODES_KEY}={n_nodes} NODE_RANK=${{NODE_RANK}} "
            f"MASTER_ADDR=${{MASTER_ADDR}} MASTER_PORT={master_port} {RUN_GPUS_KEY}={per_node} {run}"
        )
    if per_node > 1:
        return f"FORCE_TORCHRUN=1 {RUN_GPUS_KEY}={per_node} {run}"
    return run
