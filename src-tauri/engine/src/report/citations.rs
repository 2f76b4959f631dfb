//! Quotations and the citations that attribute them, read by the grammar of citations as style guides
//! teach them (APA 7, MLA 9, Chicago author-date and notes, IEEE and other numeric styles, GB/T
//! 7714-2015 顺序编码制 and 著者-出版年制, and Chinese prose conventions). The rules, in the order they
//! are tried (docs/how-it-works.md, "Quotes and references", writes them out):
//!
//! 1. **Extent.** A quotation is the text between matching marks (“…” 「…」 『…』 ‘…’ «…» „…“ 〝…〞
//!    ＂…＂ "…"), marks included; marks inside a quotation belong to it. A **block quotation** is a
//!    paragraph of its own that the paragraph before introduces (see 4), with or without marks.
//! 2. **Sources.** A citation names a source by one of: a number in brackets (`[3]`, `［3, 5］`,
//!    `[3-5]`), a note mark (superscript digits, ①–⑳, `*`, `†`, `[^3]`), a parenthesis holding a year
//!    (`(Smith, 2019, p. 12)`, `（王明，2019）`, `(2019)` after a name), a parenthesis of a name and a page
//!    (`(Smith 12)`, MLA), a title in 《》, or a named author before a verb of saying (王明指出,
//!    正如王明所说, Smith argues that, according to Smith). A name is a Latin word written with a capital
//!    that is not a generic subject (It, People, Experts…), or two to four Chinese characters that begin
//!    with a family name and are not a generic subject (有人, 专家, 研究…). Quotation marks, a verb of
//!    saying or "according to" with nobody named are not a citation.
//! 3. **Attachment.** A quotation is cited when a source stands right after its closing mark (after
//!    punctuation, so also after the sentence's full stop: `…” [3]`, `…". (Smith, 2019, p. 12)`), later
//!    in its sentence unless the quotation closed it (`“…”，王明（2019）如是说`, `"…," writes Smith.`), in
//!    its sentence before the opening mark (`张明（2019）指出：“…”`, `据《…》记载：“…”`, `As Smith (2019)
//!    explains, "…"`), or when a page reference alone follows it and its sentence names someone before
//!    it (`Okafor concedes, "…" (41).`, MLA's and APA's form when the signal phrase names the author).
//! 4. **Block quotations.** A paragraph is a cited block quotation when the paragraph before it ends with
//!    a colon after a source (`王磊（2020）对此写道：`, `文献[4]指出：`, `As Smith (2019) explains:`), or
//!    when its own last line is a source set apart after the final full stop (`. (Smith, 2019, p. 12)`,
//!    `——王磊《…》`), as APA and Chinese style put a block quotation's citation.
//!
//! Each quotation keeps where its citation stands, so a report can show why a passage was excused.

use serde::Serialize;

use crate::text::normalize::is_cjk;

/// One quotation of a paragraph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quotation {
    /// `[start, end)` in characters of the paragraph, marks included (the whole paragraph for a block
    /// quotation).
    pub range: [usize; 2],
    /// The citation that attributes it, if any.
    pub citation: Option<Citation>,
}

/// Where a quotation's citation stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Citation {
    /// `[start, end)` in characters of the paragraph it stands in.
    pub range: [usize; 2],
    /// It stands in the paragraph before (a block quotation's lead-in).
    pub in_previous: bool,
}

/// The quotations of `text`, a paragraph whose preceding paragraph is `previous`.
pub fn quotations(text: &str, previous: Option<&str>) -> Vec<Quotation> {
    quotations_noted(text, previous, &[])
}

