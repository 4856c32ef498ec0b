"""A question that ends without its question mark ('How many A100s does a 70B need', '70B 推理要几张 A100'),
read as if it had one (s32 metamorphic sweep, family ``question_mark``: ``python -m tests.metamorphic
--family question_mark``, tests/data/metamorphic_census.md).

The readers that pick the setup asked about of two (bot.parse.structure: the question sentence, ``[?？]``
among its cues) read a last sentence typed without '?' as a statement: with the mark dropped, 19 of 873
working-split questions sized another card, count or model. A message whose last sentence asks (an
English question word first; a Chinese question particle or question word last: 吗, 呢, 多少, 几张, 够不够,
能不能 …) and has no '?' or '？' anywhere is read with a '?' after it; a message with a question mark
elsewhere has marked its question already ('…双卡够不够？如果是全精度训练要多少卡' asks the first: r25work
zh25-033). Gate: two substring tests (no call) and one C search of :data:`ASKED_END_RE`.
"""

from __future__ import annotations

from bot.parse.cue_words import EARLIER
from bot.parse.regex import rc

_W = r"[^\s,，.。!！?？]"
"""A character of the same word (Chinese has no spaces)."""
ASKED_END_RE = rc(
    r"(?:^|[.!。！:：—\n]\s*)(?i:how|what|which|can|could|would|will|should|is|are|does|do|did|why|where"
    r"|(?:shouldn|isn|aren|doesn|don|didn|can|couldn|wouldn|won)['’]t)\b"
    r"(?:[^.!?。！？\n]|\.(?=\d))*$"
    rf"|(?:吗|呢|么|多少{_W}{{0,2}}|多久|多大|几张{_W}{{0,2}}|几台|几块|够不够|够吗|行不行"
    rf"|能不能{_W}{{0,4}}|可不可以|是否{_W}{{0,6}}|如何|怎么{_W}{{0,4}}|哪些|哪个|什么{_W}{{0,3}})\s*$"
)
"""The last sentence of a message asks (English question word first, or a Chinese question word last); s34:
also after a colon or a dash ('I'd like to use verl instead: how many H20s are needed', '… — is that
reasonable'), and a negative one ('Shouldn't FP8 be faster', 'Isn't 24G enough'); a decimal point ('1.5x')
ends no sentence."""
EARLIER_SETUP_RE = rc(EARLIER)
"""An earlier setup's word ('上次', '之前', 'last time': bot.parse.earlier_counts): such a message is
left as typed. With a '?' the question-sentence reader (bot.parse.structure) takes the whole one-sentence
message as the job asked about and its earlier run's count as the job's ('上次用 8 张 A100 训 7B 用了 3 天，
这次用 16 张 A100 训 13B … 要多久？' sized 8 cards, typed with '？' too: not fixed here, named in session 32's
note); without it, the earlier-setup reader names that count (tests/test_s14_review.py)."""
