"""Parameter counts from a transformer's architecture, and Llama-style shapes for bare sizes.

Pure functions, no I/O. Units: parameter counts are plain numbers of weights (not bytes).

* :func:`count_params` counts the weights of a decoder-only transformer from its config
  (``estimator.catalog.ModelSpec``): embeddings, attention (MHA / GQA / MQA / DeepSeek MLA),
  dense or mixture-of-experts MLPs, norms and q/k/v biases. It reproduces the official counts
  of every catalog model within a few tenths of a percent (tests/test_architecture.py).
* :func:`shape_for_size` returns a documented Llama-style dense shape for a bare size such as
  "13B" — grouped-query attention with 8 KV heads, the mainstream shape since 2024 — interpolated from
  the catalog's dense Llama/Qwen releases (docs/design.md §3.3).

Sources: the per-matrix shapes follow the Hugging Face ``transformers`` implementations of
Llama/Qwen2/Qwen3/Mixtral/Gemma2/DeepSeek-V2/V3 and the releases' config.json files; the
12·L·h² rule of thumb for a block is Kaplan et al. 2020 §2.1; the aspect ratio growing with
size matches Kaplan et al. 2020 Fig. 5 (loss is flat for d_model/n_layer ≈ 20-200).
"""

from __future__ import annotations

import math
from functools import lru_cache

from estimator.built import _made
from estimator.catalog import ModelSpec

# --------------------------------------------------------------------------- counting


def _mlp_params(hidden: int, ffn: int, ffn_type: str) -> float:
    """Weights of one MLP block.

    Gated MLPs (SwiGLU, GeGLU: gate, up and down projections) have 3·h·ffn weights; a plain
    MLP (GELU, ReLU, squared ReLU — GPT-2/3, OPT, Nemotron-4: up and down) has 2·h·ffn. Biases are
    ignored (< 0.01 %). Source: Shazeer 2020 (GLU variants); Brown et al. 2020 (GPT-3, ffn = 4·h).
    """
    matrices = 3 if ffn_type in ("swiglu", "geglu") else 2
    return float(matrices * hidden * ffn)


def attention_params(spec: ModelSpec) -> float:
    """Weights of one attention block (projections, biases, MLA's internal norms).

    Standard attention (MHA/GQA/MQA), with d = head_dim:
    q and o: h·heads·d each; k and v: h·kv_heads·d each (GQA shrinks k/v; Ainslie et al. 2023).
    Optional q/k/v biases: (heads + 2·kv_heads)·d (Qwen2/2.5, ChatGLM3, GLM-4).

    Multi-head latent attention (DeepSeek-V2 §2.1, DeepSeek-V3; HF ``DeepseekV3Attention``):
    q: h·q_lora + q_lora·heads·(d_nope + d_rope) with a low-rank query (else h·heads·(d_nope + d_rope)),
    kv_a: h·(kv_lora + d_rope), kv_b: kv_lora·heads·(d_nope + d_v), o: heads·d_v·h,
    plus the RMSNorm weights of the two latents (q_lora + kv_lora).
    """
    h = spec.hidden
    d = spec.head_dim_effective
    if spec.kv_lora_rank:
        rope = spec.qk_rope_head_dim or 0
        nope = spec.qk_nope_head_dim or d
        v_dim = spec.v_head_dim or d
        q_head = nope + rope
        if spec.q_lora_rank:
            q = h * spec.q_lora_rank + spec.q_lora_rank * spec.heads * q_head + spec.q_lora_rank
        else:
            q = h * spec.heads * q_head
        kv = (
            h * (spec.kv_lora_rank + rope)
            + spec.kv_lora_rank
            + spec.kv_lora_rank * spec.heads * (nope + v_dim)
        )
        o = spec.heads * v_dim * h
        return float(q + kv + o)
    q_and_o = 2 * h * spec.heads * d
    k_and_v = 2 * h * spec.kv_heads * d
    bias = (spec.heads + 2 * spec.kv_heads) * d if spec.attention_bias else 0
    return float(q_and_o + k_and_v + bias)


def embedding_params(spec: ModelSpec) -> float:
    """Token embedding (vocab·h) plus the output head (another vocab·h unless tied)."""
    per_matrix = spec.vocab * spec.hidden
    return float(per_matrix if spec.tied_embeddings else 2 * per_matrix)