/// [`quotations`] of a paragraph whose document puts footnote or endnote references at the character
/// offsets `notes` (a Word file's notes: the reference marks are not in the text). A note reference
/// right after a quotation (after punctuation) cites it; the citation is the character before it.
pub fn quotations_noted(text: &str, previous: Option<&str>, notes: &[usize]) -> Vec<Quotation> {
    let chars: Vec<char> = text.chars().collect();
    if let Some(citation) = block_citation(&chars, previous) {
        return vec![Quotation {
            range: [0, chars.len()],
            citation: Some(citation),
        }];
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let Some(close) = closing_mark(&chars, i) else {
            i += 1;
            continue;
        };
        match closing_at(&chars, i, close) {
            Some(last) => {
                let end = last + 1;
                let range = [i, end];
                let citation = noted_after(&chars, end, notes)
                    .or_else(|| cited_after(&chars, end))
                    .or_else(|| cited_before(&chars, i))
                    .or_else(|| page_after_a_signal_phrase(&chars, i, end))
                    .map(|range| Citation {
                        range,
                        in_previous: false,
                    });
                out.push(Quotation { range, citation });
                i = end;
            }
            None => i += 1,
        }
    }
    out
}

/// A note reference right after a quotation ending at `end` (after punctuation only).
fn noted_after(chars: &[char], end: usize, notes: &[usize]) -> Option<[usize; 2]> {
    let stop = (end..chars.len())
        .find(|&k| !is_lead_punct(chars[k]))
        .unwrap_or(chars.len());
    notes
        .iter()
        .find(|&&n| (end..=stop).contains(&n))
        .map(|&n| [n.saturating_sub(1), n.max(1)])
}

/// A page reference right after the quotation `[start, end)` whose signal phrase names its author.
fn page_after_a_signal_phrase(chars: &[char], start: usize, end: usize) -> Option<[usize; 2]> {
    let open = (end..chars.len()).find(|&k| !is_lead_punct(chars[k]))?;
    let (inner, close) = bracketed(chars, open)?;
    (matches!(chars[open], '(' | '（')
        && is_page_only(&inner)
        && names_someone_before(chars, start))
    .then_some([open, close])
}

/// The closing marks of an opening mark at `i`.
fn closing_mark(chars: &[char], i: usize) -> Option<&'static [char]> {
    Some(match chars[i] {
        '“' => &['”'],
        '「' => &['」'],
        '『' => &['』'],
        '‘' => &['’'],
        '«' => &['»'],
        '„' => &['“', '”'],
        '〝' => &['〞', '〟'],
        '＂' => &['＂'],
        '"' => &['"'],
        _ => return None,
    })
}

/// The closing mark of the quotation opening at `open`: marks of the same kind opened inside it are
/// nested (`“当选中“飞线”时…”`), except straight marks, which cannot nest.
fn closing_at(chars: &[char], open: usize, close: &[char]) -> Option<usize> {
    let opener = chars[open];
    let mut depth = 0usize;
    for (k, &c) in chars.iter().enumerate().skip(open + 1) {
        if close.contains(&c) {
            if depth == 0 {
                return Some(k);
            }
            depth -= 1;
        } else if c == opener {
            depth += 1;
        }
    }
    // Unbalanced nesting: the first closing mark.
    (depth > 0)
        .then(|| chars[open + 1..].iter().position(|c| close.contains(c)))
        .flatten()
        .map(|p| open + 1 + p)
}

/// Sentence ends: a Chinese full stop, question or exclamation mark, a semicolon, or a Latin one
/// followed by a space and a capital letter, a digit that starts a new sentence is not told apart.
fn ends_sentence_at(chars: &[char], i: usize) -> bool {
    match chars[i] {
        '。' | '！' | '？' | '；' => true,
        '.' | '!' | '?' => {
            let next = chars.get(i + 1).copied();
            let after = chars.get(i + 2).copied();
            // "p. 12", "et al. (2019)", "e.g. the" are not sentence ends.
            let before_is_word =
                i >= 2 && chars[i - 1].is_alphabetic() && chars[i - 2].is_alphabetic();
            next.is_none_or(char::is_whitespace)
                && after.is_some_and(|c| c.is_uppercase() || is_cjk(c) || is_opening(c))
                && (before_is_word
                    || i.checked_sub(1)
                        .is_some_and(|p| matches!(chars[p], '”' | '"' | ')' | '’' | '»')))
        }
        _ => false,
    }
}

/// A closing quotation mark.
fn is_closing(c: char) -> bool {
    matches!(c, '”' | '」' | '』' | '’' | '»' | '〞' | '〟' | '＂' | '"')
}

