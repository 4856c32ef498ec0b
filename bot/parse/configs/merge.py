"""A config read from the message, merged into the parse: the config is the user's own words, so
where the text and the config disagree the config wins and the text's value is named
(``config_differs``) — unless the text asks to change a length (:mod:`bot.parse.configs.prose_change`,
s19: then the config's is named, ``prose_changes``); every key the sizing does not use is named with its
reason."""

from __future__ import annotations

import re
from typing import Any

from pydantic import ValidationError

from bot.later_names import host_beside_command
from bot.parse import ParseResult, parse
from bot.parse.configs.model import StackConfig
from bot.parse.engine_world import engine_world
from bot.parse.normalize import normalize
from bot.parse.sample_length import SAMPLE_LENGTH
from bot.parse.stack_words import RL_TOOLS, SERVING_WORD_RE
from bot.parse.steps import config_max_steps, steps_with_config
from bot.parse.words import explicit_stage as stage_word
from estimator.architecture import size_label
from estimator.models import SizingRequest
from estimator.request import setting

MODEL_FIELDS = ("model", "params_total", "params_active", "release")
GGUF_FILE_RE = re.compile(r"\.gguf$", re.I)
"""A llama.cpp weight file: the format in its name ('…-MXFP4-00001-of-00002.gguf', '…-Q4_K_M.gguf') is the
weights' format (llama.cpp docs/gguf naming: <name>-<size>-<encoding>.gguf), the command's precision."""
GENERIC_WEIGHT_FILE_RE = re.compile(
    r"(?:^|/)(?:ggml-model|model|pytorch_model|consolidated)(?:[-_.][\w.-]*)?\.(?:gguf|bin|safetensors|pth)$",
    re.I,
)
"""A weights file named for no model (llama.cpp's converted ``ggml-model-q4_0.bin`` / ``model.gguf``, HF
``pytorch_model.bin``, Meta ``consolidated.00.pth``): a path ending so names none, the text's model is the
one sized."""


def _model_values(name: str) -> tuple[dict[str, Any], ParseResult]:
    """The catalog model a config's model name means (read by the question parser)."""
    text = re.sub(r"\.gguf$", "", name, flags=re.I).replace("/", " ").replace("_", " ")
    found = parse(text)
    whole = found.request.model is not None  # s15: a catalog model replaces the text's whole (a dense
    values = {  # one's params_active is None, not the text's MoE model's 37B left over)
        f: getattr(found.request, f)
        for f in MODEL_FIELDS
        if getattr(found.request, f) is not None or (whole and f == "params_active")
    }
    if whole:  # the release as the name writes it, its '/' kept: 'Qwen/Qwen2.5-7B' is the base (s38)
        values["release"] = _release(name, found)
    return values, found


def _release(name: str, found: ParseResult) -> str | None:
    """The release a command's model name types ('Qwen/Qwen2.5-7B-Instruct': 'instruct'; the hub id
    'Qwen/Qwen2.5-7B': 'base'; a local folder: None), read from the name as written, its last part the
    model."""
    from bot.parse.typed_release import typed_release
    from estimator import catalog

    model = found.request.model
    bare_is_base = model is not None and catalog.model(model).base_config_window is not None
    return typed_release(name, name.rsplit("/", 1)[-1], found.model_substitution is not None, bare_is_base)


def _said_stage(stack: StackConfig, s: str) -> bool:
    """Whether the normalized text ``s`` beside the config names a stage. 'vllm' beside an RL trainer's
    command (OpenRLHF, verl: :data:`bot.parse.stack_words.RL_TOOLS`) is its rollout engine, no serving
    word, unless a serving word says so ('部署', 'serve'). Round 15 zh: 'vllm 版本 0.8.3' beside
    ``openrlhf.cli.train_ppo_ray`` made a GRPO run a serving question."""
    said = stage_word(s)
    if said != "inference" or SERVING_WORD_RE.search(s):
        return said is not None
    return (stack.tool or "").lower() not in _RL_TOOLS


_RL_TOOLS = frozenset(name.lower() for name in RL_TOOLS)


