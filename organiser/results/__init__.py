"""Organiser results: re-score every team's official submission, rank with confidence intervals, and
write the tables and figures of the findings paper (``python -m organiser results``, ``make results``).

Modules: :mod:`.layouts` (the platforms' bulk downloads and plain folders), :mod:`.rescoring` (the
scoring program in parallel, with its per-sentence opt-in), :mod:`.compute` (official submissions,
baselines, rankings), :mod:`.bootstrap` (paired bootstrap, intervals, significance, rank clusters),
:mod:`.names` (what identifies an entry, what is shown of its name, which could be confused), :mod:`.tables`,
:mod:`.render`, :mod:`.latex`, :mod:`.html_page`, :mod:`.figures` (the outputs).
Everything competition-specific comes from the competition's declaration module and ``evalkit.keys``.
"""
from .cli import main  # noqa: F401  (``python -m organiser results`` calls organiser.results.main)
