#!/usr/bin/env python3
"""The helper of scripts/check-examples: finds the ```swift blocks of the libraries' DocC
articles and doc comments, writes each as a function of a generated package
(.build/examples), and, after the build, reads the compiler's errors back as places in the
articles and sources.

  check-examples.py generate ROOT BUILD_YAML LIBRARY...   writes the package; prints the counts
  check-examples.py report ROOT BUILD_LOG                 the errors, by block; exit 1 if any

Each block becomes the body of `func example_…(…) throws` (async when it awaits) in a file of
its own, under a `#sourceLocation` naming the block's file and line, so that the compiler's
messages point into the article or the source. The names examples use without declaring them (`store`,
`event`, `console`…) are the function's parameters. A block's `import`s go to the top of its
file; its types, extensions and protocols move to file scope (fileprivate, so that blocks do
not collide), where a program's top-level declarations are: the function runs on the main
actor, as top-level code does, and a local type would too. A block of declarations only
(an article's helpers) goes to file scope as it is, internal: every block of the library
sees it (a library's examples are one module), in any order.

How the modules are found, and what to do when SwiftPM changes that: scripts/check-examples.
"""

import json
import os
import re
import sys

LIBRARIES = [
    "ICalendar", "OpenEventKit", "OpenEventKitSync", "REPLKit", "OpenEventKitUI", "OpenEventKitApp"]

# The libraries each library's examples import: itself and what it is built on.
IMPORTS = {
    "ICalendar": ["ICalendar"],
    "OpenEventKit": ["ICalendar", "OpenEventKit"],
    "OpenEventKitSync": ["ICalendar", "OpenEventKit", "OpenEventKitSync"],
    "REPLKit": ["ICalendar", "REPLKit"],
    "OpenEventKitUI": ["ICalendar", "OpenEventKit", "REPLKit", "OpenEventKitUI"],
    "OpenEventKitApp": ["ICalendar", "OpenEventKit", "REPLKit", "OpenEventKitUI", "OpenEventKitApp"],
}

# The names examples use for what the text around them has already made: each is a
# parameter of every example function whose library has the type.
PLACEHOLDERS = {
    "ICalendar": [],
    "OpenEventKit": [
        ("store", "EKEventStore"),
        ("event", "EKEvent"),
        ("reminder", "EKReminder"),
        ("calendar", "EKCalendar"),
        ("events", "[EKEvent]"),
        ("id", "String"),
        ("data", "Data"),
        # What a member's example calls it on.
        ("tracker", "ChangeTracker<String, Date>"),
        ("change", "ChangeTracker<String, Date>.Change"),
        ("settings", "PrivacySettings"),
        ("dates", "DateText"),
        ("file", "URL"),
    ],
    "OpenEventKitSync": [("accounts", "CalDAVAccounts")],
    "REPLKit": [
        ("console", "Console"),
        ("style", "TerminalStyle"),
        ("repl", "REPL"),
        ("commands", "[REPLCommand]"),
        ("words", "[String]"),
    ],
    "OpenEventKitUI": [],
    "OpenEventKitApp": [("app", "AppInfo"), ("session", "AppSession"), ("database", "AppDatabase")],
}

# For a block that imports GRDB (an app's own database): what such examples use.
IMPORT_PLACEHOLDERS = {
    "GRDB": [("queue", "DatabaseQueue"), ("migrator", "DatabaseMigrator")],
}

SKIP_MARKER = re.compile(r"^\s*<!--\s*example:\s*not compiled\s*\((.+)\)\s*-->\s*$")
# A sample's pattern, shown as it is in the sample's file: it compiles there, with the
# sample's other types, and check-doc-references compares the block with it.
PATTERN_MARKER = re.compile(r"^\s*<!--\s*pattern:\s*(.+?)\s*-->\s*$")
FENCE_OPEN = re.compile(r"^(\s*)```swift\s*$")
FENCE_CLOSE = re.compile(r"^\s*```\s*$")
DOC_LINE = re.compile(r"^\s*///(.*)$")
DECLARATION = re.compile(
    r"^(?:(?:public|private|fileprivate|internal|package|final|open|indirect)\s+)*"
    r"(struct|class|enum|actor|protocol|extension|typealias|func)\b")
IMPORT = re.compile(r"^(?:@\w+\s+)?import\s+(\w+)\s*$")


class Block:
    def __init__(self, library, path, line, lines, skip_reason=None):
        self.library = library
        self.path = path  # relative to the root
        self.line = line  # of the opening fence, 1-based
        self.lines = lines  # the code, each (line number, text)
        self.skip_reason = skip_reason

    def first_code_line(self):
        for _, text in self.lines:
            if text.strip():
                return text.strip()
        return ""

    def key(self):
        return f"{self.path} | {self.first_code_line()}"


