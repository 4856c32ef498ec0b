"""The web page's own words in both languages (the answers' words live in templates/ and locales/)."""

from __future__ import annotations

WORDS: dict[str, dict[str, str]] = {
    "title": {"zh": "大模型算力估算", "en": "LLM compute sizing"},
    "tagline": {
        "zh": "训练、微调、推理要多少 GPU、多久、多少钱",
        "en": "How many GPUs, how long and how much to train, fine-tune or serve a model",
    },
    "ask": {"zh": "提问", "en": "Ask"},
    "placeholder": {"zh": "例如：7B模型1万亿token要多少A100", "en": "e.g. fine-tune Llama-3.1-8B with LoRA"},
    "examples": {"zh": "示例问题", "en": "Example questions"},
    "details": {"zh": "详细计算、假设与来源", "en": "Details, assumptions and sources"},
    "chart": {"zh": "图表", "en": "Chart"},
    "actions": {"zh": "换个条件", "en": "Try another"},
    "followup": {"zh": "接着问", "en": "Follow-up question"},
    "followup_hint": {"zh": "例如：那H100呢", "en": "e.g. what about H100?"},
    "recipes": {"zh": "⚙️ 启动配方", "en": "⚙️ Launch recipes"},
    "quote": {"zh": "🧾 下载报价单（PDF）", "en": "🧾 Download quote (PDF)"},
    "share": {"zh": "分享这个回答的链接", "en": "Link to this answer"},
    "new": {"zh": "新问题", "en": "New question"},
    "api": {"zh": "API 文档", "en": "API docs"},
    "too_many": {
        "zh": "请求太频繁，请 {seconds} 秒后再试。",
        "en": "Too many requests: please try again in {seconds} s.",
    },
    "error": {"zh": "出错了：{message}", "en": "Something went wrong: {message}"},
    "not_found": {"zh": "没有这个页面。", "en": "There is no such page."},
    # follow-ups the action links ask (the parser reads them as follow-ups of the previous question)
    "ask_gpu": {"zh": "那{gpu}呢", "en": "What about {gpu}?"},
    "ask_lora": {"zh": "用LoRA呢", "en": "With LoRA?"},
    "ask_qlora": {"zh": "用QLoRA呢", "en": "With QLoRA?"},
    "ask_full": {"zh": "全参微调呢", "en": "Full fine-tuning?"},
    "ask_inference": {"zh": "推理部署呢", "en": "For inference?"},
    "ask_finetune": {"zh": "微调呢", "en": "Fine-tune it?"},
}

EXAMPLES: tuple[str, ...] = (
    "7B模型1万亿token要多少A100",
    "Qwen2.5-72B 推理部署，200 并发，8K 上下文，要多少卡？",
    "一张4090能跑多大的模型",
    "How long to pretrain a 70B model on 2T tokens with 1024 H100s?",
    "QLoRA Llama-3.1-8B on one RTX 4090",
    "full fine-tune Qwen2.5-14B on 8 A100",
)
"""Examples on the empty page: the README's questions, in both languages."""


def word(lang: str, key: str, **values: object) -> str:
    """The page's word ``key`` in ``lang`` (zh or en), formatted with ``values``."""
    text = WORDS[key]["zh" if lang == "zh" else "en"]
    return text.format(**values) if values else text
