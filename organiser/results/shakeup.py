"""Public rank against final rank (issue 23): how far the test phase's public part predicted the final ranking.

In mode public_private the platform's test leaderboard ranks the teams on the public part of the test gold (the
reference uploaded, ``REF/test``) and the final ranking on the private part (``REF/private/test``). ``make
results`` re-scores each team's official submission on both: :func:`summary` puts each team's public score and
rank beside its final ones and measures the shake-up (Spearman's rho and Kendall's tau-b between the two rankings,
the teams that moved); the renderers (:func:`markdown`, :func:`latex`, :func:`html`, :func:`csv_cells`) show it. The
intervals and significance of the kit's paired bootstrap stay on the final (private) ranking.
"""
import math

from evalkit import metrics

SPEARMAN, KENDALL = "spearman", "kendall"


def competition_ranks(idents, scores):
    """``{ident: rank}``: 1 for the best score, ties share the better rank (1, 2, 2, 4), ties broken by nothing.

    >>> sorted(competition_ranks(["a", "b", "c", "d"], [0.9, 0.5, 0.5, 0.1]).items())
    [('a', 1), ('b', 2), ('c', 2), ('d', 4)]
    """
    if len(idents) != len(scores):
        raise ValueError("%d teams but %d scores" % (len(idents), len(scores)))
    return dict((idents[i], 1 + sum(1 for other in scores if other > scores[i])) for i in range(len(idents)))


def spearman(a, b):
    """Spearman's rho of two score lists (ties: average ranks); None with fewer than two items or no variance.

    >>> spearman([1, 2, 3], [1, 2, 3]), spearman([1, 2, 3], [3, 2, 1])
    (1.0, -1.0)
    """
    if len(a) != len(b):
        raise ValueError("%d values against %d" % (len(a), len(b)))
    if len(a) < 2 or min(a) == max(a) or min(b) == max(b):
        return None
    return metrics.spearman(a, b)   # the scorer's own (evalkit.metrics: ties given their average rank)


def kendall(a, b):
    """Kendall's tau-b of two score lists; None with fewer than two items or when one list is constant.

    >>> kendall([1, 2, 3, 4], [1, 2, 4, 3])
    0.6666666666666666
    """
    if len(a) != len(b):
        raise ValueError("%d values against %d" % (len(a), len(b)))
    concordant = discordant = ties_a = ties_b = 0
    for i in range(len(a)):
        for j in range(i + 1, len(a)):
            da, db = a[i] - a[j], b[i] - b[j]
            if da == 0 and db == 0:
                continue
            if da == 0:
                ties_a += 1
            elif db == 0:
                ties_b += 1
            elif (da > 0) == (db > 0):
                concordant += 1
            else:
                discordant += 1
    denominator = math.sqrt((concordant + discordant + ties_a) * (concordant + discordant + ties_b))
    return (concordant - discordant) / denominator if denominator else None


def summary(idents, public_scores, final_scores, lower_is_better=False):
    """The shake-up of one subtask: ``{"teams": {ident: {"public_score", "public_rank", "final_score",
    "final_rank", "move"}}, "spearman", "kendall", "moved", "largest_move"}`` (``move`` > 0: the team rose in the
    final ranking). Scores are the overall scores; ``lower_is_better`` for an overall score that sorts ascending."""
    sign = -1 if lower_is_better else 1
    public = competition_ranks(idents, [sign * s for s in public_scores])
    final = competition_ranks(idents, [sign * s for s in final_scores])
    teams = {}
    for index, ident in enumerate(idents):
        teams[ident] = {"public_score": public_scores[index], "public_rank": public[ident],
                        "final_score": final_scores[index], "final_rank": final[ident],
                        "move": public[ident] - final[ident]}
    moves = [abs(team["move"]) for team in teams.values()]
    return {"teams": teams, SPEARMAN: spearman(public_scores, final_scores), KENDALL: kendall(public_scores, final_scores),
            "moved": sum(1 for move in moves if move), "largest_move": max(moves) if moves else 0}


