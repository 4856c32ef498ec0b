"""The draft model of speculative decoding named in a serving question (s44 fixspec; issue 24 items 3, 4):
vLLM's ``--speculative-config '{"model": "…", …}'`` (and the older ``--speculative-model``), SGLang's
``--speculative-draft-model-path``, or a model the words call the draft ('Llama-3.2-1B as the draft',
'用 Qwen2.5-0.5B-Instruct 做草稿模型': the ``speculative_draft`` item of
:mod:`bot.parse.serving_methods`). A draft the catalog knows is the request's ``draft_model`` (its catalog
id; its memory counted, estimator.draft_model): its item leaves the 'not used' list, and the method's own
item says only the speed is not modelled (``speculative_speed``). One it does not know is named as typed
in ``draft_model`` and keeps its items, which say its memory is not counted."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.parse.regex import rc

if TYPE_CHECKING:
    from bot.parse.configs.model import StackConfig

CONFIG_MODEL_RE = rc(r"""--speculative[-_]config[\s=]+.{0,300}?["']model["']\s*:\s*["']([^"'\s]+)""")
"""vLLM ``--speculative-config`` JSON's "model" (vllm/config/speculative.py ``SpeculativeConfig.model``)."""
PATH_RE = rc(r"""--speculative[-_](?:draft[-_]model[-_]path|model)[\s=]+["']?([^\s"']+)""")
"""SGLang ``--speculative-draft-model-path`` (server_args.py) and vLLM's older ``--speculative-model``."""
CONFIG_JSON_MODEL_RE = rc(r"""["']model["']\s*:\s*["']([^"'\s]+)""")
"""The "model" of a ``--speculative-config`` JSON value."""
HEAD_RE = rc(r"(?i)eagle|medusa|mtp|nextn|hydra|mlp[-_]?speculator")
"""A draft that is a head on the target, not a model of its own ('Tengyunw/qwen3_32b_eagle3',
'yuhuili/EAGLE-LLaMA3.1-Instruct-8B'): an EAGLE head is one decoder layer fed by the target's hidden states
(Li et al. 2024, EAGLE §3; vLLM's EagleLlamaForCausalLM builds one LlamaDecoderLayer and shares the
target's embeddings), never the catalog model its name contains: named as typed, not counted."""
DRAFT_TP_RE = rc(r"(?i)draft[\s_\-]*tensor[\s_\-]*parallel[\s_\-]*size[\"'\s:=]*(\d+)")
"""The draft's own TP ('speculative-draft-tensor-parallel-size 1', vLLM's ``draft_tensor_parallel_size``
in --speculative-config): named (``draft_tp``) — vLLM's V1 ``DraftModelProposer._raise_if_draft_tp_mismatch``
(vllm/v1/spec_decode/draft_model.py) refuses a draft TP other than the target's, so the draft is counted
on the target's TP, the one layout that starts (s45 fixserve #3)."""
DRAFT_FLAGS = ("--speculative-draft-model-path", "--speculative-model")
"""The pasted flags whose value is the draft itself: used once the draft is counted."""


def known_draft(typed: str) -> str | None:
    """The catalog id of the draft model ``typed`` ('meta-llama/Llama-3.2-1B-Instruct' → 'Llama-3.2-1B'),
    None when the catalog does not know it as typed (no substitution: an EAGLE head is not its base)."""
    if HEAD_RE.search(typed):
        return None
    from bot.parse.models import extract_models

    mentions = extract_models(typed.lower(), typed)[1]
    return next((x.model_id for x in mentions if x.model_id and x.substitution is None), None)


def draft_flag(cfg: StackConfig, flag: str, value: object) -> bool:
    """A pasted speculative-decoding flag that names a draft the catalog knows (vLLM
    ``--speculative-config``'s "model", SGLang ``--speculative-draft-model-path``): the draft is
    ``cfg``'s ``draft_model``, the path flag used, the config named as its speed not modelled
    (``speculative_speed``, as every speculative flag named before it). False (nothing done) otherwise."""
    f = flag.replace("_", "-")
    if f == "--speculative-config":
        m = CONFIG_JSON_MODEL_RE.search(str(value)) if not isinstance(value, dict) else None
        typed = value.get("model") if isinstance(value, dict) else m.group(1) if m else None
    else:
        typed = str(value) if f in DRAFT_FLAGS else None
    known = known_draft(str(typed)) if typed else None
    if known is None:
        return False
    cfg.values["draft_model"] = known
    cfg.unused.update(
        {k: "speculative_speed" for k, why in cfg.unused.items() if why == "speculative_not_modelled"}
    )
    tp = DRAFT_TP_RE.search(str(value))
    if tp is not None:
        cfg.skip("draft_tensor_parallel_size", int(tp.group(1)), "draft_tp")
    if f in DRAFT_FLAGS:
        cfg.used[flag] = "draft_model"
    else:
        cfg.skip(flag, value, "speculative_speed")
    return True


def draft_named(raw: str, named: list[tuple[str, str]]) -> str | None:
    """The draft model named in the message ``raw`` (a pasted flag first, else the ``speculative_draft``
    item of ``named``): its catalog id when known (``named`` then updated, module doc), else as typed;
    None when no draft is named."""
    m = in_config = CONFIG_MODEL_RE.search(raw)
    m = m or PATH_RE.search(raw)
    typed = m.group(1) if m else None
    item = next((i for i, (text, why) in enumerate(named) if why == "speculative_draft"), None)
    if typed is not None and item is None:  # B6: the flag's draft, read as another setup's model
        low = typed.lower()
        item = next(
            (i for i, (x, _) in enumerate(named) if x.startswith("model: ") and x[7:].lower() in low), None
        )
    if typed is None and item is not None:
        typed = named[item][0].removeprefix("model: ")
    if typed is None:
        return None
    tp = DRAFT_TP_RE.search(raw)
    if tp is not None:  # 'speculative-draft-tensor-parallel-size 1' was read as another setup's TP
        named[:] = [
            (x, "draft_tp" if x == f"tp: {tp.group(1)}" and why == "other_setup" else why) for x, why in named
        ]
    known = known_draft(typed)
    if known is None and item is not None:  # named as typed, its memory not counted
        named[item] = (named[item][0], "speculative_draft")
    elif known is not None:
        named[:] = [
            (text, "speculative_speed" if why == "speculative_not_modelled" else why)
            for i, (text, why) in enumerate(named)
            if i != item and not text.replace("_", "-").startswith(DRAFT_FLAGS)
        ]
    if in_config is not None:  # its other keys: speculative settings, named (B6)
        _config_named(config_settings(raw, in_config.end()), named, known is not None)
    return typed[:120] if known is None else known


def _config_named(settings: list[tuple[str, str]], named: list[tuple[str, str]], counted: bool) -> None:
    """Name each ``--speculative-config`` setting of ``settings`` in ``named`` ('num_speculative_tokens:
    5'): ``speculative_speed`` when the draft is ``counted``, else ``speculative_not_modelled``; an item
    the words read from a value ('"method": "draft_model"' as the words 'draft model') is dropped."""
    why = "speculative_speed" if counted else "speculative_not_modelled"
    values = {v for _, v in settings}
    named[:] = [x for x in named if not (x[1] == "speculative_not_modelled" and x[0] in values)]
    named += [(f"{k}: {v}", why) for k, v in settings if (f"{k}: {v}", why) not in named]


CONFIG_KEY_RE = rc(r"""["'](\w+)["']\s*:\s*(?:["']([^"']*)["']|([\w.\-]+))""")
"""A key and its value in a ``--speculative-config`` JSON ('"num_speculative_tokens": 5',
'"method": "eagle"')."""
CONFIG_OWN = ("model", "draft_tensor_parallel_size")
"""The config's keys read elsewhere: the draft (:data:`CONFIG_MODEL_RE`), its TP (:data:`DRAFT_TP_RE`)."""


def config_settings(raw: str, at: int) -> list[tuple[str, str]]:
    """The (key, value) pairs, as typed, of the ``--speculative-config`` JSON of ``raw`` whose "model"
    ends at ``at`` (up to its closing brace), less :data:`CONFIG_OWN`: vLLM's SpeculativeConfig fields
    (``num_speculative_tokens``, ``method``, …), each a speculative-decoding setting whose speed-up is not
    modelled (s44 fixspec2, review B6: '5' was 'no word said what it is')."""
    start = raw.rfind("{", 0, at)
    end = raw.find("}", at)
    body = raw[start : end if end >= 0 else at + 300]
    out = [(k, v or w) for k, v, w in CONFIG_KEY_RE.findall(body)]
    return [(k, v) for k, v in out if k not in CONFIG_OWN]


SPEC_REASONS = ("speculative_speed", "speculative_not_modelled")


def spec_config_read(unread: dict[str, str], named: list[tuple[str, str]]) -> dict[str, str]:
    """``unread`` (number as typed → reason) less each number a ``--speculative-config`` setting of
    ``named`` holds ('num_speculative_tokens: 5' named by :func:`draft_named`): read, not 'no word said
    what it is' (s44 fixspec2, review B6)."""
    held = {text.rsplit(": ", 1)[-1] for text, why in named if why in SPEC_REASONS and ": " in text}
    return {raw: why for raw, why in unread.items() if raw.strip() not in held}
