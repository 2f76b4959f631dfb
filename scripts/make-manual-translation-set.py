#!/usr/bin/env python3
"""Make a copying-by-translation set with hard negatives from a Debian manual that ships in English and
in its official Simplified Chinese translation, neither of them in eval-dev.

usage: python3 scripts/make-manual-translation-set.py MANUAL OUT [--debs DIR] [--seed 28]
  MANUAL: debian-reference (packages debian-reference-en, debian-reference-zh-cn 2.100),
          debian-handbook (11.20220922: html/en-US/ and html/zh-CN/),
          installation-guide (installation-guide-amd64 20230508+deb12u1: en/ and zh_CN/) or
          libreoffice-general or libreoffice-apps (libreoffice-help-en-us and -zh-cn
          4:7.4.7-1+deb12u14: LibreOffice 7.4's help pages, those shared by every application and
          Basic's, or the applications' own; a folder's pages one chapter, the editions' paragraphs
          paired by their ids, and a translation left out when the library holds its text in its own
          language: help pages repeat paragraphs)
  --debs: where the packages' .deb files are (or go: `apt-get download` fetches them when missing)
needs: dpkg-deb, the jieba Python package (pip install jieba), assets/lexicon/cedict-zh-en.txt.gz

Both editions are DocBook (or Publican) HTML made from one source translated through PO files, so a
chapter's `<p>` (`<div class="para">`) elements are each other's translations in order; a chapter whose two editions hold different
numbers of them is left out. Prose pairs only: the Chinese at least 30 ideographs (and a third of its
letters ideographs: untranslated paragraphs stay English), the English at least 15 words.

A chapter's pairs are cut into documents of 12 consecutive pairs, and each document (seeded) goes to
one of three groups: its English edition in the library, its Chinese edition in the library, or
neither. The set:
- translations (`copied: true`, obfuscation `translation`): 5 paragraphs of each library document in
  the other language (`zh->en`: a Chinese paragraph whose English is in the library; `en->zh` the
  reverse);
- hard negatives (`copied: false`, obfuscation `same-topic`, 2 per translation): paragraphs of the
  documents of neither group, in either language, those whose concepts overlap most with some library
  paragraph of the other language (a Chinese word stands for its CC-CEDICT gloss words, an English word
  for itself; overlap = shared concepts over the smaller set). A candidate whose own translation shares
  more than half its words with a library paragraph (a sentence the manual repeats) is left out, and in
  help pages (which repeat paragraphs) so is one sharing more than half its words with a library
  paragraph of its own language: it would be a copy, not a negative.
- partial translations (`copied: true`, obfuscation `partial-translation`, `scored: false`: a paragraph
  is not flagged for them, but they count in the document's figures): a paragraph of the documents of
  neither group (not one whose translation the library nearly holds, nor in help pages one the
  library nearly holds in its own language, nor one with a sentence of 5 words or more that a library
  paragraph nearly holds, or whose translation one does) with one or two sentences inserted at
  sentence ends that translate sentences of library paragraphs of the other language (from pairs
  whose two editions have the same number of sentences, paired in order); `copied_chars` counts the
  inserted sentences' non-whitespace characters.
Query documents hold 12 paragraphs of one language each, translations and negatives shuffled; the
partial translations are in documents of their own (`partial-*`), 6 each, with as many same-topic
paragraphs, so that a document's copy ratio can be compared with the truth's (`copy_ratio`).
Writes OUT/library/*.txt, OUT/queries/*.txt and OUT/truth.json (eval-dev's format; the LibreOffice sets'
SOURCE.md, their text's origin and licence, is written by hand), so
`tongwen eval OUT/truth.json` measures it.
"""
import argparse
import glob
import gzip
import json
import os
import random
import re
import shutil
import subprocess
from html.parser import HTMLParser

import jieba

