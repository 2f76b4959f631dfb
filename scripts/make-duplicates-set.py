#!/usr/bin/env python3
"""Make the document-level near-duplicate set (`tests/fixtures/duplicates/`) from eval-dev's library.

usage: python3 scripts/make-duplicates-set.py [EVAL_DEV] [OUT] [--groups 30] [--singles 30] [--seed 19]

The seeds' job (000, 001, 003, 004): find the near copies of documents inside a collection. Each group is
one eval-dev library document (UTF-8 .txt, 6+ paragraphs) and 1-3 copies of it, each made by one edit the
seed papers' copies undergo (reposted news, edited opinion posts):

  noise     whitespace and punctuation changed, full-width <-> half-width letters and digits
  light     5-10 % of characters (Chinese) or words (English) inserted, deleted or substituted
  reorder   the paragraphs shuffled
  drop      20-30 % of the paragraphs removed
  add       1-3 paragraphs of an unrelated document added
  mixed     drop, then light, then reorder

Singletons are other library documents of the same packages (same field, same boilerplate), not copied.
A candidate that shares 15 % or more of its character 8-grams with a document already chosen is skipped,
so that no unlabelled pair in the set is a real near copy (the truth would be wrong, not the checker).

Writes OUT/docs/*.txt (paragraphs separated by a blank line) and OUT/truth.json:
  {"kind": "duplicates", "documents": {"docs/NAME.txt": {"group": "g01" | null, "operation": ...,
   "source": library file}}}
"""
import argparse
import json
import os
import random
import re
import sys

OPERATIONS = ["noise", "light", "reorder", "drop", "add", "mixed"]
CJK = re.compile(r"[\u4e00-\u9fff]")
FULL = {chr(c): chr(c + 0xFEE0) for c in range(0x21, 0x7F)}
PUNCT_ZH = {"，": ",", "。": ".", "：": ":", "；": ";", "（": "(", "）": ")"}
FILLERS_ZH = "的了是在和也就都而及与着或一个这"
WORDS_EN = ["the", "a", "also", "then", "very", "such", "some", "new", "other", "many"]


def paragraphs(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]


def grams(paras, n=8):
    s = re.sub(r"\s+", "", "".join(paras))
    return {s[i:i + n] for i in range(max(0, len(s) - n + 1))}


def noise(p, rng):
    out = []
    for ch in p:
        r = rng.random()
        if ch in PUNCT_ZH and r < 0.5:
            out.append(PUNCT_ZH[ch])
        elif ch in FULL and r < 0.15:
            out.append(FULL[ch])
        elif ch == " " and r < 0.2:
            out.append("  ")
        else:
            out.append(ch)
        if ch in "，。," and rng.random() < 0.1:
            out.append(" ")
    return "".join(out)


def light(p, rng, lo=0.05, hi=0.10):
    rate = rng.uniform(lo, hi)
    if CJK.search(p):
        chars = list(p)
        for _ in range(max(1, int(len(chars) * rate))):
            i = rng.randrange(len(chars))
            op = rng.choice("ids")
            if op == "i":
                chars.insert(i, rng.choice(FILLERS_ZH))
            elif op == "d" and len(chars) > 10:
                del chars[i]
            elif CJK.match(chars[i]):
                chars[i] = rng.choice(FILLERS_ZH)
        return "".join(chars)
    words = p.split(" ")
    for _ in range(max(1, int(len(words) * rate))):
        i = rng.randrange(len(words))
        op = rng.choice("ids")
        if op == "i":
            words.insert(i, rng.choice(WORDS_EN))
        elif op == "d" and len(words) > 5:
            del words[i]
        else:
            words[i] = rng.choice(WORDS_EN)
    return " ".join(words)


def drop(paras, rng):
    keep = max(1, round(len(paras) * (1 - rng.uniform(0.2, 0.3))))
    chosen = sorted(rng.sample(range(len(paras)), keep))
    return [paras[i] for i in chosen]


