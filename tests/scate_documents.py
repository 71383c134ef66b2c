"""Reading the SCATE annotations of ../shared/scate (AQUAINT and TimeBank, train_dev), shared by
tests/test_timenorm_shared.py and tests/bench_timenorm.py (which puts the scoring program on sys.path first)."""
import os

from evalkit.timenorm import anafora, scate


def read_documents(data, corpus):
    """Per document of ``corpus`` under ``data``, in name order: ``(name, SCATE gold Document, TimeML Document,
    creation time)``; the creation time is the date only (the first 10 characters of the ``.dct`` file)."""
    docs = []
    folder = os.path.join(data, "train_dev", corpus)
    for name in sorted(os.listdir(folder)):
        text_dir = os.path.join(data, "text", corpus, name)
        with open(os.path.join(text_dir, name), encoding="utf-8") as handle:
            text = handle.read()
        with open(os.path.join(text_dir, name + ".dct"), encoding="utf-8") as handle:
            dct = scate.parse_dct(handle.read().strip()[:10])
        gold = anafora.read_anafora_file(os.path.join(folder, name, name + ".TimeNorm.gold.completed.xml"), text)
        system = anafora.read_anafora_file(os.path.join(folder, name, name + ".TimeML.gold.completed.xml"), text)
        docs.append((name, gold, system, dct))
    return docs
