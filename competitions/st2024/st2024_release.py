"""Reading the ST2024 release layout (shared by the reference builder and the baselines).

The layout (``DATA=...``)::

    morphology/<split>/<lang>_<split>.conllu
    fill_mask_word/<split>/<lang>_<split>.tsv        (fill_mask_char likewise)
    fill_mask_word/<split>/json/<lang>_<split>.json  (fill_mask_char likewise)

Quirks handled here: Sanskrit is named ``sanv_`` in some folders (``st2024.LANGUAGE_ALIASES``),
any file may be missing (``find`` returns ``None``), Old Hungarian CoNLL-U files have no comment
lines, the training/validation TSVs have a ``masked\\tsrc`` header while the public test TSVs have
neither a header nor a ``src`` column, and the public test CoNLL-U has ``_`` for lemma, UPOS and
features (``is_blank_conllu`` / ``read_tsv`` let callers detect that the gold is absent).

Public API::

    find(data_dir, kind, split, lang, ext=None) -> path or None
    read_conllu(path, limit=None) -> [[{"id", "form", "lemma", "upos", "feats"}, ...], ...]
    read_conllu_text(path) -> [(text, forms, words), ...]  (``# text`` or the detokenised forms)
    read_tsv(path) -> [(masked, src or None), ...]
    read_json(path) -> the parsed JSON (a list of {"src", "masked", "masked_tokens"})
    is_blank_conllu(sentences) -> True when no row has a lemma, UPOS or feature
    json_tokens(entry) -> the gold strings of one JSON entry
    expected_path(data_dir, kind, split, lang, ext=None) -> where ``find`` looks (for messages)
"""
import json
import os

import st2024

KINDS = ("morphology", "fill_mask_word", "fill_mask_char")
SPLITS = ("train", "valid", "test")
EXTENSIONS = {"morphology": "conllu", "fill_mask_word": "tsv", "fill_mask_char": "tsv"}
TSV_COLUMNS = ("masked", "src")


def prefixes(lang):
    """File-name prefixes that may hold ``lang``: the code itself, then its aliases (``sanv``)."""
    return [lang] + sorted(alias for alias, code in st2024.LANGUAGE_ALIASES.items() if code == lang)


def folder(data_dir, kind, split, ext=None):
    """Folder of a kind/split; ``ext="json"`` names the ``json/`` subfolder of a fill-mask kind."""
    if kind not in KINDS or split not in SPLITS:
        raise ValueError("unknown kind/split %r/%r" % (kind, split))
    path = os.path.join(data_dir, kind, split)
    return os.path.join(path, "json") if ext == "json" else path


def find(data_dir, kind, split, lang, ext=None):
    """Path of the ``kind`` file of ``lang`` for ``split``, or ``None`` when it is absent.

    ``kind`` is ``morphology``, ``fill_mask_word`` or ``fill_mask_char``; ``ext`` defaults to the
    kind's own format (``conllu`` / ``tsv``); ``ext="json"`` finds the fill-mask JSON file.
    Alias prefixes (``sanv_`` for ``san``) are tried after the language code.
    """
    ext = ext or EXTENSIONS[kind]
    base = folder(data_dir, kind, split, ext)
    for prefix in prefixes(lang):
        path = os.path.join(base, "%s_%s.%s" % (prefix, split, ext))
        if os.path.isfile(path):
            return path
    return None


def expected_path(data_dir, kind, split, lang, ext=None):
    """Where ``find`` looks first (for messages about missing files)."""
    ext = ext or EXTENSIONS[kind]
    return os.path.join(folder(data_dir, kind, split, ext), "%s_%s.%s" % (lang, split, ext))


def _row(token):
    """One CoNLL-U row as a dict; multiword-token ranges get ``_`` lemma/UPOS and no features."""
    if isinstance(token["id"], tuple):   # range "4-5" -> (4, "-", 5)
        ident = "%s-%s" % (token["id"][0], token["id"][2])
        return {"id": ident, "form": token["form"], "lemma": "_", "upos": "_", "feats": {}}
    return {"id": str(token["id"]), "form": token["form"], "lemma": token["lemma"] or "_",
            "upos": token["upos"] or "_", "feats": dict(token["feats"] or {})}


def _is_empty_node(token):
    """True for an empty node (decimal id ``5.1``, parsed as ``(5, ".", 1)``)."""
    return isinstance(token["id"], tuple) and token["id"][1] == "."


