"""Which stated keys an item of ``interpretation.ignored`` may name (s20, issue 24: an honest scorer).

An answer names a value as not used with an item ``{"text", "reason"}``. The text either names the field
('host_memory: 121.7 GB', 'tp: 2', '--max-num-seqs: 32', 'training_tool: XTuner') or is the value alone
('117', '192 GB', '两'), when the reason says what the value is ('cards_total': the cards' memory together,
'daily_schedule': hours a day). Before s20 a number or name anywhere in any item counted for every stated
key: en13-016's "121.7 GiB unified memory each", named as *host* memory, counted as the card's memory
understood. Now an item counts for a stated key only when its field (:func:`field_keys`) or, for a value
alone, its reason (:data:`REASON_KEYS`, or a reason about the value itself, :data:`ANY_KEY_REASONS`) names
that key's meaning.
"""

from __future__ import annotations

import re

FIELD_RE = re.compile(r"^\s*([A-Za-z_\-][\w.\-]*):\s(.*)$", re.S)
"""An item's text that names its field: 'field: value' (a config key, a flag, a contract field)."""

ANY_KEY_REASONS = frozenset(
    {
        "absurd",
        "nonpositive",
        "unusable",
        "repeated",
        "replaced_by_later_value",
        "other_setup",
        "negated",
        "config_differs",
        "prose_changes",
        "vague",
    }
)
"""Reasons about the value itself, whatever setting it is (a second value of its setting, a value of the
other setup in the message, one the message says is not wanted, one out of range): a value alone with one
of these is named as read, for the key the record states it under."""

REASON_KEYS: dict[str, frozenset[str]] = {
    "cards_total": frozenset({"total_memory_gib"}),
    "over_card": frozenset({"total_memory_gib", "gpu_memory_gib"}),
    "memory_room": frozenset({"gpu_memory_gib"}),
    "all_on_gpu": frozenset({"host_memory_gib"}),
    "fractional_count": frozenset({"gpu_count"}),
    "card_slots": frozenset({"gpu_count"}),
    "rollout_share": frozenset({"gpu_count", "rollout_gpus"}),
    "mixed_rig": frozenset({"gpu_count"}),
    "mixed_rig_largest": frozenset({"gpu_count"}),
    "mixed_rig_sum": frozenset({"gpu_count", "gpu_memory_gib"}),
    "current_load": frozenset({"concurrency", "users"}),
    "measured_load": frozenset({"concurrency"}),  # s46-workmiss: a load of a measured sweep
    "memory_target": frozenset({"gpu_memory_gib"}),  # s46-workmiss: a memory per GPU wanted ('down to 48GB')
    "users_not_load": frozenset({"concurrency", "users"}),
    "per_user_rate": frozenset({"concurrency", "qps"}),
    "qps_needs_output": frozenset({"qps"}),
    "per_user_speed": frozenset({"target_tokens_per_s"}),
    "daily_schedule": frozenset({"hours_per_day"}),
    "period_as_total": frozenset({"budget"}),
    "budget_no_cost": frozenset({"budget"}),
    "sample_range": frozenset({"tokens_per_sample", "seq_len"}),
    "output_in_context": frozenset({"max_completion_length", "max_model_len"}),
    "above_peak": frozenset({"tokens_per_second_per_gpu", "achieved_tflops_per_gpu"}),
    "measured_wins": frozenset({"mfu"}),
    "steps_need_batch": frozenset({"steps"}),
    "training_precision": frozenset({"precision"}),
    "nearest_format": frozenset({"precision"}),
    "cpu_not_gpu": frozenset({"gpu"}),  # s34 r28en: a CPU typed where the card goes ('an Ultra5'), named
    # s39 round 35 zh: cards kept for serving or evaluation beside a training rig, named as typed with their
    # count ('50 台 RTX 4090 做推理', '4 张 A100 做评测'; bot.parse.eval_cards): that count, card and memory
    "eval_cards": frozenset({"gpu_count", "gpu", "gpu_memory_gib"}),
    "eval_share": frozenset({"gpu_count"}),  # '其中2张做评测': a share of the rig's count
    # s42 round 38 zh: another card named when nothing is sized (the model's size unknown), with its memory
    # ('A100 (40 GB)'; bot.core.compare_currency.unsized_cards): that card and its memory
    "card_unsized": frozenset({"gpu", "gpu_memory_gib"}),
    "cluster_rate": frozenset({"tokens_per_second_per_gpu"}),
    "cluster_rate_used": frozenset({"tokens_per_second_per_gpu"}),
    # s49-workmiss: a serving engine's batch said beside a larger (or other) load, named under the user's own
    # key ('batch 16' beside '最大并发 64'; bot.parse.load_words.engine_batch): the engine's cap on sequences
    # run at once, which a serving label's batch_size or max_num_seqs is
    "load_above_cap": frozenset({"batch_size", "max_num_seqs"}),
    "cap_not_load": frozenset({"batch_size", "max_num_seqs"}),
}
"""A value alone with a reason that says what it is: the stated keys of that meaning."""