def article_blocks(library, root, path):
    lines = open(os.path.join(root, path), encoding="utf-8").read().split("\n")
    blocks, i = [], 0
    while i < len(lines):
        match = FENCE_OPEN.match(lines[i])
        if not match:
            i += 1
            continue
        indent = len(match.group(1))
        before = lines[i - 1] if i > 0 else ""
        skip, pattern = SKIP_MARKER.match(before), PATTERN_MARKER.match(before)
        reason = skip.group(1) if skip else None
        if pattern:
            reason = (f"pattern {pattern.group(1)}: compiled as part of its sample; compared "
                      "with it by check-doc-references")
        start, body = i + 1, []
        i += 1
        while i < len(lines) and not FENCE_CLOSE.match(lines[i]):
            body.append((i + 1, lines[i][indent:] if lines[i][:indent].strip() == "" else lines[i]))
            i += 1
        blocks.append(Block(library, path, start, body, reason))
        i += 1
    return blocks


def comment_blocks(library, root, path):
    lines = open(os.path.join(root, path), encoding="utf-8").read().split("\n")
    blocks, i = [], 0
    while i < len(lines):
        doc = DOC_LINE.match(lines[i])
        text = doc.group(1)[1:] if doc and doc.group(1).startswith(" ") else (doc.group(1) if doc else "")
        match = FENCE_OPEN.match(text) if doc else None
        if not match:
            i += 1
            continue
        indent = len(match.group(1))
        start, body = i + 1, []
        i += 1
        while i < len(lines):
            doc = DOC_LINE.match(lines[i])
            if not doc:
                break
            text = doc.group(1)[1:] if doc.group(1).startswith(" ") else doc.group(1)
            if FENCE_CLOSE.match(text):
                break
            body.append((i + 1, text[indent:] if text[:indent].strip() == "" else text))
            i += 1
        # Only the examples of the public API, which the reference shows.
        following = i + 1
        while following < len(lines) and re.match(r"^\s*(///|@|#if|#else|#endif|$)", lines[following]):
            following += 1
        if following < len(lines) and re.search(r"\b(public|open)\b", lines[following]):
            blocks.append(Block(library, path, start, body))
        i += 1
    return blocks


def library_blocks(root, library):
    blocks = []
    catalog = f"Sources/{library}/{library}.docc"
    for directory, subdirectories, files in os.walk(os.path.join(root, f"Sources/{library}")):
        subdirectories.sort()
        for name in sorted(files):
            path = os.path.relpath(os.path.join(directory, name), root)
            if name.endswith(".md") and path.startswith(catalog):
                blocks += article_blocks(library, root, path)
            elif name.endswith(".swift"):
                blocks += comment_blocks(library, root, path)
    return blocks


def read_skip_list(root):
    """The skip list: `FILE | FIRST CODE LINE | REASON` a line; # starts a comment."""
    entries = {}
    path = os.path.join(root, "scripts/examples-skipped.txt")
    if not os.path.exists(path):
        return entries
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = line.split(" | ")
        if len(parts) < 3 or not parts[-1].strip():
            sys.exit(f"scripts/examples-skipped.txt:{number}: not FILE | FIRST LINE | REASON")
        entries[f"{parts[0].strip()} | {' | '.join(parts[1:-1]).strip()}"] = parts[-1].strip()
    return entries


def brace_change(text):
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    text = text.split("//", 1)[0]
    return text.count("{") - text.count("}")


def split_block(lines):
    """(imports, hoisted chunks, body chunk): the block's top-level type declarations and
    extensions move to file scope; its statements and functions stay in the body."""
    imports, rest = [], []
    for number, text in lines:
        match = IMPORT.match(text)
        if match:
            imports.append(match.group(1))
        else:
            rest.append((number, text))
    # The top-level declarations, each with the attributes and comments just before it.
    declarations, i, needs_hoisting = [], 0, False
    while i < len(rest):
        j = i
        while j < len(rest) and re.match(r"^(@\w|//)", rest[j][1]):
            j += 1
        match = DECLARATION.match(rest[j][1]) if j < len(rest) else None
        if not match:
            i += 1
            continue
        if match.group(1) != "func":
            needs_hoisting = True
        depth, opened, k = 0, False, j
        while k < len(rest):
            change = brace_change(rest[k][1])
            opened = opened or "{" in rest[k][1]
            depth += change
            k += 1
            if depth <= 0 and (opened or match.group(1) == "typealias"):
                break
        declarations.append((i, k, match.group(1)))
        i = k
    # A block of declarations only (an article's helpers, which its other blocks use) goes
    # to file scope as it is, seen by the whole module.
    declared = set()
    for start, end, _ in declarations:
        declared.update(range(start, end))
    shared = bool(declarations) and all(
        index in declared or not text.strip() or text.lstrip().startswith("//")
        for index, (_, text) in enumerate(rest))
    if shared:
        # A public declaration quotes the library's own (a protocol to adopt): fileprivate, it
        # does not hide the library's from the other blocks.
        quoted = [(n, re.sub(r"^public ", "fileprivate ", t)) for n, t in rest]
        return imports, [quoted], []
    if not needs_hoisting:
        return imports, [], rest
    hoisted, body, taken = [], [], set()
    for start, end, kind in declarations:
        if kind == "func":
            continue
        chunk = rest[start:end]
        if kind != "extension":
            for index, (number, text) in enumerate(chunk):
                if DECLARATION.match(text):
                    chunk[index] = (number, "fileprivate " + text)
                    break
        hoisted.append(chunk)
        taken.update(range(start, end))
    body = [line for index, line in enumerate(rest) if index not in taken]
    return imports, hoisted, body


