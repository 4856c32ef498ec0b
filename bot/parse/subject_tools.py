"""A tool named in lower case as the subject of its clause (s43 issue 24): 'optiml says it needs 40GB',
'fooserve takes 30 s per answer', 'xinfer 报错 out of memory'.

People name the program that ran or estimated the job as the subject of what it did: it says, shows,
gives, takes, crashes, 报错, 显示. The known tools are read there already (their patterns run on the
lower-cased text: 'vllm gives me 20 tok/s', 'ollama 报错' read vLLM and Ollama). A name no table has was
dropped in silence, since :mod:`bot.parse.tool_slots` reads a lower-case English word only in a tool's
noun or means slot. This slot is as narrow: a lower-case name opening a clause, right before a verb of
what software does (:data:`SUBJECT_TOOL_RE`); never a closed-class word ('it says', 'this takes'), a
setting or method word, an adjective- or act-shaped word ('training takes', 'generation takes'), a word of
running code (:data:`bot.parse.tool_slots.SLOT_WORDS`: 'inference takes'), a monitor (:data:`MONITORS`:
'nvidia-smi shows' reports memory, it runs no job), what a run shows (:data:`RUN_NOUNS`: 'memory shows',
'loss keeps'), a card, nor a name another reader knows (a model, a tool of a table). Named as typed: the
training tool in a training question, the runtime in a serving one
(:func:`bot.parse.lower_tools.tool_item`). Left: a model family's name joined to a word ('llama-chat
takes …') stays the model readers' (named as another model)."""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.parse.gpus import is_gpu_name
from bot.parse.lower_tools import ADJECTIVE_RE, PLATFORM_RE, SETTING_WORD_RE, tool_item
from bot.parse.model_names import NOT_NAMES
from bot.parse.model_stopwords import FUNCTION_WORDS, NOT_MODEL_NAMES

