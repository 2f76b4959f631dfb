#!/usr/bin/env python3
"""Make the copying-by-translation set (`tests/fixtures/translation/`) from eval-dev's bilingual manuals.

usage: python3 scripts/make-translation-set.py [EVAL_DEV] [OUT] [--seed 20]
needs: the jieba Python package (pip install jieba), assets/lexicon/cedict-zh-en.txt.gz

eval-dev's library holds sections of the same Debian manuals in English and in their official Chinese
translations (debian-faq / debian-faq-zh-cn, maint-guide / maint-guide-zh-cn, kicad-doc-en /
kicad-doc-zh). Sections are paired by their number in the title ("7.4.", "Chapter 3" / "第 3 章",
"Appendix A" / "附录 A"); inside a pair, paragraphs are aligned in order by dynamic programming over
three signals: position, length (Chinese characters against English letters) and shared Latin tokens and
numbers (commands, package names, paths), with the lexicon's share of translated words as a fourth.
A pair is kept only when it is confident: aligned one to one, the best lexicon match of its Chinese
paragraph, lengths in proportion, and a margin over the runner-up.

The set (one direction per section pair, alternating):
- zh->en: the library holds the English section; a submission holds the Chinese paragraphs (copied,
  obfuscation `translation`, source = the English paragraph), and the reverse for en->zh;
- same-topic negatives: paragraphs of the same manual, in the submission's language, whose section has
  no counterpart in the library (`copied: false`, obfuscation `same-topic`);
- same-language controls: a paragraph copied unchanged from an unrelated library document in the
  submission's language (obfuscation `exact`).
Writes OUT/library/*.txt, OUT/queries/*.txt and OUT/truth.json in eval-dev's truth format (`library`,
`queries` with `paragraphs: [{text, copied, obfuscation, direction, sources, scored}]`), so
`tongwen eval OUT/truth.json` measures it. Also prints the kept pairs' count per section.
"""
import argparse
import gzip
import json
import os
import random
import re
import shutil

import jieba

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGES = {"debian-faq": "debian-faq-zh-cn", "maint-guide": "maint-guide-zh-cn", "kicad-doc-en": "kicad-doc-zh"}
CJK = re.compile(r"[\u4e00-\u9fff]")
LATIN = re.compile(r"[A-Za-z][A-Za-z0-9_./+-]*[A-Za-z0-9]|\d+(?:\.\d+)*")


def section(title):
    m = re.match(r"\s*(?:Appendix|附录)\s*([A-Z])", title)
    if m:
        return "A" + m.group(1)
    m = re.match(r"\s*(?:Chapter|第)?\s*([0-9]+(?:\.[0-9]+)*|[A-Z])", title)
    return m.group(1) if m else None


def paragraphs(path, encoding):
    with open(path, encoding=encoding or "utf-8") as f:
        return [p.strip() for p in re.split(r"\n\s*\n", f.read()) if p.strip()]


def load_lexicon():
    path = os.path.join(HERE, "..", "assets", "lexicon", "cedict-zh-en.txt.gz")
    lex = {}
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                continue
            head, _, words = line.rstrip("\n").partition("\t")
            lex[head] = set(words.split())
    return lex


def en_words(text):
    return {w.lower().rstrip("s") for w in re.findall(r"[A-Za-z]{3,}", text)}


def lexicon_share(zh, en, lex):
    """Share of the Chinese paragraph's dictionary words with a gloss word in the English one."""
    target = en_words(en)
    total = covered = 0
    for w in jieba.cut(zh):
        if not CJK.search(w) or w not in lex:
            continue
        total += len(w)
        if {g.rstrip("s") for g in lex[w]} & target:
            covered += len(w)
    return covered / total if total else 0.0


def latin(text):
    return {t.lower() for t in LATIN.findall(text)}


def score(zh, en, i, j, nz, ne, lex):
    pos = 1 - abs(i / max(nz, 1) - j / max(ne, 1))
    zc = len(CJK.findall(zh)) or 1
    ratio = len(re.findall(r"[A-Za-z]", en)) / zc
    length = 1.0 if 1.2 <= ratio <= 5.0 else 0.0
    lz, le = latin(zh), latin(en)
    shared = len(lz & le) / len(lz | le) if lz | le else 0.0
    return pos + length + shared + 2 * lexicon_share(zh, en, lex)