def edit(paras, op, rng, filler):
    if op == "noise":
        return [noise(p, rng) for p in paras]
    if op == "light":
        return [light(p, rng) for p in paras]
    if op == "reorder":
        out = paras[:]
        while out == paras:
            rng.shuffle(out)
        return out
    if op == "drop":
        return drop(paras, rng)
    if op == "add":
        out = paras[:]
        for p in rng.sample(filler, min(len(filler), rng.randint(1, 3))):
            out.insert(rng.randrange(len(out) + 1), p)
        return out
    if op == "mixed":
        out = [light(p, rng) for p in drop(paras, rng)]
        rng.shuffle(out)
        return out
    raise ValueError(op)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("eval_dev", nargs="?", default=os.path.join(here, "..", "..", "shared", "eval-dev"))
    ap.add_argument("out", nargs="?", default=os.path.join(here, "..", "tests", "fixtures", "duplicates"))
    ap.add_argument("--groups", type=int, default=30)
    ap.add_argument("--singles", type=int, default=30)
    ap.add_argument("--seed", type=int, default=19)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    truth = json.load(open(os.path.join(a.eval_dev, "truth.json"), encoding="utf-8"))
    pool = sorted(
        f for f, m in truth["library"].items()
        if m["format"] == "txt" and m.get("encoding") == "utf-8" and m["n_paragraphs"] >= 6
    )
    rng.shuffle(pool)
    # Filler paragraphs for `add`: documents of the benchmark's queries folder are not library
    # documents; take paragraphs of library documents left unused instead (chosen at the end).
    chosen, seen = [], []
    for f in pool:
        paras = paragraphs(os.path.join(a.eval_dev, f))
        g = grams(paras)
        if any(len(g & s) >= 0.15 * min(len(g), len(s)) for s in seen):
            continue
        chosen.append((f, paras))
        seen.append(g)
        if len(chosen) == a.groups + a.singles + 10:
            break
    if len(chosen) < a.groups + a.singles + 10:
        sys.exit(f"only {len(chosen)} distinct documents")
    groups, singles, spare = (
        chosen[: a.groups],
        chosen[a.groups: a.groups + a.singles],
        chosen[a.groups + a.singles:],
    )
    filler_by_lang = {}
    for f, paras in spare:
        filler_by_lang.setdefault(truth["library"][f]["lang"], []).extend(paras)
    docs = os.path.join(a.out, "docs")
    os.makedirs(docs, exist_ok=True)
    for old in os.listdir(docs):
        os.remove(os.path.join(docs, old))
    out = {}

    def write(name, paras, group, op, source):
        with open(os.path.join(docs, name), "w", encoding="utf-8") as f:
            f.write("\n\n".join(paras) + "\n")
        out[f"docs/{name}"] = {"group": group, "operation": op, "source": source}

    for gi, (f, paras) in enumerate(groups, 1):
        group = f"g{gi:02d}"
        write(f"{group}-original.txt", paras, group, "original", f)
        filler = filler_by_lang.get(truth["library"][f]["lang"], [])
        for ci, op in enumerate(rng.sample(OPERATIONS, rng.randint(1, 3)), 1):
            write(f"{group}-copy{ci}-{op}.txt", edit(paras, op, rng, filler), group, op, f)
    for si, (f, paras) in enumerate(singles, 1):
        write(f"s{si:02d}.txt", paras, None, "single", f)
    with open(os.path.join(a.out, "truth.json"), "w", encoding="utf-8") as t:
        json.dump({"kind": "duplicates", "generator": "scripts/make-duplicates-set.py",
                   "seed": a.seed, "documents": out}, t, ensure_ascii=False, indent=1, sort_keys=True)
        t.write("\n")
    ops = {}
    for d in out.values():
        ops[d["operation"]] = ops.get(d["operation"], 0) + 1
    print(f"{len(out)} documents, {len(groups)} groups: {ops}")


if __name__ == "__main__":
    main()
