"""What the starting kits' validators conclude from a report: the files known to score 0, the exit status and
the summary line, the same for every competition.

A validator must not say "ready to upload", nor exit 0, when it knows a file will score 0: a file that could
not be read or has the wrong number of sentences, a file none of whose sentences can be scored (every one of
the wrong length, none aligned), an error that says the whole file scores 0 (:data:`evalkit.messages.ZERO_NOTE`:
every label outside the label set), and, where the validator scores against a gold (the development split), a
file whose score is 0, and an expected file submitted under a name that is not scored (a did-you-mean names
it: :func:`misnamed_files`). A file that an error says scores no better than chance (predictions for another
split, the input's own tokens as labels: :data:`evalkit.messages.CHANCE_NOTE`) is counted apart in the summary
(:func:`chance_files`): it is scored, not 0, but nothing of its score is its system's. So is a file that a message
prices against a public gold as losing most of its score (:data:`evalkit.messages.LOSS_NOTE`, :func:`loss_files`).
"Ready to upload" only when nothing is known to cost score: no error, no warning about a file, and every expected
file submitted. A subset may be submitted (a validator exits 0 for it), but the summary says what the files left out
cost: each scores 0, and every average counts it so (:func:`missing_files`).

Exit statuses (every kit's ``validate.py``): :data:`OK` (0) nothing known to cost score, or only warnings;
:data:`FAILED` (1) an error, or a file known to score 0 or to lose most of its score; 2 and 3 are the kits' own (nothing could be checked,
internal error).
"""
import re
from collections import OrderedDict

from .messages import CHANCE_NOTE, ERROR, LOSS_NOTE, WARNING, ZERO_NOTE

OK, FAILED = 0, 1
#: Entry statuses of a file that scores 0 as a whole (``missing`` is not one: a subset may be submitted, unless
#: the file was submitted under another name: :func:`misnamed_files`).
FAILED_STATUSES = ("unreadable", "sentence_count_mismatch")
#: The did-you-mean that ends a layout message about a name that is not scored (evalkit/layout.py).
DID_YOU_MEAN = re.compile(r" Did you mean ([^ ?]+)\?$")


def misnamed_files(report):
    """``{expected file: the name it was submitted under}`` of the files ``report`` lists as missing whose
    did-you-mean a layout message names (one suggestion only: a file, or a folder for every missing file in it): a
    file submitted under a misnamed name or folder is not scored, so it scores 0 although it was meant to count."""
    missing = [entry["file"] for entry in report.get("entries", []) if entry.get("status") == "missing"]
    found = OrderedDict()
    for message in report.get("messages", []):
        match = DID_YOU_MEAN.search(message["text"]) if message.get("where") == "layout" and message["file"] else None
        if not match:
            continue
        meant = match.group(1)
        for name in missing:
            if name == meant or (meant.endswith("/") and name.startswith(meant)):
                found.setdefault(name, message["file"])
    return found


def zero_files(report, scored=False):
    """The files of ``report`` known to score 0, in report order (``{file: why}``). ``scored``: the report was
    scored against a gold (its scores are real), so a scored file whose score is 0 counts too; so does a file of
    ``report["gold_scores"]`` (``{file: score}`` against a gold, when the report itself was checked without one)
    whose score is 0."""
    found = OrderedDict()
    for message in report.get("messages", []):
        if message["severity"] == ERROR and message["file"] and ZERO_NOTE in message["text"]:
            found.setdefault(message["file"], "error")
    for entry in report.get("entries", []):
        status = entry.get("status")
        if status in FAILED_STATUSES:
            found.setdefault(entry["file"], status)
        elif status == "scored" and entry.get("sentences") and entry.get("zeroed_sentences", 0) >= entry["sentences"]:
            found.setdefault(entry["file"], "every sentence scored 0")
        elif status == "scored" and scored and entry.get("score") == 0:
            found.setdefault(entry["file"], "scored 0")
    for name, given in misnamed_files(report).items():
        found.setdefault(name, "submitted as %s" % given)
    entries = report.get("entries", [])
    if entries and all(entry.get("status") == "missing" for entry in entries):   # nothing recognisable at all
        for entry in entries:
            found.setdefault(entry["file"], "not submitted")
    for name, score in sorted((report.get("gold_scores") or {}).items()):   # scored apart against a gold
        if score == 0:
            found.setdefault(name, "scored 0")
    return found


def chance_files(report, zero=()):
    """The files of ``report`` known to score no better than chance, in report order (``{file: why}``): an error
    says so (:data:`evalkit.messages.CHANCE_NOTE`: predictions for another split, the input's own tokens as labels).
    The files of ``zero`` (:func:`zero_files`) are left out: they are counted there."""
    found = OrderedDict()
    for message in report.get("messages", []):
        if message["severity"] == ERROR and message["file"] and CHANCE_NOTE in message["text"] \
                and message["file"] not in zero:
            found.setdefault(message["file"], "error")
    return found


