"""Recognising predictions made for the other split ("these look like predictions for the test split").

A phase's reference folder may hold ``other_split.json``, a compact fingerprint of the *other* split's
public input (for the development phase: the test input; for the test phase: the valid input),
written by the reference builder and by the starting kit's validator. It is not a scored reference
file (the scorer only scores ``<task>/<lang>.json``). Its shape::

    {"split": "test", "phase_split": "valid", "samples": 16,
     "files": {"<task>/<lang>": {"sentences": 2263, "hashes": ["0a1b2c3d4e", ...]}, ...}}

``hashes`` holds the hashes of ``samples`` sentences at evenly spaced positions
(:func:`positions`) of the other split's file: the forms of a CoNLL-U sentence (one per row,
multiword ranges included) or the masked line of a fill-mask sentence, NFC-normalised. A
prediction file with the other split's number of sentences whose sentences at these positions mostly
hash the same, while the phase's own reference does not, gets one message.
"""
import hashlib
import unicodedata

from .loading import read_optional_json
from .messages import CHANCE_NOTE, Message, ERROR

FILE_NAME = "other_split.json"
SAMPLES = 16
HASH_CHARS = 10


def positions(count, samples=SAMPLES):
    """Evenly spaced sentence indices (0-based, distinct) of a file of ``count`` sentences.

    >>> positions(5, 3), positions(2, 16), positions(0)
    ([0, 1, 3], [0, 1], [])
    """
    if count <= samples:
        return list(range(count))
    return [i * count // samples for i in range(samples)]


def sentence_hash(key):
    """The short hash of a sentence key (a form list or a masked line), or None for None."""
    if key is None:
        return None
    text = key if isinstance(key, str) else "\x1f".join(key)
    text = unicodedata.normalize("NFC", text)
    return hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()[:HASH_CHARS]


def file_fingerprint(keys, samples=SAMPLES):
    """``{"sentences", "hashes"}`` of one file from its sentence keys (form lists or masked lines)."""
    return {"sentences": len(keys), "hashes": [sentence_hash(keys[i]) for i in positions(len(keys), samples)]}


def document(split, phase_split, keys_by_file, samples=SAMPLES):
    """The content of ``other_split.json``: the ``split`` input's fingerprint, for the phase of ``phase_split``.

    ``keys_by_file`` maps ``"<task folder>/<lang>"`` to that file's sentence keys (form lists or masked lines).
    """
    return {"split": split, "phase_split": phase_split, "samples": samples,
            "files": dict((name, file_fingerprint(keys, samples)) for name, keys in sorted(keys_by_file.items()))}


def _strings(values):
    """``values`` when it is a list of strings, else None."""
    return values if all(type(v) is str for v in values) else None


def prediction_key(kind, sentence):
    """The key of one submitted sentence (as :func:`sentence_hash` takes it), or None when it has none."""
    if kind == "fill_mask":
        masked = sentence.get("masked") if type(sentence) is dict else None
        return masked if type(masked) is str else None
    if type(sentence) is not list:
        return None
    if kind == "morph":
        if not all(type(tok) is dict for tok in sentence):
            return None
        return _strings([tok.get("Token", tok.get("Form")) for tok in sentence])
    if not all(type(tok) is list and tok for tok in sentence):
        return None
    return _strings([tok[0] for tok in sentence])


def _reference_key(ref_sentence):
    """The key of a parsed reference sentence (every kind keeps its forms or masked line first)."""
    key = ref_sentence[0]
    if isinstance(key, (list, tuple)):
        return _strings(list(key))
    return key if isinstance(key, str) else None


def wrong_split_message(name, kind, value, ref, fingerprint, other, phase_split, samples=SAMPLES):
    """One ERROR message when ``value`` (a submitted file) looks made for the ``other`` split, else None.

    ``fingerprint`` is this file's entry of ``other_split.json`` (``samples`` positions); ``ref`` the
    parsed reference of the phase, whose input is the ``phase_split`` split. The file must have the
    other split's number of sentences; at least two thirds of the sampled sentences must hash like
    the other split's, and more of them than like this phase's reference.

    The sampling stops as soon as two thirds can no longer be reached, and the reference's sentences are
    hashed only once they are (an honest file costs a few hashes).
    """
    if type(value) is not list or type(fingerprint) is not dict:
        return None
    hashes = fingerprint.get("hashes")
    places = positions(len(value), samples)
    if fingerprint.get("sentences") != len(value) or type(hashes) is not list or len(hashes) != len(places) \
            or not places:
        return None
    needed = (2 * len(places) + 2) // 3   # the fewest sentences like the other split's: two thirds, rounded up
    like_other, got = 0, []
    for number, place in enumerate(places):       # places and hashes have the same length (checked)
        if like_other + len(places) - number < needed:
            return None
        got.append(sentence_hash(prediction_key(kind, value[place])))
        like_other += got[-1] is not None and got[-1] == hashes[number]
    if like_other < needed:
        return None
    like_own = sum(1 for number, place in enumerate(places) if got[number] is not None and place < len(ref)
                   and got[number] == sentence_hash(_reference_key(ref[place])))
    if like_other <= like_own:
        return None
    return Message(name, ERROR, "", "these look like predictions for the %s split: %d of %d sampled sentences "
                   "have the %s input's %s, not those of the %s input this phase scores. Predict the %s split "
                   "(make_submission.py --split %s), or upload this file to the phase of the %s split."
                   % (other, like_other, len(places), other, "masked lines" if kind == "fill_mask" else "forms",
                      phase_split, phase_split, phase_split, other))


def read_fingerprint(path, max_bytes=16 * 1024 * 1024):
    """The parsed ``other_split.json`` at ``path``, or None when absent or unusable (it is only a hint)."""
    value = read_optional_json(path, max_bytes)
    if type(value) is not dict or type(value.get("files")) is not dict or type(value.get("split")) is not str:
        return None
    if type(value.get("samples")) is not int or not 0 < value["samples"] <= 1000:
        value["samples"] = SAMPLES
    if type(value.get("phase_split")) is not str:
        value["phase_split"] = "this phase's"
    return value


def wrong_split_count_message(name, labels, own, fingerprint, other, phase_split, blocks=None):
    """One ERROR message when a line-aligned text file of ``labels`` labels has exactly the ``other`` split's
    number of items (its ``fingerprint`` entry, ``{"items": count, "unit": "tokens" or "sentences"}``) and not the
    ``own`` number of this phase's input, else None: such a file was made for the other split (labels carry no
    words to compare). It ends with :data:`evalkit.messages.CHANCE_NOTE`: its labels stand against other tokens.

    A fingerprint of token labels may also hold ``"sentences"`` (the other input's sentence count) and ``"lengths"``
    (its sentences' token counts, in order); then ``blocks`` (a function giving the file's blocks of labels'
    lengths, called only once the counts match) must give these too, so that a file of this phase whose label
    count happens to equal the other split's (a few lines too many) is never called one for the other split.
    """
    if type(fingerprint) is not dict or type(fingerprint.get("items")) is not int or labels == own \
            or labels != fingerprint["items"] or not labels:
        return None
    unit = fingerprint.get("unit") if fingerprint.get("unit") in ("tokens", "sentences") else "items"
    sentences, lengths = fingerprint.get("sentences"), fingerprint.get("lengths")
    shape, blocked = "", ""
    if (type(sentences) is int or type(lengths) is list) and blocks is not None:
        found = blocks()
        if type(lengths) is list and found != lengths or type(sentences) is int and len(found) != sentences:
            return None
        shape = " in %s blocks" % "{:,}".format(len(found))
        blocked = ", each block as long as its sentence of the %s input" % other if type(lengths) is list else ""
    return Message(name, ERROR, "", "these look like predictions for the %s split: the file has %s labels%s, as many "
                   "as the %s input has %s%s, not the %s %s of the %s input this phase scores. Predict the %s split, "
                   "or upload this file to the phase of the %s split. Here its labels stand against other %s: %s."
                   % (other, "{:,}".format(labels), shape, other, unit, blocked, "{:,}".format(own), unit, phase_split,
                      phase_split, other, unit, CHANCE_NOTE))
