"""The request's length in an engine's "too long" error (s30): "(62955 > 16384)", "This model's maximum
context length is 16384 tokens. However, you requested 62955 tokens", "Input prompt (62955 tokens) is too long
and exceeds limit of 16384" (vLLM, vllm/entrypoints/openai/serving_engine.py and vllm/v1/engine/processor.py),
"Token indices sequence length is longer than the specified maximum sequence length for this model (62955 >
16384)" (Hugging Face transformers, tokenization_utils_base.py), "Requested tokens (62955) exceed context
window of 16384" (llama-cpp-python). In a serving question the first number is the length of the request the
user sends: the prompt to size for (the second, the engine's limit, is read by the limit readers or left as
it was). Before, it was left unread."""

from __future__ import annotations

from bot.parse.regex import rc

L_REQUESTED = rc(
    r"(?:(?:you\s+)?requested(?:\s+tokens)?\s*\(?|(?:input|decoder|encoder)?\s*prompt\s*\(\s*(?:length\s*)?"
    r"|(?:长度|token\s*数|tokens?)\s*[:：]?\s*[(]|(?<![\w.])[(]"
    r"|(?:请求|输入|传入|发送)(?:了\s*(?:长度|token\s*数|tokens?)?|的?\s*(?:长度|token\s*数|tokens?\s*数))"
    r"\s*(?:为|是|有|达到?|共)?\s*[:：]?)\s*$"
)
"""Before the request's length: 'you requested', 'Requested tokens (', 'Input prompt (', 'prompt (length', or
an opening bracket (then :data:`R_ABOVE` must follow); in Chinese (s31) '请求了', '输入了', '请求长度',
'输入的 token 数为' (how threads retell vLLM's error: '最大上下文 32768 tokens，但请求了 47219
tokens')."""
R_ABOVE = rc(r"^\s*(?:tokens?\s*)?>\s*\d")
"""After the length in brackets: '> 16384' (the comparison an error prints)."""
R_TOKENS_SAID = rc(
    r"^\s*(?:个\s*)?(?:tokens?\b|\)\s*(?:is\s+)?(?:too\s+long|exceeds?|is\s+longer)|[,，]?\s*(?:超过|超出|大于))"
)
"""After the length with a word before it: 'tokens' ('个 token'), the bracket closing on 'too long' /
'exceeds', or '超过' / '超出' / '大于' (the limit it passes)."""


def request_length(left: str, right: str) -> bool:
    """Whether the number between ``left`` and ``right`` is the request's length in an engine's error."""
    before = L_REQUESTED.search(left)
    if before is None:
        return False
    if before.group(0).lstrip().startswith("("):  # a bare bracket: only '(N > M)'
        return R_ABOVE.match(right) is not None
    return R_ABOVE.match(right) is not None or R_TOKENS_SAID.match(right) is not None
