"""Typed inputs and outputs of the estimator.

Everything is in SI units: parameters and tokens are plain counts, compute in FLOPs,
memory in bytes, time in hours or days as the field name says, money in the currency
named next to it. No language, no formatting: the bot renders these. The input side
(:class:`SizingRequest`, its enums and the stated settings' declarations) lives in
:mod:`estimator.request` and is re-exported here.
"""

from pydantic import Field

from estimator.batch_work import BatchWork
from estimator.catalog import GpuSpec, ModelSpec
from estimator.cpu_decode import CpuRun
from estimator.factories import empty_list
from estimator.host_ram import HostRam
from estimator.largest_rows import LargestServed, LargestTrained
from estimator.layer_offload import LayerSplit
from estimator.request import (
    METHOD_FIELDS,
    SERVING_FIELDS,
    TRAINING_FIELDS,
    Algorithm,
    Currency,
    Method,
    OptimizerChoice,
    Precision,
    Recompute,
    Runtime,
    SizingRequest,
    Stage,
    _Frozen,
)
from estimator.shown_cost import cost_on, shown_cost

__all__ = [
    "METHOD_FIELDS",
    "SERVING_FIELDS",
    "TRAINING_FIELDS",
    "Algorithm",
    "Currency",
    "Method",
    "OptimizerChoice",
    "Precision",
    "Recompute",
    "Runtime",
    "SizingRequest",
    "Stage",
]


class Assumption(_Frozen):
    """A value the user did not give, with why (a key of :class:`estimator.reasons.Why`: the bot words
    it), the parameters of that explanation, further reasons, and a citation kept as written."""

    field: str
    value: float | int | str | bool | None
    why: str = Field(description="key of the explanation (estimator.reasons.Why)")
    params: dict[str, float | int | str | None] = Field(default_factory=dict)
    also: list[str] = Field(default_factory=empty_list, description="further reasons (Why keys), in order")
    citation: str | None = None
    """a source as written (model card, price list, paper)"""


class Note(_Frozen):
    """A warning or advice item: a stable code plus numeric/string parameters (rendered by the bot)."""

    code: str
    params: dict[str, float | int | str | None] = Field(default_factory=dict)


class Band(_Frozen):
    """A low / likely / high range of one quantity."""

    low: float
    likely: float
    high: float


class Cost(_Frozen):
    """Cost range: likely GPU-hours (billed in whole hours) × the price range; and the wider range
    that also spans the GPU-hours band (low hours × low price … high hours × high price)."""

    low: float
    high: float
    low_with_mfu: float | None = None
    high_with_mfu: float | None = None
    currency: Currency
    price_low: float = Field(description="per GPU-hour")
    price_high: float = Field(description="per GPU-hour")
    billed_gpu_hours: int
    price_source: str


class DaysRow(_Frozen):
    """Wall-clock days for a job on ``gpus`` GPUs (low / likely / high from the MFU band)."""

    gpus: int
    days: Band
    gpu_hours: Band | None = None
    """GPU-hours on this count when they differ from the report's gpu_hours (the fewest GPUs that fit pay full
    recomputation, ×(k + 2) / k); None where the report's apply"""
    cost: Cost | None = None
    """the cost of gpu_hours on this count (billed as the report's cost); None with it"""
    mfu: Band | None = None
    """MFU on this count past the scale-out reference, else None"""


class Plan(_Frozen):
    """A parallel layout: tensor × pipeline × data parallel = GPUs; expert parallelism (MoE) splits
    each data-parallel group's experts over ``ep`` of its ranks."""

    tp: int = 1
    pp: int = 1
    dp: int = 1
    ep: int = 1
    """expert-parallel degree (MoE): routed experts split over ep data-parallel ranks, tokens exchanged by
    all-to-all; 1 = every rank holds every expert"""
    zero_stage: int = 0
    recompute: str = "none"
    micro_batch: int = 1
    offload: bool = False
    gradient_accumulation: int | None = None
    """micro-batches each GPU accumulates per optimizer step (None: a layout of the search, before the batch
    is set; estimator.plan.with_batch)"""
    global_batch_sequences: int | None = None
    """sequences per optimizer step = micro_batch × gradient_accumulation × dp"""


