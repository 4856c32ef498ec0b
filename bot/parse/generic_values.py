"""A general key–value reader (issue 24, session 10): any request field's name, then its value — or the
value, then the name — in phrasings no specific reader was written for ("batch 设置成 4", "梯度累积步数我开的
16", "context of 32k", "rank 是 64 的 lora", "16 steps of grad accumulation").

It runs after every specific reader (:mod:`bot.parse.assemble`), on the numbers they left with no role
(the *unread* ones), and fills only fields still unset. One vocabulary names every field:

- the tools' own keys from the meaning table (:data:`bot.parse.configs.meaning.MEANING`: each key's
  field, the numeric ones; the serving flags of :data:`bot.parse.configs.launchers.SERVE_FLAGS`), so a
  key learned there is known here;
- the contract's own field names (``seq_len``, ``lora_rank``, ``tp`` …: :class:`SizingRequest`);
- the words people use in both languages (:data:`WORDS`, declared once here: a specific reader builds
  its pattern from them with :func:`words_pattern`, as :data:`bot.parse.settings.UTIL_RE` does).

A key and its value are joined by an assignment word (=, :, 为, 设为, 设成, 是, of, is, set to, at) or by
up to three words of filler ("我开的", "I used"); a value before its key by a unit or filler word ("steps
of", "的", "个"). A clause ends at punctuation or another number, and a filler with a negation ("不是",
"not") joins nothing. The value is checked against its field's type and bounds as the request declares
them (:func:`estimator.request.bounds`, the field's pydantic constraints) and its scope (a training
setting is not placed in a serving question). A number it cannot place stays unread (named as such).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from bot.parse.numbers import NumberToken
from bot.parse.phrasing_zh import SET_VERBS_ZH
from bot.parse.regex import rc
from bot.parse.roles import seq_value

ACCUMULATION = "gradient_accumulation_steps"
"""Not a request field: the steps go into the global batch (micro × steps × DP; field_steps)."""

WORDS: dict[str, tuple[str, ...]] = {
    "seq_len": (
        "sequence length", "seq length", "seq len", "context length", "context window", "context size",
        "context", "max length", "maximum length", "cutoff length", "max seq len",
        "max tokens per sample",
        # s30: the length as a token count ('最大 token 数设 8192', 'a maximum token count of 8192')
        "max token count", "maximum token count", "max number of tokens", "maximum number of tokens",
        "max token length", "maximum token length", "token limit", "max req total len",  # r35: LightLLM's
        "max position embeddings",  # round 26: the model config's window, raised to serve a longer context
        "序列长度", "序列长", "上下文长度", "上下文窗口", "上下文", "最大长度", "截断长度", "样本长度",
        "最大 token 数量", "最大 token 数", "最大 token 长度", "最大 tokens", "token 上限", "最大 token",
        "训练长度", "长度",
        "句长", "句子长度",  # s38-gen: a sentence's length ('句长 512'); never bare 'length' ('cable length')
        # round 37: a serving summary's window as a token count ('Context tokens 131072',
        # '上下文 token 数 32768')
        "context tokens", "context token count", "上下文 tokens", "上下文 token 数", "上下文 token",
        # r43 en: ParlAI's input truncation, the tokens a sample is cut to (parlai/core/torch_agent.py:
        # --truncate, --text-truncate; '--text-truncate 512 --truncate 512')
        "text truncate", "truncate",
    ),
    "batch_size": (
        "micro batch size", "micro batch", "micro-batch", "batch size per gpu", "batch size per device",
        "per device batch size", "per-device batch size", "batch size", "batch", "bs", "mbs",
        "bsz",  # round 32: fairseq / MOSS-style short form ('bsz=1')
        "in batches of",  # round 26: 'embedded in batches of 32'
        "每卡批大小", "批大小", "批次大小", "批量大小", "每卡 batch", "单卡 batch",
        "批处理大小", "batch 大小", "批量",  # s38-gen: '批处理大小 4', 'batch 大小为 4', '批量设为 4'
    ),
    ACCUMULATION: (
        "gradient accumulation steps", "gradient accumulation", "grad accumulation steps",
        "grad accumulation", "grad accum steps", "grad accum", "accumulation steps", "accumulation",
        # the key as each tool spells it: PyTorch Lightning Trainer(accumulate_grad_batches), xtuner/mmengine
        # accumulative_counts, fairseq --update-freq, lit-gpt gradient_accumulation_iters, caikit-nlp's
        # examples/run_fine_tuning.py --accumulate_steps (round 20)
        "accumulate grad batches", "accumulate grad", "accumulative counts", "update freq",
        "gradient accumulation iters", "accum steps", "accum iters", "accumulate steps",
        "accum grad",  # round 24: wenet/ESPnet's accum_grad (wenet/bin/train.py)
        "梯度累积步数", "梯度累积", "梯度累计步数", "梯度累计", "梯度累加步数", "梯度累加",
        "累积步数", "累加步数", "累计步数",
        "累积梯度", "累加梯度", "梯度累积次数", "梯度累加次数",  # s38-gen: the words the other way round
    ),
    "global_batch": (
        "global batch size", "global batch", "effective batch size", "effective batch", "total batch size",
        "全局批大小", "全局 batch", "总 batch", "总批大小",
        "总批量", "全局批量", "总 batch size", "global bs", "total bs", "总 bs", "全局 bs",  # s38-gen
    ),
    "epochs": ("epochs", "训练轮数", "轮数", "轮次", "epoch 数"),  # 'epoch 2': the second one
    "lora_rank": ("lora rank", "lora r", "rank", "秩", "lora 秩", "lora 维度", "lora dimension"),
    "tp": (
        "tensor parallel size", "tensor parallelism", "tensor parallel", "tensor model parallel size",
        "tp size", "tp", "张量并行度", "张量并行数", "张量并行",
        "tp 数", "tp 大小", "张量并行规模", "张量并行大小",  # s38-gen
    ),
    "pp": (
        "pipeline parallel size", "pipeline parallelism", "pipeline parallel", "pp size", "pp",
        "流水线并行度", "流水线并行数", "流水线并行", "流水并行", "管道并行度", "管道并行", "管线并行",
        "pp 数", "pp 大小", "流水线并行规模", "流水线并行大小", "流水线级数",  # s38-gen
    ),
    "zero_stage": (
        "zero stage", "deepspeed stage", "zero 阶段",
        "zero", "deepspeed 阶段",  # s38-gen: a Chinese numeral after the name ('ZeRO 三', 'zero 二阶段')
    ),
    "num_generations": (
        "num generations", "generations per prompt", "completions per prompt", "samples per prompt",
        "rollouts per prompt", "responses per prompt", "group size", "rollout n",
        "n samples", "n samples per prompt",  # round 27: AReaL's gconfig.n_samples (samples per prompt)
        "每个 prompt 采样数", "每个 prompt 的采样数", "采样数", "组大小",
        "rollout 数", "rollout 数量", "生成数", "生成数量", "采样次数", "num rollouts",  # s38-gen
    ),
    "max_completion_length": (
        "max completion length", "completion length", "response length", "max new tokens",
        "generation length", "回复长度", "生成长度", "回答长度",
        # round 36: minimind's --max_gen_len
        "max gen len", "max gen length", "max generation length", "最大生成长度",
    ),
    # round 24: a RAG chunk is one input of an embedding or reranker model ('a chunk size of 512')
    "prompt_tokens": ("chunk size", "chunk length"),
    "max_num_seqs": (
        "max num seqs", "max concurrent sequences", "max seqs", "max sequences",
        "最大并发序列数", "最大序列数",  # s38-gen
    ),
    "concurrency": (
        "concurrency", "concurrent users", "concurrent requests", "parallel requests",
        "并发数", "并发量", "并发", "并发用户数",
        "concurrent sessions", "concurrent connections", "并发请求数", "并发请求", "并发连接数",  # s38-gen
        "并发线程", "并发线程数", "concurrent threads",  # round 36: a load tester's ('并发线程 100 个')
    ),
    "gpu_count": (
        "number of gpus", "gpu count", "num gpus", "卡数", "显卡数量", "显卡数", "gpu 数量", "gpu 数",
        # round 25: Lightning Fabric's / Trainer's devices, torch.distributed's world_size
        "devices", "num devices", "world size",
        "gpu 个数", "显卡个数", "卡的数量", "卡数量", "gpu 数目", "显卡数目", "卡的个数",  # s38-gen
    ),
    "num_samples": (
        "number of samples", "num samples", "sample count", "n training samples", "num training samples",
        "train samples", "training samples",  # round 22: Megatron-LM's --train-samples
        "样本数", "样本量", "数据条数",
    ),
    "gpu_memory_utilization": (
        "gpu memory utilization", "gpu memory utilisation", "memory utilization", "mem fraction static",
        "显存利用率", "显存占用比例", "显存占比",
        "gpu memory fraction", "显存使用率", "显存使用比例", "显存比例",  # s38-gen
    ),
}  # fmt: skip
"""The words people write for each field, English and Chinese (lower case; a space matches any run of
spaces, '_' or '-')."""

_ASSIGN_ZH = tuple(
    sorted(
        dict.fromkeys((*SET_VERBS_ZH, "为", "调为", "开的", "开了", "用的", "用了", "设的", "设了", "是")),
        key=len,
    )[::-1]
)
"""The Chinese assignment words: the prose reader's setting verbs (:data:`bot.parse.phrasing_zh.SET_VERBS_ZH`,
one list for both readers) and the past forms a value follows ('我开的 16', '设了 3')."""
_ASSIGN = "=|" + "|".join(_ASSIGN_ZH) + r"|set\s+to|set\s+at|of\s+size|to|of|is|at|was|=\s*"
_NEGATION = re.compile(
    r"不|没|未|别|无|从|由|小于|大于|超过|低于|高于|以上|以下|以内|之内|至少|至多|最多|最少|最高|最低|之前|原来"
    r"|(?<![a-z])(?:not|no|never|without|isn't|wasn't|don't|didn't|from|than|below|above|over|under|beyond"
    r"|before|previously|instead|at\s+least|at\s+most|up\s+to|upto|min|minimum|max|maximum)(?![a-z])"
)
"""Words that make a value not the setting: a negation, a bound ('小于 64', 'more than', 'at least',
'up to', '至少', '最多', '不超过'), an old value ('lowered from 16 to 4', '原来是 8')."""
_FILLER = (
    r"i|we|you|they|it|our|my|the|a|we're|i'm|i've|we've|use|used|using|pick|picked|chose|choose|chosen"
    r"|set|setting|expect|expected|plan|planned|want|need|run|ran|is|was|are|were|be|will|would|should"
    r"|around|about|roughly|approximately|approx|~|maybe|probably|typically|usually|currently|now|just"
    r"|then|also|like|value|so|already|still|again|test|tested|testing"
)
"""The closed list of English filler words between a key and its value ('the rank we picked is 32', 'the batch
size I tested is 4'); any other word ends the join ('context: we have 2 teams': 'have' is no filler)."""
_FILLER_ZH = (
    r"我们|咱们|我|大概|大约|约|预计|估计|一般|差不多|通常|目前|现在|就|都|也|设|用|开|选|取|的|了"
    r"|已经|已|曾经|刚刚|刚|又|再|还是|还|仍然|依然|仍|一直|统一|全部|暂时|默认|最终|后来"
    r"|打算|准备|计划|分别|测试|测|试"  # s50-r46zh: a value planned or tested ('batch_size 打算测 1、4、8')
)
"""Chinese words between a key and its value: pronouns, hedges, the setting verbs' short forms, the aspect and
time adverbs ('长度已改成 4096', 'rank 还是 16'); the closed list of filler runs ('序列长度我设的 4096')."""
_FILL = (
    rf"(?:\s*(?:(?:{_ASSIGN}|{_FILLER})(?![a-z])|{_FILLER_ZH})){{0,3}}\s*(?:[:=：]\s*)?"
    rf"|\s*[:=：]\s*"
)
"""Between a key and its value: up to three assignment or filler words, then an optional ':' or '='
('batch size we use: 8'); or a ':' alone ('context: 2k'), never ': we have' before the value."""
_FILL_RE = re.compile(rf"^(?:{_FILL})$")
_UNIT_AFTER = (
    r"^\s*(?:(?:steps?|tokens?|k|个|步|次|的|位|层|条|轮|of|for|as|the|in|with|on)(?![a-z])\s*){{0,3}}"
    r"(?P<k>{keys})(?![a-z0-9])"
)
_BOUNDARY = re.compile(r"[,，。;；!?！？\n()（）\[\]{}\d]|\s{3,}")
_LAST_BOUNDARY = re.compile(rf"(?s:.*)(?:{_BOUNDARY.pattern})")
_SEQ_FIELDS = frozenset({"seq_len", "max_completion_length", "max_model_len", "prompt_tokens"})
_SEQ_FLOOR = 16
"""The fewest tokens a length the grammar places may have: a bare small number beside 'context' is no
context ('context: we have 2 teams')."""
_RL_ONLY = frozenset({"num_generations"})
"""Fields placed only when an RL algorithm is stated: a GPTQ 'group size 128' is no GRPO group."""
_RL = frozenset({"grpo", "ppo", "rloo"})
_COUNT_OWNED = frozenset({"gpus_per_node", "gpu_count_max"})
"""Fields only the count readers set: a machine's size or a range's top means nothing without the count
beside it ('NPROC_PER_NODE=7 on 8 GPUs': the 8 is the GPUs, never the machine's size)."""


HOST_CORES_AFTER = rc(
    r"^\s*(?:个\s*)?(?:(?:cpu|物理|physical|logical|逻辑)\s*)?(?P<k>核心?|cores?|vcpus?|threads?|线程)(?![a-z])"
    r"(?!\s*(?:的\s*)?(?:gpu|显卡|npu|图形))"
)
"""After a number: a CPU's cores or threads ('16 核', '16 CPU cores', '32 vCPUs', '20 核 40 线程'); not a
GPU's cores ('38 核 GPU', '76-core GPU' of an Apple chip)."""
HOST_CORES_BEFORE = rc(
    r"(?:cpu|vcpus?)\s*(?:核数|核心数|cores?)?\s*[:：=]\s*$|(?:cpu\s*)?核(?:心)?数\s*(?:[:：=]|为|是)?\s*$"
)
"""Before a number: the CPU's cores by their key ('CPU: 8', 'vCPUs: 16', 'CPU 核数：32')."""
CPU_BOUND_RUNTIMES = frozenset({"llama.cpp", "Ollama", "KTransformers", "LM Studio", "llamafile"})
"""Engines that run part of a model on the CPU: there its cores change the time (no field for them yet)."""


def host_cores(s: str, tok: NumberToken, left: str, right: str, fields: dict[str, Any]) -> Placed | None:
    """s35-gen: a host's CPU cores or threads beside an unread number ('16 核 CPU', 'CPU: 8', '32 vCPUs'),
    named by the key ``cpu_cores`` / ``cpu_threads`` as not used, never left unread: the sizing has no
    field for them; on a CPU-offloading engine or with no GPU said they change the time ('no_field'),
    otherwise the GPUs hold everything and they change nothing sized ('not_sized'). A whole count from 1
    to 1024."""
    if tok.mag or not float(tok.value).is_integer() or not 1 <= tok.value <= 1024:
        return None
    m = HOST_CORES_AFTER.match(right)
    if m is None and HOST_CORES_BEFORE.search(left) is None:
        return None
    field = "cpu_threads" if m is not None and m.group("k") in ("thread", "threads", "线程") else "cpu_cores"
    cpu_only = not fields.get("gpu") and "gpu" not in s and "显" not in s and "vram" not in s  # '8 vCPUs'
    cpu_bound = cpu_only or fields.get("offload") or fields.get("runtime") in CPU_BOUND_RUNTIMES
    return Placed(field, tok.value, tok, "no_field" if cpu_bound else "not_sized")


@dataclass(frozen=True)
class Placed:
    """One unread number the reader placed: the field, the value, the token; ``reason`` why it is not used
    when it is not (s34-gen): its field is of the other kind of job ('training_only' / 'serving_only'), or
    the field holds another value already ('repeated')."""

    field: str
    value: float
    tok: NumberToken
    reason: str | None = None


_SEP = r"(?:[_\-]|\s(?!\s*-))*"
"""Between a key's words: '_', '-' or spaces, never a space before a dash, which starts the next flag (round
10: 'vllm --max_model_len 8192' of an ms-swift command was read as 'vllm_max_model_len', the engine word
masked with it)."""


def _trie(words: list[str]) -> str:
    """One regex for many keys (a NUL between words matches any run of spaces, '_' or '-'), factored by
    shared prefixes, character by character: the regex engine tries each first character once, not each
    of the few hundred keys at every position."""
    groups: dict[str, list[str]] = {}
    end = False
    for w in words:
        if w:
            groups.setdefault(w[0], []).append(w[1:])
        else:
            end = True
    alts = []
    for head, rest in sorted(groups.items()):
        alts.append((_SEP if head == "\0" else re.escape(head)) + _trie(rest))
    if not alts:
        return ""
    body = alts[0] if len(alts) == 1 and not end else "(?:" + "|".join(alts) + ")"
    return body + ("?" if end and alts else "")


def _parts(word: str) -> str:
    return "\0".join(p for p in re.split(r"[\s_\-]+", word.strip()) if p)


_NUMERIC = frozenset({"int", "epochs", "generations", "zero_stage"})
"""Conversions of the meaning table whose value is the field's number as written."""


def words_pattern(name: str) -> str:
    """The words of field ``name`` (:data:`WORDS`) as one regex, a space matching any run of spaces, '_'
    or '-': the one declaration a specific reader's pattern is built from (``UTIL_RE``)."""
    return _trie([_parts(w) for w in WORDS[name]])


@cache
def vocabulary() -> dict[str, str]:
    """Every key as people write it (lower case) → the request field (or :data:`ACCUMULATION`): the
    meaning table's numeric training keys (:mod:`bot.parse.configs.meaning`, with a nested key's short
    forms), the serving flags, the contract's field names
    and :data:`WORDS`. Built once, on the first question that needs it."""
    from bot.parse.configs.launchers import SERVE_FLAGS
    from bot.parse.configs.meaning import short_forms, training_rows
    from estimator.models import SizingRequest

    out: dict[str, str] = {}
    for key, (name, conv) in training_rows().items():
        if conv == "accumulation":
            out[key] = ACCUMULATION
        elif name is not None and conv in _NUMERIC:
            out[key] = name
    for table in SERVE_FLAGS.values():
        for flag, (name, kind) in table.items():
            bare = flag.lstrip("-")
            if kind in ("int", "float") and len(flag) > 3 and re.search(r"[_\-]", bare):
                out.setdefault(bare, name)  # '-c', '--tp', '--parallel': one word, no key outside a command
    for name, info in SizingRequest.model_fields.items():
        if info.annotation in (int | None, float | None) and "_" in name and name not in _COUNT_OWNED:
            out.setdefault(name, name)
    for name, words in WORDS.items():
        for w in words:
            out.setdefault(w, name)
    written = {re.sub(r"[\s_\-]+", " ", k) for k in out}
    for short, key in short_forms().items():  # 'rollout.n', 'ppo_micro_batch_size_per_gpu' (verl)
        if key in out and re.sub(r"[\s_\-]+", " ", short) not in written:
            out[short] = out[key]
    return {k: v for k, v in out.items() if len(k) > 1 or not k.isascii()}  # peft's 'r': 'r=8' only


@cache
def _compiled() -> tuple[re.Pattern[str], re.Pattern[str], dict[str, str]]:
    vocab = vocabulary()
    alt = _trie([_parts(k) for k in vocab])
    key_re = re.compile(rf"(?<![a-z0-9_.\-])-{{0,2}}(?P<k>{alt})(?![a-z0-9])")  # 'max-concurrent-…': another
    after_re = re.compile(_UNIT_AFTER.format(keys=alt))
    canon = {re.sub(r"[\s_\-]+", " ", k): v for k, v in vocab.items()}
    return key_re, after_re, canon


@cache
def _close_table() -> tuple[tuple[tuple[str, str], ...], frozenset[str]]:
    """(every vocabulary key, spaced, with its field; every key any table knows, spaced): what
    :func:`bot.parse.close_keys.close_field` corrects a typed key against (s23)."""
    from bot.parse.configs.launchers import SERVE_FLAGS
    from bot.parse.configs.meaning import training_rows

    canon = _compiled()[2]
    tables = [*training_rows(), *(f.lstrip("-") for t in SERVE_FLAGS.values() for f in t), *canon]
    return tuple(sorted(canon.items())), frozenset(re.sub(r"[\s_\-.]+", " ", k) for k in tables)


def _close_key_before(left: str) -> str | None:
    """The field of a misspelled compound key ending ``left`` before its value's filler ('max_seq_lenght:
    ', 'tensor_paralel_size = '), by :func:`bot.parse.close_keys.close_field`; None without one."""
    m = CLOSE_CUE_RE.search(left)
    if m is None or _NEGATION.search(left[m.end() :]) or not _FILL_RE.match(left[m.end() :]):
        return None
    from bot.parse.close_keys import close_field

    return close_field(m.group("k"), *_close_table())


CLOSE_CUE_RE = rc(rf"(?<![a-z0-9_.\-])-{{0,2}}(?P<k>[a-z][a-z0-9]*(?:[_\-][a-z0-9]+)+)(?:{_FILL})$")
"""A compound key, then the filler before a value: the cheap cue before a typo is looked for."""


def _field_of(written: str, canon: dict[str, str]) -> str | None:
    return canon.get(re.sub(r"[\s_\-]+", " ", written.strip().lstrip("-")))


def _clause(s: str, tok: NumberToken) -> tuple[str, str]:
    """The text of the clause before and after ``tok``, up to punctuation or another number."""
    left = s[max(0, tok.start - 96) : tok.start]  # verl's keys run to 54 characters
    last = _LAST_BOUNDARY.match(left)
    cut = last.end() if last else 0
    right = s[tok.end : tok.end + 48]
    stop = _BOUNDARY.search(right)
    return left[cut:], right[: stop.start()] if stop else right


def _key_before(left: str, key_re: re.Pattern[str], canon: dict[str, str]) -> str | None:
    last = None
    for m in key_re.finditer(left):
        last = m
    if last is None or _NEGATION.search(fill := left[last.end() :]) or not _FILL_RE.match(fill):
        return None
    return _field_of(last.group("k"), canon)


_LIST_WORD = r"(?:,|，|、|/|\bor\b|\band\b|或者|或|和|还是|以及|及)"
LIST_ENDS = (" or", " and", "、", "/", "或", "和", "及", "还是")
"""Just before an unread number: a conjunction or an enumeration mark ('…, 20 or 50', '100、120、150')."""
LISTED_NEXT_RE = rc(r"\s*[km]?\s*[,，]?\s*(?:or\b|and\b|或|和|还是|、)\s*\d")
"""After an unread number a comma comes before: the list goes on to its last item ('5, 20 or 50')."""
LIST_BEFORE_RE = rc(
    rf"(?<![\d.])\d+(?:\.\d+)?\s*[km]?(?:\s*{_LIST_WORD}\s*\d+(?:\.\d+)?\s*[km]?)*\s*{_LIST_WORD}\s*$"
)
"""The items of a list before its next item ('5, 20 or ' before '50'; '100、120、' before '150')."""
COMMA_RUN_RE = rc(r"(?<![\d.])\d{1,6}(?:\s*[,，]\s*\d{1,6}){2,}(?![\d.%])")  # s50: '1, 4, 8' ('1、4、8')


def _listed_field(s: str, tok: NumberToken, key_re: re.Pattern[str], canon: dict[str, str]) -> str | None:
    """The field of the key before the first item of a list ``tok`` ends ('a target concurrency of 5, 20 or
    50', '并发数 100、120 或 150', 'batch size 1, 2 and 4'): each further item is another value of that key,
    named as another setup (other_setup) where the first is used (s36, issue 24); None when no list or key."""
    if (m := LIST_BEFORE_RE.search(s, max(0, tok.start - 48), tok.start)) is None:
        return None
    left = s[max(0, m.start() - 96) : m.start()]
    last = _LAST_BOUNDARY.match(left)
    return _key_before(left[last.end() if last else 0 :], key_re, canon)


def _run_at(s: str, tok: NumberToken) -> bool:  # ``tok`` a later item of 3+ numbers joined by commas alone
    m = COMMA_RUN_RE.search(s, max(0, tok.start - 24), min(len(s), tok.end + 24))
    return m is not None and m.start() < tok.start < m.end()


def _bounds(name: str) -> tuple[float, float, bool]:
    """(lowest, highest, integer) a stated value of field ``name`` may take, from its declaration."""
    from estimator.models import SizingRequest
    from estimator.request import setting

    if name == ACCUMULATION:
        return 1, 65_536, True
    info = SizingRequest.model_fields[name]
    low, high = setting(name).get("stated") or (0.0, math.inf)
    for c in info.metadata:
        low = max(low, getattr(c, "ge", None) if getattr(c, "ge", None) is not None else low)
        if getattr(c, "gt", None) is not None and low <= c.gt:
            low = c.gt + (1 if info.annotation == int | None else 1e-9)
        high = min(high, getattr(c, "le", None) if getattr(c, "le", None) is not None else high)
    return low, high, info.annotation == int | None


def _value(name: str, tok: NumberToken) -> float | None:
    value = seq_value(tok) if name in _SEQ_FIELDS else tok.value
    low, high, integer = _bounds(name)
    low = max(low, _SEQ_FLOOR) if name in _SEQ_FIELDS else low
    if integer and not float(value).is_integer():
        return None
    return value if low <= value <= high else None


def place_unread(
    s: str,
    toks: list[NumberToken],
    fields: dict[str, Any],
    accumulation: int | None,
    named: list[tuple[str, str]] = (),
) -> list[Placed]:
    """The unread numbers ``toks`` of the normalized, masked text ``s`` that a field's name beside them
    places, each in a field ``fields`` left unset (:data:`ACCUMULATION` when no accumulation was read);
    one whose field is of the other kind of job ('in batches of 32' of an embedding run), or holds another
    value already, comes with its ``reason``, to be named as not used rather than left unread (s34-gen).
    A key a specific reader named already (``named``: 'cache_max_entry_count: 0.6', no_field) is its
    decision, not read again from another mention. Fields and values are checked, not set: the caller
    sets them."""
    if not toks:
        return []
    key_re, after_re, canon = _compiled()
    done: set[str | None] | None = None
    from estimator.request import setting

    training = fields.get("stage") not in (None, "inference")
    host = "核" in s or "core" in s or "cpu" in s or "线程" in s or "thread" in s  # s35: a host's cores
    out: list[Placed] = []
    for tok in toks:
        left, right, comma = *_clause(s, tok), False
        name = _key_before(left, key_re, canon)
        if name is None:
            m = after_re.match(right)
            name = _field_of(m.group("k"), canon) if m else None
        if name is None and ("_" in left or "-" in left):  # s23: 'max_seq_lenght: 4096', a key mistyped
            name = _close_key_before(left)
        if name is None and host and (cores := host_cores(s, tok, left, right, fields)) is not None:
            out.append(cores)
        listed = name is None and (
            s[max(0, tok.start - 8) : tok.start].rstrip().endswith(LIST_ENDS)
            or (s[tok.start - 2 : tok.start].strip() in (",", "，") and LISTED_NEXT_RE.match(s, tok.end))
            or (s[tok.start - 2 : tok.start].strip() in (",", "，") and (comma := _run_at(s, tok)))  # s50
        )
        name = _listed_field(s, tok, key_re, canon) if listed else name  # s36: 'concurrency of 5, 20 or 50'
        if name is None:
            continue
        done = done if done is not None else {_field_of(t.split(":")[0], canon) for t, _ in named if ":" in t}
        if name in done:
            continue
        declared = {} if name == ACCUMULATION else setting(name)
        scope, methods = declared.get("scope"), declared.get("methods") or ()
        if name in _RL_ONLY and fields.get("algorithm") not in _RL:  # GPTQ's 'group size 128'
            continue
        if (scope == "training" and fields.get("stage") == "inference") or (scope == "serving" and training):
            if listed and comma and fields.get(name) is not None:  # s50: read already, its rows
                continue
            value = _value(name, tok)  # s34-gen: named by its key, as not used for this job (never 'unread')
            first = listed and f"{scope}_only" in {p.reason for p in out if p.field == name}  # s50: a list's
            if value is not None and (first or name not in {p.field for p in out}):  # each item named so
                out.append(Placed(name, value, tok, f"{scope}_only"))
            continue
        if methods and fields.get("method") not in methods:  # 'rank 3' of a full fine-tuning: a process
            continue
        value = _value(name, tok)
        taken = accumulation if name == ACCUMULATION else fields.get(name)
        taken = next((p.value for p in out if p.field == name and p.reason is None), taken)
        if value is not None and (taken is None or taken == value):  # the same value again: used
            out.append(Placed(name, value, tok))
        elif value is not None:  # s34-gen: a second value of a field set already: named, never unread
            out.append(Placed(name, value, tok, "other_setup" if listed else "repeated"))
    return out
