"""Typed template contexts: what each template (and each section of ``reply.j2``) reads, by name.

Plain dicts at run time (no cost per message); the types name every key a template may use, so a
renamed or forgotten key is a type error rather than a silently empty line (Jinja renders an unknown
name as ""). ``tests/test_contexts.py`` checks the built contexts against these declarations over
real answers. Values are preformatted strings in the reply's locale unless the type says otherwise.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict


class SplitContext(TypedDict):
    """``inf.split``: the headline's setting and verdict, and the lines under it (``_inference.j2``;
    :mod:`bot.render.split_text`)."""

    gpus: str
    setting: str
    verdict: str
    lines: list[str]


class Row(TypedDict):
    """One labelled line (a layout, a GPUs ↔ days row)."""

    label: str
    layout: str | None


class TrainingContext(TypedDict, total=False):
    """``t``: compute, GPU-hours, deadline, the user's count, cost (``templates/_training.j2``)."""

    flops: str
    formula: str
    pf_days: str | None
    tokens: str | None
    attention: dict[str, Any]
    gh: str
    gh_compact: str
    gpu_days: str | None  # 'How many H200 GPU-days': the GPU-hours ÷ 24, compact (s23)
    gh_low: str
    gh_high: str
    eager: dict[str, Any]  # an MoE's eager experts: {factor, total, stated, impl} (s41 fixtrain #5)
    min_days: str | None  # 'how long?' on too few GPUs: the time on the fewest that fit (s42, unfit_time)
    min_hours: str | None
    min_gh: str
    min_recompute: bool
    mfu: str
    band: bool
    mfu_high: str
    mfu_low: str
    fp8: bool
    interval: dict[str, Any]
    calibrated: dict[str, str]
    rollout: dict[str, str]
    need: str
    nodes: str | None
    per_node: int
    deadline: str
    within: str
    hours: str | None
    time: str | None
    one: bool
    user_gpus: str
    user_days: str
    unfit_min: str | None
    unfit_any: bool
    user_hours: str | None
    user_time: str | None  # under an hour on the user's count: "under 5 minutes" (s25)
    tight: str
    rows: list[dict[str, Any]]
    cost: dict[str, Any]
    chinchilla: dict[str, Any]  # tokens, ratio (str); over (bool): over-trained on purpose (s29 #9)
    nowhere: dict[str, Any]  # no count of the card holds the job as set, none stated (s39 fixv #1)
    years: str  # the user's count takes over a year: ' — not practical …' (s39 fixv #5)
    verdict: str  # a yes/no fit question on the user's count: 'yes, it fits' (s39 fixv #6)
    min_margin: str | None  # the minimum with no margin, for the memory line (s39 fixv #3)


class MemoryContext(TypedDict):
    """``m``: memory per GPU, the layouts, why, the alternatives, checkpoints (``_memory.j2``)."""

    per_gpu: str
    usable: str
    capacity: str
    usable_differs: bool
    ddp_unfit: dict[str, Any] | None  # the user's tool's plain DDP does not fit (s21 fixa item 2)
    share: str
    min_gpus: str | None
    cheaper_fix: str | None
    min_sane: bool  # the fewest GPUs for the user's settings is a count worth naming (fit_sanity)
    fix_fits: bool  # the change the headline names fits on the user's GPUs (fit_change_text.headline_fix)
    own_fix: str | None  # that change as the settings on the user's own GPUs (fit_change_text.own_fix_text)
    min_text: str | None
    one_gpu: bool
    rollout_server: bool
    min_layout: str
    rec_memory: str  # the recommended layout's memory when the chart is for fewer GPUs (s45 fixread #4)
    rec_gpus: str | None
    rec_text: str | None
    rec_nodes: str
    machines: str  # the machines asked ('几台8卡机器'): the nodes the GPUs fill, the headline's lead (s51)
    rec_why: str
    rec_high: str  # the recommended count's band's high end is above the card (estimator.rec_high)
    at: str | None
    at_layout: str | None
    requested: str | None
    requested_layout: str
    total: str
    show_total: bool
    chart: str
    fits_requested: bool | None
    borderline: str | None
    rows: list[dict[str, str | None]]
    reason: str | None
    host_ram: str | None  # the host RAM of the user's offloading layout that does not fit (s26 trial #5)
    batch: dict[str, str] | None
    stated_batch: str | None
    main_label: str | None
    reason_key: str | None
    least: str | None
    alternatives: list[str]
    checkpoint: dict[str, Any] | None
    headroom: str
    rec_rule: bool
    rec_tool_default: str | None  # the tool whose own gradient checkpointing the recommended count keeps
    rec_full: bool  # the recommended layout recomputes in full on NVLink cards (s37-left)
    mem_first: dict[str, str] | None  # a training memory question with no count leads with the memory (s35)
    mem_lead: bool  # each GPU's memory asked on the user's count: a timed answer leads with it (s37 fixc #4)


