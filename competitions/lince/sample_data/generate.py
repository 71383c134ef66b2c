"""Regenerate LinCE's synthetic sample data (``python3 competitions/lince/sample_data/generate.py``).

Nothing here comes from the LinCE release: every sentence is drawn from small word lists written for
this kit. The ten datasets are laid out as the release lays them out (``<dataset id>/train.conll``,
``dev.conll``, ``test.conll``), in the release's formats:

- ``# sent_enum = N`` before each sentence (SA: ``# sent_enum = N<TAB>sentiment``), one token per
  line, a blank line after each sentence;
- columns: LID ``token lid``; POS ``token lid pos``; NER ``token lid ner`` (``ner_msaea``:
  ``token ner``); SA ``token lid``;
- ``test.conll`` without the task's labels (``lid_spaeng``'s test file has no ``# sent_enum`` lines,
  like the public one); ``test_gold/<id>/test.conll`` holds the test gold (not public data).

Each dataset draws from its own random stream (seeded with its id), so the files never change.
"""
import os
import random
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import lince  # noqa: E402

SIZES = {"train": 80, "dev": 24, "test": 24}

# (word, POS) lists per language, written for this kit.
WORDS = {
    "eng": [("the", "DET"), ("you", "PRON"), ("like", "VERB"), ("good", "ADJ"), ("day", "NOUN"), ("and", "CONJ"),
            ("now", "ADV"), ("love", "VERB"), ("game", "NOUN"), ("so", "ADV"), ("with", "ADP"), ("my", "DET"),
            ("happy", "ADJ"), ("work", "NOUN"), ("go", "VERB"), ("tonight", "ADV"), ("friends", "NOUN"), ("we", "PRON")],
    "spa": [("la", "DET"), ("que", "SCONJ"), ("quiero", "VERB"), ("bueno", "ADJ"), ("casa", "NOUN"), ("pero", "CONJ"),
            ("hoy", "ADV"), ("vamos", "VERB"), ("amigos", "NOUN"), ("muy", "ADV"), ("con", "ADP"), ("mi", "DET"),
            ("feliz", "ADJ"), ("trabajo", "NOUN"), ("tengo", "VERB"), ("nosotros", "PRON"), ("comida", "NOUN"), ("no", "PART")],
    "hin": [("hai", "VERB"), ("nahi", "PART_NEG"), ("kya", "PRON_WH"), ("main", "PRON"), ("bahut", "ADV"), ("accha", "ADJ"),
            ("yaar", "NOUN"), ("kal", "ADV"), ("ghar", "NOUN"), ("ke", "ADP"), ("aur", "CONJ"), ("kaam", "NOUN"),
            ("karna", "VERB"), ("woh", "PRON"), ("sab", "DET"), ("khana", "NOUN")],
    "nep": [("cha", "VERB"), ("chaina", "VERB"), ("ma", "PRON"), ("timi", "PRON"), ("ramro", "ADJ"), ("aaja", "ADV"),
            ("bholi", "ADV"), ("garnu", "VERB"), ("hajur", "PRON"), ("kasto", "ADJ"), ("bhat", "NOUN"), ("dai", "NOUN")],
    "msa": [("في", "ADP"), ("من", "ADP"), ("على", "ADP"), ("الذي", "PRON"), ("هذا", "DET"), ("اليوم", "NOUN"),
            ("الحكومة", "NOUN"), ("قال", "VERB"), ("جديد", "ADJ"), ("العمل", "NOUN")],
    "ea": [("ده", "DET"), ("مش", "PART"), ("ازاي", "ADV"), ("كده", "ADV"), ("عايز", "VERB"), ("بتاع", "ADP"),
           ("اوي", "ADV"), ("النهارده", "NOUN"), ("حلو", "ADJ"), ("يعني", "CONJ")],
}
OTHER = ["!", "?", ".", ",", ":)", "...", "@user_a", "@user_b", "http://t.example/x", "2020", "#"]
NAMES = {"PER": ["Maria", "Jorge", "Priya", "Sita", "Omar"], "LOC": ["Miami", "Delhi", "Pokhara", "Giza"],
         "ORG": ["Acme", "Unicef"], "PROD": ["Fonito"], "EVENT": ["Expo"], "GROUP": ["Los Tigres"],
         "TITLE": ["La Casa Azul"], "TIME": ["Navidad"], "OTHER": ["Zeta"],
         "PERSON": ["Rahul", "Anita"], "ORGANISATION": ["Bharat Sangh"], "PLACE": ["Mumbai", "Agra Fort"]}
