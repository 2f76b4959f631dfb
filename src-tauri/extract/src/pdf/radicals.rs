//! Radicals shown for ideographs. PDF printers that pick a font's first code point for a glyph (Chromium's
//! print to PDF among them) write a Kangxi radical (U+2F00–U+2FD5), a CJK radical supplement character
//! (U+2E80–U+2EF3) or a CJK compatibility ideograph where the document had the ordinary ideograph that
//! looks the same: `⽬前的桌⾯` for `目前的桌面`, `⻅` for `见`. Each is mapped back:
//!
//! - Kangxi radicals by NFKC (each has a compatibility decomposition to its ideograph);
//! - the radicals supplement by the Unicode Character Database's `EquivalentUnifiedIdeograph.txt`
//!   (`assets/unicode/radicals-supplement.txt`);
//! - compatibility ideographs (U+F900–U+FAFF, U+2F800–U+2FA1F) by NFC (canonical singletons).
//!
//! A Kangxi radical's ideograph is a traditional form where the simplified one differs (⼾ → 戶, ⾒ → 見,
//! ⾨ → 門 …): in a document written in simplified characters it is given in its simplified form (户, 见,
//! 门), as the text the printer drew from. A document counts as simplified when it uses more common
//! simplified-only characters than traditional-only ones.

use std::collections::HashMap;
use std::sync::OnceLock;

use unicode_normalization::UnicodeNormalization;

use crate::Block;

const SUPPLEMENT: &str = include_str!("../../../../assets/unicode/radicals-supplement.txt");

/// Traditional ideographs of Kangxi radicals with a different simplified form.
const SIMPLIFIED_OF_RADICAL: &[(char, char)] = &[
    ('戶', '户'),
    ('見', '见'),
    ('貝', '贝'),
    ('車', '车'),
    ('長', '长'),
    ('門', '门'),
    ('韋', '韦'),
    ('頁', '页'),
    ('風', '风'),
    ('飛', '飞'),
    ('馬', '马'),
    ('魚', '鱼'),
    ('鳥', '鸟'),
    ('鹵', '卤'),
    ('麥', '麦'),
    ('黃', '黄'),
    ('黽', '黾'),
    ('齊', '齐'),
    ('齒', '齿'),
    ('龍', '龙'),
    ('龜', '龟'),
    ('言', '言'),
];

/// Common characters that differ between the scripts: (simplified, traditional).
const SCRIPT_PAIRS: &[(char, char)] = &[
    ('这', '這'),
    ('们', '們'),
    ('说', '說'),
    ('国', '國'),
    ('会', '會'),
    ('时', '時'),
    ('来', '來'),
    ('为', '為'),
    ('个', '個'),
    ('对', '對'),
    ('发', '發'),
    ('经', '經'),
    ('过', '過'),
    ('还', '還'),
    ('没', '沒'),
    ('样', '樣'),
    ('进', '進'),
    ('么', '麼'),
    ('学', '學'),
    ('问', '問'),
    ('题', '題'),
    ('实', '實'),
    ('现', '現'),
    ('与', '與'),
    ('从', '從'),
    ('后', '後'),
    ('动', '動'),
    ('开', '開'),
    ('关', '關'),
    ('数', '數'),
    ('据', '據'),
    ('统', '統'),
    ('软', '軟'),
    ('件', '件'),
];

fn supplement() -> &'static HashMap<char, char> {
    static MAP: OnceLock<HashMap<char, char>> = OnceLock::new();
    MAP.get_or_init(|| {
        let hex = |s: &str| u32::from_str_radix(s.trim(), 16).ok();
        let mut map = HashMap::new();
        for line in SUPPLEMENT.lines() {
            let line = line.split('#').next().unwrap_or_default();
            let Some((from, to)) = line.split_once(';') else {
                continue;
            };
            let Some(to) = hex(to).and_then(char::from_u32) else {
                continue;
            };
            let (a, b) = from.split_once("..").unwrap_or((from, from));
            if let (Some(a), Some(b)) = (hex(a), hex(b)) {
                for c in (a..=b).filter_map(char::from_u32) {
                    map.insert(c, to);
                }
            }
        }
        map
    })
}

fn is_kangxi(c: char) -> bool {
    ('\u{2F00}'..='\u{2FD5}').contains(&c)
}

fn is_compatibility_ideograph(c: char) -> bool {
    ('\u{F900}'..='\u{FAFF}').contains(&c) || ('\u{2F800}'..='\u{2FA1F}').contains(&c)
}

/// Whether a text needs mapping at all.
fn has_radicals(text: &str) -> bool {
    text.chars().any(|c| {
        is_kangxi(c) || ('\u{2E80}'..='\u{2EFF}').contains(&c) || is_compatibility_ideograph(c)
    })
}

/// Map the radicals of every paragraph to ideographs (see the module documentation).
pub fn normalize(blocks: &mut [Block]) {
    if !blocks.iter().any(|b| has_radicals(&b.text)) {
        return;
    }
    let (mut simplified, mut traditional) = (0usize, 0usize);
    for c in blocks.iter().flat_map(|b| b.text.chars()) {
        for &(s, t) in SCRIPT_PAIRS {
            simplified += usize::from(c == s && s != t);
            traditional += usize::from(c == t && s != t);
        }
    }
    let in_simplified = simplified >= traditional;
    for b in blocks.iter_mut().filter(|b| has_radicals(&b.text)) {
        b.text = map_text(&b.text, in_simplified);
    }
}

fn map_text(text: &str, in_simplified: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if is_kangxi(c) {
            for ideograph in c.nfkc() {
                let simple = SIMPLIFIED_OF_RADICAL
                    .iter()
                    .find(|&&(t, _)| t == ideograph)
                    .map(|&(_, s)| s);
                out.push(match simple {
                    Some(s) if in_simplified => s,
                    _ => ideograph,
                });
            }
        } else if let Some(&ideograph) = supplement().get(&c) {
            out.push(ideograph);
        } else if is_compatibility_ideograph(c) {
            out.extend(c.nfc());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn radicals_read_as_the_ideographs_they_stand_for() {
        let mut blocks = vec![
            Block::body("⽬前的 Debian 桌⾯ GUI（图形⽤⼾界⾯）"),
            Block::body("⻅到⻓期的问题，这里没有部首。"),
            Block::body("\u{F900}"),
        ];
        normalize(&mut blocks);
        assert_eq!(blocks[0].text, "目前的 Debian 桌面 GUI（图形用户界面）");
        assert_eq!(blocks[1].text, "见到长期的问题，这里没有部首。");
        assert_eq!(blocks[2].text, "豈");
        // In a traditional document the Kangxi door stays traditional.
        let mut tw = vec![Block::body("這個⽤⼾說過，們們。")];
        normalize(&mut tw);
        assert_eq!(tw[0].text, "這個用戶說過，們們。");
        // Every supplement line was read.
        assert_eq!(
            supplement().len(),
            114,
            "U+2E81..U+2EF3 but U+2E9A, which is unassigned"
        );
    }
}