class InferenceContext(TypedDict):
    """``inf``: weights, KV cache, concurrency, speed, cost, the layout (``_inference.j2``)."""

    precision: str
    format: str
    kv_precision: str
    weights: str
    bytes_per_param: str
    kv_per_token: str
    kv_total: str
    total: str
    total_gpus: str | None  # the serving GPUs `total` is held on (s46)
    total_copies: str | None  # copies of the weights, None for one
    total_extra: str | None  # the weights each GPU keeps whole under DP attention, above 1/TP
    kv_per_seq: str
    usable: str
    runtime: str
    kv_capacity: str | None
    kv_chunked: bool
    kv_windowed: bool  # sliding-window layers keep their window: kv_capacity counts full-attention tokens
    kv_engines: str | None  # vLLM's data-parallel engines, each logging its own pool (s46)
    kv_per_engine: str | None  # the tokens each engine's start-up log shows
    context: str
    concurrency: str
    min_gpus: str
    min_held: str | None  # the sequences at the context the fewest GPUs hold
    rec_gpus: str
    serving_gpus: str
    serving_one: bool
    unified: bool
    mac: bool  # unified memory on Apple silicon (MLX, Metal); a DGX Spark is unified, not a Mac
    one_mac_unfit: bool
    mac_total: str
    mac_lighter: str | None
    mac_far: bool
    mac_wired: dict[str, str] | None
    slots: dict[str, Any] | None  # llama.cpp's stated slots (s39 fixm #3)
    per_gpu: str | None  # each GPU's need in GiB when asked (trial s25 #2)
    per_gpu_share: str  # per_gpu less the CUDA context: what the usable share holds (s34 fixa)
    cuda_context: str  # the CUDA context per GPU, outside the usable share
    context_assumed: bool  # no context stated: a verdict resting on it says so
    local: bool
    same: bool
    layout: str
    copies_why: str | None  # TP × copies on the user's count: why not one copy over all (s31 left #5)
    max_concurrency: str
    fp8_swap: dict[str, str] | None
    short_of_load: bool
    load_cost: dict[str, str] | None
    mem_first: dict[str, str] | None  # a memory question with no count leads with the memory (s35)
    table: list[dict[str, Any]]
    decode_seq: str | None  # with its band, "42 (30–58)" (serving_speed.DECODE_SPREAD; s36 fixg)
    decode_floor: dict[str, str] | None  # the step's fixed time when it set the speed (s36 fixg)
    decode_all: str | None
    decode_batch: str | None
    decode_one: bool
    decode_ms: int | None  # the time per output token at the load that runs (s31 fixa #2)
    decode_wait: int  # the sequences queued past the most the GPUs hold
    ttft: str | None
    ttft_prompt: str  # the prompt tokens the prefill figure is for (s38 fixs #3)
    ttft_target: str | None  # a first-token target, met or missed and what meets it (s37 fixb #1)
    per_money: str | None  # output tokens per $1 / ¥1 where asked (bot.render.per_money, s46 trial #11)
    cpm: str | None
    priced_batch: str | None
    priced_full: bool
    priced_tps: str | None
    per_month: str | None
    user_gpus: str | None
    load_given: bool
    beyond_machine: bool  # consumer cards past one machine: no such count in the headline (s26 #7)
    advice: str  # the advice's variant: 'paged' and/or '8bit' (serving_text._advice, trial s26 #20)
    short_both: bool
    no_start: bool  # vLLM refuses to start on the stated cards and no load was said (s15 trial #3)
    start_only: bool  # 'will it start?', no load: the body sizes one sequence on the stated cards
    long_window: str | None  # vLLM's max_position_embeddings the typed max_model_len passes (s29 #1)
    long_window_rope: bool  # that length is within the card's YaRN scaling: turning it on is the fix (s38)
    offload_unfit: bool
    split: SplitContext | None
    rec_nodes: str
    count_ok: bool
    verdict: str | None
    verdict_text: str
    alternatives: str
    refuses_limit: bool
    limit_kv: str | None  # one sequence's KV at the max_model_len vLLM refuses (s46)
    stated_layout: bool
    engine_reserve: dict[str, str] | None  # lmdeploy's share too high, the lowered one sized (s34 fixa)
    stated_share: dict[str, str] | None  # the share too small, the one that holds it (s32 #1)
    kv_room: str  # the KV cache's room per GPU (s32 #2)
    total_share: str | bool | None  # lmdeploy's release whose KV share is of the total memory (s42)
    never_fits: bool
    stated_tp: str
    stated_pp: str
    limit: str


