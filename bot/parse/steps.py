"""Training steps ("for 1000 steps", "训练1000步", "2k iterations"): optimizer steps, each of one global
batch. A time needs the data in tokens: steps × global batch (sequences) × sequence length, so with both
stated the steps become the sample count (steps × global batch, said by the estimator's "data converted
to tokens" note); without them the number is named as not used, saying what it needs."""

from __future__ import annotations

from typing import Any

from bot.later_names import mask_per_million
from bot.parse.normalize import mask
from bot.parse.numbers import parse_chinese_numeral
from bot.parse.regex import rc

ASKS_STEPS_RE = rc(
    r"(?i)how\s+many\s+(?:\w+\s+){0,2}steps?\b|\bsteps?\s*(?:/|per|a|each)\s*(?:day|hour|h\b|天|小时)"
    r"|\bnumber\s+of\s+(?:\w+\s+)?steps\b"
    r"|(?:多少|几)\s*(?:个|次)?\s*(?:训练|优化器?)?\s*(?:步|steps?\b)"
    r"|(?<!累积)(?<!累加)(?<!累计)(?<!预热)步数\s*(?:是|有|能有|大概|大约)?\s*(?:多少|几)"
)
"""Steps asked: 'how many (optimizer) steps', 'steps per day', 'steps/day', 'number of steps';
'多少步', '几个 step', '多少个训练步', '步数是多少' (not '梯度累积步数', '预热步数')."""


def asks_steps(s0: str) -> bool:
    """Whether ``s0`` (the normalized message) asks how many optimizer steps."""
    return ASKS_STEPS_RE.search(s0) is not None  # gated at the call site: 'tep' or '步' in it (s32 fixi #1)


STEPS_RE = rc(
    r"(?<![\w.])(?P<n>\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?e\d(?!\d)|\d+)\s*(?P<k>[kK](?![a-zA-Z])|千|万)?\s*(?:个\s*)?"
    r"(?:(?:training|train|optimi[sz]er|gradient|update)\s+)?(?:steps?|iterations?|iters?)\b"
    r"|(?<![\d第])(?<!第\s)(?<!\de)(?<!\de-)(?P<zn>\d+(?:\.\d+)?e\d(?!\d)|\d+)\s*(?P<zk>千|万)?\s*步"
    r"|(?<![零〇一二两三四五六七八九十百千万第每])(?P<cn>[一二两三四五六七八九十][零一二两三四五六七八九十百千万]*)\s*"
    r"(?:个\s*)?(?:训练\s*|优化\s*)?(?:步(?!骤)|steps?\b)"
)
"""A count of steps; 'k' / 千 = ×1,000, 万 = ×10,000; in Chinese numerals, '一千步', '两万个 step' (s33 #2;
not '第一步', '每一步', '一步到位' reads one step, as typed); in scientific notation with a one-digit
exponent ('1e4 steps', '2e3 iterations', '训练 1e4 步': s44 fixread; before, unread, or '1e4 步' read as 4
steps), never the exponent of a value below one ('1e-4 步' is no 4 steps)."""
_SCALE = {"k": 1000, "K": 1000, "千": 1000, "万": 10_000}


SWEEP_BEFORE_RE = rc(
    r"\bfrom\s+\d[\d,.]*\s*[km]?\s+(?:tokens?\s+)?to\s+\d[\d,.]*\s*[km]?"
    r"(?:\s+(?:tokens?|context|ctx|sequence|seq)(?:\s+(?:length|window|tokens?))?)?\s*,?\s+in\s+(?:steps\s+of\s+)?$"
)
"""s45 round 41 (en41-017): 'from 2048 to 65536 context in 2048 steps' — the increment of a sweep (a
benchmark's ``--step-incr 2048``), no optimizer steps; before, the message was sized as a fine-tuning
run of 2048 steps. Read on the text before a step count's match."""


