#!/usr/bin/env python3
"""Learn Chinese -> English word pairs from Debian's translation catalogues, for the terms CC-CEDICT
glosses in other senses (访问 "visit", never "access"; 语言环境 "linguistic context", never "locale").

usage: python3 scripts/make-learned-lexicon.py [--mo-dir DIR] [--out assets/lexicon/learned-zh-en.txt.gz]
needs: the jieba Python package (pip install jieba); with no --mo-dir, dpkg and apt-get (Debian 12):
the packages in PACKAGES are downloaded (`apt-get download`) and their zh_CN catalogues read.

Every message of a catalogue (`msgid` English, `msgstr` Simplified Chinese) is one aligned segment.
Chinese words are jieba's, English words runs of 3+ letters, lower-cased; stop words of
`assets/stopwords/` are left out. A pair (Chinese word z, English word e) is kept when it occurs in at
least MIN_PAIRS segments and its Dice coefficient 2·c(z,e) / (c(z) + c(e)) is at least MIN_DICE, at most
PER_WORD per Chinese word, best first, and only English words CC-CEDICT does not already gloss z with.
The output has CC-CEDICT's line format (`headword<TAB>word word …`): for each Chinese word with a learned
pair, its CC-CEDICT glosses followed by the learned words, so that the line, read after CC-CEDICT's
(`build.rs`), replaces it.

None of the manuals of the project's evaluation sets (eval-dev's packages, debian-reference,
installation-guide) is among the catalogues.
"""
import argparse
import collections
import gettext
import glob
import gzip
import os
import re
import shutil
import subprocess
import tempfile

import jieba

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
# Debian 12 packages that ship zh_CN catalogues (programs and libraries, no manuals).
PACKAGES = """adduser appstream apt bash binutils-common coreutils cpio diffutils dpkg findutils gettext
gettext-base git gnupg-l10n grep gsettings-desktop-schemas libapt-pkg6.0 libc-l10n libglib2.0-data
libgnutls30 libgtk-3-common libgtk-4-common libgtk2.0-common libhandy-1-0 libsecret-common libpam-runtime libpopt0 libpq5 login make man-db packagekit
polkitd postgresql-15 procps psmisc python-apt-common sed shared-mime-info software-properties-common
systemd tar wget xz-utils""".split()
MIN_PAIRS = 3
MIN_DICE = 0.4
PER_WORD = 2
CJK = re.compile(r"[\u4e00-\u9fff]")
ACCEL = re.compile(r"_(?=\w)|&(?=\w)|\(_\w\)|%\S*")


def stop_words():
    words = set()
    for name in ("zh.txt", "en.txt"):
        with open(os.path.join(ROOT, "assets", "stopwords", name), encoding="utf-8") as f:
            words |= {line.strip() for line in f if line.strip() and not line.startswith("#")}
    return words


def catalogues(mo_dir):
    """The catalogues' paths, and the folder to remove afterwards (None for --mo-dir)."""
    if mo_dir:
        return None, sorted(glob.glob(os.path.join(mo_dir, "**", "*.mo"), recursive=True))
    work = tempfile.mkdtemp(prefix="tongwen-mo-")
    subprocess.run(["apt-get", "download", *PACKAGES], cwd=work, check=True)
    for deb in glob.glob(os.path.join(work, "*.deb")):
        subprocess.run(["dpkg-deb", "-x", deb, os.path.join(work, "tree")], check=True)
    return work, sorted(glob.glob(os.path.join(work, "tree", "usr/share/locale/zh_CN/LC_MESSAGES/*.mo")))


def segments(paths):
    seen = set()
    for path in paths:
        try:
            with open(path, "rb") as f:
                catalog = gettext.GNUTranslations(f)._catalog
        except Exception as e:  # a damaged catalogue is skipped, not fatal
            print(f"{path}: {e}")
            continue
        for key, value in catalog.items():
            en = key[0] if isinstance(key, tuple) else key
            if not en or not isinstance(value, str) or not CJK.search(value):
                continue
            if (en, value) not in seen:
                seen.add((en, value))
                yield ACCEL.sub(" ", en), ACCEL.sub(" ", value)


def load_cedict():
    lex = {}
    with gzip.open(os.path.join(ROOT, "assets", "lexicon", "cedict-zh-en.txt.gz"), "rt", encoding="utf-8") as f:
        for line in f:
            if not line.startswith("#"):
                head, _, words = line.rstrip("\n").partition("\t")
                lex[head] = words.split()
    return lex


def norm(word):
    return word.lower().rstrip("s")


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--mo-dir")
    a.add_argument("--min-pairs", type=int, default=MIN_PAIRS)
    a.add_argument("--min-dice", type=float, default=MIN_DICE)
    a.add_argument("--out", default=os.path.join(ROOT, "assets", "lexicon", "learned-zh-en.txt.gz"))
    a = a.parse_args()
    stop = stop_words()
    cz, ce, cze = collections.Counter(), collections.Counter(), collections.Counter()
    n = 0
    work, paths = catalogues(a.mo_dir)
    for en, zh in segments(paths):
        e = {w for w in re.findall(r"[a-z]{3,}", en.lower()) if w not in stop}
        z = {w for w in jieba.cut(zh) if CJK.search(w) and w not in stop}
        if not e or not z:
            continue
        n += 1
        cz.update(z)
        ce.update(e)
        cze.update((x, y) for x in z for y in e)
    if work:
        shutil.rmtree(work)
    cedict = load_cedict()
    learned = collections.defaultdict(list)
    for (z, e), c in cze.items():
        if c < a.min_pairs:
            continue
        dice = 2 * c / (cz[z] + ce[e])
        if dice >= a.min_dice and norm(e) not in {norm(g) for g in cedict.get(z, [])}:
            learned[z].append((dice, e))
    lines = []
    for z in sorted(learned):
        best = [e for _, e in sorted(learned[z], key=lambda p: (-p[0], p[1]))[:PER_WORD]]
        lines.append(f"{z}\t{' '.join(cedict.get(z, []) + best)}")
    with gzip.GzipFile(a.out, "wb", mtime=0) as raw:
        raw.write(
            (
                "# Tongwen's learned Chinese -> English word pairs, made by scripts/make-learned-lexicon.py\n"
                f"# from {n} messages of Debian 12's zh_CN translation catalogues (see the script); each\n"
                "# line is CC-CEDICT's glosses of the word (if any) and then the learned words.\n"
                + "\n".join(lines)
                + "\n"
            ).encode("utf-8")
        )
    print(f"{n} messages, {len(lines)} words with learned pairs -> {a.out}")


if __name__ == "__main__":
    main()
