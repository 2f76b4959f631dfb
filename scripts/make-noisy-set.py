#!/usr/bin/env python3
"""Make a near-duplicate set whose copies carry character noise (`tests/fixtures/noisy/<name>/`).

usage: python3 scripts/make-noisy-set.py [EVAL_DEV] OUT [--groups 10] [--singles 10] [--rate 0.04]
                                         [--seed 23] [--exclude OTHER/truth.json]

What OCR output and careless retyping leave in a copy: about `rate` of a document's letters, digits and
Chinese characters replaced, one at a time, wherever they fall (inside words, in numbers, in Chinese text). Latin letters
and digits become a character an OCR engine confuses them with (rn -> m, l -> 1, O -> 0, e -> c) or a
random letter; a Chinese character becomes another character of the same document. Nothing is inserted
or deleted, no paragraph moves: the copy is the original, damaged.

Each language (Chinese, English) gets `groups` pairs (an eval-dev library document, UTF-8 .txt with 6+
paragraphs, and its damaged copy) and `singles` other documents of the same packages, not copied. A
candidate sharing 15 % or more of its character 8-grams with a document already chosen is skipped, so
no unlabelled pair is a real near copy. `--exclude` leaves out every document another set was made
from, so a held-out set shares no document with the set the rules were calibrated on.

Writes OUT/docs/*.txt (paragraphs separated by a blank line) and OUT/truth.json in the format of
`tests/fixtures/duplicates/` ({"kind": "duplicates", "documents": {...}}), which `tongwen eval` reads.
"""
import argparse
import json
import os
import random
import re
import sys

CJK = re.compile(r"[\u4e00-\u9fff]")
# Characters OCR engines confuse (each way round is a separate entry).
CONFUSED = {
    "m": ["rn", "nn"], "n": ["ri", "h"], "l": ["1", "I", "|"], "i": ["l", "1", "j"],
    "o": ["0", "c", "a"], "O": ["0", "Q", "D"], "e": ["c", "o"], "c": ["e", "o"], "a": ["o", "e"],
    "u": ["v", "n"], "v": ["u", "y"], "h": ["b", "n"], "b": ["h", "6"], "t": ["f", "l"],
    "f": ["t"], "r": ["n", "t"], "s": ["5", "e"], "S": ["5", "8"], "g": ["q", "9"], "q": ["g"],
    "B": ["8", "R"], "I": ["l", "1"], "0": ["O", "o"], "1": ["l", "7"], "5": ["S", "6"],
    "8": ["B", "3"], "d": ["cl", "a"], "w": ["vv"], "k": ["lc"], "y": ["v"],
}


def paragraphs(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]


def grams(paras, n=8):
    s = re.sub(r"\s+", "", "".join(paras))
    return {s[i:i + n] for i in range(max(0, len(s) - n + 1))}


def damage(paras, rate, rng):
    """Replace about `rate` of the non-space characters of `paras`, one character at a time; returns the
    copy and how many characters were replaced."""
    hanzi = sorted({c for p in paras for c in p if CJK.match(c)})
    out, replaced = [], 0
    for p in paras:
        chars = []
        for ch in p:
            if ch.isspace() or not (CJK.match(ch) or ch.isalnum()) or rng.random() >= rate:
                chars.append(ch)
                continue
            replaced += 1
            if CJK.match(ch) and len(hanzi) > 1:
                chars.append(rng.choice([h for h in rng.sample(hanzi, min(4, len(hanzi))) if h != ch]
                                        or [ch]))
            elif ch in CONFUSED and rng.random() < 0.7:
                chars.append(rng.choice(CONFUSED[ch]))
            else:
                chars.append(rng.choice([c for c in "abcdefghijklmnopqrstuvwxyz" if c != ch]))
        out.append("".join(chars))
    return out, replaced


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("eval_dev", nargs="?", default=os.path.join(here, "..", "..", "shared", "eval-dev"))
    ap.add_argument("out")
    ap.add_argument("--groups", type=int, default=10)
    ap.add_argument("--singles", type=int, default=10)
    ap.add_argument("--rate", type=float, default=0.04)
    ap.add_argument("--seed", type=int, default=23)
    ap.add_argument("--exclude", action="append", default=[])
    a = ap.parse_args()
    excluded = set()
    for other in a.exclude:
        excluded |= {d["source"] for d in json.load(open(other, encoding="utf-8"))["documents"].values()}
    rng = random.Random(a.seed)
    truth = json.load(open(os.path.join(a.eval_dev, "truth.json"), encoding="utf-8"))
    by_lang = {}
    for f, m in sorted(truth["library"].items()):
        if (m["format"] == "txt" and m.get("encoding") == "utf-8" and m["n_paragraphs"] >= 6
                and f not in excluded):
            by_lang.setdefault("zh" if m["lang"].startswith("zh") else "en", []).append(f)
    seen, picked = [], {}
    for lang in ("zh", "en"):
        pool = by_lang.get(lang, [])
        rng.shuffle(pool)
        chosen = []
        for f in pool:
            paras = paragraphs(os.path.join(a.eval_dev, f))
            g = grams(paras)
            if any(len(g & s) >= 0.15 * min(len(g), len(s)) for s in seen):
                continue
            chosen.append((f, paras))
            seen.append(g)
            if len(chosen) == a.groups + a.singles:
                break
        if len(chosen) < a.groups + a.singles:
            sys.exit(f"only {len(chosen)} distinct {lang} documents")
        picked[lang] = chosen
    docs = os.path.join(a.out, "docs")
    os.makedirs(docs, exist_ok=True)
    for old in os.listdir(docs):
        os.remove(os.path.join(docs, old))
    out = {}

    def write(name, paras, group, op, source):
        with open(os.path.join(docs, name), "w", encoding="utf-8") as f:
            f.write("\n\n".join(paras) + "\n")
        out[f"docs/{name}"] = {"group": group, "operation": op, "source": source}

    changed = total = 0
    for lang, chosen in picked.items():
        for gi, (f, paras) in enumerate(chosen[: a.groups], 1):
            group = f"{lang}{gi:02d}"
            copy, replaced = damage(paras, a.rate, rng)
            changed += replaced
            total += sum(1 for p in paras for c in p if CJK.match(c) or c.isalnum())
            write(f"{group}-original.txt", paras, group, "original", f)
            write(f"{group}-copy-noise.txt", copy, group, "char-noise", f)
        for si, (f, paras) in enumerate(chosen[a.groups:], 1):
            write(f"{lang}-s{si:02d}.txt", paras, None, "single", f)
    with open(os.path.join(a.out, "truth.json"), "w", encoding="utf-8") as t:
        json.dump({"kind": "duplicates", "generator": "scripts/make-noisy-set.py", "seed": a.seed,
                   "rate": a.rate, "documents": out}, t, ensure_ascii=False, indent=1, sort_keys=True)
        t.write("\n")
    print(f"{len(out)} documents, {a.groups} groups per language, "
          f"{changed / max(total, 1):.3f} of the copies' characters changed")


if __name__ == "__main__":
    main()