PER_STEP_RE = rc(
    r"(?i)\b(?:how\s+long|time|seconds?|secs?)\s+(?:does\s+it\s+take\s+|it\s+takes\s+)?(?:per|each|a|one|every)"
    r"\s+(?:training\s+|optimi[sz]er\s+)?(?:step|iteration)\b"
    r"|\b(?:each|one|every)\s+(?:training\s+|optimi[sz]er\s+)?(?:step|iteration)\s+takes?\b"
    r"|每\s*(?:一\s*)?(?:个\s*)?(?:训练\s*)?(?:步|step|iter)\s*(?:要|需要|大概|大约|得|的)?\s*(?:多久|多长时间|几秒|耗时|时间)"
)
"""The time of one step asked: 'how long per step', 'time per iteration', 'each step takes', '每步多久',
'每个 step 耗时' (s33 #2): one step, timed as any step count ('一个 step 多久' is :data:`STEPS_RE`'s)."""


def read_steps(s: str) -> tuple[str, int | None, str | None]:
    """(``s`` with the first step count masked, the steps, the text as typed); None when none. A price's
    unit ('per million tokens', '每百万 token') is blanked here too, before numbers are read (s33 #5)."""
    if "millio" in s or "百万" in s or "1m" in s:
        s = mask_per_million(s)
    m = STEPS_RE.search(s)
    if m is None and ("tep" in s or "步" in s or "iter" in s) and (per := PER_STEP_RE.search(s)) is not None:
        return mask(s, per.start(), per.end(), " "), 1, per.group(0).strip()
    if m is None:
        return s, None, None
    if m.group("n") and "from" in s and SWEEP_BEFORE_RE.search(s, 0, m.start()):  # 'to 65536 in 2048 steps'
        return s, None, None
    if m.group("cn"):
        steps = int(parse_chinese_numeral(m.group("cn")) or 0)
        return mask(s, m.start(), m.end(), " "), steps or None, m.group(0).strip()
    digits, scale = (m.group("n"), m.group("k")) if m.group("n") else (m.group("zn"), m.group("zk"))
    steps = round(float(digits.replace(",", ""))) * _SCALE.get(scale or "", 1)  # '1e4': 10,000
    return mask(s, m.start(), m.end(), " "), steps or None, m.group(0).strip()


def apply_steps(f: dict[str, Any], steps: int | None, raw: str | None, named_unused: list) -> None:
    """Steps × global batch = samples when the global batch and the sequence length are stated and no
    data size is; else the steps are named as not used ('steps_need_batch')."""
    if not steps or not raw:
        return
    if any(f.get(k) for k in ("tokens", "num_samples")):
        named_unused.append((raw, "repeated"))
    elif f.get("global_batch") and (f.get("seq_len") or f.get("tokens_per_sample")):
        f["num_samples"] = steps * f["global_batch"]
    elif (said := per_device_steps(f, steps, raw)) is not None:
        named_unused.append((said, "steps_per_device"))
    else:
        named_unused.append((raw, "steps_need_batch"))


PER_DEVICE_TOOLS = frozenset({"TRL", "LLaMA-Factory", "Unsloth"})
"""Trainers whose micro-batch is Hugging Face ``TrainingArguments.per_device_train_batch_size`` with
``gradient_accumulation_steps`` 1 by default (transformers training_args.py): a step is micro × GPUs.
LLaMA-Factory trains through the same ``Seq2SeqTrainingArguments`` (session 19); Unsloth through TRL's
trainers patched in place (unsloth/models/rl.py ``patch_trl_rl_trainers``; s29 trial #2)."""


def unsloth_micro(f: dict[str, Any], micro: int, accum: int, dp: int, per_prompt: int) -> int:
    """Unsloth's GRPO micro-batch: a ``per_device_train_batch_size`` whose step (× accumulation × GPUs) does
    not divide by ``num_generations`` is set to ``num_generations`` (unsloth/models/rl.py, the GRPO config
    check: "We now expect `per_device_train_batch_size` to be a multiple of `num_generations`. We will
    change the batch size of … to the `num_generations` of …"; TRL itself raises instead, grpo_config.py
    ``__post_init__``: "generation_batch_size … must be divisible by num_generations"); else ``micro``."""
    if f.get("training_tool") == "Unsloth" and per_prompt > 1 and (micro * accum * dp) % per_prompt:
        return per_prompt
    return micro


_RL = frozenset({"grpo", "rloo", "ppo"})