def count_params(spec: ModelSpec) -> tuple[float, float]:
    """(total, active) parameters computed from the architecture.

    total = embeddings (+ a learned position table) + L·(attention + 2 norms) + MLPs + final norm,
    where the MLPs are dense (``ffn_hidden``) on every layer of a dense model, and on a MoE model
    dense on the first ``dense_layers`` layers (and, with ``moe_layer_step`` k, on all but every k-th
    of the rest) and MoE on the others: experts·MLP(moe_ffn_hidden) + shared_experts·MLP(shared size)
    + router (h·experts).
    active (per token) = the same with only ``experts_top_k`` routed experts (+ shared experts and
    router) per MoE layer; for a dense model active = total.

    Not counted (each < 0.02 % of the models in the catalog): MLP/output biases, LayerNorm biases,
    q/k-norm weights (Qwen3), Gemma 2's extra post-norms, attention sinks (gpt-oss), a shared
    expert's gate (Qwen MoE), DeepSeek-V3's multi-token-prediction module (reported separately).

    Norms: RMSNorm/LayerNorm weights, h per norm, 2 per layer + 1 final. A vision-language release adds
    its vision tower's count (:class:`estimator.catalog.VisionTower`) to both; a hybrid model's
    ``state_layers`` count ``state_layer_params`` in place of attention (MiniMax-M1's lightning layers).
    Units: number of parameters.
    """
    h = spec.hidden
    layers = spec.layers
    embeddings = embedding_params(spec) + h * (spec.learned_position_embeddings or 0)
    per_layer_common = attention_params(spec) + 2 * h
    extra = float(h)  # the final norm, a hybrid's state-layer correction, a VL tower
    if spec.state_layers:  # linear-attention / Mamba layers: their own mixer in place of attention
        extra += spec.state_layers * ((spec.state_layer_params or 0) - attention_params(spec))

    if spec.vision is not None:  # a VL release: its vision encoder and projector (config-computed count)
        extra += spec.vision.params
    if not spec.is_moe:
        dense_mlp = _mlp_params(h, spec.ffn_hidden, spec.ffn_type)
        total = embeddings + layers * (per_layer_common + dense_mlp) + extra
        return total, total

    experts = spec.experts or 0
    top_k = spec.experts_top_k or experts
    shared = spec.shared_experts or 0
    moe_layers = spec.moe_layers
    expert = _mlp_params(h, spec.expert_ffn_hidden, spec.ffn_type)
    shared_mlp = _mlp_params(h, spec.shared_ffn_hidden, spec.ffn_type)
    router = float(h * experts)
    dense_mlp = _mlp_params(h, spec.ffn_hidden, spec.ffn_type)

    common = embeddings + layers * per_layer_common + spec.dense_mlp_layers * dense_mlp + extra
    common += moe_layers * (shared * shared_mlp + router)
    total = common + moe_layers * experts * expert
    active = common + moe_layers * top_k * expert
    return total, active


def routed_expert_params(spec: ModelSpec) -> float:
    """Weights of the routed experts over all MoE layers (0 for a dense model): the part a release in a
    per-expert format quantizes (gpt-oss: MXFP4 on the experts only; model card §2, Table 1:
    114.71B of 116.83B for gpt-oss-120b)."""
    if not spec.is_moe:
        return 0.0
    expert = _mlp_params(spec.hidden, spec.expert_ffn_hidden, spec.ffn_type)
    return spec.moe_layers * (spec.experts or 0) * expert


def published_active_params(spec: ModelSpec) -> float:
    """Active parameters counted as the vendor counts them (:attr:`ModelSpec.params_active_excludes`):
    :func:`count_params`'s active count less the token embedding ('input_embedding': vocab·h) or less
    the token embedding and the output head ('embeddings': :func:`embedding_params`).

    Sources for the conventions, from the published figures themselves: gpt-oss model card
    (arXiv 2508.10925) Table 1 lists 'Embedding + Unembedding' apart and its active counts (5.13B /
    3.61B) equal experts + attention + unembedding; DeepSeek-V2 paper (2.4B activated for V2-Lite =
    2.451B without the 102,400 × 2,048 table); GLM-4.5 card (32B / 12B active = 32.08B / 12.18B without
    both 151,552 × h matrices).
    """
    _, active = count_params(spec)
    if spec.params_active_excludes == "input_embedding":
        return active - spec.vocab * spec.hidden
    if spec.params_active_excludes == "embeddings":
        return active - embedding_params(spec)
    return active