/// An opening quotation mark (a new sentence may start with one).
fn is_opening(c: char) -> bool {
    matches!(c, '“' | '"' | '‘' | '「' | '«')
}

/// Punctuation a citation may stand after.
fn is_lead_punct(c: char) -> bool {
    c.is_whitespace() || "，,。.；;：:！!？?、".contains(c)
}

/// A source at the start of `chars[from..]`, after punctuation: its range.
fn source_at(chars: &[char], from: usize) -> Option<[usize; 2]> {
    let start = (from..chars.len()).find(|&k| !is_lead_punct(chars[k]))?;
    let c = chars[start];
    if is_note_mark(c) {
        let end = (start..chars.len())
            .find(|&k| !is_note_mark(chars[k]))
            .unwrap_or(chars.len());
        return Some([start, end]);
    }
    // A note number set as a raised digit reads as a plain one in a PDF's text: one to three digits
    // glued to the closing mark, then no letter or digit (`…”3。`, `…."12 The`).
    if c.is_ascii_digit() && start == from && from > 0 && is_closing(chars[from - 1]) {
        let end = (start..chars.len())
            .find(|&k| !chars[k].is_ascii_digit())
            .unwrap_or(chars.len());
        let after = chars.get(end).copied();
        if end - start <= 3 && !after.is_some_and(|a| a.is_alphanumeric() && !is_cjk(a)) {
            return Some([start, end]);
        }
    }
    if c == '[' && chars.get(start + 1) == Some(&'^') {
        let end = chars[start..].iter().position(|&x| x == ']')? + start + 1;
        return Some([start, end]);
    }
    let (inner, end) = bracketed(chars, start)?;
    let is_source = match c {
        '[' | '［' => is_reference_numbers(&inner) || inner.starts_with('^'),
        '(' | '（' => is_author_year(&inner) || is_author_page(&inner),
        '《' => !inner.trim().is_empty(),
        _ => false,
    };
    is_source.then_some([start, end])
}

/// The text inside a bracket opening at `start` (`[…]`, `［…］`, `(…)`, `（…）`, `《…》`), and the index
/// after its close.
fn bracketed(chars: &[char], start: usize) -> Option<(String, usize)> {
    let close = match chars[start] {
        '[' => ']',
        '［' => '］',
        '(' => ')',
        '（' => '）',
        '《' => '》',
        _ => return None,
    };
    let len = chars[start + 1..]
        .iter()
        .take(80)
        .position(|&x| x == close || x == '）' || x == ')' || x == ']' || x == '］')?;
    if chars[start + 1 + len] != close
        && !matches!(
            (close, chars[start + 1 + len]),
            (')', '）') | ('）', ')') | (']', '］') | ('］', ']')
        )
    {
        return None;
    }
    Some((
        chars[start + 1..start + 1 + len].iter().collect(),
        start + len + 2,
    ))
}

fn is_note_mark(c: char) -> bool {
    matches!(c, '¹' | '²' | '³' | '⁰'..='⁹' | '①'..='⑳' | '*' | '†' | '‡')
}

/// Reference numbers: `3`, `3, 5`, `3-5`, `3，5`, `3、5`.
fn is_reference_numbers(inner: &str) -> bool {
    !inner.trim().is_empty()
        && inner.chars().any(|c| c.is_ascii_digit())
        && inner
            .chars()
            .all(|c| c.is_ascii_digit() || " ,，-–、".contains(c))
}

/// A four-digit year (1500–2099, a letter after it allowed: 2019a) in `text`, or `n.d.`.
fn has_year(text: &str) -> bool {
    let digits: Vec<char> = text.chars().collect();
    text.contains("n.d.")
        || digits.windows(4).enumerate().any(|(i, w)| {
            w.iter().all(|c| c.is_ascii_digit())
                && matches!(w[0], '1' | '2')
                && (i == 0 || !digits[i - 1].is_ascii_digit())
                && !digits.get(i + 4).is_some_and(|c| c.is_ascii_digit())
        })
}

/// `Smith, 2019`, `Smith et al., 2019, p. 12`, `王明，2019`, `2019` (a narrative citation's year after
/// the name), `Smith 2019: 12`.
fn is_author_year(inner: &str) -> bool {
    let t = inner.trim();
    has_year(t)
        && (t.chars().any(char::is_alphabetic) || t.chars().take(4).all(|c| c.is_ascii_digit()))
        && t.chars().count() <= 60
}

