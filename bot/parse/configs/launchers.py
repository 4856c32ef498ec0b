"""Command lines → request values: launchers (torchrun, accelerate launch, deepspeed,
llamafactory-cli, tune run), Megatron-LM arguments, training-script ``--key value`` arguments (Hugging
Face / TRL / LLaMA-Factory), and serving launchers (vLLM, SGLang, lmdeploy, TGI, llama.cpp).

Flags are checked against ``bot/recipes/flags/<tool>.json`` (the tools' own parsers, pinned).
"""

from __future__ import annotations

import re
from typing import Any

from bot.parse.configs.meaning import MEANING
from bot.parse.configs.meaning import SERVING as SERVING_TOOLS
from bot.parse.configs.model import StackConfig
from bot.parse.configs.yamlish import scalar
from bot.parse.regex import LazyPattern, compile_pattern
from estimator.layer_offload import ALL_EXPERTS

SERVING = {
    "vllm": compile_pattern(r"\bvllm\s+serve\b|vllm\.entrypoints"),
    "sglang": compile_pattern(r"sglang\.launch_server|\bsglang\s+serve\b"),
    "lmdeploy": compile_pattern(r"\blmdeploy\s+serve\b"),
    "tgi": compile_pattern(r"text-generation-launcher|text-generation-inference"),
    "llama.cpp": compile_pattern(r"(?:^|[\s/])(?:llama-server|llama-cli|llama-bench|main)\s+-"),
    "trtllm": compile_pattern(r"\btrtllm-serve\b"),
    "xinference": compile_pattern(r"\bxinference\s+launch\b"),
}
"""Which serving tool a command line is (its program or module)."""
LAUNCHERS = ("torchrun", "accelerate", "deepspeed", "llamafactory-cli", "tune", "python", "python3", "trl")
COMMAND_RE = LazyPattern(
    r"(?:^|[\s/:：`，,;；(（。])(?:torchrun|accelerate\s+launch|hf\s+jobs\s+uv\s+run|uv\s+run|deepspeed|llamafactory-cli|lmf|tune\s+run|trl\s+(?:sft|dpo|grpo)|"
    r"vllm\s+serve|lmdeploy\s+serve|trtllm-serve|xinference\s+launch|text-generation-launcher|llama-server|llama-cli|main(?=\s+-m\s)|"
    r"python3?\s+(?:-m\s+)?\S*(?:pretrain_gpt|train|sglang\.launch_server|vllm\.entrypoints|finetune|sft)\S*)\b"
    r"|ghcr\.io/huggingface/text-generation-inference",
    0,
)
"""A line that starts a command this module reads, also right after a colon, a comma or a bracket
('命令：deepspeed …', 'cmd:torchrun …', '全参 SFT，deepspeed …'), a Chinese full stop
('…OOM。lmdeploy serve …', round 7) or a backtick; llama.cpp's ``main -m`` is its CLI before the 2024
rename to llama-cli (Unicode mode, flags 0, as it always was; a LazyPattern, so from the second message on
a presence gate of its program names answers "none" for most lines without a search:
bot.parse.regex.add_gates)."""

