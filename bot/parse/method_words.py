"""Serving-runtime and fine-tuning-method words (step 2b of the parse, :mod:`bot.parse.settings`): the
engine a job is served on and the method it is tuned with, each → a request field's value."""

from __future__ import annotations

from typing import Any

from bot.parse import lexicon as lx
from bot.parse.more_tools import TRANSFORMERS_CALLS, VLLM_IDENTIFIER
from bot.parse.regex import rc
from estimator.runtimes import RUNTIMES as ENGINE_REGISTRY


def _affixed(engine: str) -> str:
    """An engine's name inside a class or helper name people write in code and prose ('LocalVLLM' of
    GPTFuzz, 'vLLMWrapper', 'AsyncSGLangEngine', 'LMDeployPipeline'; s35, zh30-023): the name with a
    software prefix before it or a software noun after it, written together (the text is lower case here).
    A bare letter before it is no prefix ('Lvllm' is another engine, round 18). s43 fixread2 (en39-036):
    a deployment, a service or an actor of a serving framework ('vLLMDeployment' of Ray Serve LLM,
    'VLLMService', 'vllm_actor')."""
    prefixes = ("local", "async", "offline", "online", "custom", "my")
    pre = "|".join(rf"(?<=(?<![a-z0-9]){p}{u})" for p in prefixes for u in ("", "_"))  # each branch starts at
    post = (  # the engine's name, then a software noun
        r"_?(?:wrapper|engine|client|server|worker|backend|runner|pipeline|predictor|deployment|service|actor)"
    )
    return rf"(?:{pre}){engine}(?:{post})?(?![a-z0-9])|(?<![a-z0-9]){engine}{post}(?![a-z0-9])"


PARSER_FORMS = {"vLLM": VLLM_IDENTIFIER, "transformers": TRANSFORMERS_CALLS}
"""Forms only the parser knows, beside a runtime's own words (``ServingRuntime.words``): vLLM's identifiers
('vllm_num_engines'), transformers' calls (round 10: AutoModelForCausalLM …)."""


def _runtime_pattern(runtime: Any) -> str:
    """The runtime's words, its parser-only forms and its affixed class names, as one alternation."""
    forms = (runtime.words, PARSER_FORMS.get(runtime.name), runtime.affix and _affixed(runtime.affix))
    return "|".join(form for form in forms if form)


RUNTIMES: tuple[tuple[Any, str], ...] = tuple(
    (rc(_runtime_pattern(rt)), name) for name, rt in ENGINE_REGISTRY.items() if rt.words
)
"""Serving engines by name → ``SizingRequest.runtime``, first match wins, in the registry's order
(:data:`estimator.runtimes.RUNTIMES`: each runtime's ``words``; LM Studio runs llama.cpp; Ollama has its
own default context on llama.cpp: :class:`estimator.runtimes.others.Ollama`)."""

_FULL_WORDS = (
    r"全量(?:微调|训练|参数)?|全参(?:数)?(?:微调)?"
    r"|full[\s\-]*(?:parameter|param|weight)s?(?:[\s\-]*(?:fine[\s\-]*tun\w*|ft|sft))?"
    r"|full[\s\-]*(?:fine[\s\-]*tun\w*|ft\b|sft\b)|\bfull\b(?=\s*(?:vs|,|、|和|或|/|and|or)\s)"
)
_FREEZE_WORDS = (
    r"freeze[\s\-_]*(?:tun\w*|微调|fine[\s\-]*tun\w*)|冻结(?:部分)?(?:层|参数)?(?:微调|训练)"
    r"|finetuning[_\s]*type\s*[=:]\s*freeze"
)
_PTUNING_WORDS = (
    r"p[\s\-_]*tuning(?:[\s\-_]*v2)?|prefix[\s\-_]*tuning|finetuning[_\s]*type\s*[=:]\s*ptuning"
    r"|(?<![a-z0-9])ptv2(?![a-z0-9])"  # 'ptv2' (chatglm_finetuning, ChatGLM's P-Tuning v2 short form)
)
_PEFT_WORDS = (
    r"parameter[\s\-]*efficient(?:[\s\-]*(?:fine[\s\-]*tun\w*|ft\b|training|methods?))?|参数高效(?:微调|训练)?"
    r"|(?<![a-z0-9_\-./])peft(?![a-z0-9_\-.=])(?!\s*(?:==|>=|<=|=|:|v?\d|version|版本))"
)
"""S43-workmiss (en36-028): parameter-efficient fine-tuning said as such ('both full fine-tuning and
parameter-efficient fine-tuning', 'full fine-tuning vs PEFT', '全参微调和参数高效微调'): sized as LoRA, the
method Hugging Face PEFT's own examples and most PEFT runs use (peft README: LoraConfig is its quick-start),
as bot.parse.with_without already reads 'with or without PEFT'; a PEFT release ('peft==0.10.0', 'peft 0.10')
is a library's version, no method."""
PEFT_RE = rc(_PEFT_WORDS)
"""The PEFT words alone: a fine-tuning said only so is LoRA (bot.parse.words.method_from_words)."""