/// MLA's `Smith 12`, `Smith and Brown 12-14`, `Smith et al. 12`: a capitalised name, then a page.
fn is_author_page(inner: &str) -> bool {
    let words: Vec<&str> = inner.split_whitespace().collect();
    let Some((last, names)) = words.split_last() else {
        return false;
    };
    let page = last.trim_matches(|c: char| c == '.' || c == ',');
    !names.is_empty()
        && names.len() <= 5
        && names[0].chars().next().is_some_and(char::is_uppercase)
        && names[0]
            .chars()
            .all(|c| c.is_alphabetic() || c == '.' || c == '-' || c == '\'')
        && !page.is_empty()
        && page
            .chars()
            .all(|c| c.is_ascii_digit() || c == '-' || c == '–')
        && page.chars().next().is_some_and(|c| c.is_ascii_digit())
}

/// A citation attached after a quotation ending at `end`: right after it, or later in its sentence.
fn cited_after(chars: &[char], end: usize) -> Option<[usize; 2]> {
    if let Some(r) = source_at(chars, end) {
        return Some(r);
    }
    // A quotation that ends its sentence (`…."`, `…。”`) is followed by another sentence, which names
    // nobody for it.
    if end >= 2 && matches!(chars[end - 2], '.' | '!' | '?' | '。' | '！' | '？') {
        return None;
    }
    // The rest of the sentence (at most 80 characters): a source anywhere in it, or a named author
    // with a verb of saying (`"…," writes Smith.`, `“…”，王明如是说。`).
    let stop = (end..chars.len())
        .take(80)
        .find(|&k| ends_sentence_at(chars, k))
        .unwrap_or_else(|| chars.len().min(end + 80));
    let rest = &chars[end..stop];
    if let Some(r) = source_inside(rest) {
        return Some([end + r[0], end + r[1]]);
    }
    named_speaker(rest).map(|r| [end + r[0], end + r[1]])
}

/// A page reference alone, as MLA and APA write it when the signal phrase names the author: `(41)`,
/// `(p. 41)`, `(pp. 3-5)`, `（第41页）`.
fn is_page_only(inner: &str) -> bool {
    let t = inner.trim();
    let t = t
        .strip_prefix("pp.")
        .or_else(|| t.strip_prefix("p."))
        .unwrap_or(t)
        .trim();
    let t = t
        .strip_prefix('第')
        .and_then(|x| x.strip_suffix('页'))
        .unwrap_or(t);
    !t.is_empty()
        && t.len() <= 9
        && t.chars()
            .all(|c| c.is_ascii_digit() || c == '-' || c == '–')
}

/// A signal phrase before the quotation opening at `start` that names its author with any verb
/// (`Okafor concedes, "…" (41)`): a name (see [`is_en_name`], [`is_zh_name`]) in the sentence before
/// the mark.
fn names_someone_before(chars: &[char], start: usize) -> bool {
    let from = (0..start)
        .rev()
        .take(120)
        .find(|&k| ends_sentence_at(chars, k))
        .map_or(start.saturating_sub(120), |k| k + 1);
    let before: String = chars[from..start].iter().collect();
    let words = word_spans(&before);
    let latin = words.iter().enumerate().any(|(i, (_, w))| {
        is_en_name(w) && (i > 0 || !GENERIC_NOUNS_EN.contains(&w.to_lowercase().as_str()))
    });
    let chinese = before
        .split(|c: char| !is_cjk(c))
        .any(|run| (2..=3).any(|n| is_zh_name(&run.chars().take(n).collect::<String>())));
    latin || chinese
}

/// A citation in the sentence before a quotation opening at `start`.
fn cited_before(chars: &[char], start: usize) -> Option<[usize; 2]> {
    let from = (0..start)
        .rev()
        .take(120)
        .find(|&k| ends_sentence_at(chars, k))
        .map_or(start.saturating_sub(120), |k| k + 1);
    let before = &chars[from..start];
    let lead = lead_in(before)?;
    Some([from + lead[0], from + lead[1]])
}

