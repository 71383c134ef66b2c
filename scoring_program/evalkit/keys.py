"""Score keys: the one place that turns a competition's tasks and languages into key names.

Used by the scorer (what it writes) and by the bundle builder (the leaderboard columns), so the two
can never drift apart.
"""

OVERALL_KEY = "avg_score"


def task_mean_key(task):
    """Key of the mean of ``task`` over its languages, e.g. ``avg_pos``."""
    return "avg_" + task.key


def language_key(lang):
    """Key of the mean of a language's task scores, e.g. ``lat_avg_score``."""
    return lang + "_avg_score"


def entry_key(lang, task):
    """Key of one (language, task) score, e.g. ``lat_pos``."""
    return "%s_%s" % (lang, task.key)


def component_key(lang, task, component):
    """Key of one component metric of an entry, e.g. ``lat_pos_f1``."""
    return "%s_%s_%s" % (lang, task.key, component)


def language_means(competition):
    """Whether ``competition`` has language averages: its ``LANGUAGE_MEANS``, by default true unless its leaderboard
    is laid out by tasks (``LEADERBOARD = "tasks"``: tasks of different metrics, whose mean over a language would mix
    them)."""
    return bool(getattr(competition, "LANGUAGE_MEANS", getattr(competition, "LEADERBOARD", None) != "tasks"))


def ordered_pairs(tasks, languages, pairs):
    """Return ``pairs`` ((task, lang) tuples) sorted by the declared language order, then task order."""
    lang_rank = dict((lang, i) for i, lang in enumerate(languages))
    task_rank = dict((task.folder, i) for i, task in enumerate(tasks))
    return sorted(pairs, key=lambda pair: (lang_rank[pair[1]], task_rank[pair[0].folder]))


def leaderboard_columns(tasks, languages, pairs, language_means=True):
    """Return ``[(key, label), ...]`` for a leaderboard over ``pairs``, in column order.

    Order: the overall score, the task means, the language averages (unless ``language_means`` is false: a
    competition whose tasks have different metrics, ``LANGUAGE_MEANS = False``), then every language x task
    score. ``tasks`` and ``languages`` give the declared order; ``pairs`` are the (task, lang)
    entries that are scored (tasks without any pair and languages without any pair are left out).
    """
    pairs = ordered_pairs(tasks, languages, pairs)
    used_tasks = [task for task in tasks if any(pair[0] is task for pair in pairs)]
    used_langs = [lang for lang in languages if any(pair[1] == lang for pair in pairs)]
    columns = [(OVERALL_KEY, "Average score")]
    columns += [(task_mean_key(task), "Avg " + task.label) for task in used_tasks]
    columns += [(language_key(lang), lang + " average") for lang in used_langs if language_means]
    columns += [(entry_key(lang, task), "%s %s" % (lang, task.label)) for task, lang in pairs]
    return columns


def all_score_keys(tasks, languages, pairs, language_means=True):
    """Every key ``scores.txt`` holds for ``pairs``: the leaderboard columns, then the components."""
    keys = [key for key, _ in leaderboard_columns(tasks, languages, pairs, language_means)]
    for task, lang in ordered_pairs(tasks, languages, pairs):
        keys.extend(component_key(lang, task, comp) for comp in task.components)
    return keys