def location(root, path, number):
    return f'#sourceLocation(file: "{os.path.join(root, path)}", line: {number})'


def chunk_text(root, path, chunk, indent=""):
    out, previous = [], None
    for number, text in chunk:
        if previous is None or number != previous + 1:
            out.append(location(root, path, number))
        out.append(indent + text if text.strip() else "")
        previous = number
    out.append("#sourceLocation()")
    return out


def example_file(root, block):  # noqa: C901
    imports, hoisted, body = split_block(block.lines)
    modules = ["Foundation"] + IMPORTS[block.library]
    modules += [m for m in dict.fromkeys(imports) if m not in modules]
    out = [f"import {module}" for module in modules] + [""]
    for chunk in hoisted:
        out += chunk_text(root, block.path, chunk) + [""]
    parameters = []
    for library in IMPORTS[block.library] + [m for m in imports if m in IMPORT_PLACEHOLDERS]:
        for name, kind in PLACEHOLDERS.get(library, []) + IMPORT_PLACEHOLDERS.get(library, []):
            if f"{name}: {kind}" not in parameters:
                parameters.append(f"{name}: {kind}")
    name = os.path.splitext(sanitized(block.path, block.line))[0]
    # On the main actor, as a program's top-level code is.
    # Async only when the block awaits: a synchronous block (a command's body) would
    # otherwise pick the async overloads of what it calls (GRDB's `write`).
    effects = "async throws" if any("await" in text for _, text in body) else "throws"
    out.append(f"@MainActor fileprivate func example_{name}({', '.join(parameters)}) {effects} {{")
    if body:
        out += chunk_text(root, block.path, body, "")
    out += ["}", ""]
    return "\n".join(out)


def sanitized(path, line):
    stem = re.sub(r"[^A-Za-z0-9]+", "_", os.path.splitext(path)[0].split("/", 2)[-1])
    return f"{stem}_{line}.swift"


def import_flags(build_yaml, library):
    """What the main build gave the compiler of `library` to find the modules it imports:
    importing `library` needs the same, and the folder of its own module."""
    header = re.compile(r'^  "C\.' + library + r'-[^"]*-debug\.module":$')
    lines = open(build_yaml, encoding="utf-8").read().split("\n")
    for i, line in enumerate(lines):
        if header.match(line):
            for following in lines[i + 1:i + 12]:
                if following.strip().startswith("args: "):
                    arguments = json.loads(following.strip()[len("args: "):])
                    break
            break
    else:
        sys.exit(f"error: {build_yaml} has no command that compiles {library}")
    # Units: `-I DIR`, `-Xcc FLAG`, `-Xcc -I -Xcc DIR`.
    units, i = [], 0
    while i < len(arguments) - 1:
        if arguments[i:i + 3] == ["-Xcc", "-I", "-Xcc"]:
            units.append(tuple(arguments[i:i + 4]))
            i += 4
        elif arguments[i] in ("-I", "-Xcc"):
            units.append(tuple(arguments[i:i + 2]))
            i += 2
        else:
            i += 1
    return units


