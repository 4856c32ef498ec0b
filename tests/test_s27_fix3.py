"""s27-fix3: the design review's findings on the merged tree.

#1/#2 a run with no reference model is worded by the tool's own KL key and by the algorithm (PPO keeps a
critic); #9 a prose 'beta'/'kl coef' in an RL question is the KL coefficient (``kl_beta``)."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from bot.parse import parse


def ask(capsys: pytest.CaptureFixture[str], question: str, *extra: str) -> dict:
    assert main(["ask", "--format", "json", *extra, question]) == 0
    return json.loads(capsys.readouterr().out)


def _k(out: dict) -> dict:
    return next(a for a in out["assumptions"] if a["field"] == "flops_per_param_token")


# -- #1 the tool's own setting, not TRL's beta ------------------------------------------------------------


@pytest.mark.parametrize(
    ("tool", "setting", "switch"),
    [
        (
            "verl",
            "verl use_kl_loss = false, use_kl_in_reward = false",
            "actor_rollout_ref.actor.use_kl_loss=true",
        ),
        ("TRL", "TRL beta = 0.0", "beta &gt; 0"),
    ],
)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_reference_names_the_tools_own_key(capsys, tool, setting, switch, lang) -> None:
    out = ask(capsys, f"GRPO Qwen2.5-7B with {tool} on 8 H100", "--lang", lang)
    k = _k(out)
    assert (k["value"], k["why"], k["params"]["setting"]) == (8.0, "flops_no_reference", setting)
    reply = out["reply"]
    assert "TRL GRPO's default" not in reply and "TRL GRPO 默认" not in reply
    assert setting in reply and switch.replace("&gt;", ">") in reply
    if lang == "en":
        assert f"no reference model is loaded (a KL coefficient of 0: {setting})" in reply
    else:
        assert f"不加载参考模型（KL 系数为 0：{setting}）" in reply


def test_openrlhf_stated_zero_names_its_flag(capsys) -> None:
    out = ask(capsys, "GRPO Qwen2.5-7B with OpenRLHF, kl_coef=0, on 8 H100")
    assert out["request"]["kl_beta"] == 0.0
    assert _k(out)["params"] == {  # s43 fixans #4: + whose derivation (every weight trained here)
        "setting": "OpenRLHF --init_kl_coef 0", "switch": "--init_kl_coef > 0", "trained": "all"
    }  # fmt: skip
    assert "set --init_kl_coef > 0 and a frozen reference copy is added" in out["reply"]


def test_html_escapes_the_switch(capsys) -> None:
    assert main(["ask", "--format", "html", "GRPO Qwen2.5-7B with TRL on 8 H100"]) == 0
    assert "set beta &gt; 0" in capsys.readouterr().out


# -- #2 verl PPO: a critic, worded per algorithm ----------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_verl_ppo_without_kl_keeps_its_critic(capsys, lang) -> None:
    out = ask(capsys, "PPO Qwen2.5-7B with verl on 8 H100", "--lang", lang)
    k = _k(out)
    # 6 (actor) + 6 (critic) + 2 (reward) + 2 (generation); no reference forward (verl utils.py L72-76)
    assert (k["value"], k["why"]) == (16.0, "flops_no_reference_ppo")
    reply = out["reply"]
    assert "GRPO/RLOO add" not in reply and "generations only" not in reply
    if lang == "en":
        assert "PPO also trains a critic of the policy's size" in reply
        assert "the policy being trained, its critic, the reward model and the generations" in reply
    else:
        assert "PPO 还要训练一个与策略模型同大小的 critic" in reply
        assert "它的 critic、奖励模型和生成" in reply


def test_ppo_with_a_reference_keeps_the_general_wording(capsys) -> None:
    out = ask(capsys, "PPO Qwen2.5-7B with OpenRLHF on 8 H100")
    assert (_k(out)["value"], _k(out)["why"]) == (18.0, "flops_per_param_token")


# -- #9 a prose beta in an RL question is the KL coefficient ----------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "GRPO Qwen2.5-1.5B with verl, beta 0.04, 16 generations, 1 H100",
        "GRPO Qwen2.5-1.5B 用 verl，beta 0.04，16 个生成，1 张 H100",
        "GRPO Qwen2.5-1.5B with verl, kl coef 0.04, 16 generations, 1 H100",
    ],
)
def test_rl_beta_is_the_kl_coefficient(capsys, question) -> None:
    out = ask(capsys, question)
    assert out["request"]["kl_beta"] == 0.04
    assert (_k(out)["value"], _k(out)["why"]) == (10.0, "flops_per_param_token")  # the reference is sized
    assert "pref_beta" not in out["reply"]


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("DPO Qwen2.5-7B beta 0.1 on 8 H100", "beta: 0.1"),  # DPO's beta stays DPO's, named as typed (s33)
        ("SFT Qwen2.5-7B kl coef 0.1 on 8 H100", "kl_coef: 0.1"),  # no RL: named, not sized
        ("GRPO Qwen2.5-7B dpo_beta 0.1 on 8 H100", "dpo_beta: 0.1"),  # a prefixed beta is not bare
    ],
)
def test_near_misses_stay_named(question, named) -> None:
    result = parse(question)
    assert result.request.kl_beta is None
    assert named in [text for text, _ in result.unused_numbers]


# -- #3 a stated global batch with accumulation: global ÷ DP a GPU, not the tool's default ---------------


def test_global_batch_with_accumulation_is_spread_over_dp() -> None:
    from estimator.trainer_generation import generation_batch

    req = parse("GRPO Qwen2.5-7B with TRL on 16 H100, global batch 256, gradient accumulation 4").request
    assert (req.global_batch, req.gradient_accumulation) == (256, 4)
    # accumulation is inside the global batch: 256 / 16 ranks = 16 a GPU, nothing assumed
    assert generation_batch(req) == (0.0, 256.0, False)
    micro = parse("GRPO Qwen2.5-7B with TRL on 16 H100, micro batch 2, gradient accumulation 4").request
    assert generation_batch(micro) == (8.0, 0.0, False)  # per_device 2 × steps_per_generation 4
    alone = parse("GRPO Qwen2.5-7B with TRL on 16 H100, gradient accumulation 4").request
    assert generation_batch(alone) == (32.0, 0.0, True)  # TRL's default 8 × 4, said as its default


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_global_batch_with_accumulation_names_no_default(capsys, lang) -> None:
    q = {
        "en": "GRPO Qwen2.5-7B with TRL on 16 H100, global batch 256, gradient accumulation 4",
        "zh": "GRPO Qwen2.5-7B 用 TRL 在 16 张 H100 上训练，global batch 256，梯度累积 4",
    }[lang]
    out = ask(capsys, q, "--lang", lang)
    fields = {a["field"] for a in out["assumptions"]}
    assert "rollout_completions_per_gpu" not in fields
    assert (out["request"]["global_batch"], out["request"]["gradient_accumulation"]) == (256, 4)
    assert "Rollout completions per GPU: 32" not in out["reply"]


# -- #5 a maker's common noun is no tool ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "tool"),
    [
        ("Fine-tune Qwen2.5-7B using NVIDIA's profiler on 2 A100", None),
        ("Fine-tune Qwen2.5-7B with Google's accelerator on 2 A100", None),
        ("Fine-tune Qwen2.5-7B with Intel's compiler on 2 A100", None),
        ("用 NVIDIA 的 profiler 微调 Qwen2.5-7B，2 张 A100", None),
        ("Fine-tune Qwen2.5-7B with Jina's finetuner on 2 A100", "finetuner"),  # a maker's product stays
    ],
)
def test_possessed_common_nouns_are_not_tools(question, tool) -> None:
    named = [t for t, _ in parse(question).unused_numbers if t.startswith("training_tool: ")]
    assert named == ([f"training_tool: {tool}"] if tool else [])


# -- #8 the search's recompute key, written out twice for the call budget, is layouts.searched_recompute ----


def test_the_written_out_recompute_keys_agree() -> None:
    from estimator import catalog
    from estimator.layouts import SEARCHED_MODES, STATED_RECOMPUTE, searched_recompute
    from estimator.search_candidates import _modes
    from estimator.search_groups import search_shape
    from estimator.setup import TrainingSetup

    spec, card = catalog.model("Qwen2.5-7B"), catalog.gpu("H100-SXM5-80GB")
    seen = set()
    for recompute in (None, *STATED_RECOMPUTE):
        for checkpointing_only in (False, True):
            setup = TrainingSetup(recompute=recompute, checkpointing_only=checkpointing_only)
            key = searched_recompute(setup)
            seen.add(key)
            assert search_shape(spec, card, setup)[8] == key, setup  # search_groups.py's copy
            assert _modes(setup, True) == SEARCHED_MODES[key], setup  # search_candidates.py's copy
    assert len(seen) == len(SEARCHED_MODES)  # every searched key is reached