class PredictionInterval(_Frozen):
    """What the GPU-hours range is: an 80 % prediction interval from leave-one-out residuals on
    published runs (estimator.calibration)."""

    level: float = Field(description="share of comparable published runs the range is built to hold (0.8)")
    low_factor: float = Field(description="gpu_hours.low / gpu_hours.likely")
    high_factor: float = Field(description="gpu_hours.high / gpu_hours.likely")
    runs: int = Field(description="comparable published runs behind it (sizing-bot validate)")
    loo_coverage: float = Field(
        description="share of those runs inside the interval built without them (leave-one-out)"
    )
    widened_for: list[str] = Field(
        default_factory=empty_list, description="groups whose runs scatter more, widening it: 'fp8', 'moe', …"
    )


class Alternative(_Frozen):
    """What would change the answer: the fewest GPUs under one changed option."""

    change: str = Field(description="e.g. 'no_full_recompute', 'adamw8bit', 'cpu_offload', 'lora', 'qlora'")
    min_gpus: int | None
    per_gpu_bytes: float | None = None
    zero_stage: int | None = None
    """the ZeRO stage the row is sized at when not the user's"""
    gpu_hours: float | None = None
    """a method change that fits the user's GPU count where the shown method does not: that method's
    GPU-hours on the same data (estimator.method_hours.timed_alternatives, s35)"""
    host_ram_bytes: float | None = None
    """CPU offload's row: the host RAM each machine needs for it at ``min_gpus`` (estimator.host_ram,
    DeepSpeed's estimators; s40 fixt #14)"""


class FitChange(_Frozen):
    """One setting to change so that the high end of the memory band fits (estimator.fit_change)."""

    setting: str = Field(
        description="'gather_for_generation', 'optimizer_impl', 'attention_implementation', 'micro_batch', "
        "'recompute', 'zero_stage', 'chunked_loss', 'optimizer', 'offload', 'param_offload', 'method', "
        "'seq_len' or 'gpu_count'"
    )
    value: str | int | bool = Field(
        description="the value to set it to, e.g. 'fused', 1, 'full', 3, True, 'adamw_8bit', 'qlora', 4096"
    )
    per_gpu_bytes_high: float | None = None
    """high end of the band per GPU once this change (and those before it) is made"""
    per_gpu_bytes: float | None = None
    """likely per GPU then (likely_fit only; s25)"""


class MethodRow(_Frozen):
    """One fine-tuning method of several asked at once ("全量微调、LoRA、QLoRA分别要多少显存")."""

    method: Method
    per_gpu_bytes: float = Field(description="memory per GPU on `plan_gpus`, at `plan` (bytes)")
    plan_gpus: int = Field(description="the user's GPU count, else `min_gpus`")
    min_gpus: int | None = Field(description="fewest GPUs that fit; None if none does within the search")
    feasible: str = Field(
        description="on the user's GPU count (one GPU when none is given): 'yes', 'borderline' (tight: "
        "above 90 % of the card) or 'no'"
    )
    trained_params: float = Field(description="parameters the method trains")
    plan: Plan | None = None
    """the layout `per_gpu_bytes` is at: the least-memory layout on `plan_gpus` (estimator.methods), chosen
    the same way for every method"""
    gpu_hours: float | None = None
    """likely GPU-hours: estimator.method_hours"""


class Checkpoint(_Frozen):
    """Storage for checkpoints (bytes)."""

    weights: float = Field(description="weights-only checkpoint (bf16; the adapters for LoRA/QLoRA)")
    full_state: float = Field(description="resumable training state: weights + optimizer (16 B/param AdamW)")


