"""Step 4 of the parse: the request fields from the roles the numbers got (docs/design.md §4): model and
parameters, training data and context, GPUs and their count, money and serving; a mixin of
:class:`bot.parse.assemble._Parse`, which holds the state these steps read and write."""

from __future__ import annotations

from functools import partial
from itertools import compress, repeat
from operator import attrgetter, eq, is_

from bot.later_names import (
    foreign_money,
    listed_output,
    other_card_clause,
    retrieval_named,
    role_reason,
    rounded_beside,
)
from bot.parse import structure as st
from bot.parse.asked_model import (
    Candidate,
    active_after,
    asked_candidate,
    attach_sizes,
    candidates,
    named_text,
)
from bot.parse.cue_words import FOREIGN_CUES, LIST_WORDS, RETRIEVAL_CUES
from bot.parse.daily_users import rated
from bot.parse.dp_attention import DP_ATTENTION_RE, dp_attention_said
from bot.parse.file_names import example_model, glued_version, outside_file_names
from bot.parse.gpu_field_steps import GpuFieldSteps
from bot.parse.load_words import engine_batch, single_user
from bot.parse.models import NO_VERSION, ModelMention
from bot.parse.negated_values import firsts, seq_role
from bot.parse.numbers import NumberToken
from bot.parse.prose_forms import SECONDS_PER_DAY, daily_requests, requests_rate
from bot.parse.rate_forms import output_alone, per_minute_typed, prompt_in_default, rate_said, used_rate
from bot.parse.regex import rc
from bot.parse.request_fields import as_typed, typed_release
from bot.parse.role_left import on_size
from bot.parse.roles import Role, seq_value
from bot.parse.sample_length import SAMPLE_LENGTH
from bot.parse.schedule_words import team_size
from bot.parse.structure import Segment, job_tokens, pick, segments
from bot.parse.token_words import PERIOD_WORDS
from bot.parse.users_load import load_value, unread_reason
from bot.parse.words import (
    BARE_CONTEXT_LEFT_RE,
    BARE_CONTEXT_RIGHT_RE,
    CNY_WORD_RE,
    PREFERENCE_DATA_RE,
    USD_WORD_RE,
    bare_context_stage,
    within_a_period_days,
)
from estimator import catalog
from estimator.later import later

others_at, others_cue = later(
    "bot.parse.others_run", "others_at", "others_cue"
)  # on first call: a plain `ask` never calls it (s48-startup)

RANGE_GATE_RE = rc(
    r"\d\s*(?:[kK]|万|千)?\s*(?:~|～|-|—|到|至|to)\s*\d"
    r"|(?:average|avg|mean|平均)[\s\S]{0,60}?(?:max(?:imum)?|longest|最长|最大)"
    r"|(?:max(?:imum)?|longest|最长|最大)[\s\S]{0,60}?(?:average|avg|mean|平均)"
)
"""The C-level gate of :func:`bot.parse.sample_range.sample_range` (imported only past it, s45-speed): a
number (s43: or a count in 万/千, '1万到5万条'), a range mark and another number; or an average and a longest
length named together ('average 800 tokens, max 4096'; '平均 800 token，最长 4096')."""

_ROLE_OF = attrgetter("role")
_MODEL_ID_OF = attrgetter("model_id")
_IS_NONE = partial(is_, None)

SERVING_METHOD_CUES = (
    "specul",
    "spec decode",
    "投机",
    "推测解码",
    "eagle",
    "medusa",
    "expert",
    "专家并行",
    "draft model",
    "草稿模型",
)
"""Literal cues of :mod:`bot.parse.serving_methods` (speculative decoding, expert parallelism said in words):
a message with none of them pays no search (that module's CUES is this table)."""


