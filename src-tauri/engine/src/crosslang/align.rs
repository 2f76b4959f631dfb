//! Sentence pairs across the languages: how well two sentences translate each other
//! ([`pair_score`], [`PairFeatures`]), whether a pair is believable alone ([`PairEvidence`],
//! [`single_pair_confidence`]) and the alignment of two paragraphs' sentences ([`translation`]).

use super::{Language, Sentence, SENTENCE_COVER};

/// How many of `a`'s words have a concept in `b` (`a`'s words *covered* by `b`).
pub fn covered_words(a: &Sentence, b: &Sentence) -> usize {
    (0..a.words())
        .filter(|&i| a.word(i).iter().any(|&k| b.has(k)))
        .count()
}

/// What a sentence pair of two languages shares (see [`features`]).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PairFeatures {
    /// The smaller of the two sentences' shares of words covered by the other ([`covered_words`]).
    pub cover: f64,
    /// The smaller of the numbers of words each sentence has covered by the other.
    pub matched: u32,
    /// Anchors: the Chinese sentence's Latin tokens and numbers, and the English sentence's numbers
    /// the Chinese one lacks; and how many of the Chinese sentence's the English one keeps.
    pub anchors: u32,
    pub anchors_kept: u32,
    /// The English sentence's ASCII letters and digits over what the Chinese one predicts (an
    /// ideograph for [`LETTERS_PER_HAN`] of them, a Latin letter or digit for itself).
    pub length_ratio: f64,
}

/// English letters per Chinese ideograph in translated text (see [`PairFeatures`]).
pub const LETTERS_PER_HAN: f64 = 2.6;

/// The features of a pair of sentences of different languages.
pub fn features(a: &Sentence, b: &Sentence) -> PairFeatures {
    features_covered(a, b, covered_words(a, b))
}

/// [`features`], `a`'s words covered by `b` already counted (`ca`).
fn features_covered(a: &Sentence, b: &Sentence, ca: usize) -> PairFeatures {
    let (zh, en) = match a.language {
        Language::Chinese => (a, b),
        Language::English => (b, a),
    };
    let kept = zh
        .latin
        .iter()
        .filter(|h| en.latin.binary_search(h).is_ok())
        .count();
    let unmatched_numbers = en
        .numbers
        .iter()
        .filter(|h| zh.latin.binary_search(h).is_err())
        .count();
    let cb = covered_words(b, a);
    let share = |c: usize, s: &Sentence| c as f64 / s.words().max(1) as f64;
    PairFeatures {
        cover: share(ca, a).min(share(cb, b)),
        matched: ca.min(cb) as u32,
        anchors: (zh.latin.len() + unmatched_numbers) as u32,
        anchors_kept: kept as u32,
        length_ratio: length_ratio(zh, en),
    }
}

/// [`PairFeatures::length_ratio`] of a Chinese and an English sentence.
fn length_ratio(zh: &Sentence, en: &Sentence) -> f64 {
    let predicted = f64::from(zh.han) * LETTERS_PER_HAN + f64::from(zh.ascii);
    f64::from(en.ascii) / predicted.max(1.0)
}

/// How far the Chinese sentence's covered words keep their order in the English one, 0 to 1: each
/// Chinese content word with a concept in the English sentence stands at the first English content word
/// sharing one; the longest run of those positions that strictly increases, over the covered words (1
/// when all keep their order, 0 when none is covered).
pub fn order_agreement(zh: &Sentence, en: &Sentence) -> f64 {
    // Patience sorting: `tails[k]` is the smallest last position of an increasing run of k + 1.
    let mut tails: Vec<usize> = Vec::new();
    let mut covered = 0usize;
    for i in 0..zh.words() {
        let word = zh.word(i);
        let Some(at) = (0..en.words()).find(|&j| en.word(j).iter().any(|k| word.contains(k)))
        else {
            continue;
        };
        covered += 1;
        if let Err(k) = tails.binary_search(&at) {
            match tails.get_mut(k) {
                Some(t) => *t = at,
                None => tails.push(at),
            }
        }
    }
    if covered == 0 {
        0.0
    } else {
        tails.len() as f64 / covered as f64
    }
}