SERVE_FLAGS: dict[str, dict[str, tuple[str, str]]] = {
    tool: {flag: row for flag, row in MEANING[tool].items() if row[0] is not None} for tool in SERVING_TOOLS
}  # type: ignore[misc]
"""Serving flags → (request field, kind of value): the serving tools' rows of the meaning table
(:data:`bot.parse.configs.meaning.MEANING`, each tool's source in ``SOURCES``; llama.cpp's ``-c`` is the
context of all ``-np`` slots together: each sequence gets c / np)."""
SERVE_NO_FIELD = {
    "--max-num-batched-tokens", "--quant-policy", "--max-batch-prefill-tokens",
    "--max-batch-total-tokens", "-b", "--batch-size", "-ub",
    "--ubatch-size", "--data-parallel-size", "-dp", "--dp", "--dp-size", "--enable-prefix-caching",
    "--max-concurrent-requests", "--tensor-split", "-ts",
    *(flag for tool in SERVING_TOOLS for flag, (field, _) in MEANING[tool].items() if field is None),
}  # fmt: skip
"""Serving flags that change memory or throughput but have no request field yet. The engines' longest
allowed sequence (vLLM --max-model-len, SGLang --context-length, lmdeploy --session-len, TGI
--max-total-tokens) is ``max_model_len``: the context each sequence's KV cache is sized for unless a
shorter one is stated, and what vLLM checks one sequence of against its cache at start-up (llama.cpp's
-c and Ollama's num_ctx allocate their KV cache for the whole context: the context and the limit)."""
RUNTIMES = {
    "vllm": "vLLM",
    "sglang": "SGLang",
    "llama.cpp": "llama.cpp",
    "lmdeploy": "lmdeploy",
    "tgi": "TGI",
}
"""Serving tools the estimator models (``estimator.models.Runtime``, :mod:`estimator.runtimes`)."""
TP_DEFAULT_ONE = ("vllm", "sglang", "lmdeploy")
"""Engines that run on ONE GPU when their command sets no tensor-parallel size, however many GPUs the
machine has: vLLM ``EngineArgs.tensor_parallel_size = 1`` (vllm/engine/arg_utils.py), SGLang
``ServerArgs.tp_size = 1`` (python/sglang/srt/server_args.py), lmdeploy ``--tp`` default 1
(lmdeploy/cli/utils.py ``ArgumentHelper.tp``). TGI's ``--num-shard`` defaults to every visible GPU
(launcher/src/main.rs), so it is not here."""
QUANT = {"awq": "int4", "gptq": "int4", "awq_marlin": "int4", "gptq_marlin": "int4", "w4afp8": "int4",
         "bitsandbytes-nf4": "int4", "wint4": "int4", "wint8": "int8", "wint2": "int2", "w4a8": "int4",
         "bitsandbytes-fp4": "int4", "bitsandbytes": "int8", "eetq": "int8", "fp8": "fp8", "marlin": "int4",
         "compressed-tensors": None, "hf": "bf16", "mxfp4": "mxfp4", "modelopt_fp4": None,
         "int8dq": "int8", "int8wo": "int8", "fp8wo": "fp8", "fp8dq-per_tensor": "fp8",
         "fp8dq-per_row": "fp8", "int4wo-32": "int4", "int4wo-64": "int4", "int4wo-128": "int4",
         "int4wo-256": "int4"}  # fmt: skip
QUANT_FLAGS = ("--quantization", "-q", "--quantize", "--model-format", "--torchao-config")
"""The launchers' weight-format flags (the meaning table's ``quant`` kind): said, a ``--dtype`` is the
compute type of the quantized weights, named as not sized whichever order the two are typed in (s49
round 45: '--quantization awq --dtype float16' was sized as fp16)."""
DTYPES = {
    "bfloat16": "bf16",
    "bf16": "bf16",
    "float16": "fp16",
    "half": "fp16",
    "fp16": "fp16",
    "float32": "fp32",
}


def words(text: str) -> list[str]:
    """The words of a command: ``\\`` continuations joined, comments dropped, quotes honoured."""
    text = re.sub(r"\\\s*\n|(?<=[ \t])\\(?=[ \t])", " ", text)  # also one a chat joined onto a line
    import shlex  # here: a plain `ask` imports no shlex (~1.0M instructions, s48-startup)

    try:
        return shlex.split(text, comments=True)
    except ValueError:
        return text.split()


ARRAY_START_RE = compile_pattern(r"^\s*(?:export\s+)?([A-Za-z_]\w*)=\(\s*(.*)$")
ASSIGN_RE = compile_pattern(r"^\s*(?:export\s+)?([A-Za-z_]\w*)=([^\s(]\S*|)\s*(?:#.*)?$")
VAR_RE = compile_pattern(r"\$\{([A-Za-z_]\w*)(\[@\])?\}|\$([A-Za-z_]\w*)")