def read_conllu(path, limit=None):
    """Sentences of a CoNLL-U file: lists of row dicts ``{id, form, lemma, upos, feats}``.

    Multiword-token range rows are kept in file order (id ``"4-5"``, lemma and UPOS ``_``, feats
    ``{}``); empty nodes are dropped. Comment-less files (Old Hungarian) are read the same way.
    ``limit`` stops after that many sentences (a quick look at a big file).
    """
    import conllu   # imported here so that importing this module stays cheap
    sentences = []
    with open(path, encoding="utf-8") as handle:
        for tokenlist in conllu.parse_incr(handle):
            if limit is not None and len(sentences) >= limit:
                break
            sentences.append([_row(token) for token in tokenlist if not _is_empty_node(token)])
    return sentences


def read_conllu_text(path):
    """Per sentence of a CoNLL-U file, ``(text, forms, words)``: the forms of every row in file order
    (multiword-token ranges and their parts; empty nodes dropped), the forms of the word rows only (no
    ranges), and the sentence's text: its ``# text =`` comment, else (files without metadata) the surface
    forms (a range instead of its parts) joined by spaces, none after a row whose MISC has
    ``SpaceAfter=No``.

    A plain line reader (no annotation is parsed), fast enough for every train file: it reads only what a
    sentence shows to anyone who has the file, whatever its annotation columns hold.
    """
    sentences = []
    text, forms, words, surface, covered = None, [], [], [], 0

    def flush():
        if forms:
            shown = text if text is not None else "".join(
                form + ("" if no_space else " ") for form, no_space in surface).rstrip(" ")
            sentences.append((shown, forms, words))

    with open(path, encoding="utf-8-sig") as handle:
        for line in handle:
            line = line.rstrip("\r\n")
            if not line.strip():
                flush()
                text, forms, words, surface, covered = None, [], [], [], 0
                continue
            if line.startswith("#"):
                if line.startswith("# text =") and text is None:
                    text = line[len("# text ="):].strip()
                continue
            columns = line.split("\t")
            if len(columns) < 2 or "." in columns[0]:      # empty node (5.1) or a broken row
                continue
            ident, form = columns[0], columns[1]
            forms.append(form)
            no_space = len(columns) > 9 and "SpaceAfter=No" in columns[9].split("|")
            if "-" in ident:
                start, _, end = ident.partition("-")
                covered = int(end) if end.isdigit() else covered
                surface.append((form, no_space))
                continue
            words.append(form)
            if not (ident.isdigit() and int(ident) <= covered):
                surface.append((form, no_space))
    flush()
    return sentences


def is_blank_conllu(sentences):
    """True when no word row carries a lemma, a UPOS or a feature (the public test files)."""
    for sentence in sentences:
        for row in sentence:
            if "-" not in row["id"] and (row["lemma"] != "_" or row["upos"] != "_" or row["feats"]):
                return False
    return True


def read_tsv(path):
    """Rows of a fill-mask TSV as ``(masked, src)`` pairs; ``src`` is ``None`` when absent.

    Read with pandas (tab-separated, ``quotechar="^"``, every cell a string, no NA guessing, blank
    lines kept). The header line ``masked\\tsrc`` is dropped when present: the public test files
    have no header and only the ``masked`` column.
    """
    import pandas   # imported here so that importing this module stays cheap
    try:
        frame = pandas.read_csv(path, sep="\t", quotechar="^", header=None, dtype=str,
                                keep_default_na=False, skip_blank_lines=False, encoding="utf-8")
    except pandas.errors.EmptyDataError:
        return []
    rows = frame.values.tolist()
    if rows and tuple(rows[0]) == TSV_COLUMNS[:len(rows[0])]:
        rows = rows[1:]
    if frame.shape[1] == 1:
        return [(row[0], None) for row in rows]
    return [(row[0], row[1]) for row in rows]


def read_json(path):
    """The parsed fill-mask JSON file (``[{"src", "masked", "masked_tokens": [...]}, ...]``)."""
    with open(path, encoding="utf-8-sig") as handle:
        return json.load(handle)


def json_tokens(entry):
    """The gold strings of one JSON entry's ``masked_tokens`` (``mask_idx`` order kept)."""
    tokens = entry.get("masked_tokens") or []
    return [item["masked_token"] if isinstance(item, dict) else item for item in tokens]
