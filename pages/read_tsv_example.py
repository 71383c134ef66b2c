import pandas as pd


def read_tsv(path):
    """One row per sentence, columns masked and src (src is empty in the test files)."""
    table = pd.read_csv(path, sep="\t", header=None, names=["masked", "src"], quotechar="^",
                        dtype=str, keep_default_na=False)
    if len(table) and tuple(table.iloc[0]) == ("masked", "src"):   # train and valid: header line
        table = table.iloc[1:].reset_index(drop=True)
    return table


def read_tsv_plain(path):
    """The same without pandas: [masked] or [masked, src] per sentence."""
    with open(path, encoding="utf-8") as handle:
        rows = [line.rstrip("\n").split("\t") for line in handle]
    return rows[1:] if rows and rows[0] == ["masked", "src"] else rows