def per_device_steps(f: dict[str, Any], steps: int, raw: str) -> str | None:
    """Steps on a Hugging Face trainer with the micro-batch and the GPUs stated (trial s18 #4: 'GRPOConfig(
    per_device_train_batch_size=4, num_generations=16 …) on 8 H100 … 1000 steps' was 'global batch is
    missing'): a step is micro × accumulation (stated, else HF's 1) × data-parallel GPUs sequences; for
    GRPO/RLOO/PPO each prompt's ``num_generations`` completions are sequences of that batch (TRL: the global
    batch must divide by num_generations), so the prompts a step are that ÷ G. Sets ``num_samples`` (the
    prompts or samples of all steps), the micro-batch run (:func:`unsloth_micro`) and the step's global
    batch of sequences (completions for RL: the plan line agrees with the time, s29 trial #1), and
    returns how, as the reply says it; None when a term is missing,
    the trainer is not one of :data:`PER_DEVICE_TOOLS`, or the batch does not divide by G."""
    micro, gpus, accum = f.get("batch_size"), f.get("gpu_count"), f.get("gradient_accumulation") or 1
    seq = f.get("seq_len") or f.get("max_completion_length")  # GRPO: prompt + completion (a config's)
    rl = str(f.get("algorithm") or "") in _RL
    # GRPO/RLOO on TRL's GRPOConfig (TRL, Unsloth): no length stated, its max_prompt_length and
    # max_completion_length defaults are assumed and said (estimator.training_setup.trl_rl_lengths; s29 #2)
    seq = seq or (rl and f.get("algorithm") != "ppo" and f.get("training_tool") in ("TRL", "Unsloth"))
    if f.get("training_tool") not in PER_DEVICE_TOOLS or not micro or not gpus or not seq:
        return None
    dp = max(1, int(gpus) // ((f.get("tp") or 1) * (f.get("pp") or 1)))
    per_prompt = int(f.get("num_generations") or 1) if rl else 1
    micro = unsloth_micro(f, int(micro), int(accum), dp, per_prompt)
    sequences = int(micro) * int(accum) * dp
    if sequences % per_prompt:
        return None
    f["num_samples"] = steps * sequences // per_prompt
    f["batch_size"], f["global_batch"] = micro, sequences  # what the trainer runs a step (s29 trial #1)
    said = f"{raw}: {steps:,} × {int(micro)} per device × {int(accum)} accumulation × {dp} GPUs"
    if per_prompt > 1:
        return f"{said} ÷ {per_prompt} completions per prompt = {f['num_samples']:,} prompts"
    return f"{said} = {f['num_samples']:,} samples"


def steps_with_config(fields: dict[str, Any], unused: list[tuple[str, str]]) -> None:
    """A step count named for want of the batch ('steps_need_batch') once a pasted config gives it (the
    message's ``fields`` with the config's over them, :func:`bot.parse.configs.merge.with_stack`): the
    count read by :func:`per_device_steps`, its item replaced, ``num_samples`` set in ``fields``."""
    item = next((u for u in unused if u[1] == "steps_need_batch"), None)
    if item is None or fields.get("num_samples") or fields.get("tokens"):
        return
    keyed = MAX_STEPS_RE.match(item[0])  # 'max_steps: 500' from the config (config_max_steps)
    _, steps, raw = (None, int(keyed[1]), item[0]) if keyed else read_steps(item[0])
    said = per_device_steps(fields, steps, raw) if steps and raw else None
    if said is not None:
        unused[unused.index(item)] = (said, "steps_per_device")


MAX_STEPS_RE = rc(r"max_steps: (\d+)$")
"""A pasted config's ``max_steps`` as the config reader names it (``TrainingArguments.max_steps``)."""


def config_max_steps(stack_unused: dict[str, str], unused: list[tuple[str, str]]) -> None:
    """A pasted config's ``max_steps`` (trial s18 #4: 'GRPOConfig(max_steps=500, per_device_train_batch_size=8
    …)' said it "does not change the GPUs, memory or time"): moved from the config's not-sized keys into
    ``unused`` as a step count ('steps_need_batch'), for :func:`steps_with_config` to read as the prompts
    trained; left alone when the message states its own steps."""
    key = next((k for k, why in stack_unused.items() if why == "not_sized" and MAX_STEPS_RE.match(k)), None)
    if key is None or any(why in ("steps_need_batch", "steps_per_device") for _, why in unused):
        return
    del stack_unused[key]
    unused.append((key, "steps_need_batch"))
