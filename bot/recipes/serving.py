"""Serving recipes from the answer's layout: ``vllm serve`` and SGLang for a server (the memory model
the estimate used: vLLM-style, ``gpu_memory_utilization`` of each card), llama.cpp and Ollama for a
personal machine (GGUF weights, the llama.cpp memory model).

Every number comes from ``report.inference`` (TP, PP, replicas, context, concurrency, weight and KV
formats, workspace) and the request (GPU memory utilization when the user gave one).
"""

from __future__ import annotations

import math

from bot.recipes import refs
from bot.recipes import wording as w
from bot.recipes.model import Job, Recipe
from bot.recipes.shell import Arg, command, script
from bot.render.fmt import fmt_for
from bot.render.i18n import N_, translate
from bot.render.notes import context_len
from estimator import defaults
from estimator.kv_types import one_byte_kv
from estimator.layer_offload import LayerSplit
from estimator.models import Inference
from estimator.runtimes import SGLang, runtime_named

VLLM_DTYPE = {"bf16": "bfloat16", "fp16": "float16", "fp32": "float32"}
"""vLLM/SGLang ``--dtype`` for 16/32-bit weights."""


def raised_share(job: Job) -> float | None:
    """The memory share the answer raised the user's to, the smallest that starts (the note
    ``stated_share_short``, estimator.serving_verdict.share_needed); None when not raised."""
    note = next((n for n in job.report.warnings if n.code == "stated_share_short"), None)
    needed = note.params.get("needed") if note is not None else None
    return float(needed) if isinstance(needed, int | float) else None


def utilization(job: Job) -> float:
    """The share of each card the engine may use: the one the answer raised the user's to (s33 fixe #2:
    the stated 0.5 does not start), else the user's, else what the estimate assumed (vLLM's 0.9 in
    estimator.defaults)."""
    raised = raised_share(job)
    if raised is not None:
        return raised
    given = job.request.gpu_memory_utilization
    if given:
        return float(given)  # type: ignore[arg-type]
    assumed = job.assumed("gpu_memory_utilization")
    if isinstance(assumed, int | float) and assumed < 1:
        return float(assumed)
    return defaults.GPU_MEMORY_UTILIZATION.value


def served(inf: Inference) -> int:
    """Concurrent sequences the layout holds: the load asked for, or as many as fit when fewer do
    (the sequences the estimate's speed figures refer to)."""
    fits = inf.max_concurrency if inf.max_concurrency > 0 else inf.concurrency
    return max(1, min(inf.concurrency, fits))


def per_replica(inf: Inference) -> int:
    """Concurrent sequences each copy of the model serves (the load split evenly over replicas)."""
    return max(1, math.ceil(served(inf) / max(1, inf.replicas)))


def _layout(job: Job, inf: Inference, dp_ep: bool = False) -> str:
    """'24 × A100, bf16, TP 8, 3 replicas' (the layout of the answer, in the reply's language);
    ``dp_ep``: one data-parallel engine per GPU with expert parallelism ('8 × B200, fp8, DP 8 + EP')."""
    gpu = job.gpu.family if job.gpu else "GPU"
    parts = [f"{inf.tp * inf.pp * inf.replicas} × {gpu}", inf.weight_format]
    if dp_ep:
        return fmt_for(job.lang).sep.join([*parts, f"DP {inf.tp * inf.replicas} + EP"])
    parts.append(f"TP {inf.tp}" + (f" × PP {inf.pp}" if inf.pp > 1 else ""))
    if inf.replicas > 1:
        parts.append(translate(job.lang, N_("%(n)s replicas"), n=inf.replicas))
    return fmt_for(job.lang).sep.join(parts)


def _replica_comments(job: Job, inf: Inference, one_node: bool) -> list[str]:
    if inf.replicas <= 1:
        return []
    gpus = inf.tp * inf.pp
    key = "replicas_dp" if one_node else "replicas"
    return [
        w.comment(job.lang, key, replicas=inf.replicas, gpus=gpus),
        w.comment(job.lang, "per_replica", concurrency=served(inf), per=per_replica(inf)),
    ]