class Memory(_Frozen):
    """Memory per GPU for a layout, with its breakdown (bytes)."""

    min_plan: Plan | None = None
    """layout at `min_gpus`"""
    recommended_per_gpu_bytes: float | None = None
    least_plan: Plan | None = None
    """the least-memory layout on `plan_gpus` when it needs clearly less than `plan` (an adapter method on the
    user's count, laid out for the least communication: estimator.methods)"""
    least_per_gpu_bytes: float | None = None
    """memory per GPU at `least_plan`"""
    offloaded_bytes: float | None = None
    """an adapter run's FSDP parameter offload: the bytes all its ranks keep in host RAM — the frozen base as
    stored and the adapters' fp32 states (estimator.adapter_offload; s34); None otherwise"""
    per_gpu_bytes: float
    per_gpu_bytes_low: float | None = None
    """low end of the band around `per_gpu_bytes`: smallest plausible tensors, no runtime overhead (what
    PyTorch reports as peak allocated); derivation in estimator.memory_band"""
    per_gpu_bytes_high: float | None = None
    """high end of the band: largest plausible tensors, the forward/backward and the optimizer step's peaks
    added (the caching allocator keeps both) + CUDA context + 15 % fragmentation"""
    gpu_memory_bytes: float = Field(description="capacity of one card")
    usable_bytes: float = Field(description="capacity the job may use (overheads are in the breakdown)")
    min_gpus: int | None = Field(description="fewest GPUs that fit; None if none does within the search")
    breakdown: dict[str, float] = Field(description="bytes per part per GPU, e.g. weights, gradients")
    total_bytes: float = Field(description="sum over all GPUs of model states and caches (no overheads)")
    plan: Plan | None = None
    plan_gpus: int | None = None
    """GPU count that `plan` and `per_gpu_bytes` refer to"""
    fits_requested: bool | None = None
    """whether the user's GPU count fits"""
    recommended_gpus: int | None = None
    """GPUs for a comfortable run: no full recompute, ≥ 10 % headroom, a whole node for full training"""
    recommended_plan: Plan | None = None
    recommended_per_gpu_bytes_high: float | None = None
    """high end of the band at `recommended_plan` (s37); above `usable_bytes`: the recommendation is
    borderline (estimator.rec_high)"""
    recommended_high_gpus: int | None = None
    """when the recommendation is borderline: the fewest of 2×, 4×, 8× its count whose high end fits"""
    recommended_fit_change: list[FitChange] = Field(default_factory=empty_list)
    """when the recommendation is borderline: what lowers its high end on its own count, in order, each on
    top of those before — micro-batch 1, full recompute — with the high end it leaves (estimator.rec_high)"""
    alternatives: list[Alternative] = Field(default_factory=empty_list)
    fit_change: list[FitChange] = Field(
        default_factory=empty_list,
        description="what to change so that the high end of the band fits the user's GPUs, when only the "
        "likely figure does (the verdict is then 'borderline'): settings in the order to apply them",
    )
    likely_fit: list[FitChange] = Field(default_factory=empty_list, description="fit_change.likely_fit")
    pcie_zero_plan: Plan | None = None
    """on cards without NVLink, when `plan` needs TP for the stated micro-batch: the layout without TP or PP
    at the largest smaller micro-batch that fits the same GPUs (estimator.pcie_layout)"""
    pcie_zero_per_gpu_bytes: float | None = None
    """memory per GPU at `pcie_zero_plan`"""
    attention_scores_bytes: float | None = None
    """eager attention as stated (`attention_implementation` 'eager'): the bytes its b × heads × s × s scores
    add per GPU at `plan`, included in `per_gpu_bytes` (estimator.attention_scores.live_score_bytes); None
    otherwise"""


class DecodeSpeed(_Frozen):
    """Decode throughput in output tokens per second."""

    per_sequence: float
    aggregate: float
    batch: int = Field(description="sequences decoded together")
    bound: str = Field(description="'memory' (bandwidth) or 'compute'")
    per_sequence_low: float | None = Field(
        default=None, description="per_sequence ÷ the logged runs' spread (serving_speed.DECODE_SPREAD)"
    )
    per_sequence_high: float | None = Field(
        default=None, description="per_sequence × the logged runs' spread (serving_speed.DECODE_SPREAD)"
    )
    fixed_floor_ms: float | None = Field(
        default=None,
        description="the step's fixed time in ms (kernel launches per layer, MoE routing per MoE layer: "
        "serving_speed.fixed_seconds) when it, not the weight reads, set the step; else null",
    )