def shell_variables(text: str) -> dict[str, str]:
    """``NAME=value`` and ``NAME=( … )`` (bash arrays, one item per line, comments dropped) in a script,
    as Megatron-LM's examples/*.sh build their torchrun line."""
    out: dict[str, str] = {}
    lines = iter(text.splitlines())
    for line in lines:
        if m := ARRAY_START_RE.match(line):
            items = [m.group(2)]
            for inner in lines:
                if inner.strip().startswith(")"):
                    break
                items.append(inner)
            body = " ".join(re.sub(r"(^|\s)#.*$", "", i) for i in items)
            out[m.group(1)] = body.rstrip(") ").strip()
        elif m := ASSIGN_RE.match(line):
            out[m.group(1)] = m.group(2).strip("\"'")
    return out


def expand(command: str, variables: dict[str, str]) -> str:
    """``$NAME``, ``${NAME}`` and ``${NAME[@]}`` replaced by their values (twice: a value may use another);
    unknown variables stay as written."""
    for _ in range(2):
        command = VAR_RE.sub(lambda m: variables.get(m.group(1) or m.group(3), m.group(0)), command)
    return command


_BOOLEAN_FLAG_NAMES = (
    # vLLM: every bool field of EngineArgs is argparse.BooleanOptionalAction (vllm/engine/arg_utils.py,
    # _compute_kwargs: "if field_type is bool"); the frontend's are action="store_true"
    # (vllm/entrypoints/openai/cli_args.py)
    "trust-remote-code enforce-eager enable-prefix-caching enable-chunked-prefill disable-log-stats "
    "disable-log-requests enable-lora disable-custom-all-reduce enable-auto-tool-choice "
    "enable-expert-parallel skip-tokenizer-init disable-sliding-window "
    # SGLang: action="store_true" (python/sglang/srt/server_args.py, ServerArgs.add_cli_args)
    "disable-cuda-graph disable-radix-cache enable-torch-compile enable-dp-attention enable-mixed-chunk "
    "disable-overlap-schedule enable-metrics "
    # Hugging Face HfArgumentParser: a bool field is type=string_to_bool, nargs="?", const=True
    # (transformers/hf_argparser.py): alone it is True, its value only 'true/false/yes/no/t/f/y/n/1/0'
    "bf16 fp16 tf32 gradient-checkpointing do-train do-eval overwrite-output-dir use-peft load-in-4bit "
    "load-in-8bit packing push-to-hub"
)
BOOLEAN_FLAGS = frozenset(_BOOLEAN_FLAG_NAMES.split())
"""Boolean flags (s44 fixread, issue 24 item 3): written alone they are on, so the next word is their value
only when it is a boolean (:data:`BOOL_WORDS`): '--trust-remote-code   Can I run this?' is no value 'Can'."""
BOOL_WORDS = frozenset(("true", "false", "yes", "no", "t", "f", "y", "n", "1", "0", "on", "off"))
"""transformers' ``string_to_bool`` words (yes/true/t/y/1, no/false/f/n/0), and on/off."""
PROSE_STARTS = frozenset(
    (
        "Can",
        "Could",
        "How",
        "What",
        "Why",
        "Is",
        "Are",
        "Will",
        "Would",
        "Should",
        "Does",
        "Do",
        "I",
        "Please",
    )
)
"""A capitalized question or sentence start after a flag: prose, never the flag's value (s44 fixread)."""


def _takes(flag: str, nxt: str) -> bool:
    """Whether a flag written without '=' takes the next word ``nxt`` as its value (:data:`BOOLEAN_FLAGS`,
    :data:`PROSE_STARTS`; a word of Chinese prose starts with a Han character)."""
    if flag.lstrip("-").replace("_", "-") in BOOLEAN_FLAGS:
        return nxt.lower() in BOOL_WORDS
    return nxt not in PROSE_STARTS and not ("\u4e00" <= nxt[:1] <= "\u9fff")


