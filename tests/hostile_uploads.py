#!/usr/bin/env python3
"""Hostile uploads (issue 8) scored against the release's dev references: exit status, peak RSS, output sizes.

    python tests/hostile_uploads.py build                      # the uploads, in dist/hostile/ (after make bench)
    python tests/hostile_uploads.py SCORING_PROGRAM_DIR LIMIT_MIB [PREFIX ...]

Needs the references and gold submission that ``make bench`` leaves in dist/bench/. Each upload is scored by
``SCORING_PROGRAM_DIR/evaluate.py`` in a child process under an address-space limit of LIMIT_MIB (peak RSS
measured as in tests/peak.py). Not a test: a measurement for the closing note of the issue.
"""
import json, os, sys, tempfile, zipfile, shutil, unicodedata, re
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REF = ROOT + "/dist/bench/ref/dev"
UP = os.path.join(ROOT, "dist", "hostile")
os.makedirs(UP, exist_ok=True)

def load(rel):
    with open(os.path.join(REF, rel), encoding="utf-8") as h:
        return json.load(h)

def zipped(name, members):
    path = os.path.join(UP, name + ".zip")
    if not os.path.exists(path):
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
            for member, data in members:
                zf.writestr(member, data if isinstance(data, bytes) else json.dumps(data, ensure_ascii=False))
    return path

def gold_dir(name, change):
    """Platform-form res/: the whole gold submission, with ``change(res_dir)`` applied."""
    path = os.path.join(UP, name)
    if not os.path.exists(path):
        shutil.copytree(ROOT + "/dist/bench/sub-gold", path)
        change(path)
    return path

def pos_with_tags(lang, tags):
    ref = load("pos_tagging/%s.json" % lang)
    flat = [tok for sent in ref for tok in sent]
    for tok, tag in zip(flat, tags):
        tok[1] = tag
    return ref