class FieldSteps(GpuFieldSteps):
    """Step 4: fields from roles. The state lives in the parse (:class:`bot.parse.assemble._Parse`); its
    attributes are declared once, on :class:`bot.parse.gpu_field_steps.GpuFieldSteps`."""

    def first(self, name: str) -> Role | None:
        """The number given role ``name`` that the job uses, marked as used: the first, unless the values
        differ across the message's setups (:func:`bot.parse.structure.pick`: the job's clause first, an
        observed figure never); the others keep their reason for :meth:`why_unused`."""
        roles = self.roles
        found = list(compress(roles, map(eq, map(_ROLE_OF, roles), repeat(name))))  # C: no frame a call
        if len(found) > 1 or (found and name in st.PICKED_ALONE):  # else nothing to choose: no segments
            role, lost = pick(found, self._segments())
            if lost:
                self.__dict__.setdefault("_lost", {}).update(lost)
        else:
            role = found[0] if found else None
        if role is not None:
            self.used.add(id(role))
        return role

    def _segments(self) -> list[Segment]:
        """The message's segments and their roles (:mod:`bot.parse.structure`), cut once per parse."""
        if "_segs" not in self.__dict__:
            self.__dict__["_segs"] = segments(getattr(self, "s0", self.s))
        return self.__dict__["_segs"]

    def generic_tokens(self, toks: list[NumberToken]) -> list[NumberToken]:
        """The unread tokens, in text order, that the general reader may place: not those of another
        setup's or an observed clause (:func:`bot.parse.structure.job_tokens`)."""
        return job_tokens(sorted(toks, key=lambda t: t.start), self._segments()) if toks else []

    def why_unused(self, role: Role, used_roles: set[str] | dict[str, str], default: str) -> str:
        """Why a number of ``role`` is not used: another setup's or an observed figure's (its clause's, or
        the structure chose against it), 'repeated' when its field used another value, else ``default``."""
        if role.extra == "stated_need":  # 'loads in 5 GB' beside a named card (bot.parse.role_left)
            return "stated_need"
        lost = self.__dict__.get("_lost", {}).get(id(role)) or role_reason(self, role)
        if lost or role.role not in used_roles:
            return lost or default
        cards = self.__dict__.get("_cards") or ()
        if cards[1:] and other_card_clause(self.s0, role.tok.start, cards, self.f.get("gpu")):
            return "other_setup"  # s47: a second value said in a clause of another card's setup
        return "repeated"

    def unread_reason(self, raw: str, default: str) -> str:  # bot.parse.users_load.unread_reason
        return unread_reason(self, raw, default)

    def value(self, name: str) -> float | None:
        """The value of :meth:`first`, or None (no call of it when no role is ``name``: a C test, s33)."""
        role = self.first(name) if name in map(_ROLE_OF, self.roles) else None
        return role.value if role else None

    def _model_and_params(
        self, models: list[ModelMention]
    ) -> tuple[ModelMention | None, ModelMention | None]:
        """Model, total and active parameters, and tokens (a bare '70B' / '2T' fills what is left)."""
        f = self.f
        attach_sizes(self.s, self.s0, models, self.roles, lambda name: as_typed(self.raw, name))
        found = candidates(models, self.roles)
        asked = (
            asked_candidate(self.s, found)
            or example_model(self.s, found)
            or outside_file_names(self.s, found)
        )
        if asked is not None:  # several models: the one the question asks about (bot.parse.asked_model)
            models = [asked.mention] if asked.mention is not None else []
        model_mention = next(filter(_MODEL_ID_OF, models), None)  # C iterators: no frame a model
        unknown = next(compress(models, map(_IS_NONE, map(_MODEL_ID_OF, models))), None)
        params: float | None = None
        active: float | None = None
        params_from_model = False
        if asked is not None and asked.role is not None:
            self.used.add(id(asked.role))
            params, params_from_model = asked.role.value, True
        if model_mention is not None and model_mention.model_id:
            spec = catalog.model(model_mention.model_id)
            f["model"] = spec.id
            t, low = model_mention.text.lower(), self.raw.lower()  # the release typed (s38): no call unmarked
            if "instruct" in t or "chat" in t or "-it" in t or "base" in low or f"/{t}" in low:
                f["release"] = typed_release(self.raw, model_mention, spec)
            if model_mention.size and glued_version(model_mention.size, spec.params_total):
                params, active = spec.params_total, spec.params_active  # '/mnt/Qwen1.572B': 72B, not 1.572B
            elif model_mention.size:
                params, active = model_mention.size, model_mention.active
                if active is None and spec.params_active and abs(spec.params_total - params) / params < 0.1:
                    active = spec.params_active
                elif active is None and _names_active(spec.params_total, spec.params_active, params):
                    params, active = spec.params_total, spec.params_active  # 'Llama-4-Scout-17B-16E'
            else:
                params, active = spec.params_total, spec.params_active
            params_from_model = True
        elif unknown is not None:
            params, active = unknown.size, unknown.active
            params_from_model = params is not None

        explicit_params, explicit_tokens, total_role = firsts(self, "params", "tokens", "total")
        if total_role is not None:
            params = total_role.value
        if self.first("active") is not None:
            active = self.value("active")
        tokens = explicit_tokens.value if explicit_tokens else None
        if not params_from_model and total_role is None and explicit_params is not None:
            params = explicit_params.value
            swap = explicit_params.conflict or (explicit_tokens is not None and explicit_tokens.conflict)
            if swap and tokens is not None and params > tokens:
                params, tokens = tokens, params
                self.notes.append("unit_swap")
        for bare in compress(self.roles, map(eq, map(_ROLE_OF, self.roles), repeat("bare"))):
            self.used.add(id(bare))
            is_t = bare.extra == "T" or bare.value >= 1e12
            if is_t and tokens is None and (params is not None or bare.value >= 1e12):
                tokens = bare.value
            elif not is_t and params is None:
                params = bare.value
            elif tokens is None and on_size(self.s, bare.tok.start, f["stage"]):  # 'train 7B on 300B'
                tokens = bare.value
        if active is None and params is not None:  # '100B-A10B' said alone: the MoE's active size
            active = active_after(self.s, self.roles, params)
        f["params_total"] = params
        if active is not None and params is not None and active < params:
            f["params_active"] = active
        f["tokens"] = tokens
        self._explicit_tokens = explicit_tokens is not None
        self._name_other_models(found, asked, model_mention or unknown, params, tokens)
        return model_mention, unknown

    def _name_other_models(
        self,
        found: list[Candidate],
        asked: Candidate | None,
        sized: ModelMention | None,
        params: float | None,
        tokens: float | None,
    ) -> None:
        """Every distinct model besides the one sized, named as not sized ('model: 20B', other_setup)."""
        if len(found) < 2:
            return
        kept = asked or next((c for c in found if sized is not None and c.mention is sized), None)
        if kept is None and params is not None:
            kept = Candidate(-1, value=params)
        for c in found:
            if kept is not None and (c is kept or c.same(kept)):
                continue
            if c.role is not None and c.role.value in (tokens, params):
                continue  # a size said alone that was read as the tokens, or is the size sized
            if c.role is not None:
                self.used.add(id(c.role))
            said = c.mention.text if c.mention is not None else c.role.tok.raw.strip() if c.role else ""
            typed = as_typed(self.raw, said)
            why = c.reason(self.s)
            if why == "rl_reward_model_not_sized" and "deepspeed" in self.s:  # s49: DeepSpeed-Chat's critic
                from bot.parse.dschat_critic import critic_model

                why = critic_model(self, c, why)
            self.named_unused.append((f"model: {named_text(c, typed)}", why))

    def _bare_context(self, tok: NumberToken) -> bool:
        """'70b fp8 at 8k': a bare thousands count after 'at', '@' (or 'with', serving) is the context."""
        return (
            bare_context_stage(self.f.get("stage"), self.s[max(0, tok.start - 24) : tok.start])
            and tok.mag == "k"
            and 1_000 <= tok.value <= 10_000_000
            and bool(BARE_CONTEXT_LEFT_RE.search(self.s[max(0, tok.start - 24) : tok.start]))
            # nothing after it names another quantity ("at 2k requests per day", "@ 10k daily users")
            and bool(BARE_CONTEXT_RIGHT_RE.match(self.s, tok.end))
        )

    def _rate_times_output(self, output: float, prompt: float | None = None) -> None:
        """A request rate with the output per request: the output tokens/s the service decodes."""
        rate, volume = requests_rate(self.s0), getattr(self, "_daily", (None, "", ({}, [])))[2][0]
        # '每天 10 万次调用': its average (trial s21 #5); s44: the volume read (people × count, per person)
        day = None if rate else (volume.get("requests_per_day") or daily_requests(self.s0))
        hour = None if rate or day else volume.get("requests_per_hour")  # s44: '10 an hour' each, × users
        minute = per_minute_typed(self.s0) if rate else None  # '300 requests per minute': said as typed
        rate = rate or (day / SECONDS_PER_DAY * 3.0 if day else None)  # estimator.request_volume's peak (s35)
        rate = rate or (hour / 3600 if hour else None)
        if rate:
            self.f["target_tokens_per_s"] = rate * output
            self.f["qps"] = rate  # its load by Little's law on the layout sized (estimator.rate_load)
            self.named_unused = [u for u in self.named_unused if not used_rate(u)]
            typed = {f"{rate:g}", f"{rate * 60:g}"}  # '300 requests per minute' is typed 300 (s18)
            self.unread = [u for u in self.unread if u not in typed]  # s17: used, said so, never 'unread'
            self.named_unused.append(
                (rate_said(rate, output, prompt, minute, day, hour), "rate_times_output")
            )
            self.f.update({} if prompt or self.f.get("seq_len") else prompt_in_default(self.f, output))  # s37

    def _data_and_context(self, stage: str | None) -> float | None:
        """Training data (samples × tokens per sample, epochs) and the sequence or serving context ("prompts
        ~2k, replies ~500": 2,500 a sequence). Returns the data's bytes if so given ("20GB 纯文本")."""
        f = self.f
        if RANGE_GATE_RE.search(self.s):
            from bot.parse.sample_range import sample_range  # imported when used (start-up)

            sample_range(self)  # '2k~4k tokens per sample': the mean for the time, the longer end fits
        samples, tps = firsts(self, "samples", "tps")
        f["num_samples"] = f.get("num_samples") or (samples.value if samples else None)  # a key's first
        f["tokens_per_sample"] = tps.value if tps else f.get("tokens_per_sample")  # s40: beside images
        # "20k preference pairs", "10万条偏好数据": a preference record is a chosen and a rejected response
        pairs = samples is not None and (samples.extra == "pairs" or bool(PREFERENCE_DATA_RE.search(self.s)))
        if pairs:  # the estimator counts a DPO pair's two sequences, and says so
            f["samples_are_pairs"] = True
            f["algorithm"] = f.get("algorithm") or ("dpo" if PREFERENCE_DATA_RE.search(self.s) else None)
            f["stage"] = f.get("stage") or "finetune"
        rm = "rm" in self.s and ("训" in self.s or "微调" in self.s or "train" in self.s)  # '训一个RM' (s43)
        if "reward" in self.s or "奖励" in self.s or "rm t" in self.s or rm:  # a reward model trained
            from bot.parse.reward_training import reward_training

            pairs = (reward_training(f, self.s, samples is not None) and samples is not None) or pairs
        if tps is not None and tps.extra == "chars":  # Chinese characters ≈ tokens (Qwen/GLM tokenizers,
            self.notes.append("chars_as_tokens")  # ≈1–1.5 characters a token): per sample only
        by_tokens = tps is not None and tps.extra == "tokens"
        if f["tokens"] is None and samples is not None and by_tokens and not pairs:
            f["tokens"] = samples.value * tps.value
        f["epochs"] = f.get("epochs") or self.value("epochs")  # a key's ('--epochs 2') first
        seq, (prompt, reply) = seq_role(self), firsts(self, "prompt", "reply")
        if seq is not None and not rounded_beside(f.get("seq_len"), seq, self.named_unused):
            f["seq_len"] = seq.value  # s21: a rounded '4k' beside a key's exact 4608 is named, the key's kept
        elif prompt is not None and (stage == "inference" or reply or f.get("max_completion_length")):
            f["seq_len"] = prompt.value + (reply.value if reply else f.get("max_completion_length") or 0)
            rate = stage is None and rated(self)  # a rate (s20), a day's (s21 #5; s35: a volume read)
            if stage == "inference" or (reply is not None and rate):  # '输入 2048、输出 512'; s30: alone too
                f.setdefault("prompt_tokens", prompt.value)
        elif prompt is not None and stage not in (None, "inference") and not f.get("seq_len"):
            # s38-gen: a trained input length alone ('输入长度 8k' of an SFT): the sequence trained on; an
            # RL run's is its prompt bound (the rollout adds the completion: estimator.rollout.with_prompt)
            rl = f.get("algorithm") in ("grpo", "ppo", "rloo")
            f["prompt_tokens" if rl else "seq_len"] = prompt.value if rl else seq_value(prompt.tok)
        elif prompt is not None and stage is None and not f.get("seq_len") and f["tokens"] is None:
            # s47 drop #5: an input length with no job word ('Qwen3-32B 做企业级商用，输入 128K token'):
            # the prompt of a serving answer; a training answer names it serving_only (never dropped)
            f["prompt_tokens"] = f["seq_len"] = prompt.value
        if tps is not None and by_tokens and not (f["num_samples"] or f["tokens"] or f.get("seq_len")):
            f["seq_len"], f["tokens_per_sample"] = round(tps.value), None  # a sample's length
            self.notes.append(SAMPLE_LENGTH)  # each sample's, beside a config's sample count (s28 H1)
        served = stage == "inference" or (stage is None and rated(self))
        if served and reply is not None and not f.get("target_tokens_per_s"):
            if prompt is None and seq is not None and 0 < reply.value < seq.value and rated(self):
                f.setdefault("prompt_tokens", round(seq.value - reply.value))  # s37 #1: context − output
            self._rate_times_output(reply.value, prompt.value if prompt else f.get("prompt_tokens"))
        # s41: a decode speed with no stage word ('tg128 of 170 t/s') is a serving job's
        decode = stage is None and bool(f.get("target_tokens_per_s"))
        if (served or decode) and reply is not None and prompt is None:
            output_alone(self, reply.value)  # '256 output tokens' alone: in the context, named
        if reply is not None and any(map(self.s.__contains__, LIST_WORDS)):  # s46 r42zh: '生成 2048 和 8192'
            listed_output(self, reply.value)
        if stage == "inference" and f["tokens"] is not None and self._explicit_tokens:
            f["tokens"] = None  # serving has no training tokens: named, never dropped in silence
            role = next((r for r in self.roles if r.role == "tokens"), None)
            said = role.tok.raw.strip() if role is not None else None
            if said and (said, "unread") not in self.named_unused:  # 'KV cache 只能放 15248 个 token'
                self.named_unused.append((said, "unread"))
                self.dropped_roles.append(role)  # its token, by identity, for the general reader
        if f["stage"] is None and f["tokens"] is not None:
            f["stage"] = "pretrain"  # training tokens without a stage word: pre-training (docs/design.md §4)
        data = self.first("data_bytes")
        if data is not None and f["tokens"] is None:  # '50GB 语料': named (no bytes-to-tokens rule yet)
            self.named_unused.append((f"data_size: {data.value / 1e9:g} GB", "no_field"))
        return data.value if data is not None else None

    def _money_and_serving(self, stage: str | None) -> None:
        """Deadline, budget, price and currency, MFU, micro-batch and concurrency."""
        f = self.f  # deadline: "48小时内" in the settings step; "within a month": one unit with no numeral
        f["deadline_days"] = self.value("days") or f.get("deadline_days") or within_a_period_days(self.s)
        if (  # s45 fixread #2: 'how many tokens a day … train', tested with ``in`` (bot.parse.train_rate)
            f["deadline_days"] is None
            and f["tokens"] is None
            and ("how many" in self.s or "多少" in self.s)
            and any(map(self.s.__contains__, PERIOD_WORDS))
        ):
            from bot.parse.train_rate import train_rate_days  # lazily: 'how many tokens a day … train'

            f["deadline_days"] = train_rate_days(self.s)
        budget, price = firsts(self, "budget", "price")
        f["budget"] = budget.value if budget else None
        f["price_per_gpu_hour"] = price.value if price else None
        currency = (budget.extra if budget else None) or (price.extra if price else None)
        if currency is None:
            cny, usd = CNY_WORD_RE.search(self.s), USD_WORD_RE.search(self.s)
            if cny and (not usd or cny.start() < usd.start()):
                currency = "CNY"
            elif usd:
                currency = "USD"
        if currency is None and budget is not None and (budget.tok.mag or "").strip() in CNY_SHORTHAND:
            currency = "CNY"  # "budget 1.5kw": 千万 is a Chinese amount, in yuan
        f["currency"] = currency
        if (budget or price or self.unread_toks) and any(map(self.s.__contains__, FOREIGN_CUES)):  # 万欧元
            foreign_money(self, budget, price)
        f["mfu"] = self.value("mfu")
        if f["mfu"] is not None and others_cue(self.s):  # s43: 'they got 40% MFU, what about us'
            f["mfu"] = self._own_mfu()
        f["batch_size"] = getattr(self, "micro_key", None) or self.value("batch") or f.get("batch_size")
        f["concurrency"] = load_value(self) or f.get("concurrency")  # llama.cpp -np: a setting
        if DP_ATTENTION_RE.search(self.s) and f.get("dp_attention") is None:  # s19: said in prose
            f["dp_attention"] = dp_attention_said(self.s)
        if stage == "inference" and any(map(self.s.__contains__, SERVING_METHOD_CUES)):  # s43 trial #3/#4
            from bot.parse.serving_methods import serving_methods

            serving_methods(self.s, self.named_unused, self.raw)
            from bot.parse.draft_model import draft_named  # s44: the draft's memory counted

            f["draft_model"] = draft_named(self.raw, self.named_unused)
        if f.get("model") and any(map(self.s.__contains__, RETRIEVAL_CUES)):  # s46 r42zh: RAG's other models
            retrieval_named(self.s, self.raw, f["model"], self.named_unused)
        team = team_size(self.raw.lower()) if stage not in (None, "inference") and f["concurrency"] else None
        if team is not None and team == f["concurrency"]:  # 'our team of 5 engineers wants to fine-tune'
            f["concurrency"] = None
            self.named_unused.append((f"team_size: {team:g}", "not_sized"))
        if f["concurrency"] is None and single_user(self.s, self.named_unused):  # "单用户", "单人使用"
            f["concurrency"] = 1
        if stage == "inference" and f["batch_size"] is not None:  # serving: max batch = concurrent (a cap)
            f["concurrency"] = engine_batch(f, f["concurrency"], self.s, self.named_unused)

    def _own_mfu(self) -> float | None:
        """The MFU stated, unless it is said of someone else's run (:func:`bot.parse.others_run.others_at`:
        'They got 40% MFU', '别人 MFU 能到 40%'): then named as another setup's (``other_setup``), and the
        job takes its default."""
        mfu = self.first("mfu")
        if mfu is None or not others_at(self.s, mfu.tok.start):
            return mfu.value if mfu else None
        self.named_unused.append((f"MFU {mfu.value * 100:g}%", "other_setup"))
        return None

    def _global_batch(self) -> None:
        """Global batch = micro-batch × gradient accumulation × data-parallel size (GPUs / (TP × PP)),
        the sequences per optimizer step (HF Trainer: per_device_train_batch_size ×
        gradient_accumulation_steps × world size). Without a GPU count the accumulation is used as
        stated on the layout the answer picks (s10 trial B3); so is it with GPUs and no micro-batch (the
        micro-batch default, 1): the batch line shows the stated accumulation, not one re-derived (s11)."""
        f, accum = self.f, self.accumulation
        if "token" in self.s0 and f.get("batch_size") and f.get("seq_len") and not accum:  # s42: B × seq said
            from bot.parse.batch_tokens import batch_is_global  # lazily: tokens per batch are rare

            batch_is_global(f, self.s0)  # as its tokens per batch: the global batch (bot.parse.batch_tokens)
        if not accum or f.get("global_batch"):  # round 20: beside a global batch, kept as said (a plan's own
            f["gradient_accumulation"] = accum or f.get("gradient_accumulation")  # follows the global's DP)
            return
        micro, gpus = f.get("batch_size"), f.get("gpu_count")
        if micro and gpus:
            dp = max(1, int(gpus) // ((f.get("tp") or 1) * (f.get("pp") or 1)))
            f["global_batch"] = int(micro) * accum * dp
            f["gradient_accumulation"] = accum  # as stated: the batch line names a re-derived one (s17)
        else:  # no micro-batch or no GPU count: used as stated on the layout the answer picks (s11)
            f["gradient_accumulation"] = accum


CNY_SHORTHAND = frozenset(("w", "kw", "万", "千万", "亿", "百万"))
"""Magnitudes written the Chinese way ('80w', '1.5kw', '两千万'): yuan unless a currency is named."""


def _names_active(total: float, active: float | None, size: float) -> bool:
    """Whether a size in a catalog MoE's name is its active size ('Llama-4-Scout-17B-16E': 17B of 109B):
    then the catalog's total is sized, never a 17B model (round 4)."""
    return bool(active) and abs(active - size) / size < 0.1 and abs(total - size) / size >= 0.1


VLLM_LENGTHS = ("max_model_len", "seq_len", "prompt_tokens", "max_completion_length", "tokens_per_request")
"""Fields that state a length: with any of them said, vLLM is not left at the model's own length."""


def vllm_default_length(fields: dict, mention: ModelMention | None, ran: bool = False) -> bool | None:
    """True when vLLM is named with no length said (:data:`VLLM_LENGTHS`) on one GPU (or none said), the
    question not asking which length to set (``context_asked``), and the model's version named (not
    'LLaMA-70B' read as the latest release, whose window is a guess): ``vllm serve`` then takes the
    release's config.json ``max_position_embeddings`` as --max-model-len (vllm/config.py
    ``_get_and_verify_max_len``) and refuses to start when one such sequence does not fit its KV cache
    (estimator.serving_launch.takes_model_length). On several GPUs the TP they launch is not said, and the
    sizing's own layout (a copy a GPU where one fits) is no launch of theirs to refuse; ``ran``: the message
    reports a figure of the running server ('30 tok/s', named "observed"), so it started. None otherwise
    (a pasted command's own value stays)."""
    if fields.get("max_model_len_default") or mention is None or mention.substitution == NO_VERSION:
        return fields.get("max_model_len_default")
    several = ran or (fields.get("gpu_count") or 1) > 1
    if several or fields.get("context_asked") or any(map(fields.get, VLLM_LENGTHS)):  # C: no generator frames
        return None
    return True
