"""A small split test reference for the organiser side's tests (issue 23), in the form organiser/split.py writes.

``split_reference(ref, mode)`` turns ``ref/test/`` (ST2024's JSON reference files) into what the split's contract
says ``python -m organiser reference`` leaves: ``ref/test/`` with the private items' gold redacted (public_private),
every item's (blind) or none (full), and ``ref/private/test/`` with the public items' gold redacted (public_private)
or the whole gold; both with their ``split.json``. The public items are every third one from the first (a fixed
pattern: these tests are about what the organiser side does with a split, not about how it is drawn).
"""
import json
import os

from organiser import bundle, feedback

UNIT = "sentences"


def redact(task, sentence):
    """One ST2024 reference sentence with its gold removed (its forms and masked text kept)."""
    if task.kind == "fill_mask":
        return {"masked": sentence["masked"], "masked_tokens": None, "excluded": "not scored in this part"}
    if task.kind == "morph":
        return [{"Token": token.get("Token")} for token in sentence]
    return [[row[0], None] for row in sentence]


def public_indices(count):
    """The public items of a file of ``count`` items: every third from the first."""
    return [index for index in range(count) if index % 3 == 0]


def _write(path, value):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(value, handle, ensure_ascii=False)


def split_reference(ref, decl, mode=feedback.PUBLIC_PRIVATE, phase="test"):
    """Split ``ref/<phase>/`` in place as the contract says (see the module's docstring); return the public
    ``split.json``."""
    by_name = bundle.declared_reference_files(decl)
    public_split = {"mode": mode, "unit": UNIT, "part": {"public_private": "public", "blind": "none",
                                                        "full": "all"}[mode],
                    "public_fraction": 0.3, "seed_digest": "0" * 16, "files": {}}
    private_split = dict(public_split, part="private" if mode == feedback.PUBLIC_PRIVATE else "all", files={})
    folder = os.path.join(ref, phase)
    for name, (task, lang) in sorted(by_name.items()):
        path = os.path.join(folder, *name.split("/"))
        if not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8") as handle:
            gold = json.load(handle)
        count = len(gold)
        public = public_indices(count) if mode == feedback.PUBLIC_PRIVATE else \
            ([] if mode == feedback.BLIND else list(range(count)))
        private = [i for i in range(count) if i not in public] if mode == feedback.PUBLIC_PRIVATE else list(range(count))
        _write(path, [s if i in public else redact(task, s) for i, s in enumerate(gold)])
        _write(os.path.join(ref, feedback.PRIVATE_FOLDER, phase, *name.split("/")),
               [s if i in private else redact(task, s) for i, s in enumerate(gold)])
        public_split["files"][name] = {"items": count, "scored": len(public), "indices": public}
        private_split["files"][name] = {"items": count, "scored": len(private), "indices": private}
    _write(os.path.join(folder, feedback.SPLIT_FILE), public_split)
    _write(os.path.join(ref, feedback.PRIVATE_FOLDER, phase, feedback.SPLIT_FILE), private_split)
    return public_split