class BudgetContext(TypedDict):
    """``budget``: what a budget buys (``_budget.j2``)."""

    what: str
    gh: str
    gh_compact: str
    gh_low: str
    gh_high: str
    band: bool
    params: str | None
    chinchilla: str | None
    tokens: str | None
    tokens_low: str | None
    tokens_high: str | None
    rows: list[dict[str, Any]]
    deadline_gpus: dict[str, str] | None
    budget_unused: str | None
    gpus_unused: dict[str, str] | None  # the GPUs × days use more than the budget buys (s42)
    steps: dict[str, str | bool] | None  # optimizer steps, when asked (s32 fixi #1)


class RentalContext(TypedDict):
    """``r``: a known duration on known GPUs (``_rental.j2``)."""

    gpus: str
    hours: str
    gh: str
    cost: str | None
    price: str | None
    source: str | None
    daily: str | None  # a serving schedule's hours a day ('8'), when the hours are its days (s18)


class LargestContext(TypedDict):
    """``largest``: the largest model named GPUs serve, per weight format, or fine-tune, per method
    (``_largest.j2``)."""

    trained: bool
    gpus: str
    context: str
    concurrency: str
    rows: list[dict[str, str | None]]
    best: dict[str, str | None] | None


class ParseExtras(TypedDict):
    """What the message itself says, echoed (``_extras.j2``): unknown names, ignored numbers, cues."""

    unknown_gpu: str | None
    gpu_suggestions: str
    unknown_model: str | None
    model_suggestions: str
    model_family_only: bool
    family_sizes: tuple[str, str] | None  # a release's sizes, an example of them (s30 #3)
    truncated: bool
    max_chars: str | int
    ignored_numbers: str
    asks_cost: bool
    asks_concurrency: bool
    asks_largest: bool
    asks_ttft: bool
    asks_speed: bool | str  # "throughput": the total tokens/s leads (s35 fix c #4)
    asks_usable: bool
    asks_steps: bool
    asks_gpu_days: bool
    engine_not_modelled: bool  # an engine named but not modelled (MindIE): s25 trial #14
    nonpositive_numbers: str
    unusable_numbers: str


class UnderstoodExtras(TypedDict):
    """The interpretation in words (:mod:`bot.render.understood`, docs/design.md §8)."""

    not_used: str
    substitutions: list[str]
    unknown_gpu_line: str
    beyond: NotRequired[str]  # a size beyond any real job, on the headline's line (reply.j2 only; s36 fixe)


class HelpContext(ParseExtras, UnderstoodExtras):
    """``help.j2``: the help, after a scope line, a failure or a lost follow-up."""

    out_of_scope: bool
    failed: bool
    unread: str
    not_used_help: str  # the 'not used' line, after what the help asks for (s42)
    lost_followup: bool
    no_history: bool
    api_no_history: bool
    absurd_model: bool
    non_llm: str  # 'tts', 'asr', 'ocr': a speech or OCR model named (bot.parse.non_llm, s32 fixc #1)
    switched: str
    needs_model: bool
    needs_model_card: bool  # a card asked about with no model: the model asked for (s37-left)
    read_config: dict[str, str] | None
    active_in_name: str | None  # 'Foo-A13B' unknown: its active count, the total asked for (s30 fixe)


class ReplyContext(ParseExtras, UnderstoodExtras, total=False):
    """``reply.j2``: one answer. The renderer adds the comparison, the offer and a stage switch
    (``comparisons``, ``cheapest``, ``offer``, ``switched``) after
    :func:`bot.render.context.build_context`."""

    kind: str
    sentence_gap: str
    offer: Any
    calendar: str
    model: str
    stage: str
    no_reference: dict | None  # RL with no reference model: the tool's KL keys (setting, switch; s27 fix3 #1)
    reference_copy: bool  # the reference whole, 16-bit beside LoRA adapters (DeepSpeed-Chat step 3, s48)
    stage_settings: str
    gpu: str
    gpu_family: str
    tpu: bool  # a Google TPU: chips and hosts, ICI and DCN (trial s30 #1)
    t: TrainingContext | None
    m: MemoryContext | None
    inf: InferenceContext | None
    budget: BudgetContext | None
    methods: list[str]
    r: RentalContext | None
    largest: LargestContext | None
    notes: list[str]
    budget_verdict: str
    time_needs_data: str | None
    total_verdict: str | None
    assumptions: list[dict[str, Any]]
    tools: list[str]
    show_details: bool
    qlora_assumed: bool  # QLoRA in the headline is Unsloth's default, not stated (trial s29 #2)
    comparisons: list[str]
    cheapest: str | None
    switched: str


SECTION_TYPES: dict[str, type] = {
    "t": TrainingContext,
    "m": MemoryContext,
    "inf": InferenceContext,
    "budget": BudgetContext,
    "r": RentalContext,
    "largest": LargestContext,
}
"""The reply context's section keys → their declared types (for the contexts' reflection test)."""
