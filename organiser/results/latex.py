"""``results.tex``: a standalone LaTeX document (pdflatex, booktabs) with one table per subtask overall
and per task. Copy a ``table`` environment into the findings paper as it is (it needs ``booktabs`` and
``graphicx``; a table of more than 40 rows is a ``longtable``). Scores are shown x100 with two decimals;
the best team value of each column is bold; baselines are italic rows after a rule, marked "(baseline)",
and are not ranked.
"""
import re

from evalkit.messages import printable

from . import shakeup
from .tables import subtask_tables

LONG = 40   # rows: a longer table becomes a longtable that breaks across pages

_TEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
                "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}", '"': r"\textquotedbl{}",
                "[": r"{[}", "]": r"{]}", "\u2026": r"\ldots{}"}
#: The characters pdflatex typesets as they are with inputenc (utf8), fontenc (T1) and textcomp (TS1): those of
#: Latin-1 and Latin Extended-A that t1enc.dfu and ts1enc.dfu declare (not U+00B8, Ħ ħ ĸ Ŀ ŀ ŉ Ŧ ŧ ſ), and the
#: dashes, quotation marks and per mille sign. Every other character is written as its code point.
TYPESET = frozenset(
    "\u00a0¡¢£¤¥¦§¨©ª«¬\u00ad®¯°±²³´µ¶·¹º»¼½¾¿ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖ×ØÙÚÛÜÝÞßàáâãäåæçèéêëìíîïðñòóôõö÷øùúûüýþÿ"
    "ĀāĂăĄąĆćĈĉĊċČčĎďĐđĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĨĩĪīĬĭĮįİıĲĳĴĵĶķĹĺĻļĽľŁłŃńŅņŇňŊŋŌōŎŏŐőŒœŔŕŖŗŘřŚśŜŝŞşŠšŢţŤť"
    "ŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽž\u2013\u2014\u2018\u2019\u201a\u201c\u201d\u201e\u2030")


def tex_escape(text):
    r"""``text`` as LaTeX source that prints it literally (one line). A character pdflatex cannot typeset with
    the document's fonts (:data:`TYPESET`, printable ASCII) is written as its code point, ``[U+540D]`` in
    typewriter type, so that any name compiles and two different names never print alike.

    >>> print(tex_escape("R&D_team {x} 100% \\ Ærø"))
    R\&D\_team \{x\} 100\% \textbackslash{} Ærø
    >>> print(tex_escape("名ſ"))
    \texttt{{[}U+540D{]}}\texttt{{[}U+017F{]}}
    """
    out = []
    for char in " ".join(str(text).split()):
        if char in _TEX_SPECIAL:
            out.append(_TEX_SPECIAL[char])
        elif 32 <= ord(char) < 127 or char in TYPESET:
            out.append(char)
        else:
            out.append(r"\texttt{{[}U+%04X{]}}" % ord(char))
    return "".join(out)


def comment(text):
    """``text`` as a LaTeX comment line (one line, printable: it stays a comment and the file stays UTF-8)."""
    return "% " + printable(" ".join(str(text).split()), 10000)


def fmt(value):
    """A score as the LaTeX tables show it: x100, two decimals."""
    return "%.2f" % (100.0 * value)


def table(tab, label):
    """One ``table`` environment for :class:`~organiser.results.tables.Table` ``tab`` (a ``longtable`` over
    several pages when it has more than :data:`LONG` rows)."""
    heads = ["Rank", "Team", tex_escape(tab.columns[0][1]), "95\\% CI"] + [tex_escape(l) for _, l in tab.columns[1:]]
    caption = (r"\caption{%s. Scores $\times 100$; ranks are clusters of teams whose adjacent differences are not "
               r"significant (paired bootstrap, $p<0.05$); best team value in bold; baselines in italics, not ranked.}"
               % tex_escape(tab.title))
    head = [r"\toprule", " & ".join(heads) + r" \\", r"\midrule"]
    spec = "rl" + "r" * (len(heads) - 2)
    if len(tab.rows) > LONG:
        return "\n".join([r"{\scriptsize", r"\begin{longtable}{%s}" % spec, caption + r"\label{tab:%s}\\" % label]
                         + head + [r"\endfirsthead"] + head + [r"\endhead", r"\bottomrule", r"\endlastfoot"]
                         + _body(tab) + [r"\end{longtable}}"])
    return "\n".join([r"\begin{table}[htbp]", r"\centering", caption, r"\label{tab:%s}" % label,
                      r"\resizebox{\ifdim\width>\linewidth\linewidth\else\width\fi}{!}{%",
                      r"\begin{tabular}{%s}" % spec] + head + _body(tab) + [r"\bottomrule", r"\end{tabular}}",
                                                                           r"\end{table}"])


def _body(tab):
    """The rows of ``tab``: teams, a rule, then the baselines."""
    key = tab.columns[0][0]
    best = dict((k, tab.best(k, fmt)) for k, _ in tab.columns)
    lines = []
    baseline_rule = False
    for row in tab.rows:
        if row.baseline and not baseline_rule:
            lines.append(r"\midrule")
            baseline_rule = True
        lines.append(comment("row: %s" % row.name))
        cells = [row.rank_text("--"), _name(row)]
        for k, _ in tab.columns:
            value = row.value(k)
            text = fmt(value) if value is not None else "--"
            if row.baseline:
                text = r"\textit{%s}" % text
            elif text == best[k]:
                text = r"\textbf{%s}" % text
            cells.append(text)
            if k == key:
                cells.append("[%s, %s]" % tuple(fmt(v) for v in row.interval(k)))
        lines.append(" & ".join(cells) + r" \\")
    return lines


def _name(row):
    name = tex_escape(row.name)
    return r"\textit{%s (baseline)}" % name if row.baseline else name


def document(results):
    """The whole ``results.tex``."""
    lines = [r"\documentclass[10pt]{article}", r"\usepackage[utf8]{inputenc}", r"\usepackage[T1]{fontenc}", r"\usepackage{textcomp}",
             r"\usepackage{lmodern}", r"\usepackage[margin=2cm,landscape]{geometry}", r"\usepackage{booktabs}",
             r"\usepackage{graphicx}", r"\usepackage{longtable}", r"\setlength{\LTcapwidth}{\textwidth}",
             r"\begin{document}",
             comment("Generated by python -m organiser results."),
             comment("Method: %s" % results["method"]),
             r"\section*{Results: %s}" % tex_escape(results["competition"]["title"]),
             r"\noindent\textbf{Method.} %s Official submission of each team: the %s one." % (
                 tex_escape(results["method"]), tex_escape(results["rule"]))]
    for sub in results["subtasks"]:
        lines += ["", r"\subsection*{%s}" % tex_escape(sub["title"]),
                  r"\noindent Scorer signature: \texttt{%s}" % tex_escape(sub["signature"])]
        if results.get("ranked_on"):
            lines += ["", r"\noindent Ranked on %s." % tex_escape(results["ranked_on"])]
        for i, tab in enumerate(subtask_tables(sub)):
            lines += ["", table(tab, re.sub(r"[^A-Za-z0-9-]", "-", tab.slug))]
        lines += shakeup.latex(sub, tex_escape)
        lines.append(r"\clearpage")
    lines.append(r"\end{document}")
    return "\n".join(lines) + "\n"