/// How well two sentences of different languages translate each other, 0 to 1: their cover (see
/// [`PairFeatures::cover`]), scaled
/// by the share of anchors kept (`(kept + 1) / (anchors + 1)`: a translation keeps commands, names and
/// numbers), and 0 when fewer than [`MIN_MATCHED`] words of either are covered or their lengths are out
/// of proportion (the English sentence's letters more than [`LENGTH_BAND`]× or less than
/// 1/[`LENGTH_BAND`] of what the Chinese one predicts).
pub fn pair_score(a: &Sentence, b: &Sentence) -> f64 {
    pair_score_with(a, b, MIN_MATCHED)
}

/// [`pair_score`], with at least `min_matched` words of each sentence covered.
fn pair_score_with(a: &Sentence, b: &Sentence, min_matched: u32) -> f64 {
    // The alignment asks for every pair of sentences: what rules a pair out cheaply is tested first
    // (lengths out of proportion, too few words of one sentence covered), with the same answer.
    let (zh, en) = match a.language {
        Language::Chinese => (a, b),
        Language::English => (b, a),
    };
    if !(1.0 / LENGTH_BAND..=LENGTH_BAND).contains(&length_ratio(zh, en)) {
        return 0.0;
    }
    let ca = covered_words(a, b);
    if (ca as u32) < min_matched {
        return 0.0;
    }
    let f = features_covered(a, b, ca);
    if f.matched < min_matched {
        return 0.0;
    }
    f.cover * f64::from(f.anchors_kept + 1) / f64::from(f.anchors + 1)
}

/// What decides whether one sentence pair is believed alone: its [`PairFeatures`], how far its covered
/// words keep their order ([`order_agreement`]), each side's share of words covered and its words,
/// and its pairing score. The order and the sides are left out of the features because the pairing
/// score, which reads them for every pair it tries, does not need them.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PairEvidence {
    pub features: PairFeatures,
    pub order: f64,
    /// The Chinese and the English sentence's shares of words covered by the other.
    pub covers: [f64; 2],
    /// The Chinese and the English sentence's content words.
    pub words: [usize; 2],
    /// The pair's score as aligned ([`pair_score`], or a gap pair's).
    pub score: f64,
}

impl PairEvidence {
    /// The evidence of a pair of sentences of different languages, scored by [`pair_score`].
    pub fn of(a: &Sentence, b: &Sentence) -> PairEvidence {
        PairEvidence::scored(a, b, pair_score(a, b))
    }

    fn scored(a: &Sentence, b: &Sentence, score: f64) -> PairEvidence {
        let (zh, en) = match a.language {
            Language::Chinese => (a, b),
            Language::English => (b, a),
        };
        let share =
            |x: &Sentence, y: &Sentence| covered_words(x, y) as f64 / x.words().max(1) as f64;
        PairEvidence {
            features: features(a, b),
            order: order_agreement(zh, en),
            covers: [share(zh, en), share(en, zh)],
            words: [zh.words(), en.words()],
            score,
        }
    }
}

/// How convincing one sentence pair is as a translation, as log-odds: a logistic model of the pair's
/// [`PairEvidence`] and whether the submission paragraph has more than one sentence
/// (`several_sentences`: for a pair of one sentence each, some are left unpaired), fitted on the
/// single-pair matches of the calibration sets (docs/how-it-works.md, "Copies by translation":
/// translations against same-topic sentences, which share a manual's vocabulary and reach the pairing
/// score alone). The words' order, the share of English words covered, the words covered and the
/// pairing score weigh most; lengths out of proportion (1.15 English letters per predicted one), more
/// words on either side and anchors lost count against.
pub fn single_pair_confidence(e: &PairEvidence, several_sentences: bool) -> f64 {
    let f = &e.features;
    let x = [
        f.cover,
        f64::from(f.matched.max(1)).ln(),
        (f.length_ratio.max(1e-3) / 1.15).ln().abs(),
        f64::from(f.anchors_kept.min(3)),
        f64::from(u8::from(several_sentences)),
        e.order,
        e.covers[0],
        e.covers[1],
        (1.0 + e.words[0] as f64).ln(),
        (1.0 + e.words[1] as f64).ln(),
        e.score,
        f64::from(f.anchors.saturating_sub(f.anchors_kept)),
    ];
    COEFFICIENTS[0]
        + COEFFICIENTS[1..]
            .iter()
            .zip(x)
            .map(|(c, v)| c * v)
            .sum::<f64>()
}