/// Whether `clause` (the text before a quotation, or a lead-in paragraph) attributes what follows it:
/// a source, or a named author with a verb of saying, in its last clause. The source's range.
fn lead_in(clause: &[char]) -> Option<[usize; 2]> {
    if let Some(r) = source_inside(clause) {
        return Some(r);
    }
    named_speaker(clause)
}

/// The first source inside `chars`: a bracketed number, a parenthesis with a year or an author and
/// page, a title in 《》, a note mark after a word.
fn source_inside(chars: &[char]) -> Option<[usize; 2]> {
    (0..chars.len()).find_map(|k| {
        let c = chars[k];
        let candidate = matches!(c, '[' | '［' | '(' | '（' | '《')
            || (is_note_mark(c) && c != '*' && k > 0 && !chars[k - 1].is_whitespace());
        if !candidate {
            return None;
        }
        source_at(chars, k).filter(|r| r[0] == k)
    })
}

/// Verbs of saying that introduce or follow a quotation, Chinese.
const SAYS_ZH: [&str; 28] = [
    "所说",
    "所述",
    "所言",
    "所写",
    "指出",
    "认为",
    "写道",
    "曾说",
    "说过",
    "说道",
    "提到",
    "强调",
    "表示",
    "主张",
    "记载",
    "谈到",
    "提出",
    "总结道",
    "描述",
    "阐述",
    "论述",
    "坦言",
    "直言",
    "解释",
    "声称",
    "如是说",
    "告诫",
    "说",
];

/// Verbs of saying, English (with the forms writers use).
const SAYS_EN: [&str; 44] = [
    "says",
    "said",
    "states",
    "stated",
    "writes",
    "wrote",
    "notes",
    "noted",
    "argues",
    "argued",
    "explains",
    "explained",
    "observes",
    "observed",
    "claims",
    "claimed",
    "suggests",
    "suggested",
    "remarks",
    "remarked",
    "puts it",
    "put it",
    "contends",
    "contended",
    "maintains",
    "maintained",
    "asserts",
    "asserted",
    "concludes",
    "concluded",
    "reports",
    "reported",
    "emphasizes",
    "emphasises",
    "emphasized",
    "emphasised",
    "points out",
    "pointed out",
    "insists",
    "insisted",
    "describes",
    "described",
    "defines",
    "defined",
];

/// Subjects that name nobody.
const GENERIC_EN: [&str; 40] = [
    "it",
    "this",
    "that",
    "he",
    "she",
    "they",
    "we",
    "you",
    "one",
    "i",
    "some",
    "many",
    "most",
    "people",
    "experts",
    "researchers",
    "scholars",
    "critics",
    "others",
    "someone",
    "somebody",
    "everyone",
    "everybody",
    "nobody",
    "studies",
    "research",
    "authors",
    "writers",
    "proponents",
    "opponents",
    "supporters",
    "observers",
    "commentators",
    "the",
    "a",
    "an",
    "as",
    "so",
    "who",
    "there",
];

/// Nouns that start sentences as subjects of saying without naming anyone (`Experience shows`).
const GENERIC_NOUNS_EN: [&str; 24] = [
    "experience",
    "history",
    "science",
    "evidence",
    "literature",
    "tradition",
    "wisdom",
    "common",
    "documentation",
    "data",
    "theory",
    "practice",
    "society",
    "everybody",
    "somebody",
    "anyone",
    "folklore",
    "legend",
    "custom",
    "scripture",
    "philosophy",
    "psychology",
    "economics",
    "all",
];

/// Subjects that name nobody, Chinese.
const GENERIC_ZH: [&str; 16] = [
    "有人", "人们", "大家", "专家", "学者", "研究", "业内", "网友", "俗话", "古人", "老话", "常言",
    "据说", "众人", "作者", "笔者",
];

/// What may stand between a Chinese name and its verb of saying (王磊对此写道, 王明教授指出).
const ZH_NAME_SUFFIXES: [&str; 22] = [
    "",
    "对此",
    "曾",
    "曾经",
    "也",
    "则",
    "就",
    "早就",
    "在书中",
    "在文中",
    "书中",
    "文中",
    "先生",
    "教授",
    "博士",
    "老师",
    "女士",
    "等人",
    "等",
    "进一步",
    "明确",
    "也曾",
];

