#!/usr/bin/env python3
"""Builds the class test set of tests/fixtures/class/ from eval-dev's material (see README.md there).

Python 3 standard library only; the same files every run (fixed seed). Reads the eval-dev benchmark from
$TONGWEN_EVAL_DEV, else ../shared/eval-dev beside the repository.

Every submission starts with the assignment template (template.txt). The rest of each is paragraphs of
eval-dev documents (many essays of one package: one topic, as in a real class), used once each and checked
to be independent: no two share a run of 13 Chinese characters or 6 English words. Copying between
submissions is made with eval-dev's obfuscations (exact, noise, light and heavy edits, reorder, partial,
merge), and every paragraph records where its text comes from, so the truth follows: a's ratio against b is
the share of a's characters (template excluded) in paragraphs whose text b also holds (a copied paragraph
counts whole, as eval-dev counts it; a partial copy only its copied part; a merged paragraph each half
against the document holding that half).
"""
import io
import json
import os
import random
import re
import sys
import zipfile
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EVAL = os.environ.get("TONGWEN_EVAL_DEV") or os.path.join(ROOT, "..", "shared", "eval-dev")
OUT = os.path.join(ROOT, "tests", "fixtures", "class")
THRESHOLD = 0.3
rng = random.Random(20261124)

TEMPLATE = [
    "《Linux 系统管理》课程论文",
    "作业要求：结合课程内容，选择一个与 Debian 系统使用或维护有关的主题，写一篇不少于三千字的论文，"
    "要求观点明确、条理清楚，引用他人成果须注明出处。",
    "学术诚信声明：本人郑重声明，所呈交的课程论文是本人在教师指导下独立完成的成果。除文中已经注明引用的内容外，"
    "本论文不包含任何其他个人或集体已经发表或撰写过的作品。本人完全意识到本声明的法律后果由本人承担。",
]

CJK = re.compile(r"[\u3400-\u9fff]")
FILLER = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严"


def nonws(s):
    return sum(1 for c in s if not c.isspace())


def norm_zh(s):
    return "".join(CJK.findall(s))


def shingles(text, lang):
    if lang == "zh":
        t = norm_zh(text)
        return {t[i:i + 13] for i in range(max(0, len(t) - 12))}
    words = re.findall(r"[a-z0-9]+", text.lower())
    return {" ".join(words[i:i + 6]) for i in range(max(0, len(words) - 5))}


def sentences(text, lang):
    if lang == "zh":
        parts = re.findall(r"[^。！？]+[。！？]?", text)
    else:
        parts = re.findall(r".+?(?:[.?!](?=\s)|$)", text)
    return [p.strip() for p in parts if p.strip()]


def load_pool():
    """Paragraphs by (lang, package), in file order, from library .txt files (UTF-8) and clean query paragraphs."""
    truth = json.load(open(os.path.join(EVAL, "truth.json"), encoding="utf-8"))
    pool = {}
    for rel, meta in sorted(truth["library"].items()):
        if meta["format"] != "txt" or meta["encoding"] != "utf-8":
            continue
        text = open(os.path.join(EVAL, rel), encoding="utf-8").read()
        for p in text.split("\n\n"):
            pool.setdefault((meta["lang"], meta["package"]), []).append(p.strip())
    for rel, q in sorted(truth["queries"].items()):
        for p in q["paragraphs"]:
            if not p["copied"]:
                pool.setdefault((q["lang"], "queries-" + q["lang"]), []).append(p["text"].strip())
    return pool


class Source:
    """Independent paragraphs handed out once each."""

    def __init__(self, pool):
        self.seen = set()
        self.pool = {}
        for key, paras in pool.items():
            lang = key[0]
            keep = []
            for p in paras:
                n = nonws(p) if lang == "zh" else len(p.split())
                if (lang == "zh" and not 90 <= n <= 320) or (lang == "en" and not 40 <= n <= 110):
                    continue
                if lang == "zh" and len(norm_zh(p)) < 0.7 * n:
                    continue
                if len(sentences(p, lang)) < 2:
                    continue
                keep.append(p)
            self.pool[key] = keep

    def take(self, key, lang):
        paras = self.pool[key]
        while paras:
            p = paras.pop(0)
            sh = shingles(p, lang)
            if sh & self.seen:
                continue
            self.seen |= sh
            return p
        raise SystemExit(f"pool {key} exhausted")


