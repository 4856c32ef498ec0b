"""Two stages asked together by a coordination (round 9 of the real questions, Chinese: '推理和微调 LLaMA2-70B
各需要多少 GPU', '以 102B 的模型为例，推理和微调大概各需要多少卡'; issue 24 item 4, two setups in one
message): serving and tuning (or training) joined by 'and' / 'or' in either language ('推理和微调',
'训练、推理', '微调或部署', 'inference and fine-tuning', 'serving or training'). One stage is sized (the
one the stage words choose); the other is named as another setup, never dropped in silence
(docs/design.md §8, the understanding contract).

Pre-training with fine-tuning ('预训练与 SFT 微调') is :data:`bot.parse.prose_forms.TWO_STAGES_RE`'s;
'微调完推理跑得动吗' (serving after tuning) is :data:`bot.parse.words.SERVE_AFTER_TUNING_RE`'s: each is named
once. A bare '训练' / 'training' beside serving is the tuning when a tuning word is in the message or a model
is named with its size (:data:`NAMED_MODEL_RE`: its weights exist, round 13), else a pre-training (the weak
hint :func:`bot.parse.words.stage_from_words` gives it); the pre-training's scale ('from scratch', '1T
tokens') keeps it a pre-training.
"""

from __future__ import annotations

import re

from bot.parse import lexicon as lx
from bot.parse.regex import rc
from bot.parse.stage_hints import PRETRAINING_SCALE_RE, vl_assembly
from bot.parse.words import SERVE_AFTER_TUNING_RE

_SERVE = r"推理|部署|上线|serving|inference|serve|deploy(?:ment|ing)?"
_TUNE = r"微调|精调|fine[\s\-]?tun(?:e|ing)|finetun(?:e|ing)|(?<![\-_])\bsft\b"
_TRAIN = r"(?<!预)训练|(?<!pre-)(?<!pre)\btrain(?:ing)?\b"
_AND = (
    r"\s*(?:(?:和|与|跟|及|以及|还有|或者|或|还是|、|/|\+|,|\band\b|\bor\b|&)\s*(?:even\s+|甚至(?:是)?\s*)?"
    r"|甚至(?:是)?|乃至)\s*"
)
"""A conjunction, or 'even' after it or alone ('推理甚至微调', 'inference or even fine-tuning': s44 round
40)."""
_ONLY = r"(?:(?:(?:or|and)\s+)?(?:(?:only|just|also)\s+)?for\s+|(?:只|仅|也)(?:是|有|在|用于)?\s*)?"
"""A word between the conjunction and the other stage ('for inference, or only for training', '推理还是只有
训练': s48-workmiss, issue 24 item 4: the training asked beside serving was dropped)."""
_VERB = r"(?:(?:to\s+)?(?:run(?:ning)?|do(?:ing)?|perform(?:ing)?)\s+|做|进行|跑)"
_HOW = r"(?:(?:全参数?|全量|q?lora|full(?:[\s\-]*parameter)?)[\s\-]*)?"
"""How the tuning is done, said before its word ('做全参数微调', 'LoRA 微调', 'full fine-tuning': s44 round
40)."""
_OBJECT = (
    r"(?:\s+(?!(?:and|or|then|data|datasets?|loss|speed|time|costs?|throughput|memory|set)\b)[a-z0-9][\w.\-]*)"
    r"{1,4}?\s+(?:and|or)\s+"
)
PAIR_RE = rc(
    rf"(?P<serve1>{_SERVE}){_AND}{_ONLY}{_VERB}?{_HOW}(?:(?P<tune1>{_TUNE})|(?P<train1>{_TRAIN}))"
    rf"|(?:(?P<tune2>{_TUNE})|(?P<train2>{_TRAIN}))(?:{_AND}|\b{_OBJECT}){_ONLY}{_VERB}?(?P<serve2>{_SERVE})"
)
"""A serving word and a tuning or training word joined by a conjunction, in either order; the serving word
may come with its verb ('train and run inference', '训练和做推理'), and an English tuning verb with its object
('fine-tune your LongLoRA models and to run inference on them'; s37-gen, issue 24: the serving was dropped),
never a noun of the training ('training data and inference')."""
NAMED_MODEL_RE = rc(
    r"(?<![a-z0-9])[a-z]{2}[a-z\-_.]*[\s\-_.]?v?\d+(?:\.\d+)?(?:[\-_][a-z0-9.]+)*[\-_\s]*\d+(?:\.\d+)?b\b"
)
"""A model named with its family and size ('internvl2-llama3-76b', 'qwen2.5-7b', 'llama 3 8b'): weights that
exist, so training it beside serving it is its tuning (round 13: was read as a pre-training)."""
SIZE_NAME_RE = rc(r"(?<![\w.])\d+(?:\.\d+)?b\s+(?!v?\d)[a-z][a-z\-_.]*\d+(?:\.\d+)?\b(?!\s*b\b)")
"""A size written before a model's name that carries its own version digit ('the 3B BB3', '7B Llama2'): that
model too (s48-workmiss); a size before a plain noun ('7B 模型', '3B model') is none."""
_GATE_RE = re.compile("推理|部署|上线|serv|infer|deploy")
"""Cheap gate: one C-level search (most messages name no serving word)."""