def with_stack(parsed: ParseResult, stack: StackConfig, text: str = "") -> ParseResult:
    """:func:`merged`; a config whose own shape builds the model (a Megatron-LM line's --num-layers …,
    :mod:`bot.parse.configs.megatron_shape`) sizes that model, as a config.json does: the text's model or
    size is named (``launch_line_model``: the launch line's shape, not a config.json, gives it; s37 fixd),
    not used (s37). A plain-DDP reading of the prose beside a config that shards is dropped first (s39 fixp
    #1, :func:`bot.parse.ddp_launch.beside_sharding_config`)."""
    if parsed.request.training_tool == "PyTorch DDP":  # 'torchrun …' beside a DeepSpeed JSON
        from bot.parse.ddp_launch import beside_sharding_config

        parsed = beside_sharding_config(parsed, stack)
    if stack.architecture is None:
        return merged(parsed, stack, text)
    req = parsed.request
    typed = parsed.model_typed or parsed.unknown_model or (req.params_total and size_label(req.params_total))
    cleared = parsed.model_copy(
        update={
            "request": req.model_copy(update=dict.fromkeys(MODEL_FIELDS)),
            "found": [f for f in parsed.found if f not in MODEL_FIELDS],
            "unused_numbers": [*parsed.unused_numbers, *([(typed, "launch_line_model")] if typed else [])],
            "unknown_model": None,
            "model_typed": None,
            "model_suggestions": [],
            "model_substitution": None,
        }
    )
    out = merged(cleared, stack.model_copy(update={"model_name": None}), text)
    request = out.request.model_copy(update={"architecture": stack.architecture})
    return out.model_copy(update={"request": request, "found": [*out.found, "architecture"]})


LENGTH_SET = {"max_model_len_default": None}
"""A command that sets its --max-model-len: not vLLM's own length, which the words may have read (s45)."""


def merged(parsed: ParseResult, stack: StackConfig, text: str = "") -> ParseResult:
    """``parsed`` (of ``text``, the message without the config) with the config's values over it, the
    text's disagreeing values and the config's unused keys in ``unused_numbers``. What the kind of
    config implies (a training config: fine-tuning) gives way only to a stage word in the text; an
    engine's default it implies (vLLM's TP 1 when the command sets none) to a value the text states."""
    req = parsed.request
    said_stage = _said_stage(stack, normalize(text))
    update = {
        f: v
        for f, v in stack.implied.items()
        if (not said_stage if f == "stage" else getattr(req, f, None) is None)  # a stated value wins
    }
    update.update(stack.values, **(LENGTH_SET if "max_model_len" in stack.values else {}))  # s45: its own
    from bot.parse.configs.prose_change import layout_changes

    changed = layout_changes(normalize(text), parsed.found, req, update)  # '改成 --tp 2': the text's (s26)
    if changed and req.gpu_count and (world := (req.tp or 1) * (req.pp or 1)) > req.gpu_count:
        changed.append((f"gpu_count: {req.gpu_count}", "other_setup"))  # '单卡上能跑': the run that worked
        update["gpu_count"] = world
    implied_one = _implied_one_card(req, update, text)
    if implied_one:  # '--tp 4 … 在 A100 80G 上': the world size is the count, the one card no figure said
        update["gpu_count"] = (update.get("tp") or 1) * (update.get("pp") or 1)
    elif req.gpu_count is None and "gpu_count" not in update:  # 'vllm serve … --tensor-parallel-size 4' (s23)
        merged = {
            **req.model_dump(include={"stage", "runtime", "tp", "pp", "count_asked", "concurrency_asked"}),
            **update,
        }
        update.update({"gpu_count": world} if (world := engine_world(merged, False)) else {})
    extra: dict[str, Any] = {}
    if stack.model_name and req.model and GENERIC_WEIGHT_FILE_RE.search(stack.model_name):
        stack.model_name = None  # '-m 7B/ggml-model-q4_0.bin' names no model: the text's is sized
    if stack.model_name:
        model, found = _model_values(stack.model_name)
        update.update(model)
        if found.request.precision and "precision" not in update and GGUF_FILE_RE.search(stack.model_name):
            update["precision"] = found.request.precision  # r18: '-m gpt-oss-120b-MXFP4-….gguf': its format
        if found.request.model:
            extra.update(model_typed=stack.model_name, unknown_model=None, model_suggestions=[])
            extra.update(model_substitution=found.model_substitution)  # 'Qwen2.5-VL-7B-Instruct': said (s14)
        elif found.unknown_model or not (req.model or req.params_total):
            extra.update(unknown_model=stack.model_name, model_typed=None)
            if req.model and not found.request.model:
                update["model"] = None  # the config's model (not in the catalog) is sized, not the text's
    parsed = host_beside_command(_length_per_sample(parsed, update), update, text)  # '+ 64GB DDR4' (s34 #1)
    req, unused = parsed.request, [*parsed.unused_numbers, *changed]
    unused = _host_for_offload(unused, update, req.host_memory_gib)  # s40 fixt #4: '机器内存 1T' + offload
    _load_and_cap(parsed, stack, update, unused)
    from bot.parse.configs.prose_change import prose_changes

    unused += prose_changes(normalize(text), parsed.found, req, update, stack.used)  # '改成 4096' (s19)
    for field, value in update.items():
        old = getattr(req, field, None)
        stated = field in parsed.found and (field != "stage" or said_stage)  # a guessed stage is no word
        if (
            stated
            and old is not None
            and _plain(old) != _plain(value)
            and not (
                (implied_one or ("gpu_count", "other_setup") in map(_why, changed)) and field == "gpu_count"
            )
        ):
            unused.append((f"{field}: {_plain(old)}", "config_differs"))
    _global_batch(stack, req, update, unused)
    if update.get("kl_beta") is not None and (update.get("algorithm") or req.algorithm or "sft") == "sft":
        key = next((k for k, f in stack.used.items() if f == "kl_beta"), "beta")  # SFTConfig(beta=…): none
        unused.append((f"{key}: {_plain(update.pop('kl_beta')):g}", "beta_not_sft"))  # bot.parse.hyper_names
    config_max_steps(stack.unused, unused)  # 'GRPOConfig(max_steps=500 …)': a step count (s18 fxb #4)
    if any(why == "steps_need_batch" for _, why in unused):  # 'GRPOConfig(per_device_train_batch_size=4 …)'
        fields = {**req.model_dump(mode="json"), **{k: _plain(v) for k, v in update.items()}}
        fields["gradient_accumulation"] = fields.get("gradient_accumulation") or stack.accumulation
        steps_with_config(fields, unused)  # … on 8 H100 … 1000 steps': the prompts trained (s18 #4)
        update.update({"num_samples": fields["num_samples"]} if fields.get("num_samples") else {})
    unused += sorted(
        stack.unused.items(), key=lambda kv: kv[1] != "commented_out"
    )  # what the user put aside first
    request = _validated(req, update, unused)
    found = [*parsed.found, *(f for f in update if f not in parsed.found)]
    return parsed.model_copy(
        update={"request": request, "found": found, "unused_numbers": unused, "out_of_scope": False, **extra}
    )