HERE = os.path.dirname(os.path.abspath(__file__))
MANUALS = {
    "debian-reference": {
        "packages": ["debian-reference-en", "debian-reference-zh-cn"],
        "en": "usr/share/debian-reference/*.en.html",
        "zh": lambda en: en.replace(".en.html", ".zh-cn.html"),
    },
    "debian-handbook": {
        "packages": ["debian-handbook"],
        "en": "usr/share/doc/debian-handbook/html/en-US/*.html",
        "zh": lambda en: en.replace("/en-US/", "/zh-CN/"),
    },
    "installation-guide": {
        "packages": ["installation-guide-amd64"],
        "en": "usr/share/doc/installation-guide-amd64/en/*.html",
        "zh": lambda en: en.replace("/en/", "/zh_CN/"),
    },
    # Office software, not system administration: short help pages, so a folder's pages (in name
    # order) make one chapter. Two sets from different pages: the help shared by every application and
    # Basic's, and the applications' own (Writer, Calc, Impress, Draw, Base, Chart, Math).
    "libreoffice-general": {
        "packages": ["libreoffice-help-en-us", "libreoffice-help-zh-cn"],
        "en": "usr/share/libreoffice/help/en-US/text/**/*.html",
        "zh": lambda en: en.replace("/en-US/", "/zh-CN/"),
        "chapter": "folder",
        "modules": ["shared", "sbasic"],
    },
    "libreoffice-apps": {
        "packages": ["libreoffice-help-en-us", "libreoffice-help-zh-cn"],
        "en": "usr/share/libreoffice/help/en-US/text/**/*.html",
        "zh": lambda en: en.replace("/en-US/", "/zh-CN/"),
        "chapter": "folder",
        "modules": ["swriter", "scalc", "simpress", "sdraw", "sdatabase", "schart", "smath"],
    },
}
CJK = re.compile(r"[\u4e00-\u9fff]")
LETTER = re.compile(r"[A-Za-z\u4e00-\u9fff]")
PER_DOCUMENT = 12
TRANSLATIONS_PER_DOCUMENT = 5
NEGATIVES_PER_TRANSLATION = 2
PARTIALS_PER_LANGUAGE = 36


class Paragraphs(HTMLParser):
    """The text of every `<p>` (DocBook's HTML) or `<div class="para">` (Publican's) outside `<pre>`, in
    order (`out`), and each one's `id` attribute (`ids`, None without one)."""

    def __init__(self):
        super().__init__()
        self.out, self.current, self.skip, self.end, self.depth = [], None, 0, None, 0
        self.ids, self.id = [], None

    def handle_starttag(self, tag, attrs):
        if tag in ("pre", "script", "style"):
            self.skip += 1
        if self.current is None:
            if tag == "p" or (tag == "div" and ("class", "para") in attrs):
                self.current, self.end, self.depth = [], tag, 1
                self.id = dict(attrs).get("id")
        elif tag == self.end:
            self.depth += 1

    def handle_endtag(self, tag):
        if tag in ("pre", "script", "style"):
            self.skip -= 1
        if self.current is not None and tag == self.end:
            self.depth -= 1
            if self.depth == 0:
                self.out.append(re.sub(r"\s+", " ", "".join(self.current)).strip())
                self.ids.append(self.id)
                self.current = None

    def handle_data(self, data):
        if self.current is not None and not self.skip:
            self.current.append(data)


def paragraphs(path, with_ids=False):
    p = Paragraphs()
    with open(path, encoding="utf-8") as f:
        p.feed(f.read())
    return list(zip(p.ids, p.out)) if with_ids else p.out


def pairs_by_id(en_path, zh_path):
    """The two editions' paragraphs paired by their `id` (LibreOffice's help: an edition may hold a
    page's paragraphs in another order), each id once."""
    zh = {}
    for i, t in paragraphs(zh_path, with_ids=True):
        if i:
            zh.setdefault(i, []).append(t)
    out = []
    for i, t in paragraphs(en_path, with_ids=True):
        if i and len(zh.get(i, [])) == 1:
            out.append((t, zh[i][0]))
    return out


def tidy_zh(text):
    # DocBook keeps the source's line breaks inside Chinese text as spaces.
    return re.sub(r"(?<=[\u4e00-\u9fff，。、；：）（“”]) (?=[\u4e00-\u9fff，。、；：）（“”])", "", text)


def is_prose_pair(en, zh):
    cjk = len(CJK.findall(zh))
    letters = len(LETTER.findall(zh))
    return cjk >= 30 and cjk * 3 >= letters and len(en.split()) >= 15


def load_lexicon():
    path = os.path.join(HERE, "..", "assets", "lexicon", "cedict-zh-en.txt.gz")
    lex = {}
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            if not line.startswith("#"):
                head, _, words = line.rstrip("\n").partition("\t")
                lex[head] = {w.lower().rstrip("s") for w in words.split()}
    return lex


def en_concepts(text):
    return {w.lower().rstrip("s") for w in re.findall(r"[A-Za-z]{3,}", text)}


def zh_concepts(text, lex):
    out = set()
    for w in jieba.cut(text):
        if CJK.search(w):
            out |= lex.get(w, set())
        else:
            out |= en_concepts(w)
    return out


