"""The length of each training sample written beside the word for samples (issue 24): '几千 token 的样本',
'2000 token 左右的样本', '每条样本几千 token', '每条数据约 2k token' give how long each sample is, never
the dataset's total ('1 万亿 token 的数据' is the data: the noun decides). Read as tokens per sample; with
no sample count it is the sequence length trained at (:mod:`bot.parse.field_steps`), and a rough amount
('几千') is sized at the middle of its range and said (:mod:`bot.parse.vague_amounts`)."""

from __future__ import annotations

from bot.parse.regex import rc

R_SAMPLE_NOUN = rc(
    r"\s*(?:个)?\s*(?:tokens?|toks?|词元)\s*(?:左右|上下|以内|以下)?\s*(?:长)?\s*的\s*"
    r"(?:训练|微调|sft|对话|问答|指令)?\s*(?:样本|序列|对话|单条数据|数据条目|样例)"
)
"""After the number: '几千 token 的样本', '2000 token 左右的对话', '4k tokens 的 SFT 样本'."""
L_EACH_SAMPLE = rc(
    r"每(?:(?:条|一条)\s*(?:训练|微调|sft)?\s*(?:样本|数据|对话|样例|序列)?"
    r"|个\s*(?:训练|微调|sft)?\s*(?:样本|数据|对话|样例|序列))\s*(?:长度)?\s*"
    r"(?:都)?\s*(?:约|大概|大约|平均|差不多|有|是|为|在|:|：)*\s*(?:几|数)?$"
)
"""Before the number: '每条样本几千 token', '每条数据约 2k token', '每个样本平均 1500 token', and '每条几千
token' (条 is the measure word of samples, so the noun may be left out; 每个 needs it). The 几 of '几千' is
left of the number token."""


def per_sample(s: str, start: int, end: int) -> bool:
    """Whether the token count at ``s[start:end]`` (normalized text) is each sample's length."""
    return bool(R_SAMPLE_NOUN.match(s[end : end + 40]) or L_EACH_SAMPLE.search(s[max(0, start - 24) : start]))


SAMPLE_LENGTH = "sample_length"
"""The parse note of a sample's length read as the sequence length for want of a sample count
(:mod:`bot.parse.field_steps`): beside a training config that gives the count and its own length
(``max_samples``, ``cutoff_len``), it is each sample's mean length again (s28 trial H1,
:func:`bot.parse.configs.merge.with_stack`)."""