def _host_for_offload(
    unused: list[tuple[str, str]], update: dict[str, Any], said: float | None
) -> list[tuple[str, str]]:
    """``unused`` without the host memory the text named ('host_memory: 1 TB',
    :func:`bot.parse.prose_forms.host_memory`), set in ``update`` as ``host_memory_gib`` where the pasted
    config offloads to the CPU (DeepSpeed ``offload_optimizer``): the stated RAM is then compared with what
    the offload needs (estimator.host_ram), as it is for an offload said in words (s40 fixt #4). ``said``:
    the request's host memory already read (then nothing changes)."""
    if not update.get("offload") or said is not None:
        return unused
    host = [item for item in unused if item[0].startswith("host_memory: ")]
    if not host:
        return unused
    from bot.parse.gpu_layers import stated_host_memory

    rest = stated_host_memory(update, host)
    return [item for item in unused if item not in host or item in rest]


def _why(item: tuple[str, str]) -> tuple[str, str]:
    """(field, reason) of a named item ('gpu_count: 1', 'other_setup')."""
    return item[0].split(":", 1)[0], item[1]


def _length_per_sample(parsed: ParseResult, update: dict[str, Any]) -> ParseResult:
    """``parsed`` with the text's length beside its sample count read as tokens per sample when the config
    trains and sets its own sequence length (s26 trial 2 #4: an axolotl paste's comment 'dataset 40k samples
    avg 1500 tokens', read alone as a serving context, was named as a 'seq_len: 1500' the config overrides
    and the data assumed 512 tokens a sample: 40K × 512 × 2 epochs = 41M tokens, not 40K × 1,500 × 2 =
    120M). The config's ``sequence_len`` stays the cap; the data's tokens are samples × that length.
    A length the text read as each sample's for want of a count (:data:`SAMPLE_LENGTH`) takes the config's
    count (s28 trial H1: '平均每条1200 token' beside ``cutoff_len: 8192``, ``max_samples: 200000``: 200K ×
    1,200 × 2 epochs = 480M tokens, not 200K × 8,192 × 2, and no disagreement with ``cutoff_len`` named)."""
    req = parsed.request
    training = (update.get("stage") or req.stage) not in (None, "inference")
    per = req.seq_len
    each = SAMPLE_LENGTH in parsed.notes  # '平均每条1200 token' with no count: the config's count (s28 H1)
    said = "num_samples" in parsed.found
    samples = req.num_samples if said else update.get("num_samples") if each else None
    if not (training and per and update.get("seq_len") and (samples or each)):
        return parsed
    if req.tokens_per_sample is not None or per > update["seq_len"]:
        return parsed
    fields: dict[str, Any] = {"seq_len": None, "tokens_per_sample": float(per)}
    if samples and req.tokens is None and "tokens" not in update:
        fields["tokens"] = samples * per
    found = [f for f in parsed.found if f != "seq_len"] + [
        f for f in ("tokens_per_sample", "tokens") if f in fields
    ]
    return parsed.model_copy(update={"request": req.model_copy(update=fields), "found": found})


