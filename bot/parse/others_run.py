"""Someone else's run beside the asker's own (s43 issue 24): whose figure a number is.

'别人用 4 张 A100 微调 Qwen2.5 7B，我用 8 张要多久', 'They got 40% MFU pretraining Llama 3 8B, what about
us on 64 H100?', '别人 MFU 能到 40%，我们 64 张 H100 …': a figure said of another person's run (a colleague,
others, a team, 'they' doing something) is an observation of that run, not a setting of the job asked about.
Whose it is: the last person named before it in its sentence. A third party (:data:`OTHERS_RE`) after any
first person (:data:`OWN_RE`: 'I', 'we', 'our', '我', '咱们') makes it theirs; 'we got 40% MFU on our last
run', '我们 MFU 能到 40%' stay the asker's own.
"""

from __future__ import annotations

from bot.parse.regex import rc

OTHERS_RE = rc(
    r"(?<![a-z])(?:someone|somebody|others|other\s+(?:people|folks|teams?|groups?|labs?|users?)"
    r"|another\s+(?:team|group|lab|company|user|person|guy)|colleagues?|co-?workers?|team-?mates?"
    r"|(?:a|my|our)\s+friend|friends"
    r"|they(?:'ve|\s+have|\s+had)?\s+(?:\w+\s+)?(?:got|get|gets|used|use|ran|run|trained|train|report\w*|hit"
    r"|achiev\w*|reach\w*|saw|see|did|claim\w*|manag\w*|measur\w*)"
    r"|their\s+(?:run|cluster|setup|team|job|training|numbers?|results?))(?![a-z])"
    r"|别人|人家|其他人|他们|她们|同事|朋友|(?<!没)有人|别的(?:团队|公司|人|组)|别家|其他(?:团队|公司|组)"
)
"""A third party whose run the following figures are of: 'someone', 'others', 'another team', 'colleague',
'they got/used/ran/report…', 'their run', '别人', '他们', '同事', '有人' (not '没有人'). A bare 'they' or
'them' may be the user's own cards ('8 A100s, they are …'): 'they' counts only before a verb of running or
reporting."""
OWN_RE = rc(r"(?<![a-z])(?:i|i'm|i've|we|we're|we've|we'll|us|our|ours|my|me|mine)(?![a-z])|我|咱")
"""The asker's own run: first person in either language ('we', 'our', 'my', '我', '我们', '咱们')."""
SENTENCE_END_RE = rc(r"[。！？!?;；\n]|\.(?:\s|$)")
"""Where a sentence ends (a decimal point is none)."""


def others_at(s: str, pos: int) -> bool:
    """Whether the figure at character ``pos`` of the normalized text ``s`` is said of someone else's run:
    the last person named before it in its sentence is a third party (:data:`OTHERS_RE`), with no first
    person (:data:`OWN_RE`) after that third party; 'they' / 'their' after a first person in the sentence
    are the asker's own ('we have 4 H100s and they ran at 40% MFU'). No person named: False (the asker's,
    as before)."""
    start = 0
    for m in SENTENCE_END_RE.finditer(s, 0, pos):
        start = m.end()
    theirs = list(OTHERS_RE.finditer(s, start, pos))
    if not theirs or OWN_RE.search(s, theirs[-1].end(), pos) is not None:
        return False
    last = theirs[-1]  # 'we have 4 H100s and they ran at 40% MFU': 'they' after 'we' are our cards
    return not (last.group().startswith(("they", "their")) and OWN_RE.search(s, start, last.start()))


def others_cue(s: str) -> bool:
    """A cheap gate (one C search) before :func:`others_at`: ``s`` names a third party at all."""
    return OTHERS_RE.search(s) is not None