next_origin = [0]


def own(src, key, lang):
    """A fresh paragraph: its own origin."""
    next_origin[0] += 1
    text = src.take(key, lang)
    return {"text": text, "parts": [(next_origin[0], nonws(text))]}


# ---- obfuscations (eval-dev's kinds) ----

def edit(text, lang, share):
    if lang == "zh":
        chars = list(text)
        idx = [i for i, c in enumerate(chars) if CJK.match(c)]
        for i in rng.sample(idx, max(1, int(len(idx) * share))):
            op = rng.random()
            if op < 0.4:
                chars[i] = rng.choice(FILLER)
            elif op < 0.7:
                chars[i] = ""
            else:
                chars[i] = chars[i] + rng.choice(FILLER)
        return "".join(chars)
    words = text.split()
    for i in rng.sample(range(len(words)), max(1, int(len(words) * share))):
        op = rng.random()
        if op < 0.4:
            words[i] = rng.choice(["very", "often", "really", "quite", "also", "simply"])
        elif op < 0.7:
            words[i] = ""
        else:
            words[i] = words[i] + " " + rng.choice(["indeed", "then", "here", "now"])
    return " ".join(w for w in words if w)


def noise(text, lang):
    if lang == "zh":
        return text.replace("，", ",", 2).replace("。", ". ", 1).replace("的", " 的", 1)
    return re.sub(r" ", "  ", text, count=3).replace(",", " ,", 2)


def reorder(text, lang):
    s = sentences(text, lang)
    rng.shuffle(s)
    return ("" if lang == "zh" else " ").join(s)


def copy(p, how, lang):
    """A copy of paragraph `p` made by `how`; its parts keep p's origins."""
    text = p["text"]
    if how == "exact":
        t = text
    elif how == "noise":
        t = noise(text, lang)
    elif how == "light":
        t = edit(text, lang, 0.07)
    elif how == "heavy":
        t = edit(text, lang, 0.22)
    elif how == "reorder":
        t = reorder(text, lang)
    else:
        raise ValueError(how)
    total = sum(n for _, n in p["parts"])
    n = nonws(t)
    return {"text": t, "parts": [(o, c * n / total) for o, c in p["parts"]], "how": how}


def partial(p, src, key, lang):
    """The first half or so of p's sentences, then text of one's own."""
    s = sentences(p["text"], lang)
    k = max(1, (len(s) + 1) // 2)
    joiner = "" if lang == "zh" else " "
    head = joiner.join(s[:k])
    mine = own(src, key, lang)
    tail = joiner.join(sentences(mine["text"], lang)[:2])
    return {"text": head + joiner + tail,
            "parts": [(p["parts"][0][0], nonws(head)), (mine["parts"][0][0], nonws(tail))], "how": "partial"}


def merge(p, q, lang):
    joiner = "" if lang == "zh" else " "
    return {"text": p["text"] + joiner + q["text"],
            "parts": [(p["parts"][0][0], nonws(p["text"])), (q["parts"][0][0], nonws(q["text"]))], "how": "merge"}


# ---- writers ----

def write_txt(path, paragraphs):
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n\n".join(paragraphs) + "\n")


def xml_escape(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
CONTENT_TYPES = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
                 '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                 '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
                 '<Default Extension="xml" ContentType="application/xml"/>'
                 '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
                 '</Types>')
RELS = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>'
        '</Relationships>')


def write_docx(path, paragraphs):
    body = "".join(f'<w:p><w:r><w:t xml:space="preserve">{xml_escape(p)}</w:t></w:r></w:p>' for p in paragraphs)
    doc = f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document {W}><w:body>{body}</w:body></w:document>'
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in [("[Content_Types].xml", CONTENT_TYPES), ("_rels/.rels", RELS), ("word/document.xml", doc)]:
            info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    open(path, "wb").write(buf.getvalue())


