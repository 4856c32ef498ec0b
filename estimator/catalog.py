"""GPU, model and price catalogs: validated data files shipped inside the package.

The data lives in ``estimator/data/*.toml`` (models: one file per family in ``data/models/``);
each entry carries its ``source`` (and ``as_of`` for prices). Loading is lazy and cached, so importing
the package does no I/O.
"""

import json
import os
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field

from estimator.derived import KeepsDerived
from estimator.digest import DIGEST_KEY, _source_names, sources_digest
from estimator.factories import empty_list
from estimator.gpu_spec import GpuSpec

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable


class VisionTower(BaseModel):
    """A vision-language release's vision encoder and projector (config.json ``vision_config``): counted in
    its weights and memory, frozen in fine-tuning unless trained (estimator.vision)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    params: float = Field(gt=0, description="parameters of the encoder and projector (from the config)")
    depth: int = Field(gt=0, description="vision_config.depth: transformer blocks")
    hidden: int = Field(gt=0, description="vision_config.hidden_size (embed_dim)")
    ffn_hidden: int = Field(gt=0, description="vision_config.intermediate_size (gated MLP width)")
    heads: int = Field(gt=0, description="vision_config.num_heads")
    patch_size: int = Field(gt=0, description="pixels per patch side")
    spatial_merge: int = Field(1, gt=0, description="patches merged per side into one LLM token")
    tokens_per_image: int | None = Field(None, gt=0, description="LLM tokens per image (LLaVA-1.5: 576)")
    pixels_per_token: int | None = Field(
        None, gt=0, description="dynamic resolution: pixels per LLM token, (patch_size·spatial_merge)²"
    )


class ModelSpec(KeepsDerived):
    """A published model's size and architecture (config.json of the release, or the paper). Its derived
    widths and counts are kept on the instance after the first read (:mod:`estimator.derived`)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    id: str
    name: str
    family: str
    aliases: list[str] = Field(default_factory=empty_list)
    params_total: float = Field(gt=0, description="official total parameter count")
    params_active: float | None = Field(None, gt=0, description="active per token (MoE only)")
    params_active_excludes: Literal["input_embedding", "embeddings"] | None = None
    """what the vendor's official active count leaves out (its convention, read off the published figures):
    'input_embedding' (the token table, a lookup: gpt-oss, DeepSeek-V2-Lite) or 'embeddings' (the token table
    and the output head: GLM-4.5). The count test compares like with like
    (estimator.architecture.published_active_params); sizing uses the official figure as given"""
    layers: int = Field(gt=0)
    hidden: int = Field(gt=0)
    heads: int = Field(gt=0)
    kv_heads: int = Field(gt=0, description="key/value heads (GQA/MQA); = heads for MHA")
    head_dim: int | None = Field(None, gt=0, description="when not hidden/heads")
    ffn_hidden: int = Field(gt=0, description="intermediate size of the dense MLP")
    ffn_type: Literal["swiglu", "geglu", "gelu", "relu", "squared_relu"] = "swiglu"
    """MLP kind: gated (swiglu, geglu: gate, up, down = 3 matrices) or plain (gelu, relu, squared_relu: up,
    down = 2 matrices)"""
    vocab: int = Field(gt=0)
    tied_embeddings: bool = False
    max_context: int | None = None
    native_context: int | None = Field(
        None,
        gt=0,
        description="tokens the model runs without RoPE scaling when fewer than max_context "
        "(Qwen2.5-72B-Instruct config.json: 32768); None = max_context",
    )
    rope_scaling: Literal["yarn"] | None = None
    """RoPE scaling documented beyond native_context (YaRN, Peng et al. 2023)"""
    rope_scaling_factor: float | None = Field(
        None, gt=1, description="its documented factor: native_context × factor tokens (Qwen2.5: 4 → 131072)"
    )
    context_source: str | None = None
    """where native_context and scaling are documented"""
    base_config_window: int | None = Field(
        None,
        gt=0,
        description="the base release's config.json max_position_embeddings where it passes the window vLLM "
        "derives for the Instruct release (Qwen/Qwen2.5-7B 131,072, Qwen/Qwen2.5-7B-Instruct 32,768): a name "
        "typed as the base release (request.release 'base') is checked against it (estimator.ledger)",
    )
    base_config_source: str | None = None
    """where base_config_window is read"""
    chat_context: int | None = Field(
        None,
        gt=0,
        description="the chat release's window where it passes the base model's max_context (same shape: "
        "GLM-4-9B 8,192, glm-4-9b-chat 131,072): a name typed as the chat release (-chat, -Instruct, an "
        "Ollama tag) is held to it (bot.core.release_window)",
    )
    sliding_window: int | None = None
    sliding_window_layers: int | None = None
    """layers using the window when not all do (Gemma 2: every other layer)"""
    attention_chunk_size: int | None = None
    """Llama 4's chunked local attention (config.json ``attention_chunk_size``, tokens): a chunked layer
    attends within its chunk; whether the engine keeps one chunk of KV there is the runtime's choice
    (:mod:`estimator.chunked_kv`), so it is not a window here"""
    chunked_layers: int | None = None
    """layers using chunked local attention (Llama 4: the RoPE layers of ``no_rope_layers``, 36 of 48)"""
    chunk_kv_window: int | None = Field(
        None,
        gt=0,
        description="tokens of KV a chunked layer keeps a sequence on the runtime sized (at most; the "
        "context caps it): vLLM chunk + max_num_batched_tokens (8,192 + 8,192 on an H100), llama.cpp "
        "chunk + n_ubatch, SGLang (1 − r) × context_length + r × chunk (estimator.chunked_kv.as_allocated); "
        "the KV memory only, never the attention compute or the decode reads; null: the whole context",
    )
    # Mixture of experts
    experts: int | None = None
    experts_top_k: int | None = None
    shared_experts: int | None = None
    moe_ffn_hidden: int | None = None
    shared_expert_ffn_hidden: int | None = Field(
        None,
        gt=0,
        description="intermediate size of each shared expert when it differs from moe_ffn_hidden "
        "(Qwen1.5/Qwen2 MoE: shared_expert_intermediate_size)",
    )
    dense_layers: int | None = None
    """leading dense-MLP layers in a MoE model"""
    moe_layer_step: int | None = Field(
        None,
        gt=0,
        description="every k-th layer (after the leading dense ones) is MoE, the others dense "
        "(Llama 4 Maverick: interleave_moe_layer_step 2); None = every layer",
    )
    learned_position_embeddings: int | None = Field(
        None, gt=0, description="positions of a learned position table (OPT, StarCoder, GPT-3), if any"
    )
    kv_lora_rank: int | None = None  # multi-head latent attention (DeepSeek-V2/V3): its ranks and dims
    qk_rope_head_dim: int | None = None
    q_lora_rank: int | None = Field(None, gt=0, description="MLA query compression rank; None = full-rank q")
    qk_nope_head_dim: int | None = Field(None, gt=0, description="MLA per-head q/k dim without RoPE")
    v_head_dim: int | None = Field(None, gt=0, description="MLA per-head value dim")
    index_head_dim: int | None = Field(None, gt=0, description="DSA lightning indexer key width (V3.2)")
    attention_bias: bool = False
    """q/k/v biases (Qwen2/2.5, ChatGLM3, GLM-4)"""
    serve_context: int | None = Field(
        None,
        gt=0,
        description="default context when serving, if the model needs more than the generic one "
        "(reasoning models: long chains of thought)",
    )
    state_layers: int | None = Field(
        None,
        gt=0,
        description="layers whose token mixer keeps a fixed-size state per sequence instead of a growing KV "
        "cache (linear/lightning attention, Mamba): MiniMax-M1 70 of 80 (attn_type_list 0); None = none",
    )
    state_elements: int | None = Field(
        None, gt=0, description="elements of one such layer's state per sequence (estimator.state_layers)"
    )
    state_layer_params: int | None = Field(
        None, gt=0, description="parameters of one such layer's token mixer, in place of attention's"
    )
    vision: VisionTower | None = None
    """the vision tower of a vision-language release (None: a text model)"""
    release_precision: Literal["bf16", "fp16", "fp32", "fp8", "mxfp4"] = "bf16"
    """precision of the released weights (DeepSeek-V3/R1: fp8; gpt-oss: MXFP4 experts)"""
    source: str
    notes: str | None = None

    @cached_property
    def head_dim_effective(self) -> int:
        return self.head_dim or self.hidden // self.heads

    @cached_property
    def is_moe(self) -> bool:
        return bool(self.experts)

    @cached_property
    def gated_ffn(self) -> bool:
        """Gated MLP (gate, up, down: 3 matrices) rather than plain (up, down: 2)."""
        return self.ffn_type in ("swiglu", "geglu")

    @cached_property
    def moe_layers(self) -> int:
        """Layers with a mixture-of-experts MLP (0 for a dense model)."""
        if not self.experts:  # not is_moe, read in place (no property call)
            return 0
        after_dense = self.layers - (self.dense_layers or 0)
        return after_dense // (self.moe_layer_step or 1)

    @cached_property
    def dense_mlp_layers(self) -> int:
        """Layers with a dense MLP of ``ffn_hidden``: all of a dense model; the leading dense layers and
        the non-MoE layers of an interleaved MoE model."""
        return self.layers - self.moe_layers

    @cached_property
    def shared_ffn_hidden(self) -> int:
        """Intermediate size of one shared expert."""
        return self.shared_expert_ffn_hidden or self.moe_ffn_hidden or self.ffn_hidden

    @cached_property
    def expert_ffn_hidden(self) -> int:
        """Intermediate size of one routed expert."""
        return self.moe_ffn_hidden or self.ffn_hidden

    @cached_property
    def active_ffn_hidden(self) -> int:
        """MLP width one token passes through in a MoE layer: top-k routed experts + the shared ones
        (the width of a dense layer for a dense model)."""
        if not self.experts:  # not is_moe, in place
            return self.ffn_hidden
        return (self.experts_top_k or 1) * self.expert_ffn_hidden + (
            self.shared_experts or 0
        ) * self.shared_ffn_hidden