def _weights(job: Job, inf: Inference, flag: str) -> tuple[str, list[Arg], list[str]]:
    """(model to load, weight flags, comments) for the weight format the estimate sized."""
    req = job.request
    repo = refs.model_path(job.spec, req.params_total, serving=True)
    fmt = inf.weight_format
    release = job.spec.release_precision if job.spec else "bf16"
    if fmt in VLLM_DTYPE:
        return repo, [("--dtype", VLLM_DTYPE[fmt])], []
    if fmt == "fp8":
        if release == "fp8":  # DeepSeek-V3/R1 ship FP8 weights: the checkpoint says so
            return repo, [], []
        return repo, [(flag, "fp8")], [w.comment(job.lang, "fp8_online")]
    if fmt == "int4":
        path = f"/models/{refs.short_name(job.spec, req.params_total, serving=True)}-AWQ"
        comments = [w.comment(job.lang, "quantized_checkpoint", format="AWQ/GPTQ int4", repo=repo)]
        return path, [(flag, "awq")], comments
    if fmt == "nvfp4":  # a TensorRT Model Optimizer checkpoint: vLLM reads modelopt_fp4 from its config
        path = f"/models/{refs.short_name(job.spec, req.params_total, serving=True)}-NVFP4"
        return path, [], []
    if fmt == "int8":
        path = f"/models/{refs.short_name(job.spec, req.params_total, serving=True)}-W8A8"
        return path, [], [w.comment(job.lang, "int8_checkpoint", repo=repo)]
    return repo, [], []


def _int8_kv(job: Job, inf: Inference) -> list[str]:
    """The comment that the int8 cache asked runs as fp8 (vLLM and SGLang have no int8 KV dtype:
    :data:`estimator.kv_types.FP8_KV_ONLY`); none for an fp8 cache."""
    return [w.comment(job.lang, "int8_kv_as_fp8")] if inf.kv_precision == "int8" else []


def vllm(job: Job, inf: Inference) -> Recipe:
    """``vllm serve`` with the layout (TP, PP, data-parallel copies on one node), context, concurrency
    per copy, memory share, weight and KV formats."""
    per_node = job.per_node
    one_node = inf.tp * inf.pp * inf.replicas <= per_node
    model, weight_args, comments = _weights(job, inf, "--quantization")
    mla = job.spec is not None and bool(job.spec.kv_lora_rank) and inf.tp > 1
    dp_attention = mla and bool(job.spec and job.spec.experts) and inf.pp == 1 and one_node
    from estimator.mla_layout import mla_tp_copies

    dp_attention = dp_attention and not mla_tp_copies(job.request, job.spec)  # the user's TP: as sized
    if dp_attention:  # as the estimate sizes it: each GPU keeps its own sequences' MLA cache
        ranks = inf.tp * inf.replicas
        args: list[Arg] = [("--data-parallel-size", ranks), ("--enable-expert-parallel", None)]
        comments.append(w.comment(job.lang, "mla_dp_ep", ranks=ranks))
        per_engine = max(1, math.ceil(served(inf) / ranks))
    else:
        args = [("--tensor-parallel-size", inf.tp)]
        if inf.pp > 1:
            args.append(("--pipeline-parallel-size", inf.pp))
        if inf.replicas > 1 and one_node:
            args.append(("--data-parallel-size", inf.replicas))
        per_engine = per_replica(inf)
    args += [
        ("--max-model-len", inf.context_tokens),
        ("--max-num-seqs", per_engine),
        ("--gpu-memory-utilization", utilization(job)),
        *weight_args,
    ]
    if one_byte_kv(inf.kv_precision):  # int8 asked: vLLM's 1-byte cache is fp8 (kv_types.FP8_KV_ONLY)
        args.append(("--kv-cache-dtype", "fp8"))
        comments += _int8_kv(job, inf)
    from estimator.mla_layout import mla_tp_copies

    if mla and not dp_attention and not mla_tp_copies(job.request, job.spec):
        comments.append(w.comment(job.lang, "mla_tp"))
    replicas = [] if dp_attention else _replica_comments(job, inf, one_node)
    comments = ["#!/usr/bin/env bash", *comments, *replicas]
    text = script(comments, *_long_len_env(job), command(["vllm", "serve", model], args))
    return Recipe(
        tool="vllm",
        title=w.title(
            job.lang,
            "vllm",
            layout=_layout(job, inf, dp_attention),
            concurrency=served(inf),
            context=context_len(inf.context_tokens),
        ),
        filename="serve_vllm.sh",
        language="bash",
        text=text,
    )