/// Characters that do not stand in a name (function words).
const NOT_IN_NAMES: &str = "的了是在和与也就都而及着或这那有我你他她它们个于其此之为以所被把";

/// Common Chinese family names (the first character of a name before a verb of saying).
const FAMILY_NAMES: &str = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤鲁费季柳欧阳司马诸葛上官";

/// A named author with a verb of saying in `chars`: the name's range.
fn named_speaker(chars: &[char]) -> Option<[usize; 2]> {
    let text: String = chars.iter().collect();
    zh_speaker(chars).or_else(|| en_speaker(&text))
}

fn zh_speaker(chars: &[char]) -> Option<[usize; 2]> {
    for verb in SAYS_ZH {
        let v: Vec<char> = verb.chars().collect();
        for k in (0..(chars.len() + 1).saturating_sub(v.len())).rev() {
            if chars[k..k + v.len()] != v[..] {
                continue;
            }
            // The agent: the Chinese characters right before the verb, after 正如, 如, 据, 诚如.
            let agent_start = (0..k)
                .rev()
                .take_while(|&a| is_cjk(chars[a]))
                .last()
                .unwrap_or(k);
            let mut agent: String = chars[agent_start..k].iter().collect();
            let mut start = agent_start;
            for lead in ["正如", "诚如", "如同", "据", "如", "按"] {
                if let Some(rest) = agent.strip_prefix(lead) {
                    start += lead.chars().count();
                    agent = rest.to_string();
                    break;
                }
            }
            if is_zh_agent(&agent) {
                return Some([start, k + v.len()]);
            }
        }
    }
    None
}

/// A Chinese name, with what may stand between it and its verb: `王明`, `欧阳修`, `王磊对此`.
fn is_zh_agent(agent: &str) -> bool {
    ZH_NAME_SUFFIXES
        .iter()
        .any(|suffix| agent.strip_suffix(suffix).is_some_and(is_zh_name))
}

fn is_zh_name(name: &str) -> bool {
    let n = name.chars().count();
    let compound = ["欧阳", "司马", "诸葛", "上官", "东方", "慕容"]
        .iter()
        .any(|c| name.starts_with(c));
    (2..=if compound { 4 } else { 3 }).contains(&n)
        && name
            .chars()
            .next()
            .is_some_and(|c| FAMILY_NAMES.contains(c))
        && !name.chars().any(|c| NOT_IN_NAMES.contains(c))
        && !GENERIC_ZH.iter().any(|g| name.starts_with(g))
}

fn en_speaker(text: &str) -> Option<[usize; 2]> {
    let lower = text.to_lowercase();
    // Byte offsets of `text` to character offsets (the same for the lower-cased text of Latin script;
    // a text whose lower case changes length is not matched).
    if lower.len() != text.len() {
        return None;
    }
    // (Equal lengths need not mean equal character boundaries: a boundary of the lower-cased text
    // that is not one of `text` counts what precedes it.)
    let char_at = |byte: usize| {
        let mut b = byte.min(text.len());
        while !text.is_char_boundary(b) {
            b -= 1;
        }
        text[..b].chars().count()
    };
    let words: Vec<(usize, &str)> = word_spans(text);
    // "according to NAME"
    if let Some(b) = lower.rfind("according to ") {
        let after = &words
            .iter()
            .filter(|(at, _)| *at >= b + "according to ".len())
            .collect::<Vec<_>>();
        if let Some((at, w)) = after.first() {
            if is_en_name(w) {
                return Some([char_at(b), char_at(at + w.len())]);
            }
        }
    }
    for verb in SAYS_EN {
        let mut search = 0;
        while let Some(found) = lower[search..].find(verb) {
            let b = search + found;
            search = b + verb.len();
            let whole = (b == 0 || !lower.as_bytes()[b - 1].is_ascii_alphabetic())
                && lower
                    .as_bytes()
                    .get(b + verb.len())
                    .is_none_or(|c| !c.is_ascii_alphabetic());
            if !whole {
                continue;
            }
            // Subject before the verb (Smith argues), or inverted after it (writes Smith).
            let before: Vec<&(usize, &str)> = words.iter().filter(|(at, _)| *at < b).collect();
            let after: Vec<&(usize, &str)> = words
                .iter()
                .filter(|(at, _)| *at >= b + verb.len())
                .collect();
            let near: Vec<&&(usize, &str)> = before.iter().rev().take(3).collect();
            let subject = near.iter().position(|(_, w)| is_en_name(w));
            if let Some(p) = subject {
                let (at, w) = near[p];
                // A sentence's first word is written with a capital whatever it is: alone, it names
                // someone only when it is not a common noun (`Experience shows` names nobody).
                let first =
                    p + 1 == before.len() && GENERIC_NOUNS_EN.contains(&w.to_lowercase().as_str());
                if !first {
                    return Some([char_at(*at), char_at(b + verb.len())]);
                }
            }
            if let Some((at, w)) = after.first().filter(|(_, w)| is_en_name(w)) {
                return Some([char_at(b), char_at(at + w.len())]);
            }
        }
    }
    None
}