ONE_SAID_RE = re.compile(
    r"(?<![\d.])1\s*(?:x|×|\*|张|块|台|卡|gpus?\b|cards?\b)|\b(?:one|single)\b|单卡|单张|单块|一张|一块|一卡",
    re.I,
)
"""A count of one said in words ('1 x A100', 'one A100', 'a single H100', '单卡', '一张 A100')."""


def _implied_one_card(req: SizingRequest, update: dict[str, Any], text: str) -> bool:
    """Whether the text's GPU count is the one card a named card implies ('on an A100 80G', '在 A100 80G
    上') while the config states a TP × PP above one and no count: the launcher's world size is the
    count then (issue 24, s14: 'lmdeploy serve api_server … --tp 4 … 在 A100 80G 上' was sized on 1 card
    and its '--tp 4' named as not used). A count of one the text says in words stays (and the TP above
    it is named, as before)."""
    world = (update.get("tp") or 1) * (update.get("pp") or 1)
    return req.gpu_count == 1 and world > 1 and "gpu_count" not in update and not ONE_SAID_RE.search(text)


CAP_FLAGS = ("--max-num-seqs", "--max-running-requests", "--max-batch-size")
"""Serving flags that cap the sequences run at once (vLLM ``--max-num-seqs``, SGLang
``--max-running-requests``, lmdeploy ``--max-batch-size``): a limit of the engine, not the load."""


def _load_and_cap(parsed: ParseResult, stack: StackConfig, update: dict[str, Any], unused: list) -> None:
    """A load stated in words ("40 concurrent") is the load, and the config's cap (``--max-num-seqs
    64``) is a limit: named as one (``cap_not_load``), or said to be exceeded (``load_above_cap``); a sample
    count stated in words is the data over a demo dataset's rows (:func:`_text_samples`)."""
    _text_samples(parsed, stack, update)
    load = parsed.request.concurrency
    _serving_batch(parsed, update, unused)
    flag = next((k for k, f in stack.used.items() if f == "concurrency" and k in CAP_FLAGS), None)
    if flag is None or "concurrency" not in update:
        return
    if load is None and (update.get("gpu_count") or parsed.request.gpu_count):
        # only the cap, on the user's GPUs: vLLM runs fewer at once when the KV cache holds fewer (it
        # schedules by free blocks, vllm/v1/core/sched/scheduler.py): "how many fit" is the question
        cap = update.pop("concurrency")
        update["concurrency_asked"] = True
        update["max_num_seqs"] = cap  # the most the engine runs at once: the answer stays below it
        unused.append((f"{flag}: {cap}", "cap_only"))
        return
    if load is None or "concurrency" not in parsed.found:
        return
    cap = update.pop("concurrency")
    unused.append((f"{flag}: {cap}", "load_above_cap" if load > cap else "cap_not_load"))


