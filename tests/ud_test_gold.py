"""A TEST_GOLD folder for ST2024 made at test time from public UD treebanks (tests of the contamination audit).

The ST2024 release's test files (``../shared/st2024/morphology/test/<lang>_test.conllu``) carry no gold; the
languages whose source treebank is in ``../shared/ud`` get theirs from it: each test sentence is looked up by its
``# text`` (NFC, whitespace collapsed), then its forms (the words outside multiword tokens, and every multiword
token's own form: a treebank version may split multiword tokens otherwise), and takes the treebank's LEMMA, UPOS,
XPOS and FEATS row by row. A test sentence found nowhere gets a gold of its own (UPOS ``X``, its form as lemma, no
features): that part of the gold is in no public corpus. Written in the release layout
(``<out>/morphology/test/<lang>_test.conllu``), never committed: the gold is cut from ../shared.
"""
import glob
import os
import unicodedata

#: The ST2024 languages whose test sentences are in ../shared/ud, and the treebank each comes from.
TREEBANKS = {"got": "UD_Gothic-PROIEL", "san": "UD_Sanskrit-Vedic", "hbo": "UD_Ancient_Hebrew-PTNK"}


def read_conllu(path):
    """``[(comment lines, rows)]`` of a CoNLL-U file (rows: lists of ten fields; empty nodes kept)."""
    sentences, comments, rows = [], [], []
    with open(path, encoding="utf-8") as handle:
        for line in handle.read().split("\n") + [""]:
            if not line.strip():
                if rows:
                    sentences.append((comments, rows))
                comments, rows = [], []
            elif line.startswith("#"):
                comments.append(line)
            else:
                rows.append(line.split("\t"))
    return sentences


def text_of(comments):
    """The NFC, whitespace-collapsed ``# text`` of a sentence (None when it has none)."""
    for line in comments:
        if line.startswith("# text ="):
            return unicodedata.normalize("NFC", " ".join(line.split("=", 1)[1].split()))
    return None


def anchors(rows):
    """Beside each row but empty nodes, its form, or None for a syntactic word inside a multiword token."""
    found, inside = [], 0
    for row in rows:
        if "." in row[0]:
            continue
        if inside:
            found.append(None)
            inside -= 1
            continue
        if "-" in row[0]:
            first, last = row[0].split("-")
            inside = int(last) - int(first) + 1
        found.append(unicodedata.normalize("NFC", row[1]))
    return found


def matching(rows, candidates):
    """The treebank sentence (rows) among ``candidates`` whose forms are ``rows``' (multiword tokens' parts aside)."""
    forms = [unicodedata.normalize("NFC", row[1]) for row in rows if "." not in row[0]]
    for candidate in candidates:
        kept = anchors(candidate)
        if len(kept) == len(forms) and all(a is None or a == b for a, b in zip(kept, forms)):
            return [row for row in candidate if "." not in row[0]]
    return None


def gold_rows(rows, source):
    """``rows`` with the gold columns of ``source`` (the matching treebank rows), or a gold of their own."""
    out = []
    words = [row for row in rows if "." not in row[0]]
    for index, row in enumerate(words):
        row = list(row)
        if "-" in row[0]:
            row[2:6] = ["_", "_", "_", "_"]
        elif source is not None:
            row[2:6] = source[index][2:6]
        else:
            row[2:6] = [row[1], "X", "_", "_"]
        out.append(row)
    return out


def write_test_gold(release, ud, out, languages=None):
    """Write ``out/morphology/test/<lang>_test.conllu`` for ``languages`` (default: every one of
    :data:`TREEBANKS`); return ``{lang: (sentences, found in the treebank)}``."""
    counts = {}
    for lang in languages or sorted(TREEBANKS):
        index = {}
        for path in sorted(glob.glob(os.path.join(ud, TREEBANKS[lang], "*.conllu"))):
            for comments, rows in read_conllu(path):
                index.setdefault(text_of(comments), []).append(rows)
        test = read_conllu(os.path.join(release, "morphology", "test", "%s_test.conllu" % lang))
        lines, found = [], 0
        for comments, rows in test:
            source = matching(rows, index.get(text_of(comments), []))
            found += source is not None
            lines.extend(comments)
            lines.extend("\t".join(row) for row in gold_rows(rows, source))
            lines.append("")
        path = os.path.join(out, "morphology", "test", "%s_test.conllu" % lang)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")
        counts[lang] = (len(test), found)
    return counts