/// The words of `text` with their byte offsets.
fn word_spans(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        let part = c.is_alphabetic() || c == '\'' || c == '-';
        match (part, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, &text[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &text[s..]));
    }
    out
}

/// A Latin word that names someone: written with a capital, not a generic subject.
fn is_en_name(word: &str) -> bool {
    let lower = word.to_lowercase();
    word.chars().next().is_some_and(char::is_uppercase)
        && word.chars().count() >= 2
        && !GENERIC_EN.contains(&lower.as_str())
}

/// A block quotation's citation: in the lead-in paragraph before it, or on its own last line.
fn block_citation(chars: &[char], previous: Option<&str>) -> Option<Citation> {
    if let Some(previous) = previous {
        let p: Vec<char> = previous.trim_end().chars().collect();
        if matches!(p.last(), Some('：' | ':')) {
            // The lead-in's last sentence.
            let from = (0..p.len().saturating_sub(1))
                .rev()
                .find(|&k| ends_sentence_at(&p, k))
                .map_or(0, |k| k + 1);
            if let Some(r) = lead_in(&p[from..p.len() - 1]) {
                return Some(Citation {
                    range: [from + r[0], from + r[1]],
                    in_previous: true,
                });
            }
        }
    }
    // Its own last line: a source set apart after the final full stop, `. (Smith, 2019, p. 12)`, or a
    // dash attribution `——王磊《…》`, `— Smith`.
    let end = chars.iter().rposition(|c| !c.is_whitespace())? + 1;
    let body = &chars[..end];
    if let Some(dash) = (0..body.len())
        .rev()
        .take(40)
        .find(|&k| body[k] == '—' || body[k] == '―')
    {
        let after = &body[dash + 1..];
        let first = after.iter().position(|c| !c.is_whitespace() && *c != '—')?;
        let tail: String = after[first..].iter().collect();
        let name: String = tail.chars().take_while(|c| is_cjk(*c)).collect();
        let en = tail.split_whitespace().next().is_some_and(is_en_name);
        if (dash > 0 && matches!(body[dash - 1], '—' | '。' | '.' | '”' | '"' | ' '))
            && (tail.contains('《') || is_zh_name(&name.chars().take(3).collect::<String>()) || en)
        {
            return Some(Citation {
                range: [dash + 1 - usize::from(body[dash - 1] == '—'), end],
                in_previous: false,
            });
        }
    }
    if matches!(body.last(), Some(')' | '）')) {
        let open = body.iter().rposition(|&c| c == '(' || c == '（')?;
        let before = body[..open].iter().rposition(|c| !c.is_whitespace())?;
        let (inner, _) = bracketed(body, open)?;
        if matches!(body[before], '.' | '。' | '!' | '?' | '！' | '？')
            && (is_author_year(&inner) || is_author_page(&inner))
        {
            return Some(Citation {
                range: [open, end],
                in_previous: false,
            });
        }
    }
    None
}

#[cfg(test)]
mod tests;