class Rollout(_Frozen):
    """RL rollouts timed as decode (estimator.rollout): tokens generated, the decode speed, the hours."""

    generated_tokens: float = Field(
        description="completion tokens decoded over the run (D × completion share)"
    )
    completion_tokens: int = Field(description="tokens per completion (max_completion_length)")
    prompt_tokens: int = Field(description="prompt tokens per sequence (prefilled, compute-bound)")
    decode_tp: int = Field(description="GPUs per generation engine (tensor parallel)")
    decode_batch: int = Field(description="sequences one engine decodes together")
    decode_tokens_per_s_per_gpu: float
    gpu_hours: float = Field(description="GPU-hours of decoding; gpu_hours adds them to the training passes")
    training_gpu_hours: Band = Field(description="GPU-hours of everything else, at the MFU band")
    in_trainer: bool = False
    """decoded by the trainer's model.generate, no engine"""


class PriceBand(_Frozen):
    low: float
    high: float
    currency: Currency


class Inference(_Frozen):
    """Serving sizing: weights + KV cache → GPUs, concurrency, speed, cost (bytes, tokens, seconds)."""

    weights_bytes: float
    bytes_per_param: float
    weight_format: str = Field(description="precision or quantization of the weights, e.g. 'bf16', 'int4'")
    kv_bytes_per_token: float = Field(
        description="KV cache per token of context, every layer (a sliding-window layer keeps only its "
        "window: kv_bytes_per_sequence holds what one sequence needs)"
    )
    kv_bytes_per_sequence: float = Field(description="KV cache for one sequence at `context_tokens`")
    kv_bytes_total: float = Field(description="KV cache for `concurrency` sequences")
    kv_precision: str
    context_tokens: int = Field(description="prompt + output tokens per sequence")
    prompt_tokens: int
    concurrency: int
    usable_bytes_per_gpu: float = Field(
        description="the runtime's budget per GPU: vLLM gpu_memory_utilization × the memory CUDA reports; "
        "SGLang, transformers: that memory less the CUDA context; llama.cpp: all memory less 1 GiB"
    )
    runtime: str = "vLLM"
    """memory model: 'vLLM' (default on data-centre cards), 'SGLang', 'transformers', 'llama.cpp' (GGUF, Macs,
    personal machines)"""
    workspace_bytes_per_gpu: float = 0.0
    """what the runtime keeps per GPU besides weights and KV cache: vLLM's profiling peak (activations,
    sampler logits, non-torch memory); SGLang's share outside mem_fraction_static; transformers' prefill
    activations and dequantization buffers; llama.cpp's compute buffer"""
    engine_reserve_exceeds_memory: bool = False
    """the engine's reserve on this layout is all of `usable_bytes_per_gpu` or more, so the memory its
    fraction hands it (usable less that reserve for SGLang: ServingRuntime.share_bytes) is nil or negative:
    the layout cannot start; the negative figures are not memory to use"""
    kv_capacity_tokens: int | None = None
    """KV cache tokens one copy of the model holds (vLLM's start-up 'GPU KV cache size'), on the user's GPUs
    when given, else on the layout used; below `context_tokens` vLLM refuses to start"""
    required_bytes: float | None = None
    """memory the stated load needs on all GPUs of the layout used: weights, its KV cache, each GPU's
    workspace and CUDA context (compare with nvidia-smi; vLLM/SGLang reserve their pool too)"""
    bytes_per_gpu: float | None = None
    """required_bytes per GPU of the user's TP × PP"""
    context_bytes_per_gpu: float = 0.0
    """the CUDA context counted in `bytes_per_gpu` on each GPU, outside the engine's share: `bytes_per_gpu`
    less it is what `usable_bytes_per_gpu` must hold (the verdict's basis; s34 fixa)"""
    min_gpus: int = Field(description="fewest GPUs holding the weights and one full-context sequence")
    min_without_dp_attention: bool = False
    """true when no count of these GPUs holds the MLA model with data-parallel attention and `min_gpus` is
    the fewest without it (every TP rank keeping the whole latent cache; s43 trial #2)"""
    min_split: tuple[int, int] | None = None
    """(TP, PP) of the `min_gpus` layout (TP × PP = min_gpus): the split the fewest count is sized on (s43)"""
    recommended_gpus: int = Field(description="GPUs holding the requested concurrency (TP a power of two)")
    serving_gpus: int = Field(
        description="GPUs the speed and cost figures refer to (user's count or recommended)"
    )
    tp: int
    pp: int = 1
    replicas: int = 1
    """copies of the model (data-parallel serving), each on TP × PP GPUs"""
    fp8_min_gpus: int | None = None
    """fewest GPUs holding FP8 weights and one sequence"""
    min_gpus_concurrency: int | None = None
    """sequences at the context `min_gpus` hold"""
    max_concurrency: int = Field(description="sequences of `context_tokens` that fit on `serving_gpus`")
    concurrency_table: list[tuple[int, int]] = Field(
        default_factory=empty_list, description="(context tokens, max concurrent sequences) on `serving_gpus`"
    )
    decode_tokens_per_s: DecodeSpeed | None = None
    prefill_seconds: float | None = None
    """time to process one prompt (≈ time to first token)"""
    prefill_allreduce_seconds: float = 0.0
    """the tensor-parallel all-reduces in `prefill_seconds` (s39 fixs #1); the throughput sizing omits them"""
    cost_per_million_tokens: PriceBand | None = None
    """per million output tokens at `priced_concurrency` sequences; with a layer_split, every layer on the
    GPUs (layer_split.cost_per_million_tokens_low/high: the setting stated)"""
    priced_concurrency: int | None = None
    """concurrent sequences the price per million tokens assumes: the stated load (as many as fit), else the
    most `serving_gpus` hold (`max_concurrency`), else one on a personal card"""
    priced_tokens_per_s: float | None = None
    """output tokens/s in total at `priced_concurrency` sequences: the throughput the price per million tokens
    assumes (not `decode_tokens_per_s` when priced at the most the GPUs hold)"""
    cost_per_month: PriceBand | None = None
    """serving_gpus × 730 h × price; × hours_per_day ÷ 24 when a daily schedule is stated"""
    gpu_hours_per_month: float | None = None
    """hours a month each serving GPU is rented when a daily schedule is stated: 730 × hours_per_day ÷ 24
    (None: 730, around the clock)"""
    cost_per_month_always_on: PriceBand | None = None
    """cost_per_month around the clock (730 h), when a daily schedule lowered it"""
    cost_for_load: PriceBand | None = None
    """recommended_gpus' cost, same hours, when serving_gpus hold less than the load"""
    alternatives: list[Alternative] = Field(
        default_factory=empty_list, description="GPUs for the same load with lighter weights ('fp8', 'int4')"
    )
    layer_split: LayerSplit | None = None
    """part of the weights in CPU memory (llama.cpp -ngl, --cpu-moe): where each part lives, whether it fits
    and the decode speed of one sequence (estimator.layer_offload); None: all on GPUs"""