# --------------------------------------------------------------------------- shapes for bare sizes

#: Dense Llama/Qwen releases in the catalog the shape fit uses: (catalog id, params_total, layers, hidden).
#: tests/test_architecture.py checks these rows against estimator/data/models/.
SHAPE_ANCHORS: tuple[tuple[str, float, int, int], ...] = (
    ("Qwen2.5-0.5B", 0.49e9, 24, 896),
    ("Llama-3.2-1B", 1.24e9, 16, 2048),
    ("Qwen2.5-1.5B", 1.54e9, 28, 1536),
    ("Llama-3.2-3B", 3.21e9, 28, 3072),
    ("Llama-2-7B", 6.74e9, 32, 4096),
    ("Qwen2.5-7B", 7.61e9, 28, 3584),
    ("Llama-3-8B", 8.03e9, 32, 4096),
    ("Qwen3-8B", 8.2e9, 36, 4096),
    ("Llama-2-13B", 13.0e9, 40, 5120),
    ("Qwen2.5-14B", 14.7e9, 48, 5120),
    ("Qwen2.5-32B", 32.5e9, 64, 5120),
    ("Qwen3-32B", 32.8e9, 64, 5120),
    ("Llama-2-70B", 69.0e9, 80, 8192),
    ("Llama-3-70B", 70.6e9, 80, 8192),
    ("Qwen2.5-72B", 72.7e9, 80, 8192),
    ("Llama-3.1-405B", 405.9e9, 126, 16384),
)

#: The shape uses grouped-query attention with 8 KV heads at every size, as every major open release
#: since 2024 (Llama 3/3.1/3.2 1B-405B, Mistral 7B/Nemo/Small, Qwen2.5-32B/72B, Yi-1.5-34B, Gemma 2 9B,
#: InternLM2.5 — catalog entries). Older releases used multi-head attention (Llama 2 7B/13B, Qwen1.5,
#: Baichuan 2, Yi-6B, ChatGLM-6B): their KV cache is heads/8 times larger (the reply says so). A shape
#: whose heads 8 does not divide (below ~0.3B) keeps all its heads as KV heads.
GQA_KV_HEADS = 8
#: Widths round to the nearest multiple of 8 heads from this size, up below it (see ``_heads_for``).
WIDE_FROM_PARAMS = 30e9
#: Llama / Llama 2 SentencePiece vocabulary (Touvron et al. 2023); shrunk for tiny models, below.
SHAPE_VOCAB = 32000
#: Embeddings of a tiny shape are capped at this share of the parameters (GPT-2 small: 31 %).
MAX_EMBEDDING_SHARE = 0.4
#: Target SwiGLU width / hidden used to choose the layer count: the GQA releases' 3.5·h (Llama 3 8B
#: 14336/4096, Llama 2/3 70B 28672/8192, Mistral 7B 14336/4096).
FFN_RATIO_GQA = 3.5


def _least_squares(xs: list[float], ys: list[float]) -> tuple[float, float]:
    n = len(xs)
    mx = sum(xs) / n
    my = sum(ys) / n
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)
    return my - slope * mx, slope


#: log(hidden) = a + b·log(N), least squares over SHAPE_ANCHORS (b ≈ 0.39: width grows a little
#: faster than N^(1/3), so the aspect ratio hidden/layers rises with size as in the catalog).
HIDDEN_FIT: tuple[float, float] = _least_squares(
    [math.log(a[1]) for a in SHAPE_ANCHORS], [math.log(a[3]) for a in SHAPE_ANCHORS]
)


def size_label(params: float) -> str:
    """Short size label: 7e9 → '7B', 1.75e11 → '175B', 1e12 → '1T', 1.5e8 → '150M'."""
    scales = ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K"))
    for i, (scale, suffix) in enumerate(scales):
        if params >= scale:
            value = params / scale
            text = f"{value:.3g}" if value < 1000 else f"{value:.0f}"
            return f"{text}{suffix}"
        if (
            i + 1 < len(scales)
            and params >= scales[i + 1][0]
            and float(f"{params / scales[i + 1][0]:.3g}") >= 1000
        ):
            return f"1{suffix}"  # 999.96M rounds to 1B, not "1e+03M"
    return f"{params:.3g}"


