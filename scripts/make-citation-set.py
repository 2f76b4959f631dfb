#!/usr/bin/env python3
"""Make a set of submissions that quote library sentences the way style guides teach (`tests/fixtures/citations/<name>/`).

usage: python3 scripts/make-citation-set.py [EVAL_DEV] OUT [--seed 31] [--docs 12] [--exclude OTHER/truth.json]

Written apart from the checker: its names, titles, verbs and sentence frames are its own, taken from the
style guides (APA 7, MLA 9, Chicago author-date and notes, IEEE, GB/T 7714-2015 in both systems, Chinese
prose conventions), not from Tongwen's rules. Each submission (Chinese or English) is eight paragraphs of
someone's own writing (clean paragraphs of eval-dev's queries that share no 13-character or 6-word
passage with the set's library) into which library sentences are put:

  cited     a quotation with its citation, in one of the positions the style allows: before it in a
            signal phrase, right after it, after the sentence's full stop, later in the sentence, or a
            block quotation (a paragraph of its own, with or without marks) introduced by a lead-in that
            ends with a colon, or with its citation on its own last line
  uncited   the same in quotation marks (or as a block after a colon) with nobody named
  plain     the sentence as if it were the writer's own

The library is the eval-dev documents the sentences come from, copied into OUT/library/. OUT/truth.json:
  {"kind": "citations", "seed": …, "submissions": {"submissions/NAME.txt": [{"paragraph": i,
   "range": [start, end), "expected": "cited" | "uncited" | "plain", "style": …, "position": …,
   "source": "library/…"}]}}
with `range` in characters (Unicode scalar values) of the paragraph: the quoted library text itself.
`--exclude` leaves out every library document another set quotes (own paragraphs may repeat: they are
the setting, not what is measured).
"""
import argparse
import json
import os
import random
import re
import shutil
import sys

NAMES_ZH = ["刘洋", "陈静怡", "赵立新", "孙海", "周文", "黄蕾", "林小平", "郭峰", "何晓东", "罗敏",
            "宋佳", "韩冰", "唐德刚", "许倩", "冯远"]
NAMES_EN = ["Garcia", "Nakamura", "O'Neill", "Thompson", "Kowalski", "Okafor", "Lindqvist", "Moreau",
            "Patel", "Fischer", "Haddad", "Svensson", "Ibrahim", "Novak", "Ferreira"]
TITLES_ZH = ["开源协作导论", "软件包管理实务", "自由软件运动史", "系统管理手记", "电路设计入门", "社区治理研究"]
TITLES_EN = ["Open Collaboration", "The Packaging Handbook", "Notes on System Administration",
             "Designing Circuits", "Communities of Practice"]
# Signal verbs as writing guides list them (narrative citations).
VERBS_EN = ["states", "explains", "notes", "argues", "observes", "writes", "claims", "suggests",
            "reports", "contends", "maintains", "emphasizes", "points out", "acknowledges", "comments",
            "confirms", "declares", "mentions", "warns", "reminds readers", "concedes", "insists"]
VERBS_ZH = ["指出", "认为", "写道", "强调", "提到", "表示", "谈到", "坦言", "总结道", "主张", "说过", "论述道"]
SUPERSCRIPT = "⁰¹²³⁴⁵⁶⁷⁸⁹"


def sup(n):
    return "".join(SUPERSCRIPT[int(d)] for d in str(n))


def paragraphs(path):
    with open(path, encoding="utf-8") as f:
        return [p.strip() for p in re.split(r"\n\s*\n", f.read()) if p.strip()]


def sentences(text, english):
    if english:
        parts = re.findall(r"[^.!?]+[.!?]+(?=\s|$)", text)
    else:
        parts = re.findall(r"[^。！？]+[。！？]", text)
    return [p.strip() for p in parts if p.strip()]