def _long_len_env(job: Job) -> list[str]:
    """``export VLLM_ALLOW_LONG_MAX_MODEL_LEN=1`` when the answer's context is past the model config's
    ``max_position_embeddings`` (the 'vllm_long_max_model_len' note, :func:`estimator.ledger.beyond_window`:
    vLLM refuses to start without it); none otherwise."""
    if any(n.code == "vllm_long_max_model_len" for n in job.report.warnings):
        return ["export VLLM_ALLOW_LONG_MAX_MODEL_LEN=1"]
    return []


def mem_fraction_static(job: Job, inf: Inference) -> float | None:
    """SGLang's ``--mem-fraction-static`` (weights + KV cache pool, as a share of the card): what the
    estimate left for them — usable memory less the activation workspace — over the card's memory,
    rounded down to a hundredth; to a thousandth when the hundredth would leave the pool less than the
    weights and one sequence at the context sized (s34: Qwen2.5-32B-AWQ at 8,192 on one RTX 4090, 0.878
    left, 0.873 needed, was written 0.87 — below the one sequence SGLang's --context-length must hold)."""
    if job.gpu is None:
        return None
    # SGLang's own fraction is of the memory free at start-up, which its usable memory is
    sglang_runtime = isinstance(runtime_named(inf.runtime), SGLang)
    raised = raised_share(job) if sglang_runtime else None
    if raised is not None:  # SGLang's own fraction, raised from the user's: the one that starts (s33 fixe #2)
        return raised
    capacity = inf.usable_bytes_per_gpu if sglang_runtime else job.gpu.memory_bytes
    static = inf.usable_bytes_per_gpu - inf.workspace_bytes_per_gpu
    if static <= 0:
        return None
    gpus = max(1, inf.tp * inf.pp)  # one copy's GPUs: each holds its share of the weights and one sequence
    one_sequence = (inf.weights_bytes + inf.kv_bytes_per_sequence) / gpus
    hundredth = math.floor(100 * static / capacity) / 100
    return hundredth if hundredth * capacity >= one_sequence else math.floor(1000 * static / capacity) / 1000


def sglang(job: Job, inf: Inference) -> Recipe:
    """``python -m sglang.launch_server`` with the same layout, context, concurrency and formats."""
    per_node = job.per_node
    one_node = inf.tp * inf.pp * inf.replicas <= per_node
    model, weight_args, comments = _weights(job, inf, "--quantization")
    args: list[Arg] = [("--model-path", model), ("--tp-size", inf.tp)]
    if inf.pp > 1:
        args.append(("--pp-size", inf.pp))
    if inf.replicas > 1 and one_node:
        args.append(("--dp-size", inf.replicas))
    mla = job.spec is not None and bool(job.spec.kv_lora_rank) and inf.tp > 1
    from estimator.mla_layout import mla_tp_copies

    if mla and not mla_tp_copies(job.request, job.spec):  # a TP stated without DP attention: as sized
        args.append(("--attn-dp-size", inf.tp))
    nodes = -(
        -inf.tp * inf.pp // max(1, per_node)
    )  # one copy over machines: '--tp 16 --nnodes 2' (s39 fixw #1)
    if nodes > 1:
        args += [
            ("--nnodes", nodes),
            ("--node-rank", "${NODE_RANK}"),
            ("--dist-init-addr", "${MASTER_ADDR}:5000"),
        ]
    args += [("--context-length", inf.context_tokens), ("--max-running-requests", per_replica(inf))]
    fraction = mem_fraction_static(job, inf)
    if fraction:
        args.append(("--mem-fraction-static", fraction))
    args += weight_args
    if one_byte_kv(inf.kv_precision):  # SGLang's 1-byte caches are fp8 only, as vLLM's
        args.append(("--kv-cache-dtype", "fp8_e4m3"))
        comments += _int8_kv(job, inf)
    comments = ["#!/usr/bin/env bash", *comments, *_replica_comments(job, inf, one_node)]
    if nodes > 1:
        comments.append(w.comment(job.lang, "every_node", nodes=nodes, last=nodes - 1))
    text = script(comments, command(["python", "-m", "sglang.launch_server"], args))
    return Recipe(
        tool="sglang",
        title=w.title(
            job.lang,
            "sglang",
            layout=_layout(job, inf),
            concurrency=served(inf),
            context=context_len(inf.context_tokens),
        ),
        filename="serve_sglang.sh",
        language="bash",
        text=text,
    )