_WORD_KEYS: tuple[tuple[frozenset[str], frozenset[str]], ...] = (
    (frozenset({"tp", "tensor"}), frozenset({"tp", "rollout_tp"})),  # a TP size is no GPU count (review s20)
    (frozenset({"pp", "pipeline"}), frozenset({"pp"})),
    (frozenset({"seqs", "instance", "concurrency"}), frozenset({"max_num_seqs", "concurrency"})),
    (frozenset({"cuda", "gpus", "nproc", "shard"}), frozenset({"gpu_count"})),
    (
        frozenset({"len", "length", "cutoff", "ctx", "context", "session"}),
        frozenset({"seq_len", "max_model_len"}),
    ),
    (
        frozenset({"runtime", "launcher", "deepspeed", "tool", "backend", "engine"}),
        frozenset({"runtime", "training_tool"}),
    ),
    (frozenset({"batch"}), frozenset({"batch_size", "global_batch"})),
    (frozenset({"accumulation"}), frozenset({"gradient_accumulation"})),
    # s25: 'output_tokens: 512' (a reply's length, named output_in_context) is the stated output length
    (frozenset({"output"}), frozenset({"max_completion_length"})),
    # s29: 'max_input_len: 32' (ColossalAI's train_prompts.py, named no_field) is the stated prompt length
    (frozenset({"input", "prompt"}), frozenset({"max_prompt_length", "prompt_tokens"})),
)
"""Words of a field (a config key or flag, split at '_', '-', '.') and the stated keys they name."""


def field_keys(field: str) -> frozenset[str]:
    """The stated keys a field named in an item may stand for: the field itself as a contract key
    ('max_model_len'), and the keys its words name ('--tensor-parallel-size' → tp; 'launcher' → runtime or
    training_tool; 'served_model_name' → model; 'kv_precision' or '--kv-cache-dtype' → kv_precision only;
    'precision' → precision only; 'host_memory' → host_memory_gib only)."""
    name = field.lower().strip("-").replace("-", "_")
    words = set(re.split(r"[^a-z0-9]+", name))
    keys = {name, f"{name}_gib"}
    if {"kv", "cache"} & words and ({"dtype", "precision"} & words):
        return frozenset({"kv_precision"})
    if "model" in words and not {"parallel", "len", "length"} & words:
        keys.add("model")
    if words & {"rollout"} and "name" in words:
        keys.add("runtime")
    for cue, named in _WORD_KEYS:
        if cue & words:
            keys |= named
    return frozenset(keys)


CPU_NAME_RE = re.compile(
    r"(?<![a-z0-9])(?:i[3579](?:[\s\-]\d{3,5}[a-z]{0,3})?|ryzen|threadripper|xeon|epyc|kunpeng|鲲鹏"
    r"|(?:core\s+)?ultra\s?[3579])(?![a-z])",
    re.IGNORECASE,
)
"""A CPU's name (Intel Core i3–i9 / Core Ultra / Ultra5, Xeon, AMD Ryzen / Threadripper / EPYC, Kunpeng): the
only stated ``gpu`` a 'cpu_not_gpu' item may name (s34 review: a real card the answer called a CPU never
counts as understood)."""


def item_names_key(item: dict[str, object], key: str, value: object = None) -> tuple[bool, str]:
    """Whether ``item`` may name a value of the stated ``key``, and the part of its text that holds the
    value ('121.7 GB' of 'host_memory: 121.7 GB'; the whole text of a value alone). A 'cpu_not_gpu' item
    names a stated ``gpu`` only when that ``value`` is a CPU's name (:data:`CPU_NAME_RE`)."""
    text = str(item.get("text", ""))
    m = FIELD_RE.match(text)
    if m:
        return key in field_keys(m.group(1)), m.group(2)
    reason = str(item.get("reason", ""))
    if reason == "cpu_not_gpu" and key == "gpu":
        return CPU_NAME_RE.search(str(value or "")) is not None, text
    return reason in ANY_KEY_REASONS or key in REASON_KEYS.get(reason, ()), text
