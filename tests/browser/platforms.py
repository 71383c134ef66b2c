"""Render competition pages as each platform shows them, in headless Chromium, and measure what a reader sees.

The pipelines, as read in the platforms' sources (nothing of theirs is copied here):

- ``legacy`` (CodaLab Competitions): ``apps/web/models.py`` stores a page's HTML as read from the bundle;
  ``templates/web/competitions/_innertabs.html`` writes it into the tab with
  ``document.write(DOMPurify.sanitize(content, {FORBID_TAGS: ['style']}))``, DOMPurify 2 being loaded by
  ``templates/web/competitions/view.html`` (``dompurify@2``). A phase description is printed by a Django
  template with auto-escaping (``<p>{{ phase.description }}</p>``): plain text.
- ``codabench``: the v1 and v2 unpackers store a page's file as read; ``riot/competitions/detail/_tabs.tag``
  renders pages, the terms and every phase description with ``renderMarkdownWithLatex``
  (``static/js/ours/latex_markdown_html.js``): code fences and ``$...$`` are taken out, the rest goes through
  ``marked`` (3.0.7, ``templates/base.html``), the result is parsed with ``DOMParser`` and only the children
  of its ``<body>`` are inserted. ``assert_markdown_neutral`` checks that a text has no code fence and no
  ``$`` (so that pipeline reduces to ``marked`` + ``DOMParser``, which is what is run here).
- ``local``: the page opened as its own document.

The packages come from ``tests/browser/node_modules`` (``npm ci`` there; ``make test`` does it).
``python tests/browser/platforms.py --out DIR BUNDLE.zip ...`` writes one screenshot per page, phase
description and platform for people to look at.
"""
import argparse
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
NODE_MODULES = os.path.join(HERE, "node_modules")
SCRIPTS = {
    "legacy": os.path.join(NODE_MODULES, "dompurify", "dist", "purify.min.js"),
    "codabench": os.path.join(NODE_MODULES, "marked", "marked.min.js"),
}
PLATFORMS = ("local", "legacy", "codabench")
#: Width of the content column (legacy's ``col-sm-9`` of a 1170 px container is about 850 px).
COLUMN_WIDTH = 850
LATEX = re.compile(r"\$\$([\s\S]+?)\$\$|\$([^\$\n]+?)\$")
RESULT_ID = "st2024-measure"

MEASURE_JS = r"""
function st2024Norm(s) { return (s || "").replace(/\s+/g, " ").trim(); }
function st2024Lines(cell) {
  var tops = [], walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT), node;
  while ((node = walker.nextNode())) {
    if (!node.textContent.trim()) continue;
    var range = document.createRange(); range.selectNodeContents(node);
    Array.prototype.forEach.call(range.getClientRects(), function (r) { if (r.width > 0) tops.push(r.top); });
  }
  tops.sort(function (a, b) { return a - b; });
  var lines = 0, last = -1e9;
  tops.forEach(function (t) { if (t - last > 6) { lines += 1; last = t; } });
  return lines;
}
function st2024Measure(root) {
  var doc = root.ownerDocument, win = doc.defaultView;
  var tables = Array.prototype.map.call(root.querySelectorAll("table"), function (table) {
    return Array.prototype.map.call(table.querySelectorAll("th, td"), function (cell) {
      var s = win.getComputedStyle(cell);
      return {text: st2024Norm(cell.innerText), tag: cell.tagName.toLowerCase(),
              borders: [s.borderTopWidth, s.borderRightWidth, s.borderBottomWidth, s.borderLeftWidth],
              styles: [s.borderTopStyle, s.borderRightStyle, s.borderBottomStyle, s.borderLeftStyle],
              align: s.textAlign, whiteSpace: s.whiteSpace, lines: st2024Lines(cell)};
    });
  });
  return {text: st2024Norm(root.innerText), tables: tables,
          pre: root.querySelectorAll("pre").length, styleElements: root.querySelectorAll("style").length,
          links: Array.prototype.map.call(root.querySelectorAll("a[href]"), function (a) {
            return a.getAttribute("href"); })};
}
function st2024Report() {
  var out = {};
  Array.prototype.forEach.call(document.querySelectorAll("[data-item]"), function (box) {
    var root = box;
    if (box.tagName === "IFRAME") {
      var d = box.contentDocument;
      root = d.querySelector("main") || d.body;
    }
    out[box.getAttribute("data-item")] = st2024Measure(root);
  });
  var pre = document.createElement("pre"); pre.id = "%s";
  pre.textContent = JSON.stringify(out); document.body.appendChild(pre);
}
window.addEventListener("load", st2024Report);
""" % RESULT_ID


