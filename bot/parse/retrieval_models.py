"""The embedding and reranker models of a retrieval (RAG) pipeline, named beside the language model sized
(s46 round 42 zh, zh42-018: '生成模型用 Llama3-8B，嵌入用 BGE' sized Llama 3 8B and dropped BGE in silence;
'embedding 用 bge-m3，rerank 用 bge-reranker-v2-m3' dropped both).

Each is named as typed, ``('model: <name>', 'retrieval_model')``: the answer sizes the language model, and the
reply says the retrieval model is not part of that sizing (docs/design.md §8: every model the user names is
used or named, never swapped nor dropped). A name is read two ways: by its joined form anywhere in the
message (:data:`bot.parse.verb_names.RETRIEVAL_NAME_RE`: 'bge-m3', 'bce-embedding-base_v1',
'bge-reranker-v2-m3', 'all-MiniLM-L6-v2') or as the word after a retrieval role ('嵌入用 BGE', '向量模型是
m3e', 'embedding model: BGE', 'the reranker is jina-reranker'; :data:`ROLE_NAME_RE`). The caller gates on
:data:`bot.parse.cue_words.RETRIEVAL_CUES` (a ``in`` test each), so a message with none of them pays no
regex search."""

from __future__ import annotations

from bot.parse.regex import rc
from bot.parse.verb_names import RETRIEVAL_NAME_RE

ROLE_NAME_RE = rc(
    r"(?:嵌入|向量|embedding|embedder|rerank(?:er|ing)?|重排)\s*(?:模型|models?)?\s*"
    r"(?:用的是|用|使用|采用|选用|选|是|为|:|：|(?:is|uses?|with)\b)\s*"
    r"(?P<name>[a-z][a-z0-9]*(?:[\-_./][a-z0-9]+)*)"
)
"""A retrieval role word, an optional 'model', a verb or colon, then a name ('嵌入用 BGE', '向量模型是 m3e',
'embedding model: bge', 'reranker is jina-reranker-v2'); the name starts with a letter (a count or a size
after the role, 'embedding 用 2 张卡', is no name; an English verb ends at a word's end: the 's' of
'uses' is no name)."""

_NOT_NAMES = frozenset(
    {"the", "a", "an", "gpu", "cpu", "vllm", "ollama", "tei", "xinference", "model", "api", "true", "false"}
)
"""Words after a role that name no model ('the', an engine serving it, 'API', a flag's value)."""

RETRIEVAL_FAMILIES = (
    "bge", "bce", "gte", "m3e", "e5", "jina", "minilm", "mpnet", "nomic", "stella", "text-embedding",
    "qwen3-embedding", "conan", "acge", "piccolo", "xiaobu", "sbert", "instructor", "colbert", "voyage",
    "cohere", "mxbai", "snowflake", "arctic-embed", "multilingual-e5",
)  # fmt: skip
"""Name heads of embedding and reranker model families (BAAI BGE, NetEase BCE, Alibaba GTE and
Qwen3-Embedding, Moka M3E, Microsoft E5, Jina, sentence-transformers MiniLM/MPNet, Nomic, Stella, OpenAI
text-embedding-*, …): a bare word after a role is a model only when it starts with one of these
(s46 review B3)."""


def _name_shaped(name: str) -> bool:
    """True when ``name`` (lower-cased) has a model name's shape: a digit, a hyphen, slash, dot or underscore,
    or the head of a known retrieval family (:data:`RETRIEVAL_FAMILIES`). 'the embedding is trainable' /
    'embedding is tied' name no model (s46 review B3): an adjective or plain word has none of these."""
    if name.startswith(RETRIEVAL_FAMILIES):
        return True
    return any(c.isdigit() or c in "-_./" for c in name)


def retrieval_named(s: str, raw: str, sized: str | None, named: list[tuple[str, str]]) -> None:
    """Append ``('model: <name as typed>', 'retrieval_model')`` to ``named`` for each retrieval model in the
    lower-cased message ``s`` (``raw``: as typed, for the spelling) that is not the model ``sized`` and not
    named already. Nothing when no model is sized (the retrieval model is then the one asked about, read
    by bot.parse.verb_names)."""
    if not sized:
        return
    # a config key set ('replace_embedding=True', en28-040) names no model: no '=' after the name
    found = [
        m.group("name")
        for m in RETRIEVAL_NAME_RE.finditer(s)
        if not s[m.end() : m.end() + 2].strip().startswith("=")
    ]
    found += [
        m.group("name")
        for m in ROLE_NAME_RE.finditer(s)
        if m.group("name") not in _NOT_NAMES and _name_shaped(m.group("name"))
    ]
    have = {text.lower() for text, _ in named}
    low_raw = raw.lower()
    for name in dict.fromkeys(found):  # first mention first, once each
        if name in sized.lower() or f"model: {name}" in have:
            continue
        at = low_raw.find(name)
        typed = raw[at : at + len(name)] if at >= 0 else name
        named.append((f"model: {typed}", "retrieval_model"))
        have.add(f"model: {name}")