def sentences(text):
    """Sentences, cut after 。！？； and after . ! ? ; followed by a space."""
    parts = re.split(r"(?<=[。！？；])|(?<=[.!?;])\s+", text)
    return [p.strip() for p in parts if p and p.strip()]


def non_ws(text):
    return len(re.sub(r"\s", "", text))


def overlap(a, b):
    return len(a & b) / max(1, min(len(a), len(b)))


def words(text):
    """Words of English, character bigrams of Chinese."""
    if CJK.search(text):
        return {text[i : i + 2] for i in range(len(text) - 1)}
    return set(re.findall(r"\w+", text.lower()))


def in_library(text, library_lang):
    """Whether more than half of `text`'s words are in one library paragraph of its language
    (`library_lang`: (file, index, text, concepts) tuples): a paragraph the manual repeats."""
    w = words(text)
    return any(len(w & words(t)) > 0.5 * len(w) for _, _, t, _ in library_lang)


def repeated(sentence, library_lang):
    """Whether a sentence of a writer's own text is (nearly) in one library paragraph of its language
    (`in_library`): manuals repeat sentences (a section's cross-reference, a note), and the writer's
    text would then hold a copy. Sentences of fewer than 5 words (bigrams) are left alone: a paragraph
    of the same manual holds half of those by chance."""
    return len(words(sentence)) >= 5 and in_library(sentence, library_lang)


def fetch(manual, debs):
    os.makedirs(debs, exist_ok=True)
    root = os.path.join(debs, manual + "-tree")
    if os.path.isdir(root):
        return root
    for package in MANUALS[manual]["packages"]:
        if not glob.glob(os.path.join(debs, package + "_*.deb")):
            subprocess.run(["apt-get", "download", package], cwd=debs, check=True)
        deb = sorted(glob.glob(os.path.join(debs, package + "_*.deb")))[-1]
        subprocess.run(["dpkg-deb", "-x", deb, root], check=True)
    return root