def _gguf(job: Job, inf: Inference) -> tuple[str, str]:
    params = job.request.params_total
    return refs.gguf_file(job.spec, params, inf.weight_format), refs.GGUF_TYPES.get(
        inf.weight_format, inf.weight_format.upper()
    )


def _split_layers(inf: Inference) -> tuple[LayerSplit | None, int | None]:
    """The answer's llama.cpp split (estimator.layer_offload) and the -ngl the recipe runs: the user's when
    the GPU holds it (or when more experts on the CPU make it fit), else the largest that fits; (None,
    None) with every layer on the GPUs."""
    split = inf.layer_split
    if split is None:
        return None, None
    moe_fits = split.min_cpu_moe_layers is not None
    ngl = split.gpu_layers_stated if split.fits_gpu or moe_fits else split.max_gpu_layers
    return split, None if ngl is None or ngl >= split.layers + 1 else ngl


def _experts_on_cpu(split: LayerSplit) -> int:
    """Layers whose experts the recipe keeps on the CPU: the user's, or the fewest that fit when theirs
    do not (the answer's headline)."""
    if not split.fits_gpu and split.min_cpu_moe_layers is not None:
        return split.min_cpu_moe_layers
    return split.cpu_moe_layers


def llama_cpp(job: Job, inf: Inference) -> Recipe:
    """``llama-server``: the GGUF file, every layer on the GPU(s), one slot per concurrent sequence and
    ``-c`` = context × slots (``-c`` is the whole KV cache; each slot gets its share)."""
    file, kind = _gguf(job, inf)
    repo = refs.model_path(job.spec, job.request.params_total, serving=True)
    split, ngl = _split_layers(inf)
    gpus = job.request.gpu_count or 1 if split else inf.serving_gpus
    args: list[Arg] = [
        ("-m", file),
        ("-c", inf.context_tokens * served(inf)),
        ("-np", served(inf)),
        ("-ngl", "all" if ngl is None else ngl),
    ]
    experts = _experts_on_cpu(split) if split else 0
    if experts:
        args += [("--n-cpu-moe", experts) if experts < split.layers else ("--cpu-moe", None)]
    if gpus > 1:  # llama.cpp splits layers over the cards (it does not split tensors by default)
        args += [("-sm", "layer"), ("-ts", ",".join(["1"] * gpus))]
    args += _cache_types(inf.kv_precision)
    args += [("--host", "127.0.0.1"), ("--port", 8080)]
    lang = job.lang
    comments = [
        "#!/usr/bin/env bash",
        w.comment(lang, "gguf", file=file, kind=kind, repo=repo),
        w.comment(lang, "context_total", concurrency=served(inf), context=inf.context_tokens),
    ]
    if split is not None and ngl is not None:
        comments.append(w.comment(lang, "split_layers", ngl=ngl, slots=split.layers + 1))
    elif job.spec is not None:
        comments.append(w.comment(lang, "all_layers", layers=job.spec.layers))
    if split is not None and experts:
        comments.append(w.comment(lang, "split_experts", n=min(experts, split.layers)))
    return Recipe(
        tool="llama.cpp",
        title=w.title(
            lang,
            "llama.cpp",
            weights=f"{gpus} × {job.gpu.family if job.gpu else 'GPU'}{fmt_for(lang).sep}{kind}",
            concurrency=served(inf),
            context=context_len(inf.context_tokens),
        ),
        filename="serve_llama_cpp.sh",
        language="bash",
        text=script(comments, command(["llama-server"], args)),
    )