def pdf_bytes(objects, root=1):
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, root, xref)
    return bytes(out)


def stream(data):
    data = zlib.compress(data)
    return b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(data) + data + b"\nendstream"


def wrap(text, width):
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = (line + " " + word).strip()
    lines.append(line)
    return lines


def write_pdf(path, paragraphs):
    """English text in Courier 10 pt (WinAnsi, cp1252), 78 characters a line, a blank line between paragraphs,
    as many pages as needed; a CJK paragraph (the template) in a Type0 Identity-H font with a ToUnicode map."""
    def is_cjk(p):
        return bool(CJK.search(p))
    cjk = sorted({c for p in paragraphs if is_cjk(p) for c in p})
    cid = {c: i + 1 for i, c in enumerate(cjk)}
    lines = []
    for p in paragraphs:
        if is_cjk(p):
            for i in range(0, len(p), 40):
                lines.append(("cjk", p[i:i + 40]))
        else:
            lines.extend(("latin", l) for l in wrap(p, 78))
        lines.append(("gap", ""))
    pages, page, y = [], [], 720
    for kind, text in lines:
        if y < 80:
            pages.append(page)
            page, y = [], 720
            if kind == "gap":
                continue
        if kind != "gap":
            page.append((kind, text, y))
        y -= 14
    if page:
        pages.append(page)
    n = len(pages)
    # objects: 1 catalog, 2 pages, 3 resources, 4 Courier, 5 Type0, 6 CIDFont, 7 descriptor, 8 ToUnicode,
    # then per page: page object, content stream.
    def hexs(s):
        return b"<" + "".join("%04X" % cid[c] for c in s).encode() + b">"

    def latin(s):
        return b"(" + s.encode("cp1252", "replace").replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"
    cmap = ["/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Adobe-Identity-UCS def",
            "/CMapType 2 def 1 begincodespacerange <0000> <FFFF> endcodespacerange"]
    items = sorted(cid.items(), key=lambda kv: kv[1])
    for i in range(0, len(items), 100):
        chunk = items[i:i + 100]
        cmap.append("%d beginbfchar" % len(chunk))
        cmap += ["<%04X> <%s>" % (v, c.encode("utf-16-be").hex().upper()) for c, v in chunk]
        cmap.append("endbfchar")
    cmap.append("endcmap CMapName currentdict /CMap defineresource pop end end")
    widths = b"[" + b" ".join([b"600"] * 95) + b"]"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % (9 + 2 * i) for i in range(n)) + b"] /Count %d /MediaBox [0 0 612 792] >>" % n,
        b"<< /Font << /F1 4 0 R /F2 5 0 R >> >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding /FirstChar 32 /LastChar 126 /Widths " + widths + b" >>",
        b"<< /Type /Font /Subtype /Type0 /BaseFont /SimSun /Encoding /Identity-H /DescendantFonts [6 0 R] /ToUnicode 8 0 R >>",
        b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /SimSun /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor 7 0 R /DW 1000 >>",
        b"<< /Type /FontDescriptor /FontName /SimSun /Flags 4 /FontBBox [0 -140 1000 880] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 700 /StemV 80 >>",
        stream("\n".join(cmap).encode()),
    ]
    for i, page in enumerate(pages):
        ops = []
        for kind, text, y in page:
            if kind == "cjk":
                ops.append(b"BT /F2 10 Tf 1 0 0 1 72 %d Tm %s Tj ET" % (y, hexs(text)))
            else:
                ops.append(b"BT /F1 10 Tf 1 0 0 1 72 %d Tm %s Tj ET" % (y, latin(text)))
        objects.append(b"<< /Type /Page /Parent 2 0 R /Resources 3 0 R /Contents %d 0 R >>" % (10 + 2 * i))
        objects.append(stream(b"\n".join(ops)))
    open(path, "wb").write(pdf_bytes(objects))


# ---- the class ----

