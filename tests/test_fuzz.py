"""Property-based tests: whatever a participant uploads, no traceback, and a well-formed scores.txt."""
import json
import os
import re
import zipfile

from hypothesis import HealthCheck, given, settings, strategies as st

import st2024
from evalkit import cli
from test_validation import GOOD, REF, write_tree

LINE = re.compile(r"^[a-z0-9_]{1,36}: -?[0-9]+\.[0-9]{10,}$")

json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.floats(allow_nan=True),
                      st.text(max_size=5), st.sampled_from(["a", "DET", "Nom", "[MASK]"]))
json_value = st.recursive(json_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(["Token", "Form", "UPOS", "Case", "masked",
                                                                    "masked_tokens", "text", "x"]), inner, max_size=4)),
    max_leaves=25)


def mutate(value, data):
    """A structurally perturbed copy of a good file's JSON."""
    if isinstance(value, list) and value and data.draw(st.booleans()):
        i = data.draw(st.integers(0, len(value) - 1))
        choice = data.draw(st.integers(0, 3))
        copy = list(value)
        if choice == 0:
            copy[i] = data.draw(json_value)
        elif choice == 1:
            del copy[i]
        elif choice == 2:
            copy.insert(i, data.draw(json_value))
        else:
            copy[i] = mutate(copy[i], data)
        return copy
    if isinstance(value, dict) and value and data.draw(st.booleans()):
        copy = dict(value)
        key = data.draw(st.sampled_from(sorted(copy)))
        copy[key] = data.draw(json_value)
        return copy
    return value if data.draw(st.booleans()) else data.draw(json_value)


def check_run(tmp, sub, capsys):
    out = os.path.join(tmp, "out")
    status = cli.main(st2024, ["--ref", os.path.join(tmp, "ref"), "--submission", sub, "--out", out, "--quiet"])
    err = capsys.readouterr().err
    assert status in (0, 1), err
    assert "Traceback" not in err and "Internal error" not in err
    if status == 0:
        with open(os.path.join(out, "scores.txt"), encoding="utf-8") as handle:
            lines = handle.read().splitlines()
        assert lines and all(LINE.match(line) for line in lines), lines[:5]
        with open(os.path.join(out, "detailed_results.json"), encoding="utf-8") as handle:
            assert json.load(handle)["scores"]["avg_score"] >= -1.0
        assert os.path.getsize(os.path.join(out, "detailed_results.html")) > 0


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_mutated_files_never_crash(tmp_path_factory, capsys, data):
    tmp = str(tmp_path_factory.mktemp("fuzz"))
    write_tree(os.path.join(tmp, "ref"), REF)
    files = {}
    for rel, content in GOOD.items():
        kind = data.draw(st.integers(0, 3))
        if kind == 0:
            files[rel] = content
        elif kind == 1:
            files[rel] = mutate(content, data)
        elif kind == 2:
            files[rel] = data.draw(st.binary(max_size=40))
    files[data.draw(st.sampled_from(["x.json", "pos_tagging/zz.json", "Lemmatisation/lat.json", "a/b/c"]))] = []
    check_run(tmp, write_tree(os.path.join(tmp, "sub"), files), capsys)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_odd_zips_never_crash(tmp_path_factory, capsys, data):
    tmp = str(tmp_path_factory.mktemp("zipfuzz"))
    write_tree(os.path.join(tmp, "ref"), REF)
    archive = os.path.join(tmp, "sub.zip")
    prefix = data.draw(st.sampled_from(["", "team/", "a/b/", "../", "/"]))
    with zipfile.ZipFile(archive, "w") as zf:
        for rel, content in GOOD.items():
            if data.draw(st.booleans()):
                zf.writestr(prefix + rel, json.dumps(content))
        zf.writestr(data.draw(st.sampled_from(["metadata", "__MACOSX/x", "pos_tagging/", "readme"])), "x")
    if data.draw(st.booleans()):
        with open(archive, "r+b") as handle:   # corrupt some bytes
            handle.seek(data.draw(st.integers(0, max(0, os.path.getsize(archive) - 1))))
            handle.write(data.draw(st.binary(min_size=1, max_size=8)))
    check_run(tmp, archive, capsys)


TAG = st.sampled_from(["DET", "NOUN", "VERB", "X", ""])
CANDS = st.lists(st.sampled_from(["x", "y", "z", "q", "a"]), max_size=4)


def well_formed(data):
    """A submission with the reference's shapes, random values and sometimes a wrong form or count."""
    form = lambda f: data.draw(st.sampled_from([f, f, f, f + "!"]))
    maybe_drop = lambda sent: sent[:-1] if data.draw(st.integers(0, 9)) == 0 else sent
    files = {}
    files["pos_tagging/lat.json"] = [maybe_drop([[form(f), data.draw(TAG)] for f, _ in s]) for s in REF["pos_tagging/lat.json"]]
    files["lemmatisation/lat.json"] = [[[form(f), data.draw(CANDS)] for f, _ in s] for s in REF["lemmatisation/lat.json"]]
    files["morph_features/lat.json"] = [[dict(data.draw(st.dictionaries(st.sampled_from(["Case", "UPOS", "Lemma", "Number"]),
                                                                     st.sampled_from(["Nom", "Acc"]), max_size=3)),
                                              Token=form(t["Token"])) for t in s] for s in REF["morph_features/lat.json"]]
    files["fill_mask_word/lat.json"] = [{"masked": data.draw(st.sampled_from([s["masked"], "other"])),
                                         "masked_tokens": [data.draw(CANDS) for _ in s["masked_tokens"]]}
                                        for s in REF["fill_mask_word/lat.json"]]
    files["pos_tagging/san.json"] = [[[f, data.draw(TAG)] for f, _ in s] for s in REF["pos_tagging/san.json"]]
    return files


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_fast_paths_agree_with_the_sentence_by_sentence_paths(tmp_path_factory, monkeypatch, data):
    from evalkit import kinds
    from evalkit.scoring import evaluate
    tmp = str(tmp_path_factory.mktemp("paths"))
    ref = write_tree(os.path.join(tmp, "ref"), REF)
    sub = write_tree(os.path.join(tmp, "sub"), well_formed(data))
    fast = evaluate(st2024, ref, sub)
    with monkeypatch.context() as patch:
        for kind in kinds.KINDS.values():
            if hasattr(kind, "_fast_parse"):
                patch.setattr(kind, "_fast_parse", lambda *args: None)
        slow = evaluate(st2024, ref, sub)
    assert fast["scores"] == slow["scores"]
    assert fast["messages"] == slow["messages"]
    assert [e["details"] for e in fast["entries"]] == [e["details"] for e in slow["entries"]]