/// [`single_pair_confidence`]'s intercept and weights: cover, ln(words covered), |ln(length ratio /
/// 1.15)|, anchors kept (at most 3), several sentences, order agreement, the Chinese and the English
/// sentence's shares covered, ln(1 + their words), the pairing score, anchors lost.
const COEFFICIENTS: [f64; 13] = [
    -4.323, 1.694, 2.894, -1.161, 0.626, -1.319, 3.06, 1.09, 2.8, -1.067, -1.441, 1.674, -0.583,
];

/// The [`PairEvidence`] of `pair`, one of [`translation`]'s pairs of `submission` and `source` (its
/// sentences on each side, two joined when it joins them).
pub fn pair_features(
    submission: &[Sentence],
    source: &[Sentence],
    pair: &SentencePair,
) -> Option<PairEvidence> {
    // As `translation` reads them: the submission's sentences of its language, the source's of the
    // other.
    let language = submission.first()?.language;
    let within = |sentences: &[Sentence], (start, end): (usize, usize), own: bool| {
        let mut inside = sentences
            .iter()
            .filter(|s| (s.language == language) == own && s.start >= start && s.end <= end);
        let first = inside.next()?;
        Some(match inside.next() {
            Some(second) => join(first, second),
            None => first.clone(),
        })
    };
    let a = within(submission, pair.submission, true)?;
    let b = within(source, pair.source, false)?;
    Some(PairEvidence::scored(&a, &b, pair.score))
}

/// Words of each sentence a pair must have covered by the other (see [`pair_score`]): half of a
/// four-word sentence is two words, which same-topic sentences share by chance.
pub const MIN_MATCHED: u32 = 3;

/// How far out of proportion the lengths of a sentence and its translation may be (see [`pair_score`]).
pub const LENGTH_BAND: f64 = 2.2;

/// Two neighbouring sentences as one (for a sentence translated as two, or two as one).
pub(super) fn join(a: &Sentence, b: &Sentence) -> Sentence {
    let merge = |x: &[u64], y: &[u64]| {
        let mut v = [x, y].concat();
        v.sort_unstable();
        v.dedup();
        v
    };
    let base = a.keys.len() as u32;
    Sentence {
        start: a.start,
        end: b.end,
        language: a.language,
        keys: [&a.keys[..], &b.keys[..]].concat(),
        ends: a
            .ends
            .iter()
            .copied()
            .chain(b.ends.iter().map(|e| e + base))
            .collect(),
        concepts: merge(&a.concepts, &b.concepts),
        latin: merge(&a.latin, &b.latin),
        numbers: merge(&a.numbers, &b.numbers),
        han: a.han + b.han,
        ascii: a.ascii + b.ascii,
    }
}

/// A sentence of the submission and the source sentence it translates, with how well (the smaller of
/// the two covers).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SentencePair {
    pub submission: (usize, usize),
    pub source: (usize, usize),
    pub score: f64,
    /// Paired in a gap between two pairs (or a pair and the paragraphs' edges), at the lower
    /// [`GAP_COVER`] (see [`translation`]): it does not count towards what makes a match convincing.
    pub gap: bool,
    /// Two neighbouring sentences of one side joined (a sentence translated as two, or two as one).
    pub joined: bool,
}