def runs(text, english):
    """The passages a checker would call copied if shared: 13-character (Chinese, spaces aside) or
    6-word (English, lower case) windows."""
    if english:
        w = re.findall(r"[a-z0-9]+", text.lower())
        return {" ".join(w[i:i + 6]) for i in range(max(0, len(w) - 5))}
    t = re.sub(r"\s", "", text)
    return {t[i:i + 13] for i in range(max(0, len(t) - 12))}


def size(s, english):
    """Words of an English sentence, Chinese characters of a Chinese one (Latin words in it aside: a
    checker counts a Chinese passage from 13 Chinese characters)."""
    return len(s.split()) if english else len(re.findall(r"[\u4e00-\u9fff]", s))


# Cited forms: (style, position, frame). `{q}` is the quoted sentence without its final stop, `{n}` a
# reference number, `{name}`, `{year}`, `{page}`, `{title}`, `{verb}`, `{sup}` a note mark.
CITED_EN = [
    ("apa", "before", '{name} ({year}) {verb} that "{q}" (p. {page}).'),
    ("apa", "after", '"{q}" ({name}, {year}, p. {page}).'),
    ("apa", "after", 'One account holds that "{q}" ({name} & {name2}, {year}).'),
    ("mla", "after", '"{q}" ({name} {page}).'),
    ("mla", "before", '{name} {verb}, "{q}" ({page}).'),
    ("chicago-ad", "after-stop", '"{q}." ({name} {year}, {page})'),
    ("chicago-notes", "after", 'On this point, "{q}."{sup}'),
    ("chicago-notes", "before", '{name} {verb} that "{q}."{sup}'),
    ("ieee", "after", '"{q}" [{n}].'),
    ("ieee", "before", 'As stated in [{n}], "{q}."'),
    ("apa", "later", '"{q}," {name} ({year}) {verb}.'),
    ("title", "before", 'As {title} puts it, "{q}."'),
]
CITED_ZH = [
    ("gbt-numeric", "after", "“{q}”[{n}]。"),
    ("gbt-numeric", "after", "“{q}。”［{n}］"),
    ("gbt-numeric", "before", "文献[{n}]{verb}：“{q}。”"),
    ("gbt-numeric", "before", "{name}[{n}]{verb}：“{q}”。"),
    ("gbt-author-year", "after", "“{q}”（{name}，{year}）。"),
    ("gbt-author-year", "before", "{name}（{year}）{verb}：“{q}。”"),
    ("gbt-author-year", "after", "“{q}”（{name}，{year}：{page}）。"),
    ("prose", "before", "据《{title}》记载：“{q}。”"),
    ("prose", "before", "《{title}》一书中写道：“{q}。”"),
    ("prose", "before", "正如{name}所言：“{q}。”"),
    ("prose", "before", "{name}曾经{verb}：“{q}。”"),
    ("prose", "after", "“{q}”（引自{name}《{title}》）。"),
    ("notes", "after", "“{q}。”{sup}"),
]
UNCITED_EN = [
    '"{q}."',
    'It is often said that "{q}."',
    'Many people believe that "{q}."',
    'As one forum post puts it, "{q}."',
    'The saying goes: "{q}."',
    'Someone once remarked, "{q}."',
]
UNCITED_ZH = [
    "“{q}。”",
    "有人说：“{q}。”",
    "人们常说“{q}”。",
    "网上流传着这样一句话：“{q}。”",
    "老师经常提醒我们：“{q}。”",
    "俗话说得好，“{q}”。",
]
# Block quotations: (style, lead-in or None, last line or None, marks around the block).
BLOCK_EN = [
    ("apa", "{name} ({year}) {verb}:", " (p. {page})", False),
    ("mla", "{name} describes it this way:", None, False),
    ("ieee", "As described in [{n}]:", None, False),
    ("apa", None, " ({name}, {year}, p. {page})", False),
    ("chicago-ad", "{name} ({year}, {page}) {verb}:", None, True),
]
BLOCK_ZH = [
    ("gbt-author-year", "{name}（{year}）对此{verb}：", None, False),
    ("gbt-numeric", "文献[{n}]对此有如下论述：", None, False),
    ("prose", "正如{name}在《{title}》中所说：", None, True),
    ("prose", None, "——{name}《{title}》", False),
]
BLOCK_UNCITED_EN = ["Consider the following:", "The following passage says it well:"]
BLOCK_UNCITED_ZH = ["请看下面这段话：", "下面这段话说得很好："]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("eval_dev", nargs="?", default=os.path.join(here, "..", "..", "shared", "eval-dev"))
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--docs", type=int, default=12, help="submissions per language")
    ap.add_argument("--exclude", action="append", default=[])
    a = ap.parse_args()
    rng = random.Random(a.seed)
    truth = json.load(open(os.path.join(a.eval_dev, "truth.json"), encoding="utf-8"))
    used_sources, used_own = set(), set()
    for other in a.exclude:
        t = json.load(open(other, encoding="utf-8"))
        used_sources |= set(t.get("library", []))

    out_lib = os.path.join(a.out, "library")
    out_sub = os.path.join(a.out, "submissions")
    for d in (out_lib, out_sub):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    result = {"kind": "citations", "generator": "scripts/make-citation-set.py", "seed": a.seed,
              "submissions": {}, "library": [], "own": []}
    for lang in ("zh", "en"):
        english = lang == "en"
        lo, hi = (10, 30) if english else (15, 55)
        own = []
        for qname, q in sorted(truth["queries"].items()):
            if q["lang"].startswith("zh") != (not english):
                continue
            for k, p in enumerate(q["paragraphs"]):
                key = f"{qname}#{k}"
                if (not p["copied"] and key not in used_own and len(sentences(p["text"], english)) >= 2
                        and size(p["text"], english) >= (25 if english else 60)):
                    own.append((key, p["text"]))
        rng.shuffle(own)
        # Library sentences, each document giving several.
        files = sorted(f for f, m in truth["library"].items()
                       if m["format"] == "txt" and m.get("encoding") == "utf-8"
                       and m["lang"].startswith("zh") == (not english) and f not in used_sources)
        rng.shuffle(files)
        # Own writing shares no passage with the library documents the set uses (a run of 13 Chinese
        # characters or 6 English words), so that what the truth calls own is own.
        windows = set()
        for f in files[:14]:
            for p in paragraphs(os.path.join(a.eval_dev, f)):
                windows |= runs(p, english)
        own = [(k, t) for k, t in own if not (runs(t, english) & windows)]
        pool = []
        for f in files[:14]:
            paras = paragraphs(os.path.join(a.eval_dev, f))
            found = [s for p in paras for s in sentences(p, english) if lo <= size(s, english) <= hi]
            rng.shuffle(found)
            pool.extend((f, s) for s in found[:10])
        rng.shuffle(pool)
        needed = a.docs * 7
        if len(own) < a.docs * 8 or len(pool) < needed:
            sys.exit(f"{lang}: {len(own)} own paragraphs, {len(pool)} library sentences")
        cited = CITED_EN if english else CITED_ZH
        uncited = UNCITED_EN if english else UNCITED_ZH
        blocks = BLOCK_EN if english else BLOCK_ZH
        block_uncited = BLOCK_UNCITED_EN if english else BLOCK_UNCITED_ZH
        names = NAMES_EN if english else NAMES_ZH
        titles = TITLES_EN if english else TITLES_ZH
        verbs = VERBS_EN if english else VERBS_ZH
        sources_used = set()

        def fill(frame, q):
            name, name2 = rng.sample(names, 2)
            return frame.format(q=q, name=name, name2=name2, year=rng.randint(1995, 2024),
                                page=rng.randint(3, 240), n=rng.randint(1, 30), sup=sup(rng.randint(1, 20)),
                                title=rng.choice(titles), verb=rng.choice(verbs))

        for d in range(a.docs):
            paras_out, items = [], []
            for k in range(8):
                key, text = own.pop()
                result["own"].append(key)
                paras_out.append(text)
            # Seven insertions into seven different paragraphs: three cited inline, one block (cited or
            # not), one uncited, two plain. Done from the last paragraph up, so that a block quotation's
            # new paragraph moves only the insertions already made.
            plan = ["cited", "cited", "cited", "block", "uncited", "plain", "plain"]
            rng.shuffle(plan)
            slots = sorted(rng.sample(range(8), 7), reverse=True)
            sep = " " if english else ""
            for what, slot in zip(plan, slots):
                src, sentence = pool.pop()
                sources_used.add(src)
                q = sentence.rstrip(".!?。！？")
                if what == "block":
                    style, lead, last, marks = rng.choice(blocks + [(None, None, None, False)] * 2)
                    body = q + ("." if english else "。")
                    if pool:  # a block is two library sentences
                        src2, s2 = pool.pop()
                        sources_used.add(src2)
                        body += sep + s2
                    if style is None:
                        expected, style, position = "uncited", "none", "block"
                        lead_text, block = rng.choice(block_uncited), body
                    else:
                        expected = "cited"
                        position = "block-lead-in" if lead else "block-last-line"
                        lead_text = fill(lead, q) if lead else None
                        block = body + (fill(last, q) if last else "")
                    if marks:
                        block = ('"' + block + '"') if english else ("“" + block + "”")
                    if lead_text is not None:
                        paras_out[slot] = paras_out[slot] + sep + lead_text
                    paras_out.insert(slot + 1, block)
                    for it in items:
                        if it["paragraph"] > slot:
                            it["paragraph"] += 1
                    start = 1 if marks else 0
                    items.append({"paragraph": slot + 1, "range": [start, start + len(body)],
                                  "expected": expected, "style": style, "position": position,
                                  "source": src})
                    continue
                if what == "cited":
                    style, position, frame = rng.choice(cited)
                    sentence_out = fill(frame, q)
                elif what == "uncited":
                    style, position = "none", "inline"
                    sentence_out = fill(rng.choice(uncited), q)
                else:
                    style, position = "none", "plain"
                    sentence_out, q = sentence, sentence
                own_par = paras_out[slot]
                # Put it after one of the paragraph's sentences (or first).
                ends = [m.end() for m in re.finditer(r"[.!?](?=\s)|[。！？]", own_par)]
                cut = rng.choice([0] + ends)
                before, after = own_par[:cut], own_par[cut:].lstrip()
                lead = before + (sep if before else "")
                new = lead + sentence_out + (sep + after if after else "")
                qs = new.index(q, len(lead))
                paras_out[slot] = new
                items.append({"paragraph": slot, "range": [qs, qs + len(q)], "expected": what,
                              "style": style, "position": position, "source": src})
            name = f"submissions/{lang}{d + 1:02d}.txt"
            with open(os.path.join(a.out, name), "w", encoding="utf-8") as f:
                f.write("\n\n".join(paras_out) + "\n")
            # Check every range holds its text.
            for it in items:
                text = paras_out[it["paragraph"]][it["range"][0]:it["range"][1]]
                assert text and text.strip(), (name, it)
            result["submissions"][name] = sorted(items, key=lambda it: (it["paragraph"], it["range"]))
        for src in sorted(sources_used):
            shutil.copy(os.path.join(a.eval_dev, src), os.path.join(out_lib, os.path.basename(src)))
            result["library"].append(src)
    with open(os.path.join(a.out, "truth.json"), "w", encoding="utf-8") as t:
        json.dump(result, t, ensure_ascii=False, indent=1, sort_keys=True)
        t.write("\n")
    counts = {}
    for items in result["submissions"].values():
        for it in items:
            counts[it["expected"]] = counts.get(it["expected"], 0) + 1
    print(f"{len(result['submissions'])} submissions, {len(result['library'])} library documents: {counts}")


if __name__ == "__main__":
    main()