def rows(sub):
    """``[(name, public rank, public score, final rank, final score, move)]`` of a subtask's shake-up, in final
    order (teams only); empty without one."""
    shake = sub.get("shakeup")
    if not shake:
        return []
    names = dict((row["id"], row["name"]) for row in sub["rows"] if not row["baseline"])
    ordered = sorted(shake["teams"].items(), key=lambda item: (item[1]["final_rank"], names.get(item[0], item[0])))
    return [(names.get(ident, ident), team["public_rank"], team["public_score"], team["final_rank"],
             team["final_score"], team["move"]) for ident, team in ordered]


def _number(value):
    return "n/a" if value is None else "%.3f" % value


def sentence(sub):
    """The shake-up in one sentence (plain text)."""
    shake = sub["shakeup"]
    return ("%s; %d of %d team(s) changed rank between the public part and the final ranking (largest move: %d); "
            "Spearman's rho %s, Kendall's tau-b %s between the two rankings." % (
                shake.get("public_part") or "public part", shake["moved"], len(shake["teams"]),
                shake["largest_move"], _number(shake[SPEARMAN]), _number(shake[KENDALL])))


def _move(move):
    return "+%d" % move if move > 0 else ("%d" % move if move else "=")


def markdown(sub, escape):
    """The Markdown lines of a subtask's shake-up section (``escape``: the Markdown escaper of names)."""
    if not sub.get("shakeup"):
        return []
    out = ["### Public rank and final rank", "", escape(sentence(sub)), "",
           "| Final rank | Team | Final score | Public rank | Public score | Move |", "|---|---|---|---|---|---|"]
    for name, public_rank, public_score, final_rank, final_score, move in rows(sub):
        out.append("| %d | %s | %.4f | %d | %.4f | %s |" % (final_rank, escape(name), final_score, public_rank,
                                                        public_score, _move(move)))
    return out + [""]


def latex(sub, escape):
    """The LaTeX lines of a subtask's shake-up table (``escape``: the LaTeX escaper of names)."""
    if not sub.get("shakeup"):
        return []
    out = ["", r"\noindent %s" % escape(sentence(sub)), "", r"\begin{longtable}{rlrrrr}", r"\toprule",
           r"Final rank & Team & Final score & Public rank & Public score & Move \\", r"\midrule"]
    for name, public_rank, public_score, final_rank, final_score, move in rows(sub):
        out.append(r"%d & %s & %.4f & %d & %.4f & %s \\" % (final_rank, escape(name), final_score, public_rank,
                                                          public_score, escape(_move(move))))
    return out + [r"\bottomrule", r"\end{longtable}"]


def html(sub, esc):
    """The HTML of a subtask's shake-up section (empty without one; ``esc``: the HTML escaper of names)."""
    if not sub.get("shakeup"):
        return []
    body = "".join("<tr><td>%d</td><td class=\"name\">%s</td><td>%.4f</td><td>%d</td><td>%.4f</td><td>%s</td></tr>"
                   % (final_rank, esc(name), final_score, public_rank, public_score, esc(_move(move)))
                   for name, public_rank, public_score, final_rank, final_score, move in rows(sub))
    return ["<h3>Public rank and final rank</h3>", "<p>%s</p>" % esc(sentence(sub)),
            "<table><thead><tr><th>Final rank</th><th class=\"name\">Team</th><th>Final score</th><th>Public rank</th>"
            "<th>Public score</th><th>Move</th></tr></thead><tbody>%s</tbody></table>" % body]


CSV_HEADER = ["public_rank", "public_score"]


def csv_cells(sub, ident):
    """The ranking.csv cells of a row (``public_rank``, ``public_score``): empty for a baseline or without shake-up."""
    team = (sub.get("shakeup") or {}).get("teams", {}).get(ident)
    return [str(team["public_rank"]), repr(team["public_score"])] if team else ["", ""]