/// How much of `submission` (its sentences) translates `source`: the sentence pairs and the share of the
/// submission's characters in them.
///
/// The two are aligned in order, as a translator goes (Gale and Church's alignment, on concepts instead
/// of lengths alone): a sentence pairs with one sentence of the other language, or with two neighbouring
/// ones joined (a sentence translated as two, or two as one; only when the join scores higher than
/// either sentence alone), when their [`pair_score`] reaches [`SENTENCE_COVER`]; sentences may stay unpaired on either side; the alignment kept is the one that
/// pairs the most submission characters. Where that leaves as many sentences unpaired on each side
/// between two pairs (or between a pair and the paragraphs' edges), they pair one to one in order at
/// [`GAP_COVER`] (marked `gap`). A submission sentence still unpaired then pairs out of order only when
/// its score reaches [`REORDERED_COVER`] (a translation whose sentences were moved), with a source
/// sentence no other pair holds: a sentence translates one sentence, and two sentences that say the
/// same (a writer's own restatement) are not both its translation.
pub fn translation(submission: &[Sentence], source: &[Sentence]) -> (Vec<SentencePair>, f64) {
    align(submission, source, true)
}

/// [`translation`] with one-to-one pairs only: no two neighbouring sentences joined.
pub fn translation_unjoined(
    submission: &[Sentence],
    source: &[Sentence],
) -> (Vec<SentencePair>, f64) {
    align(submission, source, false)
}