def ollama(job: Job, inf: Inference) -> Recipe:
    """A Modelfile over the same GGUF (``num_ctx`` = context, ``num_gpu`` = every layer + the output
    layer), the server with ``OLLAMA_NUM_PARALLEL`` = concurrency, then create and run."""
    file, kind = _gguf(job, inf)
    name = refs.ollama_name(job.spec, job.request.params_total, inf.weight_format)
    repo = refs.model_path(job.spec, job.request.params_total, serving=True)
    lang = job.lang
    modelfile = [f"FROM ./{file}", f"PARAMETER num_ctx {inf.context_tokens}"]
    ngl = _split_layers(inf)[1]  # the answer's split (llama.cpp counts the output layer, as num_gpu does)
    if job.spec is not None:
        modelfile.append(f"PARAMETER num_gpu {job.spec.layers + 1 if ngl is None else ngl}")
    env = f"OLLAMA_NUM_PARALLEL={served(inf)} OLLAMA_CONTEXT_LENGTH={inf.context_tokens}"
    if one_byte_kv(inf.kv_precision):
        env += " OLLAMA_FLASH_ATTENTION=1 OLLAMA_KV_CACHE_TYPE=q8_0"
    comments = [
        "#!/usr/bin/env bash",
        w.comment(lang, "gguf", file=file, kind=kind, repo=repo),
        w.comment(lang, "ollama_parallel"),
    ]
    if job.spec is not None and ngl is not None:
        comments.append(w.comment(lang, "split_layers", ngl=ngl, slots=job.spec.layers + 1))
    elif job.spec is not None:
        comments.append(w.comment(lang, "all_layers", layers=job.spec.layers))
    text = script(
        comments,
        f"{env} ollama serve &\nsleep 3",
        "cat > Modelfile <<'EOF'\n" + "\n".join(modelfile) + "\nEOF",
        f"ollama create {name} -f Modelfile",
        f"ollama run {name}",
    )
    return Recipe(
        tool="ollama",
        title=w.title(
            lang,
            "ollama",
            weights=kind,
            concurrency=served(inf),
            context=context_len(inf.context_tokens),
        ),
        filename="serve_ollama.sh",
        language="bash",
        text=text,
    )


def serving_recipes(job: Job) -> list[Recipe]:
    """vLLM and SGLang where the estimate modelled a server; llama.cpp and Ollama where it modelled a
    local runtime (GGUF weights, a Mac). A runtime the user named comes first."""
    inf = job.inference
    if inf is None:
        return []
    makers = {"vllm": vllm, "sglang": sglang, "llama.cpp": llama_cpp, "ollama": ollama}
    out = [makers[tool](job, inf) for tool in runtime_named(inf.runtime).recipes]
    named = str(getattr(job.request.runtime, "value", job.request.runtime) or "").lower()
    out.sort(key=lambda r: 0 if named and named.startswith(r.tool.split(".")[0]) else 1)
    return out


_GGML = {"fp8": "q8_0", "int8": "q8_0", "q8_0": "q8_0", "q4_0": "q4_0", "fp16": "f16", "bf16": "bf16"}
"""The report's KV type → llama.cpp's ``--cache-type-k/-v`` spelling (fp8, int8: its nearest, q8_0)."""


def _cache_types(kv: str) -> list[tuple[str, object]]:
    """llama.cpp's ``-ctk``/``-ctv`` for the answer's KV cache: both for a quantized one ('q8_0', and fp8
    as q8_0), each side for K and V of their own types ('K q8_0, V fp16': s20 #2, as the user ran them);
    none for a 16-bit cache (llama.cpp's default f16)."""
    if kv.startswith("K "):
        k, v = (part.split()[-1] for part in kv.split(","))
        return [("-ctk", _GGML.get(k, k)), ("-ctv", _GGML.get(v, v))]
    typed = _GGML.get(kv)
    return [] if typed in (None, "f16", "bf16") else [("-ctk", typed), ("-ctv", typed)]
