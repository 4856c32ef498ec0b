"""The memory section's alternatives: 'With CPU offload: 2 GPUs' — one line per option that changes the
answer, the user's own settings first (moved out of bot/render/memory_text.py, s40, to keep it within its
450 lines)."""

from __future__ import annotations

from bot.render.alternatives_shown import fix_order, own_card_fix, shown, with_same_card_fix
from bot.render.fit_change_text import alternative_label, likely_fit_text, unfit_change_text
from bot.render.fmt import Fmt
from bot.render.i18n import N_, translate
from bot.render.plan_text import gpus_text
from bot.render.wording import MAX_ALTERNATIVES, STATED_ALTERNATIVES
from estimator.models import Plan, SizingReport


def alternatives(report: SizingReport, main: Plan | None, f: Fmt) -> list[str]:
    """'With CPU offload: 2 GPUs' — the fewest GPUs under each option that changes the answer
    (:func:`bot.render.alternatives_shown.shown`); an alternative to the user's own setting ('With
    ZeRO-3: 2 GPUs, ≈ 29.8 GiB per GPU') comes first; a count at or below one the user saw fail is
    said to be the estimate's."""
    lang = f.lang
    lines = []
    ordered, capped = fix_order(shown(report, main), report), False
    if (g := report.gpu_spec) is not None and g.personal:  # no count past one machine (s39 fixv #2)
        for a, _ in ordered:  # a loop: no call unless an option needs more (bot.render.rent_cap)
            if a.min_gpus and a.min_gpus > g.gpus_per_node:
                from bot.render.rent_cap import within_cap

                ordered, capped = within_cap(report, ordered)
                break
    lead = sum([1 for a, _ in ordered if own_card_fix(a, report.request.gpu_count)])
    for a, failed in ordered:
        label = alternative_label(a, lang, report.request.method)
        if not a.min_gpus:
            gpus = translate(lang, N_("does not fit"))
        elif a.change in STATED_ALTERNATIVES and a.per_gpu_bytes:
            gpus = translate(
                lang,
                N_("%(gpus)s, ≈ %(per_gpu)s per GPU"),
                gpus=gpus_text(lang, a.min_gpus),
                per_gpu=f.gib(a.per_gpu_bytes),
            )
        else:
            gpus = gpus_text(lang, a.min_gpus)
        if a.gpu_hours and report.request.gpu_count:  # it fits the user's own count: its time there (s35)
            own = report.request.gpu_count
            gpus = translate(
                lang,
                N_("%(gpus)s; on your %(count)s ≈ %(hours)s h (%(gpu_hours)s GPU-hours)"),
                gpus=gpus,
                count=gpus_text(lang, own),
                hours=f.hours(a.gpu_hours / own),
                gpu_hours=f.hours(a.gpu_hours),
            )
        if failed:
            gpus = translate(lang, BELOW_FAILED[failed[1]], gpus=gpus, failed=gpus_text(lang, failed[0]))
        if a.host_ram_bytes:  # an offload row names the host RAM it needs (s40 fixt #14); GB as f.gb, no call
            ram = f"{a.host_ram_bytes / 1e9:,.0f} GB"
            lines.append(translate(lang, OFFLOAD_RAM, change=label, gpus=gpus, ram=ram))
        else:
            lines.append(translate(lang, N_("%(change)s: %(gpus)s"), change=label, gpus=gpus))
    lines = with_same_card_fix(lines[:MAX_ALTERNATIVES], unfit_change_text(report, f), report, lead)
    if capped:
        from bot.render.rent_cap import cap_line

        lines.append(cap_line(report, f))
    m = report.memory
    if m is not None and m.likely_fit and report.request.gpu_count != 1:  # the headline's on one card (s39)
        more = likely_fit_text(report, f)
        return [*lines, more] if more else lines
    return lines


OFFLOAD_RAM = N_("%(change)s: %(gpus)s, ≈ %(ram)s of host RAM per machine")
"""An offload alternative with the host RAM each machine needs for it (estimator.host_ram)."""
BELOW_FAILED = {
    True: N_(
        "%(gpus)s by the estimate, which your run on %(failed)s disagrees with (out of memory): expect more"
    ),
    False: N_(
        "%(gpus)s by the estimate for this change; your run that ran out of memory on %(failed)s lacked it"
    ),
}
"""An alternative's count at or below the largest count the user said ran out of memory (s17 trial t2)."""