def _options(argv: list[str]) -> tuple[list[tuple[str, Any]], list[str]]:
    """(flag, value) pairs (``--k v``, ``--k=v``; a flag followed by another flag is True) and
    positional words."""
    pairs: list[tuple[str, Any]] = []
    positional: list[str] = []
    i = 0
    while i < len(argv):
        word = argv[i]
        if word.startswith("-") and word != "--" and not re.fullmatch(r"-\d[\d.]*", word):  # '--': no flag
            flag, eq, value = word.partition("=")
            if not eq and flag[-1:] in "?!.,;:" and flag.rstrip("?!.,;:") != flag:  # s15: '--bf16? I only …'
                flag, value = flag.rstrip("?!.,;:"), "true"  # a flag ending a sentence takes no value
            elif not eq:
                nxt = argv[i + 1] if i + 1 < len(argv) else None
                if (
                    nxt is not None
                    and (not nxt.startswith("-") or re.fullmatch(r"-\d[\d.]*", nxt))
                    and _takes(flag, nxt)
                ):
                    value, i = nxt, i + 1
                else:
                    value = "true"
            pairs.append((flag, scalar(value.rstrip(",.;:，。；：") or value)))
        else:
            positional.append(word)
        i += 1
    return pairs, positional


GPU_LAYER_FLAGS = ("-ngl", "--n-gpu-layers", "--gpu-layers")
ALL_GPU_LAYERS = 99
"""llama.cpp ``-ngl N``: layers on the GPU (``gpu_layers``); 99 (the README's "all") or more, or -1
(llama-cpp-python's ``n_gpu_layers=-1``), puts every layer there. Fewer keeps the rest in CPU memory
(:mod:`estimator.layer_offload`)."""


CPU_MOE_FLAGS = ("--cpu-moe", "-cmoe", "--n-cpu-moe", "-ncmoe")
"""llama.cpp's ``--cpu-moe`` (every MoE expert tensor in CPU memory) and ``--n-cpu-moe N`` (those of the
first N layers; common/arg.cpp): a CPU offload of part of the weights."""


def all_layers_on_gpu(value: Any) -> bool:
    """Whether an ``-ngl`` value puts every layer on the GPU (:data:`ALL_GPU_LAYERS`, or -1)."""
    return isinstance(value, int) and not isinstance(value, bool) and (value >= ALL_GPU_LAYERS or value == -1)


def serving_tool(text: str) -> str | None:
    return next((tool for tool, pattern in SERVING.items() if pattern.search(text)), None)