def coordinated_stage(s: str, stage: str | None) -> list[tuple[str, str]]:
    """``[("stage: <other>", "other_setup")]`` when the normalized text ``s`` asks two stages joined by a
    conjunction and ``stage`` (the one sized) is one of them; else ``[]``."""
    if stage is None or not _GATE_RE.search(s):  # separate_stage's own gate first: no frame when it fails
        return separate_stage(s, stage) if stage in SEPARATE_RE and _SEPARATE_GATE.search(s) else []
    m = PAIR_RE.search(s)
    if m is None:  # r32: tuning asked apart of serving only with its words (C tests, no frame without them)
        tuned = stage != "inference" or "微调" in s or "精调" in s or "fine" in s
        asked = ("训练" in s or "train" in s) and ("多少" in s or "how m" in s or "only for" in s)
        tuned = tuned or asked  # s48: training asked apart ('训练 7B 最低要多少显存'), its cues in C
        return separate_stage(s, stage) or (asked_apart(s, stage) if tuned else [])
    trained = "finetune" if m.group("tune1") or m.group("tune2") else trained_stage(s)
    if stage == "inference":
        return [(f"stage: {trained}", "other_setup")]
    if stage == "finetune" and SERVE_AFTER_TUNING_RE.search(s):
        return []  # named already ('微调完推理跑得动吗')
    return [("stage: inference", "other_setup")]


def trained_stage(s: str) -> str:
    """The stage a bare training word beside serving means in the normalized text ``s``: ``"finetune"`` when a
    tuning word is in it or a model is named with its size (round 13: 'InternVL2-76B 的推理和训练' is tuned,
    not made anew; s37-gen: 'train and run inference of LLaVA', an LLM it tunes; s48: 'the 3B BB3'), else
    ``"pretrain"`` (a pre-training's scale, 'from scratch', keeps it one)."""
    named = (NAMED_MODEL_RE.search(s) or SIZE_NAME_RE.search(s)) and not PRETRAINING_SCALE_RE.search(s)
    named = named or vl_assembly(s)
    return "finetune" if named or lx.FINETUNE_RE.search(s) else "pretrain"


_PRETRAIN_STAGE = (
    r"(?:预训练|pre[\s\-]?training|pretraining)(?!\s*(?:好|过|后|的|出|模型|权重|数据|语料|阶段的模型"
    r"|models?\b|weights?\b|checkpoints?\b|ckpts?\b|data\b|datasets?\b|corpus\b|corpora\b|objective\b))"
)
_TUNE_STAGE = (
    r"(?:微调|精调|fine[\s\-]?tuning|finetuning|(?<![\-_])\bsft\b)(?!\s*(?:好|过|后|的|出|模型|models?\b))"
)
SEPARATE_RE = {"finetune": rc(_PRETRAIN_STAGE), "pretrain": rc(_TUNE_STAGE)}
"""The other of pre-training and fine-tuning named as a stage of its own, in another sentence or clause
('How long did X's pre-training take? And if I fine-tune it…', '预训练用了多少卡？微调呢？'), not as the
adjective of a model or data ('pre-trained weights', '预训练模型', 'pre-training data', '微调后的模型')."""
_SEPARATE_GATE = re.compile("预训练|pre|微调|精调|fine|sft")


def separate_stage(s: str, stage: str | None) -> list[tuple[str, str]]:
    """``[("stage: <other>", "other_setup")]`` when ``stage`` (pre-training or fine-tuning, the one sized)
    and the other are both named as stages in the normalized text ``s``, not joined by a conjunction
    (:data:`bot.parse.prose_forms.TWO_STAGES_RE` reads those); else ``[]``. Session 16: the other was
    dropped in silence."""
    if stage not in SEPARATE_RE or not _SEPARATE_GATE.search(s) or not SEPARATE_RE[stage].search(s):
        return []
    return [(f"stage: {'pretrain' if stage == 'finetune' else 'finetune'}", "other_setup")]