class BrowserUnavailable(Exception):
    """Chromium or the npm packages are missing."""


def chromium():
    """Path of the Chromium binary, or raise :class:`BrowserUnavailable`."""
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        raise BrowserUnavailable("chromium is not installed (.ci/run installs Debian's chromium)")
    for script in SCRIPTS.values():
        if not os.path.isfile(script):
            raise BrowserUnavailable("%s is missing: run `npm ci` in %s (make test does)" % (script, HERE))
    return path


def assert_markdown_neutral(name, text):
    """Fail unless ``text`` has no code fence and no ``$...$`` (Codabench would take them out before ``marked``)."""
    if "```" in text:
        raise AssertionError("%s: a ``` code fence, which Codabench renders as a code block" % name)
    match = LATEX.search(text)
    if match:
        raise AssertionError("%s: %r would be rendered as LaTeX by Codabench" % (name, match.group(0)[:60]))


def _js_string(text):
    """A JavaScript string literal that is safe inside an inline ``<script>``."""
    return json.dumps(text).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _file_url(path):
    return "file://" + os.path.abspath(path)


def _item(platform, kind, key, content):
    """The host-page markup that renders one ``content`` as ``platform`` does (see the module docstring)."""
    attr = 'data-item="%s"' % key
    if platform == "local":
        srcdoc = content.replace("&", "&amp;").replace('"', "&quot;")
        return '<iframe %s style="width:%dpx;height:400px;border:0" srcdoc="%s"></iframe>' % (
            attr, COLUMN_WIDTH + 40, srcdoc)
    if platform == "legacy" and kind == "page":
        return ("<div %s><script>document.write(DOMPurify.sanitize(%s, {FORBID_TAGS: ['style']}));"
                "</script></div>" % (attr, _js_string(content)))
    if platform == "legacy":
        return "<p %s><script>document.currentScript.parentNode.textContent = %s;</script></p>" % (
            attr, _js_string(content))
    return ("<div %s><script>(function (box) { var html = marked(%s);"
            " var nodes = new DOMParser().parseFromString(html, 'text/html').body.childNodes;"
            " Array.prototype.forEach.call(nodes, function (n) { box.appendChild(n.cloneNode(true)); });"
            " })(document.currentScript.parentNode);</script></div>" % (attr, _js_string(content)))


def host_page(items, measured=True):
    """A host document rendering ``items`` (``(platform, kind, key, content)``) in one content column, with
    the script that writes the measures at the end of the document when ``measured``."""
    platforms = set(item[0] for item in items)
    heads = "".join('<script src="%s"></script>' % _file_url(SCRIPTS[p]) for p in sorted(platforms)
                    if p in SCRIPTS)
    body = "\n".join('<div class="st2024-host" style="width:%dpx;margin:8px">%s</div>'
                     % (COLUMN_WIDTH, _item(*item)) for item in items)
    script = "<script>%s</script>" % MEASURE_JS if measured else ""
    return ('<!DOCTYPE html><html><head><meta charset="utf-8">%s%s</head>'
            '<body style="font-family:sans-serif;font-size:14px">%s</body></html>' % (heads, script, body))