class PriceEntry(BaseModel):
    """Rental price range per GPU-hour for one family, with source and date."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    family: str
    gpus: list[str] = Field(
        default_factory=empty_list,
        description="catalog ids of the variants the range was quoted for ('A100-SXM4-80GB'); empty when "
        "the source names no variant (the whole family)",
    )
    cny_low: float | None = Field(None, gt=0)
    cny_high: float | None = Field(None, gt=0)
    usd_low: float | None = Field(None, gt=0)
    usd_high: float | None = Field(None, gt=0)
    source: str
    as_of: str = Field(description="YYYY-MM of the quote")


class _GpuFile(BaseModel, defer_build=True):  # schema built on first use: start-up
    gpu: list[GpuSpec]


class _ModelFile(BaseModel, defer_build=True):  # schema built on first use: start-up
    model: list[ModelSpec]


class _PriceFile(BaseModel, defer_build=True):  # schema built on first use: start-up
    price: list[PriceEntry]


def _data() -> "Traversable":
    """The catalog folder (a Path on a file system; ``importlib.resources`` only for a zip: ~2 ms)."""
    here = Path(__file__).parent
    if here.is_dir():
        return here / "data"
    from importlib import resources

    return resources.files("estimator").joinpath("data")


@cache
def _compiled() -> dict | None:
    """The catalogs as the build compiled them (``data/_compiled.marshal``, else ``_compiled.json``:
    ``hatch_build.py``; JSON ~30× faster than TOML, marshal ~4× again), or None when absent or stale: used
    when no TOML file is newer (a checkout) or the recorded digest of the TOML files matches (a wheel)."""
    data = str(_data())
    names = _source_names(data)
    digest = None
    for name, loads in (("_compiled.marshal", _marshal_loads), ("_compiled.json", json.loads)):
        path = os.path.join(data, name)
        try:
            built = os.stat(path).st_mtime
            fresh = all(os.stat(os.path.join(data, n)).st_mtime <= built for n in names)
            with open(path, "rb") as fh:
                loaded = loads(fh.read())
            if not fresh and digest is None:
                digest = sources_digest(Path(data))
            if isinstance(loaded, dict) and (fresh or loaded.get(DIGEST_KEY) == digest):
                return loaded
        except (OSError, ValueError, AttributeError, EOFError, TypeError):
            pass
    return None


def _marshal_loads(data: bytes) -> object:
    import marshal

    return marshal.loads(data)


def _load(name: str) -> dict:
    compiled = _compiled()
    if compiled is not None and name in compiled:
        return compiled[name]
    import tomllib  # the sources, read only without the compiled catalog (a checkout being edited)

    with _data().joinpath(name).open("rb") as fh:
        return tomllib.load(fh)


def _model_files() -> list[tuple[str, dict]]:
    """(file name, parsed TOML) of every ``data/models/*.toml``, in name order."""
    compiled = _compiled()
    if compiled is not None:
        if type(compiled["models"]) is bytes:  # the marshal form keeps them apart: hatch_build._compile_data
            compiled["models"] = _marshal_loads(compiled["models"])
        return sorted(compiled["models"].items())
    import tomllib

    folder = _data().joinpath("models")
    out = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            with entry.open("rb") as fh:
                out.append((entry.name, tomllib.load(fh)))
    return out


def model_rows() -> list[tuple[str, ...]] | None:
    """(id, *aliases) of every catalog model as its file gives them (unvalidated), in :func:`models`' order:
    what the parser's stored name index is keyed by (bot.parse.name_store.stored_model_index_for), read
    without validating ~180 models (~15M instructions of ``ask``), from the build's list when it made one
    (``model_rows`` of the marshal form: its models are read only when one is). None when a file is not
    as expected."""
    compiled = _compiled()
    if compiled is not None and "model_rows" in compiled:
        return list(compiled["model_rows"])
    try:
        return [(m["id"], *m.get("aliases", ())) for _, data in _model_files() for m in data["model"]]
    except (KeyError, TypeError, AttributeError):
        return None


@cache
def gpus() -> dict[str, GpuSpec]:
    """All GPUs by id (validated; raises pydantic.ValidationError on a bad file)."""
    return {g.id: g for g in _GpuFile.model_validate(_load("gpus.toml")).gpu}


@cache
def models() -> dict[str, ModelSpec]:
    """All models by id, from every ``data/models/*.toml`` (one file per family, read in name order).

    Raises pydantic.ValidationError on a bad entry and ValueError on an id defined twice."""
    out: dict[str, ModelSpec] = {}
    for name, data in _model_files():
        for m in _ModelFile.model_validate(data).model:
            if m.id in out:
                raise ValueError(f"model id {m.id!r} is defined twice (data/models/{name})")
            out[m.id] = m
    return out


@cache
def prices() -> dict[str, PriceEntry]:
    """Price ranges by GPU family: each family's first entry (its usual variant's, or the whole
    family's); a variant's own range is in :func:`price_entries` (estimator.variant_prices)."""
    out: dict[str, PriceEntry] = {}
    for p in price_entries():
        out.setdefault(p.family, p)
    return out


@cache
def price_entries() -> tuple[PriceEntry, ...]:
    """Every price entry of ``prices.toml`` in file order, variants' own ranges included."""
    return tuple(_PriceFile.model_validate(_load("prices.toml")).price)


def gpu(gpu_id: str) -> GpuSpec:
    """GPU by catalog id. Raises KeyError for an unknown id."""
    return gpus()[gpu_id]


def model(model_id: str) -> ModelSpec:
    """Model by catalog id. Raises KeyError for an unknown id."""
    return models()[model_id]


def gpu_with_memory(memory_gib: float) -> GpuSpec | None:
    """The card a bare memory size most likely means (±0.5 GiB): a discrete NVIDIA card before other
    vendors and Macs, a family's usual variant, then the fastest — 24 → RTX 4090, 96 → H20, 80 → H100.
    None when no card has that memory; never a laptop part (s21: '6G 显存的显卡' is no RTX 3060 Laptop)."""
    same = [g for g in gpus().values() if abs(g.memory_gib - memory_gib) <= 0.5 and "Laptop" not in g.id]
    return max(
        same,
        key=lambda g: (g.vendor == "NVIDIA", not g.unified_memory, g.default_for_family, g.peak_flops_16bit),
        default=None,
    )


def _name_key(name: str) -> str:
    r"""``name`` lower-cased without whitespace, '-' and '_' (what ``re.sub(r"[\s\-_]+", "", name)`` leaves:
    ``str.split`` splits at the characters ``\s`` matches, ``str.isspace``). Four C calls instead of a
    regex substitution: ~1,130 keys on a first ask (:func:`_family_index`), ~2.5× faster each
    (bench/RESULTS.md session 45; tests/test_s45_speed.py compares the two)."""
    return "".join(name.split()).replace("-", "").replace("_", "").lower()


@cache
def _family_index() -> dict[str, str]:
    """Lookup key (lower case, no spaces/dashes) → family: every family, id, name and alias."""
    index: dict[str, str] = {}
    for g in gpus().values():
        for name in (g.family, g.id, g.name, *g.aliases):
            index.setdefault(_name_key(name), g.family)
    return index


def family_of(name: str | None) -> str | None:
    """The catalog family of a family, id, name, alias ('4090') or derived id ('Apple-M2-Ultra-64GB', a
    memory configuration of 'Apple-M2-Ultra-192GB'); None when unknown."""
    if not name or not isinstance(name, str):
        return None
    family = _family_index().get(_name_key(name))
    if family is None and "-" in name:  # a derived id: the catalog id with another memory size
        stem = name.rsplit("-", 1)[0]
        family = next((g.family for g in gpus().values() if g.id.rsplit("-", 1)[0] == stem), None)
    return family


def resolve_gpu(gpu_id: str | None) -> GpuSpec | None:
    """The catalog entry of a GPU id, or of a derived id's family (its top configuration); None: unknown."""
    if not gpu_id:
        return None
    spec = gpus().get(gpu_id)
    if spec is None:
        family = family_of(gpu_id)
        spec = default_gpu_for_family(family) if family else None
    return spec


def family_suggestions(name: str, n: int = 3) -> list[str]:
    """Closest catalog families to an unknown GPU name (difflib ratio ≥ 0.5), best first."""
    import difflib  # here: only an unknown GPU needs it (start-up)

    target = _name_key(name)
    scored = [(difflib.SequenceMatcher(None, target, _name_key(f)).ratio(), f) for f in families()]
    return [f for r, f in sorted(scored, key=lambda x: (-x[0], x[1])) if r >= 0.5][:n]


def families() -> list[str]:
    """All GPU families, sorted."""
    return sorted({g.family for g in gpus().values()})


def default_gpu_for_family(family: str) -> GpuSpec | None:
    """The variant meant when a user says only the family ('A100' → A100-SXM4-80GB)."""
    return _family_defaults().get(family.lower())


@cache
def _family_defaults() -> dict[str, GpuSpec]:
    """Family (lower case) → its default variant, or its first one when none is marked."""
    out: dict[str, GpuSpec] = {}
    for g in gpus().values():
        key = g.family.lower()
        if key not in out or (g.default_for_family and not out[key].default_for_family):
            out[key] = g
    return out
