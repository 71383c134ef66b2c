"""Reading LinCE's files and finding the scoring program: shared by the kit's scripts and the organiser's tools.

Standard library only, Python 3.7 or newer.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


# --------------------------------------------------------------------------- the release's files

def read_conll(path):
    """Sentences of a LinCE CoNLL file as ``(header fields or None, rows)``; rows are lists of columns.

    A sentence may start with ``# sent_enum = N`` (SA gold: ``# sent_enum = N<TAB>label``); a blank
    line ends it. ``\\r`` and a UTF-8 BOM are dropped.
    """
    sentences, header, rows = [], None, []
    with open(path, encoding="utf-8-sig", newline="") as handle:
        for line in handle.read().split("\n"):
            line = line[:-1] if line.endswith("\r") else line
            if not line.strip():
                if rows:
                    sentences.append((header, rows))
                header, rows = None, []
            elif line.startswith("# sent_enum"):
                header = line.split("\t")
            else:
                rows.append(line.split("\t"))
    if rows:
        sentences.append((header, rows))
    return sentences


def no_data_message(data, split, first="train.conll or "):
    """What to say when no dataset of ``data`` has its ``split`` file (``first``: the other file the caller needs,
    said with it): the folder expected, or, for a zip given in its place, how to unzip it."""
    if os.path.isfile(data):
        return ("%s is a file, not a folder%s: unzip it into a folder (e.g. unzip %s -d data) and give that folder "
                "to --data.\n" % (data, " (a zip)" if data.lower().endswith(".zip") else "", data))
    return ("No %s%s.conll file of any LinCE dataset under %s (expected e.g. %s).\n"
            % (first, split, data, os.path.join(data, "lid_spaeng", split + ".conll")))


def has_gold(sentences, task, pair):
    """Whether the sentences carry the task's gold labels (SA: in the header; else a last column)."""
    if task.kind == "sentence_labels":
        return all(header is not None and len(header) > 1 for header, _ in sentences)
    return all(len(row) >= task.columns[pair] for _, rows in sentences for row in rows)


def reference_text(sentences, task, pair, gold):
    """Reference text for the scorer: gold labels, or (``gold`` False) the first declared label as a placeholder."""
    placeholder = task.labels[pair][0]
    lines = []
    for number, (header, rows) in enumerate(sentences, 1):
        if task.kind == "sentence_labels":
            lines.append("# sent_enum = %d\t%s" % (number, header[-1].strip() if gold else placeholder))
            lines.extend(row[0] for row in rows)
        else:
            lines.append("# sent_enum = %d" % number)
            lines.extend("%s\t%s" % (row[0], row[-1] if gold else placeholder) for row in rows)
        lines.append("")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- the scoring program

def find_program(scorer=None):
    """Return (folder of lince.py, folder of evalkit/) or None: beside this kit, or in the repository."""
    candidates = [scorer] if scorer else [os.path.join(HERE, "scoring_program"),
                                          os.path.join(HERE, os.pardir, "scoring_program"),
                                          os.path.join(HERE, os.pardir)]
    for folder in candidates:
        if folder and os.path.isfile(os.path.join(folder, "lince.py")):
            for kit in (folder, os.path.join(folder, os.pardir, os.pardir, "scoring_program")):
                if os.path.isfile(os.path.join(kit, "evalkit", "scoring.py")):
                    return os.path.abspath(folder), os.path.abspath(kit)
    return None


def load_program(found):
    """Import ``lince`` and ``evalkit`` from the folders of :func:`find_program`."""
    for folder in reversed(found):
        if folder not in sys.path:
            sys.path.insert(0, folder)
    import lince
    from evalkit import layout, scoring
    return lince, layout, scoring


#: Each split's other split, whose predictions uploaded by mistake the scorer recognises by their label counts.
OTHER_SPLIT = {"dev": "test", "test": "dev"}


def other_split_document(lince, data, split):
    """The content of a phase's ``other_split.json`` (the scoring program's ``evalkit/fingerprint.py``) for the
    phase of ``split``: per submission file, how many labels a prediction for the other split's input under
    ``data`` holds (its tokens; its sentences for sentence labels) and, for token labels, that input's sentence count
    and each sentence's token count ("sentences", "lengths": such a file's blocks of labels); None when ``data``
    has no file of that split."""
    other = OTHER_SPLIT[split]
    files = {}
    for task, pair in lince.DATASETS:
        path = os.path.join(data, lince.dataset_id(task, pair), other + ".conll")
        if not os.path.isfile(path):
            continue
        sentences = read_conll(path)
        sentence_level = task.kind == "sentence_labels"
        lengths = [len(rows) for _, rows in sentences]
        entry = {"items": len(sentences) if sentence_level else sum(lengths),
                 "unit": "sentences" if sentence_level else "tokens"}
        if not sentence_level:   # a coincidence of token counts alone is no other split's file
            entry.update({"sentences": len(sentences), "lengths": lengths})
        files[lince.SUBMISSION_FILE.format(task=task.key, lang=pair)] = entry
    return {"split": other, "phase_split": split, "files": files} if files else None
