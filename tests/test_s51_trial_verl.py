"""s51 trial #4: GRPO with verl and no length stated trains verl's own sequence, data.max_prompt_length 512
+ data.max_response_length 512 (verl/trainer/config/data/legacy_data.yaml), the lengths its rollouts
decode: the tokens trained, the completion tokens decoded and the assumed lengths agree (it was trained at
the SFT default 2,048 while the rollouts decoded 512 + 512)."""

from __future__ import annotations

import json

from bot.cli import ask


def _answer(text: str) -> dict:
    out, _ = ask(text, None, "json")
    return json.loads(out)


def _rollout(d: dict) -> dict:
    found: list[dict] = []

    def walk(x: object) -> None:
        if isinstance(x, dict):
            for k, v in x.items():
                if k == "rollout" and isinstance(v, dict):
                    found.append(v)
                else:
                    walk(v)

    walk(d["report"])
    return found[0]


VERL = (
    "GRPO with verl on Qwen3-8B, 8 rollouts per prompt, 1024 prompts per step, 200 steps on 8 H100: "
    "how long?",
    "用verl对Qwen3-8B做GRPO，每个prompt采样8条，每步1024个prompt，训练200步，8张H100要多久",
)


def test_verl_lengths_agree_both_languages() -> None:
    for q in VERL:
        d = _answer(q)
        r = _rollout(d)
        assert d["request"]["seq_len"] == 1024, q
        assert (r["prompt_tokens"], r["completion_tokens"]) == (512, 512), q
        assert d["request"]["tokens"] == 200 * 8192 * 1024, q
        assert r["generated_tokens"] == 200 * 8192 * 512, q


def test_verl_stated_length_kept_both_languages() -> None:
    """Must not misread: a stated sequence length is the user's, not verl's default."""
    for q in (
        "GRPO with verl on Qwen3-8B, 8 rollouts per prompt, 1024 prompts per step, seq len 4096, "
        "200 steps on 8 H100: how long?",
        "用verl对Qwen3-8B做GRPO，每个prompt采样8条，每步1024个prompt，序列长度4096，训练200步，8张H100要多久",
    ):
        d = _answer(q)
        assert d["request"]["seq_len"] == 4096, q


def test_trl_keeps_its_own_lengths_both_languages() -> None:
    """Must not misread: TRL's GRPO keeps TRL's 512 + 256, not verl's."""
    for q in (
        "GRPO with TRL on Qwen3-8B, 8 generations per prompt, 200 steps on 8 H100: how long?",
        "用TRL对Qwen3-8B做GRPO，每个prompt生成8条，训练200步，8张H100要多久",
    ):
        d = _answer(q)
        assert d["request"]["seq_len"] == 768, q