fn align(submission: &[Sentence], source: &[Sentence], joins: bool) -> (Vec<SentencePair>, f64) {
    let total: usize = submission.iter().map(|s| s.end - s.start).sum();
    let Some(language) = submission.first().map(|s| s.language) else {
        return (Vec::new(), 0.0);
    };
    let sub: Vec<&Sentence> = submission
        .iter()
        .filter(|s| s.language == language)
        .collect();
    let src: Vec<&Sentence> = source.iter().filter(|t| t.language != language).collect();
    // Two very long paragraphs (a hostile file's) are not aligned: their pairs would not fit in memory.
    if sub.len().saturating_mul(src.len()) > MAX_ALIGNED_PAIRS {
        return (Vec::new(), 0.0);
    }
    let (n, m) = (sub.len(), src.len());
    let len = |s: &Sentence| (s.end - s.start) as f64;
    let one: Vec<Vec<f64>> = sub
        .iter()
        .map(|s| src.iter().map(|t| pair_score(s, t)).collect())
        .collect();
    // Neighbouring sentences joined, once each (a sentence translated as two, or two as one).
    let joined = |side: &[&Sentence]| -> Vec<Sentence> {
        side.windows(2).map(|w| join(w[0], w[1])).collect()
    };
    let (sub_joined, src_joined) = (joined(&sub), joined(&src));
    // best[i][j]: the most submission characters `sub[i..]` and `src[j..]` pair, and the step taken.
    #[derive(Clone, Copy)]
    enum Step {
        End,
        SkipSubmission,
        SkipSource,
        /// Sentences taken from each side, and the pair's score.
        Pair(usize, usize, f64),
    }
    let mut best = vec![vec![(0.0f64, Step::End); m + 1]; n + 1];
    for i in (0..=n).rev() {
        for j in (0..=m).rev() {
            let mut here = (0.0, Step::End);
            let mut consider = |gain: f64, step: Step| {
                if gain > here.0 {
                    here = (gain, step);
                }
            };
            if i < n {
                consider(best[i + 1][j].0, Step::SkipSubmission);
            }
            if j < m {
                consider(best[i][j + 1].0, Step::SkipSource);
            }
            if i < n && j < m {
                // A small share of the score breaks ties between alignments of equal length.
                let mut pair = |di: usize, dj: usize, score: f64| {
                    if score >= SENTENCE_COVER {
                        let chars: f64 = sub[i..i + di].iter().map(|s| len(s)).sum();
                        consider(
                            chars + score * 1e-3 + best[i + di][j + dj].0,
                            Step::Pair(di, dj, score),
                        );
                    }
                };
                pair(1, 1, one[i][j]);
                // A join counts only when it pairs better than either of its sentences alone (else
                // it would take in a neighbour that translates nothing here).
                if joins && j + 1 < m {
                    let joined = pair_score(sub[i], &src_joined[j]);
                    if joined > one[i][j].max(one[i][j + 1]) {
                        pair(1, 2, joined);
                    }
                }
                if joins && i + 1 < n {
                    let joined = pair_score(&sub_joined[i], src[j]);
                    if joined > one[i][j].max(one[i + 1][j]) {
                        pair(2, 1, joined);
                    }
                }
            }
            best[i][j] = here;
        }
    }
    let mut pairs = Vec::new();
    let mut steps = Vec::new();
    let mut paired = vec![false; n];
    // Source sentences already someone's partner: a moved sentence pairs only with a free one.
    let mut taken = vec![false; m];
    let (mut i, mut j) = (0, 0);
    loop {
        match best[i][j].1 {
            Step::End => break,
            Step::SkipSubmission => i += 1,
            Step::SkipSource => j += 1,
            Step::Pair(di, dj, score) => {
                pairs.push(SentencePair {
                    submission: (sub[i].start, sub[i + di - 1].end),
                    source: (src[j].start, src[j + dj - 1].end),
                    score,
                    gap: false,
                    joined: di + dj > 2,
                });
                steps.push((i, di, j, dj));
                paired[i..i + di].fill(true);
                taken[j..j + dj].fill(true);
                i += di;
                j += dj;
            }
        }
    }
    // Gaps: as many sentences left on each side between two pairs, or between a pair and the
    // paragraphs' edges, pair one to one in order when they share some concepts (a translator's
    // sentence that the dictionary reads poorly, between two it reads well).
    if !steps.is_empty() {
        let mut from = (0, 0);
        let ends = steps
            .iter()
            .map(|&(i, di, j, dj)| ((i, j), (i + di, j + dj)))
            .chain([((n, m), (n, m))]);
        for (start, next) in ends {
            let size = start.0 - from.0;
            if size > 0 && size == start.1 - from.1 {
                for k in 0..size {
                    let (a, b) = (sub[from.0 + k], src[from.1 + k]);
                    let score = pair_score_with(a, b, GAP_MIN_MATCHED);
                    if score >= GAP_COVER {
                        pairs.push(SentencePair {
                            submission: (a.start, a.end),
                            source: (b.start, b.end),
                            score,
                            gap: true,
                            joined: false,
                        });
                        paired[from.0 + k] = true;
                        taken[from.1 + k] = true;
                    }
                }
            }
            from = next;
        }
    }
    // Sentences moved: out of order, a higher bar.
    for (i, s) in sub.iter().enumerate() {
        if paired[i] {
            continue;
        }
        let found = one[i]
            .iter()
            .enumerate()
            .filter(|&(j, _)| !taken[j])
            .max_by(|x, y| x.1.total_cmp(y.1))
            .filter(|b| *b.1 >= REORDERED_COVER);
        if let Some((j, &score)) = found {
            taken[j] = true;
            pairs.push(SentencePair {
                submission: (s.start, s.end),
                source: (src[j].start, src[j].end),
                score,
                gap: false,
                joined: false,
            });
            paired[i] = true;
        }
    }
    pairs.sort_by_key(|p| p.submission);
    let translated: usize = (0..n)
        .filter(|&i| paired[i])
        .map(|i| sub[i].end - sub[i].start)
        .sum();
    let share = if total == 0 {
        0.0
    } else {
        translated as f64 / total as f64
    };
    (pairs, share)
}

/// Sentence pairs (submission sentences × source sentences) beyond which two paragraphs are not
/// aligned (see [`translation`]): 1,000 sentences against 1,000, 32 MB of alignment table. Paragraphs
/// of real documents hold tens of sentences.
pub const MAX_ALIGNED_PAIRS: usize = 1_000_000;

/// The score a sentence pair out of order must reach (see [`translation`]).
pub const REORDERED_COVER: f64 = 0.65;

/// The score a sentence in a gap between two pairs must reach to pair with the one in the same place on
/// the other side (see [`translation`]), with at least [`GAP_MIN_MATCHED`] words of each covered.
pub const GAP_COVER: f64 = 0.3;
pub const GAP_MIN_MATCHED: u32 = 2;
