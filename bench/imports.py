#!/usr/bin/env python3
"""Import circles between the source files of each crate.

Usage: python3 bench/imports.py [--edges] [--strict] [ROOT ...]

With no ROOT, every crates/*/src and the command's src/ of the workspace
(found from this script's place) is read. For each crate, every file is a
node, named by its module path (`crate`, `keys`, `sqlite`, `sqlite::sql`);
an edge A -> B means that A names something in B through a path that starts
with `crate::`, `super::`, `self::` or a child module's name, in a `use`
line or in the code (test modules count: they are part of the file). A path
leads to the deepest module it names. Neither `mod` declarations nor
re-exports (`pub use`, `pub(crate) use`) are imports: a re-export only
passes a name on (a folder's mod.rs opening its rooms to the crate), and a
path that reaches an item through one leads to the module that re-exports
it, not to the item's own file.

Prints each circle (`a -> b -> a`, with the lines that make its edges) and
a count; exits 1 if there is any circle, 0 if none. `--edges` also prints
every edge. `--strict` also counts a path in the code that starts with a
child module's name (`sqlite::open(...)` in the crate root): a parent that
calls into its rooms while they import what it defines is then a circle.
"""

import re
import sys
from pathlib import Path

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
KEYWORDS = {"crate", "super", "self", "Self"}


def strip(text):
    """The code with its comments, strings and character literals blanked
    (newlines kept, so that line numbers still hold)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "r" and re.match(r'r#*"', text[i:]) and not (
            i and re.match(r"[A-Za-z0-9_]", text[i - 1])
        ):
            hashes = re.match(r"r(#*)\"", text[i:]).group(1)
            end = text.find('"' + hashes, i + 2 + len(hashes))
            j = n if end < 0 else end + 1 + len(hashes)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "'":
            # A character literal ('a', '\n', '\u{1F}') or a lifetime ('a).
            m = re.match(r"'(\\u\{[0-9a-fA-F]+\}|\\.|[^\\'])'", text[i:])
            if m:
                out.append(" " * len(m.group(0)))
                i += len(m.group(0))
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def module_of(root, path):
    """A file's module path under its crate's src folder."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts in (["lib"], ["main"]):
        return ()
    if parts[-1] == "mod":
        parts = parts[:-1]
    return tuple(parts)


def expand(tree):
    """The paths of a use tree: `a::{b, c::{d, self}}` -> a::b, a::c::d, a::c."""
    tree = re.sub(r"\s+", "", tree)
    depth, start = 0, None
    for k, ch in enumerate(tree):
        if ch == "{":
            if depth == 0:
                start = k
            depth += 1
        elif ch == "}":
            depth -= 1
    if start is None:
        return [re.sub(r"\bas\w+$", "", tree)]
    prefix = tree[:start]
    inner = tree[start + 1 : tree.rindex("}")]
    items, depth, cur = [], 0, ""
    for ch in inner:
        if ch == "," and depth == 0:
            items.append(cur)
            cur = ""
            continue
        depth += ch == "{"
        depth -= ch == "}"
        cur += ch
    items.append(cur)
    paths = []
    for item in items:
        if not item:
            continue
        if item == "self":
            paths.append(prefix.rstrip(":"))
        else:
            paths.extend(prefix + p for p in expand(item))
    return paths


