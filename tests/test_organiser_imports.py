"""The organiser package imports downwards only: no import circle among its modules, lazy imports inside functions
included (issue 31: bundle, feedback, pages, procedure and split used to import each other in a circle)."""
import ast
import glob
import os

from conftest import ROOT


def imports(path, package):
    """The modules of ``package`` that the module at ``path`` imports, wherever the import statement is."""
    with open(path, encoding="utf-8") as handle:
        tree = ast.parse(handle.read(), path)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == package:
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(package + "."):
            found.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            found.update(alias.name.split(".")[1] for alias in node.names if alias.name.startswith(package + "."))
    return found


def circles(edges):
    """Every circle of the graph ``edges`` (``{module: imported modules}``), each as the list of its modules."""
    found = []

    def walk(module, path):
        for other in sorted(edges.get(module, ())):
            if other in path:
                circle = path[path.index(other):]
                if min(circle) == circle[0] and circle + [other] not in found:   # each once, from its smallest
                    found.append(circle + [other])
            elif other in edges:
                walk(other, path + [other])
    for module in sorted(edges):
        walk(module, [module])
    return found


def test_the_organiser_package_has_no_import_circle():
    folder = os.path.join(ROOT, "organiser")
    modules = dict((os.path.basename(path)[:-len(".py")], path) for path in glob.glob(os.path.join(folder, "*.py")))
    edges = dict((name, imports(path, "organiser") & set(modules)) for name, path in modules.items())
    assert edges["bundle"] and edges["feedback"], edges   # the graph is read (these two import others)
    assert circles(edges) == []


def test_the_circle_finder_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
