"""Public rank against final rank (issue 23): how far the test phase's public part predicted the final ranking.

In mode public_private the platform's test leaderboard ranks the teams on the public part of the test gold (the
reference uploaded, ``REF/test``) and the final ranking on the private part (``REF/private/test``). ``make
results`` re-scores each team's official submission on both: :func:`summary` puts each team's public score and
rank beside its final ones and measures the shake-up (Spearman's rho and Kendall's tau-b between the two rankings,
the teams that moved); the renderers (:func:`markdown`, :func:`latex`, :func:`html`, :func:`csv_cells`) show it. The
intervals and significance of the kit's paired bootstrap stay on the final (private) ranking.

The same comparison shows the ranking on the private items whose gold is found nowhere public (issue 30: ``make
results`` with ``--clean contamination.json``, organiser/contamination.py) beside the final one: its table only when
the two rankings differ, a sentence when they do not. :data:`COMPARISONS` names both (a result's ``shakeup`` and
``clean``; :func:`summary`'s ``public_*`` fields are the other ranking's).
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


#: The rankings shown beside the final one: ``(key in a subtask's results, section title, the other ranking's name,
#: what its part is called, whether its table is shown when no team moved)``.
COMPARISONS = (("shakeup", "Public rank and final rank", "Public", "public part", True),
               ("clean", "Ranking on the items found nowhere public", "Clean", "items whose gold is found nowhere "
                                                                             "public", False))


def rows(sub, key="shakeup"):
    """``[(name, other rank, other score, final rank, final score, move)]`` of a subtask's comparison ``key``, in
    final order (teams only); empty without one."""
    shake = sub.get(key)
    if not shake:
        return []
    names = dict((row["id"], row["name"]) for row in sub["rows"] if not row["baseline"])
    ordered = sorted(shake["teams"].items(), key=lambda item: (item[1]["final_rank"], names.get(item[0], item[0])))
    return [(names.get(ident, ident), team["public_rank"], team["public_score"], team["final_rank"],
             team["final_score"], team["move"]) for ident, team in ordered]


def _number(value):
    return "n/a" if value is None else "%.3f" % value


def sentence(sub, key="shakeup"):
    """The comparison ``key`` in one sentence (plain text)."""
    shake = sub[key]
    _, _, _, part, _ = _comparison(key)
    if key == "shakeup":
        return ("%s; %d of %d team(s) changed rank between the public part and the final ranking (largest move: "
                "%d); Spearman's rho %s, Kendall's tau-b %s between the two rankings." % (
                    shake.get("public_part") or "public part", shake["moved"], len(shake["teams"]),
                    shake["largest_move"], _number(shake[SPEARMAN]), _number(shake[KENDALL])))
    if not shake["moved"]:
        return "%s: every team has the same rank as in the final ranking." % (shake.get("public_part") or part)
    return ("%s; %d of %d team(s) rank otherwise than in the final ranking (largest move: %d); Spearman's rho %s, "
            "Kendall's tau-b %s between the two rankings." % (
                shake.get("public_part") or part, shake["moved"], len(shake["teams"]), shake["largest_move"],
                _number(shake[SPEARMAN]), _number(shake[KENDALL])))


def _comparison(key):
    return next(c for c in COMPARISONS if c[0] == key)


def _shown(sub):
    """``[(key, title, name, with its table)]`` of the comparisons a subtask has."""
    return [(key, title, name, always or bool(sub[key]["moved"])) for key, title, name, _, always in COMPARISONS
            if sub.get(key)]


def _move(move):
    return "+%d" % move if move > 0 else ("%d" % move if move else "=")


def markdown(sub, escape):
    """The Markdown lines of a subtask's comparisons (``escape``: the Markdown escaper of names)."""
    out = []
    for key, title, name, table in _shown(sub):
        out += ["### %s" % title, "", escape(sentence(sub, key)), ""]
        if table:
            out += ["| Final rank | Team | Final score | %s rank | %s score | Move |" % (name, name),
                    "|---|---|---|---|---|---|"]
            for team, other_rank, other_score, final_rank, final_score, move in rows(sub, key):
                out.append("| %d | %s | %.4f | %d | %.4f | %s |" % (final_rank, escape(team), final_score, other_rank,
                                                                    other_score, _move(move)))
            out.append("")
    return out


def latex(sub, escape):
    """The LaTeX lines of a subtask's comparisons (``escape``: the LaTeX escaper of names)."""
    out = []
    for key, title, name, table in _shown(sub):
        out += ["", r"\noindent %s" % escape(sentence(sub, key)), ""]
        if table:
            out += [r"\begin{longtable}{rlrrrr}", r"\toprule",
                    r"Final rank & Team & Final score & %s rank & %s score & Move \\" % (name, name), r"\midrule"]
            for team, other_rank, other_score, final_rank, final_score, move in rows(sub, key):
                out.append(r"%d & %s & %.4f & %d & %.4f & %s \\" % (final_rank, escape(team), final_score, other_rank,
                                                                    other_score, escape(_move(move))))
            out += [r"\bottomrule", r"\end{longtable}"]
    return out


def html(sub, esc):
    """The HTML of a subtask's comparisons (empty without one; ``esc``: the HTML escaper of names)."""
    out = []
    for key, title, name, table in _shown(sub):
        out += ["<h3>%s</h3>" % esc(title), "<p>%s</p>" % esc(sentence(sub, key))]
        if table:
            body = "".join("<tr><td>%d</td><td class=\"name\">%s</td><td>%.4f</td><td>%d</td><td>%.4f</td><td>%s</td>"
                           "</tr>" % (final_rank, esc(team), final_score, other_rank, other_score, esc(_move(move)))
                           for team, other_rank, other_score, final_rank, final_score, move in rows(sub, key))
            out.append("<table><thead><tr><th>Final rank</th><th class=\"name\">Team</th><th>Final score</th>"
                       "<th>%s rank</th><th>%s score</th><th>Move</th></tr></thead><tbody>%s</tbody></table>"
                       % (name, name, body))
    return out


def csv_header(sub):
    """The ranking.csv columns of a subtask's comparisons (``public_rank``, ``public_score``, ``clean_rank``,
    ``clean_score``)."""
    return [column for key, _, name, _, _ in COMPARISONS if sub.get(key)
            for column in ("%s_rank" % name.lower(), "%s_score" % name.lower())]


def csv_cells(sub, ident):
    """The ranking.csv cells of a row for :func:`csv_header`: empty for a baseline."""
    cells = []
    for key, _, _, _, _ in COMPARISONS:
        if sub.get(key):
            team = sub[key].get("teams", {}).get(ident)
            cells += [str(team["public_rank"]), repr(team["public_score"])] if team else ["", ""]
    return cells