def _run(arguments, timeout=240):
    profile = tempfile.mkdtemp(prefix="st2024-chromium-")
    try:
        command = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                   "--disable-component-update", "--no-first-run", "--disable-sync", "--hide-scrollbars",
                   "--allow-file-access-from-files", "--user-data-dir=" + profile] + arguments
        return subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def measure(items):
    """Render ``items`` (``(platform, kind, key, content)``) in one Chromium run; return ``{key: measures}``."""
    folder = tempfile.mkdtemp(prefix="st2024-host-")
    try:
        path = os.path.join(folder, "host.html")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(host_page(items))
        process = _run(["--virtual-time-budget=20000", "--dump-dom", _file_url(path)])
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    dom = process.stdout.decode("utf-8", "replace")
    match = re.search(r'<pre id="%s">(.*?)</pre>' % RESULT_ID, dom, re.S)
    if not match:
        raise AssertionError("Chromium returned no measures (exit %d): %s"
                             % (process.returncode, process.stderr.decode("utf-8", "replace")[-2000:]))
    import html as html_module
    return json.loads(html_module.unescape(match.group(1)))


def screenshot(platform, kind, content, path, height=3000, offset=0):
    """Write a PNG of ``content`` rendered as ``platform`` shows it (from ``offset`` pixels down)."""
    folder = tempfile.mkdtemp(prefix="st2024-shot-")
    try:
        host = os.path.join(folder, "host.html")
        item = (platform, kind, "shot", content)
        if platform == "local":
            text = content
        else:
            text = host_page([item], measured=False)
        shifted = '<body\\1><div style="margin-top:-%dpx">' % offset
        text = re.sub(r"<body([^>]*)>", shifted, text, count=1)
        with open(host, "w", encoding="utf-8") as handle:
            handle.write(text)
        _run(["--virtual-time-budget=10000", "--window-size=%d,%d" % (COLUMN_WIDTH + 60, height),
              "--screenshot=" + os.path.abspath(path), _file_url(host)])
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# --------------------------------------------------------------------------- bundles

def bundle_contents(data):
    """``(pages, descriptions)`` of a competition bundle (zip bytes): ``{member: html}``, ``{label: text}``.

    Reads the v1.5 ``html`` mapping and ``phases`` mapping, or the v2 ``pages`` and ``phases`` lists.
    """
    import yaml
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        competition = yaml.safe_load(archive.read("competition.yaml"))
        html = competition.get("html") or {}
        members = list(html.values()) if isinstance(html, dict) else []
        members += [page["file"] for page in competition.get("pages") or [] if isinstance(page, dict)]
        pages = dict((member, archive.read(member).decode("utf-8")) for member in members)
    phases = competition.get("phases") or {}
    phases = list(phases.values()) if isinstance(phases, dict) else list(phases)
    descriptions = dict((str(p.get("label") or p.get("name")), str(p.get("description", "")))
                        for p in phases if p.get("description"))
    return pages, descriptions


def main(argv=None):
    """Write screenshots of every page and phase description of the given bundles, per platform."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("bundles", nargs="+")
    parser.add_argument("--out", required=True)
    parser.add_argument("--height", type=int, default=3000)
    parser.add_argument("--offset", type=int, default=0, help="start this many pixels down the page")
    args = parser.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    for bundle_path in args.bundles:
        stem = os.path.splitext(os.path.basename(bundle_path))[0]
        with open(bundle_path, "rb") as handle:
            pages, descriptions = bundle_contents(handle.read())
        for member, text in sorted(pages.items()):
            for platform in PLATFORMS:
                path = os.path.join(args.out, "%s-%s-%s.png" % (stem, member[:-5], platform))
                screenshot(platform, "page", text, path, args.height, args.offset)
                print(path)
        for label, text in sorted(descriptions.items()):
            for platform in ("legacy", "codabench"):
                name = re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")
                path = os.path.join(args.out, "%s-phase-%s-%s.png" % (stem, name, platform))
                screenshot(platform, "description", text, path, 400)
                print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
