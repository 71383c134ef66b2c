"""Scoring program of the constrained subtask's "Phase 2: embeddings" (CodaLab / Codabench).

``python3 score.py INPUT OUTPUT``: the reference ``INPUT/ref/embeddings.json`` names the languages to
cover and the leaderboard columns to write; the submission ``INPUT/res`` holds an ``embeddings/`` folder
(or the same files at its top level, or inside one wrapping folder):

- ``load_embeddings.py`` defining ``load_model`` at module level (found by reading the file with Python's
  tokenizer, so Python 3.9 code is read alike whatever the worker's Python; participant code is never
  imported, compiled or executed);
- ``requirements.txt`` (may be empty);
- ``metadata.txt``, not empty;
- one non-empty ``<lang>.bin`` per language.

Score: ``avg_score`` is the share of languages covered, or 0 when the layout is incomplete;
``<lang>_avg_score`` is 1 for a covered language; every other leaderboard column is 0 (not used in this
phase). Writes ``OUTPUT/scores.txt`` and ``OUTPUT/detailed_results.html`` (participant strings escaped).
Standard library only, Python 3.7+. Exit status 0 unless the reference is broken or nothing of the
layout was submitted.
"""
import difflib
import html
import io
import json
import os
import sys
import tokenize

REFERENCE_FILE = "embeddings.json"
LOADER = "load_embeddings.py"
LOADER_FUNCTION = "load_model"
REQUIREMENTS = "requirements.txt"
METADATA = "metadata.txt"
PLATFORM_FILES = ("metadata",)  # Codabench adds res/metadata
MAX_SOURCE_BYTES = 2 * 1024 * 1024


class BrokenReference(Exception):
    """The reference data of this phase is unusable (an organiser problem)."""