def align(pz, pe, lex):
    """Monotonic one-to-one alignment (skips allowed) maximising the summed scores above 2.5."""
    nz, ne = len(pz), len(pe)
    s = [[score(pz[i], pe[j], i, j, nz, ne, lex) for j in range(ne)] for i in range(nz)]
    best = [[0.0] * (ne + 1) for _ in range(nz + 1)]
    back = [[None] * (ne + 1) for _ in range(nz + 1)]
    for i in range(1, nz + 1):
        for j in range(1, ne + 1):
            options = [(best[i - 1][j], "z"), (best[i][j - 1], "e")]
            gain = s[i - 1][j - 1] - 2.5
            if gain > 0:
                options.append((best[i - 1][j - 1] + gain, "m"))
            best[i][j], back[i][j] = max(options)
    pairs, i, j = [], nz, ne
    while i > 0 and j > 0:
        step = back[i][j]
        if step == "m":
            pairs.append((i - 1, j - 1))
            i, j = i - 1, j - 1
        elif step == "z":
            i -= 1
        else:
            j -= 1
    pairs.reverse()
    confident = []
    for i, j in pairs:
        shares = sorted((lexicon_share(pz[i], e, lex), k) for k, e in enumerate(pe))
        top, runner = shares[-1], (shares[-2][0] if len(shares) > 1 else 0.0)
        zc = len(CJK.findall(pz[i])) or 1
        ratio = len(re.findall(r"[A-Za-z]", pe[j])) / zc
        if top[1] == j and top[0] - runner >= 0.1 and 1.2 <= ratio <= 5.0:
            confident.append((i, j))
    return confident


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("eval_dev", nargs="?", default=os.path.join(HERE, "..", "..", "shared", "eval-dev"))
    ap.add_argument("out", nargs="?", default=os.path.join(HERE, "..", "tests", "fixtures", "translation"))
    ap.add_argument("--seed", type=int, default=20)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    jieba.setLogLevel(60)
    lex = load_lexicon()
    truth = json.load(open(os.path.join(a.eval_dev, "truth.json"), encoding="utf-8"))
    lib = truth["library"]
    by_package = {}
    for f, m in sorted(lib.items()):
        if m["format"] == "txt":
            by_package.setdefault(m["package"], []).append(f)
    read = lambda f: paragraphs(os.path.join(a.eval_dev, f), lib[f].get("encoding"))

    section_pairs = []
    for en_pkg, zh_pkg in PACKAGES.items():
        en_by = {section(lib[f]["title"]): f for f in by_package.get(en_pkg, [])}
        for f in by_package.get(zh_pkg, []):
            k = section(lib[f]["title"])
            if k and k in en_by:
                section_pairs.append((en_pkg, zh_pkg, en_by[k], f, k))
    paired = {p[2] for p in section_pairs} | {p[3] for p in section_pairs}

    for sub in ("library", "queries"):
        shutil.rmtree(os.path.join(a.out, sub), ignore_errors=True)
        os.makedirs(os.path.join(a.out, sub))
    out_lib, out_queries = {}, {}

    def put_library(f, paras):
        name = os.path.basename(f)
        with open(os.path.join(a.out, "library", name), "w", encoding="utf-8") as w:
            w.write("\n\n".join(paras) + "\n")
        out_lib[f"library/{name}"] = {"lang": lib[f]["lang"], "package": lib[f]["package"], "from": f}
        return f"library/{name}"

    # Unrelated library documents for the same-language controls.
    controls = {}
    for lang, pkg in (("zh", "manpages-zh"), ("en", "developers-reference")):
        files = by_package.get(pkg, [])[:4]
        controls[lang] = [(put_library(f, read(f)), read(f)) for f in files]

    report = []
    for n, (en_pkg, zh_pkg, fe, fz, k) in enumerate(section_pairs):
        pe, pz = read(fe), read(fz)
        pairs = align(pz, pe, lex)
        if not pairs:
            continue
        direction = "zh->en" if n % 2 == 0 else "en->zh"
        if direction == "zh->en":
            source_file, source_paras = put_library(fe, pe), pe
            translated = [(pz[i], j) for i, j in pairs]
            lang, pkg = "zh", zh_pkg
        else:
            source_file, source_paras = put_library(fz, pz), pz
            translated = [(pe[j], i) for i, j in pairs]
            lang, pkg = "en", en_pkg
        paragraphs_out = [
            {"text": t, "copied": True, "obfuscation": "translation", "direction": direction,
             "sources": [{"library_file": source_file, "paragraph": s}], "scored": True}
            for t, s in translated
        ]
        # Same-topic negatives: the same manual, a section that has no counterpart in the library.
        unpaired = [f for f in by_package.get(pkg, []) if f not in paired]
        for f in rng.sample(unpaired, min(2, len(unpaired))):
            for t in rng.sample(read(f), min(2, len(read(f)))):
                paragraphs_out.append({"text": t, "copied": False, "obfuscation": "same-topic",
                                       "direction": None, "sources": [], "scored": True})
        cf, cp = rng.choice(controls[lang])
        ci = rng.randrange(len(cp))
        paragraphs_out.append({"text": cp[ci], "copied": True, "obfuscation": "exact", "direction": None,
                               "sources": [{"library_file": cf, "paragraph": ci}], "scored": True})
        rng.shuffle(paragraphs_out)
        name = f"queries/t{n + 1:02d}-{lang}.txt"
        with open(os.path.join(a.out, name), "w", encoding="utf-8") as w:
            w.write("\n\n".join(p["text"] for p in paragraphs_out) + "\n")
        out_queries[name] = {"lang": lang, "section": k, "paragraphs": paragraphs_out}
        report.append(f"{k:>7} {direction}: {len(pairs)} of {len(pz)} zh / {len(pe)} en paragraphs kept")

    with open(os.path.join(a.out, "truth.json"), "w", encoding="utf-8") as t:
        json.dump({"benchmark": "translation", "generator": "scripts/make-translation-set.py",
                   "seed": a.seed, "library": out_lib, "queries": out_queries},
                  t, ensure_ascii=False, indent=1, sort_keys=True)
        t.write("\n")
    print("\n".join(report))
    count = lambda o: sum(1 for q in out_queries.values() for p in q["paragraphs"] if p["obfuscation"] == o)
    print(f"{len(out_lib)} library documents, {len(out_queries)} submissions: "
          f"{count('translation')} translated, {count('same-topic')} same-topic, {count('exact')} exact")


if __name__ == "__main__":
    main()
