"""evalkit: competition-agnostic machinery of the scoring program.

It finds and loads files, validates them with precise messages, applies the metric functions a
competition declares, aggregates the scores and writes ``scores.txt``, ``scores.json``, ``detailed_results.json`` and
``detailed_results.html``. It knows no language, task or file name: those come from a competition
module (``scoring_program/<id>.py``, ``competitions/<id>/<id>.py``). Standard library only, Python 3.7+.
"""

__version__ = "1.0.0"
