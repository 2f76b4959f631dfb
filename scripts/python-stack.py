#!/usr/bin/env python3
"""The seed papers' Python stack, as a baseline for Tongwen's ingest: read .txt files, split them into
paragraphs, segment each with jieba, weight its words by TF-IDF (jieba's own IDF table, as
jieba.analyse does), fold them into a 64-bit SimHash (md5 of each word, as the common Python SimHash
packages do) and store paragraph, text and SimHash in SQLite, one transaction.

usage: python3 scripts/python-stack.py DB FILE_OR_FOLDER...   (needs `pip install jieba`; benchmarks only)

Used by scripts/process-bench to time whole-process ingest against `tongwen library add` on the same
files in the same run. Word and PDF files are skipped: the Python stack's converters (python-docx,
pdfminer) would only make it slower.
"""
import hashlib
import os
import sqlite3
import sys
from collections import Counter

import jieba
import jieba.analyse

jieba.setLogLevel(60)


def files(paths):
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                for n in sorted(names):
                    if n.lower().endswith(".txt"):
                        yield os.path.join(root, n)
        elif p.lower().endswith(".txt"):
            yield p


def simhash(weights):
    v = [0.0] * 64
    for word, w in weights.items():
        h = int.from_bytes(hashlib.md5(word.encode("utf-8")).digest()[:8], "little")
        for i in range(64):
            v[i] += w if h >> i & 1 else -w
    return sum(1 << i for i in range(64) if v[i] > 0) - (1 << 63)


def main():
    db, paths = sys.argv[1], sys.argv[2:]
    tfidf = jieba.analyse.default_tfidf
    idf, median = tfidf.idf_freq, tfidf.median_idf
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE IF NOT EXISTS paragraphs (doc TEXT, idx INTEGER, text TEXT, simhash INTEGER)")
    rows = []
    for path in files(paths):
        with open(path, encoding="utf-8", errors="replace") as f:
            paragraphs = [p.strip() for p in f.read().split("\n") if p.strip()]
        for i, p in enumerate(paragraphs):
            words = [w for w in jieba.lcut(p) if w.strip() and w not in tfidf.stop_words]
            tf = Counter(words)
            weights = {w: n * idf.get(w, median) for w, n in tf.items()}
            rows.append((path, i, p, simhash(weights)))
    with con:
        con.executemany("INSERT INTO paragraphs VALUES (?, ?, ?, ?)", rows)
    print(f"{len(rows)} paragraphs")


if __name__ == "__main__":
    main()