VERB_CUES = (
    " says", " said", " tells", " told", " reports", " reported", " shows", " showed", " gives", " gave",
    " takes", " took", " throws", " threw", " crash", " fails", " failed", " errors", " errored", " returns",
    " returned", " outputs", " prints", " printed", " complain", " hangs", " hung", " refuse", " estimate",
    " recommend", " claim", " keeps", " won't", " doesn't", " can't", " cannot", " is giving", " is taking",
    " is showing", " is saying", " is throwing", " is stuck", " is slow", " is very slow",
    "报错", "显示", "提示", "说", "输出", "崩", "卡住", "卡死", "一直", "很慢", "太慢", "启动失败",
)  # fmt: skip
"""The verbs' literals (:data:`SUBJECT_TOOL_RE`): the call site tests them in C (one ``in`` each, no
frame) before it calls :func:`subject_tools`."""
SUBJECT_TOOL_RE = re.compile(
    r"(?:^|(?<=[,;:!?，。；：！？\n(（])|(?<=\.\s))\s*(?:(?:and|but|so|then|now|also)\s+)?"
    r"(?P<name>[a-z][a-z0-9]*(?:[\-_.][a-z0-9]+)*)"
    r"(?:\s+(?:(?:says|said|tells|told|reports|reported|shows|showed|gives|gave|takes|took|throws|threw"
    r"|crashes|crashed|fails|failed|errors|errored|returns|returned|outputs|prints|printed|complains"
    r"|complained|hangs|hung|refuses|refused|estimates|estimated|recommends|recommended|claims|claimed"
    r"|keeps|won't|doesn't|can't|cannot)\b|is\s+(?:giving|taking|showing|saying|throwing|stuck|slow|very\s+slow)\b)"
    r"|\s*(?:报错|显示|提示|说|输出|崩了|崩溃|卡住|卡死|一直|很慢|太慢|启动失败))"
)
"""A lower-case name (letters and digits, parts joined by '-', '_' or '.') opening a clause (the message's
start, after a clause's punctuation or 'and'/'but'/'so'), then a verb of what a program does: 'optiml says',
'fooserve takes', 'bar-chat is giving', 'mytool 报错', 'xx 显示'. Case kept (the raw text): a capitalized
name is read by :mod:`bot.parse.unknown_tools`."""
MONITORS = frozenset(
    ("nvidia-smi", "nvtop", "htop", "top", "gpustat", "rocm-smi", "npu-smi", "xpu-smi", "dmesg", "free",
     "nvitop", "watch", "ps", "journalctl", "wandb", "tensorboard")
)  # fmt: skip
"""Programs that show a machine's state or log a run (NVIDIA's nvidia-smi, AMD's rocm-smi, Huawei's
npu-smi, htop, W&B, TensorBoard): they report memory or speed, they run no job."""
RUN_NOUNS = frozenset(
    ("memory", "vram", "ram", "loss", "speed", "throughput", "latency", "output", "error", "log", "logs",
     "everything", "something", "nothing", "system", "process", "job", "result", "answer", "response",
     "docs", "doc", "documentation", "calculator", "estimate", "math", "code", "program", "computer",
     "machine", "card", "gpu", "cpu", "it", "he", "she", "someone", "colleague", "friend", "boss", "prefill",
     "decode", "decoding", "loading", "startup", "oom", "cuda", "torch", "pytorch", "python", "console",
     "terminal", "website", "page", "readme", "guide", "paper", "blog", "chatgpt", "claude", "gemini")
)  # fmt: skip
"""What a run shows or a person or page says ('memory shows', 'loss keeps', 'the docs say', 'chatgpt says'):
the subject of such a verb that is no tool of the job."""
PEOPLE_NOUNS = frozenset(
    ("finance", "management", "manager", "managers", "legal", "sales", "marketing", "hr", "procurement",
     "accounting", "leadership", "support", "ops", "devops", "team", "client", "customer", "customers",
     "vendor", "supplier", "provider", "professor", "advisor", "supervisor", "mentor", "teacher", "author",
     "maintainer", "admin", "sysadmin", "ceo", "cto", "cfo", "coworker", "everyone", "nobody", "somebody",
     "anyone", "they", "people", "community", "internet", "google", "reddit", "forum", "leader", "engineer",
     "engineers", "intern", "user", "users", "benchmark", "profiler", "dashboard", "report", "quote",
     "invoice", "bill", "budget", "price", "cloud", "aws", "azure", "gcp", "openai", "anthropic")
)  # fmt: skip
"""People, departments and things that say or show a figure ('finance says the budget is $500', 'sales
quotes …'): no tool of the job either (s43 review: 'finance' was named a training framework)."""


def subject_tools(raw: str, training: bool, known: Callable[[str], bool]) -> list[tuple[str, str]]:
    """The 'not used' item (:func:`bot.parse.lower_tools.tool_item`) of each lower-case name of ``raw`` that
    opens a clause before a verb of what a program does (:data:`SUBJECT_TOOL_RE`), as typed; none for a
    word the module docstring rules out or a name ``known`` knows. Called when ``raw`` holds one of
    :data:`VERB_CUES`."""
    from bot.parse.tool_slots import SLOT_WORDS  # deferred: a plain question never loads it (s30 test)

    out: list[tuple[str, str]] = []
    for m in SUBJECT_TOOL_RE.finditer(raw):
        name = m.group("name").rstrip(".")
        if len(name) < 3 or name in FUNCTION_WORDS or name in NOT_MODEL_NAMES or name in NOT_NAMES:
            continue
        if name in MONITORS or name in RUN_NOUNS or name in PEOPLE_NOUNS or name in SLOT_WORDS:
            continue
        if is_gpu_name(name):
            continue
        if SETTING_WORD_RE.fullmatch(name) or ADJECTIVE_RE.fullmatch(name) or PLATFORM_RE.fullmatch(name):
            continue
        if known(name) or (item := tool_item(name, training)) in out:
            continue
        out.append(item)
    return out
