"""A vision-language fine-tune's images as the message says them (s40 fixt #1, #2): how many to a sample
('每条数据一张图', '每条 2 张图片', 'one image per sample', '2 images each') — never the sample count —
and their
resolution ('图片分辨率 1280x720', 'images 1280x720', '1920×1080 的图片'), masked and set as
``images_per_sample`` and ``image_pixels`` (width, height); the estimator turns them into visual tokens for a
release whose processor sets them by resolution (estimator.image_tokens), and a model without one has the
resolution named as not used (bot.core.interpretation). Imported behind :func:`mentions_images`: a message
with no image word pays nothing."""

from __future__ import annotations

from typing import Any

from bot.parse.regex import rc

_ZH = {"一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
_EN = {"a": 1, "an": 1, "one": 1, "single": 1, "two": 2, "three": 3, "four": 4, "five": 5}

PER_SAMPLE_RE = rc(
    r"(?:每(?:条|个样本|个样例|组)(?:数据|样本)?|每条)\s*(?:包含|含|有|配|带)?\s*(?P<zh>\d{1,3}|[一两二三四五六七八九十])\s*"
    r"(?:张|幅|个)\s*(?:图片|图像|图)"
    r"|(?P<en>\d{1,3}|an?|one|single|two|three|four|five)\s+images?\s+(?:(?:per|a|in\s+each)\s+"
    r"(?:sample|example|record|item|row|conversation)|each\b(?!\s+gpu))"
    r"|(?:image-text|图文)\s*(?:pairs?|samples?|对)"
    r"|\b(?:a|each|one|every)\s+(?:prompt|sample|example|conversation|record)\s+(?:has|with|contains|holds"
    r"|includes|carries)\s+(?:(?P<more>more\s+than|over)\s+)?(?P<en3>\d{1,3}|two|three|four|five)\s+images\b"
    r"|(?:每|一)(?:条|个)\s*(?:prompt|样本|数据|对话|请求)\s*(?:都)?\s*(?:有|包含|含|带|配)?\s*(?P<more_zh>超过|多于)?\s*"
    r"(?P<zh3>\d{1,3}|[两二三四五六七八九十])\s*(?:张|幅|个)(?P<above>以上)?\s*(?:图片|图像|图)"
)
"""Images to a sample ('每条数据一张图', 'one image per sample'); an 'image-text pair' / '图文对' is one. s46
(en25-003): a training prompt's images ('when a prompt has more than 4 images', '每条 prompt 超过 4 张图'):
the images of one sample, never a sample count; 'more than N' / '超过 N' / 'N 张以上' is the fewest that
say it, N + 1."""
RESOLUTION_RE = rc(
    r"(?:(?:of|at|in)\s+)?(?P<w>\d{2,5})\s*(?:x|×|\*)\s*(?P<h>\d{2,5})(?:\s*(?:px|pixels?|像素))?"
)
"""A width × height ('1280x720', '1920×1080', '448*448 px'); read, not masked: the sample readers skip a size
('75,866 images of 750x750', '2 万张 1024*1024 的图片': the images are the sample count)."""
TEXT_TOKENS_RE = rc(r"(?P<n>\d{2,6})\s*(?:text\s+tokens?|个?文本\s*token|token\s*的?文本)")
PER_REQUEST_RE = rc(
    r"每(?:个|次|条|一个|一次)?(?:请求|调用|对话|提问|问题|query)\s*(?:都)?\s*(?:包含|含|有|带|附带?|上传|配|传)?\s*"
    r"(?:约|大约)?\s*(?P<zh>\d{1,2}|[一两二三四五六七八九十])\s*(?:张|幅|个)\s*(?:图片|图像|图)"
    r"|(?P<en>\d{1,2}|an?|one|single|two|three|four|five)\s+images?\s+(?:(?:per|a|in\s+each|with\s+each|each)\s+"
    r"(?:request|query|call|prompt|message)s?\b)"
    r"|(?:each|every|per)\s+(?:request|query|call|prompt|message)\s+(?:has|with|includes|contains|carries|sends"
    r"|of|holds)\s+(?:about\s+|~)?(?P<en2>\d{1,2}|an?|one|single|two|three|four|five)\s+images?\b"
)
"""Images in each served request ('2 images per request', 'each request has 2 images', '每个请求 2 张图')."""
PER_IMAGE_TOKENS_RE = rc(
    r"(?P<n>\d{2,6})\s*(?:visual\s+|image\s+)?tokens?\s+(?:per|an?|each|for\s+(?:each|every|one))\s+"
    r"(?:image|picture)\b|每张(?:图片|图像|图)\s*(?:约|大约|大概)?\s*(?P<n2>\d{2,6})\s*个?\s*token"
    r"|\d[\d,]{1,8}\s*tokens?\s+for\s+\d{1,3}\s+(?:images|pictures)\b"
)
"""s46 (en25-003): the asker's own count of an image's tokens ('752 tokens per image', '每张图约 752 个
token', '6,018 tokens for 8 images'): no dataset size nor sample count (they were read as 752 training tokens
and 8 samples). One image's count is ``tokens_per_image`` (s46 review B7: each sample is then text + images ×
it, estimator.image_tokens); a total for several images keeps its words blanked and its numbers named."""
PROMPT_TEXT_RE = rc(r"(?P<n>\d{2,6})\s*tokens?\s+(?P<of>of\s+text)\b")
"""The text beside a request's images ('500 tokens of text'): read as the prompt's, the images added to it."""
"""The text beside the images in tokens ('~500 text tokens each', '500 文本 token')."""


_DIGITS_KEPT_RE = rc(r"[^\d,]")
"""Every character but the digits of a number and its thousands commas."""


def mentions_images(s: str) -> bool:
    """The cheap gate: an image word in the normalized text."""
    return "图" in s or "image" in s or "分辨率" in s or "resolution" in s or "像素" in s or "pixel" in s


def read_images(s: str, fields: dict[str, Any], training: bool = True) -> str:
    """``s`` with the images' count per sample and text tokens masked (the resolution left), set in ``fields``
    (``images_per_sample``, ``image_pixels`` [width, height], ``tokens_per_sample``); not ``training``: the
    images of each served request (:func:`read_request_images`)."""
    if not training:
        return read_request_images(s, fields)
    for m in PER_IMAGE_TOKENS_RE.finditer(s):  # '752 tokens per image': the user's count (s46 review B7)
        if (n := m.group("n") or m.group("n2")) and "tokens_per_image" not in fields:
            fields["tokens_per_image"] = int(n)
            s = s[: m.start()] + " " * (m.end() - m.start()) + s[m.end() :]
        else:  # '6,018 tokens for 8 images': the numbers alone stay, named
            s = s[: m.start()] + _DIGITS_KEPT_RE.sub(" ", m.group(0)) + s[m.end() :]
    if (m := RESOLUTION_RE.search(s)) is not None:
        w, h = int(m["w"]), int(m["h"])
        if 16 <= w <= 20000 and 16 <= h <= 20000:  # left in the text: the sample readers skip a size
            fields["image_pixels"] = [w, h]  # ('2 万张 1024*1024 的图片', s37 fixd)
    counts = list(PER_SAMPLE_RE.finditer(s))  # a stated count first: '图文对 … 每条 2 张图' is 2 (s43)
    if (
        m := next(
            (c for c in counts if c["zh"] or c["en"] or c["en3"] or c["zh3"]), counts[0] if counts else None
        )
    ) is not None:
        said = m["zh"] or m["en"] or m["en3"] or m["zh3"]
        n = (int(said) if said.isdigit() else _ZH.get(said) or _EN.get(said, 1)) if said else 1
        n += 1 if said and (m["more"] or m["more_zh"] or m["above"]) else 0  # 'more than 4': 5 at least
        fields["images_per_sample"] = n  # an image-text pair alone is one too (s43 #2: LLaVA's 576 tokens)
        if said:
            s = s[: m.start()] + " " * (m.end() - m.start()) + s[m.end() :]
    if ("image_pixels" in fields or "images_per_sample" in fields) and (
        m := TEXT_TOKENS_RE.search(s)
    ) is not None:
        fields.setdefault("tokens_per_sample", float(m["n"]))
        s = s[: m.start()] + " " * (m.end() - m.start()) + s[m.end() :]
    return s


def read_request_images(s: str, fields: dict[str, Any]) -> str:
    """A serving question's images (s44): ``images_per_request`` from '2 images per request' / '每个请求 2
    张图片' (masked) and, beside it, ``image_pixels`` (the resolution, left in the text); '500 tokens of
    text' becomes '500 tokens prompt ' for the prompt reader (bot.parse.role_left.R_PROMPTS), the same
    length. ``s`` unchanged when no count per request is said (an image word alone sizes nothing)."""
    m = PER_REQUEST_RE.search(s)
    if m is None:
        return s
    said = m["zh"] or m["en"] or m["en2"]
    fields["images_per_request"] = int(said) if said.isdigit() else _ZH.get(said) or _EN.get(said, 1)
    s = s[: m.start()] + " " * (m.end() - m.start()) + s[m.end() :]
    if (r := RESOLUTION_RE.search(s)) is not None and 16 <= min(int(r["w"]), int(r["h"])) <= 20000:
        fields["image_pixels"] = [int(r["w"]), int(r["h"])]
    if (t := PROMPT_TEXT_RE.search(s)) is not None:
        s = s[: t.start("of")] + "prompt " + s[t.end("of") :]
    return s
