"""Reading the SCATE data layout (standard library only, Python 3.7+; used by the starting kit and the organiser).

The layout (Anafora style, as the data release ships it)::

    text/<corpus>/<doc>/<doc>          the plain text the character offsets refer to
    text/<corpus>/<doc>/<doc>.dct      the document creation time (YYYY-MM-DD, possibly with a time)
    train_dev/<corpus>/<doc>/<doc>.TimeNorm.gold.completed.xml   full SCATE gold (AQUAINT: dev, TimeBank: train)
    test_te3_spans_only/<doc>/<doc>.TimeNorm.gold.completed.xml  test gold with spans and types only
    schema/timenorm-preannotation-regexes.txt                    one ``regex<TAB>type`` per line

A submission holds ``<doc>/<doc>.TimeNorm.system.completed.xml`` per document.
"""
import io
import os

GOLD_SUFFIX = ".TimeNorm.gold.completed.xml"
SYSTEM_SUFFIX = ".TimeNorm.system.completed.xml"
#: Split -> (folder of the texts under text/, folder of the gold, whether that gold is full).
SPLITS = {
    "train": ("text/TimeBank", "train_dev/TimeBank", True),
    "dev": ("text/AQUAINT", "train_dev/AQUAINT", True),
    "test": ("text/te3-platinum", "test_te3_spans_only", False),
}


def documents(data, split):
    """The sorted document names of ``split`` (the folders of its texts); [] when the folder is absent."""
    folder = os.path.join(data, SPLITS[split][0])
    if not os.path.isdir(folder):
        return []
    return sorted(name for name in os.listdir(folder) if os.path.isdir(os.path.join(folder, name)))


def text_path(data, split, doc):
    """The path of ``doc``'s text."""
    return os.path.join(data, SPLITS[split][0], doc, doc)


def read_text(data, split, doc):
    """``(text, dct)`` of one document; the creation time is "" when its ``.dct`` file is absent.

    The text is read exactly (no newline translation): offsets count characters of the file as it is.
    """
    path = text_path(data, split, doc)
    with io.open(path, encoding="utf-8", newline="") as handle:
        text = handle.read()
    dct = ""
    if os.path.isfile(path + ".dct"):
        with io.open(path + ".dct", encoding="utf-8") as handle:
            dct = handle.read().strip()
    return text, dct


def gold_path(folder, doc):
    """The gold file of ``doc`` under a gold ``folder`` (``<folder>/<doc>/<doc>.TimeNorm.gold.completed.xml``)."""
    return os.path.join(folder, doc, doc + GOLD_SUFFIX)


def submission_name(doc):
    """The member name of ``doc``'s file in a submission."""
    return "%s/%s%s" % (doc, doc, SYSTEM_SUFFIX)
