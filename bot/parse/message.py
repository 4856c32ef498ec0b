"""One message's parse before the post-steps that read it as a whole (:func:`bot.parse.parse` adds
them): the request (:func:`bot.parse.assemble.parse`), its bounds, the card's SKU, noise, and the
conversation cues (:func:`bot.parse.cues.cues`). The post-steps parse parts of the message with this.
"""

from __future__ import annotations

from bot.parse.assemble import parse as _parse
from bot.parse.bound_words import with_bounds
from bot.parse.card_generation import GENERATION_RE, card_generation
from bot.parse.context_release import suffix_tokens
from bot.parse.cues import with_cues
from bot.parse.noise import without_noise
from bot.parse.period_prices import PERIODS, rents_read, rents_typed
from bot.parse.result import ParseResult
from bot.parse.typo_words import SPACES, TYPOS, typos_read
from bot.parse.weight_size import GATE_RE as WEIGHT_SIZE_GATE
from bot.parse.weight_size import with_weight_size
from bot.parse.written_names import card_sku

SUFFIXED = ("long_context", "fine_tune")
"""The substitutions whose typed name's context suffix is the release's window (bot.core.release_window)."""


def parse_one(text: str) -> ParseResult:
    """Parse one message (or a part of one) with its conversation cues, read in the same pass. Never
    raises."""
    raw = text if isinstance(text, str) else ""
    result = with_bounds(_parse(raw))  # '上下文至少 16k': sized at 16k, and said
    if (price := result.request.price_per_gpu_hour) is not None and any(
        map(result.normalized.__contains__, PERIODS)
    ):
        read = rents_read(result.normalized, price, raw)
        result.bounds_read = [*result.bounds_read, *read]  # '3090一天50块': ¥50 ÷ 24 per GPU-hour, said (s36)
    if result.unusable_numbers and any(map(result.normalized.__contains__, PERIODS)):
        result.unusable_numbers = rents_typed(result.normalized, result.unusable_numbers, raw)  # as typed
    if not TYPOS.keys().isdisjoint(result.normalized.translate(SPACES).split()):
        result.bounds_read = [*result.bounds_read, *typos_read(result.normalized, raw)]  # 'usres': users
    if WEIGHT_SIZE_GATE.search(result.normalized):  # '62GB 的模型': the weights' size (session 18)
        result = with_weight_size(result, raw)
    n, req = result.normalized, result.request
    if ("parallel" in n or "并行" in n) and req.runtime == "Ollama" and req.concurrency is None:  # s40 #2
        from bot.parse.ollama_parallel import with_ollama_parallel

        result = with_ollama_parallel(result)  # 'ollama … parallel 4': its slots, the load
    if result.model_substitution == "long_context":  # s46 trial #8: a Qwen 1M release's vLLM chunk
        from bot.parse.release_recipe import with_recipe_chunk

        result.request = with_recipe_chunk(result.request, result.model_typed or "")
    if result.model_substitution in SUFFIXED and (window := suffix_tokens(result.model_typed or "")):
        result.request = result.request.model_copy(update={"release_context": window})  # s47: '-16k' window
    result.card_sku = card_sku(raw, result.request.gpu)  # '910B2' sized on the Ascend 910B: said so
    if result.request.gpu and GENERATION_RE.search(result.normalized):  # 'A100 Blackwell': said so (s19)
        result.card_generation = card_generation(raw, result.request.gpu)
    kept = without_noise(result, raw, _parse)
    return result if kept is result else with_cues(kept, raw)  # noise: an empty result, with its cues
