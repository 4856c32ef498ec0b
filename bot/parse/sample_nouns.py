"""Informal nouns for the items of a training data set (trial s21 #2: '30k support tickets of 1.5k
tokens', '30k convos, avg 1.5k tokens' — the count was left unread and the per-item length taken as the
whole data set, ×30,000 too little). Each is one sample; with the tokens each, samples × tokens is the
data (the roles of :mod:`bot.parse.roles` and :mod:`bot.parse.role_left` read them as they read 'rows',
'examples', 'conversations'). Words that also name a serving request (messages, queries, requests,
sessions) are left out: a count of those is a load, not data; so are words that follow a model size
('14B-chat': a model's name, not 14 billion chats) or count generations ('8 completions per prompt').
Round 26: the chunks or passages of a corpus to embed ('a reindex of 232,047 chunks'), never a rate of them
('1.2 chunks/second', '2,000 chunks per second').
Session 33: images, the items of a vision model's data ('微调用了 2 万张图', '10 万张图片', '3000 张照片', 'on
20k images'): each one sample. Before, '张' (the measure word of flat things, cards and pictures alike) made
'2 万张图' a count of 20,000 cards; the card rules (:data:`bot.parse.roles.R_COUNT_WORD`) now skip '张' before
a picture noun (:data:`IMAGES_ZH`; never '图灵' (Turing) or '图形' (graphics) cards). An English image count
with its length after it ('8 images of 256 tokens each', 'images per video') is a part of one sample, no
count of samples; 'N images of 750x750' (their resolution after 'of') is a count of them (s37-gen)."""

from __future__ import annotations

IMAGES_ZH = r"\s*(?:\d{2,5}\s*[x×*]\s*\d{2,5}\s*(?:像素)?\s*的\s*)?(?:图(?![灵形])|照片|相片|截图)"
"""Picture nouns after '张' / '幅' (图, 图片, 图像, 照片, 相片, 截图), their size before them or not
('张 750x750 的图片', s37-gen): a regex fragment with no group of its own."""

SAMPLE_NOUNS = (
    r"(?:support\s+|customer\s+|chat\s+|email\s+)?(?:tickets?|convos?|dialogs?|emails?|transcripts?|articles?"
    r"|papers?|reviews?|essays?|threads?|stories|abstracts?|contracts?|tweets?|trajectories|demonstrations?"
    r"|q&as?|qa\s+pairs?)\b"
    r"|(?:text\s+)?(?:chunks?|passages?)\b(?!\s*(?:/|per\b|an?\s+sec|each\b|every\b))"  # r26: texts to embed
    r"|(?:images?|photos?|pictures?|screenshots?)\b(?!\s*(?:/|per\b|an?\s+sec|each\b|every\b|at\s+once"
    r"|of\b(?!\s*\d{2,5}\s*[x×*]\s*\d{2,5}(?![\d.])(?!\s*(?:pixels?\s*)?(?:/|per\b|each\b|every\b)))))"
    rf"|(?:张|幅){IMAGES_ZH}"
    r"|(?:个|段|份|篇)?(?:工单|对话|邮件|病历|合同|文章|论文|评论|帖子|问答|轨迹)"
)
"""The nouns (English plural or singular, Chinese with its measure word) of :mod:`this module`'s docstring,
a regex alternation with no group of its own."""