def read_serving(text: str, tool: str, cfg: StackConfig) -> StackConfig:
    """One serving command line of ``tool`` → request values (stage inference)."""
    argv = words(text)
    pairs, positional = _options(argv)
    cfg.values["stage"] = "inference"
    if tool == "xinference":
        from bot.parse.configs.xinference import read_special as read_xinference

        pairs = read_xinference(pairs, cfg, argv)  # the model at its size, precision, engine and GPUs
    elif tool in RUNTIMES:
        cfg.values["runtime"] = RUNTIMES[tool]
    else:
        cfg.skip("runtime", {"trtllm": "TensorRT-LLM"}.get(tool, tool), "runtime_not_modelled")
    table = SERVE_FLAGS[tool]
    for flag, value in pairs:
        if flag == "-m" and tool != "llama.cpp" and re.match(r"(sglang|vllm)\.", str(value)):
            continue  # python -m sglang.launch_server: the interpreter's flag
        if tool == "llama.cpp" and flag in GPU_LAYER_FLAGS and isinstance(value, int) and value >= 0:
            cfg.set(flag, "gpu_layers", value)  # the rest in CPU memory: estimator.layer_offload
            cfg.values["offload"] = not all_layers_on_gpu(value)
            continue
        if tool == "llama.cpp" and flag in ("-nkvo", "--no-kv-offload"):
            cfg.set(flag, "kv_offload", False)  # every layer's KV cache in CPU memory
            continue
        if (
            tool == "llama.cpp"
            and flag in ("-ot", "--override-tensor")
            and re.search(r"exps.*=cpu", str(value), re.I)
        ):
            cfg.set(flag, "cpu_moe_layers", ALL_EXPERTS)  # '-ot ".ffn_.*_exps.=CPU"': every layer's experts
            cfg.values["offload"] = True
            continue
        if tool == "llama.cpp" and flag in CPU_MOE_FLAGS and value not in (0, False):
            cfg.set(flag, "cpu_moe_layers", value if flag in ("--n-cpu-moe", "-ncmoe") else ALL_EXPERTS)
            cfg.values["offload"] = True  # MoE experts kept in CPU memory: a partial CPU offload
            continue
        if tool in ("sglang", "vllm") and "hybrid" in flag:  # s45: how Llama 4's chunked layers keep KV
            from bot.parse.chunked_flags import COMMAND_FLAGS, command_flag

            if flag in COMMAND_FLAGS[tool]:
                command_flag(cfg, flag, value)
                continue
        from bot.parse.configs.abbrev import expand_prefix

        _serve_flag(cfg, tool, table, expand_prefix(tool, flag) or flag, value)  # argparse: a unique prefix
    if any(cfg.used.get(k) == "precision" for k in QUANT_FLAGS):
        _dtype_before_quant(cfg, table, pairs)
    from bot.parse.configs.serve_gpus import serving_gpus

    serving_gpus(tool, argv, pairs, cfg)  # --dp replicas, CUDA_VISIBLE_DEVICES before the command
    if tool == "vllm" and "CHUNKED_LOCAL" in text.upper():  # s45: the variable before the command
        from bot.parse.chunked_flags import command_env

        command_env(text, cfg)
    if cfg.model_name is None:
        from bot.parse.configs.positional import positional_model

        cfg.model_name = positional_model(tool, positional)
    tp_flags = {f for f, (field, _) in table.items() if field == "tp"}
    if tool in TP_DEFAULT_ONE and not any(flag.replace("_", "-") in tp_flags for flag, _ in pairs):
        cfg.implied["tp"] = 1  # the engine's default: one GPU per copy (a TP in the words wins)
    if tool == "vllm" and "max_model_len" not in cfg.values:
        cfg.implied["max_model_len_default"] = True  # vLLM takes the model's max_position_embeddings
    if tool == "llama.cpp":
        _llama_cpp_context(cfg)
    _name_precision(cfg)
    return cfg


def _dtype_before_quant(cfg: StackConfig, table: dict[str, tuple[str, str]], pairs: list) -> None:
    """A ``--dtype`` typed before the weight-format flag ('--dtype half --quantization awq', s50 leftovers
    #2): the quantized weights' compute type, named as not sized as it is when typed after
    (:data:`QUANT_FLAGS`); before, the format flag took the precision over and the dtype was named nowhere."""
    for flag, value in pairs:
        if (table.get(flag) or ("", ""))[1] == "dtype" and cfg.used.get(flag) == "precision":
            del cfg.used[flag]
            cfg.skip(flag, value, "not_sized")


def _name_precision(cfg: StackConfig) -> None:
    """A precision in the served model's name ('Qwen3-235B-A22B-FP8', 'Qwen3-32B-AWQ', '-GPTQ-Int4',
    '-bnb-4bit') counts as it does in prose, unless a flag (--quantization, --dtype) set one."""
    from bot.parse import precision_words as pw

    if "precision" in cfg.values or not cfg.model_name:
        return
    m = pw.PRECISION_RE.search(cfg.model_name.lower())
    if m is None:
        return
    p = m.group("p").replace(" ", "").replace("-", "")
    precision = pw.PRECISION_MAP.get(p, pw.BIT_WIDTHS.get(p))
    if precision is not None:
        cfg.values["precision"] = precision