def read_reference(ref_dir):
    """Return (languages [(code, name)], columns [key], language_columns {code: key})."""
    path = os.path.join(ref_dir, REFERENCE_FILE)
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
        languages = [(item["code"], item["name"]) for item in data["languages"]]
        return languages, list(data["columns"]), dict(data["language_columns"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise BrokenReference("cannot read %s: %s" % (path, error))


def find_root(res_dir):
    """The folder holding the embeddings files, and a note on where it was found.

    Accepted, in order: ``res/embeddings/``, ``res/`` itself, ``res/<one folder>/embeddings/``,
    ``res/<one folder>/``.
    """
    def has_layout(folder):
        return os.path.isdir(folder) and any(
            name == LOADER or name.endswith(".bin") for name in os.listdir(folder))

    candidates = [(os.path.join(res_dir, "embeddings"), "embeddings/"), (res_dir, "the top level")]
    entries = [name for name in os.listdir(res_dir) if name not in PLATFORM_FILES and not name.startswith(".")]
    if len(entries) == 1 and os.path.isdir(os.path.join(res_dir, entries[0])) and entries[0] != "embeddings":
        wrapper = os.path.join(res_dir, entries[0])
        candidates += [(os.path.join(wrapper, "embeddings"), entries[0] + "/embeddings/"),
                       (wrapper, entries[0] + "/")]
    for folder, label in candidates:
        if has_layout(folder):
            return folder, label
    return None, None


def _module_statements(source):
    """The module-level logical lines of ``source`` as lists of ``(type, string)`` tokens.

    Read with the tokenizer, not parsed with the running Python's grammar: every Python 3.9 token stream
    (walrus, positional-only parameters, any decorator expression, ``f"{x=}"``...) is read alike by
    Python 3.7 to 3.12, so the verdict does not depend on the worker's Python. Raises ValueError with a
    located message for what cannot be Python (unbalanced brackets, bad indentation, unterminated strings).
    """
    statements, current, indent, depth, start_indent = [], [], 0, 0, 0
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            kind, text = token[0], token[1]
            if kind == tokenize.INDENT:
                indent += 1
            elif kind == tokenize.DEDENT:
                indent -= 1
            elif kind == tokenize.NEWLINE or (kind == tokenize.OP and text == ";" and depth == 0):
                if current and start_indent == 0:
                    statements.append(current)
                current = []
            elif kind not in (tokenize.NL, tokenize.COMMENT, tokenize.ENDMARKER) and kind != getattr(
                    tokenize, "ENCODING", -1):
                if kind == tokenize.OP and text in "([{":
                    depth += 1
                elif kind == tokenize.OP and text in ")]}":
                    depth -= 1
                    if depth < 0:
                        raise ValueError("line %d: unmatched %r" % (token[2][0], text))
                if not current:
                    start_indent = indent
                current.append((kind, text, depth))
    except tokenize.TokenError as error:
        where = error.args[1][0] if len(error.args) > 1 and error.args[1] else "?"
        raise ValueError("line %s: %s" % (where, error.args[0]))
    except (SyntaxError, IndentationError) as error:
        raise ValueError("line %s: %s" % (error.lineno, error.msg))
    if current and start_indent == 0:
        statements.append(current)
    return statements


def _imported_names(tokens):
    """The names an ``import`` / ``from ... import`` statement binds (``as`` names, else the dotted names)."""
    words = [text for kind, text, _ in tokens if text not in ("(", ")")]
    if words[0] == "from":
        if "import" not in words:
            return []
        words = words[words.index("import") + 1:]
    else:
        words = words[1:]
    names, item = [], []
    for word in words + [","]:
        if word == ",":
            if item:
                names.append(item[item.index("as") + 1] if "as" in item and item.index("as") + 1 < len(item)
                             else "".join(item))
            item = []
        else:
            item.append(word)
    return names


def _binds(tokens, name):
    """Whether one module-level statement binds ``name`` (def, async def, assignment, import)."""
    words = [text for _, text, _ in tokens]
    if words[:2] == ["def", name] or words[:3] == ["async", "def", name]:
        return True
    if words[0] in ("import", "from"):
        return name in _imported_names(tokens)
    for index, (kind, text, depth) in enumerate(tokens):
        if kind == tokenize.NAME and text == name and depth == 0 and index + 1 < len(tokens):
            follows = tokens[index + 1][1]
            first_target = index == 0 or tokens[index - 1][1] == "="
            if first_target and follows == "=":
                return True
            if index == 0 and follows == ":" and any(t == "=" and d == 0 for _, t, d in tokens[2:]):
                return True
    return False


def defines_function(source, name):
    """Whether Python ``source`` defines ``name`` at module level (def, assignment or import alias).

    Returns (True/False, message or None). The source is tokenized, never executed nor compiled, so any
    Python 3.9 code is read the same under every Python of the workers (see :func:`_module_statements`).
    """
    try:
        statements = _module_statements(source)
    except ValueError as error:
        return False, "%s does not parse: %s" % (LOADER, error)
    if any(_binds(tokens, name) for tokens in statements):
        return True, None
    return False, "%s does not define a function %s()" % (LOADER, name)


def read_text(path, limit=MAX_SOURCE_BYTES):
    """The text of a small file (decoded as UTF-8 with replacement), or None when it is too large."""
    if os.path.getsize(path) > limit:
        return None
    with open(path, "rb") as handle:
        return handle.read().decode("utf-8-sig", errors="replace")


def check_layout(root, languages):
    """Inspect the embeddings folder; return a result dict (covered, missing, messages, layout_ok...)."""
    messages = []
    names = sorted(os.listdir(root))
    layout_ok = True
    loader = os.path.join(root, LOADER)
    if not os.path.isfile(loader):
        layout_ok = False
        messages.append(("error", "%s is missing" % LOADER))
    else:
        source = read_text(loader)
        if source is None:
            layout_ok = False
            messages.append(("error", "%s is larger than %d bytes" % (LOADER, MAX_SOURCE_BYTES)))
        else:
            found, message = defines_function(source, LOADER_FUNCTION)
            if not found:
                layout_ok = False
                messages.append(("error", message))
    if not os.path.isfile(os.path.join(root, REQUIREMENTS)):
        layout_ok = False
        messages.append(("error", "%s is missing (an empty file is fine)" % REQUIREMENTS))
    metadata = os.path.join(root, METADATA)
    if not os.path.isfile(metadata):
        layout_ok = False
        messages.append(("error", "%s is missing" % METADATA))
    elif not (read_text(metadata) or "x").strip():
        layout_ok = False
        messages.append(("error", "%s is empty: describe your embeddings there" % METADATA))
    codes = [code for code, _ in languages]
    covered, empty = [], []
    for code in codes:
        path = os.path.join(root, code + ".bin")
        if os.path.isfile(path) and os.path.getsize(path) > 0:
            covered.append(code)
        elif os.path.isfile(path):
            empty.append(code)
            messages.append(("error", "%s.bin is empty" % code))
    known = set(code + ".bin" for code in codes) | {LOADER, REQUIREMENTS, METADATA}
    for name in names:
        if name in known:
            continue
        guess = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.6)
        hint = " (did you mean %s?)" % guess[0] if guess else ""
        level = "warning" if name.endswith(".bin") or guess else "info"
        messages.append((level, "unexpected %s %s, ignored%s" % (
            "folder" if os.path.isdir(os.path.join(root, name)) else "file", name, hint)))
    missing = [code for code in codes if code not in covered]
    return {"covered": covered, "missing": missing, "empty": empty, "layout_ok": layout_ok,
            "messages": messages}


def scores_for(result, languages, columns, language_columns):
    """``{key: value}`` for every leaderboard column (and two extra keys of this phase)."""
    share = float(len(result["covered"])) / len(languages) if languages else 0.0
    scores = dict((key, 0.0) for key in columns)
    for code, _ in languages:
        scores[language_columns[code]] = 1.0 if code in result["covered"] else 0.0
    scores["avg_score"] = share if result["layout_ok"] else 0.0
    scores["embeddings_coverage"] = share
    scores["embeddings_layout_ok"] = 1.0 if result["layout_ok"] else 0.0
    return scores


def write_scores(path, scores, order):
    """``key: value`` lines, plain decimals with 10 decimal places (Codabench reads it as YAML)."""
    keys = list(order) + sorted(k for k in scores if k not in order)
    with open(path, "w", encoding="utf-8") as handle:
        for key in keys:
            handle.write("%s: %.10f\n" % (key, scores[key]))


def render_html(result, languages, where, scores):
    """The detailed results page (self-contained; every participant string escaped)."""
    esc = html.escape
    rows = []
    for code, name in languages:
        state = "covered" if code in result["covered"] else ("empty file" if code in result["empty"] else "missing")
        rows.append("<tr><td><code>%s</code></td><td>%s</td><td>%s</td></tr>" % (esc(code), esc(name), state))
    messages = "".join("<li><strong>%s</strong>: %s</li>" % (esc(level), esc(text))
                       for level, text in result["messages"]) or "<li>none</li>"
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Embeddings layout</title>"
        "<style>body{font-family:sans-serif;margin:1rem}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}</style></head><body>"
        "<h1>Phase 2: embeddings layout</h1>"
        "<p>Score (avg_score): <strong>%.4f</strong>; languages covered: %d of %d; layout complete: %s.</p>"
        "<p>Files read from: %s</p>"
        "<h2>Languages</h2><table><thead><tr><th>Code</th><th>Language</th><th>State</th></tr></thead>"
        "<tbody>%s</tbody></table><h2>Messages</h2><ul>%s</ul>"
        "<p>Participant code is never executed: <code>%s</code> is only parsed.</p></body></html>\n"
        % (scores["avg_score"], len(result["covered"]), len(languages),
           "yes" if result["layout_ok"] else "no", esc(where or "nothing found"), "".join(rows), messages,
           LOADER))