class SizingReport(_Frozen):
    """Everything a reply needs, in SI units. Quantities that do not apply are ``None``."""

    request: SizingRequest = Field(description="the request with defaults filled in")
    assumptions: list[Assumption]
    gpu_name: str | None = None
    model_name: str | None = None
    flops: float | None = None
    flops_formula: str | None = None
    """e.g. '6ND' or '4ND'"""
    flops_with_attention: float | None = None
    """flops + the causal attention-score FLOPs at the sequence length (Kaplan et al. 2020 Table 1 × 3 =
    6·L·s·d_attn per token); used for the time beyond the calibration runs' 8K context"""
    attention_share: float | None = None
    """attention FLOPs / flops_with_attention (0–1)"""
    pf_days: float | None = None
    gpu_hours: Band | None = None
    gpu_hours_interval: PredictionInterval | None = None
    """what the gpu_hours low–high range is (None when the user's rate or MFU sets it)"""
    mfu: Band | None = None
    """MFU behind gpu_hours: low (→ high hours), likely, high"""
    peak_flops: float | None = None
    """dense peak FLOP/s per GPU that mfu refers to: the 16-bit peak, or the FP8 peak when training in FP8
    (request.precision 'fp8' on a card with FP8 tensor cores)"""
    mfu_calibrated: float | None = None
    """the calibrated likely MFU (of peak_flops), shown for comparison when a measured throughput or the
    user's MFU sets the time"""
    days: DaysRow | None = None
    """days on the user's GPU count"""
    days_table: list[DaysRow] = Field(default_factory=empty_list)
    gpus_for_deadline: int | None = None
    cost: Cost | None = None
    chinchilla_tokens: float | None = None
    memory: Memory | None = None
    host_ram: HostRam | None = None
    """host RAM per machine of a CPU offload, the stated RAM's verdict: estimator.host_ram"""
    cpu: CpuRun | None = None
    """serving on a machine with no GPU: llama.cpp / Ollama on the CPU from RAM (estimator.cpu_decode)"""
    method_comparison: list[MethodRow] = Field(
        default_factory=empty_list,
        description="one row per fine-tuning method when several are asked at once",
    )
    checkpoint_bytes: Checkpoint | None = None
    inference: Inference | None = None
    largest_served: list[LargestServed] | None = None
    """a serving question without a model: the largest model per weight format"""
    largest_trained: list[LargestTrained] | None = None
    """a fine-tuning question without a model: the largest model per method (s21)"""
    feasible: str | None = None
    """verdict for the user's GPU count: 'yes', 'borderline' (tight or only with offload / 8-bit optimizer /
    the range's upper end) or 'no'; None without a count"""
    feasible_reason: str | None = None
    """why borderline: 'tight', 'high_edge', 'tool_default_ddp', 'offload', 'sharded_4bit_base',
    'range_upper_end', 'fp8_only', 'local_4bit', 'local_4bit_excluded' (as local_4bit, 8-bit said not used),
    'full_memory', 'flash_unstated' (serving: llama.cpp or Ollama fits with flash attention, not without, and
    the user did not say; s33); why no: 'max_model_len' (serving:
    vLLM cannot hold one sequence of the stated max_model_len, though the context sized fits), 'stated_layout'
    (serving: one copy of the model on the user's TP × PP, e.g. vLLM's default TP 1, cannot hold it; the
    answer shows a layout that fits), 'engine_reserve' (serving: lmdeploy's --cache-max-entry-count leaves
    less than one prefill's activations)"""
    max_params_for_budget: float | None = None
    """largest compute-optimal N (D = 20·N) the budget or GPUs × days can train"""
    tokens_for_budget: Band | None = None
    """tokens the budget buys for the given model (low at the high price)"""
    budget_gpu_hours: Band | None = None
    """GPU-hours the budget buys (low at the high price)"""
    warnings: list[Note] = Field(default_factory=empty_list)
    rollout: Rollout | None = None
    """RL (GRPO/RLOO/PPO): the rollouts' decode part of gpu_hours"""
    batch_work: BatchWork | None = None
    """a period's tokens or a batch's time asked (estimator.batch_work, s44)"""
    # What was sized, as resolved (issue 23 item 2): nothing downstream goes back to the catalog
    gpu_spec: GpuSpec | None = None
    """the GPU as sized (estimator.resolve): a catalog card, or one derived from it (a stated memory size, a
    Mac configuration) — memory (GiB), GPUs per node, NVLink, unified-memory share, dense BF16/FP16/FP8 peaks
    (TFLOPS); None in a report not made by estimate()"""
    model_spec: ModelSpec | None = None
    """the model shape sized: the catalog entry, a config.json's architecture or the generic shape of a bare
    size (estimator.architecture); None when no model was sized"""

    @property
    def gpus_per_node(self) -> int | None:
        """GPUs in one node of the card sized (catalog ``gpus_per_node``; 8 for data-centre cards)."""
        return self.gpu_spec.gpus_per_node if self.gpu_spec is not None else None

    @property
    def headline_cost(self) -> Cost | None:
        """The cost on the count the answer shows (``days.gpus``, else ``gpus_for_deadline``): its days-table
        row's own when those GPUs pay full recomputation, else ``cost`` (:func:`estimator.shown_cost.
        shown_cost`, the one rule the budget verdict and the quote use too; review s14 MEDIUM 5, s16)."""
        return shown_cost(self)

    def cost_on(self, gpus: int | None) -> Cost | None:
        """The cost on ``gpus``: its days-table row's own (``DaysRow.cost``) when it has one, else ``cost``
        (a minimum order's 8 GPUs keep the activations the fewest recompute; estimator.shown_cost)."""
        return cost_on(self, gpus)
