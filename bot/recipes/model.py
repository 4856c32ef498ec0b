"""A launch recipe, and the job it launches: everything a builder reads, taken from one answer.

Builders are pure functions ``Job → Recipe | None``. A :class:`Job` holds the report (its plan or its
serving layout), the request with the estimator's defaults filled in, the model's shape (the catalog
entry, or the generic shape the estimator sized), the GPU, and the reply's language. Nothing in a
recipe comes from anywhere else: every number is the answer's own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.core.chosen import chosen_plan
from estimator import catalog
from estimator.catalog import GpuSpec, ModelSpec
from estimator.ledger import Ledger
from estimator.models import Inference, Method, Plan, SizingReport, SizingRequest, Stage
from estimator.resolve import resolve_model

Tool = Literal[
    "deepspeed", "torchrun", "megatron", "llamafactory", "torchtune", "vllm", "sglang", "llama.cpp", "ollama"
]
TOOLS: tuple[str, ...] = (
    "deepspeed",
    "torchrun",
    "megatron",
    "llamafactory",
    "torchtune",
    "vllm",
    "sglang",
    "llama.cpp",
    "ollama",
)
"""Every tool a recipe may be for (``Recipe.tool``), in the order answers list them."""
_DEFAULT_PER_NODE: int = GpuSpec.model_fields["gpus_per_node"].default
"""GPUs in a node when nothing says otherwise: the catalog schema's default (estimator.catalog)."""
TRAINING_TOOLS = frozenset({"deepspeed", "torchrun", "megatron", "llamafactory", "torchtune"})
SERVING_TOOLS = frozenset({"vllm", "sglang", "llama.cpp", "ollama"})


class Recipe(BaseModel):
    """One file or command a user can run: ``text`` in ``language`` saved as ``filename``."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    tool: Tool
    title: str = Field(description="one line in the reply's language: what it launches, on what")
    filename: str = Field(description="a file name to save ``text`` as (ds_config.json, serve_vllm.sh …)")
    language: Literal["json", "yaml", "bash"]
    text: str


@dataclass(frozen=True)
class Job:
    """What a builder reads: one answer's report, the model's shape, the GPU, the reply's language."""

    report: SizingReport
    spec: ModelSpec | None
    gpu: GpuSpec | None
    lang: str
    known_plan: tuple[Plan | None] | None = None
    """The answer's chosen layout when the caller has it (:attr:`bot.core.answer.Answer.chosen_plan`,
    computed once per reply), as a 1-tuple; None: derive it from the report."""

    @property
    def plan(self) -> Plan | None:
        """The training layout the answer recommends: the caller's (``known_plan``), else
        :func:`chosen_plan` of the report."""
        return self.known_plan[0] if self.known_plan is not None else chosen_plan(self.report)

    @property
    def request(self) -> SizingRequest:
        """The request with the estimator's defaults filled in (seq_len, micro-batch, context …)."""
        return self.report.request

    @property
    def stage(self) -> Stage | None:
        return self.request.stage

    @property
    def method(self) -> Method:
        return self.request.method or Method.full

    @property
    def inference(self) -> Inference | None:
        return self.report.inference

    @property
    def per_node(self) -> int:
        """GPUs per node of the card sized (the report's ``gpu_spec``); for a hand-built report without
        one, its catalog card's, else the catalog's default node (:class:`GpuSpec` ``gpus_per_node``)."""
        if self.report.gpus_per_node is not None:
            return self.report.gpus_per_node
        return self.gpu.gpus_per_node if self.gpu else _DEFAULT_PER_NODE

    def assumed(self, field: str) -> object | None:
        """The value the ledger assumed for ``field`` (None when the user gave it or it was not needed)."""
        return next((a.value for a in self.report.assumptions if a.field == field), None)


def job_for(report: SizingReport, lang: str, known_plan: tuple[Plan | None] | None = None) -> Job:
    """The job behind ``report``: the model shape and the GPU it was sized with (``model_spec``,
    ``gpu_spec``). A report not made by :func:`estimator.sizing.estimate` (built by hand, without
    them) has both resolved from its request as the estimator does."""
    if report.gpu_spec is not None:  # a card known only by its memory names no GPU in a recipe
        gpu = None if report.gpu_spec.generic else report.gpu_spec
        return Job(report=report, spec=report.model_spec, gpu=gpu, lang=lang, known_plan=known_plan)
    spec, _, _ = resolve_model(report.request, Ledger())
    gpu = catalog.resolve_gpu(report.request.gpu)
    memory = report.request.gpu_memory_gib
    if gpu is not None and memory and report.request.gpu not in catalog.gpus():
        # a derived id (a Mac configuration, a card of a stated size): the catalog card with that memory
        gpu = gpu.model_copy(update={"id": report.request.gpu, "memory_gib": memory})
    return Job(report=report, spec=spec, gpu=gpu, lang=lang, known_plan=known_plan)


def gpus_of(plan: Plan) -> int:
    """GPUs a layout runs on: TP × PP × DP."""
    return plan.tp * plan.pp * plan.dp


def nodes(gpus: int, per_node: int) -> tuple[int, int]:
    """(nodes, GPUs per node) for ``gpus``: one node up to a node's size, else whole nodes, else the
    fewest nodes that split the count evenly (12 GPUs on 8-GPU nodes → 2 × 6)."""
    if gpus <= per_node:
        return 1, gpus
    n = math.ceil(gpus / per_node)
    while gpus % n:
        n += 1
    return n, gpus // n


def training_precision(job: Job) -> str:
    """'bf16', or 'fp16' on a card without BF16 tensor cores (V100, T4: loss scaling)."""
    if job.gpu is not None and job.gpu.peak_tflops_bf16 is None:
        return "fp16"
    return "bf16"