_ANCHOR_NAMES = ", ".join(a[0] for a in SHAPE_ANCHORS)
"""The anchors' names as :func:`_dense_spec`'s source names them (joined once)."""


_DENSE_GIVEN = (
    "id", "name", "family", "params_total", "layers", "hidden", "heads", "kv_heads", "head_dim", "ffn_hidden",
    "ffn_type", "vocab", "tied_embeddings", "source", "notes",
)  # fmt: skip
"""The :class:`ModelSpec` fields :func:`_dense_spec` gives (its fields set)."""
_DENSE_DEFAULTS = {
    name: None if field.default_factory else field.default for name, field in ModelSpec.model_fields.items()
}
"""Every :class:`ModelSpec` field in declared order with its default (None, False, a Literal's str; the
aliases' factory list is made per spec): what validation fills in for the fields not given."""


def _dense_spec(
    params: float, layers: int, hidden: int, heads: int, kv_heads: int, head_dim: int, ffn: int, vocab: int
) -> ModelSpec:
    """The bare size's :class:`ModelSpec`: made as validation makes it (:func:`estimator.built.exactly`:
    every field in order, the defaults, these fields set) when each number has the exact type its field
    keeps and is above 0, else validated (issue 23 item 7: a validated ModelSpec is ~68k instructions)."""
    label = size_label(params)
    anchors = _ANCHOR_NAMES
    given = dict(
        id=f"dense-{label}",
        name=f"Dense {label} (Llama-style shape, interpolated)",
        family="Llama",
        params_total=params,
        layers=layers,
        hidden=hidden,
        heads=heads,
        kv_heads=kv_heads,
        head_dim=head_dim if head_dim * heads != hidden else None,
        ffn_hidden=ffn,
        ffn_type="swiglu",
        vocab=vocab,
        tied_embeddings=False,
        source=(
            "interpolated, not a published model: hidden size from a log-log least-squares fit over "
            f"the catalog's dense Llama/Qwen models ({anchors}); grouped-query attention with 8 KV heads "
            "(every major release since 2024); layers from the parameter budget with a SwiGLU width of "
            "3.5·h (Llama 3); SwiGLU width then solved so the parameter count matches; Llama-2 "
            "vocabulary (32,000)"
        ),
        notes="Shape for a bare size; architecture details are assumptions, not facts about a real model.",
    )
    head = given["head_dim"]
    plain = (
        params.__class__ is float and params > 0 and (head is None or (head.__class__ is int and head > 0))
    )
    for number in (layers, hidden, heads, kv_heads, ffn, vocab):  # the int fields (Gt 0)
        plain = plain and number.__class__ is int and number > 0
    if not plain:
        return ModelSpec(**given)
    values = _DENSE_DEFAULTS.copy()  # every field in order, with its default
    values.update(given)
    values["aliases"] = []  # its default factory's new list
    return _made(ModelSpec, values, set(_DENSE_GIVEN))


def _dense_fixed(hidden: int, heads: int, kv_heads: int, head_dim: int, vocab: int) -> tuple[float, float]:
    """(:func:`embedding_params` + the final norm's h, :func:`attention_params`) of :func:`_dense_spec`'s
    shape (untied embeddings, no attention bias, no MLA), on the numbers: q and o h·heads·d each, k and v
    h·kv_heads·d each, d its ``head_dim_effective`` (tests/test_architecture.py: equal to the functions
    on the spec)."""
    d = head_dim if head_dim * heads != hidden else hidden // heads  # _dense_spec's head_dim, effective
    embedding = float(2 * (vocab * hidden))
    return embedding + hidden, float(2 * hidden * heads * d + 2 * hidden * kv_heads * d + 0)