def generate(root, build_yaml, libraries):
    # An example may import any of the libraries (OpenEventKit's logging guide shows REPLKit's
    # log handler): each target gets what importing every one of them needs.
    units = []
    for library in LIBRARIES:
        units += [unit for unit in import_flags(build_yaml, library) if unit not in units]
    flags = [flag for unit in units for flag in unit]
    skips = read_skip_list(root)
    package = os.path.join(root, ".build/examples")
    index, counts, used_skips = {}, {}, set()
    for library in libraries:
        directory = os.path.join(package, "Sources", f"{library}Examples")
        os.makedirs(directory, exist_ok=True)
        wanted = set()
        checked = skipped = 0
        for block in library_blocks(root, library):
            reason = block.skip_reason or skips.get(block.key())
            if block.key() in skips:
                used_skips.add(block.key())
            if reason:
                skipped += 1
                continue
            checked += 1
            name = sanitized(block.path, block.line)
            wanted.add(name)
            text = example_file(root, block)
            target = os.path.join(directory, name)
            # Unchanged files keep their times: the build after is incremental.
            if not os.path.exists(target) or open(target, encoding="utf-8").read() != text:
                with open(target, "w", encoding="utf-8") as file:
                    file.write(text)
            index[os.path.join(directory, name)] = [block.path, block.line, block.lines[0][0] if block.lines else block.line, block.lines[-1][0] if block.lines else block.line]
        for name in os.listdir(directory):
            if name not in wanted:
                os.remove(os.path.join(directory, name))
        if not wanted:
            # A target needs a source.
            with open(os.path.join(directory, "Empty.swift"), "w") as file:
                file.write("")
        counts[library] = (checked, skipped)
    stale = [key for key in skips if key not in used_skips
             and key.split(" | ")[0].split("/")[1] in libraries]
    targets = []
    for library in libraries:
        unsafe = json.dumps(flags + ["-suppress-warnings", "-continue-building-after-errors"])
        targets.append(
            f'    .target(name: "{library}Examples", swiftSettings: [.unsafeFlags({unsafe})]),')
    manifest = "\n".join([
        "// swift-tools-version: 6.1",
        "// Generated by scripts/check-examples: every ```swift block of the libraries' articles",
        "// and doc comments, one function each, built against the modules of the main build.",
        "import PackageDescription",
        "",
        "let package = Package(",
        '  name: "Examples",',
        "  targets: [",
        *targets,
        "  ],",
        "  swiftLanguageModes: [.v6]",
        ")",
        "",
    ])
    manifest_path = os.path.join(package, "Package.swift")
    if not os.path.exists(manifest_path) or open(manifest_path).read() != manifest:
        with open(manifest_path, "w") as file:
            file.write(manifest)
    for library in LIBRARIES:
        if library not in libraries and os.path.isdir(os.path.join(package, "Sources", f"{library}Examples")):
            for name in os.listdir(os.path.join(package, "Sources", f"{library}Examples")):
                os.remove(os.path.join(package, "Sources", f"{library}Examples", name))
            os.rmdir(os.path.join(package, "Sources", f"{library}Examples"))
    json.dump(index, open(os.path.join(package, "index.json"), "w"))
    for library in libraries:
        checked, skipped = counts[library]
        print(f"{library}: {checked} examples" + (f", {skipped} skipped" if skipped else ""))
    for key in stale:
        print(f"error: scripts/examples-skipped.txt: no block is {key!r} any more", file=sys.stderr)
    return 1 if stale else 0


DIAGNOSTIC = re.compile(r"^(/[^:]+):(\d+):(\d+): error: (.*)$")


def report(root, log):
    package = os.path.join(root, ".build/examples")
    index = json.load(open(os.path.join(package, "index.json")))
    by_file = {}
    for generated, (path, fence, first, last) in index.items():
        by_file.setdefault(os.path.join(root, path), []).append((first, last, fence, path))
    failures, seen = {}, set()
    for line in open(log, encoding="utf-8", errors="replace"):
        match = DIAGNOSTIC.match(line.rstrip("\n"))
        if not match or line in seen:
            continue
        seen.add(line)
        file, number, column, message = match.group(1), int(match.group(2)), match.group(3), match.group(4)
        place = None
        for first, last, fence, path in by_file.get(file, []):
            if first <= number <= last:
                place = (path, fence)
        if place is None and file in index:
            path, fence, _, _ = index[file]
            place = (path, fence)
        if place is None:
            place = (os.path.relpath(file, root), number)
        failures.setdefault(place, []).append(
            f"{os.path.relpath(file, root)}:{number}:{column}: {message}")
    for (path, fence), messages in sorted(failures.items()):
        print(f"{path}:{fence}: the example does not compile")
        for message in messages:
            print(f"  {message}")
    if failures:
        print(f"error: {len(failures)} example(s) do not compile (above)")
    return 1 if failures else 0


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "generate":
        sys.exit(generate(sys.argv[2], sys.argv[3], sys.argv[4:]))
    if len(sys.argv) == 4 and sys.argv[1] == "report":
        sys.exit(report(sys.argv[2], sys.argv[3]))
    sys.exit(__doc__)


if __name__ == "__main__":
    main()