def main():
    a = argparse.ArgumentParser()
    a.add_argument("manual", choices=sorted(MANUALS))
    a.add_argument("out")
    a.add_argument("--debs", default="/tmp/tongwen-debs")
    a.add_argument("--seed", type=int, default=28)
    a = a.parse_args()
    rng = random.Random(a.seed)
    manual = MANUALS[a.manual]
    root = fetch(a.manual, a.debs)
    lex = load_lexicon()

    # Documents: (name, [(en, zh)]) of consecutive prose pairs.
    chapters = {}
    for en_path in sorted(glob.glob(os.path.join(root, manual["en"]), recursive=True)):
        if "modules" in manual and en_path.split("/text/")[1].split("/")[0] not in manual["modules"]:
            continue
        zh_path = manual["zh"](en_path)
        if not os.path.exists(zh_path):
            continue
        if manual.get("chapter") == "folder":
            aligned = pairs_by_id(en_path, zh_path)
        else:
            en, zh = paragraphs(en_path), paragraphs(zh_path)
            if len(en) != len(zh):
                continue
            aligned = list(zip(en, zh))
        pairs = [(e, tidy_zh(z)) for e, z in aligned if is_prose_pair(e, tidy_zh(z))]
        if manual.get("chapter") == "folder":
            # The folder below the edition's root (text/swriter/guide: text-swriter-guide).
            base = os.path.join(root, manual["en"].split("/**")[0])
            chapter = os.path.relpath(os.path.dirname(en_path), os.path.dirname(base)).replace("/", "-")
        else:
            # The page's name without its language and extension (ch01.en.html: ch01; sect.apt.html:
            # sect.apt), unique within the manual.
            chapter = re.sub(r"(\.en)?\.html$", "", os.path.basename(en_path))
        chapters.setdefault(chapter, []).extend(pairs)
    documents = []
    for chapter, pairs in chapters.items():
        for i in range(0, len(pairs), PER_DOCUMENT):
            chunk = pairs[i : i + PER_DOCUMENT]
            if len(chunk) >= 6:
                documents.append((f"{a.manual}-{chapter}-{i // PER_DOCUMENT + 1:02d}", chunk))
    rng.shuffle(documents)
    third = len(documents) // 3
    in_en, in_zh, neither = documents[:third], documents[third : 2 * third], documents[2 * third :]

    shutil.rmtree(a.out, ignore_errors=True)
    os.makedirs(os.path.join(a.out, "library"))
    os.makedirs(os.path.join(a.out, "queries"))
    truth = {
        "benchmark": f"translation ({a.manual})",
        "generator": "scripts/make-manual-translation-set.py",
        "seed": a.seed,
        "library": {},
        "queries": {},
    }
    library = {"en": [], "zh": []}  # (file, index, text, concepts)
    for group, lang in ((in_en, "en"), (in_zh, "zh")):
        for name, pairs in group:
            f = f"library/{name}-{lang}.txt"
            texts = [e if lang == "en" else z for e, z in pairs]
            with open(os.path.join(a.out, f), "w", encoding="utf-8") as w:
                w.write("\n\n".join(texts) + "\n")
            truth["library"][f] = {"from": f, "lang": lang, "package": a.manual}
            for i, t in enumerate(texts):
                c = en_concepts(t) if lang == "en" else zh_concepts(t, lex)
                library[lang].append((f, i, t, c))

    items = {"en": [], "zh": []}
    for group, lang in ((in_en, "en"), (in_zh, "zh")):
        other = "zh" if lang == "en" else "en"
        for name, pairs in group:
            for i in sorted(rng.sample(range(len(pairs)), min(TRANSLATIONS_PER_DOCUMENT, len(pairs)))):
                e, z = pairs[i]
                if manual.get("chapter") == "folder":
                    # Help pages repeat paragraphs: one the library holds in the query's own language
                    # (nearly) is a copy, not a translation.
                    qw = words(z if other == "zh" else e)
                    if any(len(qw & words(t)) > 0.5 * len(qw) for _, _, t, _ in library[other]):
                        continue
                items[other].append(
                    {
                        "copied": True,
                        "direction": f"{other}->{lang}",
                        "obfuscation": "translation",
                        "scored": True,
                        "sources": [{"library_file": f"library/{name}-{lang}.txt", "paragraph": i}],
                        "text": z if other == "zh" else e,
                    }
                )
    # Hard negatives: the paragraphs of neither group closest in concepts to a library paragraph of
    # the other language.
    repeats = manual.get("chapter") == "folder"
    candidates = {"en": [], "zh": []}
    for name, pairs in neither:
        for e, z in pairs:
            for lang, text, twin in (("en", e, z), ("zh", z, e)):
                other = "zh" if lang == "en" else "en"
                twin_lang_library = library[other]
                # Its own translation must not be (nearly) a library paragraph.
                tw = words(twin)
                if any(len(tw & words(t)) > 0.5 * len(tw) for _, _, t, _ in twin_lang_library):
                    continue
                # Nor itself, in help pages that repeat paragraphs: it would be a copy in its own
                # language (the first LibreOffice sets held 109 and 185 such negatives).
                if repeats and in_library(text, library[lang]):
                    continue
                c = en_concepts(text) if lang == "en" else zh_concepts(text, lex)
                best = max((overlap(c, lc), f, i) for f, i, _, lc in twin_lang_library)
                candidates[lang].append((best, text))
    # Partial translations: sentence pairs of library paragraphs, inserted into paragraphs of neither
    # group (which are then not used as negatives).
    sentence_pairs = {"en": [], "zh": []}  # by the library's language: (file, index, en, zh)
    for group, lang in ((in_en, "en"), (in_zh, "zh")):
        for name, pairs in group:
            for i, (e, z) in enumerate(pairs):
                es, zs = sentences(e), sentences(z)
                if len(es) == len(zs) >= 2:
                    for a_, b_ in zip(es, zs):
                        if len(a_.split()) >= 8 and len(CJK.findall(b_)) >= 15:
                            sentence_pairs[lang].append((f"library/{name}-{lang}.txt", i, a_, b_))
    own = {"en": [], "zh": []}  # (text, its translation)
    for name, pairs in neither:
        for e, z in pairs:
            if len(sentences(e)) >= 2 and len(sentences(z)) >= 2:
                own["en"].append((e, z))
                own["zh"].append((z, e))
    partials = {"en": [], "zh": []}
    used_own = set()
    for lang in ("en", "zh"):
        library_lang = "zh" if lang == "en" else "en"
        rng.shuffle(own[lang])
        picks = rng.sample(sentence_pairs[library_lang], min(len(sentence_pairs[library_lang]), 2 * PARTIALS_PER_LANGUAGE))
        # The writer's own text must be theirs: not (nearly) a library paragraph of its language, its
        # translation not (nearly) one of the other language, and no sentence of either (nearly) in a
        # library paragraph (`repeated`): manuals repeat paragraphs and notes, and a writer's text that
        # copies or translates one is a copy, which the truth would count as their own.
        mine = [
            t
            for t, twin in own[lang]
            if not (repeats and in_library(t, library[lang]))
            and not in_library(twin, library[library_lang])
            and not any(repeated(x, library[lang]) for x in sentences(t))
            and not any(repeated(x, library[library_lang]) for x in sentences(twin))
        ]
        for k, text in enumerate(mine[:PARTIALS_PER_LANGUAGE]):
            used_own.add(text)
            inserted = picks[2 * k : 2 * k + rng.choice((1, 2))]
            parts = sentences(text)
            sources = []
            for f, i, e_s, z_s in inserted:
                parts.insert(rng.randrange(len(parts) + 1), e_s if lang == "en" else z_s)
                sources.append({"library_file": f, "paragraph": i})
            joiner = " " if lang == "en" else ""
            partials[lang].append(
                {
                    "copied": True,
                    "direction": f"{lang}->{library_lang}",
                    "obfuscation": "partial-translation",
                    "scored": False,
                    "sources": sources,
                    "copied_chars": sum(non_ws(e_s if lang == "en" else z_s) for _, _, e_s, z_s in inserted),
                    "inserted": [
                        {"text": e_s if lang == "en" else z_s, "source_sentence": z_s if lang == "en" else e_s}
                        for _, _, e_s, z_s in inserted
                    ],
                    "text": joiner.join(parts),
                }
            )
    for lang in ("en", "zh"):
        candidates[lang] = [c for c in candidates[lang] if c[1] not in used_own]
    wanted = NEGATIVES_PER_TRANSLATION * (len(items["en"]) + len(items["zh"])) // 2
    for lang in ("en", "zh"):
        candidates[lang].sort(key=lambda c: -c[0][0])
        for (score, f, i), text in candidates[lang][:wanted]:
            items[lang].append(
                {
                    "copied": False,
                    "obfuscation": "same-topic",
                    "scored": True,
                    "closest": {"library_file": f, "paragraph": i, "overlap": round(score, 3)},
                    "text": text,
                }
            )
        print(
            f"{lang}: {sum(p['copied'] for p in items[lang])} translations, "
            f"{sum(not p['copied'] for p in items[lang])} same-topic negatives "
            f"(overlap {candidates[lang][min(wanted, len(candidates[lang])) - 1][0][0]:.2f} or more)"
        )

    # Partial-translation documents: 6 partial paragraphs and 6 same-topic ones each (the latter taken
    # from the end of the negatives, so the translation documents keep the closest ones).
    for lang in ("en", "zh"):
        negatives = [p for p in items[lang] if not p["copied"]]
        for n, i in enumerate(range(0, len(partials[lang]), 6)):
            chunk = partials[lang][i : i + 6]
            for _ in range(6):
                if negatives:
                    extra = negatives.pop()
                    items[lang].remove(extra)
                    chunk.append(extra)
            rng.shuffle(chunk)
            f = f"queries/partial-{lang}-{n + 1:02d}.txt"
            with open(os.path.join(a.out, f), "w", encoding="utf-8") as w:
                w.write("\n\n".join(p["text"] for p in chunk) + "\n")
            copied = sum(p.get("copied_chars", 0) for p in chunk)
            total = sum(non_ws(p["text"]) for p in chunk)
            truth["queries"][f] = {
                "lang": lang,
                "paragraphs": chunk,
                "copied_chars": copied,
                "total_chars": total,
                "copy_ratio": round(copied / total, 4),
            }
    for lang in ("en", "zh"):
        rng.shuffle(items[lang])
        for n, i in enumerate(range(0, len(items[lang]), PER_DOCUMENT)):
            f = f"queries/{lang}-{n + 1:02d}.txt"
            chunk = items[lang][i : i + PER_DOCUMENT]
            with open(os.path.join(a.out, f), "w", encoding="utf-8") as w:
                w.write("\n\n".join(p["text"] for p in chunk) + "\n")
            truth["queries"][f] = {"lang": lang, "paragraphs": chunk}
    with open(os.path.join(a.out, "truth.json"), "w", encoding="utf-8") as w:
        json.dump(truth, w, ensure_ascii=False, indent=1, sort_keys=True)
        w.write("\n")
    print(f"{len(truth['library'])} library documents ({len(library['en'])} English, "
          f"{len(library['zh'])} Chinese paragraphs), {len(truth['queries'])} queries")


if __name__ == "__main__":
    main()