def run(input_dir, output_dir):
    """Score ``input_dir/res`` against ``input_dir/ref``; return the exit status."""
    try:
        languages, columns, language_columns = read_reference(os.path.join(input_dir, "ref"))
    except BrokenReference as error:
        print("ERROR (reference data): %s" % error, file=sys.stderr)
        return 2
    res_dir = os.path.join(input_dir, "res")
    root, where = find_root(res_dir) if os.path.isdir(res_dir) else (None, None)
    if root is None:
        result = {"covered": [], "missing": [c for c, _ in languages], "empty": [], "layout_ok": False,
                  "messages": [("error", "no %s and no <lang>.bin file found: zip a folder embeddings/ with "
                                "%s, %s, %s and one <lang>.bin per language" % (LOADER, LOADER, REQUIREMENTS,
                                                                                 METADATA))]}
    else:
        result = check_layout(root, languages)
    scores = scores_for(result, languages, columns, language_columns)
    os.makedirs(output_dir, exist_ok=True)
    write_scores(os.path.join(output_dir, "scores.txt"), scores, columns)
    with open(os.path.join(output_dir, "detailed_results.html"), "w", encoding="utf-8") as handle:
        handle.write(render_html(result, languages, where, scores))
    print("embeddings: %d of %d languages covered, layout %s, avg_score %.4f"
          % (len(result["covered"]), len(languages), "complete" if result["layout_ok"] else "incomplete",
             scores["avg_score"]))
    for level, text in result["messages"]:
        print("  %s: %s" % (level, text))
    if root is None:
        print("ERROR: nothing recognisable was submitted (see the message above).", file=sys.stderr)
        return 1
    return 0


def main(argv=None):
    """``score.py INPUT OUTPUT``."""
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2:
        print("usage: python3 score.py INPUT OUTPUT", file=sys.stderr)
        return 2
    return run(argv[0], argv[1])


if __name__ == "__main__":
    sys.exit(main())