def loss_files(report, counted=()):
    """The files of ``report`` that a message (error or warning) says lose most of their score, priced against a
    public gold (:data:`evalkit.messages.LOSS_NOTE`), in report order (``{file: why}``). The files of ``counted``
    (those known to score 0 or no better than chance) are left out: they are counted there.

    >>> loss_files({"messages": [{"severity": "warning", "file": "a", "text": "... (this file loses most of its score)."}]})
    OrderedDict([('a', 'warning')])
    """
    found = OrderedDict()
    for message in report.get("messages", []):
        if message["severity"] in (ERROR, WARNING) and message["file"] and LOSS_NOTE in message["text"] \
                and message["file"] not in counted:
            found.setdefault(message["file"], message["severity"])
    return found


def missing_files(report, counted=()):
    """The expected files of ``report`` that the submission does not hold, in report order (those of ``counted``,
    known to score 0 for another reason, left out): a subset may be submitted, but each of them scores 0 and counts
    so in every average."""
    return [entry["file"] for entry in report.get("entries", []) if entry.get("status") == "missing"
            and entry["file"] not in counted]


def _names(names):
    """`` (a, b, c)``: up to five of ``names``, with how many more; "" for none."""
    return " (%s%s)" % (", ".join(names[:5]), ", and %d more" % (len(names) - 5) if len(names) > 5 else "") \
        if names else ""


def conclude(report, scored=False):
    """``(exit status, summary text)`` of a validated ``report``: the counts of errors, warnings and files known to
    score 0, and "ready to upload" only when nothing is known to cost score.

    >>> conclude({"messages": [], "entries": [{"file": "a", "status": "scored", "sentences": 2, "zeroed_sentences": 1}]})
    (0, '0 errors, 0 warnings, 0 files will score 0 -- ready to upload')
    >>> conclude({"messages": [], "entries": [{"file": "a", "status": "unreadable"}]})
    (1, '0 errors, 0 warnings, 1 file will score 0 (a) -- fix it before uploading')
    >>> chance = {"severity": "error", "file": "b", "text": "... (this file scores no better than chance)."}
    >>> conclude({"messages": [chance], "entries": [{"file": "b", "status": "scored"}]})[1]
    '1 error, 0 warnings, 0 files will score 0, 1 file will score no better than chance (b) -- fix it before uploading'
    >>> loss = {"severity": "warning", "file": "c", "text": "... (this file loses most of its score)."}
    >>> conclude({"messages": [loss], "entries": [{"file": "c", "status": "scored"}]})
    (1, '0 errors, 1 warning, 0 files will score 0, 1 file will lose most of its score (c) -- fix it before uploading')
    >>> subset = {"severity": "warning", "file": "", "text": "1 of 2 expected files not submitted (each scores 0): e"}
    >>> entries = [{"file": "d", "status": "scored"}, {"file": "e", "status": "missing"}]
    >>> conclude({"messages": [subset], "entries": entries})[1].split(" -- ")[1]
    'it can be uploaded as a subset: the 1 expected file not submitted (e) scores 0 and counts as 0 in every average'
    """
    messages = report.get("messages", [])
    errors = sum(1 for m in messages if m["severity"] == ERROR)
    warnings = sum(1 for m in messages if m["severity"] == WARNING)
    told = sum(1 for m in messages if m["severity"] == WARNING and m["file"])
    zero = zero_files(report, scored)
    chance = chance_files(report, zero)
    loss = loss_files(report, set(zero) | set(chance))
    shown = _names(list(zero))
    if chance:   # scored, but its labels stand against other items: said apart from the files that score 0
        shown += ", %s will score no better than chance%s" % (_plural(len(chance), "file"), _names(list(chance)))
    if loss:   # scored, but a public gold prices most of its score as lost to a mistake the message names
        shown += ", %s will lose most of %s score%s" % (_plural(len(loss), "file"), "its" if len(loss) == 1 else
                                                         "their", _names(list(loss)))
    missing = missing_files(report, zero)
    left_out = "the %s not submitted%s %s 0 and count%s as 0 in every average" % (
        _plural(len(missing), "expected file"), _names(missing), "scores" if len(missing) == 1 else "score",
        "s" if len(missing) == 1 else "") if missing else ""
    if errors or zero or loss:
        verdict = " -- fix %s before uploading" % ("it" if errors + len(zero) + len(loss) == 1 else "them")
    elif told:
        verdict = " -- it can be uploaded, but read the warnings first: most say what would cost points%s" % (
            "; " + left_out if left_out else "")
    elif missing:
        verdict = " -- it can be uploaded as a subset: %s" % left_out
    else:
        verdict = " -- ready to upload"
    text = "%s, %s, %s will score 0%s%s" % (_plural(errors, "error"), _plural(warnings, "warning"),
                                             _plural(len(zero), "file"), shown, verdict)
    return (FAILED if errors or zero or loss else OK), text


def _plural(count, noun):
    """``"1 error"``, ``"2 errors"``."""
    return "%d %s%s" % (count, noun, "" if count == 1 else "s")
