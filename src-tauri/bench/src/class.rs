//! Synthetic classes for the class benchmark (`tongwen-class-bench`): as many Chinese essays as asked,
//! identically on every run, with known copying between them.
//!
//! Independent text comes from a character bigram chain learnt from real Chinese paragraphs (each next
//! character drawn with its frequency after the current one), so it has Chinese characters, words and
//! punctuation in realistic proportions for the segmenter and the shingles, while two essays share a
//! 13-character run only by chance. Every tenth essay copies five paragraphs of the essay before it
//! (the first two exactly, the others with one character in each changed): the planted pairs.

use std::collections::HashMap;

use tongwen_engine::text::normalize::{is_cjk, is_cjk_punctuation};

/// Paragraphs copied by each copying essay.
pub const COPIED_PARAGRAPHS: usize = 5;

/// Generator of essays (xorshift64*, fixed seed).
#[derive(Debug, Clone)]
pub struct ClassText {
    state: u64,
    /// Characters in order of first appearance, and each one's successors with repeats (a successor's
    /// share of the list is its frequency).
    chars: Vec<char>,
    next: HashMap<char, Vec<char>>,
}

impl ClassText {
    /// Learn the chain from `paragraphs` (Chinese characters and Chinese punctuation only).
    pub fn new<'a>(paragraphs: impl IntoIterator<Item = &'a str>) -> Self {
        let mut chars = Vec::new();
        let mut next: HashMap<char, Vec<char>> = HashMap::new();
        for p in paragraphs {
            let kept: Vec<char> = p
                .chars()
                .filter(|&c| is_cjk(c) || is_cjk_punctuation(c))
                .collect();
            for w in kept.windows(2) {
                next.entry(w[0])
                    .or_insert_with(|| {
                        chars.push(w[0]);
                        Vec::new()
                    })
                    .push(w[1]);
            }
        }
        ClassText {
            state: 0x9e37_79b9_7f4a_7c15,
            chars,
            next,
        }
    }

    /// Whether the chain learnt anything.
    pub fn is_empty(&self) -> bool {
        self.chars.is_empty()
    }

    fn next_u64(&mut self) -> u64 {
        self.state ^= self.state >> 12;
        self.state ^= self.state << 25;
        self.state ^= self.state >> 27;
        self.state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// One paragraph of `len` characters ending with a full stop.
    pub fn paragraph(&mut self, len: usize) -> String {
        let mut out = String::with_capacity(len * 3 + 3);
        let start = self.below(self.chars.len());
        let mut c = self.chars[start];
        for _ in 0..len {
            out.push(c);
            let r = self.next_u64() as usize;
            c = match self.next.get(&c) {
                Some(after) if !after.is_empty() => after[r % after.len()],
                _ => self.chars[r % self.chars.len()],
            };
        }
        out.push('。');
        out
    }

    /// A class of `n` essays of `paragraphs` paragraphs (25 to 45 characters each), with the planted
    /// copies; returns the essays and the planted pairs (essay indexes).
    pub fn class(
        &mut self,
        n: usize,
        paragraphs: usize,
    ) -> (Vec<Vec<String>>, Vec<(usize, usize)>) {
        let mut essays: Vec<Vec<String>> = Vec::with_capacity(n);
        let mut planted = Vec::new();
        for i in 0..n {
            let mut essay: Vec<String> = (0..paragraphs)
                .map(|_| {
                    let len = 25 + self.below(21);
                    self.paragraph(len)
                })
                .collect();
            if i % 10 == 9 {
                let source = &essays[i - 1];
                for k in 0..COPIED_PARAGRAPHS.min(paragraphs) {
                    let mut copy: Vec<char> = source[k * 2 % source.len()].chars().collect();
                    if k >= 2 {
                        let at = self.below(copy.len().saturating_sub(1));
                        copy[at] = '某';
                    }
                    essay[k * 3 % paragraphs] = copy.into_iter().collect();
                }
                planted.push((i - 1, i));
            }
            essays.push(essay);
        }
        (essays, planted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_class_every_run_with_a_copy_in_every_tenth_essay() {
        let corpus = [
            "软件包维护者应当定期检查错误报告，及时回复用户提出的问题。",
            "自由软件的精神在于分享与协作。",
        ];
        let (a, planted) = ClassText::new(corpus).class(20, 8);
        let (b, _) = ClassText::new(corpus).class(20, 8);
        assert_eq!(a, b);
        assert_eq!(planted, [(8, 9), (18, 19)]);
        assert_eq!(a[9][0], a[8][0], "the first copies are exact");
        assert!(a.iter().flatten().all(|p| p.ends_with('。')));
    }
}