def main():
    pool = load_pool()
    src = Source(pool)
    docs = {}  # name -> (lang, [paragraph dicts])

    def essay(name, lang, key, n):
        docs[name] = (lang, [own(src, key, lang) for _ in range(n)])
        return docs[name][1]

    zh = [("zh", k) for k in ["manpages-zh", "manpages-zh", "kicad-doc-zh", "manpages-zh", "queries-zh",
                              "manpages-zh", "gnome-user-docs"]]
    # Group 1: a shared draft and three variations of it (manpages: one topic).
    mp = ("zh", "manpages-zh")
    draft = essay("s01-draft.txt", "zh", mp, 12)
    v = [own(src, mp, "zh") for _ in range(4)]
    docs["s02-variant.txt"] = ("zh", [copy(p, h, "zh") for p, h in zip(draft[:8], ["exact", "noise", "exact", "light", "exact", "noise", "light", "exact"])] + v)
    v = [own(src, mp, "zh") for _ in range(3)]
    docs["s03-variant.txt"] = ("zh", [copy(p, h, "zh") for p, h in zip(draft[2:11], ["light", "light", "reorder", "light", "noise", "exact", "reorder", "light", "light"])] + v)
    v = [own(src, mp, "zh") for _ in range(4)]
    docs["s04-variant.docx"] = ("zh", v[:2] + [copy(p, h, "zh") for p, h in zip(draft[4:10], ["heavy", "reorder", "light", "heavy", "light", "noise"])] + [merge(draft[10], draft[11], "zh")] + v[2:])
    # Group 2: a high share (about 80 %).
    faq = ("zh", "debian-faq-zh-cn")
    high = essay("s05-high.txt", "zh", faq, 15)
    docs["s06-high-copy.txt"] = ("zh", [copy(p, h, "zh") for p, h in zip(high[:12], ["exact", "light", "noise", "exact", "light", "reorder", "exact", "light", "noise", "exact", "light", "exact"])] + [own(src, faq, "zh") for _ in range(3)])
    # Group 3: a low share, 2 of 15 paragraphs (about 9 %): a pair, and so a group.
    kicad = ("zh", "kicad-doc-zh")
    low = essay("s07-low.txt", "zh", kicad, 15)
    mine = [own(src, kicad, "zh") for _ in range(13)]
    docs["s08-low-copy.txt"] = ("zh", mine[:5] + [copy(low[3], "exact", "zh")] + mine[5:10] + [partial(low[9], src, kicad, "zh")] + mine[10:])
    # Group 4: a chain, A from B, B from C (A's copies of B's copies of C share with C too).
    gnome = ("zh", "queries-zh")
    c = essay("s09-chain-c.txt", "zh", gnome, 12)
    b_own = [own(src, gnome, "zh") for _ in range(7)]
    b_copies = [copy(p, h, "zh") for p, h in zip(c[:5], ["exact", "light", "exact", "noise", "light"])]
    docs["s10-chain-b.txt"] = ("zh", b_own[:3] + b_copies + b_own[3:])
    a_own = [own(src, gnome, "zh") for _ in range(7)]
    docs["s11-chain-a.txt"] = ("zh", a_own[:4] + [copy(b_copies[0], "exact", "zh"), copy(b_copies[2], "light", "zh"), copy(b_copies[3], "exact", "zh"), copy(b_own[0], "exact", "zh"), copy(b_own[1], "noise", "zh")] + a_own[4:])
    # Group 5: cross-format, a Word essay and its copy printed to PDF (English).
    policy = ("en", "debian-policy")
    word = essay("s12-word.docx", "en", policy, 10)
    docs["s13-printed.pdf"] = ("en", [copy(p, h, "en") for p, h in zip(word[:7], ["exact", "exact", "light", "exact", "reorder", "exact", "light"])] + [own(src, policy, "en") for _ in range(3)])
    # Independent essays, many on the same topics.
    n = 14
    for i, (lang, key) in enumerate(zh * 4):
        if len(docs) >= 13 + 22:
            break
        try:
            essay("s%02d-own.txt" % n, lang, (lang, key), 10 + i % 5)
            n += 1
        except SystemExit:
            continue
    for key in ["developers-reference", "debian-policy", "debian-faq", "kicad-doc-en", "maint-guide"]:
        try:
            essay("s%02d-own-en.txt" % n, "en", ("en", key), 8)
            n += 1
        except SystemExit:
            continue
    # Low shares that still make groups (after the essays above, which stay as they were).
    # Group 6: a chain of three at 10-20 %: B copies 2 of A's 12 paragraphs, C (Word) 2 of B's own ones;
    # A and C share nothing.
    k6 = ("zh", "manpages-zh")
    g6a = essay("s41-low-chain-a.txt", "zh", k6, 12)
    g6b = [own(src, k6, "zh") for _ in range(10)]
    docs["s42-low-chain-b.txt"] = ("zh", g6b[:4] + [copy(g6a[2], "light", "zh")] + g6b[4:8] + [copy(g6a[7], "exact", "zh")] + g6b[8:])
    g6c = [own(src, k6, "zh") for _ in range(11)]
    docs["s43-low-chain-c.docx"] = ("zh", g6c[:3] + [copy(g6b[1], "noise", "zh")] + g6c[3:9] + [copy(g6b[6], "exact", "zh")] + g6c[9:])
    # Group 7: English, 2 of 11 paragraphs (about 18 %), a Word essay and a text.
    k7 = ("en", "debian-policy")
    g7a = essay("s44-low-en.docx", "en", k7, 10)
    g7b = [own(src, k7, "en") for _ in range(9)]
    docs["s45-low-en-copy.txt"] = ("en", g7b[:3] + [copy(g7a[4], "light", "en")] + g7b[3:7] + [copy(g7a[8], "exact", "en")] + g7b[7:])

    # ---- write files and the truth ----
    if os.path.isdir(OUT):
        for rootdir, _, files in os.walk(OUT, topdown=False):
            for f in files:
                os.remove(os.path.join(rootdir, f))
    os.makedirs(os.path.join(OUT, "submissions"), exist_ok=True)
    write_txt(os.path.join(OUT, "template.txt"), TEMPLATE)
    truth_docs, origins = {}, {}
    for name, (lang, paras) in sorted(docs.items()):
        texts = TEMPLATE + [p["text"] for p in paras]
        path = os.path.join(OUT, "submissions", name)
        {".txt": write_txt, ".docx": write_docx, ".pdf": write_pdf}[os.path.splitext(name)[1]](path, texts)
        rel = "submissions/" + name
        truth_docs[rel] = {"lang": lang, "chars": sum(nonws(p["text"]) for p in paras)}
        origins[rel] = {o for p in paras for o, _ in p["parts"]}
    pairs = []
    names = sorted(truth_docs)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            def shared(x, y):
                return sum(c for p in docs[x[len("submissions/"):]][1] for o, c in p["parts"] if o in origins[y])
            sa, sb = shared(a, b), shared(b, a)
            if sa == 0 and sb == 0:
                continue
            pairs.append({"a": a, "b": b, "a_ratio": round(sa / truth_docs[a]["chars"], 4),
                          "b_ratio": round(sb / truth_docs[b]["chars"], 4)})
    # Groups: connected components of the pairs (every pair here shares a paragraph that is listed at the
    # threshold, whatever the pair's ratios).
    parent = {d: d for d in names}

    def root(x):
        while parent[x] != x:
            x = parent[x]
        return x
    for p in pairs:
        parent[root(p["a"])] = root(p["b"])
    comps = {}
    for d in names:
        comps.setdefault(root(d), []).append(d)
    groups = sorted(sorted(g) for g in comps.values() if len(g) > 1)
    truth = {"threshold": THRESHOLD, "template": "template.txt", "min_match_chars": 13, "min_match_words": 6,
             "documents": truth_docs, "pairs": pairs, "groups": groups}
    with open(os.path.join(OUT, "truth.json"), "w", encoding="utf-8") as f:
        json.dump(truth, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"{len(names)} submissions, {len(pairs)} pairs, {len(groups)} groups", file=sys.stderr)
    for p in pairs:
        print(f"  {p['a']} {p['b']} {p['a_ratio']} {p['b_ratio']}", file=sys.stderr)


if __name__ == "__main__":
    main()
