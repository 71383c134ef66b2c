"""Shared helpers of the LinCE tests: paths, the declaration, building references and submissions."""
import os
import sys

from conftest import ROOT, load_by_path

LINCE_DIR = os.path.join(ROOT, "competitions", "lince")
SAMPLE = os.path.join(LINCE_DIR, "sample_data")
KIT = os.path.join(LINCE_DIR, "starting_kit")
EVALUATE = os.path.join(LINCE_DIR, "evaluate.py")
LINCE_SHARED = os.environ.get("LINCE_SHARED", os.path.join(os.path.dirname(ROOT), "shared", "lince"))
for _path in (LINCE_DIR, KIT):   # appended: the kit's script names (validate, ...) must not shadow ST2024's
    if _path not in sys.path:
        sys.path.append(_path)

import lince  # noqa: E402
import lince_baselines  # noqa: E402
import lince_data  # noqa: E402


generate_sample = load_by_path("lince_generate", os.path.join(SAMPLE, "generate.py"))
reference = load_by_path("lince_reference", os.path.join(LINCE_DIR, "reference.py"))
baseline_table = load_by_path("lince_baseline_table", os.path.join(LINCE_DIR, "baselines.py"))


def build_sample_reference(out):
    """Build the sample data's dev and test references under ``out``; return the summary."""
    return reference.build(SAMPLE, str(out), os.path.join(SAMPLE, "test_gold"))


def gold_submission(split_dir_sentences):
    """``{file name: text}`` of a perfect submission from ``{(task, pair): sentences with gold}``."""
    files = {}
    for (task, pair), sentences in split_dir_sentences.items():
        name = lince.SUBMISSION_FILE.format(task=task.key, lang=pair)
        if task.kind == "sentence_labels":
            files[name] = "".join(header[-1] + "\n" for header, _ in sentences)
        else:
            files[name] = "".join("".join(row[-1] + "\n" for row in rows) + "\n" for _, rows in sentences)
    return files


def sample_gold(split="dev"):
    """``{(task, pair): sentences}`` of the sample data's ``split`` with gold (test: the test gold)."""
    out = {}
    for task, pair in lince.DATASETS:
        ident = lince.dataset_id(task, pair)
        folder = os.path.join(SAMPLE, "test_gold") if split == "test" else SAMPLE
        out[(task, pair)] = lince_data.read_conll(os.path.join(folder, ident, split + ".conll"))
    return out


def write_files(folder, files):
    """Write ``{name: text}`` under ``folder`` (created); return its path."""
    os.makedirs(str(folder), exist_ok=True)
    for name, text in files.items():
        path = os.path.join(str(folder), name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
    return str(folder)