def _draft_flag(cfg: StackConfig, flag: str, value: Any) -> bool:
    """:func:`bot.parse.draft_model.draft_flag` (imported when a speculative flag is pasted)."""
    from bot.parse.draft_model import draft_flag

    return draft_flag(cfg, flag, value)


def _serve_flag(
    cfg: StackConfig, tool: str, table: dict[str, tuple[str, str]], flag: str, value: Any
) -> None:
    spec = table.get(flag) or table.get(flag.replace("_", "-"))
    if spec is None:
        from bot.parse.configs.serve_flag_reasons import serve_flag_reason
        from bot.parse.configs.vocab import known

        reason = "no_field" if flag in SERVE_NO_FIELD else "not_sized" if known(tool, flag) else "unknown_key"
        reason = serve_flag_reason(flag) or reason if reason == "not_sized" else reason  # trial s43 #3/#4
        if reason == "speculative_not_modelled" and _draft_flag(
            cfg, flag, value
        ):  # s44: a known draft counted
            return
        reason = (
            "speculative_speed"
            if reason == "speculative_not_modelled" and "draft_model" in cfg.values
            else reason
        )
        if flag == "--quant-policy" and str(value) == "8":  # s46 trial #6: lmdeploy's int8 KV, one byte
            cfg.set(flag, "kv_precision", "int8")  # a value (bot.parse.kv_cache_types)
            return
        if flag == "--quant-policy" and str(value) == "4":  # lmdeploy's KV cache as int4: not sized
            flag, value = "kv_precision", f"int{value} (--quant-policy {value})"  # (kv_cache_types)
        cfg.skip(flag, value, reason)
        return
    field, kind = spec
    if kind == "ggml_kv":  # s19: -ctk/-ctv q8_0 sized
        from bot.parse.configs.ggml_kv import ggml_kv

        return ggml_kv(cfg, flag, value)
    if field == "model":
        cfg.model_name = str(value)
        cfg.used[flag] = "model"
        return
    if kind == "dtype" and any(cfg.used.get(k) == "precision" for k in QUANT_FLAGS):  # s49: 'awq … float16'
        return cfg.skip(flag, value, "not_sized")  # the quantized weights' compute type (QUANT_FLAGS)
    converted = _convert(kind, value)
    if converted is None:
        auto = str(value).lower() == "auto"
        cfg.skip(flag, value, "auto_value" if auto else "not_sized" if kind == "offload_gb" else "bad_value")
    else:
        cfg.set(flag, field, converted)


def _convert(kind: str, value: Any) -> Any:
    if kind in ("int", "slots_context"):
        return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None
    if kind == "float":
        ok = isinstance(value, int | float) and not isinstance(value, bool) and 0 < value <= 1
        return float(value) if ok else None
    text = str(value).lower()
    if kind == "kv":
        return "fp8" if text.startswith("fp8") else "bf16" if text in ("bfloat16", "bf16") else None
    if kind == "quant":
        return QUANT.get(text)
    if kind == "dtype":
        return DTYPES.get(text)
    if kind == "flag":  # a switch said: '--enable-dp-attention'
        return True if value is True else None
    if kind == "fa":  # llama.cpp -fa on|off|auto (common/arg.cpp; 1/0/-1: PR #15746), a bare -fa: on
        return text not in ("off", "0", "false", "disabled")
    if kind == "offload_gb":  # r35 en: '--cpu-offload-gb 0' is no offload; a size is named, not sized
        return False if value == 0 and not isinstance(value, bool) else None
    if kind == "gpu_layers":  # every layer on the GPU: nothing offloaded to the CPU
        return False if all_layers_on_gpu(value) else None
    return None


