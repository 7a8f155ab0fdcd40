"""Many matches' figures in words for a person, in the language asked (i18n.py): `meeple sim`'s summary and
`meeple duel`'s report. The figures themselves (the `--json` objects) are the same in every language."""

from __future__ import annotations

from typing import Any

from .i18n import Words


def sim_summary(title: str, s: dict[str, Any], seeds: str, players: int, w: Words) -> list[str]:
    """The lines of `meeple sim`'s summary (`seeds`: those of the matches it sums up, as the run stage words
    them): win rate and mean score by seat, length, groups, rates per round, counters, speed."""
    out = [w("sim.title", title=title, games=w.n(s["games"], "game"), players=w.n(players, "player"),
             seeds=w.seeds(seeds))]
    bots = s.get("bots") or ["random"] * players
    heads = [w("sim.seat"), w("sim.bot"), w("sim.wins"), w("sim.win_rate"), w("sim.mean_score")]
    seat = max(6, len(heads[0]) + 2)
    width = max(len(b) for b in bots) + 2 if any(b != "random" for b in bots) else 0  # each seat's bot, if named
    if width:
        width = max(width, len(heads[1]) + 2)
    wins, rate, score = (max(least, len(head) + 2) for least, head in zip((8, 10, 12), heads[2:], strict=True))
    out.append(f"  {heads[0]:<{seat}}{heads[1] if width else '':<{width}}{heads[2]:>{wins}}{heads[3]:>{rate}}"
               f"{heads[4]:>{score}}")
    for p in range(players):
        out.append(f"  {'P' + str(p):<{seat}}{bots[p] if width else '':<{width}}{s['wins_by_seat'][p]:>{wins}}"
                   f"{s['win_rate_by_seat'][p]:>{rate}.1%}{s['mean_scores'][p]:>{score}.2f}")
    out.append("  " + w("sim.means", turns=s["mean_turns"], decisions=s["mean_decisions"]))
    if s["win_rate_by_group"]:
        out.append("  " + w("sim.by_group", group=s["report_by"]))
        for group, share in s["win_rate_by_group"].items():
            out.append(f"    {group:<24}{share:>8.1%}")
    for name, share in s["per_round"].items():
        out.append("  " + w("sim.per_round", name=name, rate=share))
    out.append("  " + w("sim.capped", rate=s["ended_by_round_limit"]))
    if s["mean_counters"]:
        means = ", ".join(f"{k} {v:.3f}" for k, v in s["mean_counters"].items())
        out.append("  " + w("sim.counters", means=means))
    out.append("  " + w("sim.speed", rate=s["games_per_s"], seconds=s["elapsed_s"],
                        workers=w.n(s["workers"], "worker")))
    return out


def duel_report(title: str, d: dict[str, Any], w: Words) -> str:
    """The readable lines of `meeple duel`: A's win rate against a bot as good as B's, its mean score, by seat."""
    a, b, n, p = d["a"], d["b"], d["games"], d["players"]
    last = d["seed"] + (n - 1) // p
    seeds = w("duel.seed", first=d["seed"]) if last == d["seed"] else w("duel.seeds", first=d["seed"], last=last)
    low, high = d["a_win_rate_ci"]
    mean_low, mean_high = d["a_mean_score_ci"]
    verdict = w("duel.better") if low > d["even_rate"] else w("duel.worse") if high < d["even_rate"] \
        else w("duel.same")
    seats = ", ".join(f"P{s} {r:.1%}" for s, r in enumerate(d["a_win_rate_by_seat"]))
    return "\n".join([
        w("duel.title", title=title, a=a, b=b, games=w.n(n, "game"), players=w.n(p, "player"), seeds=seeds),
        "  " + w("duel.rate", a=a, b=b, rate=d["a_win_rate"], low=low, high=high, even=d["even_rate"],
                 verdict=verdict),
        "  " + w("duel.score", a=a, score=d["a_mean_score"], low=mean_low, high=mean_high,
                 wins=w(f"wins.{d['wins']}")),
        "  " + w("duel.by_seat", a=a, seats=seats),
        "  " + w("duel.time", seconds=d["seconds"]),
    ])