def _text_samples(parsed: ParseResult, stack: StackConfig, update: dict[str, Any]) -> None:
    """A sample count the message states ('数据 2 万条', '20k samples') beside a LLaMA-Factory ``dataset``
    naming only its demo files (``alpaca_zh_demo``: 1,000 rows, :mod:`bot.parse.configs.demo_datasets`) is
    the run's data: the demo name is the example config's placeholder, its rows counted only when nothing
    else says the size (s48 trialfix #2). The text's count is kept and the demo rows are named as not used
    (``demo_rows_text``) — unless a ``max_samples`` cap below it truncates the data (LLaMA-Factory
    data/loader.py: min(max_samples, len(dataset))): the config's count then wins (``config_differs``)."""
    demo = [k for k, why in stack.unused.items() if why == "demo_rows"]
    said = parsed.request.num_samples
    if not demo or said is None or "num_samples" not in update or "num_samples" not in parsed.found:
        return
    source = next((k for k, f in stack.used.items() if f == "num_samples"), None)
    caps = [k.split(":")[-1].strip() for k, why in stack.unused.items() if why == "cap_above_rows"]
    cap = int(caps[0]) if caps and caps[0].isdigit() else None
    if source != "dataset" and not (source == "max_samples" and cap is not None and said <= cap):
        return
    update.pop("num_samples")
    stack.unused.update({key: "demo_rows_text" for key in demo})


def _serving_batch(parsed: ParseResult, update: dict[str, Any], unused: list) -> None:
    """s41 (issue 24 item 4): a batch size the text states ('text-generation-benchmark --batch-size 32')
    beside a serving command with no load is the sequences served at once, as in a message with no config
    (:func:`bot.parse.load_words.engine_batch`: TGI's and lmdeploy's batch is their cap, named); before, the
    text's batch was read as a training micro-batch once the config made the job serving, and the load
    assumed (16)."""
    req = parsed.request
    stage = _plain(update.get("stage") or req.stage)
    if stage != "inference" or not req.batch_size or req.concurrency is not None or "concurrency" in update:
        return
    from bot.parse.load_words import engine_batch

    f = {"runtime": _plain(update.get("runtime") or req.runtime), "batch_size": req.batch_size}
    f["max_num_seqs"] = update.get("max_num_seqs") or req.max_num_seqs
    update["concurrency"] = engine_batch(f, None, parsed.normalized, unused)
    update.update({"max_num_seqs": f["max_num_seqs"]} if f["max_num_seqs"] else {})


def _plain(value: Any) -> Any:
    return [_plain(v) for v in value] if isinstance(value, list) else getattr(value, "value", value)


def _global_batch(stack: StackConfig, req: SizingRequest, update: dict[str, Any], unused: list) -> None:
    """global batch = micro-batch × accumulation × data-parallel size (DP = GPUs ÷ (TP × PP)), once the
    GPU count is known (from the config's launcher or the text); else the accumulation is named."""
    if not stack.accumulation or "global_batch" in update:
        return
    gpus = update.get("gpu_count") or req.gpu_count
    micro = update.get("batch_size") or req.batch_size
    model_parallel = (update.get("tp") or req.tp or 1) * (update.get("pp") or req.pp or 1)
    key = f"{stack.accumulation_key}: {stack.accumulation}"
    if gpus and micro and gpus % model_parallel == 0:
        update["global_batch"] = micro * stack.accumulation * (gpus // model_parallel)
        stack.used[stack.accumulation_key or "gradient_accumulation_steps"] = "global_batch"
    elif not gpus:  # used as stated on the layout the answer picks (s10 trial B3)
        update["gradient_accumulation"] = stack.accumulation
        stack.used[stack.accumulation_key or "gradient_accumulation_steps"] = "gradient_accumulation"
    else:
        unused.append((key, "no_field" if gpus else "needs_gpu_count"))


def _validated(req: SizingRequest, update: dict[str, Any], unused: list) -> SizingRequest:
    """The request with ``update``; a value the request cannot take, or one outside the range a user may
    state (:func:`estimator.request.bounds`, as typed questions and /settings), is named (bad_value)."""
    base = dict(req)
    for field, value in list(update.items()):
        stated = setting(field).get("stated") if field in SizingRequest.model_fields else None
        if stated and isinstance(value, int | float) and not stated[0] <= value <= stated[1]:
            unused.append((f"{field}: {_plain(value)}", "bad_value"))
            update = {k: v for k, v in update.items() if k != field}
    try:
        return SizingRequest.model_validate({**base, **update})
    except ValidationError:
        pass
    for field, value in list(update.items()):
        try:
            SizingRequest.model_validate({**base, field: value})
            base[field] = value
        except ValidationError:
            unused.append((f"{field}: {_plain(value)}", "bad_value"))
    return SizingRequest.model_validate(base)