def slot_context(ctx: int, slots: int | None) -> tuple[int, int | None]:
    """llama.cpp's -c/--ctx-size (tokens) over its -np/--parallel slots → (each sequence's context in tokens,
    the engine's limit on one sequence or None): the server gives each slot ``n_ctx_slot = n_ctx /
    n_parallel`` (tools/server/server.cpp, ``SOURCES['llama.cpp']``; the meaning table's
    ``slots_context``), so the KV cache is c tokens in all; with one slot, -c is also its longest sequence."""
    if slots and slots > 1:
        return max(1, ctx // slots), None
    return ctx, ctx


def _llama_cpp_context(cfg: StackConfig) -> None:
    """llama.cpp's -c is the KV cache of all -np slots together: each sequence gets c / np."""
    ctx = cfg.values.get("seq_len")
    if ctx:
        cfg.values["seq_len"], limit = slot_context(ctx, cfg.values.get("concurrency"))
        if limit:
            cfg.values["max_model_len"] = limit
    model = cfg.model_name or ""
    m = re.search(r"(q8_0|q6_k|q5_k_m|q4_k_m|q4_0|q3_k_[lms]|q2_k)(?![a-z0-9])", model.lower())  # s47: Q6_K …
    if m:
        cfg.values["precision"] = m.group(1)


MEGATRON: dict[str, tuple[str, str]] = dict(MEANING["megatron"])  # type: ignore[arg-type]
"""Megatron-LM arguments (megatron/training/arguments.py) → request fields: the meaning table's rows;
the flags with a value test of their own (precision, recompute, distributed optimizer) are read below."""
MEGATRON_NO_FIELD = {
    "--num-layers", "--hidden-size", "--num-attention-heads", "--ffn-hidden-size", "--num-query-groups",
    "--group-query-attention", "--max-position-embeddings", "--sequence-parallel", "--context-parallel-size",
    "--expert-model-parallel-size", "--num-experts", "--moe-router-topk", "--vocab-size", "--train-samples",
}  # fmt: skip
"""Megatron-LM arguments with no request field (the shape builds the model: :mod:`.megatron_shape`)."""


def read_megatron(pairs: list[tuple[str, Any]], cfg: StackConfig) -> None:
    """Megatron-LM arguments: layout, batch, sequence, precision, recompute, distributed optimizer, and
    tokens = --train-iters × --global-batch-size × --seq-length."""
    for flag, value in pairs:
        if flag in MEGATRON:
            field, kind = MEGATRON[flag]
            n = _convert(kind, value)
            cfg.set(flag, field, n) if n is not None else cfg.skip(flag, value, "bad_value")
        elif flag == "--fp8-format":
            cfg.set(flag, "precision", "fp8")
        elif flag in ("--bf16", "--fp16"):
            cfg.values.setdefault("precision", flag[2:])
            cfg.used[flag] = "precision"
        elif flag == "--recompute-granularity" and str(value) in ("full", "selective"):
            cfg.set(flag, "recompute", str(value))
        elif flag == "--recompute-activations":
            cfg.set(flag, "recompute", "selective")
        elif flag == "--use-distributed-optimizer":
            cfg.set(flag, "zero_stage", 1)
        elif flag == "--train-iters" and isinstance(value, int):
            cfg.used[flag] = "tokens"
        elif flag in MEGATRON_NO_FIELD:
            cfg.skip(flag, value, "no_field")
        else:
            from bot.parse.configs.vocab import known

            cfg.skip(flag, value, "not_sized" if known("megatron", flag) else "unknown_key")
    iters = dict(pairs).get("--train-iters")
    gbs, seq = cfg.values.get("global_batch"), cfg.values.get("seq_len")
    if isinstance(iters, int) and gbs and seq:
        cfg.values["tokens"] = float(iters * gbs * seq)
    elif "--train-iters" in cfg.used:
        del cfg.used["--train-iters"]
        cfg.skip("--train-iters", iters, "no_field")