def read_crate(root, strict=False):
    """Nodes (module paths of files) and edges {(a, b): [where, ...]}."""
    files = {}
    for path in sorted(root.rglob("*.rs")):
        if "bin" in path.relative_to(root).parts[:1]:
            continue
        files[module_of(root, path)] = path
    modules = set(files)
    edges = {}

    def file_of(resolved):
        for k in range(len(resolved), -1, -1):
            if tuple(resolved[:k]) in modules:
                return tuple(resolved[:k])
        return None

    for here, path in files.items():
        code = strip(path.read_text(encoding="utf-8"))
        # Inline modules (`mod tests { ... }`): their paths are relative to
        # them, and they belong to this file.
        inline = []  # (module path, brace depth at which it opened)
        depth = 0
        children = {m[-1] for m in modules if m[:-1] == here and m}

        def current():
            return inline[-1][0] if inline else here

        def resolve(segments):
            mod = list(current())
            first = segments[0]
            if first == "crate":
                mod, segments = [], segments[1:]
            elif first in ("self", "super"):
                while segments and segments[0] in ("self", "super"):
                    if segments[0] == "super":
                        mod = mod[:-1]
                    segments = segments[1:]
            elif (not inline) and first in children:
                pass
            else:
                return None
            return file_of(mod + list(segments))

        def add(target, line, what):
            if target is not None and target != here:
                edges.setdefault((here, target), []).append(
                    f"{shown(path)}:{line}: {what}"
                )

        token = re.compile(
            r"(?P<use>(?P<vis>\bpub\s*(?:\([^)]*\)\s*)?)?\buse\s+(?P<tree>[^;]+);)"
            r"|(?P<mod>\bmod\s+(?P<name>" + IDENT + r")\s*\{)"
            r"|(?P<path>\b(?:crate|super|self)(?:\s*::\s*" + IDENT + r")+)"
            r"|(?P<bare>(?<![:\w.])" + IDENT + r"(?:\s*::\s*" + IDENT + r")+)"
            r"|(?P<open>\{)|(?P<close>\})"
        )
        for m in token.finditer(code):
            line = code.count("\n", 0, m.start()) + 1
            if m.group("open"):
                depth += 1
            elif m.group("close"):
                depth -= 1
                if inline and inline[-1][1] == depth:
                    inline.pop()
            elif m.group("mod"):
                inline.append((current() + (m.group("name"),), depth))
                depth += 1
            elif m.group("use") and m.group("vis"):
                pass  # a re-export passes a name on; see the usage above
            elif m.group("use"):
                tree = m.group("tree").strip()
                for p in expand(tree):
                    segments = [s for s in p.split("::") if s]
                    if segments:
                        add(resolve(segments), line, "use " + p)
            elif m.group("path"):
                p = re.sub(r"\s+", "", m.group("path"))
                add(resolve(p.split("::")), line, p)
            elif m.group("bare") and strict and not inline:
                p = re.sub(r"\s+", "", m.group("bare"))
                if p.split("::")[0] in children:
                    add(resolve(p.split("::")), line, p)
    return files, edges


def cycles(nodes, edges, cap=100):
    """The elementary circles of the graph (each once, from its least node)."""
    succ = {n: sorted({b for (a, b) in edges if a == n}) for n in nodes}
    found = []
    order = sorted(nodes)
    rank = {n: k for k, n in enumerate(order)}
    for start in order:
        stack = [(start, iter(succ[start]))]
        path = [start]
        on_path = {start}
        while stack and len(found) < cap:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                stack.pop()
                on_path.discard(path.pop())
                continue
            if nxt == start:
                found.append(path + [start])
            elif rank[nxt] > rank[start] and nxt not in on_path:
                path.append(nxt)
                on_path.add(nxt)
                stack.append((nxt, iter(succ[nxt])))
    return found


def shown(path):
    """A path as short as it reads from here."""
    try:
        return path.resolve().relative_to(Path.cwd())
    except ValueError:
        return path


def name(module):
    return "::".join(module) if module else "crate"


def main(argv):
    show_edges = "--edges" in argv
    strict = "--strict" in argv
    roots = [Path(a) for a in argv if not a.startswith("--")]
    if not roots:
        top = Path(__file__).resolve().parent.parent
        roots = sorted(top.glob("crates/*/src")) + [top / "src"]
    total = 0
    for root in roots:
        if not root.is_dir():
            continue
        files, edges = read_crate(root, strict)
        root = shown(root)
        if show_edges:
            for (a, b), where in sorted(edges.items()):
                print(f"{root}: {name(a)} -> {name(b)}  ({len(where)}x)")
        found = cycles(files, edges)
        for circle in found:
            total += 1
            print(f"{root}: circle: " + " -> ".join(name(m) for m in circle))
            for a, b in zip(circle, circle[1:]):
                for where in edges[(a, b)][:3]:
                    print(f"    {name(a)} -> {name(b)}: {where}")
    print(f"{total} circle(s) in {len(roots)} crate source folder(s)")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
