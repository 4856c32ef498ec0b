"""English words that come before a size but are never a model's name ("train 7B", "since 405B"): the
unknown-name reader of :mod:`bot.parse.models` skips them."""

from __future__ import annotations

NOT_MODEL_NAMES = frozenset((
    "the", "model", "models", "with", "for", "and", "about", "around", "approx", "nearly", "train",
    "training", "pretrain", "pretraining", "finetune", "tune", "tuning", "serve", "serving", "deploy",
    "deploying", "run", "running", "params", "parameters", "dense", "moe", "size", "base", "our",
    "your", "my", "new", "llm", "total", "active", "only", "just", "one", "two", "three", "four",
    "five", "six", "seven", "eight", "nine", "ten", "some", "any", "each", "per", "from", "into",
    "over", "under", "using", "use", "need", "needs", "have", "has", "got", "take", "takes", "makes",
    "make", "vs", "versus", "than", "like", "plus",
    "style", "styled", "type", "class", "grade", "tier", "level", "scale", "range", "sized",  # s35-fixa #6
    "localllama", "reddit", "forum", "subreddit",
))  # fmt: skip
FUNCTION_WORDS = frozenset((
    "since", "because", "as", "although", "though", "while", "whereas", "if", "unless", "until", "when",
    "whenever", "where", "whether", "so", "that", "once", "after", "before", "or", "but", "nor", "yet",
    "of", "on", "in", "at", "by", "to", "without", "within", "via", "into", "onto", "upon", "above",
    "below", "between", "among", "through", "across", "beside", "besides", "despite", "except", "near",
    "off", "out", "past", "toward", "towards", "up", "down", "a", "an", "this", "these", "those", "it",
    "its", "which", "what", "who", "whose", "another", "other", "every", "all", "both", "either",
    "neither", "such", "same", "more", "most", "less", "few", "many", "much", "several", "is", "are",
    "was", "were", "be", "been", "being", "do", "does", "did", "can", "could", "will", "would", "should",
    "may", "might", "must", "shall", "even", "also", "still", "then", "now", "already", "maybe", "i",
    "we", "you", "they", "he", "she", "our", "their", "his", "her", "me", "us", "them", "why", "how",
))  # fmt: skip
"""English's closed classes (conjunctions, prepositions, determiners, pronouns, auxiliaries, question
words): never a model's name before a size (round 10, s15: 'since 405B FP8 needs 405GB' named a model 'since
405B'), nor a tool's as a clause's subject (s46 round 42: '…, so why doesn't it fit?' named a runtime 'why',
bot.parse.subject_tools)."""
NOT_MODEL_NAMES = NOT_MODEL_NAMES | FUNCTION_WORDS
"""Words before a size that are not a model's name ("train 7B", "a dense 70B", "about 13B", "since 405B")."""

KIND_WORDS = frozenset(
    ("style", "styled", "type", "class", "grade", "tier", "level", "scale", "sized", "like")
)
"""A word that makes a name a kind of thing, never a model ('LocalLlama-style'; s35-fixa #6)."""
FORUM_WORDS = frozenset(("localllama", "r/localllama", "reddit", "subreddit", "hackernews"))
"""Forums people ask in, never a model ('a LocalLlama 70B rig': r/LocalLLaMA; s35-fixa #6)."""