_ASK = r"(?:能不能|能否|可不可以|可以|是否(?:能|可以)?|能)\s*"
ASKED_SERVE_RE = rc(
    rf"{_ASK}(?:进行|做|用|在)?\s*(?:cpu|gpu|显卡|本地)?\s*(?:上\s*)?(?:推理|部署)"
    r"(?!\s*(?:模型|能力|速度|加速|任务|数据|时|阶段|引擎|框架|服务器|后))"
    r"|(?<!微调)(?<!训练)(?:推理|部署)\s*(?:的话\s*)?(?:要|需要|得)\s*(?:多少|几)"
    r"|\b(?:can|could)\s+(?:it|i|we|you|this|they|(?:the\s+|this\s+)?[a-z][\w.\-]*)\s+(?:be\s+)?"
    r"(?:run\s+inference|do\s+inference|served|deployed|serve\s+(?:it|this|the)|deploy\s+(?:it|this|the))\b"
    r"|\b(?:and|same\s+question|what\s+about|how\s+about)\s+(?:(?:for|with)\s+)?(?:inference|serving)\s*[?.]"
)
"""Serving asked as a question of its own ('能不能进行 CPU 推理？', 'can I deploy it?', s48: 'Can vLLM run
inference on this model?', 'could the model be served'; s48 names: 'And for inference?', 'Same question for
inference.'), not as a model's adjective or a phase of a training
job ('推理模型', '推理速度', '推理加速')."""
ASKED_TUNE_RE = rc(
    rf"{_ASK}(?:进行|做)?\s*(?:模型\s*)?(?:微调|精调)(?!\s*(?:后|过|好|的|出|模型))"
    r"|\b(?:can|could)\s+(?:it|i|we|you|this|they)\s+(?:be\s+)?fine[\s\-]?tun(?:e|ed)(?:\s+it)?\b"
)
"""Fine-tuning asked as a question of its own ('能不能做模型微调？', 'can I fine-tune it?')."""
ASKED_TRAIN_RE = rc(
    r"(?<![预后])(?:训练|微调|精调)(?!\s*(?:好|过|后|完|出|的|时|中|数据|集|速度|框架|代码|脚本|模型))"
    r"[^，。？！,.?!；;]{0,24}?(?:最少|最低|至少)?\s*(?:要|需要|得|占)\s*(?:多少|几|多大)"
    r"|(?<!after\s)(?<!post-)(?<!post\s)\b(?:train(?:ing)?|fine[\s\-]?tun(?:e|ing))\b"
    r"(?!\s+(?:data|datasets?|sets?|speed|scripts?|code|logs?|loss|framework)\b)"
    r"[^.?!;]{0,40}?\b(?:how\s+much|how\s+many)\s+(?:gpu\s+|v?ram\b|memory\b|gpus?\b|cards?\b|vram\b)"
    r"|\b(?:need|take|use)\b[^.?!;]{0,60}?\bonly\s+for\s+(?:training|fine[\s\-]?tuning)\b"
    r"|\bhow\s+(?:much|many)\s+(?:gpus?|v?ram|memory|cards?)\b[^.?!;]{0,40}?\bfor\s+"
    r"(?:pre-?)?(?:train(?:ing)?|fine[\s\-]?tun(?:e|ing))\b(?!\s+(?:data|datasets?|sets?|speed|scripts?|code)\b)"
)
"""s48-workmiss (issue 24 item 4): training asked as a need of its own beside serving ('训练 7B 模型最低要多少
显存？70B 放在 8 张 H100 上推理…', 'Fine-tuning it, how much memory? And serving…', 'will it need this much
for inference, or only for training?'; s48 names: 'How much VRAM does RWKV need for training? … Same question
for inference', the need before the stage), not the job that made the served model ('训练好的模型推理要多少',
'after training, how much memory to serve')."""


def asked_apart(s: str, stage: str | None) -> list[tuple[str, str]]:
    """Round 32: serving and tuning each asked as a question of its own ('最低显卡需求要多少？能不能进行 CPU
    推理？能不能做模型微调？', 'Can it run inference on a CPU? Can I fine-tune it?'): the stage not sized is
    named as another setup. Serving after the tuning ('微调后能不能部署') is one job, named elsewhere."""
    if stage == "inference":  # the caller asked its words in C first
        if ASKED_TUNE_RE.search(s):
            return [("stage: finetune", "other_setup")]
        return [(f"stage: {trained_stage(s)}", "other_setup")] if ASKED_TRAIN_RE.search(s) else []
    if stage not in ("finetune", "pretrain") or not ASKED_SERVE_RE.search(s):
        return []
    if SERVE_AFTER_TUNING_RE.search(s):
        return []
    return [("stage: inference", "other_setup")]
