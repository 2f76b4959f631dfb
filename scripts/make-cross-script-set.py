#!/usr/bin/env python3
"""Build the cross-script test set (tests/fixtures/cross-script/) from eval-dev with OpenCC.

eval-dev has no Traditional Chinese. This takes its Chinese query paragraphs (copied ones, with their
library source, and clean ones) and converts them with OpenCC's s2t, s2tw, s2twp and s2hk, as a student
in Taiwan or Hong Kong would convert a copied text; and, for the reverse direction, converts the
library .txt documents those copies come from with s2twp (a Traditional library) while the submission
stays Simplified. The test (tests/cross_script.rs) checks each set against eval-dev's library.

    pip install opencc==1.4.2          # OpenCC's own Python binding (its C++ converter and data)
    python3 scripts/make-cross-script-set.py [EVAL_DEV]     # default: ../shared/eval-dev

Deterministic (fixed seed): rebuilding gives the same files.
"""
import json
import os
import random
import sys

import opencc

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EVAL = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "eval-dev")
OUT = os.path.join(ROOT, "tests", "fixtures", "cross-script")
PER_SET = 80

truth = json.load(open(os.path.join(EVAL, "truth.json"), encoding="utf-8"))
copied, clean = [], []
for name, query in sorted(truth["queries"].items()):
    if query["lang"] != "zh":
        continue
    for p in query["paragraphs"]:
        if not p.get("scored", True) or "text" not in p:
            continue
        if p["copied"]:
            s = p["sources"][0]
            copied.append({"text": p["text"], "obfuscation": p.get("obfuscation"),
                           "source": s["library_file"], "source_paragraph": s["paragraph_index"]})
        else:
            clean.append({"text": p["text"]})
rng = random.Random(15)
forward_copied = rng.sample(copied, PER_SET)
forward_clean = rng.sample(clean, PER_SET)

os.makedirs(OUT, exist_ok=True)
for conversion in ["s2t", "s2tw", "s2twp", "s2hk"]:
    cc = opencc.OpenCC(conversion)
    items = [dict(p, text=cc.convert(p["text"]), copied=True) for p in forward_copied]
    items += [dict(text=cc.convert(p["text"]), copied=False) for p in forward_clean]
    with open(os.path.join(OUT, f"{conversion}.json"), "w", encoding="utf-8") as f:
        json.dump({"conversion": conversion, "paragraphs": items}, f, ensure_ascii=False, indent=0)

# Reverse: the library's .txt sources in Traditional (s2twp), the submission in Simplified.
txt_copied = [p for p in copied if p["source"].endswith(".txt")]
sources = sorted({p["source"] for p in txt_copied})
rng.shuffle(sources)
sources = sorted(sources[:25])
reverse_copied = [p for p in txt_copied if p["source"] in sources][:PER_SET]
cc = opencc.OpenCC("s2twp")
library = {}
for src in sources:
    with open(os.path.join(EVAL, src), encoding="utf-8") as f:
        library[src] = cc.convert(f.read())
items = [dict(p, copied=True) for p in reverse_copied] + [dict(p, copied=False) for p in forward_clean]
with open(os.path.join(OUT, "reverse-s2twp.json"), "w", encoding="utf-8") as f:
    json.dump({"conversion": "s2twp library, Simplified submission", "library": library,
               "paragraphs": items}, f, ensure_ascii=False, indent=0)
print(f"{len(forward_copied)} copied + {len(forward_clean)} clean per set; reverse: "
      f"{len(reverse_copied)} copied from {len(sources)} Traditional library documents")