def uploads():
    u = {}
    # 1 lone surrogates in a tag and a feature name (JSON escapes), and a non-UTF-8 file name in res/
    pos = load("pos_tagging/orv.json"); pos[0][0][1] = "\ud800"
    morph = load("morph_features/orv.json"); morph[0][0]["\udfff"] = "x"
    u["1-surrogates"] = zipped("1-surrogates", [("pos_tagging/orv.json", json.dumps(pos).encode()),
                                                ("morph_features/orv.json", json.dumps(morph).encode())])
    u["1-nonutf8-name-in-res"] = gold_dir("1-nonutf8", lambda d: open(os.fsencode(d) + b"/notes\xff.json", "wb").write(b"[]"))
    # 2 bombs under the byte caps
    n = (255 * 1024 * 1024 - 2) // 3
    u["2-bomb-255MB-empty-lists"] = zipped("2-bomb", [("pos_tagging/orv.json", b"[" + b"[]," * (n - 1) + b"[]]")])
    u["2-million-sentences"] = zipped("2-million", [("pos_tagging/orv.json", json.dumps([[["a", "NOUN"]]] * 1000000).encode())])
    # 3 report amplification: 200 distinct 1 MB tags; and what fits the new bound (30 x 1 MB)
    u["3-200-tags-of-1MB"] = zipped("3-tags200", [("pos_tagging/orv.json", pos_with_tags("orv", ["%03d" % i + "T" * (1 << 20) for i in range(200)]))])
    u["3-30-tags-of-1MB"] = zipped("3-tags30", [("pos_tagging/lat.json", pos_with_tags("lat", ["%03d" % i + "T" * (1 << 20) for i in range(30)]))])
    # 4 message amplification: 12 forms of 8 MB; and 40 forms of 1 MB (within the bound)
    def forms(lang, count, size):
        ref = load("morph_features/%s.json" % lang)
        for i, tok in enumerate([t for s in ref for t in s][:count]):
            tok["Token"] = "%02d" % i + "F" * size
        return ref
    u["4-12-forms-of-8MB"] = zipped("4-forms12", [("morph_features/orv.json", forms("orv", 12, 8 << 20))])
    u["4-40-forms-of-1MB"] = zipped("4-forms40", [("morph_features/orv.json", forms("orv", 40, 1 << 20))])
    def feats(lang, count, size):
        ref = load("morph_features/%s.json" % lang)
        for i, tok in enumerate([t for s in ref for t in s][:count]):
            tok["%02d" % i + "K" * size] = "v"
        return ref
    u["3b-30-features-of-1MB-within-bound"] = zipped("3b-feats30", [("morph_features/orv.json", feats("orv", 30, 1 << 20))])
    u["4b-30-forms-of-1MB-within-bound"] = zipped("4b-forms30", [("morph_features/orv.json", forms("orv", 30, 1 << 20))])
    rb = open(os.path.join(REF, "morph_features/orv.json"), "rb").read()
    vals = 16 * (rb.count(b",") + rb.count(b"[") + rb.count(b"{")) - 10
    maxb = 16 * len(rb) - 10
    n = min(vals // 2, maxb // 3)
    u["2b-max-empty-lists-within-bound"] = zipped("2b-lists", [("morph_features/orv.json", b"[" + b"[]," * (n - 1) + b"[]]")])
    n = min(vals, maxb // 5)
    u["2c-max-short-strings-within-bound"] = zipped("2c-strs", [("morph_features/orv.json", b"[" + b'"ab",' * (n - 1) + b'"ab"]')])
    n = min(vals // 2, maxb // 7)
    u["2d-max-objects-within-bound"] = zipped("2d-objs", [("morph_features/orv.json", b"[[" + b'{"":0},' * (n - 1) + b'{"":0}]]')])
    # 5 forged log lines
    u["5-forged-name"] = zipped("5-forged", [("pos_tagging/orv.json", load("pos_tagging/orv.json")),
                                             ("x\n\noverall score (avg_score): 1.0000 \x1b]0;PWNED\x07", b"x")])
    # 7 NFC / NFD gold
    def normalised(form):
        def change(d):
            for folder in os.listdir(d):
                if not os.path.isdir(os.path.join(d, folder)):
                    continue
                for f in os.listdir(os.path.join(d, folder)):
                    p = os.path.join(d, folder, f)
                    with open(p, encoding="utf-8") as h:
                        text = h.read()
                    with open(p, "w", encoding="utf-8") as h:
                        h.write(unicodedata.normalize(form, text))
        return change
    u["7-gold-NFD"] = gold_dir("7-nfd", normalised("NFD"))
    u["7-gold-NFC"] = gold_dir("7-nfc", normalised("NFC"))
    u["0-gold"] = ROOT + "/dist/bench/sub-gold"
    return u

CTRL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")

def run(program, sub, out, limit):
    sys.path.insert(0, ROOT + "/tests")
    import peak
    peak.EVALUATE = program + "/evaluate.py"
    tmp = tempfile.mkdtemp()
    r = peak.run_scorer(["--ref", REF, "--submission", sub, "--out", out], tmp, limit)
    return r.status, r.peak, r.stdout + r.stderr

def size(path):
    return os.path.getsize(path) if os.path.exists(path) else None

def main():
    if sys.argv[1] == "build":
        uploads(); return
    program, limit = sys.argv[1], int(sys.argv[2]) << 20
    only = sys.argv[3:] or None
    for name, sub in sorted(uploads().items()):
        if only and not any(name.startswith(o) for o in only):
            continue
        out = tempfile.mkdtemp(prefix="i8out-")
        code, rss, text = run(program, sub, out, limit)
        sizes = [size(os.path.join(out, f)) for f in ("scores.txt", "scores.json", "detailed_results.json", "detailed_results.html")]
        avg = ""
        if sizes[0]:
            avg = [l for l in open(os.path.join(out, "scores.txt")) if l.startswith("avg_score")][0].strip()
        first = text.decode("utf-8", "backslashreplace").strip().splitlines()[-1][:150] if code not in (0,) else ""
        print("%-26s exit %d  peak %7.0f MB  txt/json/detJSON/detHTML %s  out+err %d B  ctrl %s  %s %s" % (
            name, code, rss / 1e6, "/".join("-" if s is None else "%.2fM" % (s / 1e6) for s in sizes), len(text),
            bool(CTRL.search(text.decode("utf-8", "replace"))), avg, first), flush=True)
        shutil.rmtree(out)

main()