def _heads_for(hidden_raw: float, head_dim: int, params: float) -> int:
    """Attention heads, rounded so tensor parallelism up to 8 divides them where the size allows: up to a
    multiple of 8 below :data:`WIDE_FROM_PARAMS` (7B → 32 heads, h 4096; 13B → 40, h 5120: Llama 2's
    widths), to the nearest multiple of 8 from there (70B → 64, h 8192: Llama 2/3 70B); an even number
    below 12."""
    heads_raw = hidden_raw / head_dim
    if params >= WIDE_FROM_PARAMS:
        return max(GQA_KV_HEADS, GQA_KV_HEADS * round(heads_raw / GQA_KV_HEADS))
    if heads_raw >= 12:
        return 8 * math.ceil(heads_raw / 8)
    return max(1, 2 * round(heads_raw / 2))


def _kv_heads_for(heads: int) -> int:
    """8 KV heads (:data:`GQA_KV_HEADS`) when they divide the heads, else every head (a tiny shape)."""
    return GQA_KV_HEADS if heads % GQA_KV_HEADS == 0 else heads


def _ffn_multiple(hidden: int) -> int:
    """Granularity of the solved FFN width (coarse for big models, fine for tiny ones)."""
    if hidden >= 2048:
        return 256
    return 64 if hidden >= 512 else 8


@lru_cache(maxsize=128, typed=True)
def shape_for_size(params: float) -> ModelSpec:
    """A Llama-style dense shape whose :func:`count_params` is within 5 % of ``params`` (in practice < 1 %).

    Method (an assumption to state in every reply that uses it):
    1. hidden from the log-log fit :data:`HIDDEN_FIT` over :data:`SHAPE_ANCHORS` (the catalog's
       dense Llama/Qwen releases, 0.5B-405B), extrapolated beyond; head_dim 128 (64 below
       hidden 1024); heads rounded to a multiple of 8 where there are ≥ 12 (so TP 8 divides them).
    2. attention: grouped-query with 8 KV heads at every size (:data:`GQA_KV_HEADS`; the mainstream
       shape since 2024); a tiny shape whose heads 8 does not divide keeps them all.
    3. vocab 32,000 (Llama 2), shrunk for tiny models so embeddings stay ≤ 40 % of ``params``.
    4. layers = what the budget allows with a SwiGLU width of 3.5·h (Llama 3); the width is then
       solved so the count matches ``params``.
    Results (layers × hidden, heads / KV heads): 7B → 31 × 4096 (32/8), 13B → 37 × 5120 (40/8),
    70B → 81 × 8192 (64/8), 175B → 91 × 12288;
    the aspect ratio hidden/layers grows from ~40 (1M) to ~250 (10T), roughly Kaplan et al. 2020's
    flat-loss region (Fig. 5) and the catalog's trend.

    Valid for 1e6 ≤ params ≤ 1e13 (tested); raises ValueError for params ≤ 0 or not finite.

    Made once per size (a frozen spec, bounded cache): the same object for the same bare size, so the
    training searches of a generic shape are found again (:func:`estimator.plan.kept_searches`).
    """
    if not math.isfinite(params) or params <= 0:
        raise ValueError(f"params must be a positive finite number, got {params!r}")
    hidden_raw = math.exp(HIDDEN_FIT[0] + HIDDEN_FIT[1] * math.log(params))
    head_dim = 64 if hidden_raw < 1024 else 128
    heads = _heads_for(hidden_raw, head_dim, params)
    hidden = heads * head_dim
    kv_heads = _kv_heads_for(heads)

    vocab = SHAPE_VOCAB
    if 2 * vocab * hidden > MAX_EMBEDDING_SHARE * params:
        vocab = max(256, int(MAX_EMBEDDING_SHARE * params / (2 * hidden)) // 64 * 64)

    # Parameters outside the MLPs: embeddings + final norm, and per layer attention + 2 norms.
    fixed, attention = _dense_fixed(hidden, heads, kv_heads, head_dim, vocab)
    per_layer_no_mlp = attention + 2 * hidden
    per_layer_target = per_layer_no_mlp + _mlp_params(hidden, round(FFN_RATIO_GQA * hidden), "swiglu")
    layers = max(1, round((params - fixed) / per_layer_target))

    ffn = (params - fixed - layers * per_layer_no_mlp) / (3 * layers * hidden)
    step = _ffn_multiple(hidden)
    ffn_rounded = max(step, round(ffn / step) * step)
    return _dense_spec(params, layers, hidden, heads, kv_heads, head_dim, ffn_rounded, vocab)