def peft_typed(norm: str) -> str | None:
    """The PEFT words of the normalized message ``norm`` when no LoRA word is there (the method sized as LoRA
    stands for them: :data:`PEFT_RE`), for the reply's substitution 'read “PEFT” as LoRA' (s43 review: it
    was silent); 'PEFT' in its usual capitals; None otherwise."""
    if "lora" in norm:
        return None
    m = PEFT_RE.search(norm)
    return None if m is None else ("PEFT" if m.group(0) == "peft" else m.group(0))


PEFT_NEGATED_RE = rc(lx.NEGATORS + r"[\s\-]*$")
"""A negator right before the PEFT words ('without PEFT', 'non-PEFT', '不用参数高效微调'): no LoRA."""
METHOD_WORDS: tuple[tuple[Any, str], ...] = (
    (rc(_FULL_WORDS), "full"),
    (lx.QLORA_RE, "qlora"),  # "QLoRA", "4-bit LoRA", "4bit 量化 + LoRA"
    (rc(r"(?<![a-z])lora\b|" + _PEFT_WORDS), "lora"),  # s43: and PEFT (:data:`PEFT_RE`)
    (rc(_FREEZE_WORDS), "freeze"),
    (rc(_PTUNING_WORDS), "ptuning"),
)
"""Fine-tuning method words, each → a :class:`estimator.models.Method` value."""
FREEZE_LAYERS_RE = rc(
    r"(?:last|最后|后)\s*(?P<n>\d{1,3})\s*(?:层|layers?)|freeze[_\s]*trainable[_\s]*layers\s*[=:]?\s*(?P<m>\d{1,3})"
)
PREFIX_RE = rc(
    r"(?:pre[_\s]*seq[_\s]*len|prefix[\s_]*(?:length|len|tokens?)?|前缀长度|前缀)\s*(?:=|:|of|为|是)?\s*(?P<n>\d{1,6})"
)
XTUNER_LLAVA_RE = rc(
    r"\bllava_[a-z0-9_.]*?_(?P<m>full|qlora|lora)_(?:clip|siglip|dinov2|internvit)_[a-z0-9_.]*"
)
"""s46-verdictvl (zh20-012): an XTuner LLaVA config named by its file
('llava_llama3_8b_instruct_full_clip_vit_large_p14_336_lora_e1_gpu8_finetune'): the method word before the
visual encoder is the language model's, a 'lora' after it the encoder's. InternLM/xtuner@0b63e429
xtuner/configs/llava/llama3_8b_instruct_clip_vit_large_p14_336/finetune/
llava_llama3_8b_instruct_full_clip_vit_large_p14_336_lora_e1_gpu8_finetune.py: ``freeze_llm=False`` (every
LLM weight trains), ``freeze_visual_encoder=True`` with ``visual_encoder_lora=dict(type=LoraConfig, r=64)``;
its ``..._qlora_clip_...`` sibling quantizes the LLM to 4 bits with LoRA. Read before the LoRA words, which
would take the encoder's 'lora' for the whole run."""


def xtuner_llava_method(s: str) -> str | None:
    """The language model's method of an XTuner LLaVA config's name in ``s`` (:data:`XTUNER_LLAVA_RE`),
    else None; the caller gates on 'llava_' in ``s``."""
    m = XTUNER_LLAVA_RE.search(s)
    return m["m"] if m else None