PAIRS = {"spa_eng": ("eng", "spa"), "hin_eng": ("eng", "hin"), "nep_eng": ("eng", "nep"), "msa_ea": ("msa", "ea")}
RARE = {"ambiguous": "si", "mixed": "parquear", "fw": "merci", "unk": "xqzt"}
SENTIMENT_CUES = {"positive": ("love", "bueno"), "negative": ("malo", "hate"), "neutral": ()}


def lid_token(rng, pair, labels, pos_labels=None):
    """One (token, lid label, POS) for language pair ``pair``; rare LID labels only if declared."""
    draw = rng.random()
    if draw < 0.14:
        token = rng.choice(OTHER)
        return token, "other", "PUNCT" if pos_labels and "PUNCT" in pos_labels else "X"
    if draw < 0.18:
        rare = [label for label in RARE if label in labels]
        if rare:
            label = rng.choice(rare)
            return RARE[label], label, "X" if label != "ambiguous" else "PART"
    lang = rng.choice(PAIRS[pair])
    word, pos = rng.choice(WORDS[lang])
    if pos_labels and pos not in pos_labels:
        pos = "X"
    return word, "lang1" if lang == PAIRS[pair][0] else "lang2", pos


def sentence(rng, task, pair, index):
    """One sentence: (meta label or None, rows of columns with the task label last)."""
    labels = task.labels[pair]
    lid_labels = lince.TASKS_BY_FOLDER["lid"].labels.get(pair, lince.TASKS_BY_FOLDER["lid"].labels["spa_eng"])
    rows = []
    length = rng.randint(2, 11) if index % 7 else 1
    for position in range(length):
        if task.key == "lid" and position and rng.random() < 0.08:
            rows.append([rng.choice(NAMES["PER"] + NAMES["LOC"]), "ne"])
            continue
        token, lid, pos = lid_token(rng, pair, lid_labels, labels if task.key == "pos" else None)
        if task.key == "pos":
            rows.append([token, lid, pos])
        elif task.key == "ner":
            rows.append([token, lid, "O"])
        else:
            rows.append([token, lid])
    meta = None
    if task.key == "ner":
        rows = add_entities(rng, rows, labels, index)
    if task.key == "sa":
        meta = rng.choice(lince.TASKS_BY_FOLDER["sa"].labels[pair])
        cues = SENTIMENT_CUES[meta]
        if cues and rng.random() < 0.8:
            rows.insert(rng.randint(0, len(rows)), [rng.choice(cues), "lang1"])
    if pair == "msa_ea" and task.key == "ner":
        rows = [[row[0], row[-1]] for row in rows]
    return meta, rows


def add_entities(rng, rows, labels, index):
    """Insert 0-2 entity spans (sometimes two adjacent spans of one type) into NER rows."""
    types = sorted(set(label[2:] for label in labels if label != "O"))
    out = list(rows)
    for _ in range(rng.randint(0, 2)):
        kind = rng.choice(types)
        words = rng.choice(NAMES[kind]).split()
        span = [[word, "ne", ("B-" if i == 0 else "I-") + kind] for i, word in enumerate(words)]
        if index % 5 == 0:   # two adjacent spans of the same type
            span += [[rng.choice(NAMES[kind]).split()[0], "ne", "B-" + kind]]
        at = rng.randint(0, len(out))
        out[at:at] = span
    return out


def write(path, sentences, with_labels, with_comments):
    """Write ``sentences`` in the release layout; without labels the task column (and SA's) is dropped."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    lines = []
    for number, (meta, rows) in enumerate(sentences, 1):
        if with_comments or (meta is not None and with_labels):
            lines.append("# sent_enum = %d%s" % (number, "\t" + meta if meta is not None and with_labels else ""))
        for row in rows:
            keep = row if with_labels or meta is not None else row[:-1]
            lines.append("\t".join(keep))
        lines.append("")
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write("\n".join(lines) + "\n")


def generate(out_dir=HERE):
    """Write every dataset's train, dev and test files (and the test gold) under ``out_dir``."""
    for task, pair in lince.DATASETS:
        ident = lince.dataset_id(task, pair)
        rng = random.Random(zlib.crc32(ident.encode("utf-8")))
        for split, size in sorted(SIZES.items()):
            sentences = [sentence(rng, task, pair, i) for i in range(size)]
            if split == "test":
                write(os.path.join(out_dir, "test_gold", ident, "test.conll"), sentences, True, True)
                write(os.path.join(out_dir, ident, "test.conll"), sentences, False, ident != "lid_spaeng")
            else:
                write(os.path.join(out_dir, ident, split + ".conll"), sentences, True, True)


if __name__ == "__main__":
    generate()
